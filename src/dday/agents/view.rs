//! What a bundled agent reads: the observation vector decoded back into named fields (D3: the
//! agents use nothing else). Offsets come from the observation's own layout table.

use crate::dday::ids::{Phase, Side, Unit, Zone};
use crate::dday::observation::{observation_layout, OBSERVATION_SIZE};
use std::sync::OnceLock;

/// A finished skirmish as observed: (Resistance completed, German completed, Resistance faces,
/// German faces, Resistance killed + ran away, German killed).
pub type RecordView = (bool, bool, u8, u8, u8, u8);

/// A decoded observation (counts are whole numbers again).
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub me: Side,
    pub phase: Phase,
    pub to_move: Option<Side>,
    /// Zone × kind item counts, for the zones in `known`.
    pub allocation: [[u8; 5]; 5],
    pub known: [bool; 5],
    pub next_item: Option<usize>,
    /// (zone, value, answer 0 too_high / 1 too_low / 2 correct).
    pub log: Vec<(Zone, u8, u8)>,
    pub guesses_left: u8,
    pub zone_open: [bool; 5],
    pub bounds: [(u8, u8); 5],
    pub attacked: [bool; 5],
    pub order: Option<[Zone; 2]>,
    pub skirmish: Option<u8>,
    pub zone_items: [u8; 5],
    pub task_section: Option<u8>,
    pub clock: u8,
    pub turn: Option<Side>,
    /// Per section (index 0 = section 1), the 12 classes of the `figures` slice.
    pub figures: [[u8; 12]; 6],
    /// Per section × unit × state: fresh figures of the turn player.
    pub fresh: [[[u8; 2]; 5]; 6],
    /// The acting figure: (section, unit, in cover, moves, shots, cover changed).
    pub acting: Option<(u8, Unit, bool, u8, u8, bool)>,
    pub pools: [u8; 6],
    pub task_sets: [[bool; 6]; 2],
    pub task_rolled: bool,
    pub holds_task_section: bool,
    /// (kind 0–7, dice, slot).
    pub pending: Option<(usize, Vec<u8>, Option<u8>)>,
    pub shot: Option<(u8, u8)>,
    pub flee: Option<(u8, u8)>,
    pub losses: [u8; 4],
    pub records: [Option<RecordView>; 2],
    pub vp: (u16, u16),
}

/// The observation fields the agents read, in the order `decode` binds them.
#[rustfmt::skip]
const FIELDS: [&str; 30] = [
    "self", "phase", "to_move", "allocation", "allocation_known", "next_item",
    "interrogation", "guesses_left", "zone_open", "value_bounds", "attacked", "play_order",
    "skirmish", "zone_items", "task_section", "clock", "turn", "figures",
    "fresh", "acting", "pools", "task_sets", "task_rolled", "holds_task_section",
    "pending", "shot", "flee", "losses", "records", "vp",
];

/// Each of `FIELDS`' (offset, length) in the observation, looked up by name once.
fn offsets() -> &'static [(usize, usize); 30] {
    static OFFSETS: OnceLock<[(usize, usize); 30]> = OnceLock::new();
    OFFSETS.get_or_init(|| {
        let layout = observation_layout();
        FIELDS.map(|name| {
            let &(_, off, len) = layout.iter().find(|&&(n, _, _)| n == name).expect("a field of the layout");
            (off, len)
        })
    })
}

/// A count written as `count / by` (never negative): adding ½ and truncating rounds it without a
/// libm call.
fn count(x: f32, by: f32) -> u8 {
    (x * by + 0.5) as u8
}

fn hot(s: &[f32]) -> Option<usize> {
    s.iter().position(|&x| x > 0.5)
}

fn side_of(seat: &[f32]) -> Side {
    if seat[1] > 0.5 {
        Side::German
    } else {
        Side::Resistance
    }
}

fn phase_of(phase: &[f32]) -> Phase {
    Phase::from_idx(hot(phase).unwrap_or(0)).unwrap_or(Phase::GameOver)
}

