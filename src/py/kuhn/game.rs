//! `maquis._core.kuhn.Game`: the two-player game (both sides decide from outside), for a
//! PettingZoo AEC env. The methods every two-player game has are `game_class!`'s; here what only
//! Kuhn poker has.

use crate::error::Error;
use crate::kuhn::env::KuhnPoker;
use crate::kuhn::save::{load_state, save_state};
use crate::kuhn::{apply, new_game, write_observation_as, Scenario, Side, State, NUM_ACTIONS, OBSERVATION_SIZE};
use crate::py::common::convert::new_array;
use crate::py::errors::action_index_of;
use numpy::PyArray1;
use pyo3::prelude::*;

/// A hand of Kuhn poker between two outside players: each `step` is one decision of the side to
/// move.
#[pyclass(name = "Game", module = "maquis._core.kuhn")]
#[derive(Clone)]
pub struct PyGame {
    state: State,
}

game_class! { PyGame, KuhnPoker, side = Side::from_id, {
    /// A hand dealt with game seed 0 (call `reset` for a seeded one).
    #[new]
    fn new() -> PyResult<Self> {
        Ok(PyGame { state: new_game(0, &Scenario::default())? })
    }

    /// A new hand: the deal of game seed `seed` (rules N1), or the cards of the reset options
    /// (JSON `{"cards": ["K", "J"]}`, N2). Nothing changes on error.
    ///
    /// Raises:
    ///     MaquisError: unknown keys, bad or equal cards.
    #[pyo3(signature = (seed, options_json=None))]
    fn reset(&mut self, seed: u64, options_json: Option<&str>) -> PyResult<()> {
        let options = match options_json {
            None => serde_json::Value::Null,
            Some(j) => serde_json::from_str(j).map_err(|e| Error::BadOption(format!("options: {e}")))?,
        };
        self.state = new_game(seed, &Scenario::from_json(&options)?)?;
        Ok(())
    }

    /// One decision of the side to move: 0 `pass`, 1 `bet`.
    ///
    /// Raises:
    ///     TypeError: not an integer. MaquisError: out of range, or the hand is over.
    fn step(&mut self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        Ok(apply(&mut self.state, action_index_of(index, NUM_ACTIONS)?)?)
    }

    /// `side`'s payoff in chips (±1 or ±2) once the hand is over, else None.
    fn payoff(&self, side_id: &str) -> PyResult<Option<i8>> {
        Ok(self.state.payoff(Side::from_id(side_id)?))
    }

    /// `side`'s observation, float32 (13,): it never shows the other side's card (O1).
    fn observation<'py>(&self, py: Python<'py>, side_id: &str) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let side = Side::from_id(side_id)?;
        Ok(new_array(py, OBSERVATION_SIZE, |out: &mut [f32]| write_observation_as(&self.state, side, out)))
    }

    fn __getstate__(&self) -> String {
        save_state(&self.state)
    }
    fn __setstate__(&mut self, json: &str) -> PyResult<()> {
        self.state = load_state(json)?;
        Ok(())
    }
}}
