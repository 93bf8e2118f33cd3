//! A two-player game's bundled opponents (its RULES D1: random, heuristic, search) as a Python
//! class, written once: `AgentCore<T>` (an agent of `T` with its own seeded stream, acting on a
//! side's observation and the legal mask only, D3) and `agent_class!`, which makes a game's
//! `Agent` class of it (a pyclass cannot be generic).

use super::versus::BindTwoPlayer;
use crate::bitmask::BitMask;
use crate::env::versus::OpponentKind;
use crate::py::errors::MaquisError;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A game's legal mask built from one bool per action (the masks Python passes in).
pub trait MaskFromBools: Sized {
    fn from_bools(bits: impl Iterator<Item = bool>) -> Self;
}

impl<const WORDS: usize, const BITS: usize> MaskFromBools for BitMask<WORDS, BITS> {
    fn from_bools(bits: impl Iterator<Item = bool>) -> Self {
        let mut m = BitMask::default();
        for (i, legal) in bits.enumerate().take(BITS) {
            if legal {
                m.set(i);
            }
        }
        m
    }
}

/// One decision without Python objects (for use with the GIL released). The agents read only
/// observations the game writes; anything else they cannot make sense of is an error, not a crash.
fn decide<T: BindTwoPlayer>(agent: &mut T::Agent, obs: &[f32], mask: &T::Mask) -> Result<i64, String> {
    use crate::bitmask::ActionSet;
    if mask.count() == 0 {
        return Err("the mask has no legal action".into());
    }
    if obs.iter().any(|x| !x.is_finite() || !(0.0..=1.0).contains(x)) {
        return Err("observation entries must lie in [0, 1]".into());
    }
    let mut probe = agent.clone();
    match catch_unwind(AssertUnwindSafe(|| T::act(&mut probe, obs, mask))) {
        Ok(a) if mask.get(a) => {
            *agent = probe;
            Ok(a as i64)
        }
        _ => Err("the observation and mask are not a position of the game the agent can play".into()),
    }
}

/// A bundled agent of `T` by its id, with its stream.
pub struct AgentCore<T: BindTwoPlayer> {
    pub agent: T::Agent,
    pub id: String,
}

impl<T: BindTwoPlayer> Clone for AgentCore<T> {
    fn clone(&self) -> Self {
        AgentCore { agent: self.agent.clone(), id: self.id.clone() }
    }
}

