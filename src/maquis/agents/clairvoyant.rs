//! A measurement, not an agent: how often a search that SEES the hidden deck order (and, through
//! the state's own RNG, every future reshuffle) wins. No fair player can see these, so the rate
//! bounds from above what the agents can be expected to reach at a difficulty level.
//!
//! The game is deterministic once the deck and the RNG are known, so the search is a nested
//! rollout with an incumbent plan (Yan et al.'s rollout algorithms, Cazenave's nested search at
//! level 1): at each decision the heuristic's best `candidates` actions and the plan's next move
//! are each followed by `rollouts` fast-heuristic rollouts on the TRUE future (different risk
//! samples), the best complete line found so far is kept, and its next move is played. The plan
//! never gets worse, and once it reaches a win it is followed to the end. It is a lower bound of
//! the true clairvoyant optimum (the search is not exhaustive), and a practical ceiling for
//! the fair agents.

use super::guided::OUTCOME_VALUES;
use super::heuristic::{open_progress, HeuristicAgent, Rng64};
use crate::maquis::action::table;
use crate::maquis::ids::Outcome;
use crate::maquis::rules::{apply_legal, legal_mask, new_game, Setup};
use crate::maquis::state::State;

#[derive(Clone, Debug)]
pub struct Clairvoyant {
    /// Heuristic candidates tried at each decision (besides the plan's move).
    pub candidates: usize,
    /// Rollouts per candidate.
    pub rollouts: u32,
    pub seed: u64,
    rollout: HeuristicAgent,
    prior: HeuristicAgent,
}

impl Clairvoyant {
    pub fn new(candidates: usize, rollouts: u32, seed: u64) -> Clairvoyant {
        Clairvoyant { candidates, rollouts, seed, rollout: HeuristicAgent::fast(seed), prior: HeuristicAgent::new(seed) }
    }

    /// A line's worth: the outcome value, then (to rank equal outcomes) mission progress.
    fn worth(s: &State) -> f64 {
        let o = s.outcome.unwrap_or(Outcome::Loss);
        OUTCOME_VALUES[o.idx()] as f64 + if o == Outcome::MajorWin { 0.01 } else { 0.0 } + 0.001 * open_progress(s)
    }

    /// Plays `first` then the fast heuristic to the end, on the true state: (worth, moves).
    fn line(&self, s: &State, first: usize, seed: u64) -> (f64, Vec<usize>) {
        let t = table();
        let mut g = s.clone();
        let mut moves = vec![first];
        apply_legal(&mut g, t.actions[first]);
        let mut rng = Rng64::new(seed);
        while !g.is_over() {
            let a = self.rollout.act_with(&g, &mut rng);
            moves.push(a);
            apply_legal(&mut g, t.actions[a]);
        }
        (Clairvoyant::worth(&g), moves)
    }

    /// Plays the game from `s` to its end; returns the final state.
    pub fn play(&self, mut s: State) -> State {
        let t = table();
        // The incumbent: the moves still to play from `s` and the worth they reach.
        let mut plan: Vec<usize> = Vec::new();
        let mut plan_worth = f64::NEG_INFINITY;
        let mut step = 0u64;
        while !s.is_over() {
            let mask = legal_mask(&s);
            let won = plan_worth >= 1.0;
            if mask.count() > 1 && !won {
                let mut rng = self.prior.rng_for(&s);
                let mut firsts: Vec<usize> =
                    self.prior.ranked(&s, &mut rng).into_iter().take(self.candidates).map(|c| c.0).collect();
                if let Some(&p) = plan.first() {
                    if !firsts.contains(&p) {
                        firsts.push(p);
                    }
                }
                for &a in &firsts {
                    for r in 0..self.rollouts {
                        let seed = self.seed ^ (step << 20) ^ ((a as u64) << 8) ^ r as u64;
                        let (w, moves) = self.line(&s, a, seed);
                        if w > plan_worth {
                            plan_worth = w;
                            plan = moves;
                        }
                    }
                }
            }
            if plan.is_empty() || !mask.get(plan[0]) {
                // Only when nothing was searched (a single legal move) and no plan fits.
                let a = mask.iter().next().expect("a legal action");
                let (w, moves) = self.line(&s, a, self.seed ^ step);
                (plan_worth, plan) = (w, moves);
            }
            let a = plan.remove(0);
            apply_legal(&mut s, t.actions[a]);
            step += 1;
        }
        s
    }
}

/// The outcome of each game `new_game(setup, seed)` for `seeds`, played by the clairvoyant search
/// on up to `threads` threads.
pub fn clairvoyant_outcomes(cv: &Clairvoyant, setup: &Setup, seeds: &[u64], threads: usize) -> crate::Result<Vec<State>> {
    let games: Vec<State> = seeds.iter().map(|&g| new_game(setup, g)).collect::<crate::Result<_>>()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().expect("a thread pool");
    use rayon::prelude::*;
    Ok(pool.install(|| games.into_par_iter().map(|g| cv.play(g)).collect()))
}
