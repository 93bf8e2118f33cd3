//! Maurice Lite as a two-player game of the shared learner-against-opponent machinery
//! (`env::versus`): the learner plays one side and a bundled opponent (D1) the other, inside
//! `apply_legal` — its rounds, its card windows, fire and displacements during the learner's
//! round, with chance and Q0 steps run by the engine — so that every state handed back is one
//! where the learner decides (or the game is over).
//!
//! Seeding: the environment's episode stream gives each episode one game seed `g`; the dice,
//! cards and terrain streams are seeded with `g` (N1), the opponent's stream with
//! `opponent_seed(g)`. The opponent's draws never touch the game's (D3), and `sample()` uses the
//! environment's own sampling stream.
//!
//! Reset options (API.md "Reset options") are kept as the checked JSON mapping (`Scenario`) and
//! turned into the typed `setup::Setup` for each new game.

use super::action::{decode, Action, Mask};
use super::agents::view::View;
use super::agents::AnyAgent;
use super::cards::Card;
use super::grid::Cell;
use super::ids::{Facing, Formation, Outcome, ScenarioId, Side, UnitType, NUM_ACTIONS, OBSERVATION_SIZE};
use super::observation::{update_observation, write_observation};
use super::rules::{apply_action, legal_mask};
use super::save::{load_state, save_state};
use super::scenario::UnitSpec;
use super::setup::{new_game, CardsSetup, Setup as GameSetup, TerrainChoice};
use super::state::State;
use super::terrain::{Terrain, TerrainMap};
use crate::draw::splitmix64;
use crate::env::opponents::{Agent as _, Bundled};
use crate::env::versus::{self, TwoPlayer, Versus};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use crate::env::versus::{LearnerOutcome, Opponent, OpponentKind, Rewards};

/// The opponent's stream seed for the game seed `g` (API.md "Seeding": a fixed rule).
pub fn opponent_seed(g: u64) -> u64 {
    splitmix64(g ^ 0x3A0_121C_E000_0001)
}

/// The reset options of a game (API.md), checked: a mapping of `scenario`, `terrain`, `units`,
/// `cinc`, `morale`, `first`, `hands`/`deck`/`discard`/`removed`, `shuffles`, `dice`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Scenario {
    pub options: Map<String, Value>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadOption(msg.into())
}

fn id_of<'a>(key: &str, v: &'a Value) -> Result<&'a str> {
    v.as_str().ok_or_else(|| bad(format!("{key}: {v} is not an id")))
}

fn int_of(key: &str, v: &Value) -> Result<i64> {
    v.as_i64().ok_or_else(|| bad(format!("{key}: {v} is not an integer")))
}

fn list_of<'a>(key: &str, v: &'a Value) -> Result<&'a Vec<Value>> {
    v.as_array().ok_or_else(|| bad(format!("{key}: {v} is not a list")))
}

/// A per-side mapping (`{"blue": …, "red": …}`), both sides required.
fn per_side<T>(key: &str, v: &Value, mut f: impl FnMut(&str, &Value) -> Result<T>) -> Result<[T; 2]> {
    let obj = v.as_object().ok_or_else(|| bad(format!("{key}: {v} is not a mapping of sides")))?;
    if let Some(k) = obj.keys().find(|k| Side::parse(k).is_err()) {
        return Err(bad(format!("{key}: '{k}' is not a side ('blue', 'red')")));
    }
    let get = |side: Side| obj.get(side.as_str()).ok_or_else(|| bad(format!("{key}: no entry for {side}")));
    let blue = f(&format!("{key}.blue"), get(Side::Blue)?)?;
    let red = f(&format!("{key}.red"), get(Side::Red)?)?;
    Ok([blue, red])
}

