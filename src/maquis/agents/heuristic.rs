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

// -------------------------------------------------------------------------------------------------
// Needs and the evaluation.

/// What one decision is judged against: the needs of the missions at the decision's start.
struct Ctx<'w> {
    w: &'w Weights,
    /// Value of the k-th token (k = 0..3) of each resource in hand.
    unit: [[f64; 4]; NUM_RESOURCES],
    /// Value of the k-th morale point (index k = 1..7).
    morale: [f64; 16],
    /// Orange (costly) days still to come at the decision: morale is judged by its margin over
    /// them, so that a state before the night's morale loss compares fairly with one after it.
    costly: i32,
    /// Value of the n-th worker in play (not stuck), n = 1..5.
    worker: [f64; 6],
    stuck_worker: f64,
    alive: f64,
    tile_value: [[f64; 3]; 9],
}

/// What a mission still asks for: box actions, tokens for the next box and for the later ones,
/// the next box's deadline, a morale condition.
#[derive(Default)]
struct Plan {
    steps: i32,
    next: [i32; NUM_RESOURCES],
    later: [i32; NUM_RESOURCES],
    deadline: Option<u8>,
    morale_target: i32,
    effort: f64,
}

impl Plan {
    fn req(&self, r: usize) -> i32 {
        self.next[r] + self.later[r]
    }
}

fn next_orange(s: &State) -> Option<u8> {
    (s.day..config::final_day(s.difficulty)).find(|&d| is_orange(d))
}

/// Adds `times` × `c` to `need` (the missions' own costs).
fn need(need: &mut [i32; NUM_RESOURCES], c: &Cost, times: i32) {
    for (n, &k) in need.iter_mut().zip(c) {
        *n += k as i32 * times;
    }
}

fn plan(s: &State, slot: usize, costly: i32) -> Plan {
    use crate::maquis::missions::*;
    let m = &s.missions[slot];
    let b = m.boxes_done as i32;
    let mut p = Plan::default();
    let (next, later) = (&mut p.next, &mut p.later);
    match m.id {
        M::MiliceParadeDay => {
            p.steps = 1;
            need(next, &milice_parade_day::PARADE, 1);
            p.deadline = next_orange(s);
        }
        M::OfficersMansion => p.steps = 4 - (s.marks.tagged & GRAFFITI_LOCATIONS).count_ones() as i32,
        M::Sabotage => {
            p.steps = 3 - b;
            need(if b == 2 { next } else { later }, &sabotage::SABOTAGE, 1);
        }
        M::UndergroundNewspaper => {
            p.steps = 3 - b;
            need(next, &underground_newspaper::DELIVER, 1);
            need(later, &underground_newspaper::DELIVER, 2 - b);
        }
        M::Infiltration => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &infiltration::MOLE, 1);
                need(later, &infiltration::EXTRACT, 1);
            } else {
                need(next, &infiltration::EXTRACT, 1);
            }
        }
        M::GermanShepherds => {
            p.steps = 3 - b;
            need(next, &german_shepherds::DELIVER, 1);
            need(later, &german_shepherds::DELIVER, 2 - b);
        }
        M::DoubleAgent => p.steps = 7 - (s.marks.visited & VISIT_LOCATIONS).count_ones() as i32,
        M::AidTheSpy => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &aid_the_spy::WEAPONS, 1);
                need(later, &aid_the_spy::SUPPLIES, 1);
            } else {
                need(next, &aid_the_spy::SUPPLIES, 1);
            }
        }
        M::Assassination => {
            // Five shots in all (once a day, a Milice on the board), each costing a morale point.
            let n = (5 - s.tracks.soldiers as i32).max(0);
            p.steps = n;
            next[WEAPON] = n.min(1);
            later[WEAPON] = (n - 1).clamp(0, 2);
            p.morale_target = costly + 1 + n;
        }
        M::DestroyTheTrain => {
            p.steps = 1;
            need(next, &destroy_the_train::DELIVER, 1);
            p.deadline = Some(9);
        }
        M::LiberateTheTown => {
            // Its condition: 3 weapons in hand at the final move.
            later[WEAPON] = 3;
            p.morale_target = costly + 4;
        }
        M::CodedMessages => {
            if b == 0 {
                p.steps = 1;
                need(next, &coded_messages::TRAIN, 1);
                p.deadline = Some(6);
            }
        }
        M::TakeOutTheBridges => {
            let done = (s.marks.bridges_chosen | s.marks.bridges_destroyed).count_ones() as i32;
            p.steps = 2 - done;
            need(next, &take_out_the_bridges::BRIDGE, 1);
            need(later, &take_out_the_bridges::BRIDGE, 1 - done);
        }
        M::BombForTheOfficer => {
            p.steps = 1;
            need(next, &bomb_for_the_officer::DELIVER, 1);
            p.morale_target = 5;
        }
        M::MiliceHq => {
            p.steps = 2 - b;
            need(if b == 0 { later } else { next }, &milice_hq::POISON, 1);
        }
        M::BombTheBarracks => {
            p.steps = 3 - b;
            need(if b == 2 { next } else { later }, &bomb_the_barracks::BOMB, 1);
        }
        M::FreeTheResistanceLeader => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &free_the_resistance_leader::BRIBE, 1);
                need(later, &free_the_resistance_leader::POISON, 1);
                p.deadline = Some(5);
            } else {
                need(next, &free_the_resistance_leader::POISON, 1);
                p.deadline = Some(9);
            }
        }
        M::DestroyAaGuns => {
            // The cheaper option, a weapon per gun.
            let n = (3 - b).max(0);
            p.steps = n;
            need(next, &destroy_aa_guns::AA_WEAPON, n.min(1));
            need(later, &destroy_aa_guns::AA_WEAPON, (n - 1).max(0));
        }
    }
    p
}

