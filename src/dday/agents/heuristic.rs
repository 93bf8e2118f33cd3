//! D1 `heuristic`: fixed rules of thumb, reading only the observation and the mask (D3). Its
//! thresholds are part of the release, so that difficulty levels stay comparable:
//! - allocation: squads with the vip, the passenger and one goods train (the vip's squad also
//!   gets a gendarme), one gendarme with the other goods, two in the zone without a train; the
//!   five contents go to zones in a random order;
//! - interrogation: bisect the current zone until its bounds are 2 wide or fewer, then the next
//!   zone in Z1 order never guessed;
//! - attack: the two zones with the best expected train VP minus expected German figures over the
//!   valid allocations consistent with what the side knows; the weaker defence first;
//! - skirmish: task with as many dice as legal; the acting figure shoots the nearest target,
//!   else moves towards the task section (Resistance), else rescues with ≥ 2 AP, else takes
//!   cover when exposed; figures are activated nearest-the-task-section first (Resistance) or
//!   shooters first; hits go to figures in cover; re-roll a die below the roll's mean unless the
//!   side wants the opposite (clock: the side with more task faces wants it to run out).

use super::view::View;
use crate::dday::action::{decode, Action, Mask};
use crate::dday::allocation::{sequence_of, train, valid_contents, zone_value, Contents};
use crate::dday::ids::{FigState, Kind, Phase, Side, Unit, Zone};
use crate::draw;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

// Serde and PartialEq: a bundled opponent is part of an environment's state (saves, snapshots).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeuristicAgent {
    rng: ChaCha8Rng,
    plan: Option<Contents>,
}

fn has(mask: &Mask, a: Action) -> bool {
    a.index().is_some_and(|i| mask.get(i))
}

fn legal(mask: &Mask) -> impl Iterator<Item = Action> + '_ {
    mask.iter().filter_map(|i| decode(i as i64).ok())
}

/// The valid allocations consistent with what `v` shows: known zones' contents and the answers.
pub fn consistent_allocations(v: &View) -> Vec<Contents> {
    valid_contents()
        .iter()
        .filter(|c| {
            (0..5).all(|z| !v.known[z] || c[z] == v.allocation[z])
                && v.log.iter().all(|&(zone, value, answer)| {
                    let actual = zone_value(&c[zone.idx()]);
                    match answer {
                        0 => value > actual,
                        1 => value < actual,
                        _ => value == actual,
                    }
                })
        })
        .copied()
        .collect()
}

/// Expected VP of a zone's train if the task is completed (goods 2D6, passenger 3D6, vip 4D6).
fn train_vp(zone: &[u8; 5]) -> f32 {
    match train(zone) {
        Some(Kind::Goods) => 7.0,
        Some(Kind::Passenger) => 10.5,
        Some(Kind::Vip) => 14.0,
        _ => 0.0,
    }
}

fn defence(zone: &[u8; 5]) -> f32 {
    (6 * zone[Kind::Squad.idx()] + 3 * zone[Kind::Gendarme.idx()]) as f32
}

impl HeuristicAgent {
    pub fn new(seed: u64) -> HeuristicAgent {
        HeuristicAgent { rng: ChaCha8Rng::seed_from_u64(seed), plan: None }
    }

    /// A legal action for the side whose observation `obs` is; `mask` must not be empty.
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        let v = View::decode(obs);
        let a = match v.phase {
            Phase::Allocation => self.allocate(&v, mask),
            Phase::Interrogation => interrogate(&v, mask),
            Phase::Attack => attack(&v),
            Phase::Order => order(&v, mask),
            Phase::GroupSize | Phase::ActionPoints | Phase::Clock | Phase::Scoring => reroll(&v),
            Phase::Actions => actions(&v, mask),
            Phase::Hit => pick_class(mask, |a| matches!(a, Action::Hit(_, FigState::InCover))),
            Phase::Morale => pick_class(mask, |a| matches!(a, Action::Flee(_, FigState::Standing))),
            Phase::GameOver => None,
        };
        match a.and_then(Action::index).filter(|&i| mask.get(i)) {
            Some(i) => i,
            // Anything the rules of thumb do not cover: a uniformly random legal action.
            None => mask.nth(draw::below(&mut self.rng, mask.count().max(1))).unwrap_or(0),
        }
    }

    fn allocate(&mut self, v: &View, mask: &Mask) -> Option<Action> {
        let placed: u8 = v.allocation.iter().flatten().sum();
        if placed == 0 || self.plan.is_none() {
            self.plan = Some(heuristic_plan(&mut self.rng));
        }
        let seq = sequence_of(&self.plan?)?;
        let kind = Kind::from_idx(v.next_item?)?;
        let a = Action::Allocate(kind, Zone::ALL[seq[placed as usize] as usize]);
        has(mask, a).then_some(a)
    }
}

/// The heuristic's allocation: its five contents assigned to the zones in an order drawn from `rng`.
pub fn heuristic_plan(rng: &mut ChaCha8Rng) -> Contents {
    let mut zones = Zone::ALL.to_vec();
    draw::shuffle(rng, &mut zones);
    use Kind::*;
    let plan: [&[Kind]; 5] = [
        &[Squad, Vip, Gendarme],
        &[Squad, Passenger],
        &[Squad, Goods],
        &[Goods, Gendarme],
        &[Gendarme, Gendarme],
    ];
    let mut c = [[0u8; 5]; 5];
    for (z, items) in zones.iter().zip(plan) {
        for k in items {
            c[z.idx()][k.idx()] += 1;
        }
    }
    c
}

