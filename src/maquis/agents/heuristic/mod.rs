//! A scripted player that knows the missions.
//!
//! * **Plans and token values.** For each open mission that can still be completed it knows what
//!   is left (box actions, tokens for the next box and for later ones, deadlines, a morale
//!   condition) and turns it into a value per worker-action of effort: a share of the mission's
//!   remaining value divided by the effort still needed, counting the worker-actions embodied in
//!   each token (a weapon is money plus a Fence visit; an explosive is medicine plus a Lab visit;
//!   a missing Chemist's Lab, Pharmacist or Forger is a tile to build). Tokens for the next box are
//!   worth more (more still when its deadline is close, never more than the box brings); shortfalls
//!   are expanded into their inputs. Tokens beyond every need keep a small surplus value; food and
//!   medicine are also wanted for morale (Poor District) and recruiting.
//! * **Evaluation.** Mission progress, tokens by those values, morale by its margin over the orange
//!   days still to come (survival first, then a buffer, then fewer patrols), workers in play (a
//!   placed worker counts only if it still has a way home), tiles by use and room.
//! * **Action phase.** Deterministic until the night: it tries every legal action on a copy and
//!   keeps the best evaluation (activations in a useful order, a shot that reopens a route, accept).
//! * **Placement.** For each placeable location it takes the best thing the worker could do there,
//!   valued on a copy of the position where the workers already placed have done their best
//!   actions. It then samples the rest of today's patrol draws — from the cards not yet discarded,
//!   in random order (the top card fixed while an Infiltration peek shows it), never the real
//!   order — and places them by P3 around the new worker and stand-ins for the workers still to
//!   place (the next best locations, alternating with the patrols as in F3): the chance the worker
//!   is arrested or cut off, and how its pawn protects the others (a pawn on a patrol location
//!   pushes the patrol down its card). A Fake ID goes with a worker when it saves enough.
//!
//! Its sampling RNG is seeded from its seed and the observable position: `act` is a pure function
//! of the state, and never depends on the hidden deck order.

use crate::maquis::action::{location_options, table, Action, Opt};
use crate::maquis::board::{bit, LocSet};
use crate::maquis::config;
use crate::maquis::deck::NUM_CARDS;
use crate::maquis::effects::Cost;
use crate::maquis::ids::{Location, MissionId, Outcome, Pawn, Phase, Resource, Tile, NUM_RESOURCES};
use crate::maquis::missions::hooks::{on_activation, GRAFFITI_LOCATIONS, VISIT_LOCATIONS};
use crate::maquis::rules::patrols::{landing, Landing};
use crate::maquis::rules::routes::Route;
use crate::maquis::rules::{actions, apply_legal, legal_mask, routes};
use crate::maquis::state::{State, Tier};
use crate::maquis::tracks::{is_orange, is_triangle, MIN_PATROLS};

use MissionId as M;
use Resource as R;

mod daysim;
mod needs;
mod placement;

use daysim::*;
use needs::*;
pub use needs::open_progress;
use placement::*;

const INTEL: usize = R::Intel as usize;
const FOOD: usize = R::Food as usize;
const MED: usize = R::Medicine as usize;
const MONEY: usize = R::Money as usize;
const WEAPON: usize = R::Weapon as usize;
const EXPL: usize = R::Explosive as usize;
const POISON: usize = R::Poison as usize;
const FAKE: usize = R::FakeId as usize;

/// Tunable weights of the heuristic (defaults are the tuned values).
#[derive(Clone, Debug)]
pub struct Weights {
    /// Value of a completed mission.
    pub mission: f64,
    /// Share of a mission's remaining value credited to the effort (tokens, steps) toward it.
    pub effort_share: f64,
    /// Worker-actions embodied in one token of each resource (money: a sale or an airdrop and a
    /// pickup; weapon: money and the Fence; explosive: medicine and the Lab; …).
    pub embodied: [f64; NUM_RESOURCES],
    /// Value of a token beyond the needs, per resource.
    pub surplus: [f64; NUM_RESOURCES],
    /// Worker in play: `worker_base + worker_per_day * min(days_left, 10)`, times `worker_marginal`
    /// for the 1st … 5th worker not stuck.
    pub worker_base: f64,
    pub worker_per_day: f64,
    pub worker_marginal: [f64; 5],
    /// Being in the game at all, per day left.
    pub alive_per_day: f64,
    /// Morale point needed to survive the remaining orange days.
    pub morale_critical: f64,
    /// The next points above survival (a buffer), and points a mission condition needs.
    pub morale_buffer: [f64; 2],
    /// Morale point that lowers the minimum patrol count / any other point.
    pub morale_patrol: f64,
    pub morale_other: f64,
    /// Value of a food or medicine token set aside for morale (Poor District) or recruiting.
    pub support_unit: f64,
    /// Tokens for a mission's next box are worth this much more than for later boxes.
    pub next_box: f64,
    /// Deadline pressure: urgency = clamp(urgency * effort of the next box / days left for it, 1, 3).
    pub urgency: f64,
    /// Tokens lying on a field are worth this share of tokens in hand, minus `pickup_cost`.
    pub field_share: f64,
    pub pickup_cost: f64,
    /// Cap on the tokens of the next box: this share of the mission's remaining value per box.
    pub box_cap: f64,
    /// Bonus per worker still to place for a pawn on pont_leveque or grocer.
    pub block_bonus: f64,
    /// Cap on the value of a morale point a mission condition needs.
    pub morale_point_cap: f64,
    /// Extra cost of losing the last worker while no mission is complete (the game is lost).
    pub last_worker: f64,
    /// Value of a Counterfeiter per day left.
    pub counterfeiter_per_day: f64,
}

