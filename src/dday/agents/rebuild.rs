//! A full game state rebuilt from one side's observation and a guess of the hidden allocation —
//! the determinization of the search (D1 `search`). Whatever the observation does not hold and
//! no future rule reads (the dice log, the placing order, which unit a German casualty came from,
//! the VP lines' details) is filled in canonically; fresh dice come from `seed`.

use super::view::View;
use crate::dday::action::Action;
use crate::dday::allocation::{sequence_of, Contents};
use crate::dday::dice::Dice;
use crate::dday::ids::{Answer, FigState, Kind, Phase, Pool, Side, Unit, VpLine, Zone, ITEM_ORDER, NUM_ITEMS};
use crate::dday::state::{Figure, Guess, Interrogation, Pending, Record, Skirmish, State, Vp, MAX_FIGURES, MAX_LINES};

fn task_bits(faces: &[bool; 6]) -> u8 {
    (0..6).filter(|&f| faces[f]).fold(0, |m, f| m | 1 << (f + 1))
}

/// A set with `n` faces (which faces a record held is not observed; only their number scores).
fn first_faces(n: u8) -> u8 {
    (1..=n.min(6)).fold(0, |m, f| m | 1 << f)
}

/// The state `v` describes, with `alloc` as the allocation (it must agree with what `v` shows).
pub fn rebuild(v: &View, alloc: &Contents, seed: u64) -> Option<State> {
    let mut interrogation = Interrogation::new();
    for (k, &(zone, value, answer)) in v.log.iter().enumerate().take(7) {
        let answer = [Answer::TooHigh, Answer::TooLow, Answer::Correct][answer.min(2) as usize];
        interrogation.log[k] = Some(Guess { zone, value, answer });
        interrogation.n += 1;
    }
    interrogation.guesses_left = v.guesses_left;
    let attacked: Vec<Zone> = Zone::ALL.iter().copied().filter(|z| v.attacked[z.idx()]).collect();
    let mut s = State {
        phase: v.phase,
        placement: [0; NUM_ITEMS],
        placed: NUM_ITEMS as u8,
        interrogation,
        attacked: (attacked.len() == 2).then(|| [attacked[0], attacked[1]]),
        order: v.order,
        skirmish_index: None,
        skirmish: Skirmish::empty(Zone::Caen),
        records: [None, None],
        vp: Vp { resistance: v.vp.0, german: v.vp.1, n_lines: 0, lines: [None; MAX_LINES] },
        pending: None,
        outcome: None,
        dice: Dice::new(seed, Vec::new()),
    };
    if v.phase == Phase::Allocation {
        // The placed items in G2's canonical order (the German sees them).
        let mut i = 0;
        for &k in Kind::ALL {
            for z in 0..5 {
                for _ in 0..v.allocation[z][k.idx()] {
                    if i < NUM_ITEMS && ITEM_ORDER[i] == k {
                        s.placement[i] = z as u8;
                        i += 1;
                    }
                }
            }
        }
        s.placed = i as u8;
        return Some(s);
    }
    s.placement = sequence_of(alloc)?;
    for (k, r) in v.records.iter().enumerate() {
        if let (Some((rc, gc, rf, gf, lost, killed)), Some(order)) = (r, v.order) {
            let zone = order[k];
            let c = alloc[zone.idx()];
            s.records[k] = Some(Record {
                zone,
                completed: if *rc {
                    Some(Side::Resistance)
                } else if *gc {
                    Some(Side::German)
                } else {
                    None
                },
                task: [first_faces(*rf), first_faces(*gf)],
                resistance_size: 0,
                resistance_killed: *lost,
                resistance_ran_away: 0,
                resistance_evacuated: 0,
                german_figures: 6 * c[Kind::Squad.idx()] + 3 * c[Kind::Gendarme.idx()],
                german_killed: *killed,
                german_ran_away: 0,
                german_evacuated: 0,
            });
        }
    }
    s.pending = match (v.phase, &v.pending) {
        (Phase::GroupSize, Some((_, d, _))) => Some(Pending::GroupSize { die: *d.first()? }),
        (Phase::ActionPoints, Some((_, d, _))) => Some(Pending::ActionPoints { dice: [*d.first()?, *d.get(1)?] }),
        (Phase::Clock, Some((_, d, _))) => Some(Pending::Clock { die: *d.first()? }),
        (Phase::Scoring, Some((kind, d, slot))) => {
            let line =
                [VpLine::GermanTask, VpLine::NoTrain, VpLine::SquadPresent, VpLine::ResistanceTask, VpLine::Train]
                    [kind.checked_sub(3)?.min(4)];
            let mut dice = [0; 4];
            for (x, y) in dice.iter_mut().zip(d) {
                *x = *y;
            }
            Some(Pending::Vp { slot: (*slot)?, line, n: d.len() as u8, dice })
        }
        (Phase::Hit, _) => v.shot.map(|(from, to)| Pending::Hit { from, to }),
        (Phase::Morale, _) => v.flee.map(|(section, remaining)| Pending::Flee { section, remaining }),
        _ => None,
    };
    if let (Some(k), Some(order)) = (v.skirmish, v.order) {
        s.skirmish_index = Some(k);
        s.skirmish = skirmish(v, alloc, order[k as usize]);
    }
    Some(s)
}

