//! Conversions shared by the D-Day classes: action indices, observation arrays, reset
//! options, the environment configuration from the constructor keywords.

use crate::py::errors::action_index_of;
use crate::dday::action::NUM_ACTIONS;
use crate::dday::env::EnvConfig;
use crate::dday::ids::Side;
use crate::dday::observation::{write_observation, OBSERVATION_SIZE};
use crate::dday::state::State;
use crate::env::IllegalPolicy;
use crate::error::{Error, Result};
use crate::py::common::convert::new_array;
use crate::py::common::versus;
use numpy::PyArray1;
use pyo3::prelude::*;
use serde_json::Value;
use std::collections::HashMap;

/// An action index from an int or numpy integer (TypeError otherwise).
pub fn action(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    action_index_of(obj, NUM_ACTIONS)
}

pub fn side(id: &str) -> Result<Side> {
    Side::parse(id).map_err(|_| Error::BadOption(format!("side must be 'resistance' or 'german', got '{id}'")))
}

/// The options JSON the Python layer sends (None: no options).
pub fn options(json: Option<&str>) -> Result<Value> {
    match json {
        None => Ok(Value::Null),
        Some(j) => serde_json::from_str(j).map_err(|e| Error::BadOption(format!("options: {e}"))),
    }
}

/// `side`'s observation of `s` as a new float32 array.
pub fn obs_array<'py>(py: Python<'py>, s: &State, side: Side) -> Bound<'py, PyArray1<f32>> {
    new_array(py, OBSERVATION_SIZE, |out| write_observation(s, side, out))
}

/// The configuration from the constructor keywords of `Env` and `VecEngine`. `reward`: a table
/// (missing keys keep win 1, draw 0, loss −1) unless `vp_margin`; `external`: whether the
/// opponent may be played from outside (the single env's Python objects).
#[allow(clippy::too_many_arguments)]
pub fn config(
    side_id: &str,
    opponent: &str,
    budget: u32,
    reward: Option<HashMap<String, f64>>,
    vp_margin: bool,
    illegal_action: &str,
    external: bool,
) -> Result<EnvConfig> {
    let setup = versus::setup(side(side_id)?, opponent, budget, external)?;
    EnvConfig::new(setup, versus::rewards(reward, vp_margin)?, IllegalPolicy::parse(illegal_action)?)
}