fn interrogate(v: &View, mask: &Mask) -> Option<Action> {
    let current = v.log.last().map(|g| g.0);
    let unresolved = |z: Zone| {
        let (lo, hi) = v.bounds[z.idx()];
        hi.saturating_sub(lo) > 1
    };
    let Some(zone) = current
        .filter(|&z| unresolved(z) && v.zone_open[z.idx()])
        .or_else(|| Zone::ALL.iter().copied().find(|&z| v.zone_open[z.idx()] && unresolved(z) && Some(z) != current))
    else {
        return Some(Action::StopInterrogation);
    };
    let (lo, hi) = v.bounds[zone.idx()];
    let a = Action::Guess(zone, (lo + hi).div_ceil(2));
    if has(mask, a) {
        Some(a)
    } else {
        Some(Action::StopInterrogation)
    }
}

/// Zone scores: expected train VP minus expected German figures, and expected German figures.
fn zone_scores(v: &View) -> [(f32, f32); 5] {
    let all = consistent_allocations(v);
    let n = all.len().max(1) as f32;
    std::array::from_fn(|z| {
        let tv: f32 = all.iter().map(|c| train_vp(&c[z])).sum::<f32>() / n;
        let d: f32 = all.iter().map(|c| defence(&c[z])).sum::<f32>() / n;
        (tv - d, d)
    })
}

fn attack(v: &View) -> Option<Action> {
    let s = zone_scores(v);
    let mut zones: Vec<usize> = (0..5).collect();
    zones.sort_by(|&a, &b| s[b].0.total_cmp(&s[a].0).then(a.cmp(&b)));
    let (a, b) = (zones[0].min(zones[1]), zones[0].max(zones[1]));
    Some(Action::Attack(Zone::ALL[a], Zone::ALL[b]))
}

fn order(v: &View, mask: &Mask) -> Option<Action> {
    let mut zones: Vec<usize> = (0..5).filter(|&z| v.attacked[z]).collect();
    let d = |z: usize| defence(&v.allocation[z]);
    zones.sort_by(|&a, &b| d(a).total_cmp(&d(b)).then(a.cmp(&b)));
    let a = Action::First(Zone::ALL[*zones.first()?]);
    has(mask, a).then_some(a)
}

fn reroll(v: &View) -> Option<Action> {
    let (kind, dice, _) = v.pending.clone()?;
    let mean = 3.5 * dice.len() as f32;
    let sum: f32 = dice.iter().map(|&d| d as f32).sum();
    // Clock (kind 2): the side with more task faces wants the clock to run out (high die).
    let wants_high = if kind == 2 {
        let me = v.to_move?;
        v.faces(me) > v.faces(me.other())
    } else {
        true
    };
    let redo = if wants_high { sum < mean } else { sum > mean };
    Some(if redo { Action::Reroll } else { Action::Keep })
}

fn pick_class(mask: &Mask, prefer: impl Fn(&Action) -> bool) -> Option<Action> {
    legal(mask).find(prefer).or_else(|| legal(mask).next())
}

fn actions(v: &View, mask: &Mask) -> Option<Action> {
    let me = v.to_move?;
    // Task with as many dice as legal.
    if let Some(n) = (1..=3).rev().find(|&n| has(mask, Action::Task(n))) {
        return Some(Action::Task(n));
    }
    let ts = v.task_section.unwrap_or(2);
    if let Some((sec, _, in_cover, _, _, _)) = v.acting {
        // Shoot the nearest target.
        if let Some(a) = legal(mask).filter(|a| matches!(a, Action::Shoot(_))).min_by_key(|a| match a {
            Action::Shoot(t) => t.abs_diff(sec),
            _ => 9,
        }) {
            return Some(a);
        }
        // The Resistance moves towards its task section until it holds it.
        if me == Side::Resistance && !v.holds_task_section && !v.task_rolled && !in_cover {
            let toward = if ts > sec { sec + 1 } else { sec.saturating_sub(1) };
            if ts != sec && has(mask, Action::Move(toward)) {
                return Some(Action::Move(toward));
            }
        }
        let pool_left = v.pools.iter().copied().max().unwrap_or(0);
        if has(mask, Action::Rescue) && pool_left >= 2 {
            return Some(Action::Rescue);
        }
        if !in_cover && v.exposed(me, sec) && has(mask, Action::Cover) {
            return Some(Action::Cover);
        }
    }
    // Activate: nearest to the task section (Resistance, not holding it), else a shooter, else
    // a rescuer; otherwise end the turn.
    let activates: Vec<(Unit, u8, FigState)> = legal(mask)
        .filter_map(|a| match a {
            Action::Activate(u, s, x) => Some((u, s, x)),
            _ => None,
        })
        .collect();
    let pick = if me == Side::Resistance && !v.holds_task_section && !v.task_rolled {
        activates.iter().filter(|c| c.2 == FigState::Standing).min_by_key(|c| c.1.abs_diff(ts))
    } else {
        None
    }
    .or_else(|| activates.iter().find(|c| v.exposed(me, c.1)))
    .or_else(|| {
        let markers = |s: u8| v.figures[s as usize - 1][if me == Side::Resistance { 2 } else { 11 }];
        activates.iter().find(|c| markers(c.1) > 0 && v.pools.iter().copied().max().unwrap_or(0) >= 2)
    });
    Some(match pick {
        Some(&(u, s, x)) => Action::Activate(u, s, x),
        None => Action::EndTurn,
    })
}

/// The expected train value and defence of each zone as the heuristic sees it (for tests and
/// documentation of its choices).
pub fn attack_scores(obs: &[f32]) -> [(f32, f32); 5] {
    zone_scores(&View::decode(obs))
}
