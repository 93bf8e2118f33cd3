//! D1 `search`: information-set Monte Carlo at the decisions that open the agent's own round
//! (`volley_choice`, `command`) where more than one action is legal; the heuristic plays every
//! other decision, and a forced one costs nothing. Each simulation deals the cards the agent
//! cannot see — the opponent's hand of its known size and the deck — uniformly from the cards not
//! in its hand, the discard pile or out of the game, rebuilds the state from the observation with
//! re-seeded dice and shuffles, applies a candidate and plays out with `heuristic` on both sides
//! for `HORIZON` more rounds (to the end of this round for a volley choice), where it is scored.
//! The playouts read the rebuilt state directly (`View::of_state`, never an observation) and step
//! it in place (`apply_legal`).
//!
//! Simulations come in deals shared by the candidates still in the running (common random
//! numbers), up to `budget` simulations in all. A playout is worth win 1, loss 0, else ½ plus the
//! morale margin and a share of the DISR margin. The heuristic's choice is the reference: a
//! candidate whose paired advantage over it stays `Z_DROP` standard errors below zero is dropped,
//! which leaves the budget to the others, and the search stops early when no candidate has ever
//! changed a score; the heuristic's choice is played unless another candidate's paired advantage
//! stays positive `Z_SWITCH` standard errors below its mean.

use super::heuristic::HeuristicAgent;
use super::rebuild::{deal, rebuild, terrain};
use super::view::View;
use crate::draw;
use crate::maurice::action::{decode, Mask};
use crate::maurice::ids::{Phase, Side};
use crate::maurice::rules::{apply_legal, legal_mask};
use crate::maurice::state::State;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The default simulation budget per decision (D1).
pub const DEFAULT_BUDGET: u32 = 100;
/// The most candidate actions compared at one decision.
pub const MAX_ARMS: usize = 8;
/// Rounds a command's playout runs past its own round: the opponent's reply.
pub const HORIZON: u32 = 1;
/// Standard errors by which a candidate's paired advantage must exceed zero to replace the
/// heuristic's choice (several candidates: the best of them is flattered by noise).
const Z_SWITCH: f32 = 1.0;
/// Standard errors below zero at which a candidate is dropped.
const Z_DROP: f32 = 2.0;
/// Deals every candidate gets before any is dropped or the search stops early.
const MIN_DEALS: u32 = 3;
/// The most decisions a playout takes (a guard: a round takes a few dozen).
const MAX_PLAYOUT_STEPS: u32 = 2_000;

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

/// Plays `s` on with the heuristic on both sides (from `View::of_state`) until round
/// `last_round` is over or the game ends, and scores it for `me`. `mask` is `s`'s mask when known.
pub fn playout(mut s: State, me: Side, last_round: u32, seed: u64, mut mask: Option<Mask>) -> f32 {
    let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed ^ 0x5EA5)];
    let mut steps = 0;
    while let Some(side) = s.to_move {
        if s.round_no > last_round || steps == MAX_PLAYOUT_STEPS {
            break;
        }
        let m = mask.take().unwrap_or_else(|| legal_mask(&s));
        let a = agents[side.idx()].act_view(&View::of_state(&s, side), &m);
        let Ok(action) = decode(a as i64) else { break };
        match apply_legal(&mut s, action) {
            Ok(next) => mask = next,
            Err(_) => break,
        }
        steps += 1;
    }
    value(&s, me)
}

/// Running paired differences of one candidate against the heuristic's choice.
#[derive(Clone, Copy, Default)]
struct Arm {
    action: usize,
    n: f32,
    sum: f32,
    sq: f32,
    alive: bool,
}

impl Arm {
    fn mean(&self) -> f32 {
        self.sum / self.n.max(1.0)
    }
    /// The standard error of the mean difference (infinite below two samples).
    fn se(&self) -> f32 {
        if self.n < 2.0 {
            return f32::INFINITY;
        }
        let mean = self.mean();
        ((self.sq / self.n - mean * mean).max(0.0) * self.n / (self.n - 1.0) / self.n).sqrt()
    }
}

impl SearchAgent {
    pub fn new(budget: u32, seed: u64) -> SearchAgent {
        SearchAgent { budget: budget.max(1), rng: ChaCha8Rng::seed_from_u64(seed), heuristic: HeuristicAgent::new(seed ^ 0xD1) }
    }

    pub fn budget(&self) -> u32 {
        self.budget
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let v = View::decode(obs);
        let default = self.heuristic.act_view(&v, mask);
        if mask.count() <= 1 || !matches!(v.phase, Phase::VolleyChoice | Phase::Command) || v.active != v.me {
            return default;
        }
        let Some(map) = terrain(obs) else { return default };
        let map = Arc::new(map);
        let mut others: Vec<usize> = mask.iter().filter(|&a| a != default).collect();
        draw::shuffle(&mut self.rng, &mut others);
        others.truncate(MAX_ARMS - 1);
        let mut arms: Vec<Arm> =
            std::iter::once(default).chain(others).map(|action| Arm { action, alive: true, ..Arm::default() }).collect();
        // A volley's effects are over by the end of the round; a command's show in the rounds after.
        let last_round = if v.phase == Phase::VolleyChoice { v.round } else { v.round + HORIZON };
        let mut spent = 0u32;
        let mut deals = 0u32;
        let mut rewards = vec![0.0f32; arms.len()];
        loop {
            let alive = arms.iter().filter(|a| a.alive).count() as u32;
            if alive <= 1 || (deals >= 2 && spent + alive > self.budget) {
                break;
            }
            let Some((hand, deck)) = deal(&v, &mut self.rng) else { return default };
            let seed = self.rng.next_u64();
            let Some(base) = rebuild(&v, obs, &map, &hand, deck, seed) else { return default };
            for (k, arm) in arms.iter().enumerate() {
                if !arm.alive {
                    continue;
                }
                let mut s = base.clone();
                rewards[k] = match decode(arm.action as i64).map(|a| apply_legal(&mut s, a)) {
                    Ok(Ok(next)) => playout(s, v.me, last_round, seed, next),
                    _ => -1.0,
                };
                spent += 1;
            }
            deals += 1;
            for (k, arm) in arms.iter_mut().enumerate().skip(1).filter(|(_, a)| a.alive) {
                let d = rewards[k] - rewards[0];
                arm.n += 1.0;
                arm.sum += d;
                arm.sq += d * d;
            }
            if deals >= MIN_DEALS {
                // Nothing any candidate did has changed a score: the choice does not matter here.
                if arms[1..].iter().all(|a| a.sq == 0.0) {
                    break;
                }
                for arm in arms[1..].iter_mut().filter(|a| a.alive) {
                    if arm.mean() + Z_DROP * arm.se() < 0.0 {
                        arm.alive = false;
                    }
                }
            }
        }
        let mut best = default;
        let mut best_score = 0.0f32;
        for arm in &arms[1..] {
            let score = arm.mean() - Z_SWITCH * arm.se();
            if arm.n >= 2.0 && score > best_score {
                best = arm.action;
                best_score = score;
            }
        }
        best
    }
}
