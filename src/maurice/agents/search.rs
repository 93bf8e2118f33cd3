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
//! morale margin and a share of the DISR margin, less the ground the army has still to cover
//! (`ground_left`) times how near nightfall is (`urgency`): a one-round playout cannot see an
//! advance pay, and against an enemy that stays home, passes and distant bombardments would run
//! the deck down to a draw (E2). The term counts only when, at the decision, every unit the
//! enemy deployed is still in its deployment rows (`staying`): an enemy that has left them is coming,
//! waiting for it lets the own volley and charge strike first, and the search plays as before. The heuristic's choice is the reference: a
//! candidate whose paired advantage over it stays `Z_DROP` standard errors below zero is dropped,
//! which leaves the budget to the others, and the search stops early when no candidate has ever
//! changed a score; the heuristic's choice is played unless another candidate's paired advantage
//! stays positive `Z_SWITCH` standard errors below its mean.
//!
//! `network_search` (`network.rs`) is this search through `act_guided`: a network's ranking in
//! the heuristic's place at the searched decisions and its value at the playouts' ends (mixed
//! with the search's own, except while the enemy stays home).

use super::heuristic::{halt, HeuristicAgent};
use super::rebuild::{deal, rebuild, terrain};
use super::view::{gap, View};
use crate::draw;
use crate::maurice::action::{decode, Mask};
use crate::maurice::cards::Card;
use crate::maurice::ids::{Phase, Side, HEIGHT};
use crate::maurice::rules::{apply_legal, legal_mask};
use crate::maurice::state::State;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The weight of the ground still to cover (`ground_left`), times `urgency`, in a playout's value:
/// near nightfall an army 20 cells short of its halt loses more than any morale lead is worth,
/// so the walk is made in time.
pub const APPROACH: f32 = 2.0;
/// The most cells of a unit's gap to the enemy that `ground_left` counts.
pub const GROUND_CAP: i32 = 20;
/// The enemy counts as staying home while this share of its units is in its deployment rows:
/// all of them, so that one unit marching out (the heuristic's first march) turns the walk off
/// and the search waits for an enemy that is coming.
pub const STAYING: f32 = 1.0;
/// The cards left to draw when the deck is as dealt: 26 playable cards and the two `reshuffle`
/// cards (S7), each bringing back `RESHUFFLE_RETURNS` discards.
pub const DECK_CLOCK: f32 = 28.0 + 2.0 * RESHUFFLE_RETURNS;
/// The discards a `reshuffle` is taken to bring back (K3 reshuffles from 15 up).
pub const RESHUFFLE_RETURNS: f32 = 15.0;
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
/// morale margin (each side's share of its start) and a little of the DISR margin, less
/// `APPROACH` × `urgency` × `ground_left` when `walk` (the enemy stays home).
pub fn value(s: &State, me: Side, walk: bool) -> f32 {
    if let Some(o) = s.outcome {
        return match o.winner() {
            None => 0.5,
            Some(w) => f32::from(w == me),
        };
    }
    let disr = |side: Side| s.units(side).map(|u| u.disr as f32 / u.bases() as f32).sum::<f32>();
    let margin = morale_margin(s, me);
    let ground = if walk { APPROACH * urgency(s) * ground_left(s, me) } else { 0.0 };
    (0.5 + 0.25 * margin + 0.02 * (disr(me.other()) - disr(me)) - ground).clamp(0.0, 1.0)
}

/// `me`'s morale margin, -1..1: its army morale left as a share of its start, less the enemy's.
pub fn morale_margin(s: &State, me: Side) -> f32 {
    let share = |side: Side| {
        let a = s.army(side);
        a.morale as f32 / a.morale_start.max(1) as f32
    };
    share(me) - share(me.other())
}

/// How near nightfall is (E2), 0..1: the share of the cards to draw already drawn, a
/// `reshuffle` still in the deck counting for the `RESHUFFLE_RETURNS` discards it brings back (K3).
pub fn urgency(s: &State) -> f32 {
    let back = s.deck.iter().filter(|&&c| c == Card::Reshuffle).count() as f32;
    let left = s.deck.len() as f32 + RESHUFFLE_RETURNS * back;
    // Linear: against an enemy that stays home the walk must start by mid-game to end in time
    // (squared, the search beat `random` in 40 of 200 standard games; linear with the whole-army
    // gate of `STAYING`, 79: docs/notes/maurice_search.md).
    (1.0 - left / DECK_CLOCK).clamp(0.0, 1.0)
}

/// The ground `me`'s army has still to cover before it can fight, 0..1: per unit it deployed, the
/// cells by which the unit's gap to the nearest enemy exceeds the heuristic's halt, capped at
/// `GROUND_CAP` (a broken unit counts the cap). The search counts it only while the enemy stays
/// home (`staying`, judged at the root): against an enemy that never comes, a pass or a distant
/// bombardment otherwise scores as well as an advance and the deck runs down to nightfall (E2);
/// against one that comes, waiting for it lets the own volley and charge strike first.
pub fn ground_left(s: &State, me: Side) -> f32 {
    let enemy: Vec<_> = s.units(me.other()).map(|e| e.cells).collect();
    // Over every unit deployed, a broken one counting as far as it gets: so that neither losing
    // a unit nor a unit's DISR can ever make the term smaller.
    let deployed = s.army(me).units.iter().filter(|u| u.present).count() as i32;
    let mut sum = GROUND_CAP * (deployed - s.units(me).count() as i32);
    for u in s.units(me) {
        let g = enemy.iter().map(|e| gap(u.cells.as_slice(), e.as_slice())).min().unwrap_or(0);
        sum += (g - halt(u.kind)).clamp(0, GROUND_CAP);
    }
    sum as f32 / (deployed.max(1) * GROUND_CAP) as f32
}

