//! The Rust agents for Python (`maquis._core.HeuristicAgent`, `SearchAgent`), acting on what a
//! policy sees: each observation is turned into a state the player cannot tell apart from the
//! real one (`state_from_observation`, hidden deck drawn at random), so the agents never see the
//! deck order. Batches are spread over rayon's pool with the GIL released.

use crate::py::errors::MaquisError;
use crate::maquis::action::NUM_ACTIONS;
use crate::maquis::agents::heuristic::HeuristicAgent;
use crate::maquis::agents::search::SearchAgent;
use crate::maquis::observation::{obs_size, state_from_observation};
use crate::maquis::state::State;
use ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Checks the batch shapes and decodes every observation.
pub(super) fn decode(obs: &PyReadonlyArray2<'_, f32>, masks: &PyReadonlyArray2<'_, bool>, seed: u64) -> PyResult<Vec<State>> {
    let (n, d) = (obs.shape()[0], obs.shape()[1]);
    if d != obs_size() {
        return Err(MaquisError::new_err(format!("observations must have shape (n, {}), got ({n}, {d})", obs_size())));
    }
    if masks.shape() != [n, NUM_ACTIONS] {
        return Err(MaquisError::new_err(format!(
            "masks must have shape ({n}, {NUM_ACTIONS}), got {:?}",
            masks.shape()
        )));
    }
    let obs = obs.as_array();
    let masks = masks.as_array();
    (0..n)
        .map(|i| {
            let row = obs.row(i);
            // The same observation always decodes to the same state, wherever it sits in the batch.
            let s = state_from_observation(row.as_slice().expect("a C-contiguous row"), seed)
                .map_err(|e| MaquisError::new_err(format!("observation {i}: {e}")))?;
            let legal = crate::maquis::rules::legal_mask(&s);
            if s.is_over() || (0..NUM_ACTIONS).any(|a| legal.get(a) != masks[[i, a]]) {
                return Err(MaquisError::new_err(format!(
                    "observation {i}: its mask does not match the observation (or the episode is over)"
                )));
            }
            Ok(s)
        })
        .collect()
}

/// A batch of observations, float32 (n, OBS_SIZE).
pub(super) type Observations<'py> = PyReadonlyArray2<'py, f32>;
/// Their legal-action masks, bool (n, NUM_ACTIONS).
pub(super) type Masks<'py> = PyReadonlyArray2<'py, bool>;
/// One action per observation, int64 (n,).
pub(super) type Actions<'py> = PyResult<Bound<'py, PyArray1<i64>>>;

fn act_all<'py, F: Fn(&State) -> usize + Sync>(py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>, seed: u64, act: F) -> Actions<'py> {
    let states = decode(&obs, &masks, seed)?;
    let actions: Vec<i64> = py.detach(|| states.par_iter().map(|s| act(s) as i64).collect());
    Ok(actions.into_pyarray(py))
}

/// The scripted player: works toward its missions, keeps routes home open, blocks patrols.
#[pyclass(name = "HeuristicAgent", module = "maquis._core.maquis", frozen)]
pub struct PyHeuristicAgent {
    agent: HeuristicAgent,
}

#[pymethods]
impl PyHeuristicAgent {
    #[new]
    #[pyo3(signature = (seed=0))]
    fn new(seed: u64) -> Self {
        PyHeuristicAgent { agent: HeuristicAgent::new(seed) }
    }

    /// One action per observation.
    ///
    /// Args:
    ///     obs: float32 (n, OBS_SIZE) observations.
    ///     masks: bool (n, NUM_ACTIONS) legal-action masks of those observations.
    ///
    /// Returns:
    ///     int64 (n,) legal actions.
    fn act_batch<'py>(&self, py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>) -> Actions<'py> {
        act_all(py, obs, masks, self.agent.seed, |s| self.agent.act(s))
    }

    /// The heuristic's `k` best legal actions per observation and their scores (best first;
    /// scores compare within one decision only). Rows with fewer legal actions are padded with
    /// action -1 and score NaN.
    ///
    /// Args:
    ///     obs: float32 (n, OBS_SIZE) observations.
    ///     masks: bool (n, NUM_ACTIONS) legal-action masks of those observations.
    ///     k: how many actions per row.
    ///
    /// Returns:
    ///     (int64 (n, k) actions, float32 (n, k) scores).
    #[pyo3(signature = (obs, masks, k=4))]
    #[allow(clippy::type_complexity)]
    fn ranked_batch<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
        masks: PyReadonlyArray2<'py, bool>,
        k: usize,
    ) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray2<f32>>)> {
        let states = decode(&obs, &masks, self.agent.seed)?;
        let rows: Vec<Vec<(usize, f64)>> =
            py.detach(|| states.par_iter().map(|s| self.agent.ranked(s, &mut self.agent.rng_for(s))).collect());
        let mut actions = Array2::<i64>::from_elem((rows.len(), k), -1);
        let mut scores = Array2::<f32>::from_elem((rows.len(), k), f32::NAN);
        for (i, r) in rows.iter().enumerate() {
            for (j, &(a, v)) in r.iter().take(k).enumerate() {
                actions[[i, j]] = a as i64;
                scores[[i, j]] = v as f32;
            }
        }
        Ok((actions.into_pyarray(py), scores.into_pyarray(py)))
    }

    fn __repr__(&self) -> String {
        format!("HeuristicAgent(seed={})", self.agent.seed)
    }
}

/// Determinized Monte-Carlo search with a simulation budget per decision.
#[pyclass(name = "SearchAgent", module = "maquis._core.maquis", frozen)]
pub struct PySearchAgent {
    agent: SearchAgent,
    simulations: u32,
    seed: u64,
}

#[pymethods]
impl PySearchAgent {
    #[new]
    #[pyo3(signature = (simulations=200, seed=0))]
    fn new(simulations: u32, seed: u64) -> Self {
        PySearchAgent { agent: SearchAgent::new(simulations, seed), simulations, seed }
    }

    /// One action per observation (searches run in parallel).
    ///
    /// Args:
    ///     obs: float32 (n, OBS_SIZE) observations.
    ///     masks: bool (n, NUM_ACTIONS) legal-action masks of those observations.
    ///
    /// Returns:
    ///     int64 (n,) legal actions.
    fn act_batch<'py>(&self, py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>) -> Actions<'py> {
        act_all(py, obs, masks, self.seed, |s| self.agent.act_info(s).chosen)
    }

    #[getter]
    fn simulations(&self) -> u32 {
        self.simulations
    }

    fn __repr__(&self) -> String {
        format!("SearchAgent(simulations={}, seed={})", self.simulations, self.seed)
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyHeuristicAgent>()?;
    m.add_class::<PySearchAgent>()?;
    Ok(())
}
