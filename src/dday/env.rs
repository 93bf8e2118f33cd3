//! D-Day 1944 as a single-agent `Game` of the shared environment machinery (`env::Slot`,
//! `vector::Engine`): the learner plays one side and a bundled opponent (D1) the other, inside
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
use super::observation::{write_observation, OBSERVATION_SIZE};
use super::rules::{apply_action, legal_mask, new_game};
use super::save::{load_state, save_state};
use super::scenario::Scenario;
use super::state::State;
use crate::draw::{self, splitmix64};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::simd::Simd;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// The opponent's stream seed for the game seed `g` (API.md "Seeding": a fixed rule).
pub fn opponent_seed(g: u64) -> u64 {
    splitmix64(g ^ 0x0DDA_7194_4000_0001)
}

/// Who plays the learner's opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpponentKind {
    Random,
    Heuristic,
    Search,
    /// Played outside the engine (a Python object of the single env): `apply_legal` stops when
    /// it is to move, and the caller applies its decisions with `Match::apply_opponent`.
    External,
}

impl OpponentKind {
    /// A bundled id (`random`, `heuristic`, `search`), or `external` when `external` is allowed.
    pub fn parse(id: &str, external: bool) -> Result<OpponentKind> {
        Ok(match id {
            "random" => OpponentKind::Random,
            "heuristic" => OpponentKind::Heuristic,
            "search" => OpponentKind::Search,
            "external" if external => OpponentKind::External,
            _ => {
                return Err(Error::BadOption(format!(
                    "opponent must be 'random', 'heuristic' or 'search', got '{id}'"
                )))
            }
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            OpponentKind::Random => "random",
            OpponentKind::Heuristic => "heuristic",
            OpponentKind::Search => "search",
            OpponentKind::External => "external",
        }
    }
}

/// The opponent of an environment: its kind and the search budget (D1; ignored by the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opponent {
    pub kind: OpponentKind,
    pub budget: u32,
}

impl Default for Opponent {
    fn default() -> Opponent {
        Opponent { kind: OpponentKind::Heuristic, budget: super::agents::search::DEFAULT_BUDGET }
    }
}

impl Opponent {
    fn agent(self, seed: u64) -> Option<AnyAgent> {
        let id = self.kind.as_str();
        match self.kind {
            OpponentKind::External => None,
            _ => AnyAgent::by_id(id, seed, self.budget).ok(),
        }
    }
}

/// Everything that decides a new episode besides its seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub scenario: Scenario,
    pub side: Side,
    pub opponent: Opponent,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup { scenario: Scenario::default(), side: Side::Resistance, opponent: Opponent::default() }
    }
}

impl Setup {
    /// This setup with the reset options of API.md applied (`allocation`, `attack`, `first`,
    /// `dice`; with `side_and_opponent`, also `side` and `opponent`, a bundled id). Unknown keys
    /// and bad values are errors.
    pub fn with_options(&self, options: &Value, side_and_opponent: bool) -> Result<Setup> {
        let mut out = self.clone();
        let obj = match options {
            Value::Null => return Ok(out),
            Value::Object(o) => o,
            _ => return Err(Error::BadOption("options must be a mapping".into())),
        };
        let mut scenario = serde_json::Map::new();
        for (k, v) in obj {
            match k.as_str() {
                "side" | "opponent" if side_and_opponent => {
                    let id = v.as_str().ok_or_else(|| Error::BadOption(format!("{k}: {v} is not an id")))?;
                    if k == "side" {
                        out.side = Side::parse(id).map_err(|_| {
                            Error::BadOption(format!("side must be 'resistance' or 'german', got '{id}'"))
                        })?;
                    } else {
                        out.opponent.kind = OpponentKind::parse(id, true)?;
                    }
                }
                _ => {
                    scenario.insert(k.clone(), v.clone());
                }
            }
        }
        out.scenario = Scenario::from_json(&Value::Object(scenario))?;
        Ok(out)
    }
}

/// A game in progress against the opponent: the two-player state, the learner's side, and the
/// opponent with its own stream (None when it plays from outside).
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    pub game: State,
    pub learner: Side,
    pub opponent: Option<AnyAgent>,
}

impl Match {
    /// A new game of `setup` with game seed `g`, run up to the learner's first decision.
    pub fn new(setup: &Setup, g: u64) -> Result<Match> {
        let game = new_game(g, &setup.scenario)?;
        let mut m = Match { game, learner: setup.side, opponent: setup.opponent.agent(opponent_seed(g)) };
        m.advance();
        Ok(m)
    }

    /// The side to decide now (None once the game is over).
    pub fn to_move(&self) -> Option<Side> {
        self.game.to_move()
    }