/// Tiles that make a resource (Chemist's Lab: explosive, Pharmacist: poison, Forger: Fake ID).
fn maker(r: usize) -> Option<Tile> {
    match r {
        EXPL => Some(Tile::ChemistsLab),
        POISON => Some(Tile::Pharmacist),
        FAKE => Some(Tile::Forger),
        _ => None,
    }
}

/// Days whose arrival still costs morale (T1, D1), after the current day.
fn costly_days_left(s: &State) -> i32 {
    let fin = config::final_day(s.difficulty);
    let tri = config::triangle_morale(s.difficulty);
    let costly = |d: u8| if tri { is_triangle(d) } else { is_orange(d) };
    let mut n = (s.day + 1..=fin).filter(|&d| costly(d)).count() as i32;
    if s.pass < config::passes(s.difficulty) {
        n += (1..=fin).filter(|&d| costly(d)).count() as i32;
    }
    n
}

fn days_left(s: &State) -> i32 {
    let fin = config::final_day(s.difficulty) as i32;
    let mut d = fin - s.day as i32;
    if s.pass < config::passes(s.difficulty) {
        d += fin;
    }
    d.max(0)
}

/// Orange days still to come on which a worker can stand at rue_baradat (Milice Parade Day).
fn parade_days_left(s: &State) -> bool {
    let fin = config::final_day(s.difficulty);
    (s.day..fin).any(is_orange) || s.pass < config::passes(s.difficulty)
}

/// Can the mission still be completed (time windows)?
fn feasible(s: &State, slot: usize) -> bool {
    let m = &s.missions[slot];
    if !m.open() {
        return false;
    }
    let many_days = s.pass < config::passes(s.difficulty);
    match m.id {
        M::DestroyTheTrain => many_days || s.day <= 9,
        M::CodedMessages => m.boxes_done > 0 || s.day <= 6,
        M::FreeTheResistanceLeader => if m.boxes_done == 0 { s.day <= 5 } else { s.day <= 10 },
        M::MiliceParadeDay => parade_days_left(s),
        _ => true,
    }
}

