//! `maquis._core.maquis`: the Maquis bindings, a submodule of the extension. Only what is Maquis's own: the
//! constructor keywords, the reset options, the single env's `determinize` and shaping, the
//! agents, the network, the rule tables and the benchmarks; the rest is `common`.
//!
//! | file | exports |
//! |---|---|
//! | `mod.rs` | the constants (sizes, action names, observation layout and divisors, outcomes), the action-name conversions |
//! | `classes.rs` | `Env` (one environment) and `VecEngine` (a batch, numpy outputs, GIL released) |
//! | `agents.rs` | the agents' bindings |
//! | `network.rs` | the learned network, its agents, self-play |
//! | `tables.rs` | the rule tables |
//! | `bench.rs` | the benchmarks of `maquis bench` |

mod agents;
mod bench;
mod classes;
mod network;
mod tables;

use super::common::save::SaveKind;
use super::common::BindGame;
use crate::error::Result;
use crate::maquis::action::{table, NUM_ACTIONS};
use crate::maquis::env::{Maquis, ResetOptions};
use crate::maquis::ids::Outcome;
use crate::maquis::rules::Setup;
use crate::maquis::observation::{obs_size, observation_divisors, observation_layout};
use crate::maquis::save;
use crate::py::common::convert::layout_tuple;
use crate::py::errors::action_index_of;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use serde_json::Value;

/// A Maquis action index from a Python object (`action_index_of` over Maquis's actions).
pub(crate) fn action_index(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    action_index_of(obj, NUM_ACTIONS)
}

/// The outcome names, in outcome-code order.
const OUTCOMES: [&str; 4] = [Outcome::ALL[0].as_str(), Outcome::ALL[1].as_str(), Outcome::ALL[2].as_str(), Outcome::ALL[3].as_str()];

impl BindGame for Maquis {
    const SAVES: &'static SaveKind = &SaveKind {
        key: "maquis",
        title: "Maquis",
        loaded_with: "maquis (MaquisEnv, MaquisVectorEnv)",
        formats: &[save::FORMAT, "maquis-env"],
    };
    const REPR_PREFIX: &'static str = "";
    const OUTCOMES: &'static [&'static str] = &OUTCOMES;
    fn state_dict(s: &Self::State) -> Value {
        save::state_dict(s)
    }
    fn phase(s: &Self::State) -> &'static str {
        s.phase.as_str()
    }
    fn reset_setup(setup: &Setup, options_json: &str, _external: bool) -> Result<Setup> {
        ResetOptions::from_json(options_json)?.setup(setup)
    }
}

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

/// Where `save_game` and a misplaced save's message find Maquis's saves.
pub const SAVES: &SaveKind = <Maquis as BindGame>::SAVES;

/// Adds the submodule `maquis` (`maquis._core.maquis`: the Maquis constants, classes and
/// functions) to the extension `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    super::common::game_class::add_game_module(m, "maquis", fill)
}

fn fill(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBS_SIZE", obs_size())?;
    m.add("ACTION_NAMES", PyTuple::new(py, table().names.iter())?)?;
    m.add("OBSERVATION_LAYOUT", layout_tuple(py, observation_layout())?)?;
    // Recorded by the encoder: what each uint8 value is divided by to give the float32 one.
    m.add("OBSERVATION_DIVISOR", PyTuple::new(py, observation_divisors().iter())?)?;
    m.add("OUTCOMES", PyTuple::new(py, OUTCOMES)?)?;
    super::common::vector::add_potential_terms::<Maquis>(m)?;
    m.add_function(wrap_pyfunction!(action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_str, m)?)?;
    m.add_class::<classes::PyEnv>()?;
    m.add_class::<classes::PyVecEngine>()?;
    agents::register(m)?;
    bench::register(m)?;
    tables::register(m)?;
    network::register(m)?;
    Ok(())
}
