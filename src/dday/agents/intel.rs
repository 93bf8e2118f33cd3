//! `search`'s Resistance before the skirmishes: which zones to attack and what to ask. Both are
//! valued with `attack_values` averaged exactly over the valid allocations consistent with what the
//! Resistance knows (uniformly, as the search's sampled worlds are): the attack with the best mean,
//! and the guess whose answers raise the expected value of that best attack most (the value of
//! the information for the one decision it serves).

use super::attack_values::{attack_value, ZoneContents};
use super::heuristic::consistent_allocations;
use super::view::View;
use crate::dday::action::{Action, Mask};
use crate::dday::allocation::{zone_value, Contents};
use crate::dday::ids::Zone;
use std::collections::HashMap;

/// The ten attacks, `attack:<a>:<b>` with a < b, in Z1 order.
const PAIRS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The attacks' values in one allocation.
fn values(world: &Contents) -> [f64; 10] {
    let value = |a: &ZoneContents, b: &ZoneContents| attack_value(a, b).map_or(0.0, f64::from);
    PAIRS.map(|(a, b)| value(&world[a], &world[b]))
}

/// The allocations `v` cannot rule out, grouped by their five zone values (all that a guess's
/// answer depends on): per group, the sum of their attacks' values.
fn groups(v: &View) -> Vec<([u8; 5], [f64; 10])> {
    let mut by_values: HashMap<[u8; 5], [f64; 10]> = HashMap::new();
    for world in consistent_allocations(v) {
        add(by_values.entry(world.map(|z| zone_value(&z))).or_insert([0.0; 10]), &values(&world));
    }
    let mut out: Vec<_> = by_values.into_iter().collect();
    // A fixed order, so that sums (and ties) do not depend on the hash map's.
    out.sort_unstable_by_key(|g| g.0);
    out
}

/// The largest of summed attack values (the best attack's expected value, times the count).
fn best_sum(sums: &[f64; 10]) -> f64 {
    sums.iter().copied().fold(f64::MIN, f64::max)
}

fn add(into: &mut [f64; 10], from: &[f64; 10]) {
    for (a, b) in into.iter_mut().zip(from) {
        *a += b;
    }
}

/// C1: the attack with the best expected value; `None` if nothing is consistent with `v`.
pub fn best_attack(v: &View) -> Option<Action> {
    let mut sums = [0.0f64; 10];
    for world in consistent_allocations(v) {
        add(&mut sums, &values(&world));
    }
    let best = sums.iter().enumerate().max_by(|x, y| x.1.total_cmp(y.1).then(y.0.cmp(&x.0)))?.0;
    let (a, b) = PAIRS[best];
    Some(Action::Attack(Zone::ALL[a], Zone::ALL[b]))
}

/// I2: the legal guess whose answer most raises the best attack's expected value, or `None` when
/// no single guess raises it (then any guess is as good as another for the attack).
pub fn best_guess(v: &View, mask: &Mask) -> Option<Action> {
    let groups = groups(v);
    let mut now = [0.0f64; 10];
    for g in &groups {
        add(&mut now, &g.1);
    }
    let mut best: Option<(f64, Action)> = None;
    for &zone in Zone::ALL.iter() {
        for value in 1..=10u8 {
            let guess = Action::Guess(zone, value);
            if !guess.index().is_some_and(|i| mask.get(i)) {
                continue;
            }
            // The allocations split three ways by the answer; after each answer, the best attack.
            let mut parts = [[0.0f64; 10]; 3];
            for (values, sums) in &groups {
                let actual = values[zone.idx()];
                add(&mut parts[usize::from(value <= actual) + usize::from(value == actual)], sums);
            }
            let after: f64 = parts.iter().map(best_sum).sum();
            if best.is_none_or(|(b, _)| after > b) {
                best = Some((after, guess));
            }
        }
    }
    // A tolerance relative to the sums, which run over up to 6,600 allocations.
    let gain_needed = best_sum(&now) * 1e-5 + 1e-6;
    best.filter(|(after, _)| *after > best_sum(&now) + gain_needed).map(|(_, g)| g)
}