impl Weights {
    /// Sets a weight by name (`"mission"`, `"surplus.food"`, `"embodied.money"`,
    /// `"morale_buffer.0"`, …), for tuning; false for an unknown name.
    pub fn set(&mut self, name: &str, v: f64) -> bool {
        let res = |n: &str| Resource::parse(n).ok().map(|r| r.idx());
        match name.split_once('.') {
            Some(("embodied", r)) => res(r).map(|i| self.embodied[i] = v).is_some(),
            Some(("surplus", r)) => res(r).map(|i| self.surplus[i] = v).is_some(),
            Some(("worker_marginal", i)) => i.parse::<usize>().ok().filter(|&i| i < 5).map(|i| self.worker_marginal[i] = v).is_some(),
            Some(("morale_buffer", i)) => i.parse::<usize>().ok().filter(|&i| i < 2).map(|i| self.morale_buffer[i] = v).is_some(),
            _ => {
                let f = match name {
                    "mission" => &mut self.mission,
                    "effort_share" => &mut self.effort_share,
                    "worker_base" => &mut self.worker_base,
                    "worker_per_day" => &mut self.worker_per_day,
                    "alive_per_day" => &mut self.alive_per_day,
                    "morale_critical" => &mut self.morale_critical,
                    "morale_patrol" => &mut self.morale_patrol,
                    "morale_other" => &mut self.morale_other,
                    "support_unit" => &mut self.support_unit,
                    "next_box" => &mut self.next_box,
                    "urgency" => &mut self.urgency,
                    "field_share" => &mut self.field_share,
                    "pickup_cost" => &mut self.pickup_cost,
                    "box_cap" => &mut self.box_cap,
                    "block_bonus" => &mut self.block_bonus,
                    "counterfeiter_per_day" => &mut self.counterfeiter_per_day,
                    "last_worker" => &mut self.last_worker,
                    "morale_point_cap" => &mut self.morale_point_cap,
                    _ => return false,
                };
                *f = v;
                true
            }
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            mission: 1000.0,
            effort_share: 0.5,
            //         intel food med money weapon expl poison fake
            embodied: [1.0, 1.0, 1.0, 2.0, 3.0, 2.0, 3.0, 6.0],
            surplus: [3.0, 6.0, 6.0, 14.0, 12.0, 5.0, 3.0, 25.0],
            worker_base: 40.0,
            worker_per_day: 11.0,
            worker_marginal: [1.0, 1.0, 0.9, 0.6, 0.35],
            alive_per_day: 12.0,
            morale_critical: 200.0,
            morale_buffer: [45.0, 30.0],
            morale_patrol: 18.0,
            morale_other: 8.0,
            support_unit: 16.0,
            next_box: 2.5,
            urgency: 1.5,
            field_share: 0.85,
            pickup_cost: 15.0,
            box_cap: 0.6,
            block_bonus: 15.0,
            counterfeiter_per_day: 3.0,
            last_worker: 1000.0,
            morale_point_cap: 30.0,
        }
    }
}

/// The scripted player. `act` is deterministic given the state (and `seed`).
#[derive(Clone, Debug)]
pub struct HeuristicAgent {
    pub seed: u64,
    /// Sampled patrol futures per placement decision (risk estimate).
    pub risk_samples: u32,
    /// Value placements with stand-ins for the workers still to place (see `score_placements`).
    pub lookahead: bool,
    /// Placement candidates sampled besides the safe parking places (the most valuable ones).
    pub max_candidates: usize,
    /// Samples of the first pass that orders the stand-ins (at most `risk_samples`).
    pub order_samples: u32,
    pub weights: Weights,
}

impl Default for HeuristicAgent {
    fn default() -> Self {
        HeuristicAgent::new(0)
    }
}

