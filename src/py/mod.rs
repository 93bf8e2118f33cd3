//! PyO3 glue only (feature `python`): the private extension module `maquis._core`. Conversions
//! between Python and the engine; no rule, reward or seeding logic lives here (see `vector.rs`).
//!
//! | file | exports |
//! |---|---|
//! | `env.rs` | `Env` (one environment) |
//! | `vector.rs` | `VecEngine` (a batch, numpy outputs, GIL released) |
//! | `errors.rs` | `MaquisError`, `IllegalActionError`, the one `Error → PyErr` mapping |
//! | `agents.rs` | the agents' bindings |
//! | `dday/` | the submodule `maquis._core.dday` (D-Day 1944) |

mod agents;
mod bench;
mod dday;
mod env;
mod errors;
mod network;
mod tables;
mod vector;

use crate::action::{table, NUM_ACTIONS};
use crate::ids::Outcome;
use crate::observation::{obs_size, observation_layout};
use errors::{action_index, IllegalActionError, MaquisError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The canonical name of an action index ("place:fence", "act:radio_a:intel", …).
///
/// Raises:
///     TypeError: not an integer. MaquisError: out of range.
#[pyfunction]
fn action_to_str(action: &Bound<'_, PyAny>) -> PyResult<String> {
    let i = action_index(action)?;
    Ok(table().decode(i)?.name())
}

/// The index of a canonical action name.
///
/// Raises:
///     MaquisError: not an action name.
#[pyfunction]
fn action_from_str(name: &str) -> PyResult<usize> {
    Ok(table().from_name(name)?)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBS_SIZE", obs_size())?;
    m.add("ACTION_NAMES", PyTuple::new(py, table().names.iter())?)?;
    let layout: Vec<Bound<'_, PyTuple>> = observation_layout()
        .iter()
        .map(|&(name, offset, len)| (name, offset, len).into_pyobject(py))
        .collect::<PyResult<_>>()?;
    m.add("OBSERVATION_LAYOUT", PyTuple::new(py, layout)?)?;
    // Recorded by the encoder: what each uint8 value is divided by to give the float32 one.
    m.add("OBSERVATION_DIVISOR", PyTuple::new(py, crate::observation::observation_divisors().iter())?)?;
    m.add("OUTCOMES", PyTuple::new(py, Outcome::ALL.iter().map(|o| o.as_str()))?)?;
    m.add("MaquisError", py.get_type::<MaquisError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add_function(wrap_pyfunction!(action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_str, m)?)?;
    m.add_class::<env::PyEnv>()?;
    m.add_class::<vector::PyVecEngine>()?;
    agents::register(m)?;
    bench::register(m)?;
    tables::register(m)?;
    network::register(m)?;
    dday::register(m)?;
    Ok(())
}
