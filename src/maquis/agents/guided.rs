//! Network-guided determinized search: the search of `search.rs` with the learned network as its
//! prior and its leaf evaluator. It never sees the hidden deck order.
//!
//! At a decision with more than one legal action:
//! 1. the network reads the observation: logits (the prior) and a value `v̂` (expected outcome
//!    value: win 1, draw ½, loss 0);
//! 2. Gumbel top-k (Danihelka et al. 2022, mctx's `gumbel_muzero_policy`): `k = candidates` legal
//!    actions with the highest `g + logit`, `g` Gumbel noise times `gumbel_scale` (1 in self-play
//!    for exploration, 0 to play: the prior's top k), joined by the heuristic's best
//!    `heuristic_candidates` moves (0 by default) that are not among them. With heuristic
//!    candidates, the decisions the plain search leaves to the heuristic's lookahead (the
//!    deterministic action phase, `search::worth_searching`) are left to it here too;
//! 3. sequential halving spends `simulations` leaf evaluations over the candidates, each round on
//!    shared determinizations (`search::determinized`: the hidden deck reshuffled consistently with
//!    what the player has seen, the state's RNG reseeded) and keeps the better half by
//!    `w·(g + logit) + σ(q)` (`w = prior_weight`, 1 by default; 0 ranks by value alone, as the
//!    plain search does);
//! 4. a leaf evaluation applies the candidate, lets the network play greedily for `depth` more
//!    moves, and reads the network's value there (the outcome if the game ended); with
//!    `rollout_mix > 0` that value is mixed with a heuristic rollout to the end (the
//!    search agent's leaf evaluator), `(1 − mix)·v_net + mix·v_rollout`;
//! 5. the action is the survivor with the highest `w·(g + logit) + σ(q)`. The root statistics
//!    give the training targets: the improved policy `softmax(logit + σ(completed q))` over the legal
//!    actions (unvisited actions completed with the mixed value of mctx), and that root value.
//!
//! `σ(q) = (c_visit + max visits) · c_scale · q`, q rescaled to [0, 1] over the legal actions
//! (mctx's `qtransform_completed_by_mix_value` defaults: 50 and 0.1). A decision is a pure function
//! of the settings, the network and the observable state: the search starts from the state rebuilt
//! from the observation, so even a caller holding the true deck order cannot leak it.

use super::heuristic::{observable_hash, open_progress, HeuristicAgent, Rng64};
use super::network::{masked_argmax, Network, Scratch};
use super::search::{determinized, worth_searching};
use crate::maquis::action::{table, NUM_ACTIONS};
use crate::maquis::ids::Outcome;
use crate::maquis::observation::{obs_size, state_from_observation};
use crate::maquis::rules::{apply_legal, legal_mask};
use crate::maquis::state::State;
use std::sync::Arc;

/// Greedy network moves before a leaf's value is read, by default: with the placeholder network,
/// 256 simulations at depth 4 won 20 % of 100 games where depth 0 won 10 % (docs/training.md).
pub const DEFAULT_DEPTH: u32 = 4;

/// Value of each outcome (Outcome order: win, major_win, draw, loss), the network's value scale.
pub const OUTCOME_VALUES: [f32; 4] = [1.0, 1.0, 0.5, 0.0];

/// A guided search's settings beside its network and seed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuidedSettings {
    /// Leaf evaluations per decision.
    pub simulations: u32,
    /// Candidates of the Gumbel top-k.
    pub candidates: usize,
    /// Network-policy moves after the candidate before the value is read.
    pub depth: u32,
    /// Weight of a heuristic rollout in a leaf's value (0: the network's value alone).
    pub rollout_mix: f32,
    /// Scale of the Gumbel noise on the prior (0: deterministic top-k).
    pub gumbel_scale: f32,
    /// The heuristic's best moves added to the network's candidates (0: the network's alone).
    pub heuristic_candidates: usize,
    /// Weight of `g + logit` beside `σ(q)` when candidates are ranked (0: by value alone, as the
    /// plain search does).
    pub prior_weight: f32,
    /// Added to a leaf's outcome value per unit of progress of the missions left incomplete (a
    /// small shaping term that separates otherwise equal outcomes).
    pub progress_bonus: f32,
}

