//! A two-player zero-sum game played by one learner against an opponent, as a `Game` of the
//! shared environment machinery (`Slot`, `vector::Engine`), written once for every such game
//! (D-Day 1944, Maurice Lite). The opponent — a bundled agent, or one played from outside —
//! decides inside `apply_legal` (its turns, and its decisions during the learner's turns, with
//! chance and single-option steps run by the game), so that every state handed back is one where
//! the learner decides or the game is over.
//!
//! Seeding: the environment's episode stream gives each episode one game seed `g`; the game's
//! own streams are seeded from `g`, the opponent's with `TwoPlayer::opponent_seed(g)`. The
//! opponent's draws never touch the game's, and `sample()` uses the environment's sampling stream.

use super::opponents::{self, Agent as _, ById};
use crate::bitmask::ActionSet;
use crate::draw;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::obs_value::Observes;
use crate::simd::Simd;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt::Debug;
use std::marker::PhantomData;

/// What a two-player game supplies to be played against an opponent. The implementing type is
/// a marker, like `Game`'s.
pub trait TwoPlayer: Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// The game's short name (its environment snapshots are `<NAME>-env`).
    const NAME: &'static str;
    /// The game's name in messages ("D-Day 1944").
    const TITLE: &'static str;
    /// The format tag of a match save (the game's save, the learner and the opponent).
    const MATCH_FORMAT: &'static str;
    const NUM_ACTIONS: usize;
    const OBSERVATION_SIZE: usize;
    /// The learner's side when none is given.
    const DEFAULT_SIDE: Self::Side;
    /// The search opponent's simulations per decision when none is given.
    const DEFAULT_BUDGET: u32;

    type Side: Copy + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// Everything that decides a new game besides its seed and the sides (the reset options).
    type Scenario: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type State: Clone + Debug + PartialEq + Send + Sync;
    type Action: Copy;
    type Mask: ActionSet + Clone + Debug + Default + PartialEq + Send + Sync;
    /// A bundled opponent with its own stream (saved with the match).
    type Agent: opponents::Agent<Self::Mask> + ById + Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A buffer of `OBSERVATION_SIZE` floats the opponent observes into (an array on the stack).
    type ObservationBuffer: AsMut<[f32]> + AsRef<[f32]>;

    fn other(side: Self::Side) -> Self::Side;
    /// The side with this id, or an error that lists the sides.
    fn parse_side(id: &str) -> Result<Self::Side>;

    /// A new game of `scenario` with game seed `seed`.
    fn new_game(seed: u64, scenario: &Self::Scenario) -> Result<Self::State>;
    /// Checks that `scenario` makes a game.
    fn check_scenario(scenario: &Self::Scenario) -> Result<()>;
    /// The scenario of the reset options (a mapping without `side` and `opponent`).
    fn scenario_from_options(options: &Value) -> Result<Self::Scenario>;

    /// The side to decide now (None once the game is over).
    fn to_move(s: &Self::State) -> Option<Self::Side>;
    fn is_over(s: &Self::State) -> bool;
    /// None while the game goes on; then `Some(None)` for a draw, `Some(Some(side))` for a win.
    fn result(s: &Self::State) -> Option<Option<Self::Side>>;
    /// `side`'s margin reward at the end of a game (in [-1, 1]).
    fn margin(s: &Self::State, side: Self::Side) -> f64;
    /// The terms of the learner's shaping potential (`env::Shaping`), each with its name and its
    /// default weight; empty (the default): the game offers no shaping.
    const POTENTIAL_TERMS: &'static [(&'static str, f64)] = &[];
    /// The value of each of `POTENTIAL_TERMS` for `side` in `s`, a game not over, into `out`.
    fn potential_terms(s: &Self::State, side: Self::Side, out: &mut [f64]) {
        let _ = (s, side, out);
    }

    fn decode(action: i64) -> Result<Self::Action>;
    fn legal_mask(s: &Self::State) -> Self::Mask;
    /// Applies an action, or says why it cannot be applied (nothing changes then).
    fn apply(s: &mut Self::State, a: Self::Action) -> Result<()>;
    /// `apply` for an action the caller has just found in `legal_mask(s)`: a game may skip
    /// checking it again.
    fn apply_allowed(s: &mut Self::State, a: Self::Action) -> Result<()> {
        Self::apply(s, a)
    }
    /// `apply_allowed`, with the legal mask of the state it leaves when the game worked it out
    /// on the way (None: ask `legal_mask`).
    fn apply_allowed_mask(s: &mut Self::State, a: Self::Action) -> Result<Option<Self::Mask>> {
        Self::apply_allowed(s, a).map(|()| None)
    }
    /// What `side` may see of `s`, `OBSERVATION_SIZE` floats.
    fn write_observation(s: &Self::State, side: Self::Side, out: &mut [f32]);
    /// The same as bytes: each value's count, the float times its divisor (`obs_value`).
    fn write_observation_bytes(s: &Self::State, side: Self::Side, out: &mut [u8]);
    /// `write_observation` into a vector env's row, which holds, if `kept`, what this function
    /// wrote there for `side` at an earlier position of the same game: a game may rewrite only
    /// what can have changed since.
    fn update_observation(s: &Self::State, side: Self::Side, row: &mut [f32], kept: bool) {
        let _ = kept;
        Self::write_observation(s, side, row)
    }
    /// `update_observation` in bytes.
    fn update_observation_bytes(s: &Self::State, side: Self::Side, row: &mut [u8], kept: bool) {
        let _ = kept;
        Self::write_observation_bytes(s, side, row)
    }
    fn observation_buffer() -> Self::ObservationBuffer;

    /// The game's own save, and back.
    fn save(s: &Self::State) -> String;
    fn load(json: &str) -> Result<Self::State>;

    /// The stream seed of the opponent for game seed `g` (a fixed rule of the game's API).
    fn opponent_seed(g: u64) -> u64;
    /// The bundled opponent of `kind` (never `External`), seeded.
    fn bundled_opponent(kind: OpponentKind, budget: u32, seed: u64) -> Result<Self::Agent> {
        Self::Agent::by_id(kind.as_str(), seed, budget)
    }
    /// The index of the weight file at `path` among those this process read for `network@FILE`
    /// opponents; `fresh`: read it again if it changed since. A game with networks hands over to
    /// `nn::player` (`two_player_rules!`'s `networks => Net`); one without refuses.
    fn opponent_file(path: &str, fresh: bool) -> Result<usize> {
        let _ = fresh;
        Err(Error::BadOption(format!("{} has no network levels to play the weight file '{path}'", Self::TITLE)))
    }
    /// The network level `kind` playing the weight file of `index` (`opponent_file`) instead of
    /// the registered network, seeded.
    fn opponent_on_file(kind: OpponentKind, index: usize, budget: u32, seed: u64) -> Result<Self::Agent> {
        let _ = (kind, budget, seed);
        Err(Error::BadOption(format!("{} has no network levels to play weight file {index}", Self::TITLE)))
    }
    /// The opponent's decision from its observation and the (non-empty) mask.
    fn act(agent: &mut Self::Agent, obs: &[f32], mask: &Self::Mask) -> usize {
        agent.act(obs, mask)
    }
    /// The bundled `agent`'s decision as `side` in `s` (the mask `legal_mask(s)`, non-empty):
    /// from `side`'s whole observation, written into `obs` (made on first use, then reused). A
    /// game may give an agent only what it reads instead (nothing to a random agent), for the
    /// same decision with less work.
    fn decide(
        agent: &mut Self::Agent,
        s: &Self::State,
        side: Self::Side,
        mask: &Self::Mask,
        obs: &mut Option<Self::ObservationBuffer>,
    ) -> usize {
        let obs = obs.get_or_insert_with(Self::observation_buffer);
        Self::write_observation(s, side, obs.as_mut());
        Self::act(agent, obs.as_ref(), mask)
    }
}