    /// Lets the bundled opponent decide until the learner is to move or the game is over.
    pub fn advance(&mut self) {
        let Some(agent) = self.opponent.as_mut() else { return };
        let mut obs = [0.0f32; OBSERVATION_SIZE];
        while let Some(side) = self.game.to_move() {
            if side == self.learner {
                return;
            }
            let mask = legal_mask(&self.game);
            write_observation(&self.game, side, &mut obs);
            let a = agent.act(&obs, &mask);
            // The bundled agents pick from the mask; should one ever not, the game still goes on.
            let a = if mask.get(a) { a } else { mask.nth(0).unwrap_or(0) };
            if let Ok(action) = decode(a as i64) {
                let _ = apply_action(&mut self.game, action);
            }
        }
    }

    /// A decision of an external opponent (`OpponentKind::External`) while it is to move.
    pub fn apply_opponent(&mut self, action: i64) -> Result<()> {
        match self.game.to_move() {
            Some(side) if side != self.learner => apply_action(&mut self.game, decode(action)?),
            Some(_) => Err(Error::BadOption("the opponent is not to move: the learner decides now".into())),
            None => Err(Error::GameOver),
        }
    }

    /// The learner's result, once the game is over.
    pub fn outcome(&self) -> Option<LearnerOutcome> {
        Some(match (self.game.outcome?, self.learner) {
            (Outcome::Draw, _) => LearnerOutcome::Draw,
            (Outcome::Resistance, Side::Resistance) | (Outcome::German, Side::German) => LearnerOutcome::Win,
            _ => LearnerOutcome::Loss,
        })
    }
}

/// A finished episode from the learner's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnerOutcome {
    Win,
    Draw,
    Loss,
}

impl LearnerOutcome {
    pub const ALL: [LearnerOutcome; 3] = [LearnerOutcome::Win, LearnerOutcome::Draw, LearnerOutcome::Loss];
    pub fn as_str(self) -> &'static str {
        match self {
            LearnerOutcome::Win => "win",
            LearnerOutcome::Draw => "draw",
            LearnerOutcome::Loss => "loss",
        }
    }
    pub fn idx(self) -> usize {
        self as usize
    }
}

/// What a finished episode is worth to the learner: an outcome table, or the VP margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rewards {
    /// win, draw, loss.
    Table([f64; 3]),
    /// (own VP − opponent VP) / 150; an illegal action (`terminate`) gives −1, the margin's floor.
    VpMargin,
}

impl Default for Rewards {
    fn default() -> Rewards {
        Rewards::Table([1.0, 0.0, -1.0])
    }
}

impl Rewards {
    /// The default table with the entry of `outcome` (`win`, `draw`, `loss`) replaced.
    pub fn with(self, outcome: &str, value: f64) -> Result<Rewards> {
        let Rewards::Table(mut t) = self else {
            return Err(Error::BadOption("reward: a table and 'vp_margin' cannot be mixed".into()));
        };
        let k = LearnerOutcome::ALL.iter().position(|o| o.as_str() == outcome).ok_or_else(|| {
            Error::BadOption(format!("reward keys are 'win', 'draw' and 'loss', got '{outcome}'"))
        })?;
        if !value.is_finite() {
            return Err(Error::BadOption(format!("reward for '{outcome}' must be a finite number, got {value}")));
        }
        t[k] = value;
        Ok(Rewards::Table(t))
    }

    /// The learner's reward at the end of `m`.
    pub fn of(&self, m: &Match, outcome: LearnerOutcome, illegal: bool) -> f64 {
        match self {
            Rewards::Table(t) => t[outcome.idx()],
            Rewards::VpMargin if illegal => -1.0,
            Rewards::VpMargin => m.game.vp_margin(m.learner) as f64,
        }
    }
}

/// The save format of a `Match` (the game's own save, plus the learner and the opponent).
pub const MATCH_FORMAT: &str = "maquis.dday1944.match";

/// A match as versioned JSON (the game's save, the learner's side, the opponent and its stream).
pub fn save_match(m: &Match) -> String {
    let game: Value = serde_json::from_str(&save_state(&m.game)).expect("a save is JSON");
    json!({"format": MATCH_FORMAT, "version": 1, "learner": m.learner, "opponent": m.opponent, "game": game})
        .to_string()
}

/// A match from `save_match`'s JSON.
pub fn load_match(text: &str) -> Result<Match> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Saved {
        format: String,
        version: u32,
        learner: Side,
        opponent: Option<AnyAgent>,
        game: Value,
    }
    let s: Saved = serde_json::from_str(text).map_err(|e| Error::BadSave(format!("not a D-Day match save: {e}")))?;
    if s.format != MATCH_FORMAT || s.version != 1 {
        return Err(Error::BadSave(format!(
            "format: '{}' version {} is not '{MATCH_FORMAT}' version 1",
            s.format, s.version
        )));
    }
    Ok(Match { game: load_state(&s.game.to_string())?, learner: s.learner, opponent: s.opponent })
}

/// D-Day 1944 played by one learner against a bundled opponent, for `env::Slot<DDay>` and
/// `vector::Engine<DDay>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DDay;

