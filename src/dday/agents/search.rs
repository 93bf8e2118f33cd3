//! D1 `search`: information-set Monte Carlo. Each simulation samples the hidden allocation
//! uniformly among the valid allocations consistent with the side's observation, rebuilds the
//! state with re-seeded dice, applies a candidate action and plays out with `heuristic` on both
//! sides. Searched are the German's allocation (as a whole, at his first item: zone orders of the
//! heuristic's contents), the order, the re-roll decisions and the Resistance's skirmish actions;
//! the heuristic plays the rest. The budget (simulations per searched decision)
//! is spread over at most `MAX_ARMS` candidates — the heuristic's choice and others drawn at
//! random — by successive halving in rounds that share one world and one dice seed across the
//! candidates. A playout is worth win 1, draw ½, loss 0 plus a tenth of the scaled VP margin;
//! the heuristic's choice (the default) is played unless another candidate's paired advantage
//! over it stays positive `Z_SWITCH` standard errors below its mean (then the best such
//! candidate). `network_search` puts a network's choice in the default's place, and allocates,
//! interrogates and chooses its attack as its network does.
//! The Resistance's attack and guesses use the same playouts' outcomes measured once per pair of
//! zone contents (`attack_values`), averaged exactly over the consistent allocations (`intel`).

use super::heuristic::{consistent_allocations, heuristic_plan, HeuristicAgent};
use super::intel::{best_attack, best_guess};
use super::rebuild::{place_allocation, rebuild};
use super::view::View;
use crate::dday::action::{Action, Mask};
use crate::dday::allocation::{sequence_of, Contents};
use crate::dday::ids::{Kind, Phase, Side, Zone};
use crate::dday::observation::observation;
use crate::dday::rules::{apply, legal_mask};
use crate::draw;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The default simulation budget per decision (D1).
pub const DEFAULT_BUDGET: u32 = 200;
/// The most candidate actions compared at one decision (the attack's ten pairs all fit).
pub const MAX_ARMS: usize = 10;
/// Zone orders of the heuristic's allocation compared at the German's first item, and their
/// budget in multiples of the budget (full-game playouts, once per game).
const PLANS: usize = 40;
const PLAN_FACTOR: usize = 6;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchAgent {
    budget: u32,
    rng: ChaCha8Rng,
    heuristic: HeuristicAgent,
    /// The German's chosen allocation, once searched (older saves have none).
    #[serde(default)]
    plan: Option<Contents>,
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
    s.result_for(me) + MARGIN_WEIGHT * s.vp_margin(me)
}

/// The weight of the VP margin (already scaled to about ±1) beside the result.
const MARGIN_WEIGHT: f32 = 0.1;