/// The parts of an `impl TwoPlayer` that only name the game's own types and functions, written
/// once with their signatures: a game gives its types (`types: Side, Scenario, State, Action,
/// Mask, Agent;`), then lists `name => function` (or `name` alone where its function of that name
/// is in scope) for the functions that only hand over, and writes out only what is its own.
///
/// ```ignore
/// two_player_rules! {
///     types: Side, Scenario, State, Action, Mask, AnyAgent;
///     other => Side::other, new_game, decode, legal_mask, apply => apply_action,
/// }
/// ```
#[macro_export]
macro_rules! two_player_rules {
    (
        types: $side:ty, $scenario:ty, $state:ty, $action:ty, $mask:ty, $agent:ty;
        $($name:ident $(=> $f:path)?),+ $(,)?
    ) => {
        type Side = $side;
        type Scenario = $scenario;
        type State = $state;
        type Action = $action;
        type Mask = $mask;
        type Agent = $agent;
        $($crate::two_player_rules!(@fn $name $(=> $f)?);)+
    };
    (@fn $name:ident) => { $crate::two_player_rules!(@fn $name => $name); };
    (@fn other => $f:path) => {
        fn other(side: Self::Side) -> Self::Side { $f(side) }
    };
    (@fn new_game => $f:path) => {
        fn new_game(seed: u64, scenario: &Self::Scenario) -> $crate::error::Result<Self::State> { $f(seed, scenario) }
    };
    (@fn to_move => $f:path) => {
        fn to_move(s: &Self::State) -> Option<Self::Side> { $f(s) }
    };
    (@fn is_over => $f:path) => {
        fn is_over(s: &Self::State) -> bool { $f(s) }
    };
    (@fn decode => $f:path) => {
        fn decode(action: i64) -> $crate::error::Result<Self::Action> { $f(action) }
    };
    (@fn legal_mask => $f:path) => {
        fn legal_mask(s: &Self::State) -> Self::Mask { $f(s) }
    };
    (@fn apply => $f:path) => {
        fn apply(s: &mut Self::State, a: Self::Action) -> $crate::error::Result<()> { $f(s, a) }
    };
    (@fn apply_allowed => $f:path) => {
        fn apply_allowed(s: &mut Self::State, a: Self::Action) -> $crate::error::Result<()> { $f(s, a) }
    };
    (@fn apply_allowed_mask => $f:path) => {
        fn apply_allowed_mask(s: &mut Self::State, a: Self::Action) -> $crate::error::Result<Option<Self::Mask>> {
            $f(s, a)
        }
    };
    (@fn write_observation => $f:path) => {
        fn write_observation(s: &Self::State, side: Self::Side, out: &mut [f32]) { $f(s, side, out) }
    };
    (@fn write_observation_bytes => $f:path) => {
        fn write_observation_bytes(s: &Self::State, side: Self::Side, out: &mut [u8]) { $f(s, side, out) }
    };
    (@fn update_observation => $f:path) => {
        fn update_observation(s: &Self::State, side: Self::Side, row: &mut [f32], kept: bool) { $f(s, side, row, kept) }
    };
    (@fn update_observation_bytes => $f:path) => {
        fn update_observation_bytes(s: &Self::State, side: Self::Side, row: &mut [u8], kept: bool) { $f(s, side, row, kept) }
    };
    (@fn save => $f:path) => {
        fn save(s: &Self::State) -> String { $f(s) }
    };
    (@fn load => $f:path) => {
        fn load(json: &str) -> $crate::error::Result<Self::State> { $f(json) }
    };
    (@fn opponent_seed => $f:path) => {
        fn opponent_seed(g: u64) -> u64 { $f(g) }
    };
    (@fn networks => $net:path) => {
        fn opponent_file(path: &str, fresh: bool) -> $crate::error::Result<usize> {
            $crate::nn::player::file_index::<$net>(path, fresh)
        }
        fn opponent_on_file(
            kind: $crate::env::versus::OpponentKind,
            index: usize,
            budget: u32,
            seed: u64,
        ) -> $crate::error::Result<Self::Agent> {
            $crate::nn::player::level_on_file::<$net, Self::Agent>(kind, index, budget, seed)
        }
    };
}

