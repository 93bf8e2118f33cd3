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
use super::agents::{Agent, AnyAgent};
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
    type Side = Side;
    type Scenario = Scenario;
    type State = State;
    type Action = Action;
    type Mask = Mask;
    type Agent = AnyAgent;
    type ObservationBuffer = [f32; OBSERVATION_SIZE];

    fn other(side: Side) -> Side {
        side.other()
    }
    fn parse_side(id: &str) -> Result<Side> {
        Side::parse(id).map_err(|_| Error::BadOption(format!("side must be 'resistance' or 'german', got '{id}'")))
    }
    fn new_game(seed: u64, scenario: &Scenario) -> Result<State> {
        new_game(seed, scenario)
    }
    fn check_scenario(scenario: &Scenario) -> Result<()> {
        scenario.validate().map(drop)
    }
    fn scenario_from_options(options: &Value) -> Result<Scenario> {
        Scenario::from_json(options)
    }
    fn to_move(s: &State) -> Option<Side> {
        s.to_move()
    }
    fn is_over(s: &State) -> bool {
        s.is_over()
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
    fn decode(action: i64) -> Result<Action> {
        decode(action)
    }
    fn legal_mask(s: &State) -> Mask {
        legal_mask(s)
    }
    fn apply(s: &mut State, a: Action) -> Result<()> {
        apply_action(s, a)
    }
    fn write_observation(s: &State, side: Side, out: &mut [f32]) {
        write_observation(s, side, out)
    }
    fn write_observation_bytes(s: &State, side: Side, out: &mut [u8]) {
        write_observation_as(s, side, out)
    }
    fn observation_buffer() -> [f32; OBSERVATION_SIZE] {
        [0.0; OBSERVATION_SIZE]
    }
    fn save(s: &State) -> String {
        save_state(s)
    }
    fn load(json: &str) -> Result<State> {
        load_state(json)
    }
    fn opponent_seed(g: u64) -> u64 {
        opponent_seed(g)
    }
    fn bundled_opponent(kind: OpponentKind, budget: u32, seed: u64) -> Result<AnyAgent> {
        AnyAgent::by_id(kind.as_str(), seed, budget)
    }
    fn act(agent: &mut AnyAgent, obs: &[f32], mask: &Mask) -> usize {
        agent.act(obs, mask)
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
    use crate::env::versus::load_match;
    use crate::env::IllegalPolicy;
    use crate::game::Game;
    use serde_json::json;

    fn cfg(side: Side, kind: OpponentKind) -> EnvConfig {
        let setup = Setup { side, opponent: Opponent { kind, budget: 4 }, ..Setup::default() };
        EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
    }

    /// Plays a whole episode with the sampler; returns the actions and the final save.
    fn episode(cfg: &EnvConfig, stream: u64) -> (Vec<usize>, String, f64) {
        let mut slot = EnvSlot::new(stream);
        slot.reset(&cfg.setup).unwrap();
        let mut actions = Vec::new();
        let mut reward = 0.0;
        while !slot.done() {
            assert_eq!(slot.state().to_move(), Some(cfg.setup.side), "the learner decides");
            let a = slot.sample().unwrap();
            actions.push(a);
            reward = slot.step(cfg, a as i64).unwrap().reward;
        }
        (actions, DDay::save(slot.state()), reward)
    }

    #[test]
    fn the_learner_always_decides_and_games_end_for_both_sides_and_opponents() {
        for side in [Side::Resistance, Side::German] {
            for kind in [OpponentKind::Random, OpponentKind::Heuristic, OpponentKind::Search] {
                let (actions, save, reward) = episode(&cfg(side, kind), 3);
                assert!(!actions.is_empty());
                let m = load_match::<DDay1944>(&save).unwrap();
                assert!(m.game.is_over());
                let expected = match m.outcome().unwrap() {
                    LearnerOutcome::Win => 1.0,
                    LearnerOutcome::Draw => 0.0,
                    LearnerOutcome::Loss => -1.0,
                };
                assert_eq!(reward, expected);
            }
        }
    }

    #[test]
    fn same_stream_same_episode_and_the_dice_do_not_depend_on_the_opponent() {
        let c = cfg(Side::Resistance, OpponentKind::Heuristic);
        assert_eq!(episode(&c, 11), episode(&c, 11));
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
    fn match_save_round_trips_with_the_opponent_stream() {
        let c = cfg(Side::German, OpponentKind::Heuristic);
        let mut slot = EnvSlot::new(9);
        slot.reset(&c.setup).unwrap();
        for _ in 0..5 {
            let a = slot.sample().unwrap();
            slot.step(&c, a as i64).unwrap();
        }
        let loaded = load_match::<DDay1944>(&DDay::save(slot.state())).unwrap();
        assert_eq!(&loaded, slot.state());
        assert!(load_match::<DDay1944>("{}").is_err());
        assert!(load_match::<DDay1944>(&DDay::save(slot.state()).replace("\"version\":1", "\"version\":2")).is_err());
    }

    #[test]
    fn illegal_actions_refused_with_the_phase_or_terminate_with_a_loss() {
        let mut c = cfg(Side::Resistance, OpponentKind::Random);
        let mut slot = EnvSlot::new(1);
        slot.reset(&c.setup).unwrap();
        let t = slot.step(&c, 0).unwrap(); // allocate: the German's block
        assert!(t.terminated && t.illegal && t.outcome == Some(LearnerOutcome::Loss) && t.reward == -1.0);
        c.illegal = IllegalPolicy::Raise;
        slot.reset(&c.setup).unwrap();
        let before = slot.state().clone();
        let e = slot.step(&c, 0).unwrap_err();
        assert!(matches!(e, Error::IllegalAction { phase: "interrogation", .. }), "{e}");
        assert_eq!(slot.state(), &before);
        assert!(matches!(slot.step(&c, 191), Err(Error::ActionOutOfRange { .. })));
    }

    #[test]
    fn vp_margin_is_the_learner_margin() {
        let mut c = cfg(Side::German, OpponentKind::Random);
        c.rewards = Rewards::Margin;
        let mut slot = EnvSlot::new(4);
        slot.reset(&c.setup).unwrap();
        let mut r = 0.0;
        while !slot.done() {
            let a = slot.sample().unwrap();
            r = slot.step(&c, a as i64).unwrap().reward;
        }
        let (res, ger) = slot.state().game.vp_totals();
        assert!((r - (ger as f64 - res as f64) / 150.0).abs() < 1e-6);
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

    /// The batch engine over `DDay`: the same trajectories for any number of threads, and env
    /// `i` the same as a lone slot with env `i`'s stream seed.
    #[test]
    fn vector_engine_same_for_any_thread_count_and_as_single_slots() {
        let c = cfg(Side::German, OpponentKind::Heuristic);
        crate::vector::conformance::same_for_any_thread_count_and_as_single_slots(&c, 4, 300).unwrap();
    }
}