/// Whether a decision in `phase` is searched for `me` by playouts: the order and the re-roll
/// decisions, and the Resistance's skirmish actions (searching the German's did not help it in
/// the measured games). The allocation is planned whole (a playout from a partial allocation
/// says little about one item's zone); the interrogation and the attack are valued by `intel`
/// (a guess's worth is information, which a playout in one sampled world hardly sees); the hits
/// and the flights are left to the heuristic.
fn searched(phase: Phase, me: Side) -> bool {
    match phase {
        Phase::Order | Phase::GroupSize | Phase::ActionPoints | Phase::Clock | Phase::Scoring => true,
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
            plan: None,
        }
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        self.act_with_candidates(obs, mask, &[])
    }

    /// As `act`, with `first` (legal actions, best first, e.g. a network's ranking) in place of
    /// the heuristic: `first[0]` is played where the search does not search (the German's
    /// allocation, the Resistance's guesses and attack then included) and is the default a
    /// candidate must beat where it does; the rest of `first`, then the heuristic's choice, are
    /// compared before the random candidates. With `first` empty this is `act`.
    pub fn act_with_candidates(&mut self, obs: &[f32], mask: &Mask, first: &[usize]) -> usize {
        // One legal action (an allocation step with one zone): neither this agent's stream nor
        // its heuristic's is touched.
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        let v = View::decode(obs);
        let heuristic = self.heuristic.act(obs, mask);
        let default = first.first().copied().filter(|&a| mask.get(a)).unwrap_or(heuristic);
        if v.phase == Phase::Allocation {
            // A guide's allocation is its own: the plans compared here hold the heuristic's
            // contents, and playouts against the heuristic Resistance cannot tell contents apart
            // that the searching Resistance's intel can.
            return if first.is_empty() { self.allocate(&v, mask).unwrap_or(default) } else { default };
        }
        // A guide's guesses and attack are its own too: `intel` prices them over uniformly drawn
        // allocations, where a learned guide knows which allocations its opponents make.
        let intel = match v.phase {
            _ if !first.is_empty() => None,
            Phase::Interrogation if v.me == Side::Resistance => best_guess(&v, mask),
            Phase::Attack if v.me == Side::Resistance => best_attack(&v),
            _ => None,
        };
        if let Some(i) = intel.and_then(Action::index).filter(|&i| mask.get(i)) {
            return i;
        }
        // Single options need no search.
        if mask.count() <= 1 || !searched(v.phase, v.me) {
            return default;
        }
        let worlds: Vec<Contents> =
            if v.known.iter().all(|&k| k) { vec![v.allocation] } else { consistent_allocations(&v) };
        if worlds.is_empty() {
            return default;
        }
        // Candidates: the default, the rest of `first` and the heuristic's choice, then other
        // legal actions drawn from the agent's stream up to MAX_ARMS (an action of a skirmish turn
        // can have dozens of options; a budget spread over all would leave each a handful of playouts).
        let mut arms = vec![default];
        for &a in first.iter().chain([&heuristic]) {
            if arms.len() < MAX_ARMS && mask.get(a) && !arms.contains(&a) {
                arms.push(a);
            }
        }
        let mut others: Vec<usize> = mask.iter().filter(|a| !arms.contains(a)).collect();
        draw::shuffle(&mut self.rng, &mut others);
        others.truncate(MAX_ARMS - arms.len());
        arms.extend(others);
        let me = v.me;
        let best = self.compare(arms.len(), self.budget as usize, Z_SWITCH, |k, seed| {
            let world = &worlds[((seed >> 32) % worlds.len() as u64) as usize];
            let mut s = rebuild(&v, world, seed)?;
            Some(match apply(&mut s, arms[k] as i64) {
                Ok(()) => playout(s, me, seed),
                Err(_) => -1.0,
            })
        });
        arms[best]
    }

    /// The German's allocation: at his first item, the heuristic's five contents are assigned
    /// to zones in each of `PLANS` random orders and the orders compared by full playouts; the
    /// best is then placed item by item.
    fn allocate(&mut self, v: &View, mask: &Mask) -> Option<usize> {
        let placed: u8 = v.allocation.iter().flatten().sum();
        if placed == 0 || self.plan.is_none() {
            let plans: Vec<Contents> = (0..PLANS).map(|_| heuristic_plan(&mut self.rng)).collect();
            let me = v.me;
            let best = self.compare(plans.len(), PLAN_FACTOR * self.budget as usize, 0.0, |k, seed| {
                let mut s = rebuild(v, &plans[k], seed)?;
                place_allocation(&mut s, &plans[k])?;
                Some(playout(s, me, seed))
            });
            self.plan = Some(plans[best]);
        }
        let seq = sequence_of(&self.plan?)?;
        let kind = Kind::from_idx(v.next_item?)?;
        let a = Action::Allocate(kind, Zone::ALL[*seq.get(placed as usize)? as usize]).index()?;
        mask.get(a).then_some(a)
    }

    /// Successive halving over `n` candidates (candidate 0 the default) with common random
    /// numbers: each stage spends an equal share of `budget` in rounds that play every surviving
    /// candidate in one sampled world with one dice seed (`value(k, seed)`), then keeps the half
    /// whose paired advantage over the default is largest. The default stays to the end; it is
    /// left only for a survivor whose advantage stays positive `z` standard errors below its mean.
    fn compare(&mut self, n: usize, budget: usize, z: f32, mut value: impl FnMut(usize, u64) -> Option<f32>) -> usize {
        if n <= 1 {
            return 0;
        }
        let stages = (usize::BITS - (n - 1).leading_zeros()) as usize; // ceil(log2 n)
        let mut alive: Vec<usize> = (0..n).collect();
        // Per candidate: sum and sum of squares of the paired difference, and rounds played.
        let mut sum = vec![0.0f32; n];
        let mut sq = vec![0.0f32; n];
        let mut cnt = vec![0.0f32; n];
        let mut rewards = vec![0.0f32; n];
        let mean = |k: usize, sum: &[f32], cnt: &[f32]| if cnt[k] > 0.0 { sum[k] / cnt[k] } else { f32::MIN };
        for stage in 0..stages {
            let rounds = (budget / stages).div_ceil(alive.len()).max(2);
            for _ in 0..rounds {
                let seed = self.rng.next_u64();
                let mut ok = true;
                for &k in &alive {
                    match value(k, seed) {
                        Some(r) => rewards[k] = r,
                        None => ok = false,
                    }
                }
                if !ok {
                    continue;
                }
                for &k in &alive {
                    let d = rewards[k] - rewards[0];
                    sum[k] += d;
                    sq[k] += d * d;
                    cnt[k] += 1.0;
                }
            }
            if stage + 1 < stages && alive.len() > 2 {
                let mut rest: Vec<usize> = alive[1..].to_vec();
                rest.sort_by(|&a, &b| mean(b, &sum, &cnt).total_cmp(&mean(a, &sum, &cnt)).then(a.cmp(&b)));
                rest.truncate(rest.len().div_ceil(2));
                alive = std::iter::once(0).chain(rest).collect();
            }
        }
        let mut best = 0;
        let mut best_score = 0.0f32;
        for &k in &alive[1..] {
            let c = cnt[k];
            if c < 2.0 {
                continue;
            }
            let m = sum[k] / c;
            let var = (sq[k] / c - m * m).max(0.0) * c / (c - 1.0);
            let score = m - z * (var / c).sqrt();
            if score > best_score {
                best = k;
                best_score = score;
            }
        }
        best
    }
}
