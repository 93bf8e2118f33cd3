//! Training data for D-Day's network: whole games of a teacher playing both sides (each side its
//! own agent with its own stream) or against bundled levels (`Lineup`: then only its side),
//! every decision with more than one legal action recorded from the side to move's view (the shared `nn::selfplay`: samples, teachers, games on threads).

use super::network::Network;
use super::{Agent, AnyAgent};
use crate::dday::action::NUM_ACTIONS;
use crate::dday::ids::{Outcome, Side};
use crate::dday::observation::observation;
use crate::dday::rules::{apply, legal_mask, new_game};
use crate::dday::scenario::Scenario;
use crate::draw::splitmix64;
use crate::error::Result;
pub use crate::nn::selfplay::{Lineup, Samples};

/// Who plays both sides of the training games (side 0 the Resistance, 1 the German).
pub type Teacher = crate::nn::selfplay::Teacher<Network>;

/// One game of seed `seed`: its samples (game index `k`).
fn play_one(teacher: &Teacher, lineup: &Lineup, seed: u64, k: u32) -> Result<Samples> {
    let mut s = new_game(seed, &Scenario::default())?;
    let seeds = [splitmix64(seed ^ 0x7EAC_4E50), splitmix64(seed ^ 0x7EAC_4E51)];
    let mut agents: [AnyAgent; 2] = lineup.players(teacher, k, seeds)?;
    let mut out = Samples::default();
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let obs = observation(&s, side);
        let a = agents[side.idx()].act(&obs, &mask);
        if mask.count() > 1 && lineup.records(k, side.idx()) {
            out.push(&obs, |i| mask.get(i), NUM_ACTIONS, a, side.idx() as u8, k);
        }
        apply(&mut s, a as i64)?;
    }
    out.finish(match s.outcome {
        Some(Outcome::Resistance) => Some(Side::Resistance.idx() as u8),
        Some(Outcome::German) => Some(Side::German.idx() as u8),
        _ => None,
    });
    Ok(out)
}

/// Plays one game per seed on `threads` threads (the teacher against `lineup`) and gathers the
/// samples in seed order.
pub fn play_games(teacher: &Teacher, lineup: &Lineup, seeds: &[u64], threads: usize) -> Result<Samples> {
    crate::nn::selfplay::play_games(seeds, threads, |seed, k| play_one(teacher, lineup, seed, k))
}
