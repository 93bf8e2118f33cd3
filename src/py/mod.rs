//! PyO3 glue only (feature `python`): the private extension module `maquis._core`. Conversions
//! between Python and the engine; no rule, reward or seeding logic lives here.
//!
//! | folder / file | exports |
//! |---|---|
//! | `common/` | what every game's bindings share: the `Env` and `VecEngine` classes' methods, written once |
//! | `maquis/` | the Maquis classes and tables, at the top level of `maquis._core` |
//! | `dday/` | the submodule `maquis._core.dday` (D-Day 1944) |
//! | `maurice/` | the submodule `maquis._core.maurice` (Maurice Lite) |
//! | `errors.rs` | `MaquisError`, `IllegalActionError`, the one `Error → PyErr` mapping |

// First: its macros serve the games' modules below.
#[macro_use]
mod common;
mod dday;
mod errors;
mod kuhn;
mod maquis;
mod maurice;

use errors::{IllegalActionError, MaquisError};
use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MaquisError", py.get_type::<MaquisError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add_function(wrap_pyfunction!(common::save::save_game, m)?)?;
    m.add_class::<common::threads::WorkerThreads>()?;
    maquis::register(m)?;
    dday::register(m)?;
    maurice::register(m)?;
    kuhn::register(m)?;
    Ok(())
}