impl HeuristicAgent {
    pub fn new(seed: u64) -> HeuristicAgent {
        HeuristicAgent { seed, risk_samples: 24, lookahead: true, max_candidates: 8, order_samples: 24, weights: Weights::default() }
    }

    /// A cheaper variant for rollouts (fewer risk samples).
    pub fn fast(seed: u64) -> HeuristicAgent {
        HeuristicAgent { seed, risk_samples: 10, lookahead: true, max_candidates: 6, order_samples: 4, weights: Weights::default() }
    }

    /// A legal action index for `s` (panics if the game is over).
    pub fn act(&self, s: &State) -> usize {
        self.act_with(s, &mut self.rng_for(s))
    }

    /// As `act`, drawing the risk samples from `rng` (used by the search's rollouts).
    pub fn act_with(&self, s: &State, rng: &mut Rng64) -> usize {
        let mask = legal_mask(s);
        let first = mask.iter().next().expect("act() called on a finished game");
        if mask.count() == 1 {
            return first;
        }
        let ctx = Ctx::new(s, &self.weights);
        let choice = match s.phase {
            Phase::Placement => self.placement(s, &ctx, rng),
            Phase::Action | Phase::PostAction => greedy(s, &ctx, &mask),
            Phase::GameOver => None,
        };
        match choice {
            Some(i) if mask.get(i) => i,
            _ => first,
        }
    }

