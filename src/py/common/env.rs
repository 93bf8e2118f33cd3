//! A single environment's bindings, written once for every game: `EnvCore<G>` (the configuration,
//! the slot, the observation type) and `env_class!`, which makes a game's `Env` class of it with
//! the shared methods and the game's own (its constructor, `reset` and `step` with their keyword
//! names, and what only that game has).

use super::convert::{json_to_py, new_array, parse_observation_dtype};
use super::save;
use super::BindGame;
use crate::env::{Config, Slot};
use crate::error::Error;
use numpy::PyArray1;
use pyo3::prelude::*;

/// Observation and int8 mask.
pub type ResetResult<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray1<i8>>);
/// Observation, int8 mask, reward, terminated, truncated, outcome, illegal.
pub type StepResult<'py> =
    (Bound<'py, PyAny>, Bound<'py, PyArray1<i8>>, f64, bool, bool, Option<&'static str>, bool);

/// One environment of `G`.
#[derive(Clone)]
pub struct EnvCore<G: BindGame> {
    pub cfg: Config<G>,
    pub slot: Slot<G>,
    /// Observations as uint8 (`observation_dtype`).
    pub bytes: bool,
    /// The shaping term of the last step (0 without shaping).
    pub last_shaping: f64,
}

impl<G: BindGame> EnvCore<G> {
    /// An environment of `cfg` waiting for its first reset.
    pub fn new(cfg: Config<G>) -> Self {
        EnvCore { cfg, slot: Slot::new(0), bytes: false, last_shaping: 0.0 }
    }

    /// The observation as a new array of `observation_dtype`.
    pub fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        let n = G::obs_size();
        if self.bytes {
            new_array::<u8>(py, n, |out| self.slot.write_observation(out)).into_any()
        } else {
            new_array::<f32>(py, n, |out| self.slot.write_observation(out)).into_any()
        }
    }

    /// The legal actions as a new array of 0/1 (int8 or bool).
    pub fn mask<'py, T: numpy::Element + From<bool>>(&self, py: Python<'py>) -> Bound<'py, PyArray1<T>> {
        new_array::<T>(py, G::NUM_ACTIONS, |out| self.slot.write_mask(out))
    }

    /// Starts a new episode of `setup` (the configuration's if None), first restarting the
    /// streams from `stream_seed` if given. Nothing changes on error.
    pub fn reset<'py>(&mut self, py: Python<'py>, stream_seed: Option<u64>, setup: Option<&G::Setup>) -> PyResult<ResetResult<'py>> {
        let mut slot = self.slot.clone();
        if let Some(seed) = stream_seed {
            slot.seed(seed);
        }
        slot.reset(setup.unwrap_or(&self.cfg.setup))?;
        self.slot = slot;
        Ok((self.observation(py), self.mask(py)))
    }

    /// Plays `action`.
    pub fn step<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<StepResult<'py>> {
        let t = self.slot.step(&self.cfg, action)?;
        self.last_shaping = t.shaping;
        Ok((self.observation(py), self.mask(py), t.reward, t.terminated, false, t.outcome.map(G::outcome_name), t.illegal))
    }

    pub fn set_observation_dtype(&mut self, dtype: &str) -> PyResult<()> {
        self.bytes = parse_observation_dtype(dtype)?;
        Ok(())
    }

    pub fn sample_action(&mut self) -> PyResult<usize> {
        self.slot.sample().ok_or_else(|| Error::GameOver.into())
    }

    pub fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &G::state_dict(self.slot.state()))
    }

    /// The game and the env's streams (episode and sampling) as versioned JSON.
    pub fn save_state(&self) -> String {
        let (episode, sample) = self.slot.streams();
        let streams = save::EnvStreams { episode: episode.clone(), sample: sample.clone(), presampled: None };
        save::with_streams(G::save(self.slot.state()), &streams)
    }

    /// Continues from a save (`BindGame::load_for_env`), with the env's streams when the save
    /// holds them (else they go on as they are); another game's save is refused by name.
    pub fn load_state(&mut self, json: &str) -> PyResult<()> {
        let (game, streams) = save::split_streams::<G>(json).map_err(|e| save::refusal::<G>(json, e))?;
        let state = G::load_for_env(&game, self.slot.state()).map_err(|e| save::refusal::<G>(json, e))?;
        self.slot.set_state(state);
        if let Some(s) = streams {
            self.slot.set_streams(s.episode, s.sample);
        }
        Ok(())
    }

    /// Everything (configuration, game, streams) as versioned JSON, for pickle.
    pub fn getstate(&self) -> String {
        crate::env::snapshot(&self.cfg, &self.slot)
    }

    pub fn setstate(&mut self, state: &str) -> PyResult<()> {
        let (cfg, slot) = crate::env::from_snapshot(state).map_err(|e| save::refusal::<G>(state, e))?;
        self.cfg = cfg;
        self.slot = slot;
        Ok(())
    }

    /// Sets the shaping of the steps from now on (see `vector::parse_shaping`).
    pub fn set_shaping(&mut self, shaping: Option<&str>) -> PyResult<()> {
        self.cfg.shaping = super::vector::parse_shaping::<G>(shaping)?;
        Ok(())
    }

    /// The shaping potential of the current state (None without shaping).
    pub fn potential(&self) -> Option<f64> {
        self.cfg.shaping.map(|s| s.potential::<G>(self.slot.state(), self.slot.done()))
    }
}

