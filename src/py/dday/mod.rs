//! `maquis._core.dday`: the D-Day 1944 bindings, a submodule of the extension. Conversions only;
//! the rules are `crate::dday`, the environment contract `crate::env` over `crate::dday::env`.
//!
//! | file | exports |
//! |---|---|
//! | `tables.rs` | the constants (ids, action names, observation layout), `valid_allocations` |
//! | `game.rs` | `Game`: the two-player game, for the PettingZoo AEC env |
//! | `classes.rs` | `Env`: one learner against an opponent, for `DDayEnv`; `VecEngine`: a batch of them, numpy outputs, GIL released |
//! | `agents.rs` | `Agent`: a bundled opponent acting on observations |
//! | `network.rs` | the trained network the `network` levels play, its forward pass, `selfplay` |
//! | `convert.rs` | arrays, action indices, options |

mod agents;
mod classes;
mod convert;
mod game;
mod ladder;
mod network;
mod tables;

use super::common::game_class::register_two_player;
use super::common::save::SaveKind;
use super::common::versus::BindTwoPlayer;
use crate::dday::env::{DDay1944, MATCH_FORMAT};
use crate::dday::ids::Side;
use crate::dday::save::FORMAT;
use crate::dday::state::State;
use pyo3::prelude::*;
use serde_json::Value;

impl BindTwoPlayer for DDay1944 {
    const SAVES: &'static SaveKind = &SaveKind {
        key: "dday",
        title: "D-Day 1944",
        loaded_with: "maquis.dday (DDayEnv, DDayVectorEnv)",
        formats: &[FORMAT, MATCH_FORMAT, "dday1944-env"],
    };
    const REPR_PREFIX: &'static str = "dday.";
    fn state_dict(s: &State) -> Value {
        crate::dday::view::state_dict(s)
    }
    fn phase(s: &State) -> &'static str {
        s.phase.as_str()
    }
    fn side_name(side: Side) -> &'static str {
        side.as_str()
    }
}

/// Where `save_game` and a misplaced save's message find this game's saves.
pub const SAVES: &SaveKind = <crate::env::versus::Versus<DDay1944> as super::common::BindGame>::SAVES;

/// Adds the submodule `dday` to the extension `m` (importable as `maquis._core.dday`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_two_player::<game::PyGame, classes::PyDDayEnv, classes::PyDDayVecEngine, agents::PyAgent>(m, "dday", |sub| {
        tables::register(sub)?;
        ladder::register(sub)?;
        network::register(sub)
    })
}