impl<'w> Ctx<'w> {
    fn new(s: &State, w: &'w Weights) -> Ctx<'w> {
        let costly = costly_days_left(s);
        let dl = days_left(s);
        // Per mission: remaining value per worker-action of effort.
        let mut slots: Vec<(f64, f64, Plan)> = Vec::with_capacity(2);
        let mut morale_target = 0;
        let mut target_slot: Option<usize> = None;
        for slot in 0..2 {
            if !feasible(s, slot) {
                continue;
            }
            let mut p = plan(s, slot, costly);
            if p.morale_target > morale_target {
                morale_target = p.morale_target;
                target_slot = Some(slots.len());
            }
            let mut effort = p.steps as f64;
            let mut effort_next = 1.0;
            for r in 0..NUM_RESOURCES {
                effort += p.req(r) as f64 * w.embodied[r];
                effort_next += p.next[r] as f64 * w.embodied[r];
                if p.req(r) > s.tokens.hand[r] as i32 {
                    if let Some(t) = maker(r) {
                        if !s.tile_built(t) {
                            effort += 5.0;
                            if p.next[r] > 0 {
                                effort_next += 5.0;
                            }
                        }
                    }
                }
            }
            let remaining = w.mission * (1.0 - progress(s, slot));
            let e = w.effort_share * remaining / effort.max(1.0);
            p.effort = effort.max(1.0);
            // A deadline close for the next box makes its tokens urgent.
            let urgency = match p.deadline {
                Some(d) if d >= s.day => (w.urgency * effort_next / (d - s.day + 1) as f64).clamp(1.0, 3.0),
                _ => 1.0,
            };

            // Liberate the Town: the morale condition is part of the job.
            if p.morale_target > 0 {
                p.morale_target = p.morale_target.min(7);
            }
            slots.push((e, urgency, p));
        }
        // A mission's morale condition is part of its work: a point costs food, medicine and a visit.
        let target_e = target_slot.map_or(0.0, |i| slots[i].0);
        slots.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());

        // Need slots per resource: (value per token, tokens), best first.
        let mut wants: [Vec<(f64, i32)>; NUM_RESOURCES] = Default::default();
        let mut tiles_wanted: [f64; 9] = [0.0; 9];
        let mut left = s.tokens.hand; // tokens not yet allocated
        for (e, urgency, p) in &slots {
            // Tokens for the next box never outweigh what the box brings.
            let tokens_next: f64 = (0..NUM_RESOURCES).map(|r| p.next[r] as f64 * w.embodied[r]).sum();
            let mut e_next = e * w.next_box * urgency;
            if tokens_next > 0.0 {
                e_next = e_next.min(w.box_cap * e / w.effort_share * p.effort / p.steps.max(1) as f64 / tokens_next);
            }
            let mut raw = [0i32; NUM_RESOURCES];
            let mut raw_next = [0i32; NUM_RESOURCES];
            for r in 0..NUM_RESOURCES {
                if p.req(r) == 0 {
                    continue;
                }
                if p.next[r] > 0 {
                    wants[r].push((e_next * w.embodied[r], p.next[r]));
                }
                if p.later[r] > 0 {
                    wants[r].push((e * w.embodied[r], p.later[r]));
                }
                let have = (left[r] as i32).min(p.req(r));
                left[r] -= have as u8;
                let short = p.req(r) - have;
                let short_next = (p.next[r] - have).max(0);
                let raw = if short_next > 0 { &mut raw_next } else { &mut raw };
                if short > 0 {
                    match r {
                        EXPL => raw[MED] += short,
                        POISON => raw[MED] += 2 * short,
                        FAKE => {
                            raw[INTEL] += short;
                            raw[MONEY] += 2 * short;
                        }
                        WEAPON => raw[MONEY] += short,
                        _ => {}
                    }
                    if let Some(t) = maker(r) {
                        if !s.tile_built(t) {
                            let et = if short_next > 0 { e_next } else { *e };
                            tiles_wanted[t as usize] = tiles_wanted[t as usize].max(5.0 * et);
                            raw[MONEY] += 2;
                        }
                    }
                }
            }
            for r in 0..NUM_RESOURCES {
                if raw[r] > 0 {
                    wants[r].push((e * w.embodied[r], raw[r]));
                }
                if raw_next[r] > 0 {
                    wants[r].push((e_next * w.embodied[r], raw_next[r]));
                }
            }
        }
        // Morale: survive the remaining orange days with a buffer, and meet mission conditions.
        let survive = costly + 1;
        let target = morale_target.max(survive + 1);
        let morale_short = (target - s.tracks.morale as i32).clamp(0, 3);
        if morale_short > 0 {
            let v = w.support_unit.max(target_e.min(w.morale_point_cap / 3.0));
            wants[FOOD].push((v, morale_short));
            wants[MED].push((v, morale_short));
        }
        if s.recruitable > 0 && dl > 6 {
            wants[FOOD].push((w.support_unit, 1));
        }
        // Money for a generally useful tile while a spare room is free.
        if dl > 6 && s.marks.tiles.iter().any(|t| t.is_none()) {
            wants[MONEY].push((w.support_unit, 2));
        }
        let mut need = [0i32; NUM_RESOURCES];
        let mut unit = [[0.0; 4]; NUM_RESOURCES];
        for r in 0..NUM_RESOURCES {
            wants[r].sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
            let mut k = 0;
            for &(v, n) in &wants[r] {
                need[r] += n;
                for _ in 0..n {
                    if k < 4 {
                        unit[r][k] = v.max(w.surplus[r]);
                        k += 1;
                    }
                }
            }
            while k < 4 {
                unit[r][k] = w.surplus[r];
                k += 1;
            }
        }
        let mut morale = [0.0; 16];
        for k in 1..16 {
            let ki = k as i32;
            morale[k] = if ki <= survive {
                w.morale_critical
            } else if ki <= survive + 2 {
                w.morale_buffer[(ki - survive - 1) as usize]
            } else if ki <= target {
                w.morale_buffer[1].max((3.0 * target_e).min(w.morale_point_cap))
            } else if k < 8 && MIN_PATROLS[k] < MIN_PATROLS[k - 1] {
                w.morale_patrol
            } else {
                w.morale_other
            };
        }
        let per = w.worker_base + w.worker_per_day * dl.min(10) as f64;
        let mut worker = [0.0; 6];
        for n in 1..6 {
            worker[n] = worker[n - 1] + per * w.worker_marginal[n - 1];
        }
        // Tiles: value by use and by room (index: spare_room_ne, spare_room_w, spare_room_se).
        let mut tile_value = [[0.0; 3]; 9];
        let room_factor = [0.75, 0.85, 1.0];
        let dlf = dl as f64;
        for t in Tile::ALL {
            let ti = *t as usize;
            let general = match t {
                Tile::Counterfeiter => 12.0 + w.counterfeiter_per_day * dlf,
                Tile::Informant if need[INTEL] > s.tokens.hand[INTEL] as i32 + 1 => 10.0 + 3.0 * dlf,
                Tile::SafeHouse => 10.0 + 2.5 * dlf,
                Tile::Propagandist => 5.0 + 2.0 * dlf,
                Tile::Smuggler if need[FOOD] + need[MED] > (s.tokens.hand[FOOD] + s.tokens.hand[MED]) as i32 + 2 => {
                    10.0 + 2.0 * dlf
                }
                Tile::Smuggler => 3.0,
                _ => 2.0,
            };
            let base = general.max(tiles_wanted[ti]);
            for room in 0..3 {
                let f = if *t == Tile::SafeHouse { [0.5, 1.0, 0.2][room] } else { room_factor[room] };
                tile_value[ti][room] = base * f;
            }
        }
        Ctx { w, unit, morale, costly, worker, stuck_worker: 0.5 * per, alive: w.alive_per_day * dlf, tile_value }
    }
}