/// Who plays the learner's opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpponentKind {
    Random,
    Heuristic,
    Search,
    /// The game's trained network alone (where the game ships one).
    Network,
    /// The game's search guided by its network.
    NetworkSearch,
    /// Played outside the engine (a Python object of the single env): `apply_legal` stops when
    /// it is to move, and the caller applies its decisions with `Match::apply_opponent`.
    External,
}

impl OpponentKind {
    /// A bundled id (`random`, `heuristic`, `search`, `network`, `network_search`), or
    /// `external` when `external` is allowed. Whether the game has the network levels is asked
    /// when the opponent is built (`TwoPlayer::bundled_opponent`).
    pub fn parse(id: &str, external: bool) -> Result<OpponentKind> {
        Ok(match id {
            "random" => OpponentKind::Random,
            "heuristic" => OpponentKind::Heuristic,
            "search" => OpponentKind::Search,
            "network" => OpponentKind::Network,
            "network_search" => OpponentKind::NetworkSearch,
            "external" if external => OpponentKind::External,
            _ => {
                return Err(Error::BadOption(format!(
                    "opponent must be 'random', 'heuristic', 'search', 'network', 'network_search', \
                     'network@FILE' or 'network_search@FILE', got '{id}'"
                )))
            }
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            OpponentKind::Random => "random",
            OpponentKind::Heuristic => "heuristic",
            OpponentKind::Search => "search",
            OpponentKind::Network => "network",
            OpponentKind::NetworkSearch => "network_search",
            OpponentKind::External => "external",
        }
    }
}

/// The opponent of an environment: its kind, the search budget (ignored by the others) and, for a
/// network level, the weight file it plays instead of the registered network (`network@FILE`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opponent {
    pub kind: OpponentKind,
    pub budget: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<OpponentFile>,
}