/// The bundled `network_search` agent's settings, the strongest measured with the shipped network
/// (docs/training.md). Python's `maquis.agents.DEFAULT_NETWORK_SEARCH` is read from here.
pub const NETWORK_SEARCH_DEFAULTS: GuidedSettings = GuidedSettings {
    simulations: 200,
    candidates: 1,
    depth: 0,
    rollout_mix: 1.0,
    gumbel_scale: 0.0,
    heuristic_candidates: 4,
    prior_weight: 0.2,
    progress_bonus: 0.1,
};

/// The network alone guiding the search, as self-play starts: its 8 best moves as candidates,
/// `DEFAULT_DEPTH` greedy moves then its value at the leaves, no heuristic, no bonus
/// (`simulations` is the caller's).
pub const PURE_NETWORK_SETTINGS: GuidedSettings = GuidedSettings {
    simulations: 0,
    candidates: 8,
    depth: DEFAULT_DEPTH,
    rollout_mix: 0.0,
    gumbel_scale: 0.0,
    heuristic_candidates: 0,
    prior_weight: 1.0,
    progress_bonus: 0.0,
};

#[derive(Clone, Debug)]
pub struct GuidedSearch {
    pub net: Arc<Network>,
    pub settings: GuidedSettings,
    /// A draw's value at the leaves (outcomes and rollouts; a win is 1, a loss 0). The network's
    /// value head keeps the ½ it was trained with.
    pub draw_value: f32,
    pub c_visit: f32,
    pub c_scale: f32,
    pub seed: u64,
    /// The rollout policy when `rollout_mix > 0`.
    pub rollout: HeuristicAgent,
    /// The policy whose best moves join the candidates (`heuristic_candidates`).
    pub prior: HeuristicAgent,
}

/// What the search found at one decision.
#[derive(Clone, Debug)]
pub struct RootStats {
    pub action: usize,
    /// The network's value at the root.
    pub net_value: f32,
    /// The root value after the search (mctx's mixed value).
    pub value: f32,
    /// The improved policy over all actions (0 on illegal ones).
    pub policy: Vec<f32>,
    /// (action, visits, mean leaf value) of every candidate.
    pub candidates: Vec<(usize, u32, f32)>,
}

impl RootStats {
    /// A decision taken without searching: `action` with certainty, the network's value as is.
    fn unsearched(action: usize, net_value: f32) -> RootStats {
        let mut policy = vec![0.0; NUM_ACTIONS];
        policy[action] = 1.0;
        RootStats { action, net_value, value: net_value, policy, candidates: vec![(action, 0, net_value)] }
    }
}

/// A scratch area for leaf evaluations.
#[derive(Clone, Debug, Default)]
struct Work {
    /// The network's input row.
    input: Vec<f32>,
    logits: Vec<f32>,
    scratch: Scratch,
}

impl Work {
    fn new() -> Work {
        Work { input: Vec::new(), logits: vec![0.0; NUM_ACTIONS], scratch: Scratch::default() }
    }

    /// Logits (in `self.logits`) and value of a state.
    fn eval(&mut self, net: &Network, s: &State) -> f32 {
        net.write_state_input(s, &mut self.input);
        net.forward_into(&self.input, &mut self.logits, &mut self.scratch)
    }
}

impl GuidedSearch {
    /// A search with `PURE_NETWORK_SETTINGS` and `simulations` leaf evaluations a decision.
    pub fn new(net: Arc<Network>, simulations: u32, seed: u64) -> GuidedSearch {
        GuidedSearch::with_settings(net, seed, &GuidedSettings { simulations, ..PURE_NETWORK_SETTINGS })
    }

    /// A search with `o`'s settings.
    pub fn with_settings(net: Arc<Network>, seed: u64, o: &GuidedSettings) -> GuidedSearch {
        GuidedSearch {
            net,
            settings: *o,
            draw_value: OUTCOME_VALUES[Outcome::Draw.idx()],
            c_visit: 50.0,
            c_scale: 0.1,
            seed,
            rollout: HeuristicAgent::fast(seed),
            prior: HeuristicAgent::new(seed),
        }
    }

