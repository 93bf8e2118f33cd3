//! A planning agent that never sees the hidden deck order.
//!
//! Determinized Monte Carlo search at the root (a one-level information-set search whose default
//! policy is the heuristic). For each decision it takes the heuristic's best few candidate actions
//! (`candidates`, ranked by the full heuristic) and compares them by rollouts. Each rollout starts
//! from a *determinization* of the position — `maquis::maquis::determinize` reshuffles the hidden deck
//! order consistently with what the player has seen (the discard is open; the top card stays while
//! an Infiltration peek shows it), and the state's RNG is reseeded so that future reshuffles are
//! unknown too — applies the candidate, and plays the game to its end with the fast heuristic.
//! Candidates are compared on the *same* determinizations (common random numbers: the same patrol
//! cards come out whatever the candidate), and the `simulations` budget is spent by sequential
//! halving: each round the better half of the candidates survives and gets more rollouts. A
//! rollout is worth its outcome: win or major win 1, draw ½, loss 0 (the default reward win 1 /
//! draw 0 / loss −1, rescaled).
//!
//! Why not a deeper tree: with the budgets that keep a game to seconds (tens of rollouts per
//! decision) a tree below the root gets a handful of visits per node, while the
//! decision at hand is a choice among a few sensible moves whose consequences show only days
//! later; comparing those moves on shared determinizations is where the budget pays.
//!
//! Decisions with a single legal action cost nothing. The action phase is deterministic until the
//! night, and the heuristic's lookahead plays it; only shots and post_action decisions (F8) are
//! searched there unless `search_actions` is set (searching it all doubled the cost and changed no
//! outcome in our measurements). `act` is a pure function of the settings and the observable state.

use super::heuristic::{observable_hash, HeuristicAgent, Rng64};
use crate::maquis::action::{table, Action};
use crate::maquis::ids::{Outcome, Phase};
use crate::maquis::rules::{apply_legal, legal_mask};
use crate::maquis::state::State;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Debug)]
pub struct SearchAgent {
    /// Rollouts per decision.
    pub simulations: u32,
    pub seed: u64,
    /// Candidate actions compared per decision (the heuristic's best).
    pub candidates: usize,
    /// Search every decision of the action phase (by default only shots and post_action
    /// decisions; the heuristic's lookahead plays the rest of that deterministic phase).
    pub search_actions: bool,
    /// Value of each outcome (Outcome order: win, major_win, draw, loss).
    pub values: [f64; 4],
    /// Credit given to the heuristic's own choice when comparing mean rollout values (in outcome
    /// units: a draw is 0.5 above a loss).
    pub prior_margin: f64,
    /// Added to a rollout's value per unit of progress of the missions left incomplete at its
    /// end (a small shaping term that separates otherwise equal outcomes).
    pub progress_bonus: f64,
    /// The policy that plays the rollouts (`HeuristicAgent::fast`).
    pub rollout: HeuristicAgent,
    /// The policy that ranks the root candidates and plays the unsearched decisions
    /// (`HeuristicAgent::new`).
    pub prior: HeuristicAgent,
}

/// The budget of `SearchAgent::default()` and of `AnyAgent::by_name("search")`.
pub const DEFAULT_SIMULATIONS: u32 = 64;

impl Default for SearchAgent {
    fn default() -> SearchAgent {
        SearchAgent::new(DEFAULT_SIMULATIONS, 0)
    }
}

/// Result of one decision, for diagnostics.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// (action index, rollouts, mean value), in the heuristic's order.
    pub candidates: Vec<(usize, u32, f64)>,
    pub chosen: usize,
}

impl SearchAgent {
    pub fn new(simulations: u32, seed: u64) -> SearchAgent {
        SearchAgent {
            simulations,
            seed,
            candidates: 4,
            search_actions: false,
            values: [1.0, 1.0, 0.5, 0.0],
            progress_bonus: 0.0,
            prior_margin: 0.0,
            rollout: HeuristicAgent::fast(seed),
            prior: HeuristicAgent::new(seed),
        }
    }

    /// A legal action index for `s` (panics if the game is over). A pure function of the
    /// agent's settings and the observable state.
    pub fn act(&mut self, s: &State) -> usize {
        self.act_info(s).chosen
    }