/// The weight file of a `network@FILE` opponent: its path, and which reading of it this process
/// plays (none in a setup restored from a save: the file's last reading, or a new one). Two are
/// equal when their paths are (the same id, as a restored setup is to the one saved).
#[derive(Clone, Debug, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OpponentFile {
    pub path: String,
    #[serde(skip)]
    pub index: Option<usize>,
}

impl PartialEq for OpponentFile {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl Opponent {
    /// A bundled opponent (or `External`) of `budget` simulations a searched decision.
    pub fn bundled(kind: OpponentKind, budget: u32) -> Opponent {
        Opponent { kind, budget, file: None }
    }

    /// The opponent of an id: a bundled one (`OpponentKind::parse`), or `network@FILE` /
    /// `network_search@FILE`, whose file is read now (again if it changed since this process
    /// read it) and refused if it is not a network of `T`.
    pub fn parse<T: TwoPlayer>(id: &str, budget: u32, external: bool) -> Result<Opponent> {
        let Some((level, path)) = id.split_once('@') else {
            return Ok(Opponent { kind: OpponentKind::parse(id, external)?, budget, file: None });
        };
        let kind = match level {
            "network" => OpponentKind::Network,
            "network_search" => OpponentKind::NetworkSearch,
            _ => {
                return Err(Error::BadOption(format!(
                    "opponent '{id}': only network@FILE and network_search@FILE name a weight file"
                )))
            }
        };
        if path.is_empty() {
            return Err(Error::BadOption(format!("opponent '{id}': no file after '@'")));
        }
        let index = T::opponent_file(path, true)?;
        Ok(Opponent { kind, budget, file: Some(OpponentFile { path: path.to_string(), index: Some(index) }) })
    }

    /// The id it was parsed from.
    pub fn id(&self) -> String {
        match &self.file {
            Some(f) => format!("{}@{}", self.kind.as_str(), f.path),
            None => self.kind.as_str().to_string(),
        }
    }