fn cell_of(key: &str, v: &Value) -> Result<Cell> {
    let l = list_of(key, v)?;
    if l.len() != 2 {
        return Err(bad(format!("{key}: {v} is not [x, y]")));
    }
    let (x, y) = (int_of(key, &l[0])?, int_of(key, &l[1])?);
    let c = Cell::new(x.clamp(-1, 127) as i8, y.clamp(-1, 127) as i8);
    if !c.on_table() || x != c.x as i64 || y != c.y as i64 {
        return Err(bad(format!("{key}: ({x}, {y}) is off the table")));
    }
    Ok(c)
}

fn cards_of(key: &str, v: &Value) -> Result<Vec<Card>> {
    list_of(key, v)?
        .iter()
        .map(|c| Card::parse(id_of(key, c)?).map_err(|_| bad(format!("{key}: {c} is not a card id"))))
        .collect()
}

fn unit_of(key: &str, v: &Value) -> Result<UnitSpec> {
    let o = v.as_object().ok_or_else(|| bad(format!("{key}: {v} is not a unit mapping")))?;
    const KEYS: [&str; 8] = ["id", "type", "formation", "x", "y", "facing", "disr", "smoke"];
    if let Some(k) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(bad(format!("{key}: unknown unit key '{k}'")));
    }
    let need = |k: &str| o.get(k).ok_or_else(|| bad(format!("{key}: a unit needs '{k}'")));
    fn parsed<T>(key: &str, what: &str, v: &Value, f: fn(&str) -> Result<T>) -> Result<T> {
        let id = id_of(&format!("{key}.{what}"), v)?;
        f(id).map_err(|_| bad(format!("{key}.{what}: '{id}' is not a {what} id")))
    }
    let id = int_of(&format!("{key}.id"), need("id")?)?;
    if !(0..16).contains(&id) {
        return Err(bad(format!("{key}.id: {id} is not in 0–15")));
    }
    let kind = parsed(key, "type", need("type")?, UnitType::parse)?;
    let formation = parsed(key, "formation", need("formation")?, Formation::parse)?;
    let facing = parsed(key, "facing", need("facing")?, Facing::parse)?;
    let at = cell_of(&format!("{key}.x, y"), &Value::Array(vec![need("x")?.clone(), need("y")?.clone()]))?;
    let disr = match o.get("disr") {
        None => 0,
        Some(d) => {
            let n = int_of(&format!("{key}.disr"), d)?;
            if !(0..=4).contains(&n) {
                return Err(bad(format!("{key}.disr: {n} is not in 0–4")));
            }
            n as u8
        }
    };
    let smoke = match o.get("smoke") {
        None => false,
        Some(s) => s.as_bool().ok_or_else(|| bad(format!("{key}.smoke: {s} is not a bool")))?,
    };
    Ok(UnitSpec { id: id as u8, kind, formation, at, facing, disr, smoke })
}

impl Scenario {
    /// The reset options `options` (a mapping), checked key by key and as a whole.
    pub fn from_options(options: &Value) -> Result<Scenario> {
        let options = match options {
            Value::Null => Map::new(),
            Value::Object(o) => o.clone(),
            _ => return Err(bad("options must be a mapping")),
        };
        let s = Scenario { options };
        let setup = s.setup()?;
        new_game(0, &setup)?;
        Ok(s)
    }

