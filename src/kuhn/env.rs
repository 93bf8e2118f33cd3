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

use super::agents::KuhnAgent;
use super::ids::{decode, Mask, Move, Side, NUM_ACTIONS};
use super::observation::{write_observation_as, OBSERVATION_SIZE};
use super::rules::{apply_move, legal_mask, new_game};
use super::save::{load_state, save_state};
use super::scenario::Scenario;
use super::state::State;
use crate::draw::splitmix64;
use crate::env::versus::{TwoPlayer, Versus};
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
    type ObservationBuffer = [f32; OBSERVATION_SIZE];

    // K1–K3, N1, N2: the deal and the seats; B1–B4: the betting; O1: one encoder writes floats
    // and bytes; A1: the opponent has its own stream (N1).
    crate::two_player_rules! {
        types: Side, Scenario, State, Move, Mask, KuhnAgent;
        other => Side::other, to_move => State::to_move, is_over => State::is_over,
        new_game, decode, legal_mask, apply => apply_move,
        write_observation => write_observation_as, write_observation_bytes => write_observation_as,
        save => save_state, load => load_state, opponent_seed,
    }
    fn check_scenario(scenario: &Scenario) -> Result<()> {
        scenario.validate()
    }
    fn scenario_from_options(options: &Value) -> Result<Scenario> {
        Scenario::from_json(options)
    }
    fn parse_side(id: &str) -> Result<Side> {
        Side::from_id(id)
    }

    // S1, P1, P2: the end of a hand. Kuhn poker has no draw.
    fn result(s: &State) -> Option<Option<Side>> {
        s.winner().map(Some)
    }
    fn margin(s: &State, side: Side) -> f64 {
        chip_margin(s, side)
    }
    fn observation_buffer() -> [f32; OBSERVATION_SIZE] {
        [0.0; OBSERVATION_SIZE]
    }
}