/// Progress (0–1 each) of the dealt missions that are not complete (for search shaping).
pub fn open_progress(s: &State) -> f64 {
    (0..2).filter(|&i| !s.missions[i].complete).map(|i| progress(s, i)).sum()
}

fn w_assassination() -> f64 {
    0.15
}

/// Progress of an open mission toward completion, in [0, 1).
fn progress(s: &State, slot: usize) -> f64 {
    let m = &s.missions[slot];
    let b = m.boxes_done as f64;
    match m.id {
        M::MiliceParadeDay | M::DestroyTheTrain | M::BombForTheOfficer | M::LiberateTheTown => 0.0,
        M::OfficersMansion => 0.2 * (s.marks.tagged & GRAFFITI_LOCATIONS).count_ones() as f64,
        M::Sabotage => 0.25 * b,
        M::UndergroundNewspaper => 0.27 * b,
        M::Infiltration => 0.45 * b,
        M::GermanShepherds => 0.27 * b,
        M::DoubleAgent => {
            let v = (s.marks.visited & VISIT_LOCATIONS).count_ones() as f64;
            0.1 * v + if s.marks.dark_lady.is_some() { 0.1 } else { 0.0 }
        }
        M::AidTheSpy => 0.45 * b,
        M::Assassination => w_assassination() * s.tracks.soldiers as f64,
        M::CodedMessages => 0.8 * b,
        M::TakeOutTheBridges => {
            0.42 * (s.marks.bridges_chosen | s.marks.bridges_destroyed).count_ones() as f64
        }
        M::MiliceHq => 0.35 * b,
        M::BombTheBarracks => 0.2 * b,
        M::FreeTheResistanceLeader => 0.4 * b,
        M::DestroyAaGuns => 0.3 * b,
    }
}