    /// Scores of every legal placement (index, score), best first. Exposed for the search's priors.
    pub fn placement_scores(&self, s: &State, rng: &mut Rng64) -> Vec<(usize, f64)> {
        let ctx = Ctx::new(s, &self.weights);
        let mut v = self.score_placements(s, &ctx, rng);
        v.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap().then(a.0.cmp(&b.0)));
        v
    }

    /// Every legal action with the heuristic's score, best first (the first is `act`'s choice
    /// when `rng` is seeded as `act` seeds it). Scores are comparable within one decision only.
    pub fn ranked(&self, s: &State, rng: &mut Rng64) -> Vec<(usize, f64)> {
        let mask = legal_mask(s);
        let ctx = Ctx::new(s, &self.weights);
        let mut v = match s.phase {
            Phase::Placement => self.score_placements(s, &ctx, rng),
            Phase::Action | Phase::PostAction => mask.iter().map(|i| (i, action_value(s, i, &ctx))).collect(),
            Phase::GameOver => Vec::new(),
        };
        v.retain(|&(i, _)| mask.get(i));
        v.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap().then(a.0.cmp(&b.0)));
        v
    }

    /// The RNG `act` uses for this state.
    pub fn rng_for(&self, s: &State) -> Rng64 {
        Rng64::new(self.seed ^ observable_hash(s))
    }

    /// For debugging and tuning: the value of the best option on each placeable location (on the
    /// projected position), with the option's name.
    pub fn location_values(&self, s: &State) -> Vec<(Location, String, f64, bool)> {
        let ctx = Ctx::new(s, &self.weights);
        let probe = project(s, &ctx);
        let mut v = Vec::new();
        for &l in Location::ALL {
            if crate::maquis::rules::placement::placeable(s, l) {
                let (opt, value, safe) = best_option(&probe, l, &ctx);
                v.push((l, opt.map_or("-".to_string(), |o| o.as_str().to_string()), value, safe));
            }
        }
        v
    }

    /// The best placement (ties: the lower action index, as in `ranked`).
    fn placement(&self, s: &State, ctx: &Ctx, rng: &mut Rng64) -> Option<usize> {
        self.score_placements(s, ctx, rng)
            .into_iter()
            .min_by(|a, b| b.1.partial_cmp(&a.1).unwrap().then(a.0.cmp(&b.0)))
            .map(|b| b.0)
    }

    fn score_placements(&self, s: &State, ctx: &Ctx, rng: &mut Rng64) -> Vec<(usize, f64)> {
        let t = table();
        let probe = project(s, ctx);
        let mut cands: Vec<(Location, LocValue)> = Vec::with_capacity(18);
        for &l in Location::ALL {
            if crate::maquis::rules::placement::placeable(s, l) {
                cands.push((l, loc_value(&probe, l, ctx)));
            }
        }
        if cands.is_empty() {
            return Vec::new();
        }
        // Only the most valuable locations and the safe parking places are worth sampling.
        if cands.len() > self.max_candidates {
            let parking = bit(Location::Cafe) | bit(Location::FieldW) | bit(Location::FieldE)
                | bit(Location::PontLeveque) | bit(Location::Grocer);
            let mut by_value: Vec<usize> = (0..cands.len()).filter(|&i| parking & bit(cands[i].0) == 0).collect();
            by_value.sort_by(|&a, &b| cands[b].1.value.partial_cmp(&cands[a].1.value).unwrap().then(a.cmp(&b)));
            let keep: LocSet = by_value
                .iter()
                .take(self.max_candidates)
                .fold(parking, |acc, &i| acc | bit(cands[i].0));
            cands.retain(|c| keep & bit(c.0) != 0);
        }
        let sim = DaySim::new(s);
        let k = self.risk_samples.max(1) as usize;
        let offset = rng.below(NUM_CARDS);
        let seqs: Vec<[u8; 16]> = (0..k).map(|i| sim.sample_sequence(rng, offset + i)).collect();
        let has_fake = s.tokens.hand[FAKE] > 0;
        let fake_value = ctx.unit[FAKE][(s.tokens.hand[FAKE] as usize).clamp(1, 4) - 1];
        let in_play = (s.home + s.placed_workers()) as usize;
        let mut wv = ctx.worker[in_play.min(5)] - ctx.worker[in_play.min(5) - 1];
        if config::arrest_costs_morale(s.difficulty) {
            // D1 Very Hard: an arrest also costs a morale point.
            wv += ctx.morale[(s.tracks.morale as usize).min(15)];
        }
        if in_play + s.stuck_workers() as usize <= 1 {
            // The last worker: losing it ends the game.
            let done = s.missions.iter().any(|m| m.complete);
            wv += if done { ctx.alive } else { ctx.w.last_worker };
        }
        let score = |l: Location, lv: &LocValue, fake: bool, virt: &[(Location, f64, bool)], n: usize| -> f64 {
            let mut total = 0.0;
            for seq in &seqs[..n] {
                let r = sim.run(l, fake, seq, virt);
                let ok = if lv.safe { !r.arrested_new } else { r.home_new };
                if ok {
                    total += lv.value;
                }
                if !r.home_new {
                    total -= wv;
                }
                total -= wv * r.others_lost as f64;
                if r.fake_spent {
                    total -= fake_value;
                }
                total += r.virtual_value - wv * r.virtual_lost as f64;
            }
            total / n as f64
        };
        // First each location alone; then each with the best other locations standing in for the
        // workers still to place (so that a pawn that keeps a route open for them gets credit).
        // (The first pass only orders the stand-ins when there are some: fewer samples do.)
        let later = if self.lookahead { (s.home as usize).saturating_sub(1) } else { 0 };
        let n_alone = if later == 0 { k } else { k.min(self.order_samples.max(1) as usize) };
        let alone: Vec<f64> = cands.iter().map(|(l, lv)| score(*l, lv, false, &[], n_alone)).collect();
        let mut order: Vec<usize> = (0..cands.len()).collect();
        order.sort_by(|&a, &b| alone[b].partial_cmp(&alone[a]).unwrap().then(a.cmp(&b)));
        let mut out = Vec::with_capacity(cands.len() * 2);
        for (ci, &(l, lv)) in cands.iter().enumerate() {
            let virt: Vec<(Location, f64, bool)> = order
                .iter()
                .filter(|&&j| j != ci)
                .take(later)
                .map(|&j| (cands[j].0, cands[j].1.value, cands[j].1.safe))
                .collect();
            for fake in [false, true] {
                if fake && !has_fake {
                    continue;
                }
                let mut sc = if later == 0 && !fake { alone[ci] } else { score(l, &lv, fake, &virt, k) };
                // A pawn on pont_leveque or grocer keeps both ways home open for the others.
                if matches!(l, Location::PontLeveque | Location::Grocer) {
                    sc += ctx.w.block_bonus * (s.home as f64 - 1.0);
                }
                out.push((t.index(Action::Place { loc: l, fake_id: fake }).unwrap(), sc));
            }
        }
        out
    }
}

// -------------------------------------------------------------------------------------------------
// The agents' own cheap generator: the crate's one SplitMix64.

pub use crate::draw::SplitMix64 as Rng64;

/// A hash of what the player sees (never the deck order): seeds the agents' sampling.
pub fn observable_hash(s: &State) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |x: u64| {
        h ^= x;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    };
    mix(s.day as u64 | (s.pass as u64) << 8 | (s.phase as u64) << 16 | (s.tracks.morale as u64) << 24);
    mix(s.tracks.soldiers as u64 | (s.home as u64) << 8 | (s.patrols_drawn as u64) << 16 | (s.gone as u64) << 24);
    for (i, &x) in s.tokens.hand.iter().enumerate() {
        mix((x as u64) << (i * 4));
    }
    for &p in s.pawns.iter() {
        mix(p as u64);
    }
    // The discard as a set (as the observation shows it).
    mix(s.deck.discard().iter().fold(0u64, |acc, &c| acc | 1 << c) + (1 << 20));
    mix(s.marks.fake_ids as u64 | (s.marks.stuck as u64) << 32);
    for m in &s.missions {
        mix(m.boxes_done as u64 | (m.id as u64) << 8);
    }
    h
}
