//! Training data for D-Day's network: whole games of a teacher playing both sides (each side its
//! own agent with its own stream), every decision with more than one legal action recorded from
//! the side to move's view — its observation, the mask, the teacher's action and the game's final
//! result for that side. Games run in parallel, one per task, so the samples are the same for any
//! thread count.

use super::network::{Network, NetworkSearchAgent};
use super::{Agent, AnyAgent, HeuristicAgent, SearchAgent};
use crate::dday::action::NUM_ACTIONS;
use crate::dday::ids::{Outcome, Side};
use crate::dday::observation::{observation, OBSERVATION_SIZE};
use crate::dday::rules::{apply, legal_mask, new_game};
use crate::dday::scenario::Scenario;
use crate::draw::splitmix64;
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::Arc;

/// Who plays both sides of the training games.
#[derive(Clone, Debug)]
pub enum Teacher {
    Heuristic,
    /// D1 `search` with this many simulations per searched decision.
    Search(u32),
    /// `network_search` over this network, with this budget.
    NetworkSearch(Arc<Network>, u32),
}

impl Teacher {
    fn agent(&self, seed: u64) -> AnyAgent {
        match self {
            Teacher::Heuristic => AnyAgent::Heuristic(HeuristicAgent::new(seed)),
            Teacher::Search(b) => AnyAgent::Search(SearchAgent::new(*b, seed)),
            Teacher::NetworkSearch(net, b) => AnyAgent::NetworkSearch(NetworkSearchAgent::new(net.clone(), *b, seed)),
        }
    }
}

/// The samples of a set of games, row-major.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(n, OBSERVATION_SIZE)` observations of the side to move.
    pub obs: Vec<f32>,
    /// `(n, NUM_ACTIONS)` legal masks.
    pub masks: Vec<bool>,
    /// The teacher's action.
    pub action: Vec<u32>,
    /// The side to move (0 Resistance, 1 German).
    pub side: Vec<u8>,
    /// The game's result for the side to move: win 1, draw ½, loss 0.
    pub outcome: Vec<f32>,
    /// The game each sample comes from (index into the seeds).
    pub game: Vec<u32>,
    /// Per game: 0 draw, 1 Resistance won, 2 German won.
    pub game_outcomes: Vec<u8>,
}

fn value(outcome: Option<Outcome>, side: Side) -> f32 {
    match outcome {
        Some(Outcome::Resistance) => f32::from(side == Side::Resistance),
        Some(Outcome::German) => f32::from(side == Side::German),
        _ => 0.5,
    }
}

/// One game of seed `seed`: its samples (game index `k`).
fn play_one(teacher: &Teacher, seed: u64, k: u32) -> Result<Samples> {
    let mut s = new_game(seed, &Scenario::default())?;
    let mut agents = [teacher.agent(splitmix64(seed ^ 0x7EAC_4E50)), teacher.agent(splitmix64(seed ^ 0x7EAC_4E51))];
    let mut out = Samples::default();
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let obs = observation(&s, side);
        let a = agents[side.idx()].act(&obs, &mask);
        if mask.count() > 1 {
            out.obs.extend_from_slice(&obs);
            out.masks.extend((0..NUM_ACTIONS).map(|i| mask.get(i)));
            out.action.push(a as u32);
            out.side.push(side.idx() as u8);
            out.game.push(k);
        }
        apply(&mut s, a as i64)?;
    }
    let sides = std::mem::take(&mut out.side);
    out.outcome = sides.iter().map(|&i| value(s.outcome, if i == 0 { Side::Resistance } else { Side::German })).collect();
    out.side = sides;
    out.game_outcomes.push(match s.outcome {
        Some(Outcome::Resistance) => 1,
        Some(Outcome::German) => 2,
        _ => 0,
    });
    Ok(out)
}

/// Plays one game per seed on `threads` threads and gathers the samples in seed order.
pub fn play_games(teacher: &Teacher, seeds: &[u64], threads: usize) -> Result<Samples> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::BadOption(format!("threads: {e}")))?;
    let games: Vec<Result<Samples>> =
        pool.install(|| seeds.par_iter().enumerate().map(|(k, &seed)| play_one(teacher, seed, k as u32)).collect());
    let mut all = Samples::default();
    for g in games {
        let g = g?;
        all.obs.extend(g.obs);
        all.masks.extend(g.masks);
        all.action.extend(g.action);
        all.side.extend(g.side);
        all.outcome.extend(g.outcome);
        all.game.extend(g.game);
        all.game_outcomes.extend(g.game_outcomes);
    }
    debug_assert_eq!(all.obs.len(), all.action.len() * OBSERVATION_SIZE);
    Ok(all)
}