fn eval(s: &State, c: &Ctx) -> f64 {
    let w = c.w;
    if let Some(o) = s.outcome {
        let done = s.missions.iter().filter(|m| m.complete).count() as f64;
        return match o {
            Outcome::Loss => -5000.0 + 100.0 * done,
            Outcome::Draw => w.mission,
            Outcome::Win => 5000.0,
            Outcome::MajorWin => 5200.0,
        };
    }
    let mut v = 0.0;
    for slot in 0..2 {
        let m = &s.missions[slot];
        if m.complete {
            v += w.mission;
            if m.id == M::DestroyAaGuns {
                v += 60.0 * (m.boxes_done as f64 - 3.0).max(0.0);
            }
            if m.tier == Some(Tier::Major) {
                v += 50.0;
            }
        } else if feasible(s, slot) {
            v += w.mission * progress(s, slot);
        }
    }
    for r in 0..NUM_RESOURCES {
        let n = (s.tokens.hand[r] as usize).min(4);
        for k in 0..n {
            v += c.unit[r][k];
        }
        // Airdrops lying on the fields, worth a little less (they must be picked up).
        let on_fields = (s.tokens.airdrop[0][r] + s.tokens.airdrop[1][r]) as usize;
        for k in n..(n + on_fields).min(4) {
            v += w.field_share * c.unit[r][k];
        }
    }
    for fi in 0..2 {
        if s.field_has_tokens(fi) {
            v -= w.pickup_cost;
        }
    }
    let effective = (s.tracks.morale as i32 + c.costly - costly_days_left(s)).clamp(0, 15) as usize;
    for k in 1..=effective {
        v += c.morale[k];
    }
    // Workers: home, placed with a route home; stuck ones are worth less.
    let mut workers = s.home as usize;
    let mut placed = s.locs_with(Pawn::Worker);
    let mut fake_spend = 0.0;
    if s.patrol_set() == 0 && routes::closed_roads(s) == 0 {
        // No patrol and no closed road: every placed worker gets home.
        workers += placed.count_ones() as usize;
        placed = 0;
    }
    while placed != 0 {
        let l = Location::ALL[placed.trailing_zeros() as usize];
        placed &= placed - 1;
        let fake = s.marks.fake_ids & bit(l) != 0;
        match routes::route_home(s, l, fake) {
            routes::Route::Clear => workers += 1,
            routes::Route::WithFakeId => {
                workers += 1;
                fake_spend += c.unit[FAKE][s.tokens.hand[FAKE].min(3) as usize];
            }
            routes::Route::None => {}
        }
    }
    let stuck = s.stuck_workers();
    v += c.worker[workers.min(5)] + c.stuck_worker * stuck as f64;
    if workers + stuck as usize > 0 {
        v += c.alive;
    }
    v -= fake_spend;
    for (room, t) in s.marks.tiles.iter().enumerate() {
        if let Some(t) = t {
            v += c.tile_value[*t as usize][room];
        }
    }
    v
}

/// The value of an action of the action phase: applied to a copy, the rest of the day played
/// out with no further actions (the other workers only walk home, nobody shoots), then the
/// evaluation. All candidates are thus judged at the same moment, after the night (morale loss,
/// deadlines, the end of the game).
fn action_value(s: &State, i: usize, c: &Ctx) -> f64 {
    let t = table();
    let mut n = s.clone();
    apply_legal(&mut n, t.actions[i]);
    let (day, pass) = (s.day, s.pass);
    while !n.is_over() && n.day == day && n.pass == pass {
        let a = match n.phase {
            Phase::PostAction => Action::Accept,
            Phase::Action => {
                let w = n.locs_with(Pawn::Worker);
                if w == 0 {
                    break;
                }
                Action::Skip(Location::ALL[w.trailing_zeros() as usize])
            }
            _ => break,
        };
        apply_legal(&mut n, a);
    }
    eval(&n, c)
}

/// The best action by one-step lookahead (action phase and post_action: no hidden information
/// matters until the day ends).
fn greedy(s: &State, c: &Ctx, mask: &crate::maquis::action::ActionMask) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for i in mask.iter() {
        let v = action_value(s, i, c);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|b| b.0)
}

// -------------------------------------------------------------------------------------------------
// Placement: the value of standing on a location.

