//! D-Day 1944 as a two-player game of the shared learner-against-opponent machinery
//! (`env::versus`): the learner plays one side and a bundled opponent (D1) the other, inside
//! `apply_legal` — its turns, its `hit` choices during the learner's turns, with chance and Q0
//! steps run by the engine — so that every state handed back is one where the learner decides
//! (or the game is over).
//!
//! Seeding: the environment's episode stream gives each episode one game seed `g`; the dice
//! stream is seeded with `g` (N1), the opponent's stream with `opponent_seed(g)`. The opponent's
//! draws never touch the dice (D3), and `sample()` uses the environment's own sampling stream.

use super::action::{decode, Action, Mask, NUM_ACTIONS};
use super::agents::AnyAgent;
use super::ids::{Outcome, Side};
use super::observation::{write_observation, write_observation_as, OBSERVATION_SIZE};
use super::rules::{apply_action, legal_mask, new_game};
use super::save::{load_state, save_state};
use super::scenario::Scenario;
use super::state::State;
use crate::draw::splitmix64;
use crate::env::versus::{self, TwoPlayer, Versus};
use crate::error::{Error, Result};
use serde_json::Value;

pub use crate::env::versus::{LearnerOutcome, Opponent, OpponentKind, Rewards};

/// The opponent's stream seed for the game seed `g` (API.md "Seeding": a fixed rule).
pub fn opponent_seed(g: u64) -> u64 {
    splitmix64(g ^ 0x0DDA_7194_4000_0001)
}

/// The two-player game of D-Day 1944, for `env::versus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DDay1944;

impl TwoPlayer for DDay1944 {
    const NAME: &'static str = "dday1944";
    const TITLE: &'static str = "D-Day";
    const MATCH_FORMAT: &'static str = MATCH_FORMAT;
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = OBSERVATION_SIZE;
    const DEFAULT_SIDE: Side = Side::Resistance;
    const DEFAULT_BUDGET: u32 = super::agents::search::DEFAULT_BUDGET;
    type ObservationBuffer = [f32; OBSERVATION_SIZE];

    crate::two_player_rules! {
        types: Side, Scenario, State, Action, Mask, AnyAgent;
        other => Side::other, to_move => State::to_move, is_over => State::is_over,
        new_game, decode, legal_mask, apply => apply_action,
        write_observation, write_observation_bytes => write_observation_as,
        save => save_state, load => load_state, opponent_seed, networks => super::agents::network::DDayNet,
    }
    fn parse_side(id: &str) -> Result<Side> {
        Side::parse(id).map_err(|_| Error::BadOption(format!("side must be 'resistance' or 'german', got '{id}'")))
    }
    fn check_scenario(scenario: &Scenario) -> Result<()> {
        scenario.validate().map(drop)
    }
    fn scenario_from_options(options: &Value) -> Result<Scenario> {
        Scenario::from_json(options)
    }
    fn result(s: &State) -> Option<Option<Side>> {
        Some(match s.outcome? {
            Outcome::Draw => None,
            Outcome::Resistance => Some(Side::Resistance),
            Outcome::German => Some(Side::German),
        })
    }
    fn margin(s: &State, side: Side) -> f64 {
        s.vp_margin(side) as f64
    }
    fn observation_buffer() -> [f32; OBSERVATION_SIZE] {
        [0.0; OBSERVATION_SIZE]
    }
}

/// D-Day 1944 played by one learner against an opponent, for `env::Slot<DDay>` and
/// `vector::Engine<DDay>`.
pub type DDay = Versus<DDay1944>;
/// Everything that decides a new episode besides its seed: the scenario, the learner's side, the
/// opponent.
pub type Setup = versus::Setup<DDay1944>;
/// A game in progress against the opponent.
pub type Match = versus::Match<DDay1944>;

/// The save format of a `Match` (the game's own save, plus the learner and the opponent).
pub const MATCH_FORMAT: &str = "maquis.dday1944.match";

pub type EnvSlot = crate::env::Slot<DDay>;
pub type EnvConfig = crate::env::Config<DDay>;
pub type VecEngine = crate::vector::Engine<DDay>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::IllegalPolicy;
    use serde_json::json;

    fn cfg(side: Side, kind: OpponentKind) -> EnvConfig {
        let setup = Setup { side, opponent: Opponent::bundled(kind, 4), ..Setup::default() };
        EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
    }

    #[test]
    fn the_dice_do_not_depend_on_the_opponent() {
        // Same game seed, different opponents: the first dice rolled are the same.
        let a = Match::new(&cfg(Side::German, OpponentKind::Random).setup, 5).unwrap();
        let b = Match::new(&cfg(Side::German, OpponentKind::Heuristic).setup, 5).unwrap();
        let mut da = a.game.dice.clone();
        let mut db = b.game.dice.clone();
        use crate::dday::ids::ChanceEvent;
        let ev = ChanceEvent::ALL[0];
        assert_eq!(da.roll(ev, 5).dice(), db.roll(ev, 5).dice());
    }

    #[test]
    fn an_illegal_action_is_refused_naming_the_phase() {
        // The rest of the contract on illegal actions is tests/conformance.rs, for every game.
        let mut c = cfg(Side::Resistance, OpponentKind::Random);
        c.illegal = IllegalPolicy::Raise;
        let mut slot = EnvSlot::new(1);
        slot.reset(&c.setup).unwrap();
        let e = slot.step(&c, 0).unwrap_err(); // allocate: the German's block
        assert!(matches!(e, Error::IllegalAction { phase: "interrogation", .. }), "{e}");
    }

    #[test]
    fn vp_margin_is_the_vp_difference_over_150() {
        for game in crate::env::conformance::margin_reward::<DDay1944>(cfg) {
            let (res, ger) = game.vp_totals();
            assert!((DDay1944::margin(&game, Side::German) - (ger as f64 - res as f64) / 150.0).abs() < 1e-6);
        }
    }

    #[test]
    fn reset_options_parse_and_refuse() {
        let base = Setup::default();
        let s = base.with_options(&json!({"side": "german", "opponent": "random", "dice": [1, 2]}), true).unwrap();
        assert_eq!((s.side, s.opponent.kind, s.scenario.dice.clone()), (Side::German, OpponentKind::Random, vec![1, 2]));
        assert!(base.with_options(&json!({"side": "german"}), false).is_err());
        assert!(base.with_options(&json!({"side": "nobody"}), true).is_err());
        assert!(base.with_options(&json!({"bogus": 1}), true).is_err());
        assert!(base.with_options(&json!({"dice": [7]}), true).is_err());
        assert!(base.with_options(&json!([1]), true).is_err());
    }
}
