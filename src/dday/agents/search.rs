//! D1 `search`: information-set Monte Carlo. Each simulation samples the hidden allocation
//! uniformly among the valid allocations consistent with the side's observation, rebuilds the
//! state with fresh dice, applies a candidate action and plays out with `heuristic` on both
//! sides; candidates are chosen by UCB1 over a fixed budget of simulations, and the one with the
//! best mean outcome (win 1, draw 0, loss −1) is played.

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
/// UCB1's exploration constant for rewards in [−1, 1].
const EXPLORE: f32 = 1.4;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchAgent {
    budget: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicAgent,
}

/// Plays `s` to its end with the heuristic on both sides; the outcome for `me`.
fn playout(mut s: crate::dday::State, me: Side, seed: u64) -> f32 {
    let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed ^ 0x5EA5)];
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let a = agents[side.idx()].act(&observation(&s, side), &mask);
        if apply(&mut s, a as i64).is_err() {
            return 0.0;
        }
    }
    match s.outcome {
        Some(Outcome::Draw) | None => 0.0,
        Some(Outcome::Resistance) => if me == Side::Resistance { 1.0 } else { -1.0 },
        Some(Outcome::German) => if me == Side::German { 1.0 } else { -1.0 },
    }
}

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
        let arms: Vec<usize> = mask.iter().collect();
        // The German's allocation is planned by the heuristic (a playout from a partial
        // allocation says little about one item's zone); single options need no search.
        if arms.len() <= 1 || v.phase == Phase::Allocation {
            return self.heuristic.act(obs, mask);
        }
        let worlds: Vec<Contents> = if v.known.iter().all(|&k| k) {
            vec![v.allocation]
        } else {
            consistent_allocations(&v)
        };
        if worlds.is_empty() {
            return self.heuristic.act(obs, mask);
        }
        let mut total = vec![0.0f32; arms.len()];
        let mut visits = vec![0u32; arms.len()];
        for n in 0..self.budget {
            let k = match visits.iter().position(|&c| c == 0) {
                Some(k) => k,
                None => {
                    let ln = (n as f32).ln();
                    (0..arms.len())
                        .max_by(|&a, &b| {
                            let ucb = |i: usize| total[i] / visits[i] as f32 + EXPLORE * (ln / visits[i] as f32).sqrt();
                            ucb(a).total_cmp(&ucb(b))
                        })
                        .unwrap_or(0)
                }
            };
            let world = &worlds[draw::below(&mut self.rng, worlds.len() as u32) as usize];
            let seed = self.rng.next_u64();
            let reward = match rebuild(&v, world, seed) {
                Some(mut s) => match apply(&mut s, arms[k] as i64) {
                    Ok(()) => playout(s, v.me, seed),
                    Err(_) => 0.0,
                },
                None => 0.0,
            };
            total[k] += reward;
            visits[k] += 1;
        }
        let best = (0..arms.len())
            .max_by(|&a, &b| {
                let mean = |i: usize| if visits[i] == 0 { f32::MIN } else { total[i] / visits[i] as f32 };
                mean(a).total_cmp(&mean(b)).then(b.cmp(&a))
            })
            .unwrap_or(0);
        arms[best]
    }
}
