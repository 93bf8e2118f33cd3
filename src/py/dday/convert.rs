//! Conversions shared by the D-Day classes: action indices, observation and mask arrays, reset
//! options, the environment configuration from the constructor keywords.

use super::super::errors::action_index_of;
use crate::dday::action::{Mask, NUM_ACTIONS};
use crate::dday::env::{EnvConfig, Opponent, OpponentKind, Rewards, Setup};
use crate::dday::ids::Side;
use crate::dday::observation::{write_observation, OBSERVATION_SIZE};
use crate::dday::state::State;
use crate::env::IllegalPolicy;
use crate::error::{Error, Result};
use numpy::{PyArray1, PyArrayMethods};
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
    let a = PyArray1::<f32>::zeros(py, OBSERVATION_SIZE, false);
    // SAFETY: a new array, not yet shared with Python or borrowed elsewhere.
    write_observation(s, side, unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
    a
}

/// A mask as a new array of 0/1 (int8 or bool).
pub fn mask_array<'py, T: numpy::Element + From<bool>>(py: Python<'py>, m: &Mask) -> Bound<'py, PyArray1<T>> {
    let a = PyArray1::<T>::zeros(py, NUM_ACTIONS, false);
    // SAFETY: as in obs_array.
    let out = unsafe { a.as_slice_mut() }.expect("a new array is contiguous");
    for (i, x) in out.iter_mut().enumerate() {
        *x = T::from(m.get(i));
    }
    a
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
    if budget == 0 {
        return Err(Error::BadOption("budget must be a positive int".into()));
    }
    let setup = Setup {
        side: side(side_id)?,
        opponent: Opponent { kind: OpponentKind::parse(opponent, external)?, budget },
        ..Setup::default()
    };
    let rewards = if vp_margin {
        Rewards::VpMargin
    } else {
        let mut r = Rewards::default();
        // Sorted, so that the first bad key named is the same on every run.
        let mut entries: Vec<_> = reward.unwrap_or_default().into_iter().collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        for (k, v) in entries {
            r = r.with(&k, v)?;
        }
        r
    };
    EnvConfig::new(setup, rewards, IllegalPolicy::parse(illegal_action)?)
}

/// The reward table or "vp_margin", as Python sees it.
pub fn rewards_repr(r: &Rewards) -> Option<HashMap<&'static str, f64>> {
    match r {
        Rewards::Table(t) => Some([("win", t[0]), ("draw", t[1]), ("loss", t[2])].into_iter().collect()),
        Rewards::VpMargin => None,
    }
}