    /// A legal action for `s` (panics if the game is over).
    pub fn act(&self, s: &State) -> usize {
        self.search(s).action
    }

    /// The search at one decision, with its statistics (panics if the game is over).
    pub fn search(&self, s: &State) -> RootStats {
        let mask = legal_mask(s);
        let legal: Vec<usize> = mask.iter().collect();
        assert!(!legal.is_empty(), "search() called on a finished game");
        let mut work = Work::new();
        let net_value = work.eval(&self.net, s);
        let logits = work.logits.clone();
        // Search from the state rebuilt from the observation alone (its hidden deck order drawn
        // from a fixed seed): whatever hidden order `s` holds cannot reach the result.
        let seen = state_from_observation(&work.input[..obs_size()], self.seed ^ 0x5EE0_0B5E).expect("an engine observation decodes");
        let s = &seen;
        if legal.len() == 1 || self.settings.simulations == 0 {
            let action = if legal.len() == 1 { legal[0] } else { masked_argmax(&logits, &mask).expect("legal") };
            return RootStats::unsearched(action, net_value);
        }
        let mut rng = Rng64::new(self.seed ^ observable_hash(s));
        // Gumbel(0, 1) = −ln(−ln U).
        let noisy: Vec<(usize, f32)> = legal
            .iter()
            .map(|&a| {
                let u = rng.unit().clamp(1e-12, 1.0 - 1e-12);
                (a, logits[a] + self.settings.gumbel_scale * (-(-u.ln()).ln()) as f32)
            })
            .collect();
        let mut order = noisy.clone();
        order.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let k = self.settings.candidates.clamp(1, order.len());
        // The heuristic's candidates first, in its order: ties (frequent with few rollouts of
        // win/draw/loss outcomes) go to the earlier candidate, as in the plain search.
        let mut picked: Vec<(usize, f32)> = Vec::with_capacity(k + self.settings.heuristic_candidates);
        if self.settings.heuristic_candidates > 0 {
            let mut hrng = self.prior.rng_for(s);
            let ranked = self.prior.ranked(s, &mut hrng);
            let top = &ranked[..self.settings.heuristic_candidates.min(ranked.len())];
            // Where the plain search trusts the heuristic (the deterministic action phase), so
            // does this one: rollouts there only add noise to its lookahead's choice.
            if !worth_searching(s, top) {
                return RootStats::unsearched(top.first().map_or(legal[0], |c| c.0), net_value);
            }
            for &(a, _) in top {
                picked.push(*noisy.iter().find(|n| n.0 == a).expect("the heuristic ranks legal actions"));
            }
        }
        for &c in &order[..k] {
            if !picked.iter().any(|p| p.0 == c.0) {
                picked.push(c);
            }
        }
        let k = picked.len();
        // (action, g + logit, visits, value sum)
        let mut cands: Vec<(usize, f32, u32, f32)> = picked.into_iter().map(|(a, gl)| (a, gl, 0, 0.0)).collect();
        let base = self.seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ observable_hash(s).rotate_left(17);
        let mut alive: Vec<usize> = (0..k).collect();
        let rounds = (usize::BITS - (k - 1).leading_zeros()).max(1);
        let mut budget = self.settings.simulations as u64;
        let mut next_det = 0u64;
        for round in 0..rounds {
            let per = (budget / (rounds - round) as u64 / alive.len() as u64).max(1);
            for _ in 0..per {
                let det = determinized(s, base.wrapping_add(next_det));
                next_det += 1;
                for &c in &alive {
                    let v = self.leaf_value(&det, cands[c].0, base ^ next_det, &mut work);
                    cands[c].2 += 1;
                    cands[c].3 += v;
                }
                budget = budget.saturating_sub(alive.len() as u64);
            }
            if alive.len() == 1 {
                break;
            }
            let max_n = cands.iter().map(|c| c.2).max().unwrap_or(0);
            let score = |c: &(usize, f32, u32, f32)| self.rank_score(c, max_n);
            alive.sort_by(|&a, &b| score(&cands[b]).total_cmp(&score(&cands[a])).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            alive.sort();
        }
        let max_n = cands.iter().map(|c| c.2).max().unwrap_or(0);
        let score = |c: &(usize, f32, u32, f32)| self.rank_score(c, max_n);
        let best = *alive
            .iter()
            .max_by(|&&a, &&b| score(&cands[a]).total_cmp(&score(&cands[b])).then(b.cmp(&a)))
            .expect("a survivor");
        let action = cands[best].0;
        let (policy, value) = self.improved_policy(&logits, &legal, net_value, &cands, max_n);
        let candidates = cands.iter().map(|c| (c.0, c.2, c.3 / c.2.max(1) as f32)).collect();
        RootStats { action, net_value, value, policy, candidates }
    }

    /// A candidate's rank among the survivors: `w·(g + logit) + σ(mean leaf value)`, for a
    /// candidate `(action, g + logit, visits, value sum)`.
    fn rank_score(&self, c: &(usize, f32, u32, f32), max_visits: u32) -> f32 {
        self.settings.prior_weight * c.1 + self.sigma(c.3 / c.2.max(1) as f32, max_visits)
    }

    /// σ of a value in [0, 1] (values are already on the outcome scale, so no rescaling here; the
    /// improved policy rescales over the legal actions as mctx does).
    fn sigma(&self, q: f32, max_visits: u32) -> f32 {
        (self.c_visit + max_visits as f32) * self.c_scale * q
    }

    /// `softmax(logit + σ(completed q))` over the legal actions, and the mixed root value.
    fn improved_policy(
        &self,
        logits: &[f32],
        legal: &[usize],
        net_value: f32,
        cands: &[(usize, f32, u32, f32)],
        max_n: u32,
    ) -> (Vec<f32>, f32) {
        // The prior over the legal actions.
        let m = legal.iter().map(|&a| logits[a]).fold(f32::NEG_INFINITY, f32::max);
        let mut prior = vec![0.0f32; NUM_ACTIONS];
        let z: f32 = legal.iter().map(|&a| (logits[a] - m).exp()).sum();
        for &a in legal {
            prior[a] = (logits[a] - m).exp() / z;
        }
        // mctx's mixed value: v̂ and the prior-weighted mean of the visited q's, by visits.
        let visited: Vec<&(usize, f32, u32, f32)> = cands.iter().filter(|c| c.2 > 0).collect();
        let total_n: f32 = visited.iter().map(|c| c.2 as f32).sum();
        let p_sum: f32 = visited.iter().map(|c| prior[c.0]).sum::<f32>().max(f32::MIN_POSITIVE);
        let weighted_q: f32 = visited.iter().map(|c| prior[c.0] * c.3 / c.2 as f32).sum::<f32>() / p_sum;
        let mixed = if visited.is_empty() { net_value } else { (net_value + total_n * weighted_q) / (1.0 + total_n) };
        let mut q = vec![mixed; NUM_ACTIONS];
        for c in &visited {
            q[c.0] = c.3 / c.2 as f32;
        }
        let (lo, hi) = legal.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &a| (lo.min(q[a]), hi.max(q[a])));
        let span = (hi - lo).max(1e-8);
        let mut policy = vec![0.0f32; NUM_ACTIONS];
        let scores: Vec<f32> = legal.iter().map(|&a| logits[a] + self.sigma((q[a] - lo) / span, max_n)).collect();
        let m = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let z: f32 = scores.iter().map(|&x| (x - m).exp()).sum();
        for (&a, &x) in legal.iter().zip(&scores) {
            policy[a] = (x - m).exp() / z;
        }
        (policy, mixed)
    }