    /// The agent that plays it, seeded (None for `External`, played from outside).
    pub fn agent<T: TwoPlayer>(&self, seed: u64) -> Result<Option<T::Agent>> {
        match (self.kind, &self.file) {
            (OpponentKind::External, _) => Ok(None),
            (kind, Some(f)) => {
                let index = match f.index {
                    Some(i) => i,
                    None => T::opponent_file(&f.path, false)?,
                };
                T::opponent_on_file(kind, index, self.budget, seed).map(Some)
            }
            (kind, None) => T::bundled_opponent(kind, self.budget, seed).map(Some),
        }
    }
}

/// Everything that decides a new episode besides its seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "", deserialize = ""))]
pub struct Setup<T: TwoPlayer> {
    pub scenario: T::Scenario,
    pub side: T::Side,
    pub opponent: Opponent,
}

impl<T: TwoPlayer> Default for Setup<T> {
    fn default() -> Setup<T> {
        Setup {
            scenario: T::Scenario::default(),
            side: T::DEFAULT_SIDE,
            opponent: Opponent::bundled(OpponentKind::Heuristic, T::DEFAULT_BUDGET),
        }
    }
}

impl<T: TwoPlayer> Setup<T> {
    /// This setup with the game's reset options applied (its scenario keys; with
    /// `side_and_opponent`, also `side` and `opponent`). Unknown keys and bad values are errors.
    pub fn with_options(&self, options: &Value, side_and_opponent: bool) -> Result<Setup<T>> {
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
                        out.side = T::parse_side(id)?;
                    } else {
                        out.opponent = Opponent::parse::<T>(id, out.opponent.budget, true)?;
                    }
                }
                _ => {
                    scenario.insert(k.clone(), v.clone());
                }
            }
        }
        out.scenario = T::scenario_from_options(&Value::Object(scenario))?;
        Ok(out)
    }
}

/// A game in progress against the opponent: the two-player state, the learner's side, and the
/// opponent with its own stream (None when it plays from outside).
#[derive(Clone, Debug, PartialEq)]
pub struct Match<T: TwoPlayer> {
    pub game: T::State,
    pub learner: T::Side,
    pub opponent: Option<T::Agent>,
}

impl<T: TwoPlayer> Match<T> {
    /// A new game of `setup` with game seed `g`, run up to the learner's first decision.
    pub fn new(setup: &Setup<T>, g: u64) -> Result<Match<T>> {
        let game = T::new_game(g, &setup.scenario)?;
        let mut m = Match { game, learner: setup.side, opponent: setup.opponent.agent::<T>(T::opponent_seed(g))? };
        m.advance();
        Ok(m)
    }

    /// The side to decide now (None once the game is over).
    pub fn to_move(&self) -> Option<T::Side> {
        T::to_move(&self.game)
    }

    /// Lets the bundled opponent decide until the learner is to move or the game is over.
    pub fn advance(&mut self) {
        self.advance_from(None);
    }

    /// `advance` from a state whose legal mask is `known` (when the game worked it out on the
    /// way); returns the mask of the state it stops at when known, so that none is computed twice.
    pub fn advance_from(&mut self, mut known: Option<T::Mask>) -> Option<T::Mask> {
        let Some(agent) = self.opponent.as_mut() else { return known };
        // Made only for an agent that reads the whole observation (`TwoPlayer::decide`).
        let mut obs = None;
        while let Some(side) = T::to_move(&self.game) {
            if side == self.learner {
                return known;
            }
            let mask = known.take().unwrap_or_else(|| T::legal_mask(&self.game));
            let a = T::decide(agent, &self.game, side, &mask, &mut obs);
            // The bundled agents pick from the mask; should one ever not, the game still goes on.
            let a = if mask.get(a) { a } else { mask.nth(0).unwrap_or(0) };
            if let Ok(action) = T::decode(a as i64) {
                // An action in the mask needs no second check.
                known = if mask.get(a) {
                    T::apply_allowed_mask(&mut self.game, action).ok().flatten()
                } else {
                    T::apply(&mut self.game, action).ok().and(None)
                };
            }
        }
        known
    }

