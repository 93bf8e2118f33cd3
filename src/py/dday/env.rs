//! `maquis._core.dday.Env`: one learner against an opponent (`env::Slot<DDay>`), for
//! `maquis.dday.DDayEnv`. A bundled opponent plays inside `step`; an `external` one (a Python
//! object) is played by the caller through `apply_opponent` whenever `opponent_to_move`.

use super::super::env::json_to_py;
use super::convert::{action, config, mask_array, obs_array, options, rewards_repr};
use crate::dday::env::{load_match, DDay, EnvConfig, EnvSlot, LearnerOutcome, Match};
use crate::dday::save::load_state;
use crate::dday::view::state_dict;
use crate::env::{from_snapshot, snapshot};
use crate::error::Error;
use crate::game::Game;
use numpy::PyArray1;
use pyo3::prelude::*;
use std::collections::HashMap;

/// Observation, int8 mask.
type ResetResult<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>);
/// An observation and a bool mask.
type View<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>);
/// Observation, int8 mask, reward, terminated, truncated, outcome, illegal.
type StepResult<'py> =
    (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>, f64, bool, bool, Option<&'static str>, bool);

/// One D-Day environment: the learner's side, the opponent, the game and the seeded streams.
/// The engine behind `maquis.dday.DDayEnv`; see that class for the contract.
#[pyclass(name = "Env", module = "maquis._core.dday")]
pub struct PyDDayEnv {
    cfg: EnvConfig,
    slot: EnvSlot,
}

impl PyDDayEnv {
    fn learner_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let m = self.slot.state();
        obs_array(py, &m.game, m.learner)
    }
}

#[pymethods]
impl PyDDayEnv {
    /// Args:
    ///     side: "resistance" or "german" (the learner).
    ///     opponent: "random", "heuristic", "search", or "external" (played by the caller).
    ///     budget: the search opponent's simulations per decision.
    ///     reward: {"win", "draw", "loss"} -> float (missing keys keep 1, 0, -1).
    ///     vp_margin: the reward is (own VP - opponent VP) / 150 instead.
    ///     illegal_action: "terminate" or "raise".
    #[new]
    #[pyo3(signature = (*, side="resistance", opponent="heuristic", budget=200, reward=None, vp_margin=false, illegal_action="terminate"))]
    fn new(
        side: &str,
        opponent: &str,
        budget: u32,
        reward: Option<HashMap<String, f64>>,
        vp_margin: bool,
        illegal_action: &str,
    ) -> PyResult<Self> {
        let cfg = config(side, opponent, budget, reward, vp_margin, illegal_action, true)?;
        Ok(PyDDayEnv { cfg, slot: EnvSlot::new(0) })
    }