impl Game for DDay {
    const NAME: &'static str = "dday1944";
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    type Setup = Setup;
    type State = Match;
    type Action = Action;
    type Mask = Mask;
    type Outcome = LearnerOutcome;
    type Rewards = Rewards;
    type Written = ();

    fn obs_size() -> usize {
        OBSERVATION_SIZE
    }
    fn check_setup(setup: &Setup) -> Result<()> {
        setup.scenario.validate().map(drop)
    }
    fn new_game_into(setup: &Setup, seed: u64, out: &mut Match) -> Result<()> {
        *out = Match::new(setup, seed)?;
        Ok(())
    }
    fn placeholder() -> Match {
        Match {
            game: new_game(0, &Scenario::default()).expect("the default game starts"),
            learner: Side::Resistance,
            opponent: None,
        }
    }
    fn decode(action: i64) -> Result<Action> {
        decode(action)
    }
    fn legal_mask(s: &Match) -> Mask {
        legal_mask(&s.game)
    }
    fn is_legal(mask: &Mask, i: usize) -> bool {
        mask.get(i)
    }
    fn apply_legal(s: &mut Match, a: Action) {
        if apply_action(&mut s.game, a).is_ok() {
            s.advance();
        }
    }
    fn refusal(s: &Match, action: i64) -> Error {
        let mut probe = s.game.clone();
        match decode(action).and_then(|a| apply_action(&mut probe, a)) {
            Err(e) => e,
            Ok(()) => Error::BadOption(format!("action {action} is legal here")),
        }
    }
    fn sample(mask: &Mask, rng: &mut ChaCha8Rng) -> Option<usize> {
        let n = mask.count();
        if n == 0 {
            return None;
        }
        mask.nth(draw::below(rng, n))
    }
    fn is_over(s: &Match) -> bool {
        s.game.is_over()
    }
    fn outcome(s: &Match) -> Option<LearnerOutcome> {
        s.outcome()
    }
    fn illegal_outcome() -> LearnerOutcome {
        LearnerOutcome::Loss
    }
    fn outcome_code(o: LearnerOutcome) -> i8 {
        o.idx() as i8
    }
    fn terminal_reward(rewards: &Rewards, s: &Match, outcome: LearnerOutcome, illegal: bool) -> f64 {
        rewards.of(s, outcome, illegal)
    }
    fn write_observation(s: &Match, out: &mut [f32]) {
        write_observation(&s.game, s.learner, out)
    }
    const NOTHING_WRITTEN: () = ();
    fn write_mask_bytes(_: Simd, mask: &Mask, out: &mut [u8]) {
        mask.write_bytes(out)
    }
    fn save(s: &Match) -> String {
        save_match(s)
    }
    fn load(json: &str) -> Result<Match> {
        load_match(json)
    }
}

pub type EnvSlot = crate::env::Slot<DDay>;
pub type EnvConfig = crate::env::Config<DDay>;
pub type VecEngine = crate::vector::Engine<DDay>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::IllegalPolicy;

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
                let m = load_match(&save).unwrap();
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
        let loaded = load_match(&DDay::save(slot.state())).unwrap();
        assert_eq!(&loaded, slot.state());
        assert!(load_match("{}").is_err());
        assert!(load_match(&DDay::save(slot.state()).replace("\"version\":1", "\"version\":2")).is_err());
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
        c.rewards = Rewards::VpMargin;
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
        use crate::env::{stream_seed, Autoreset};
        use crate::vector::OutputBuffers;
        let c = cfg(Side::German, OpponentKind::Heuristic);
        let run = |threads: usize| {
            let mut e = VecEngine::new(c.clone(), 4, threads, Autoreset::NextStep).unwrap();
            e.seed_all(21);
            let mut buf = OutputBuffers::of::<DDay>(4);
            e.reset(None, None, None, &mut buf.out()).unwrap();
            let mut trace = Vec::new();
            let mut actions = vec![0i64; 4];
            for _ in 0..300 {
                e.sample_actions(&mut actions);
                e.step(&actions, &mut buf.out()).unwrap();
                trace.push((actions.clone(), buf.obs().to_vec(), buf.rewards.clone()));
            }
            trace
        };
        let one = run(1);
        assert_eq!(one, run(2));
        let mut slot = EnvSlot::new(stream_seed(21, 2));
        slot.reset(&c.setup).unwrap();
        for (actions, obs, rewards) in &one {
            if slot.done() {
                break;
            }
            let t = slot.step(&c, actions[2]).unwrap();
            let mut row = vec![0.0; OBSERVATION_SIZE];
            slot.write_observation(&mut row);
            assert_eq!(&row[..], &obs[2 * OBSERVATION_SIZE..3 * OBSERVATION_SIZE]);
            assert_eq!(t.reward as f32, rewards[2]);
        }
    }
}
