//! `maquis._core.Env`: one environment (`vector::EnvSlot`) for `maquis.MaquisEnv`. Type
//! conversion only; the episode rules are in `vector.rs`.

use super::errors::action_index;
use crate::action::NUM_ACTIONS;
use crate::error::Result;
use crate::ids::{Deal, Difficulty, MissionId, MissionPool, Outcome};
use crate::observation::obs_size;
use crate::rules::Setup;
use crate::save;
use crate::env::Shaping;
use crate::maquis::env::Maquis;
use crate::vector::{env_from_snapshot, env_snapshot, EnvConfig, EnvSlot, IllegalPolicy, ResetOptions, Rewards};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use serde_json::Value;
use std::collections::HashMap;

/// The configuration from the constructor keywords shared by `Env` and `VecEngine`.
pub(crate) fn config(
    difficulty: &str,
    mission_pool: &str,
    deal: &str,
    missions: Option<Vec<String>>,
    reward: Option<HashMap<String, f64>>,
    illegal_action: &str,
) -> Result<EnvConfig> {
    let missions = missions
        .map(|ms| ms.iter().map(|m| MissionId::parse(m)).collect::<Result<Vec<_>>>())
        .transpose()?;
    let setup = Setup {
        difficulty: Difficulty::parse(difficulty)?,
        mission_pool: MissionPool::parse(mission_pool)?,
        deal: Deal::parse(deal)?,
        missions,
        patrol_deck: None,
        start: None,
    };
    setup.validate()?;
    let mut rewards = Rewards::default();
    for (outcome, value) in reward.unwrap_or_default() {
        rewards = rewards.with(&outcome, value)?;
    }
    EnvConfig::new(setup, rewards, IllegalPolicy::parse(illegal_action)?)
}

/// `cfg` with the `shaping` keyword's JSON (None: no shaping), validated.
pub(crate) fn with_shaping(mut cfg: EnvConfig, shaping: Option<&str>) -> Result<EnvConfig> {
    cfg.shaping = shaping.map(Shaping::from_json::<Maquis>).transpose()?;
    Ok(cfg)
}

/// The shaping of `cfg` as JSON (`{"gamma": γ, "weights": {term: w}}`), or None.
pub(crate) fn shaping_json(cfg: &EnvConfig) -> Option<String> {
    cfg.shaping.map(|s| s.to_json::<Maquis>().to_string())
}

/// The setup of one reset: the constructor's, with `options` (JSON) applied.
pub(crate) fn reset_setup(cfg: &EnvConfig, options: Option<&str>) -> Result<Option<Setup>> {
    options
        .map(|json| ResetOptions::from_json(json)?.setup(&cfg.setup))
        .transpose()
}

/// A JSON value as plain Python objects (dict, list, str, int, float, bool, None).
pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            _ => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            PyList::new(py, a.iter().map(|x| json_to_py(py, x)).collect::<PyResult<Vec<_>>>()?)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

pub(crate) fn obs_array<'py>(py: Python<'py>, slot: &EnvSlot) -> Bound<'py, PyArray1<f32>> {
    let a = PyArray1::<f32>::zeros(py, obs_size(), false);
    // SAFETY: a new array, not yet shared with Python or borrowed elsewhere.
    slot.write_observation(unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
    a
}

/// The observation as uint8 (`bytes`, see `ObsValue`) or float32.
fn obs_any<'py>(py: Python<'py>, slot: &EnvSlot, bytes: bool) -> Bound<'py, PyAny> {
    if !bytes {
        return obs_array(py, slot).into_any();
    }
    let a = PyArray1::<u8>::zeros(py, obs_size(), false);
    // SAFETY: as in obs_array.
    slot.write_observation(unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
    a.into_any()
}

/// "float32" or "uint8" as whether observations are bytes, or the ValueError naming the value.
pub(crate) fn parse_observation_dtype(dtype: &str) -> PyResult<bool> {
    match dtype {
        "float32" => Ok(false),
        "uint8" => Ok(true),
        _ => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "observation_dtype must be \"float32\" or \"uint8\", got {dtype:?}"
        ))),
    }
}

fn mask_array<'py, T: numpy::Element + From<bool>>(py: Python<'py>, slot: &EnvSlot) -> Bound<'py, PyArray1<T>> {
    let a = PyArray1::<T>::zeros(py, NUM_ACTIONS, false);
    // SAFETY: as in obs_array.
    slot.write_mask(unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
    a
}

/// Observation and int8 mask.
type ResetResult<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray1<i8>>);
/// Observation, int8 mask, reward, terminated, truncated, outcome, illegal.
type StepResult<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyArray1<i8>>,
    f64,
    bool,
    bool,
    Option<&'static str>,
    bool,
);

