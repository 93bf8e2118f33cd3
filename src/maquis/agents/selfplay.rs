//! Training data for the learned network: whole games played by a teacher, one sample per
//! decision with more than one legal action — the observation, the mask, the teacher's policy
//! target, the teacher's root value and (filled in when the game ends) the game's outcome value.
//!
//! Teachers: the heuristic and the search agent (generation 0: the target is their chosen action)
//! and the network-guided search (later generations: the target is its improved policy). Each
//! teacher acts on a state rebuilt from the observation (`state_from_observation`, the deck drawn
//! at random), as the Python agents do, so no target can depend on the hidden deck.

use super::guided::{outcome_value, GuidedSearch};
use super::heuristic::HeuristicAgent;
use super::search::SearchAgent;
use crate::maquis::action::{table, NUM_ACTIONS};
use crate::maquis::observation::{obs_size, state_from_observation, write_observation};
use crate::maquis::rules::{apply_legal, legal_mask, new_game, Setup};
use crate::maquis::state::State;

/// Who plays the games (built once per call, so the variants' sizes do not matter).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Teacher {
    Heuristic(HeuristicAgent),
    Search(SearchAgent),
    Guided(GuidedSearch),
}

/// Samples of many games, flattened (row `i` of each array is one decision).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(n, OBS_SIZE)` row-major.
    pub obs: Vec<f32>,
    /// `(n, NUM_ACTIONS)` row-major.
    pub masks: Vec<bool>,
    /// `(n, NUM_ACTIONS)` row-major: the teacher's target policy.
    pub policy: Vec<f32>,
    /// The teacher's value of the position (the guided search's root value; else the outcome).
    pub root_value: Vec<f32>,
    /// The game's outcome value (win or major win 1, draw ½, loss 0).
    pub outcome: Vec<f32>,
    /// Index of the game (in `seeds`) of each sample.
    pub game: Vec<u32>,
    /// Outcome index (Outcome order) of each game.
    pub game_outcomes: Vec<u8>,
}

impl Samples {
    pub fn len(&self) -> usize {
        self.game.len()
    }

    pub fn is_empty(&self) -> bool {
        self.game.is_empty()
    }

    fn append(&mut self, mut other: Samples) {
        self.obs.append(&mut other.obs);
        self.masks.append(&mut other.masks);
        self.policy.append(&mut other.policy);
        self.root_value.append(&mut other.root_value);
        self.outcome.append(&mut other.outcome);
        self.game.append(&mut other.game);
        self.game_outcomes.append(&mut other.game_outcomes);
    }
}

impl Teacher {
    /// (action, target policy, root value or None) at a state rebuilt from its observation.
    fn decide(&self, s: &State) -> (usize, Vec<f32>, Option<f32>) {
        let one_hot = |a: usize| {
            let mut p = vec![0.0; NUM_ACTIONS];
            p[a] = 1.0;
            p
        };
        match self {
            Teacher::Heuristic(h) => {
                let a = h.act(s);
                (a, one_hot(a), None)
            }
            Teacher::Search(x) => {
                let a = x.act_info(s).chosen;
                (a, one_hot(a), None)
            }
            Teacher::Guided(g) => {
                let r = g.search(s);
                (r.action, r.policy, Some(r.value))
            }
        }
    }

    fn seed(&self) -> u64 {
        match self {
            Teacher::Heuristic(h) => h.seed,
            Teacher::Search(x) => x.seed,
            Teacher::Guided(g) => g.seed,
        }
    }
}

/// Plays one game of `setup` (game seed `seed`) with `teacher`; its samples tagged `game`.
pub fn play_game(teacher: &Teacher, setup: &Setup, seed: u64, game: u32) -> crate::Result<Samples> {
    let t = table();
    let mut s = new_game(setup, seed)?;
    let mut out = Samples::default();
    let mut obs = vec![0.0f32; obs_size()];
    let mut root_values = Vec::new();
    while !s.is_over() {
        let mask = legal_mask(&s);
        write_observation(&s, &mut obs);
        let a = if mask.count() == 1 {
            mask.iter().next().expect("a legal action")
        } else {
            // The teacher sees what a policy sees: a state rebuilt from the observation.
            let seen = state_from_observation(&obs, teacher.seed() ^ s.day as u64)?;
            let (a, policy, root) = teacher.decide(&seen);
            out.obs.extend_from_slice(&obs);
            out.masks.extend((0..NUM_ACTIONS).map(|i| mask.get(i)));
            out.policy.extend(policy);
            root_values.push(root);
            a
        };
        apply_legal(&mut s, t.actions[a]);
    }
    let v = outcome_value(&s);
    out.root_value = root_values.into_iter().map(|r| r.unwrap_or(v)).collect();
    out.outcome = vec![v; out.root_value.len()];
    out.game = vec![game; out.root_value.len()];
    out.game_outcomes = vec![s.outcome.expect("a finished game").idx() as u8];
    Ok(out)
}

/// Plays one game per seed (game `i` with `setups[i % setups.len()]`) on up to `threads` threads;
/// the samples in game order, whatever the threads.
pub fn play_games(teacher: &Teacher, setups: &[Setup], seeds: &[u64], threads: usize) -> crate::Result<Samples> {
    use rayon::prelude::*;
    assert!(!setups.is_empty(), "at least one setup");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().expect("a thread pool");
    let games: Vec<crate::Result<Samples>> = pool.install(|| {
        seeds
            .par_iter()
            .enumerate()
            .with_max_len(1)
            .map(|(i, &seed)| play_game(teacher, &setups[i % setups.len()], seed, i as u32))
            .collect()
    });
    let mut all = Samples::default();
    for g in games {
        all.append(g?);
    }
    Ok(all)
}