    /// The typed setup of these options.
    pub fn setup(&self) -> Result<GameSetup> {
        let mut out = GameSetup::default();
        let o = &self.options;
        let card_keys = ["hands", "deck", "discard", "removed"];
        for (k, v) in o {
            match k.as_str() {
                "scenario" => {
                    out.scenario = ScenarioId::parse(id_of(k, v)?)
                        .map_err(|_| bad(format!("scenario: {v} is not 'standard' or 'skirmish'")))?
                }
                "terrain" => {
                    out.terrain = match v {
                        Value::String(t) if t == "scenario" => TerrainChoice::Scenario,
                        Value::String(t) if t == "random" => TerrainChoice::Random,
                        Value::Object(_) => {
                            let map: TerrainMap = serde_json::from_value(v.clone())
                                .map_err(|e| bad(format!("terrain: not a map {{rows, hills, walls}}: {e}")))?;
                            TerrainChoice::Map(Box::new(Terrain::try_from(&map)?))
                        }
                        _ => return Err(bad(format!("terrain: {v} is not 'scenario', 'random' or a map"))),
                    }
                }
                "units" => {
                    out.units = Some(per_side(k, v, |key, l| {
                        list_of(key, l)?.iter().enumerate().map(|(i, u)| unit_of(&format!("{key}[{i}]"), u)).collect()
                    })?)
                }
                "cinc" => out.cinc = Some(per_side(k, v, cell_of)?),
                "morale" => {
                    out.morale = Some(per_side(k, v, |key, m| {
                        let n = int_of(key, m)?;
                        u8::try_from(n).map_err(|_| bad(format!("{key}: {n} is not a morale")))
                    })?)
                }
                "first" => out.first = Some(Side::parse(id_of(k, v)?).map_err(|_| bad(format!("first: {v} is not 'blue' or 'red'")))?),
                "shuffles" => {
                    out.shuffles =
                        list_of(k, v)?.iter().enumerate().map(|(i, l)| cards_of(&format!("shuffles[{i}]"), l)).collect::<Result<_>>()?
                }
                "dice" => {
                    out.dice = list_of(k, v)?
                        .iter()
                        .map(|d| match d.as_i64() {
                            Some(n @ 1..=6) => Ok(n as u8),
                            _ => Err(bad(format!("dice: {d} is not a die (1–6)"))),
                        })
                        .collect::<Result<_>>()?
                }
                k if card_keys.contains(&k) => {}
                other => {
                    return Err(bad(format!(
                        "unknown reset option '{other}' (known: scenario, terrain, units, cinc, morale, first, hands, deck, discard, removed, shuffles, dice)"
                    )))
                }
            }
        }
        if card_keys.iter().any(|k| o.contains_key(*k)) {
            let (Some(hands), Some(deck)) = (o.get("hands"), o.get("deck")) else {
                return Err(bad("hands and deck must be given together (discard and removed with them)"));
            };
            let list = |k: &str| o.get(k).map_or(Ok(Vec::new()), |v| cards_of(k, v));
            out.cards = Some(CardsSetup {
                hands: per_side("hands", hands, cards_of)?,
                deck: cards_of("deck", deck)?,
                discard: list("discard")?,
                removed: list("removed")?,
            });
        }
        Ok(out)
    }
}

/// The two-player game of Maurice Lite, for `env::versus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MauriceLite;

impl TwoPlayer for MauriceLite {
    const NAME: &'static str = "maurice";
    const TITLE: &'static str = "Maurice Lite";
    const MATCH_FORMAT: &'static str = MATCH_FORMAT;
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = OBSERVATION_SIZE;
    const DEFAULT_SIDE: Side = Side::Blue;
    const DEFAULT_BUDGET: u32 = super::agents::search::DEFAULT_BUDGET;
    type ObservationBuffer = Box<[f32]>;

