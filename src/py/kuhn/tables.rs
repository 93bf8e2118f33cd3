//! The constants of Kuhn poker (ids, sizes, action names, observation layout and divisors,
//! information sets) and the action-name conversions.

use crate::kuhn::infoset::INFOSET_NAMES;
use crate::kuhn::observation::{observation_divisors, observation_layout};
use crate::kuhn::{action_from_str as from_str, decode, Card, Phase, Side, ACTION_NAMES, NUM_ACTIONS, OBSERVATION_SIZE};
use crate::py::common::convert::layout_tuple;
use crate::py::errors::action_index_of;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The name of an action index: "pass" (0) or "bet" (1).
///
/// Raises:
///     TypeError: not an integer. MaquisError: out of range.
#[pyfunction]
fn action_to_str(index: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(decode(action_index_of(index, NUM_ACTIONS)?)?.as_str())
}

/// The index of an action name ("pass" 0, "bet" 1).
///
/// Raises:
///     MaquisError: not an action name.
#[pyfunction]
fn action_from_str(name: &str) -> PyResult<usize> {
    Ok(from_str(name)?)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let ids = |names: Vec<&'static str>| PyTuple::new(py, names);
    m.add("CARDS", ids(Card::ALL.iter().map(|c| c.as_str()).collect())?)?;
    m.add("SIDES", ids(Side::ALL.iter().map(|s| s.as_str()).collect())?)?;
    m.add("PHASES", ids(Phase::ALL.iter().map(|p| p.as_str()).collect())?)?;
    m.add("OUTCOMES", ids(vec!["win", "draw", "loss"])?)?;
    m.add("INFOSETS", ids(INFOSET_NAMES.to_vec())?)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("ACTION_NAMES", ids(ACTION_NAMES.to_vec())?)?;
    m.add("OBSERVATION_LAYOUT", layout_tuple(py, observation_layout())?)?;
    m.add("OBSERVATION_DIVISOR", PyTuple::new(py, observation_divisors().iter())?)?;
    m.add_function(wrap_pyfunction!(action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_str, m)?)?;
    Ok(())
}