    /// A decision of an external opponent (`OpponentKind::External`) while it is to move.
    pub fn apply_opponent(&mut self, action: i64) -> Result<()> {
        match T::to_move(&self.game) {
            Some(side) if side != self.learner => T::apply(&mut self.game, T::decode(action)?),
            Some(_) => Err(Error::BadOption("the opponent is not to move: the learner decides now".into())),
            None => Err(Error::GameOver),
        }
    }

    /// The learner's result, once the game is over.
    pub fn outcome(&self) -> Option<LearnerOutcome> {
        Some(match T::result(&self.game)? {
            None => LearnerOutcome::Draw,
            Some(winner) if winner == self.learner => LearnerOutcome::Win,
            Some(_) => LearnerOutcome::Loss,
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

/// What a finished episode is worth to the learner: an outcome table, or the game's margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rewards {
    /// win, draw, loss.
    Table([f64; 3]),
    /// The game's margin (`TwoPlayer::margin`); an illegal action (`terminate`) gives −1, the
    /// margin's floor.
    #[serde(alias = "vp_margin")]
    Margin,
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
            return Err(Error::BadOption("reward: a table and a margin cannot be mixed".into()));
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
    pub fn of<T: TwoPlayer>(&self, m: &Match<T>, outcome: LearnerOutcome, illegal: bool) -> f64 {
        match self {
            Rewards::Table(t) => t[outcome.idx()],
            Rewards::Margin if illegal => -1.0,
            Rewards::Margin => T::margin(&m.game, m.learner),
        }
    }
}

/// A match as versioned JSON (the game's save, the learner's side, the opponent and its stream).
pub fn save_match<T: TwoPlayer>(m: &Match<T>) -> String {
    let game: Value = serde_json::from_str(&T::save(&m.game)).expect("a save is JSON");
    json!({"format": T::MATCH_FORMAT, "version": 1, "learner": m.learner, "opponent": m.opponent, "game": game})
        .to_string()
}

/// A match from `save_match`'s JSON.
pub fn load_match<T: TwoPlayer>(text: &str) -> Result<Match<T>> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields, bound = "")]
    struct Saved<T: TwoPlayer> {
        format: String,
        version: u32,
        learner: T::Side,
        opponent: Option<T::Agent>,
        game: Value,
        /// An environment's streams (`save_state` of an env): read by the env, ignored here.
        #[serde(default)]
        #[allow(dead_code)]
        env_streams: Option<serde::de::IgnoredAny>,
    }
    let not_match = |e: serde_json::Error| Error::BadSave(format!("not a {} match save: {e}", T::TITLE));
    let v: Value = serde_json::from_str(text).map_err(not_match)?;
    // Every stream (the opponent's too) within the positions a save can write back.
    crate::versioned::check_streams(&v, "match")?;
    let s: Saved<T> = serde_json::from_value(v).map_err(not_match)?;
    if s.format != T::MATCH_FORMAT || s.version != 1 {
        return Err(Error::BadSave(format!(
            "format: '{}' version {} is not '{}' version 1",
            s.format,
            s.version,
            T::MATCH_FORMAT
        )));
    }
    Ok(Match { game: T::load(&s.game.to_string())?, learner: s.learner, opponent: s.opponent })
}

/// The two-player game `T` played by one learner against an opponent, for `env::Slot` and
/// `vector::Engine`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Versus<T>(PhantomData<T>);

impl<T: TwoPlayer> Game for Versus<T> {
    const NAME: &'static str = T::NAME;
    const NUM_ACTIONS: usize = T::NUM_ACTIONS;
    type Setup = Setup<T>;
    type State = Match<T>;
    type Action = T::Action;
    type Mask = T::Mask;
    type Outcome = LearnerOutcome;
    type Rewards = Rewards;
    /// The row holds the learner's observation of an earlier position of this game (written by
    /// `TwoPlayer::update_observation`).
    type Written = bool;

