//! `maquis._core.maurice.Game`: the two-player game (both sides decide from outside), for the
//! PettingZoo AEC env `maquis.maurice.raw_env`. The methods every two-player game has are
//! `game_class!`'s; here what only Maurice Lite has.

use super::convert::{observation_kind, options, side};
use crate::error::Error;
use crate::maurice::env::{morale_margin, MauriceLite, Scenario};
use crate::maurice::ids::Side;
use crate::maurice::observation::{write_observation, ObservationKind};
use crate::maurice::rules::apply;
use crate::maurice::save::{load_state, save_state};
use crate::maurice::setup::new_game;
use crate::maurice::state::State;
use crate::py::common::convert::{new_array, observation_dtype, parse_observation_dtype};
use crate::py::errors::action_index_of;
use pyo3::prelude::*;
use serde_json::{json, Value};

/// A game of Maurice Lite between two outside players: each `step` is one decision of the side
/// to move (Q1); chance, automatic steps and single-option decisions (Q0) run inside it.
#[pyclass(name = "Game", module = "maquis._core.maurice")]
#[derive(Clone)]
pub struct PyGame {
    state: State,
    /// The constructor's `scenario` and `terrain`, which reset options without them keep.
    defaults: Scenario,
    kind: ObservationKind,
    /// Observations as uint8 (each value's count, see `OBSERVATION_DIVISOR`).
    bytes: bool,
}

impl PyGame {
    /// The reset options of `json` over the constructor's scenario and terrain.
    fn scenario_of(&self, json: Option<&str>) -> PyResult<Scenario> {
        let mut merged = self.defaults.options.clone();
        match options(json)? {
            Value::Null => {}
            Value::Object(o) => merged.extend(o),
            _ => return Err(Error::BadOption("options must be a mapping".into()).into()),
        }
        Ok(Scenario::from_options(&Value::Object(merged))?)
    }
}

game_class! { PyGame, MauriceLite, side = side, {
    /// A game seeded with 0 at its first decision (call `reset` for a seeded one).
    ///
    /// Args:
    ///     scenario: "standard" or "skirmish"; terrain: "scenario" or "random" (S5).
    ///     observation: "full" (21334 values) or "compact" (1084, no maps).
    ///     observation_dtype: "float32" or "uint8" (each value's count).
    #[new]
    #[pyo3(signature = (*, scenario="standard", terrain="scenario", observation="full", observation_dtype="float32"))]
    fn new(scenario: &str, terrain: &str, observation: &str, observation_dtype: &str) -> PyResult<Self> {
        let defaults = super::convert::scenario(scenario, terrain)?;
        Ok(PyGame {
            state: new_game(0, &defaults.setup()?)?,
            defaults,
            kind: observation_kind(observation)?,
            bytes: parse_observation_dtype(observation_dtype)?,
        })
    }

    /// A new game: the dice, cards and terrain streams seeded with `seed`, the reset options
    /// (JSON, API.md "Reset options") over the constructor's scenario and terrain. Nothing
    /// changes on error.
    ///
    /// Raises:
    ///     MaquisError: unknown keys, bad ids or values the rules refuse.
    #[pyo3(signature = (seed, options_json=None))]
    fn reset(&mut self, seed: u64, options_json: Option<&str>) -> PyResult<()> {
        let sc = self.scenario_of(options_json)?;
        self.state = new_game(seed, &sc.setup()?)?;
        Ok(())
    }

    /// One decision of the side to move.
    ///
    /// Raises:
    ///     TypeError: not an integer. MaquisError: out of range, or the game is over.
    ///     IllegalActionError: illegal now (names the action and the phase); nothing changes.
    fn step(&mut self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_index_of(index, crate::maurice::ids::NUM_ACTIONS)?;
        Ok(apply(&mut self.state, a)?)
    }

    /// Army morale left (blue, red).
    fn morale(&self) -> (u8, u8) {
        (self.state.army(Side::Blue).morale, self.state.army(Side::Red).morale)
    }

    /// `side`'s `"morale_margin"` reward: own morale left / own start − the same for the enemy.
    fn morale_margin(&self, side_id: &str) -> PyResult<f64> {
        Ok(morale_margin(&self.state, side(side_id)?))
    }

    /// "full" or "compact".
    #[getter]
    fn observation_kind(&self) -> &'static str {
        match self.kind {
            ObservationKind::Full => "full",
            ObservationKind::Compact => "compact",
        }
    }

    /// "float32" or "uint8".
    #[getter]
    fn observation_dtype(&self) -> &'static str {
        observation_dtype(self.bytes)
    }

    /// `side`'s observation: float32 or uint8, 21334 values (1084 compact).
    fn observation<'py>(&self, py: Python<'py>, side_id: &str) -> PyResult<Bound<'py, PyAny>> {
        let me = side(side_id)?;
        let n = self.kind.size();
        Ok(if self.bytes {
            new_array::<u8>(py, n, |out| write_observation(&self.state, me, out)).into_any()
        } else {
            new_array::<f32>(py, n, |out| write_observation(&self.state, me, out)).into_any()
        })
    }

    /// The game and the constructor's settings, as JSON (pickling).
    fn __getstate__(&self) -> String {
        json!({
            "defaults": self.defaults,
            "observation": self.observation_kind(),
            "observation_dtype": self.observation_dtype(),
            "game": save_state(&self.state),
        })
        .to_string()
    }
    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let bad = |e: String| Error::BadSave(format!("maurice.Game state: {e}"));
        let v: Value = serde_json::from_str(state).map_err(|e| bad(e.to_string()))?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).ok_or_else(|| bad(format!("no '{k}' string")));
        let defaults = v.get("defaults").ok_or_else(|| bad("no 'defaults'".into()))?;
        let defaults: Scenario = serde_json::from_value(defaults.clone()).map_err(|e| bad(format!("defaults: {e}")))?;
        let kind = observation_kind(text("observation")?)?;
        let bytes = parse_observation_dtype(text("observation_dtype")?)?;
        let game = load_state(text("game")?)?;
        *self = PyGame { state: game, defaults: Scenario::from_options(&Value::Object(defaults.options))?, kind, bytes };
        Ok(())
    }
}}
