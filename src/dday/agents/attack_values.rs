//! The Resistance's chance of winning when it attacks two zones of given contents and both sides
//! then play `heuristic` — the outcome of `search`'s playouts from the attack, measured once per
//! pair of zone contents instead of at every decision. The skirmishes depend only on the attacked
//! zones' contents (C4, V1), so 18 contents give every attack's value in every allocation; `intel`
//! averages them exactly over the allocations a side cannot rule out.
//!
//! The table is generated: `cargo run --release --example dday_attack_values -- 4000 >
//! src/dday/agents/attack_values_table.rs` (`measure` with 4,000 games a pair).

use super::heuristic::HeuristicAgent;
use super::rebuild::place_allocation;
use crate::dday::action::Action;
use crate::dday::allocation::{valid_contents, Contents};
use crate::dday::ids::{Side, Zone};
use crate::dday::observation::observation;
use crate::dday::rules::{apply, legal_mask, new_game};
use crate::dday::scenario::Scenario;

#[path = "attack_values_table.rs"]
mod table;
pub use table::{CONTENTS, GAMES, WIN};

/// One zone's items (counts in Z2 kind order).
pub type ZoneContents = [u8; 5];

/// The index of a zone's contents in `CONTENTS` (`None` for contents G1 does not allow).
pub fn content_index(zone: &ZoneContents) -> Option<usize> {
    CONTENTS.binary_search(zone).ok()
}

/// The tabled chance that the Resistance wins (a draw counts ½) when it attacks zones holding `a`
/// and `b`; `None` where the two cannot be in one valid allocation.
pub fn attack_value(a: &ZoneContents, b: &ZoneContents) -> Option<f32> {
    let v = WIN[content_index(a)?][content_index(b)?];
    (v >= 0.0).then_some(v)
}

/// Every zone content G1 allows, sorted (the order of `CONTENTS`).
pub fn all_zone_contents() -> Vec<ZoneContents> {
    let mut all: Vec<ZoneContents> = valid_contents().iter().flatten().copied().collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// A valid allocation with `a` in the first zone and `b` in the second, if there is one (G1 does
/// not depend on the zones' numbers, so every pair that can meet appears there).
pub fn allocation_with(a: &ZoneContents, b: &ZoneContents) -> Option<Contents> {
    valid_contents().iter().find(|c| &c[0] == a && &c[1] == b).copied()
}

/// Plays `games` games (seeds `seed`, `seed + 1`, …) in which the German places `allocation`, the
/// Resistance asks nothing and attacks the first two zones, and `heuristic` plays both sides from
/// there; the Resistance's mean result (win 1, draw ½, loss 0).
pub fn measure(allocation: &Contents, games: u64, seed: u64) -> Option<f32> {
    let stop = Action::StopInterrogation.index()? as i64;
    let attack = Action::Attack(Zone::ALL[0], Zone::ALL[1]).index()? as i64;
    let mut total = 0.0f64;
    for g in seed..seed + games {
        let mut s = new_game(g, &Scenario::default()).ok()?;
        place_allocation(&mut s, allocation)?;
        apply(&mut s, stop).ok()?;
        apply(&mut s, attack).ok()?;
        let mut agents = [HeuristicAgent::new(g ^ 0xA7), HeuristicAgent::new(g ^ 0x7A)];
        while let Some(side) = s.to_move() {
            let a = agents[side.idx()].act(&observation(&s, side), &legal_mask(&s));
            apply(&mut s, a as i64).ok()?;
        }
        total += f64::from(s.result_for(Side::Resistance));
    }
    Some((total / games.max(1) as f64) as f32)
}
