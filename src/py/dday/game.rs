//! `maquis._core.dday.Game`: the two-player game (both sides decide from outside), for the
//! PettingZoo AEC env `maquis.dday.raw_env`. The methods every two-player game has are
//! `game_class!`'s; here what only D-Day has.

use super::convert::{action, obs_array, options, side};
use crate::dday::env::DDay1944;
use crate::dday::rules::{apply, new_game};
use crate::dday::save::save_state;
use crate::dday::scenario::Scenario;
use crate::dday::state::State;
use numpy::PyArray1;
use pyo3::prelude::*;

/// A game of D-Day 1944 between two outside players: each `step` is one decision of the side
/// to move (Q1); chance and single-option decisions (Q0) run inside it, never an allocation step
/// (the German decides all 11).
#[pyclass(name = "Game", module = "maquis._core.dday")]
#[derive(Clone)]
pub struct PyGame {
    state: State,
}

game_class! { PyGame, DDay1944, side = side, {
    /// A game seeded with 0, waiting at the allocation (call `reset` for a seeded one).
    #[new]
    fn new() -> PyResult<Self> {
        Ok(PyGame { state: new_game(0, &Scenario::default())? })
    }

    /// A new game: the dice stream seeded with `seed`, `options` (JSON of the reset options
    /// `allocation`, `attack`, `first`, `dice`) applied. Nothing changes on error.
    ///
    /// Raises:
    ///     MaquisError: unknown keys, bad ids or values the rules refuse.
    #[pyo3(signature = (seed, options_json=None))]
    fn reset(&mut self, seed: u64, options_json: Option<&str>) -> PyResult<()> {
        let sc = Scenario::from_json(&options(options_json)?)?;
        self.state = new_game(seed, &sc)?;
        Ok(())
    }

    /// One decision of the side to move.
    ///
    /// Raises:
    ///     TypeError: not an integer. MaquisError: out of range, or the game is over.
    ///     IllegalActionError: illegal now (names the action and the phase); nothing changes.
    fn step(&mut self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        Ok(apply(&mut self.state, action(index)?)?)
    }

    /// (Resistance VP, German VP).
    fn vp(&self) -> (u16, u16) {
        self.state.vp_totals()
    }

    /// `side`'s observation, float32 (380,).
    fn observation<'py>(&self, py: Python<'py>, side_id: &str) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(obs_array(py, &self.state, side(side_id)?))
    }

    fn __getstate__(&self) -> String {
        save_state(&self.state)
    }
    fn __setstate__(&mut self, json: &str) -> PyResult<()> {
        self.load_state(json)
    }
}}