fn skirmish(v: &View, alloc: &Contents, zone: Zone) -> Skirmish {
    let mut sk = Skirmish::empty(zone);
    if v.phase == Phase::GroupSize {
        return sk;
    }
    sk.task_section = v.task_section;
    sk.clock = v.clock as i16;
    sk.turn = v.turn.unwrap_or(Side::Resistance);
    sk.task = [task_bits(&v.task_sets[0]), task_bits(&v.task_sets[1])];
    sk.task_rolled = v.task_rolled;
    sk.pools = v.pools;
    if matches!(v.phase, Phase::Actions | Phase::Hit | Phase::ActionPoints) {
        for p in Pool::ALL {
            let own = (p == &Pool::Resistance) == (sk.turn == Side::Resistance);
            sk.pools_rolled[p.idx()] = own && (v.pools[p.idx()] > 0 || p == &Pool::Resistance);
        }
    }
    let mut figs: Vec<Figure> = Vec::with_capacity(MAX_FIGURES);
    let fig = |unit, section, state| Figure { unit, section, state, ..Figure::NONE };
    // Resistance: the table's classes, then those gone.
    for sec in 1..=6u8 {
        let c = v.figures[sec as usize - 1];
        for (n, st) in [(c[0], FigState::Standing), (c[1], FigState::InCover), (c[2], FigState::Casualty)] {
            figs.extend(std::iter::repeat_n(fig(Unit::Resistance, sec, st), n as usize));
        }
    }
    figs.extend(std::iter::repeat_n(fig(Unit::Resistance, 1, FigState::RanAway), v.losses[0] as usize));
    figs.extend(std::iter::repeat_n(fig(Unit::Resistance, 1, FigState::Evacuated), v.losses[1] as usize));
    sk.group_size = figs.len() as u8;
    // German: each unit's fighting figures, then the non-fighting ones (unit not observed)
    // shared out to fill the units up to their size.
    let items = alloc[zone.idx()];
    let mut units: Vec<(Unit, usize, usize)> = Vec::new(); // (unit, size, class offset)
    if items[Kind::Squad.idx()] > 0 {
        units.push((Unit::Squad, 6, 3));
    }
    for k in 0..items[Kind::Gendarme.idx()] as usize {
        units.push((Unit::gendarme(k), 3, 5 + 2 * k));
    }
    let mut gone: Vec<(u8, FigState)> = Vec::new();
    for sec in 1..=6u8 {
        gone.extend(std::iter::repeat_n((sec, FigState::Casualty), v.figures[sec as usize - 1][11] as usize));
    }
    gone.extend(std::iter::repeat_n((6, FigState::RanAway), v.losses[2] as usize));
    gone.extend(std::iter::repeat_n((6, FigState::Evacuated), v.losses[3] as usize));
    let mut gone = gone.into_iter();
    for (unit, size, off) in units {
        let start = figs.len();
        for sec in 1..=6u8 {
            let c = v.figures[sec as usize - 1];
            figs.extend(std::iter::repeat_n(fig(unit, sec, FigState::Standing), c[off] as usize));
            figs.extend(std::iter::repeat_n(fig(unit, sec, FigState::InCover), c[off + 1] as usize));
        }
        while figs.len() - start < size {
            let Some((sec, st)) = gone.next() else { break };
            figs.push(fig(unit, sec, st));
        }
    }
    figs.truncate(MAX_FIGURES);
    // Fresh figures, then the acting one (not fresh) with its counters.
    if matches!(v.phase, Phase::Actions | Phase::Hit) {
        for sec in 1..=6u8 {
            for u in Unit::ALL {
                for (x, st) in [FigState::Standing, FigState::InCover].into_iter().enumerate() {
                    let mut n = v.fresh[sec as usize - 1][u.idx()][x];
                    for f in figs.iter_mut().filter(|f| f.unit == *u && f.section == sec && f.state == st) {
                        if n == 0 {
                            break;
                        }
                        f.fresh = true;
                        n -= 1;
                    }
                }
            }
        }
    }
    if let Some((sec, unit, in_cover, moves, shots, cover)) = v.acting {
        let st = if in_cover { FigState::InCover } else { FigState::Standing };
        if let Some(i) = figs.iter().position(|f| f.unit == unit && f.section == sec && f.state == st && !f.fresh) {
            figs[i].moves = moves;
            figs[i].shots = shots;
            figs[i].cover_changed = cover;
            sk.acting = Some(i as u8);
        }
    }
    sk.n_figures = figs.len() as u8;
    sk.figures[..figs.len()].copy_from_slice(&figs);
    sk
}

/// Plays the rest of `s`'s allocation phase, placing each item where `alloc` puts it (G2 order);
/// `None` if `alloc` is not a valid allocation or disagrees with the items already placed.
pub fn place_allocation(s: &mut State, alloc: &Contents) -> Option<()> {
    let seq = sequence_of(alloc)?;
    while s.phase == Phase::Allocation {
        let k = s.placed as usize;
        let a = Action::Allocate(ITEM_ORDER[k], Zone::ALL[seq[k] as usize]).index()?;
        crate::dday::rules::apply(s, a as i64).ok()?;
    }
    Some(())
}
