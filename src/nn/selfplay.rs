//! What every two-player game's training games share: who plays both sides ([`Teacher`]), the
//! samples they leave ([`Samples`]: each decision with more than one legal action, from the side
//! to move's view, with the game's final result for that side), and the games played in
//! parallel, one per task, gathered in seed order so that the samples are the same for any thread
//! count ([`play_games`]). A game supplies one game's play.

use super::player::WithNetwork;
use super::{NetGame, Network};
use crate::env::opponents::{Bundled, ById, Level, NetLevel};
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
    /// `network`: this network alone (to distil a network's play into another).
    Network(Arc<N>),
}

impl<N> Teacher<N> {
    /// `heuristic`, `search`, `network_search` or `network` (the last two need `network`), by name.
    pub fn parse(name: &str, budget: u32, network: Option<Arc<N>>) -> Result<Teacher<N>> {
        if budget == 0 {
            return Err(Error::BadOption("budget must be a positive int".into()));
        }
        Ok(match (name, network) {
            ("heuristic", _) => Teacher::Heuristic,
            ("search", _) => Teacher::Search(budget),
            ("network_search", Some(net)) => Teacher::NetworkSearch(net, budget),
            ("network", Some(net)) => Teacher::Network(net),
            (name @ ("network_search" | "network"), None) => {
                return Err(Error::BadOption(format!("teacher '{name}' needs network=<weight file>")))
            }
            (other, _) => {
                return Err(Error::BadOption(format!(
                    "unknown teacher {other:?}: expected 'heuristic', 'search', 'network_search' or 'network'"
                )))
            }
        })
    }

    /// Whether this teacher plays a weight file of its own.
    pub fn needs_network(name: &str) -> bool {
        matches!(name, "network_search" | "network")
    }
}

impl<G: NetGame> Teacher<Network<G>> {
    /// A side's player: the game's level (of its `Bundled` levels) this teacher names, seeded.
    pub fn agent<H: Level, S: Level, N: WithNetwork<G>, NS: WithNetwork<G>, R>(&self, seed: u64) -> Bundled<H, S, N, NS, R> {
        match self {
            Teacher::Heuristic => Bundled::Heuristic(H::with_seed(0, seed)),
            Teacher::Search(b) => Bundled::Search(S::with_seed(*b, seed)),
            Teacher::NetworkSearch(net, b) => Bundled::NetworkSearch(NS::with_network(net.clone(), *b, seed)),
            Teacher::Network(net) => Bundled::Network(N::with_network(net.clone(), 0, seed)),
        }
    }
}

/// Who sits across the teacher: itself in every game (self-play, the default), or bundled levels
/// in turn — game `k` against `opponents[k % n]`, the teacher in seat `(k / n) % 2` — so that the
/// samples hold the teacher's answers to the levels, e.g. its walk to an army that stays home,
/// which two teachers waiting for each other never show. Only the teacher's decisions are recorded.
#[derive(Clone, Debug, Default)]
pub struct Lineup {
    opponents: Vec<String>,
    budget: u32,
}

impl Lineup {
    /// The teacher against `opponents` (D1 ids; empty: against itself), their searches with
    /// `budget` simulations; each id is checked by building it (`A`: the game's bundled agent).
    pub fn new<A: ById>(opponents: Vec<String>, budget: u32) -> Result<Lineup> {
        if budget == 0 {
            return Err(Error::BadOption("opponent_budget must be a positive int".into()));
        }
        for id in &opponents {
            A::by_id(id, 0, budget)?;
        }
        Ok(Lineup { opponents, budget })
    }

    /// Game `k`'s teacher seat (0 or 1), or None when the teacher plays both.
    pub fn teacher_seat(&self, k: u32) -> Option<usize> {
        let n = self.opponents.len() as u32;
        (n > 0).then(|| ((k / n) % 2) as usize)
    }

    /// Whether seat `side`'s decisions of game `k` are samples: the teacher's.
    pub fn records(&self, k: u32, side: usize) -> bool {
        self.teacher_seat(k).is_none_or(|t| t == side)
    }

    /// Game `k`'s two players (the game's bundled levels), seat `i` seeded with `seeds[i]`.
    #[allow(clippy::type_complexity)]
    pub fn players<G, H, S, N, NS, R>(
        &self,
        teacher: &Teacher<Network<G>>,
        k: u32,
        seeds: [u64; 2],
    ) -> Result<[Bundled<H, S, N, NS, R>; 2]>
    where
        G: NetGame,
        H: Level,
        S: Level,
        N: WithNetwork<G> + NetLevel,
        NS: WithNetwork<G> + NetLevel,
        R: Level,
    {
        let seat = |i: usize| match self.teacher_seat(k) {
            Some(t) if t != i => Bundled::by_id(&self.opponents[k as usize % self.opponents.len()], seeds[i], self.budget),
            _ => Ok(teacher.agent(seeds[i])),
        };
        Ok([seat(0)?, seat(1)?])
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
    /// Per sample, when asked: the map planes of its full observation (binary values), packed 8
    /// a byte, most significant bit first (numpy's `packbits`): 20,250 planes' values are 2,532
    /// bytes, where floats would be 81,000. Empty when not asked.
    pub maps: Vec<u8>,
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

    /// Records the map planes of the last pushed sample (values 0 or 1), packed.
    pub fn push_maps(&mut self, planes: &[f32]) {
        self.maps.extend(planes.chunks(8).map(|c| c.iter().enumerate().fold(0u8, |b, (i, &v)| b | (u8::from(v != 0.0) << (7 - i)))));
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
        self.maps.extend(g.maps);
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
