//! `maquis._core.dday`: the D-Day 1944 bindings, a submodule of the extension. Conversions only;
//! the rules are `crate::dday`, the environment contract `crate::env` over `crate::dday::env`.
//!
//! | file | exports |
//! |---|---|
//! | `tables.rs` | the constants (ids, action names, observation layout), `valid_allocations` |
//! | `game.rs` | `Game`: the two-player game, for the PettingZoo AEC env |
//! | `env.rs` | `Env`: one learner against an opponent, for `DDayEnv` |
//! | `vector.rs` | `VecEngine`: a batch of `Env`s, numpy outputs, GIL released |
//! | `agents.rs` | `Agent`: a bundled opponent acting on observations |
//! | `convert.rs` | arrays, action indices, options |

mod agents;
mod convert;
mod env;
mod game;
mod tables;
mod vector;

use pyo3::prelude::*;

/// Adds the submodule `dday` to the extension `m` (importable as `maquis._core.dday`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let sub = PyModule::new(py, "dday")?;
    tables::register(&sub)?;
    sub.add_class::<game::PyGame>()?;
    sub.add_class::<env::PyDDayEnv>()?;
    sub.add_class::<vector::PyDDayVecEngine>()?;
    sub.add_class::<agents::PyAgent>()?;
    m.add_submodule(&sub)?;
    // `import maquis._core.dday` finds it too.
    py.import("sys")?.getattr("modules")?.set_item("maquis._core.dday", &sub)?;
    Ok(())
}