    fn obs_size() -> usize {
        T::OBSERVATION_SIZE
    }
    fn check_setup(setup: &Setup<T>) -> Result<()> {
        T::check_scenario(&setup.scenario)?;
        // A level the game cannot build (a network level with no network) is refused here, not
        // left to play as if external.
        setup.opponent.agent::<T>(0).map(drop)
    }
    fn new_game_into(setup: &Setup<T>, seed: u64, out: &mut Match<T>) -> Result<()> {
        *out = Match::new(setup, seed)?;
        Ok(())
    }
    fn placeholder() -> Match<T> {
        Match {
            game: T::new_game(0, &T::Scenario::default()).expect("the default game starts"),
            learner: T::DEFAULT_SIDE,
            opponent: None,
        }
    }
    fn decode(action: i64) -> Result<T::Action> {
        T::decode(action)
    }
    fn legal_mask(s: &Match<T>) -> T::Mask {
        T::legal_mask(&s.game)
    }
    fn is_legal(mask: &T::Mask, i: usize) -> bool {
        mask.get(i)
    }
    fn apply_legal(s: &mut Match<T>, a: T::Action) {
        // The slot calls this for an action its mask (`legal_mask` of this state) allows.
        if T::apply_allowed(&mut s.game, a).is_ok() {
            s.advance();
        }
    }
    fn apply_legal_mask(s: &mut Match<T>, a: T::Action) -> T::Mask {
        let known = match T::apply_allowed_mask(&mut s.game, a) {
            Ok(known) => s.advance_from(known),
            Err(_) => None,
        };
        known.unwrap_or_else(|| T::legal_mask(&s.game))
    }
    fn refusal(s: &Match<T>, action: i64) -> Error {
        let mut probe = s.game.clone();
        match T::decode(action).and_then(|a| T::apply(&mut probe, a)) {
            Err(e) => e,
            Ok(()) => Error::BadOption(format!("action {action} is legal here")),
        }
    }
    fn sample(mask: &T::Mask, rng: &mut ChaCha8Rng) -> Option<usize> {
        let n = mask.count();
        if n == 0 {
            return None;
        }
        mask.nth(draw::below(rng, n))
    }
    fn is_over(s: &Match<T>) -> bool {
        T::is_over(&s.game)
    }
    fn outcome(s: &Match<T>) -> Option<LearnerOutcome> {
        s.outcome()
    }
    fn illegal_outcome() -> LearnerOutcome {
        LearnerOutcome::Loss
    }
    fn outcome_code(o: LearnerOutcome) -> i8 {
        o.idx() as i8
    }
    fn terminal_reward(rewards: &Rewards, s: &Match<T>, outcome: LearnerOutcome, illegal: bool) -> f64 {
        rewards.of(s, outcome, illegal)
    }
    fn write_observation(s: &Match<T>, out: &mut [f32]) {
        T::write_observation(&s.game, s.learner, out)
    }
    const NOTHING_WRITTEN: bool = false;
    fn update_observation(_: Simd, s: &Match<T>, row: &mut [f32], written: &mut bool) {
        T::update_observation(&s.game, s.learner, row, *written);
        *written = true;
    }
    fn write_mask_bytes(_: Simd, mask: &T::Mask, out: &mut [u8]) {
        mask.write_bytes(out)
    }
    fn save(s: &Match<T>) -> String {
        save_match(s)
    }
    fn load(json: &str) -> Result<Match<T>> {
        load_match(json)
    }
    const POTENTIAL_TERMS: &'static [(&'static str, f64)] = T::POTENTIAL_TERMS;
    #[inline]
    fn potential_terms(s: &Match<T>, out: &mut [f64]) {
        T::potential_terms(&s.game, s.learner, out)
    }
}

/// Every two-player game also writes its rows as bytes.
impl<T: TwoPlayer> Observes<u8> for Versus<T> {
    fn write_observation_as(s: &Match<T>, out: &mut [u8]) {
        T::write_observation_bytes(&s.game, s.learner, out)
    }
    fn update_observation_as(_: Simd, s: &Match<T>, row: &mut [u8], written: &mut bool) {
        T::update_observation_bytes(&s.game, s.learner, row, *written);
        *written = true;
    }
}
