//! D1 `search`: information-set Monte Carlo. Each simulation samples the hidden allocation
//! uniformly among the valid allocations consistent with the side's observation, rebuilds the
//! state with re-seeded dice, applies a candidate action and plays out with `heuristic` on both
//! sides. Searched are the attack, the order, the re-roll decisions and the Resistance's skirmish
//! actions; the heuristic plays the rest. The budget
//! (simulations per searched decision) is spread over at most `MAX_ARMS` candidates — the
//! heuristic's choice and others drawn at random — in rounds that share one world and one dice
//! seed across the candidates. A playout is worth win 1, draw ½, loss 0 plus a tenth
//! of the scaled VP margin; the heuristic's choice is played unless another candidate's paired
//! advantage over it stays positive `Z_SWITCH` standard errors below its mean (then the best such
//! candidate).

use super::heuristic::{consistent_allocations, HeuristicAgent};
use super::rebuild::rebuild;
use super::view::View;
use crate::dday::action::Mask;
use crate::dday::allocation::Contents;
use crate::dday::ids::{Outcome, Phase, Side};
use crate::dday::observation::observation;
use crate::dday::rules::{apply, legal_mask};
use crate::draw;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The default simulation budget per decision (D1).
pub const DEFAULT_BUDGET: u32 = 200;
/// The most candidate actions compared at one decision.
pub const MAX_ARMS: usize = 10;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchAgent {
    budget: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicAgent,
}

/// Plays `s` to its end with the heuristic on both sides; the value for `me`: win 1, draw ½,
/// loss 0, plus a small share of the VP margin so that near-equal candidates are told apart by
/// how much they win or lose (the margin varies far less from playout to playout than the result).
fn playout(mut s: crate::dday::State, me: Side, seed: u64) -> f32 {
    let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed ^ 0x5EA5)];
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let a = agents[side.idx()].act(&observation(&s, side), &mask);
        if apply(&mut s, a as i64).is_err() {
            return 0.0;
        }
    }
    let result = match s.outcome {
        Some(Outcome::Draw) | None => 0.5,
        Some(Outcome::Resistance) => f32::from(me == Side::Resistance),
        Some(Outcome::German) => f32::from(me == Side::German),
    };
    result + MARGIN_WEIGHT * s.vp_margin(me)
}

/// The weight of the VP margin (already scaled to about ±1) beside the result.
const MARGIN_WEIGHT: f32 = 0.1;

/// Whether a decision in `phase` is searched for `me`: the attack, the order and the re-roll
/// decisions, and the Resistance's skirmish actions (searching the German's did not help it in
/// the measured games). The allocation (a playout from a partial allocation says little about
/// one item's zone), the interrogation (a guess's worth is information, which a playout in a
/// sampled world hardly sees), the hits and the flights are left to the heuristic.
fn searched(phase: Phase, me: Side) -> bool {
    match phase {
        Phase::Attack | Phase::Order | Phase::GroupSize | Phase::ActionPoints | Phase::Clock | Phase::Scoring => true,
        Phase::Actions => me == Side::Resistance,
        _ => false,
    }
}

/// Standard errors by which a candidate's paired advantage must exceed zero to replace the
/// heuristic's choice (several candidates: the best of them is flattered by noise).
const Z_SWITCH: f32 = 1.5;

impl SearchAgent {
    pub fn new(budget: u32, seed: u64) -> SearchAgent {
        SearchAgent {
            budget: budget.max(1),
            rng: ChaCha8Rng::seed_from_u64(seed),
            heuristic: HeuristicAgent::new(seed ^ 0xD1),
        }
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let v = View::decode(obs);
        let default = self.heuristic.act(obs, mask);
        // Single options need no search.
        if mask.count() <= 1 || !searched(v.phase, v.me) {
            return default;
        }
        let worlds: Vec<Contents> =
            if v.known.iter().all(|&k| k) { vec![v.allocation] } else { consistent_allocations(&v) };
        if worlds.is_empty() {
            return default;
        }
        // Candidates: the heuristic's choice and at most MAX_ARMS − 1 other legal actions drawn
        // from the agent's stream (a guess has 50 options; a budget spread over all of them
        // would leave each a handful of playouts).
        let mut others: Vec<usize> = mask.iter().filter(|&a| a != default).collect();
        draw::shuffle(&mut self.rng, &mut others);
        others.truncate(MAX_ARMS - 1);
        let mut arms = vec![default];
        arms.extend(others);
        // Rounds of common random numbers: one sampled world and one dice seed per round, every
        // candidate played out in it, so candidates are compared on the same luck.
        let rounds = (self.budget as usize).div_ceil(arms.len()).max(1);
        // diff[k]: per-round outcome of candidate k minus the heuristic's choice's.
        let mut sum = vec![0.0f32; arms.len()];
        let mut sq = vec![0.0f32; arms.len()];
        let mut n = 0.0f32;
        let mut rewards = vec![0.0f32; arms.len()];
        for _ in 0..rounds {
            let world = &worlds[draw::below(&mut self.rng, worlds.len() as u32) as usize];
            let seed = self.rng.next_u64();
            let Some(base) = rebuild(&v, world, seed) else { continue };
            for (k, &a) in arms.iter().enumerate() {
                let mut s = base.clone();
                rewards[k] = match apply(&mut s, a as i64) {
                    Ok(()) => playout(s, v.me, seed),
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
        // Leave the heuristic's choice only for a candidate whose paired advantage stays positive
        // one standard error below its mean: playouts are long and their outcomes noisy.
        let mut best = 0;
        let mut best_score = 0.0f32;
        for k in 1..arms.len() {
            if n < 2.0 {
                break;
            }
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
