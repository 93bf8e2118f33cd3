//! The constants of docs/api/dday1944.md "Identifiers" and the action-name conversions.

use super::convert::action;
use crate::dday::action::{action_from_str as from_str, action_names, action_to_str as to_str, NUM_ACTIONS};
use crate::dday::allocation::valid_allocations as allocations;
use crate::dday::ids::{Kind, Phase, Unit, Zone, CHOICE_STATES};
use crate::dday::observation::{observation_divisors, observation_layout, OBSERVATION_SIZE};
use crate::py::common::convert::layout_tuple;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

/// The canonical name of an action index ("guess:caen:5", "shoot:4", ...).
///
/// Raises:
///     TypeError: not an integer. MaquisError: out of range.
#[pyfunction]
fn action_to_str(index: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(to_str(action(index)?)?)
}

/// The index of a canonical action name.
///
/// Raises:
///     MaquisError: not an action name.
#[pyfunction]
fn action_from_str(name: &str) -> PyResult<usize> {
    Ok(from_str(name)?)
}

/// The 6,600 valid allocations (RULES G3): each a dict zone -> tuple of items in G2 order, in
/// the lexicographic order of their decision sequences.
#[pyfunction]
fn valid_allocations(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let all = allocations()
        .iter()
        .map(|a| {
            let d = PyDict::new(py);
            for (z, items) in Zone::ALL.iter().zip(a.iter()) {
                d.set_item(z.as_str(), PyTuple::new(py, items.iter().map(|k| k.as_str()))?)?;
            }
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, all)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let ids = |names: Vec<&'static str>| PyTuple::new(py, names);
    m.add("ZONES", ids(Zone::ALL.iter().map(|z| z.as_str()).collect())?)?;
    m.add("ITEMS", ids(Kind::ALL.iter().map(|k| k.as_str()).collect())?)?;
    m.add("UNITS", ids(Unit::ALL.iter().map(|u| u.as_str()).collect())?)?;
    m.add("STATES", ids(CHOICE_STATES.iter().map(|s| s.as_str()).collect())?)?;
    m.add("PHASES", ids(Phase::ALL.iter().map(|p| p.as_str()).collect())?)?;
    m.add("SIDES", ids(vec!["resistance", "german"])?)?;
    m.add("OUTCOMES", ids(vec!["win", "draw", "loss"])?)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("ACTION_NAMES", PyTuple::new(py, action_names())?)?;
    m.add("OBSERVATION_LAYOUT", layout_tuple(py, observation_layout())?)?;
    // Recorded by the encoder: what each uint8 value is divided by to give the float32 one.
    m.add("OBSERVATION_DIVISOR", PyTuple::new(py, observation_divisors().iter())?)?;
    m.add_function(wrap_pyfunction!(action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_str, m)?)?;
    m.add_function(wrap_pyfunction!(valid_allocations, m)?)?;
    Ok(())
}
