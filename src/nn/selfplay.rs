//! What every two-player game's training games share: who plays both sides ([`Teacher`]), the
//! samples they leave ([`Samples`]: each decision with more than one legal action, from the side
//! to move's view, with the game's final result for that side), and the games played in
//! parallel, one per task, gathered in seed order so that the samples are the same for any thread
//! count ([`play_games`]). A game supplies one game's play.

use super::player::WithNetwork;
use super::{NetGame, Network};
use crate::env::opponents::{Bundled, Level};
use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::Arc;

/// Who plays both sides of the training games, over networks of type `N`.
#[derive(Clone, Debug)]
pub enum Teacher<N> {
    Heuristic,
    /// D1 `search` with this many simulations per searched decision.
    Search(u32),
    /// `network_search` over this network, with this budget.
    NetworkSearch(Arc<N>, u32),
}

impl<N> Teacher<N> {
    /// `heuristic`, `search` or `network_search` (which needs `network`), by name.
    pub fn parse(name: &str, budget: u32, network: Option<Arc<N>>) -> Result<Teacher<N>> {
        if budget == 0 {
            return Err(Error::BadOption("budget must be a positive int".into()));
        }
        Ok(match (name, network) {
            ("heuristic", _) => Teacher::Heuristic,
            ("search", _) => Teacher::Search(budget),
            ("network_search", Some(net)) => Teacher::NetworkSearch(net, budget),
            ("network_search", None) => {
                return Err(Error::BadOption("teacher 'network_search' needs network=<weight file>".into()))
            }
            (other, _) => {
                return Err(Error::BadOption(format!(
                    "unknown teacher {other:?}: expected 'heuristic', 'search' or 'network_search'"
                )))
            }
        })
    }
}

impl<G: NetGame> Teacher<Network<G>> {
    /// A side's player: the game's level (of its `Bundled` levels) this teacher names, seeded.
    pub fn agent<H: Level, S: Level, N, NS: WithNetwork<G>, R>(&self, seed: u64) -> Bundled<H, S, N, NS, R> {
        match self {
            Teacher::Heuristic => Bundled::Heuristic(H::with_seed(0, seed)),
            Teacher::Search(b) => Bundled::Search(S::with_seed(*b, seed)),
            Teacher::NetworkSearch(net, b) => Bundled::NetworkSearch(NS::with_network(net.clone(), *b, seed)),
        }
    }
}

/// The samples of a set of games, row-major.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(n, obs size)` observations of the side to move.
    pub obs: Vec<f32>,
    /// `(n, NUM_ACTIONS)` legal masks.
    pub masks: Vec<bool>,
    /// The teacher's action.
    pub action: Vec<u32>,
    /// The side to move (its index).
    pub side: Vec<u8>,
    /// The game's result for the side to move: win 1, draw ½, loss 0.
    pub outcome: Vec<f32>,
    /// The game each sample comes from (index into the seeds).
    pub game: Vec<u32>,
    /// Per game: 0 draw, 1 + the winner's side index.
    pub game_outcomes: Vec<u8>,
}

impl Samples {
    /// Records a decision: `obs`, the legal actions `legal` of `num_actions`, the action, the side.
    pub fn push(&mut self, obs: &[f32], legal: impl Fn(usize) -> bool, num_actions: usize, action: usize, side: u8, game: u32) {
        self.obs.extend_from_slice(obs);
        self.masks.extend((0..num_actions).map(legal));
        self.action.push(action as u32);
        self.side.push(side);
        self.game.push(game);
    }

    /// Ends a game won by side index `winner` (None: a draw): every sample's outcome.
    pub fn finish(&mut self, winner: Option<u8>) {
        self.outcome = self.side.iter().map(|&i| winner.map_or(0.5, |w| f32::from(w == i))).collect();
        self.game_outcomes.push(winner.map_or(0, |w| w + 1));
    }

    fn extend(&mut self, g: Samples) {
        self.obs.extend(g.obs);
        self.masks.extend(g.masks);
        self.action.extend(g.action);
        self.side.extend(g.side);
        self.outcome.extend(g.outcome);
        self.game.extend(g.game);
        self.game_outcomes.extend(g.game_outcomes);
    }
}

/// Plays one game per seed (`play_one(seed, k)`, `k` its index) on `threads` threads and gathers
/// the samples in seed order.
pub fn play_games(
    seeds: &[u64],
    threads: usize,
    play_one: impl Fn(u64, u32) -> Result<Samples> + Sync,
) -> Result<Samples> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::BadOption(format!("threads: {e}")))?;
    let games: Vec<Result<Samples>> =
        pool.install(|| seeds.par_iter().enumerate().map(|(k, &seed)| play_one(seed, k as u32)).collect());
    let mut all = Samples::default();
    for g in games {
        all.extend(g?);
    }
    Ok(all)
}