#[derive(Clone, Copy, Debug)]
struct LocValue {
    value: f64,
    /// The best option keeps its reward even if the worker is arrested afterwards.
    safe: bool,
}

/// Performs `opt` for the worker on `loc` of a probe position (no patrols) and sends it on.
fn probe_do(p: &mut State, loc: Location, opt: Option<Opt>) -> bool {
    on_activation(p, loc);
    let Some(opt) = opt else {
        p.pawns[loc.idx()] = Pawn::Empty;
        p.home += 1;
        return false;
    };
    let perf = actions::perform(p, loc, opt);
    p.pawns[loc.idx()] = Pawn::Empty;
    match perf.disposition {
        actions::Disposition::GoHome { with_mole } => {
            if with_mole {
                p.marks.stuck &= !bit(loc);
                p.home += 1;
            }
            p.home += 1;
            if let Some(r) = perf.unsafe_reward {
                actions::grant(p, &r);
                false
            } else {
                true
            }
        }
        actions::Disposition::Stuck => {
            p.marks.stuck |= bit(loc);
            true
        }
        actions::Disposition::Arrested | actions::Disposition::Removed => {
            p.gone += 1;
            true
        }
    }
}

/// The best option of a worker on `loc` in a probe position (no patrols), valued against the
/// worker going home without an action: (option, value, safe).
fn best_option(p: &State, loc: Location, c: &Ctx) -> (Option<Opt>, f64, bool) {
    let mut q = p.clone();
    q.pawns[loc.idx()] = Pawn::Worker;
    let base = eval(&q, c);
    let mut skip = q.clone();
    probe_do(&mut skip, loc, None);
    let mut best = (None, eval(&skip, c) - base, false);
    for &opt in location_options(loc) {
        if !actions::option_legal(&q, loc, opt) {
            continue;
        }
        let mut n = q.clone();
        let safe = probe_do(&mut n, loc, Some(opt));
        let v = eval(&n, c) - base;
        if v > best.1 + 1e-9 {
            best = (Some(opt), v, safe);
        }
    }
    best
}

fn loc_value(probe: &State, loc: Location, c: &Ctx) -> LocValue {
    let (_, value, safe) = best_option(probe, loc, c);
    LocValue { value: value.max(0.0), safe }
}