// Indices in `FIELDS` of the fields read without a whole decode.
const SEAT: usize = 0;
const PHASE: usize = 1;
const INTERROGATION: usize = 6;
const GUESSES_LEFT: usize = 7;

/// A field of the observation, by its index in `FIELDS`.
fn field(obs: &[f32], k: usize) -> &[f32] {
    let (off, len) = offsets()[k];
    &obs[off..off + len]
}

impl View {
    /// The side whose observation `obs` is and the phase of its pending decision, read without
    /// decoding the rest (for agents that ask this at every decision).
    pub fn seat_and_phase(obs: &[f32]) -> (Side, Phase) {
        (side_of(field(obs, SEAT)), phase_of(field(obs, PHASE)))
    }

    /// Whether the interrogation is untouched: no guess made and all seven left (I1).
    pub fn no_guess_yet(obs: &[f32]) -> bool {
        hot(&field(obs, INTERROGATION)[..5]).is_none() && count(field(obs, GUESSES_LEFT)[0], 7.0) == 7
    }

    pub fn decode(obs: &[f32]) -> View {
        assert!(obs.len() >= OBSERVATION_SIZE, "an observation has {OBSERVATION_SIZE} floats");
        #[rustfmt::skip]
        let [
            seat, phase, to_move, alloc, allocation_known, next_item,
            l, guesses_left, zone_open, b, attacked, po,
            skirmish, zone_items, task_section, clock, turn, f,
            fr, ac, pools, ts, task_rolled, holds_task_section,
            p, sh, fl, losses, r, vp,
        ] = offsets().map(|(off, len)| &obs[off..off + len]);
        let me = side_of(seat);
        let phase = phase_of(phase);
        let to_move = hot(to_move).and_then(Side::from_idx);
        let allocation = std::array::from_fn(|z| std::array::from_fn(|k| count(alloc[z * 5 + k], 3.0)));
        let known = std::array::from_fn(|z| allocation_known[z] > 0.5);
        let next_item = hot(next_item);
        let mut log = Vec::new();
        for row in l.chunks(9) {
            if let Some(z) = hot(&row[..5]) {
                log.push((Zone::ALL[z], count(row[5], 10.0), hot(&row[6..9]).unwrap_or(0) as u8));
            }
        }
        let order = match (hot(&po[..5]), hot(&po[5..])) {
            (Some(x), Some(y)) => Some([Zone::ALL[x], Zone::ALL[y]]),
            _ => None,
        };
        let acting = hot(&ac[..6]).map(|sec| {
            let unit = Unit::from_idx(hot(&ac[6..11]).unwrap_or(0)).unwrap_or(Unit::Resistance);
            (sec as u8 + 1, unit, ac[12] > 0.5, count(ac[13], 2.0), count(ac[14], 2.0), ac[15] > 0.5)
        });
        let pending = hot(&p[..8]).map(|kind| {
            let dice: Vec<u8> = p[8..12].iter().map(|&d| count(d, 6.0)).filter(|&d| d > 0).collect();
            (kind, dice, hot(&p[12..14]).map(|x| x as u8))
        });
        let shot = match (hot(&sh[..6]), hot(&sh[6..])) {
            (Some(x), Some(y)) => Some((x as u8 + 1, y as u8 + 1)),
            _ => None,
        };
        let flee = hot(&fl[..6]).map(|s| (s as u8 + 1, count(fl[6], 12.0)));
        let skirmish = hot(skirmish).map(|x| x as u8);
        // A record exists for every skirmish already finished.
        let finished = match phase {
            Phase::Scoring | Phase::GameOver if order.is_some() => 2,
            _ => skirmish.unwrap_or(0) as usize,
        };
        let records = std::array::from_fn(|k| {
            let row = &r[k * 6..k * 6 + 6];
            (k < finished).then(|| {
                (
                    row[0] > 0.5,
                    row[1] > 0.5,
                    count(row[2], 6.0),
                    count(row[3], 6.0),
                    count(row[4], 9.0),
                    count(row[5], 12.0),
                )
            })
        });
        View {
            me,
            phase,
            to_move,
            allocation,
            known,
            next_item,
            log,
            guesses_left: count(guesses_left[0], 7.0),
            zone_open: std::array::from_fn(|z| zone_open[z] > 0.5),
            bounds: std::array::from_fn(|z| (count(b[2 * z], 10.0), count(b[2 * z + 1], 10.0))),
            attacked: std::array::from_fn(|z| attacked[z] > 0.5),
            order,
            skirmish,
            zone_items: std::array::from_fn(|k| count(zone_items[k], 3.0)),
            task_section: hot(task_section).map(|x| x as u8 + 1),
            clock: count(clock[0], 30.0),
            turn: hot(turn).and_then(Side::from_idx),
            figures: std::array::from_fn(|s| std::array::from_fn(|c| count(f[s * 12 + c], 12.0))),
            fresh: std::array::from_fn(|s| {
                std::array::from_fn(|u| std::array::from_fn(|x| count(fr[s * 10 + u * 2 + x], 12.0)))
            }),
            acting,
            pools: std::array::from_fn(|p| count(pools[p], 12.0)),
            task_sets: std::array::from_fn(|side| std::array::from_fn(|f| ts[side * 6 + f] > 0.5)),
            task_rolled: task_rolled[0] > 0.5,
            holds_task_section: holds_task_section[0] > 0.5,
            pending,
            shot,
            flee,
            losses: std::array::from_fn(|k| count(losses[k], 12.0)),
            records,
            vp: (count(vp[0], 150.0) as u16, count(vp[1], 150.0) as u16),
        }
    }