    /// As `act`, with the candidates' statistics.
    pub fn act_info(&self, s: &State) -> SearchInfo {
        let mask = legal_mask(s);
        let first = mask.iter().next().expect("act() called on a finished game");
        if mask.count() == 1 {
            return SearchInfo { candidates: vec![(first, 0, 0.0)], chosen: first };
        }
        let mut rng = self.prior.rng_for(s);
        let ranked = self.prior.ranked(s, &mut rng);
        let searched = self.search_actions || worth_searching(s, &ranked[..self.candidates.min(ranked.len())]);
        let k = self.candidates.min(ranked.len()).max(1);
        if !searched || k == 1 || self.simulations == 0 {
            let chosen = ranked.first().map_or(first, |c| c.0);
            return SearchInfo { candidates: vec![(chosen, 0, 0.0)], chosen };
        }
        let mut cands: Vec<(usize, u32, f64)> = ranked[..k].iter().map(|&(i, _)| (i, 0, 0.0)).collect();
        // Sequential halving over the candidates, on shared determinizations.
        let base = self.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ observable_hash(s).rotate_left(17);
        let mut alive: Vec<usize> = (0..k).collect();
        // Mean rollout value, the heuristic's own choice (candidate 0) credited `prior_margin`:
        // another candidate must do measurably better to replace it.
        let margin = self.prior_margin;
        let score = |c: usize, cands: &[(usize, u32, f64)]| {
            cands[c].2 / cands[c].1.max(1) as f64 + if c == 0 { margin } else { 0.0 }
        };
        let rounds = (usize::BITS - (k - 1).leading_zeros()).max(1);
        let mut budget = self.simulations as u64;
        let mut next_det = 0u64;
        for round in 0..rounds {
            let rounds_left = (rounds - round) as u64;
            let per = (budget / rounds_left / alive.len() as u64).max(1);
            for _ in 0..per {
                let det = determinized(s, base.wrapping_add(next_det));
                next_det += 1;
                for &c in &alive {
                    let v = self.rollout_value(&det, cands[c].0, base ^ next_det);
                    cands[c].1 += 1;
                    cands[c].2 += v;
                }
                budget = budget.saturating_sub(alive.len() as u64);
            }
            if alive.len() == 1 {
                break;
            }
            // Keep the better half (ties: the heuristic's order).
            let mut order = alive.clone();
            order.sort_by(|&a, &b| score(b, &cands).partial_cmp(&score(a, &cands)).unwrap().then(a.cmp(&b)));
            let keep = alive.len().div_ceil(2);
            alive = order[..keep].to_vec();
            alive.sort();
        }
        let best = alive
            .iter()
            .copied()
            .max_by(|&a, &b| score(a, &cands).partial_cmp(&score(b, &cands)).unwrap().then(b.cmp(&a)))
            .unwrap();
        for c in cands.iter_mut() {
            c.2 /= c.1.max(1) as f64;
        }
        let chosen = cands[best].0;
        SearchInfo { candidates: cands, chosen }
    }

    /// Plays `action` on the determinization and then the rollout policy to the end.
    fn rollout_value(&self, det: &State, action: usize, seed: u64) -> f64 {
        let t = table();
        let mut s = det.clone();
        apply_legal(&mut s, t.actions[action]);
        let mut rng = Rng64::new(seed);
        while !s.is_over() {
            let a = self.rollout.act_with(&s, &mut rng);
            apply_legal(&mut s, t.actions[a]);
        }
        let mut v = self.outcome_value(s.outcome.unwrap_or(Outcome::Loss));
        if self.progress_bonus != 0.0 {
            v += self.progress_bonus * super::heuristic::open_progress(&s);
        }
        v
    }

    fn outcome_value(&self, o: Outcome) -> f64 {
        self.values[o.idx()]
    }
}

/// Whether a decision is left to the search rather than to the heuristic's choice: placements,
/// the decision after a cut-off activation (F8), and shots among the heuristic's `top` moves. The
/// rest of the action phase is deterministic until the night and the heuristic's lookahead plays it.
pub fn worth_searching(s: &State, top: &[(usize, f64)]) -> bool {
    s.phase == Phase::Placement
        || s.phase == Phase::PostAction
        || top.iter().any(|&(i, _)| matches!(table().actions[i], Action::Shoot(_)))
}

/// A copy of `s` with the hidden deck order resampled (`maquis::maquis::determinize`: consistent with
/// the discard and the Infiltration peek) and the RNG reseeded, so that nothing hidden — the
/// order, or the order of a future reshuffle — can leak into the search.
pub fn determinized(s: &State, seed: u64) -> State {
    let mut d = s.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    crate::maquis::rules::determinize(&mut d, &mut rng);
    d.rng = ChaCha8Rng::seed_from_u64(seed ^ 0x005E_ED0F_DEC0);
    d
}