/// The position as it would be after the workers already placed did their best actions, with
/// no patrols on the board: the base for valuing the next placement.
fn project(s: &State, c: &Ctx) -> State {
    let mut p = s.clone();
    for x in p.pawns.iter_mut() {
        if x.is_patrol() {
            *x = Pawn::Empty;
        }
    }
    p.phase = Phase::Action;
    p.today.pending = None;
    loop {
        let placed = p.locs_with(Pawn::Worker);
        if placed == 0 || p.is_over() {
            break;
        }
        let mut best: Option<(Location, Option<Opt>, f64)> = None;
        let mut rest = placed;
        while rest != 0 {
            let l = Location::ALL[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            let (opt, v, _) = best_option(&p, l, c);
            if best.is_none_or(|b| v > b.2) {
                best = Some((l, opt, v));
            }
        }
        let (l, opt, _) = best.unwrap();
        probe_do(&mut p, l, opt);
    }
    p.phase = Phase::Placement;
    p
}

// -------------------------------------------------------------------------------------------------
// Sampling the rest of today's patrols.

struct DaySim {
    adj: [LocSet; 19],
    homes: LocSet,
    workers: LocSet,
    patrols: LocSet,
    fakes: LocSet,
    remaining: usize,
    /// Cards left in the deck (a set: their order is hidden) and whether the first is known.
    deck: [u8; NUM_CARDS],
    deck_len: usize,
    known_top: bool,
}

struct SimResult {
    home_new: bool,
    arrested_new: bool,
    others_lost: u32,
    fake_spent: bool,
    virtual_value: f64,
    virtual_lost: u32,
}

impl DaySim {
    fn new(s: &State) -> DaySim {
        let d = s.deck.deck();
        let mut deck = [0u8; NUM_CARDS];
        deck[..d.len()].copy_from_slice(d);
        DaySim {
            adj: routes::open_adjacency(s),
            homes: s.safe_houses(),
            workers: s.locs_with(Pawn::Worker),
            patrols: s.patrol_set(),
            fakes: s.marks.fake_ids,
            remaining: s.patrols_today.saturating_sub(s.patrols_drawn) as usize,
            deck,
            deck_len: d.len(),
            // M-infiltration: the top card shown at the start of the day, if not yet drawn.
            known_top: s.today.peek.is_some() && d.first() == s.today.peek.as_ref(),
        }
    }

    /// A possible order of the next cards: the deck's cards shuffled (known top kept), then a
    /// reshuffle of all ten.
    /// Sample `index` of a stratified set: the first unknown card cycles through the deck.
    fn sample_sequence(&self, rng: &mut Rng64, index: usize) -> [u8; 16] {
        let mut seq = [0u8; 16];
        let n = self.deck_len.min(16);
        seq[..n].copy_from_slice(&self.deck[..n]);
        let mut start = usize::from(self.known_top);
        if n > start {
            seq.swap(start, start + (index % (n - start)));
            start += 1;
        }
        for i in (start + 1..n).rev() {
            let j = start + rng.below(i - start + 1);
            seq.swap(i, j);
        }
        let mut all: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        for i in (1..10).rev() {
            let j = rng.below(i + 1);
            all.swap(i, j);
        }
        let rest = (16 - n).min(10);
        seq[n..n + rest].copy_from_slice(&all[..rest]);
        seq
    }

    /// F7, by the engine's own route search over today's open roads: 0 = clear, 1 = with the
    /// Fake ID, 2 = none.
    #[inline]
    fn route(&self, loc: usize, patrols: LocSet, fake: bool) -> u8 {
        let nb = |set| routes::neighbours(&self.adj, set);
        match routes::route_over(nb, patrols, self.homes, 1 << loc, fake) {
            Route::Clear => 0,
            Route::WithFakeId => 1,
            Route::None => 2,
        }
    }

    /// Places the new worker on `loc`, then today's remaining patrols alternating with the
    /// stand-ins for the workers still to place (`virt`: location, value, safe), then judges routes.
    fn run(&self, loc: Location, fake: bool, seq: &[u8; 16], virt: &[(Location, f64, bool)]) -> SimResult {
        let nb = bit(loc);
        let mut workers = self.workers | nb;
        let mut patrols = self.patrols;
        let fakes = if fake { self.fakes | nb } else { self.fakes };
        let mut arrested: LocSet = 0;
        let mut virtual_set: LocSet = 0;
        let mut drawn = 0;
        // P3, by the engine's own rule, on the simulated sets.
        let place = |card: u8, workers: &mut LocSet, patrols: &mut LocSet, arrested: &mut LocSet| {
            let occ = *workers | *patrols;
            match landing(card, |l| occ & bit(l) == 0, |l| *workers & bit(l) != 0) {
                Landing::On(l) => *patrols |= bit(l),
                Landing::Arrest(l) => {
                    *workers &= !bit(l);
                    *arrested |= bit(l);
                    *patrols |= bit(l);
                }
                Landing::Nowhere => {}
            }
        };
        for &(v, _, _) in virt {
            if drawn < self.remaining {
                place(seq[drawn], &mut workers, &mut patrols, &mut arrested);
                drawn += 1;
            }
            if (workers | patrols) & bit(v) == 0 {
                workers |= bit(v);
                virtual_set |= bit(v);
            }
        }
        while drawn < self.remaining {
            place(seq[drawn], &mut workers, &mut patrols, &mut arrested);
            drawn += 1;
        }
        let mut res = SimResult {
            home_new: false,
            arrested_new: arrested & nb != 0,
            others_lost: (arrested & !nb & !virtual_set).count_ones(),
            fake_spent: false,
            virtual_value: 0.0,
            virtual_lost: (arrested & virtual_set).count_ones(),
        };
        let mut w = workers;
        while w != 0 {
            let i = w.trailing_zeros() as usize;
            w &= w - 1;
            let r = self.route(i, patrols, fakes >> i & 1 != 0);
            if i == loc.idx() {
                res.home_new = r < 2;
                res.fake_spent = fake && r == 1;
            } else if virtual_set >> i & 1 != 0 {
                let &(_, value, safe) = virt.iter().find(|v| v.0.idx() == i).unwrap();
                if r < 2 || safe {
                    res.virtual_value += value;
                }
                if r == 2 {
                    res.virtual_lost += 1;
                }
            } else if r == 2 {
                res.others_lost += 1;
            }
        }
        res
    }
}