/// The share of the enemy's units, of all it deployed, still in its own deployment rows (S2: the
/// third of the table at its edge).
pub fn staying(s: &State, me: Side) -> f32 {
    let them = me.other();
    // Over every unit it deployed: one broken in a fight left home to fight.
    let n = s.army(them).units.iter().filter(|u| u.present).count();
    let home = s.units(them).filter(|e| {
        let from_edge = if them == Side::Blue { e.at.y as usize } else { HEIGHT - 1 - e.at.y as usize };
        from_edge < HEIGHT / 3
    });
    home.count() as f32 / n.max(1) as f32
}

/// Plays `s` on with the heuristic on both sides (from `View::of_state`) until round
/// `last_round` is over or the game ends, and scores it for `me` (`value`, with `walk`). `mask`
/// is `s`'s mask when known.
pub fn playout(s: State, me: Side, last_round: u32, seed: u64, mask: Option<Mask>, walk: bool) -> f32 {
    value(&play_on(s, last_round, seed, mask), me, walk)
}

/// The position a playout ends in: `s` played on with the heuristic on both sides until round
/// `last_round` is over or the game ends.
pub fn play_on(mut s: State, last_round: u32, seed: u64, mut mask: Option<Mask>) -> State {
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
    s
}

/// What guides `network_search`: its ranking of the legal actions (best first) and its value of
/// the position a playout ends in, for `me`, given the search's own `value` of it.
pub trait Guide {
    fn ranked(&mut self, obs: &[f32], mask: &Mask) -> Vec<usize>;
    fn leaf(&mut self, s: &State, me: Side, searched: f32) -> f32;
}

/// No guide: the heuristic's choice first, the search's `value` at the leaves.
struct Unguided;

impl Guide for Unguided {
    fn ranked(&mut self, _obs: &[f32], _mask: &Mask) -> Vec<usize> {
        Vec::new()
    }
    fn leaf(&mut self, _s: &State, _me: Side, searched: f32) -> f32 {
        searched
    }
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
        self.act_guided(obs, mask, &mut Unguided)
    }

    /// As `act`, with `guide`'s ranking in the heuristic's place where the search searches — its
    /// first legal action the default a candidate must beat, its next ones and the heuristic's
    /// choice compared before candidates drawn at random — and `guide.leaf` scoring every playout
    /// that ends before the game does.
    pub fn act_guided(&mut self, obs: &[f32], mask: &Mask, guide: &mut dyn Guide) -> usize {
        let v = View::decode(obs);
        let heuristic = self.heuristic.act_view(&v, mask);
        if mask.count() <= 1 {
            return heuristic;
        }
        // Where nothing is searched the heuristic plays, guided or not: a network that imitates
        // the search plays the heuristic's move there, less surely (measured: fewer wins).
        if !matches!(v.phase, Phase::VolleyChoice | Phase::Command) || v.active != v.me {
            return heuristic;
        }
        let first = guide.ranked(obs, mask);
        let default = first.first().copied().filter(|&a| mask.get(a)).unwrap_or(heuristic);
        let Some(map) = terrain(obs) else { return default };
        let map = Arc::new(map);
        let mut arms = vec![default];
        for &a in first.iter().skip(1).chain([&heuristic]) {
            if arms.len() < MAX_ARMS && mask.get(a) && !arms.contains(&a) {
                arms.push(a);
            }
        }
        let mut others: Vec<usize> = mask.iter().filter(|a| !arms.contains(a)).collect();
        draw::shuffle(&mut self.rng, &mut others);
        others.truncate(MAX_ARMS - arms.len());
        let mut arms: Vec<Arm> =
            arms.into_iter().chain(others).map(|action| Arm { action, alive: true, ..Arm::default() }).collect();
        // A volley's effects are over by the end of the round; a command's show in the rounds after.
        let last_round = if v.phase == Phase::VolleyChoice { v.round } else { v.round + HORIZON };
        // Whether to walk to the enemy is judged once, in the position itself (the same in every
        // deal), so that nothing a playout does can switch the term on or off.
        let mut walk = None;
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
            let walk = *walk.get_or_insert_with(|| staying(&base, v.me) >= STAYING);
            for (k, arm) in arms.iter().enumerate() {
                if !arm.alive {
                    continue;
                }
                let mut s = base.clone();
                rewards[k] = match decode(arm.action as i64).map(|a| apply_legal(&mut s, a)) {
                    Ok(Ok(next)) => {
                        let end = play_on(s, last_round, seed, next);
                        let searched = value(&end, v.me, walk);
                        // While the enemy stays home the search's own value scores the playout:
                        // the network learned from teachers that walked late (measured: 18 wins
                        // against `random` in 100 games where the mixed value won 2).
                        if end.is_over() || walk { searched } else { guide.leaf(&end, v.me, searched) }
                    }
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