/// A game's `Env` class: `$name` holding an `EnvCore<$game>`, with the shared methods and the
/// game's own `$extra` ones (its `#[new]`, `reset` and `step` at least) in one `#[pymethods]`
/// block.
macro_rules! env_class {
    ($(#[$meta:meta])* $name:ident, $game:ty, { $($extra:tt)* }) => {
        $(#[$meta])*
        pub struct $name {
            core: $crate::py::common::env::EnvCore<$game>,
        }

        #[pyo3::pymethods]
        impl $name {
            $($extra)*

            /// The current observation, of `observation_dtype`.
            fn observation<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, pyo3::PyAny> {
                self.core.observation(py)
            }

            /// "float32" (the default) or "uint8": the type of the observations returned (uint8: each
            /// value's count, see `OBSERVATION_DIVISOR`). ValueError for any other.
            #[getter]
            fn get_observation_dtype(&self) -> &'static str {
                $crate::py::common::convert::observation_dtype(self.core.bytes)
            }
            #[setter]
            fn set_observation_dtype(&mut self, dtype: &str) -> pyo3::PyResult<()> {
                self.core.set_observation_dtype(dtype)
            }

            /// The legal actions as an int8 (NUM_ACTIONS,) mask (all 0 once the episode is over).
            fn action_mask<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<i8>> {
                self.core.mask(py)
            }

            /// The legal actions as a bool (NUM_ACTIONS,) mask (all False once the episode is over).
            fn action_masks<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<bool>> {
                self.core.mask(py)
            }

            /// The legal action indices in increasing order (empty once the episode is over).
            fn legal_actions(&self) -> Vec<usize> {
                self.core.slot.mask().iter().collect()
            }

            /// A uniformly random legal action from the sampling stream.
            ///
            /// Raises:
            ///     MaquisError: the episode is over.
            fn sample_action(&mut self) -> pyo3::PyResult<usize> {
                self.core.sample_action()
            }

            /// The full game state as plain Python data (`state_dict` of the game's docs/api page).
            fn state_dict<'py>(&self, py: pyo3::Python<'py>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                self.core.state_dict(py)
            }

            /// The game state as versioned JSON (exact: includes what is hidden and the RNGs, the
            /// env's own streams — resets and `sample_action` — among them).
            fn save_state(&self) -> String {
                self.core.save_state()
            }

            /// Replace the game by a saved one (from save_state). The episode is over iff that game is.
            ///
            /// Raises:
            ///     MaquisError: malformed or inconsistent JSON, or another game's save (naming it);
            ///     nothing changes then.
            fn load_state(&mut self, json: &str) -> pyo3::PyResult<()> {
                self.core.load_state(json)
            }

            /// An independent copy (configuration, game, streams).
            fn clone(&self) -> Self {
                $name { core: self.core.clone() }
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.clone()
            }

            /// Everything (configuration, game, streams) as versioned JSON, for pickle.
            fn __getstate__(&self) -> String {
                self.core.getstate()
            }

            fn __setstate__(&mut self, state: &str) -> pyo3::PyResult<()> {
                self.core.setstate(state)
            }

            /// True when the episode has ended (or before the first reset).
            #[getter]
            fn done(&self) -> bool {
                self.core.slot.done()
            }

            /// The phase's id.
            #[getter]
            fn phase(&self) -> &'static str {
                <$game as $crate::py::common::BindGame>::phase(self.core.slot.state())
            }

            /// The outcome once the game is over, else None.
            #[getter]
            fn outcome(&self) -> Option<&'static str> {
                <$game as $crate::game::Game>::outcome(self.core.slot.state())
                    .map(<$game as $crate::py::common::BindGame>::outcome_name)
            }

            /// "terminate" or "raise".
            #[getter]
            fn illegal_action(&self) -> &'static str {
                self.core.cfg.illegal.as_str()
            }

            /// The shaping term γ·Φ(s') − Φ(s) included in the last step's reward (0 without shaping).
            #[getter]
            fn last_shaping(&self) -> f64 {
                self.core.last_shaping
            }

            /// The shaping as JSON {"gamma": γ, "weights": {term: w}}, or None.
            #[getter]
            fn shaping(&self) -> Option<String> {
                crate::py::common::vector::shaping_json(&self.core.cfg)
            }

            /// Add potential-based shaping to the rewards of the steps from now on: the JSON of
            /// {"gamma": γ, "weights": {term: w}} (both optional), or None for the outcome reward alone.
            ///
            /// Raises:
            ///     MaquisError: unknown keys or terms, γ outside (0, 1], non-finite weights.
            #[pyo3(signature = (shaping=None))]
            fn set_shaping(&mut self, shaping: Option<&str>) -> pyo3::PyResult<()> {
                self.core.set_shaping(shaping)
            }

            /// The shaping potential Φ of the current state under this env's shaping (0 once the
            /// episode is over; None without shaping).
            fn potential(&self) -> Option<f64> {
                self.core.potential()
            }
        }
    };
}