impl<T: BindTwoPlayer> AgentCore<T>
where
    T::Mask: MaskFromBools,
{
    /// `id` ("random", "heuristic", "search", and where the game has a network "network",
    /// "network_search") seeded with `seed`; `budget`: the searches'
    /// simulations per decision.
    pub fn new(id: &str, seed: u64, budget: u32) -> PyResult<Self> {
        if budget == 0 {
            return Err(MaquisError::new_err("budget must be a positive int"));
        }
        let kind = OpponentKind::parse(id, false)
            .map_err(|_| MaquisError::new_err(format!("agent id must be 'random', 'heuristic', 'search', 'network' or 'network_search', got '{id}'")))?;
        Ok(AgentCore { agent: T::bundled_opponent(kind, budget, seed)?, id: id.to_string() })
    }

    /// A legal action for a side's observation and the mask.
    pub fn act(&mut self, obs: PyReadonlyArray1<'_, f32>, mask: PyReadonlyArray1<'_, bool>) -> PyResult<i64> {
        let (o, a) = (T::OBSERVATION_SIZE, T::NUM_ACTIONS);
        if obs.len() != o || mask.len() != a {
            return Err(MaquisError::new_err(format!(
                "obs must have shape ({o},) and mask ({a},), got ({},) and ({},)",
                obs.len(),
                mask.len()
            )));
        }
        let m = T::Mask::from_bools(mask.as_array().iter().copied());
        let view = obs.as_array();
        let result = match view.as_slice() {
            Some(s) => decide::<T>(&mut self.agent, s, &m),
            None => decide::<T>(&mut self.agent, &view.to_vec(), &m),
        };
        result.map_err(MaquisError::new_err)
    }

    /// One action per row, in row order (the agent's stream continues from row to row), with the
    /// GIL released.
    pub fn act_batch<'py>(
        &mut self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
        masks: PyReadonlyArray2<'py, bool>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let (o, a, n) = (T::OBSERVATION_SIZE, T::NUM_ACTIONS, obs.shape()[0]);
        if obs.shape()[1] != o || masks.shape() != [n, a] {
            return Err(MaquisError::new_err(format!(
                "obs must have shape (n, {o}) and masks (n, {a}), got {:?} and {:?}",
                obs.shape(),
                masks.shape()
            )));
        }
        let rows: Vec<(Vec<f32>, T::Mask)> = (0..n)
            .map(|i| (obs.as_array().row(i).to_vec(), T::Mask::from_bools(masks.as_array().row(i).iter().copied())))
            .collect();
        let agent = &mut self.agent;
        let out: Result<Vec<i64>, String> = py.detach(|| {
            rows.iter()
                .enumerate()
                .map(|(i, (o, m))| decide::<T>(agent, o, m).map_err(|msg| format!("row {i}: {msg}")))
                .collect()
        });
        Ok(out.map_err(MaquisError::new_err)?.into_pyarray(py))
    }

    /// The agent with its stream, as JSON (pickling).
    pub fn getstate(&self) -> String {
        serde_json::json!({"id": self.id, "agent": self.agent}).to_string()
    }

    pub fn setstate(&mut self, state: &str) -> PyResult<()> {
        #[derive(serde::Deserialize)]
        #[serde(bound = "")]
        struct Saved<T: BindTwoPlayer> {
            id: String,
            agent: T::Agent,
        }
        let s: Saved<T> =
            serde_json::from_str(state).map_err(|e| MaquisError::new_err(format!("malformed agent state: {e}")))?;
        self.id = s.id;
        self.agent = s.agent;
        Ok(())
    }

    pub fn repr(&self) -> String {
        format!("{}Agent({:?})", T::REPR_PREFIX, self.id)
    }
}

/// A game's `Agent` class: `$name` holding an `AgentCore<$two>`, constructed as
/// `Agent(id="random", seed=0, budget=$budget)`.
macro_rules! agent_class {
    ($(#[$meta:meta])* $name:ident, $two:ty, budget = $budget:literal) => {
        $(#[$meta])*
        pub struct $name {
            core: $crate::py::common::agents::AgentCore<$two>,
        }

        #[pyo3::pymethods]
        impl $name {
            /// Args:
            ///     id: "random", "heuristic", "search", "network" or "network_search".
            ///     seed: the agent's own stream.
            ///     budget: simulations per decision (search).
            #[new]
            #[pyo3(signature = (id="random", seed=0, budget=$budget))]
            fn new(id: &str, seed: u64, budget: u32) -> pyo3::PyResult<Self> {
                Ok($name { core: $crate::py::common::agents::AgentCore::new(id, seed, budget)? })
            }

            /// A legal action for the observation (float32 (OBSERVATION_SIZE,)) of the side
            /// played and the mask (bool (NUM_ACTIONS,)).
            fn act(
                &mut self,
                obs: numpy::PyReadonlyArray1<'_, f32>,
                mask: numpy::PyReadonlyArray1<'_, bool>,
            ) -> pyo3::PyResult<i64> {
                self.core.act(obs, mask)
            }

            /// One action per row, in row order (the agent's stream continues from row to
            /// row), with the GIL released.
            fn act_batch<'py>(
                &mut self,
                py: pyo3::Python<'py>,
                obs: numpy::PyReadonlyArray2<'py, f32>,
                masks: numpy::PyReadonlyArray2<'py, bool>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<i64>>> {
                self.core.act_batch(py, obs, masks)
            }

            fn __copy__(&self) -> Self {
                $name { core: self.core.clone() }
            }
            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.__copy__()
            }
            /// The agent with its stream, as JSON (pickling).
            fn __getstate__(&self) -> String {
                self.core.getstate()
            }
            fn __setstate__(&mut self, state: &str) -> pyo3::PyResult<()> {
                self.core.setstate(state)
            }

            #[getter]
            fn id(&self) -> &str {
                &self.core.id
            }

            fn __repr__(&self) -> String {
                self.core.repr()
            }
        }
    };
}
