//! The one mapping from engine errors to Python exceptions.
//!
//! Every engine error is a `maquis.MaquisError`, a `ValueError` (bad action index, illegal action,
//! bad option, unknown id, malformed save, stepping a finished episode); an illegal action is the
//! subclass `maquis.IllegalActionError`. Wrong Python types are `TypeError`s raised where the
//! arguments are converted (pyo3 and `action_index_of` below).

use crate::error::Error;
use crate::vector::EnvError;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

pyo3::create_exception!(
    maquis,
    MaquisError,
    PyValueError,
    "An input the engine refuses: an action out of range or illegal now, an unknown id, a bad option, a malformed saved state, or a step after the episode ended."
);
pyo3::create_exception!(
    maquis,
    IllegalActionError,
    MaquisError,
    "An action that the rules do not allow now (with illegal_action=\"raise\"); the message names the action, the phase and why. The state is unchanged."
);

fn exception(e: &Error, msg: String) -> PyErr {
    match e {
        Error::IllegalAction { .. } => IllegalActionError::new_err(msg),
        _ => MaquisError::new_err(msg),
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        exception(&e, e.to_string())
    }
}

impl From<EnvError> for PyErr {
    fn from(e: EnvError) -> PyErr {
        exception(&e.error, e.to_string())
    }
}

/// An action index of a game of `num_actions` actions from a Python object: an int or a numpy
/// integer (not a bool, float, string or array). Out of range is a `MaquisError`, like any other
/// bad action.
pub fn action_index_of(obj: &Bound<'_, PyAny>, num_actions: usize) -> PyResult<i64> {
    let type_error = || {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        PyTypeError::new_err(format!(
            "action must be an integer index in [0, {num_actions}) (use action_from_str for names), got {ty} {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(type_error());
    }
    match obj.extract::<i64>() {
        Ok(a) => Ok(a),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(MaquisError::new_err(format!(
            "action {} is out of range: actions are 0 to {} ({num_actions} actions)",
            obj.repr().map(|r| r.to_string()).unwrap_or_default(),
            num_actions - 1
        ))),
        Err(_) => Err(type_error()),
    }
}