    /// Plays `action` on the determinization, then `depth` greedy network moves; the network's
    /// value there (or the outcome), mixed with a heuristic rollout if `rollout_mix > 0`.
    fn leaf_value(&self, det: &State, action: usize, seed: u64, work: &mut Work) -> f32 {
        let t = table();
        let mut s = det.clone();
        apply_legal(&mut s, t.actions[action]);
        let mut steps = 0;
        let net_v = loop {
            if s.is_over() {
                break self.leaf_outcome(&s);
            }
            // A leaf valued by its rollout alone needs no network value: the input row (the
            // heuristic's ranking) costs more than a rollout's first moves.
            if steps == self.settings.depth && self.settings.rollout_mix >= 1.0 {
                break 0.0;
            }
            let value = work.eval(&self.net, &s);
            if steps == self.settings.depth {
                break value;
            }
            let a = masked_argmax(&work.logits, &legal_mask(&s)).expect("a legal action");
            apply_legal(&mut s, t.actions[a]);
            steps += 1;
        };
        if self.settings.rollout_mix <= 0.0 {
            return net_v;
        }
        let mut r = s;
        let mut rng = Rng64::new(seed);
        while !r.is_over() {
            let a = self.rollout.act_with(&r, &mut rng);
            apply_legal(&mut r, t.actions[a]);
        }
        (1.0 - self.settings.rollout_mix) * net_v + self.settings.rollout_mix * self.leaf_outcome(&r)
    }

