//! Kuhn poker as a two-player game of the shared learner-against-opponent machinery
//! (`env::versus`): the learner holds one seat and a bundled agent (A1) the other, deciding inside
//! `apply_legal`, so that every state handed back is one where the learner decides (or the hand is
//! over). `Kuhn` is that game for `env::Slot`, `env::Config` and `vector::Engine`.
//!
//! Seeding (N1): the environment's episode stream gives each hand one game seed `g`; the deal is
//! drawn from a ChaCha8 stream seeded with `g`, the opponent's stream is seeded with
//! `opponent_seed(g)`. The opponent's draws never touch the deal.
//!
//! Rewards (P2): the margin of a hand is the payoff in chips halved, in [-1, 1]; the Python
//! classes make it the default reward, since a win/loss table would count a won ante and a won
//! call alike.

use super::agents::{Agent, KuhnAgent};
use super::ids::{decode, Mask, Move, Side, NUM_ACTIONS};
use super::observation::{write_observation_as, OBSERVATION_SIZE};
use super::rules::{apply_move, legal_mask, new_game};
use super::save::{load_state, save_state};
use super::scenario::Scenario;
use super::state::State;
use crate::draw::splitmix64;
use crate::env::versus::{OpponentKind, TwoPlayer, Versus};
use crate::error::Result;
use serde_json::Value;

/// The save format of a match (the hand's own save, plus the learner and the opponent).
pub const MATCH_FORMAT: &str = "maquis.kuhn.match";

/// The two-player game of Kuhn poker, for `env::versus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KuhnPoker;

/// Kuhn poker played by one learner against an opponent.
pub type Kuhn = Versus<KuhnPoker>;

/// N1: the opponent's stream seed for the game seed `g`.
pub fn opponent_seed(g: u64) -> u64 {
    splitmix64(g ^ 0x4B55_484E_0000_0001)
}

/// P2: `side`'s margin reward of a finished hand, its payoff in chips / 2 (0 while it goes on).
pub fn chip_margin(s: &State, side: Side) -> f64 {
    s.payoff(side).map_or(0.0, |p| p as f64 / 2.0)
}

impl TwoPlayer for KuhnPoker {
    const NAME: &'static str = "kuhn";
    const TITLE: &'static str = "Kuhn poker";
    const MATCH_FORMAT: &'static str = MATCH_FORMAT;
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = OBSERVATION_SIZE;
    const DEFAULT_SIDE: Side = Side::First;
    /// No level searches; the budget is never read.
    const DEFAULT_BUDGET: u32 = 1;
    type Side = Side;
    type Scenario = Scenario;
    type State = State;
    type Action = Move;
    type Mask = Mask;
    type Agent = KuhnAgent;
    type ObservationBuffer = [f32; OBSERVATION_SIZE];

    // K1–K3, N1, N2: the deal and the seats.
    fn new_game(seed: u64, scenario: &Scenario) -> Result<State> {
        new_game(seed, scenario)
    }
    fn check_scenario(scenario: &Scenario) -> Result<()> {
        scenario.validate()
    }
    fn scenario_from_options(options: &Value) -> Result<Scenario> {
        Scenario::from_json(options)
    }
    fn other(side: Side) -> Side {
        side.other()
    }
    fn parse_side(id: &str) -> Result<Side> {
        Side::from_id(id)
    }

    // B1–B4: the betting.
    fn to_move(s: &State) -> Option<Side> {
        s.to_move()
    }
    fn decode(action: i64) -> Result<Move> {
        decode(action)
    }
    fn legal_mask(s: &State) -> Mask {
        legal_mask(s)
    }
    fn apply(s: &mut State, m: Move) -> Result<()> {
        apply_move(s, m)
    }

    // S1, P1, P2: the end of a hand. Kuhn poker has no draw.
    fn is_over(s: &State) -> bool {
        s.is_over()
    }
    fn result(s: &State) -> Option<Option<Side>> {
        s.winner().map(Some)
    }
    fn margin(s: &State, side: Side) -> f64 {
        chip_margin(s, side)
    }

    // O1: one encoder writes floats and bytes.
    fn write_observation(s: &State, side: Side, out: &mut [f32]) {
        write_observation_as(s, side, out)
    }
    fn write_observation_bytes(s: &State, side: Side, out: &mut [u8]) {
        write_observation_as(s, side, out)
    }
    fn observation_buffer() -> [f32; OBSERVATION_SIZE] {
        [0.0; OBSERVATION_SIZE]
    }

    // Saves.
    fn save(s: &State) -> String {
        save_state(s)
    }
    fn load(json: &str) -> Result<State> {
        load_state(json)
    }

    // A1: the opponent, with its own stream (N1).
    fn opponent_seed(g: u64) -> u64 {
        opponent_seed(g)
    }
    fn bundled_opponent(kind: OpponentKind, _budget: u32, seed: u64) -> Result<KuhnAgent> {
        KuhnAgent::of_kind(kind, seed)
    }
    fn act(agent: &mut KuhnAgent, obs: &[f32], mask: &Mask) -> usize {
        agent.act(obs, mask)
    }
}