/// One Maquis environment: the game, its legal actions, and its seeded streams (episode seeds
/// and sampling). The engine behind `maquis.MaquisEnv`; see that class for the contract.
#[pyclass(name = "Env", module = "maquis._core")]
pub struct PyEnv {
    cfg: EnvConfig,
    slot: EnvSlot,
    /// Observations as uint8 (`observation_dtype`).
    bytes: bool,
    /// The shaping term of the last step (0 without shaping).
    last_shaping: f64,
}

#[pymethods]
impl PyEnv {
    /// Create an environment (it needs a reset before the first step).
    ///
    /// Args:
    ///     difficulty: a difficulty id ("very_easy" … "very_hard").
    ///     mission_pool: "second_edition", "first_edition" or "pnp_2013".
    ///     deal: "uniform", "grouped_2013" or "grouped_2019".
    ///     missions: two mission ids (the first goes on mission_a), or None to deal.
    ///     reward: {outcome: float} for some of "win", "major_win", "draw", "loss".
    ///     illegal_action: "terminate" or "raise".
    ///
    /// Raises:
    ///     MaquisError: an unknown id or an inconsistent setup.
    #[new]
    #[pyo3(signature = (*, difficulty="normal", mission_pool="second_edition", deal="uniform", missions=None, reward=None, illegal_action="terminate"))]
    fn new(
        difficulty: &str,
        mission_pool: &str,
        deal: &str,
        missions: Option<Vec<String>>,
        reward: Option<HashMap<String, f64>>,
        illegal_action: &str,
    ) -> PyResult<Self> {
        let cfg = config(difficulty, mission_pool, deal, missions, reward, illegal_action)?;
        Ok(PyEnv {
            cfg,
            slot: EnvSlot::new(0),
            bytes: false,
            last_shaping: 0.0,
        })
    }

