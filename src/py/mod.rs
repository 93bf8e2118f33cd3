//! PyO3 glue only (feature `python`): the private extension module `maquis._core`. Conversions
//! between Python and the engine; no rule, reward or seeding logic lives here.
//!
//! | folder / file | exports |
//! |---|---|
//! | `common/` | what every game's bindings share: the `Env` and `VecEngine` classes' methods, written once |
//! | `maquis/` | the submodule `maquis._core.maquis` (Maquis) |
//! | `dday/` | the submodule `maquis._core.dday` (D-Day 1944) |
//! | `maurice/` | the submodule `maquis._core.maurice` (Maurice Lite) |
//! | `errors.rs` | `MaquisError`, `IllegalActionError`, the one `Error → PyErr` mapping |
//!
//! The top level of `maquis._core` holds only what every game shares (`__version__`, the
//! errors, `save_game`, `WorkerThreads`); each game is the submodule `maquis._core.<game>`,
//! listed once in `games!` below. A game's bindings folder `src/py/<game>/` provides
//! `register` (adds its submodule) and `SAVES` (its save formats).

// First: its macros serve the games' modules below.
#[macro_use]
mod common;
mod errors;

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
    // The weight file's formats are the shared `nn`'s; which inputs a network reads is its game's.
    m.add("NETWORK_FORMAT", crate::nn::NETWORK_FORMAT)?;
    m.add("NETWORK_FORMAT_V2", crate::nn::NETWORK_FORMAT_V2)?;
    register_games(m)
}

/// The games with bindings, each `<game>` the folder `src/py/<game>/`: one line each, from which
/// follow the modules, their registration as `maquis._core.<game>` and the save kinds (`GAMES`).
macro_rules! games {
    ($($game:ident),+ $(,)?) => {
        $(mod $game;)+

        /// Every game's save formats, in registration order (`common::save`).
        pub(crate) const GAMES: &[&common::save::SaveKind] = &[$($game::SAVES),+];

        fn register_games(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $($game::register(m)?;)+
            Ok(())
        }
    };
}

games!(maquis, dday, maurice, kuhn);
