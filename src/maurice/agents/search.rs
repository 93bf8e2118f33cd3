//! D1 `search`: information-set Monte Carlo at the decisions that open a round (`volley_choice`,
//! `command`; the heuristic plays the rest). Each simulation deals the cards the agent cannot see
//! — the opponent's hand of its known size and the deck — uniformly from the cards not in its
//! hand, the discard pile or out of the game, rebuilds the state from the observation with
//! re-seeded dice and shuffles, applies a candidate and plays out with `heuristic` on both sides
//! for `HORIZON` rounds. Simulations run in rounds that share one deal and one dice seed across
//! the candidates (common random numbers). A playout is worth win 1, loss 0, else ½ plus the
//! morale margin and a share of the DISR margin; the heuristic's choice is played unless another
//! candidate's paired advantage over it stays positive `Z_SWITCH` standard errors below its mean.

use super::heuristic::HeuristicAgent;
use super::rebuild::{deal, rebuild, terrain};
use super::view::View;
use crate::maurice::action::Mask;
use crate::maurice::ids::{Phase, Side};
use crate::maurice::rules::apply;
use crate::maurice::state::State;
use crate::draw;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The default simulation budget per decision (D1).
pub const DEFAULT_BUDGET: u32 = 100;
/// The most candidate actions compared at one decision.
pub const MAX_ARMS: usize = 8;
/// Rounds a playout runs past the decision's own round before it is scored.
pub const HORIZON: u32 = 2;
/// Standard errors by which a candidate's paired advantage must exceed zero to replace the
/// heuristic's choice (several candidates: the best of them is flattered by noise).
const Z_SWITCH: f32 = 1.0;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchAgent {
    budget: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicAgent,
}

/// `me`'s score of a (possibly unfinished) game: win 1, loss 0, else ½ plus a quarter of the
/// morale margin (each side's share of its start) and a little of the DISR margin.
pub fn value(s: &State, me: Side) -> f32 {
    if let Some(o) = s.outcome {
        return match o.winner() {
            None => 0.5,
            Some(w) => f32::from(w == me),
        };
    }
    let share = |side: Side| {
        let a = s.army(side);
        a.morale as f32 / a.morale_start.max(1) as f32
    };
    let disr = |side: Side| s.units(side).map(|u| u.disr as f32 / u.bases() as f32).sum::<f32>();
    let margin = share(me) - share(me.other());
    (0.5 + 0.25 * margin + 0.02 * (disr(me.other()) - disr(me))).clamp(0.0, 1.0)
}

/// Plays `s` on with the heuristic on both sides (from `View::of_state`) until `last_round`
/// is over or the game ends.
pub fn playout(mut s: State, me: Side, last_round: u32, seed: u64) -> f32 {
    let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed ^ 0x5EA5)];
    while let Some(side) = s.to_move {
        if s.round_no > last_round {
            break;
        }
        let mask = crate::maurice::rules::legal_mask(&s);
        let a = agents[side.idx()].act_view(&View::of_state(&s, side), &mask);
        if apply(&mut s, a as i64).is_err() {
            break;
        }
    }
    value(&s, me)
}

impl SearchAgent {
    pub fn new(budget: u32, seed: u64) -> SearchAgent {
        SearchAgent { budget: budget.max(1), rng: ChaCha8Rng::seed_from_u64(seed), heuristic: HeuristicAgent::new(seed ^ 0xD1) }
    }

    pub fn budget(&self) -> u32 {
        self.budget
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let default = self.heuristic.act(obs, mask);
        if mask.count() <= 1 {
            return default;
        }
        let v = View::decode(obs);
        if !matches!(v.phase, Phase::VolleyChoice | Phase::Command) || v.active != v.me {
            return default;
        }
        let Some(map) = terrain(obs) else { return default };
        let map = Arc::new(map);
        let mut others: Vec<usize> = mask.iter().filter(|&a| a != default).collect();
        draw::shuffle(&mut self.rng, &mut others);
        others.truncate(MAX_ARMS - 1);
        let mut arms = vec![default];
        arms.extend(others);
        let rounds = (self.budget as usize).div_ceil(arms.len()).max(2);
        let last_round = v.round + HORIZON;
        let mut sum = vec![0.0f32; arms.len()];
        let mut sq = vec![0.0f32; arms.len()];
        let mut rewards = vec![0.0f32; arms.len()];
        let mut n = 0.0f32;
        for _ in 0..rounds {
            let Some((hand, deck)) = deal(&v, &mut self.rng) else { return default };
            let seed = self.rng.next_u64();
            let Some(base) = rebuild(&v, obs, &map, &hand, deck, seed) else { return default };
            for (k, &a) in arms.iter().enumerate() {
                let mut s = base.clone();
                rewards[k] = match apply(&mut s, a as i64) {
                    Ok(()) => playout(s, v.me, last_round, seed),
                    Err(_) => -1.0,
                };
            }
            for k in 0..arms.len() {
                let d = rewards[k] - rewards[0];
                sum[k] += d;
                sq[k] += d * d;
            }
            n += 1.0;
        }
        let mut best = 0;
        let mut best_score = 0.0f32;
        for k in 1..arms.len() {
            let mean = sum[k] / n;
            let var = (sq[k] / n - mean * mean).max(0.0) * n / (n - 1.0);
            let score = mean - Z_SWITCH * (var / n).sqrt();
            if score > best_score {
                best = k;
                best_score = score;
            }
        }
        arms[best]
    }
}
