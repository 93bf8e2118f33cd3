//! Training data for Maurice's network: whole games of a teacher playing both sides (each side
//! its own agent with its own stream) or against bundled levels (`Lineup`: then only its side),
//! every decision with more than one legal action recorded from the side to move's compact
//! observation and, when asked, its map planes (the shared `nn::selfplay`: samples, teachers,
//! games on threads). Game `k` is played on `scenarios[k % len]`, with the scenario's terrain. A
//! sample's outcome is the game's result for its side (win 1, loss 0), a draw ½ plus a quarter
//! of the side's final morale margin.

use super::network::Network;
use super::search::morale_margin;
use super::{Agent, AnyAgent};
use crate::draw::splitmix64;
use crate::error::Result;
use crate::maurice::ids::{ScenarioId, Side, COMPACT_OBSERVATION_SIZE, NUM_ACTIONS, OBSERVATION_SIZE};
use crate::maurice::observation::write_observation;
use crate::maurice::rules::{apply, legal_mask};
use crate::maurice::setup::{new_game, Setup};
pub use crate::nn::selfplay::{Lineup, Samples};

/// Who plays both sides of the training games (side 0 blue, 1 red).
pub type Teacher = crate::nn::selfplay::Teacher<Network>;

/// One game of seed `seed` on `scenario`: its samples (game index `k`).
fn play_one(teacher: &Teacher, lineup: &Lineup, scenario: ScenarioId, maps: bool, seed: u64, k: u32) -> Result<Samples> {
    let mut s = new_game(seed, &Setup { scenario, ..Setup::default() })?;
    let seeds = [splitmix64(seed ^ 0x3A0B_1CE0), splitmix64(seed ^ 0x3A0B_1CE1)];
    let mut agents: [AnyAgent; 2] = lineup.players(teacher, k, seeds)?;
    let mut out = Samples::default();
    // The agents read the full observation; the samples keep its compact head, the network's input.
    let mut obs = vec![0.0f32; OBSERVATION_SIZE];
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        write_observation(&s, side, &mut obs);
        let a = agents[side.idx()].act(&obs, &mask);
        if mask.count() > 1 && lineup.records(k, side.idx()) {
            out.push(&obs[..COMPACT_OBSERVATION_SIZE], |i| mask.get(i), NUM_ACTIONS, a, side.idx() as u8, k);
            if maps {
                out.push_maps(&obs[COMPACT_OBSERVATION_SIZE..]);
            }
        }
        apply(&mut s, a as i64)?;
    }
    let winner = s.outcome.and_then(|o| o.winner());
    out.finish(winner.map(|w| w.idx() as u8));
    if winner.is_none() {
        // A draw at nightfall is rarely even (E2): its value is ½ and a quarter of the side's
        // final morale margin, the search's own scale, so that the value learns who was ahead.
        for (v, &side) in out.outcome.iter_mut().zip(&out.side) {
            *v = 0.5 + 0.25 * morale_margin(&s, if side == 0 { Side::Blue } else { Side::Red });
        }
    }
    Ok(out)
}

/// Plays one game per seed on `threads` threads (game `k` on `scenarios[k % len]`, the teacher
/// against `lineup`) and gathers the samples in seed order; with `maps`, each sample's map planes
/// too (`Samples::maps`, for a network that reads them).
pub fn play_games(
    teacher: &Teacher,
    lineup: &Lineup,
    scenarios: &[ScenarioId],
    maps: bool,
    seeds: &[u64],
    threads: usize,
) -> Result<Samples> {
    let scenarios = if scenarios.is_empty() { &[ScenarioId::Standard][..] } else { scenarios };
    crate::nn::selfplay::play_games(seeds, threads, |seed, k| {
        play_one(teacher, lineup, scenarios[k as usize % scenarios.len()], maps, seed, k)
    })
}