    /// Fighting figures of `side` in `section` (1–6).
    pub fn fighting_in(&self, side: Side, section: u8) -> u8 {
        let c = &self.figures[section as usize - 1];
        match side {
            Side::Resistance => c[0] + c[1],
            Side::German => c[3..11].iter().sum(),
        }
    }

    /// Is there an enemy fighting figure within distance 3 of `section` with a clear line?
    pub fn exposed(&self, side: Side, section: u8) -> bool {
        (1..=6u8).any(|t| {
            let d = t.abs_diff(section);
            (1..=3).contains(&d)
                && self.fighting_in(side.other(), t) > 0
                && (t.min(section) + 1..t.max(section))
                    .all(|b| self.fighting_in(Side::Resistance, b) + self.fighting_in(Side::German, b) == 0)
        })
    }

    /// Faces held by `side` in the current skirmish.
    pub fn faces(&self, side: Side) -> usize {
        self.task_sets[side.idx()].iter().filter(|&&x| x).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dday::observation::observation;
    use crate::dday::{apply, legal_mask, new_game, Scenario};
    use crate::env::opponents::{Agent, RandomAgent};

    /// The light readers agree with the whole decode at every decision of random games, from
    /// both seats.
    #[test]
    fn seat_phase_and_untouched_interrogation_read_as_the_decode_does() {
        let mut untouched = 0;
        for seed in 0..20 {
            let mut s = new_game(seed, &Scenario::default()).unwrap();
            let mut agent = RandomAgent::new(seed);
            while let Some(side) = s.to_move() {
                for seat in [Side::Resistance, Side::German] {
                    let obs = observation(&s, seat);
                    let v = View::decode(&obs);
                    assert_eq!(View::seat_and_phase(&obs), (v.me, v.phase));
                    let fresh = v.log.is_empty() && v.guesses_left == 7;
                    assert_eq!(View::no_guess_yet(&obs), fresh);
                    untouched += usize::from(fresh && v.phase == Phase::Interrogation && seat == Side::Resistance);
                }
                let obs = observation(&s, side);
                let a = agent.act(&obs, &legal_mask(&s));
                apply(&mut s, a as i64).unwrap();
            }
        }
        assert!(untouched >= 20, "every game passes its untouched interrogation ({untouched})");
    }
}