    /// Start a new episode (an external opponent's first decisions are left to the caller).
    ///
    /// Args:
    ///     stream_seed: if given, first restart the episode and sampling streams from it.
    ///     options: JSON of the reset options (allocation, attack, first, dice, side, opponent).
    ///
    /// Raises:
    ///     MaquisError: unknown keys, bad ids or values. Nothing changes then.
    #[pyo3(signature = (stream_seed=None, options_json=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        stream_seed: Option<u64>,
        options_json: Option<&str>,
    ) -> PyResult<ResetResult<'py>> {
        let setup = self.cfg.setup.with_options(&options(options_json)?, true)?;
        let mut slot = self.slot.clone();
        if let Some(seed) = stream_seed {
            slot.seed(seed);
        }
        slot.reset(&setup)?;
        self.slot = slot;
        Ok((self.learner_obs(py), mask_array(py, self.slot.mask())))
    }

    /// The learner's decision, then the bundled opponent's up to the learner's next one.
    ///
    /// Returns:
    ///     (observation, mask int8, reward, terminated, truncated, outcome or None, illegal).
    ///
    /// Raises:
    ///     TypeError: not an integer. MaquisError: out of range, or the episode is over.
    ///     IllegalActionError: illegal, with illegal_action="raise" (nothing changes).
    fn step<'py>(&mut self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
        let a = action(index)?;
        if self.opponent_to_move() {
            return Err(Error::BadOption("the external opponent is to move: apply_opponent first".into()).into());
        }
        let t = self.slot.step(&self.cfg, a)?;
        Ok((
            self.learner_obs(py),
            mask_array(py, self.slot.mask()),
            t.reward,
            t.terminated,
            false,
            t.outcome.map(LearnerOutcome::as_str),
            t.illegal,
        ))
    }

    /// Whether an external opponent is to decide now.
    fn opponent_to_move(&self) -> bool {
        let m = self.slot.state();
        !self.slot.done() && m.to_move().is_some_and(|s| s != m.learner)
    }

    /// The opponent's observation and its legal actions (bool), while it is to move.
    fn opponent_view<'py>(&self, py: Python<'py>) -> PyResult<View<'py>> {
        let m = self.slot.state();
        let side = m.learner.other();
        Ok((obs_array(py, &m.game, side), mask_array(py, self.slot.mask())))
    }

    /// A decision of the external opponent (while `opponent_to_move`).
    ///
    /// Returns:
    ///     (reward, terminated, outcome or None): the learner's, when this decision ends the game.
    ///
    /// Raises:
    ///     MaquisError: not its turn, out of range; IllegalActionError: illegal (nothing changes).
    fn apply_opponent(&mut self, index: &Bound<'_, PyAny>) -> PyResult<(f64, bool, Option<&'static str>)> {
        let a = action(index)?;
        if !self.opponent_to_move() {
            return Err(Error::BadOption("the opponent is not to move".into()).into());
        }
        let mut m: Match = self.slot.state().clone();
        m.apply_opponent(a)?;
        self.slot.set_state(m);
        let m = self.slot.state();
        Ok(match m.outcome() {
            Some(o) => (DDay::terminal_reward(&self.cfg.rewards, m, o, false), true, Some(o.as_str())),
            None => (0.0, false, None),
        })
    }

    /// The learner's observation, float32 (380,).
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.learner_obs(py)
    }

    /// The legal actions now, int8 (191,) (all 0 once the episode is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        mask_array(py, self.slot.mask())
    }

    /// The legal actions now, bool (191,).
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, self.slot.mask())
    }

    fn legal_actions(&self) -> Vec<usize> {
        self.slot.mask().iter().collect()
    }

    /// A uniformly random legal action from the sampling stream.
    ///
    /// Raises:
    ///     MaquisError: the episode is over.
    fn sample_action(&mut self) -> PyResult<usize> {
        self.slot.sample().ok_or_else(|| Error::GameOver.into())
    }

    /// The full state as plain Python data (API.md `state_dict`).
    fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &state_dict(&self.slot.state().game))
    }

    /// The game, the learner and the opponent (with its stream) as versioned JSON.
    fn save_state(&self) -> String {
        DDay::save(self.slot.state())
    }

    /// Continue from `save_state()` (or from a two-player game's save, keeping this
    /// environment's learner and opponent).
    ///
    /// Raises:
    ///     MaquisError: malformed or inconsistent JSON; nothing changes then.
    fn load_state(&mut self, json: &str) -> PyResult<()> {
        let m = if json.contains("\"maquis.dday1944.match\"") {
            load_match(json)?
        } else {
            let current = self.slot.state();
            Match { game: load_state(json)?, learner: current.learner, opponent: current.opponent.clone() }
        };
        self.slot.set_state(m);
        Ok(())
    }

    fn clone(&self) -> Self {
        PyDDayEnv { cfg: self.cfg.clone(), slot: self.slot.clone() }
    }
    fn __copy__(&self) -> Self {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }
    /// Everything (configuration, game, opponent, streams) as versioned JSON, for pickle.
    fn __getstate__(&self) -> String {
        snapshot(&self.cfg, &self.slot)
    }
    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let (cfg, slot) = from_snapshot(state)?;
        self.cfg = cfg;
        self.slot = slot;
        Ok(())
    }

    /// True when the episode has ended (or before the first reset).
    #[getter]
    fn done(&self) -> bool {
        self.slot.done()
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.slot.state().game.phase.as_str()
    }
    /// The learner's side in the current episode.
    #[getter]
    fn side(&self) -> &'static str {
        self.slot.state().learner.as_str()
    }
    /// The side to decide, None once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        self.slot.state().to_move().map(|s| s.as_str())
    }
    /// The learner's "win", "draw" or "loss" once the game is over, else None.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.slot.state().outcome().map(LearnerOutcome::as_str)
    }
    /// (Resistance VP, German VP).
    fn vp(&self) -> (u16, u16) {
        self.slot.state().game.vp_totals()
    }
    /// The constructor's opponent id.
    #[getter]
    fn opponent(&self) -> &'static str {
        self.cfg.setup.opponent.kind.as_str()
    }
    #[getter]
    fn illegal_action(&self) -> &'static str {
        self.cfg.illegal.as_str()
    }
    /// {outcome: reward}, or None for "vp_margin".
    #[getter]
    fn reward(&self) -> Option<HashMap<&'static str, f64>> {
        rewards_repr(&self.cfg.rewards)
    }
    fn __repr__(&self) -> String {
        format!(
            "dday.Env(side={:?}, opponent={:?}, illegal_action={:?}, phase={:?})",
            self.cfg.setup.side.as_str(),
            self.cfg.setup.opponent.kind.as_str(),
            self.cfg.illegal.as_str(),
            self.phase()
        )
    }
}