    /// Start a new episode.
    ///
    /// Args:
    ///     stream_seed: if given, first restart the episode and sampling streams from it.
    ///     options: JSON of the reset options (difficulty, missions, patrol_deck, start) for
    ///         this episode only.
    ///
    /// Returns:
    ///     (observation float32 (OBS_SIZE,), action mask int8 (NUM_ACTIONS,)).
    ///
    /// Raises:
    ///     MaquisError: unknown keys or ids, or values the rules refuse. Nothing changes then.
    #[pyo3(signature = (stream_seed=None, options=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        stream_seed: Option<u64>,
        options: Option<&str>,
    ) -> PyResult<ResetResult<'py>> {
        let setup = reset_setup(&self.cfg, options)?;
        let mut slot = self.slot.clone();
        if let Some(seed) = stream_seed {
            slot.seed(seed);
        }
        slot.reset(setup.as_ref().unwrap_or(&self.cfg.setup))?;
        self.slot = slot;
        Ok((obs_any(py, &self.slot, self.bytes), mask_array(py, &self.slot)))
    }

    /// Play one decision.
    ///
    /// Args:
    ///     action: an action index (int or numpy integer).
    ///
    /// Returns:
    ///     (observation, action mask int8, reward, terminated, truncated, outcome or None,
    ///     illegal) where illegal is True when the episode ended on an illegal action.
    ///
    /// Raises:
    ///     TypeError: the action is not an integer.
    ///     MaquisError: out of range, or the episode is over.
    ///     IllegalActionError: an illegal action with illegal_action="raise" (state unchanged).
    fn step<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
        let a = action_index(action)?;
        let t = self.slot.step(&self.cfg, a)?;
        self.last_shaping = t.shaping;
        Ok((
            obs_any(py, &self.slot, self.bytes),
            mask_array(py, &self.slot),
            t.reward,
            t.terminated,
            false,
            t.outcome.map(Outcome::as_str),
            t.illegal,
        ))
    }

    /// The current observation, (OBS_SIZE,) of `observation_dtype`.
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        obs_any(py, &self.slot, self.bytes)
    }

    /// "float32" (the default) or "uint8": the type of the observations returned (uint8: each
    /// value's count, see `maquis.OBSERVATION_DIVISOR`). ValueError for any other.
    #[getter]
    fn get_observation_dtype(&self) -> &'static str {
        if self.bytes { "uint8" } else { "float32" }
    }
    #[setter]
    fn set_observation_dtype(&mut self, dtype: &str) -> PyResult<()> {
        self.bytes = parse_observation_dtype(dtype)?;
        Ok(())
    }

    /// The legal actions as an int8 (NUM_ACTIONS,) mask (all 0 once the episode is over).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        mask_array(py, &self.slot)
    }

    /// The legal actions as a bool (NUM_ACTIONS,) mask (all False once the episode is over).
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        mask_array(py, &self.slot)
    }

    /// The legal action indices in increasing order (empty once the episode is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.slot.mask().iter().collect()
    }

    /// A uniformly random legal action from the sampling stream.
    ///
    /// Raises:
    ///     MaquisError: the episode is over.
    fn sample_action(&mut self) -> PyResult<usize> {
        self.slot.sample().ok_or_else(|| crate::error::Error::GameOver.into())
    }

    /// The full game state as plain Python data (API.md `state_dict`).
    fn state_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &save::state_dict(self.slot.state()))
    }

    /// The game state as versioned JSON (exact: includes the hidden deck and the game's RNG).
    fn save_state(&self) -> String {
        save::save(self.slot.state())
    }

    /// Replace the game by a saved one (from save_state). The episode is over iff that game is.
    ///
    /// Raises:
    ///     MaquisError: malformed or inconsistent JSON; nothing changes then.
    fn load_state(&mut self, json: &str) -> PyResult<()> {
        self.slot.set_state(save::load(json)?);
        Ok(())
    }

    /// Resamples what the player cannot see (the order of the cards still in the patrol deck,
    /// keeping a peeked top card, and the game's RNG) from `seed`: for planning by determinization.
    fn determinize(&mut self, seed: u64) {
        let mut s = self.slot.state().clone();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        crate::rules::determinize(&mut s, &mut rng);
        self.slot.set_state(s);
    }

    /// An independent copy (configuration, game, streams).
    fn clone(&self) -> Self {
        PyEnv {
            cfg: self.cfg.clone(),
            slot: self.slot.clone(),
            bytes: self.bytes,
            last_shaping: self.last_shaping,
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Everything (configuration, game, streams) as versioned JSON, for pickle.
    fn __getstate__(&self) -> String {
        env_snapshot(&self.cfg, &self.slot)
    }

    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let (cfg, slot) = env_from_snapshot(state)?;
        self.cfg = cfg;
        self.slot = slot;
        Ok(())
    }

    /// True when the episode has ended (or before the first reset).
    #[getter]
    fn done(&self) -> bool {
        self.slot.done()
    }

    /// "placement", "action", "post_action" or "game_over".
    #[getter]
    fn phase(&self) -> &'static str {
        self.slot.state().phase.as_str()
    }

    /// The game's outcome, or None while it goes on.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.slot.state().outcome.map(Outcome::as_str)
    }

    /// "terminate" or "raise".
    #[getter]
    fn illegal_action(&self) -> &'static str {
        self.cfg.illegal.as_str()
    }

    /// The shaping term γ·Φ(s') − Φ(s) included in the last step's reward (0 without shaping).
    #[getter]
    fn last_shaping(&self) -> f64 {
        self.last_shaping
    }

    /// The shaping as JSON {"gamma": γ, "weights": {term: w}}, or None.
    #[getter]
    fn shaping(&self) -> Option<String> {
        shaping_json(&self.cfg)
    }

    /// Add potential-based shaping to the rewards of the steps from now on: the JSON of
    /// {"gamma": γ, "weights": {term: w}} (both optional), or None for the outcome reward alone.
    ///
    /// Raises:
    ///     MaquisError: unknown keys or terms, γ outside (0, 1], non-finite weights.
    #[pyo3(signature = (shaping=None))]
    fn set_shaping(&mut self, shaping: Option<&str>) -> PyResult<()> {
        self.cfg = with_shaping(self.cfg.clone(), shaping)?;
        Ok(())
    }

    /// The shaping potential Φ of the current state under this env's shaping (0 once the
    /// episode is over; None without shaping).
    fn potential(&self) -> Option<f64> {
        self.cfg.shaping.map(|s| s.potential::<Maquis>(self.slot.state(), self.slot.done()))
    }

    /// {outcome: reward} for all four outcomes.
    #[getter]
    fn reward(&self) -> HashMap<&'static str, f64> {
        Outcome::ALL
            .iter()
            .map(|&o| (o.as_str(), self.cfg.rewards.of(o)))
            .collect()
    }

    fn __repr__(&self) -> String {
        let s = &self.cfg.setup;
        format!(
            "Env(difficulty={:?}, mission_pool={:?}, deal={:?}, illegal_action={:?}, phase={:?})",
            s.difficulty.as_str(),
            s.mission_pool.as_str(),
            s.deal.as_str(),
            self.cfg.illegal.as_str(),
            self.slot.state().phase.as_str()
        )
    }
}

/// Raised for an env index outside the batch.
pub(crate) fn env_index(i: usize, n: usize) -> PyResult<usize> {
    if i < n {
        Ok(i)
    } else {
        Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "env index {i} is out of range for {n} environments"
        )))
    }
}
