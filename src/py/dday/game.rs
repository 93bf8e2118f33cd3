//! `maquis._core.dday.Game`: the two-player game (both sides decide from outside), for the
//! PettingZoo AEC env `maquis.dday.raw_env`.

use crate::py::common::convert::json_to_py;
use super::convert::{action, mask_array, obs_array, options, side};
use crate::dday::rules::{apply, legal_mask, new_game};
use crate::dday::env::DDay;
use crate::dday::save::{load_state, save_state};
use crate::py::common::save::refusal;
use crate::dday::scenario::Scenario;
use crate::dday::state::State;
use crate::dday::view::state_dict;
use numpy::PyArray1;
use pyo3::prelude::*;

/// A game of D-Day 1944 between two outside players: each `step` is one decision of the side
/// to move (Q1); chance and single-option decisions (Q0) run inside it.
#[pyclass(name = "Game", module = "maquis._core.dday")]
#[derive(Clone)]
pub struct PyGame {
    state: State,
}

#[pymethods]
impl PyGame {
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

    /// The side to decide ("resistance" or "german"), None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        self.state.to_move().map(|s| s.as_str())
    }

    #[getter]
    fn phase(&self) -> &'static str {
        self.state.phase.as_str()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// "resistance", "german" or "draw" once the game is over, else None.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.state.outcome.map(|o| o.as_str())
    }

    /// "win", "draw" or "loss" from `side`'s view once the game is over, else None.
    fn outcome_for(&self, side_id: &str) -> PyResult<Option<&'static str>> {
        Ok(self.state.outcome_for(side(side_id)?))
    }

    /// (Resistance VP, German VP).
    fn vp(&self) -> (u16, u16) {
        self.state.vp_totals()
    }

    /// `side`'s observation, float32 (380,).
    fn observation<'py>(&self, py: Python<'py>, side_id: &str) -> PyResult<Bound<'py, PyArray1<f32>>> {
        Ok(obs_array(py, &self.state, side(side_id)?))
    }

    /// The legal actions of the side to move, int8 (191,) (all 0 once the game is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        mask_array(py, &legal_mask(&self.state))
    }

    fn legal_actions(&self) -> Vec<usize> {
        legal_mask(&self.state).iter().collect()
    }

    /// The full state as plain Python data (`state_dict` of docs/api/dday1944.md).
    fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &state_dict(&self.state))
    }

    /// The game as versioned JSON (exact: the dice stream included).
    fn save_state(&self) -> String {
        save_state(&self.state)
    }

    /// Replace the game by a saved one.
    ///
    /// Raises:
    ///     MaquisError: malformed or inconsistent JSON (the message names the field); nothing
    ///     changes then.
    fn load_state(&mut self, json: &str) -> PyResult<()> {
        // Another game's save is refused by name.
        self.state = load_state(json).map_err(|e| refusal::<DDay>(json, e))?;
        Ok(())
    }

    fn clone(&self) -> Self {
        Clone::clone(self)
    }
    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }
    fn __getstate__(&self) -> String {
        save_state(&self.state)
    }
    fn __setstate__(&mut self, json: &str) -> PyResult<()> {
        self.load_state(json)
    }
    fn __repr__(&self) -> String {
        format!("dday.Game(phase={:?}, to_move={:?})", self.state.phase.as_str(), self.to_move())
    }
}