    crate::two_player_rules! {
        types: Side, Scenario, State, Action, Mask, AnyAgent;
        other => Side::other, is_over => State::is_over,
        decode, legal_mask, apply => apply_action, apply_allowed => super::rules::apply_allowed,
        apply_allowed_mask => super::rules::apply_allowed_mask,
        write_observation, write_observation_bytes => write_observation,
        update_observation, update_observation_bytes => update_observation,
        save => save_state, load => load_state, opponent_seed, networks => super::agents::network::MauriceNet,
    }
    fn parse_side(id: &str) -> Result<Side> {
        Side::parse(id).map_err(|_| bad(format!("side must be 'blue' or 'red', got '{id}'")))
    }
    fn new_game(seed: u64, scenario: &Scenario) -> Result<State> {
        new_game(seed, &scenario.setup()?)
    }
    fn check_scenario(scenario: &Scenario) -> Result<()> {
        new_game(0, &scenario.setup()?).map(drop)
    }
    fn scenario_from_options(options: &Value) -> Result<Scenario> {
        Scenario::from_options(options)
    }
    fn to_move(s: &State) -> Option<Side> {
        s.to_move
    }
    fn result(s: &State) -> Option<Option<Side>> {
        Some(match s.outcome? {
            Outcome::Draw => None,
            Outcome::Blue => Some(Side::Blue),
            Outcome::Red => Some(Side::Red),
        })
    }
    fn margin(s: &State, side: Side) -> f64 {
        morale_margin(s, side)
    }
    /// The ground covered towards the enemy (what an army that never attacks lacks: against an
    /// enemy that stays home the game runs down to nightfall, E2), the morale margin, and the
    /// wear margin (hits tell at once, where morale falls only when a unit breaks).
    const POTENTIAL_TERMS: &'static [(&'static str, f64)] = &[("advance", 0.5), ("morale", 1.0), ("wear", 0.5)];
    #[inline]
    fn potential_terms(s: &State, side: Side, out: &mut [f64]) {
        out[0] = 1.0 - f64::from(super::agents::search::ground_left(s, side));
        out[1] = morale_margin(s, side);
        out[2] = wear(s, side.other()) - wear(s, side);
    }
    fn observation_buffer() -> Box<[f32]> {
        // 21334 floats: too large for the stack of a worker thread many times over.
        vec![0.0; OBSERVATION_SIZE].into_boxed_slice()
    }
    fn decide(agent: &mut AnyAgent, s: &State, side: Side, mask: &Mask, obs: &mut Option<Box<[f32]>>) -> usize {
        match agent {
            // Random play reads no observation, and the heuristic its view of the compact part,
            // read off the state instead (`View::observed`): only the agents that read the maps
            // have them written.
            Bundled::Random(a) => a.act(&[], mask),
            Bundled::Heuristic(h) => h.act_view(&View::observed(s, side), mask),
            _ => {
                let obs = obs.get_or_insert_with(Self::observation_buffer);
                write_observation(s, side, &mut obs[..]);
                agent.act(obs, mask)
            }
        }
    }
}

/// API.md `"morale_margin"`: own morale left over own starting morale, less the same for the
/// enemy, in [−1, 1].
pub fn morale_margin(s: &State, side: Side) -> f64 {
    let share = |side: Side| {
        let a = s.army(side);
        a.morale as f64 / a.morale_start.max(1) as f64
    };
    share(side) - share(side.other())
}

/// How worn `side`'s army is, 0..1: per unit it deployed, its DISR over the DISR that breaks it
/// (a broken unit 1), over all of them.
pub fn wear(s: &State, side: Side) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for u in s.army(side).units.iter().filter(|u| u.present) {
        n += 1;
        sum += if u.on_table { f64::from(u.disr) / f64::from(u.kind.broken_at()) } else { 1.0 };
    }
    sum / f64::from(n.max(1))
}

/// Maurice Lite played by one learner against an opponent, for `env::Slot<Maurice>` and
/// `vector::Engine<Maurice>`.
pub type Maurice = Versus<MauriceLite>;
/// Everything that decides a new episode besides its seed: the reset options, the learner's
/// side, the opponent.
pub type Setup = versus::Setup<MauriceLite>;
/// A game in progress against the opponent.
pub type Match = versus::Match<MauriceLite>;

/// The save format of a `Match` (the game's own save, plus the learner and the opponent).
pub const MATCH_FORMAT: &str = "maquis.maurice.match";

pub type EnvSlot = crate::env::Slot<Maurice>;
pub type EnvConfig = crate::env::Config<Maurice>;
pub type VecEngine = crate::vector::Engine<Maurice>;