    /// A finished game's value at a leaf: `outcome_value` with this search's `draw_value`, plus
    /// the progress bonus.
    fn leaf_outcome(&self, s: &State) -> f32 {
        let v = match s.outcome {
            Some(Outcome::Draw) => self.draw_value,
            _ => outcome_value(s),
        };
        if self.settings.progress_bonus == 0.0 {
            return v;
        }
        v + self.settings.progress_bonus * open_progress(s) as f32
    }
}

/// The outcome value of a finished game (`OUTCOME_VALUES`).
pub fn outcome_value(s: &State) -> f32 {
    OUTCOME_VALUES[s.outcome.unwrap_or(Outcome::Loss).idx()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maquis::{new_game, Setup};

    /// Positions of heuristic games: a few moves in, and at their end.
    fn heuristic_game(seed: u64) -> Vec<State> {
        let h = HeuristicAgent::new(seed);
        let mut s = new_game(&Setup::default(), seed).unwrap();
        let mut seen = vec![s.clone()];
        while !s.is_over() {
            let next = h.act(&s);
            apply_legal(&mut s, table().actions[next]);
            seen.push(s.clone());
        }
        seen
    }

    #[test]
    fn a_leaf_valued_by_its_rollout_does_not_depend_on_the_network() {
        let search = |net_seed| {
            let mut g = GuidedSearch::new(Arc::new(Network::random(&[16], net_seed)), 8, 5);
            (g.settings.rollout_mix, g.settings.depth) = (1.0, 0);
            g
        };
        let (a, b) = (search(1), search(2));
        let mut work = Work::new();
        for s in heuristic_game(3).iter().step_by(7).filter(|s| !s.is_over()) {
            for action in legal_mask(s).iter().take(3) {
                let va = a.leaf_value(s, action, 99, &mut work);
                // The rollout played by hand from the same seed.
                let mut r = s.clone();
                apply_legal(&mut r, table().actions[action]);
                let mut rng = Rng64::new(99);
                while !r.is_over() {
                    let next = a.rollout.act_with(&r, &mut rng);
                    apply_legal(&mut r, table().actions[next]);
                }
                assert_eq!(va.to_bits(), outcome_value(&r).to_bits());
                assert_eq!(va.to_bits(), b.leaf_value(s, action, 99, &mut work).to_bits());
            }
        }
    }

    #[test]
    fn leaf_outcomes_take_the_draw_value_and_the_progress_bonus() {
        let g = GuidedSearch::new(Arc::new(Network::random(&[16], 1)), 8, 5);
        assert_eq!(g.draw_value, OUTCOME_VALUES[Outcome::Draw.idx()]);
        let mut kinds = [false; 4];
        for seed in 0..40 {
            let end = heuristic_game(seed).pop().unwrap();
            let o = end.outcome.unwrap();
            kinds[o.idx()] = true;
            assert_eq!(g.leaf_outcome(&end), outcome_value(&end));
            let low = GuidedSearch { draw_value: 0.2, ..g.clone() };
            assert_eq!(low.leaf_outcome(&end), if o == Outcome::Draw { 0.2 } else { outcome_value(&end) });
            let mut bonus = g.clone();
            bonus.settings.progress_bonus = 0.1;
            let want = outcome_value(&end) + 0.1 * open_progress(&end) as f32;
            assert!((bonus.leaf_outcome(&end) - want).abs() < 1e-6);
        }
        assert!(kinds[Outcome::Draw.idx()] && kinds[Outcome::Loss.idx()], "{kinds:?}");
    }
}
