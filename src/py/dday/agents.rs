//! `maquis._core.dday.Agent`: a bundled opponent (D1: random, heuristic, search) acting on a
//! side's observation and the legal mask only (D3), with its own seeded stream.

use crate::py::errors::MaquisError;
use crate::dday::action::{Mask, NUM_ACTIONS};
use crate::dday::agents::{Agent, AnyAgent};
use crate::dday::observation::OBSERVATION_SIZE;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn mask_of(row: impl Iterator<Item = bool>) -> Mask {
    let mut m = Mask::default();
    for (i, legal) in row.enumerate() {
        if legal {
            m.set(i);
        }
    }
    m
}

/// One decision, or an error naming what is wrong with the input.
fn decide(agent: &mut AnyAgent, obs: &[f32], mask: &Mask, row: Option<usize>) -> PyResult<i64> {
    decide_detached(agent, obs, mask).map_err(|msg| match row {
        Some(i) => MaquisError::new_err(format!("row {i}: {msg}")),
        None => MaquisError::new_err(msg),
    })
}

/// A bundled D-Day agent, by id. The engine behind `maquis.dday.agents`.
#[pyclass(name = "Agent", module = "maquis._core.dday")]
pub struct PyAgent {
    agent: AnyAgent,
    id: String,
}

#[pymethods]
impl PyAgent {
    /// Args:
    ///     id: "random", "heuristic" or "search".
    ///     seed: the agent's own stream.
    ///     budget: simulations per decision (search).
    #[new]
    #[pyo3(signature = (id="random", seed=0, budget=200))]
    fn new(id: &str, seed: u64, budget: u32) -> PyResult<Self> {
        if budget == 0 {
            return Err(MaquisError::new_err("budget must be a positive int"));
        }
        Ok(PyAgent { agent: AnyAgent::by_id(id, seed, budget)?, id: id.to_string() })
    }

    /// A legal action for the observation (float32 (380,)) and mask (bool (191,)).
    fn act(&mut self, obs: PyReadonlyArray1<'_, f32>, mask: PyReadonlyArray1<'_, bool>) -> PyResult<i64> {
        if obs.len() != OBSERVATION_SIZE || mask.len() != NUM_ACTIONS {
            return Err(MaquisError::new_err(format!(
                "obs must have shape ({OBSERVATION_SIZE},) and mask ({NUM_ACTIONS},), got ({},) and ({},)",
                obs.len(),
                mask.len()
            )));
        }
        let o = obs.as_array().to_vec();
        let m = mask_of(mask.as_array().iter().copied());
        decide(&mut self.agent, &o, &m, None)
    }

    /// One action per row, in row order (the agent's stream continues from row to row), with
    /// the GIL released.
    fn act_batch<'py>(
        &mut self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
        masks: PyReadonlyArray2<'py, bool>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let n = obs.shape()[0];
        if obs.shape()[1] != OBSERVATION_SIZE || masks.shape() != [n, NUM_ACTIONS] {
            return Err(MaquisError::new_err(format!(
                "obs must have shape (n, {OBSERVATION_SIZE}) and masks (n, {NUM_ACTIONS}), got {:?} and {:?}",
                obs.shape(),
                masks.shape()
            )));
        }
        let rows: Vec<(Vec<f32>, Mask)> = (0..n)
            .map(|i| (obs.as_array().row(i).to_vec(), mask_of(masks.as_array().row(i).iter().copied())))
            .collect();
        let agent = &mut self.agent;
        let out: PyResult<Vec<i64>> = py.detach(|| {
            let mut out = Vec::with_capacity(n);
            for (i, (o, m)) in rows.iter().enumerate() {
                // Errors are built after the GIL is back (below), from the row's message.
                match decide_detached(agent, o, m) {
                    Ok(a) => out.push(a),
                    Err(msg) => return Err(format!("row {i}: {msg}")),
                }
            }
            Ok(out)
        })
        .map_err(MaquisError::new_err);
        Ok(out?.into_pyarray(py))
    }

    fn __copy__(&self) -> Self {
        PyAgent { agent: self.agent.clone(), id: self.id.clone() }
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.__copy__()
    }
    /// The agent with its stream, as JSON (pickling).
    fn __getstate__(&self) -> String {
        serde_json::json!({"id": self.id, "agent": self.agent}).to_string()
    }
    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        #[derive(serde::Deserialize)]
        struct Saved {
            id: String,
            agent: AnyAgent,
        }
        let s: Saved = serde_json::from_str(state)
            .map_err(|e| MaquisError::new_err(format!("malformed agent state: {e}")))?;
        self.id = s.id;
        self.agent = s.agent;
        Ok(())
    }

    #[getter]
    fn id(&self) -> &str {
        &self.id
    }

    fn __repr__(&self) -> String {
        format!("dday.Agent({:?})", self.id)
    }
}

/// One decision without Python objects (for use with the GIL released). The agents read only
/// observations the game writes; anything else they cannot make sense of is an error, not a
/// crash.
fn decide_detached(agent: &mut AnyAgent, obs: &[f32], mask: &Mask) -> Result<i64, String> {
    if mask.is_empty() {
        return Err("the mask has no legal action".into());
    }
    if obs.iter().any(|x| !x.is_finite() || !(0.0..=1.0).contains(x)) {
        return Err("observation entries must lie in [0, 1]".into());
    }
    let mut probe = agent.clone();
    match catch_unwind(AssertUnwindSafe(|| probe.act(obs, mask))) {
        Ok(a) if mask.get(a) => {
            *agent = probe;
            Ok(a as i64)
        }
        _ => Err("the observation and mask are not a position of the game the agent can play".into()),
    }
}
