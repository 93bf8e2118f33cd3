//! `maquis._core.maurice`: the Maurice Lite bindings, a submodule of the extension. Conversions
//! only; the rules are `crate::maurice`, the environment contract `crate::env` over
//! `crate::maurice::env`.
//!
//! | file | exports |
//! |---|---|
//! | `tables.rs` | the constants (ids, sizes, action names, observation layouts and divisors, cards), `scenario` |
//! | `game.rs` | `Game`: the two-player game, for the PettingZoo AEC env |
//! | `classes.rs` | `Env`: one learner against an opponent, for `MauriceEnv`; `VecEngine`: a batch of them, numpy outputs, GIL released |
//! | `agents.rs` | `Agent`: a bundled opponent acting on observations |
//! | `network.rs` | the trained network the `network` levels play, its forward pass, `selfplay` |
//! | `convert.rs` | sides, options, the configuration from the constructor keywords |

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
use crate::maurice::env::{MauriceLite, MATCH_FORMAT};
use crate::maurice::ids::Side;
use crate::maurice::save::FORMAT;
use crate::maurice::state::State;
use pyo3::prelude::*;
use serde_json::Value;

impl BindTwoPlayer for MauriceLite {
    const SAVES: &'static SaveKind = &SaveKind {
        key: "maurice",
        title: "Maurice Lite",
        loaded_with: "maquis.maurice (MauriceEnv, MauriceVectorEnv, raw_env)",
        formats: &[FORMAT, MATCH_FORMAT, "maurice-env"],
    };
    const REPR_PREFIX: &'static str = "maurice.";
    fn state_dict(s: &State) -> Value {
        crate::maurice::view::state_dict(s)
    }
    fn phase(s: &State) -> &'static str {
        s.phase.as_str()
    }
    fn side_name(side: Side) -> &'static str {
        side.as_str()
    }
}

/// Where `save_game` and a misplaced save's message find this game's saves.
pub const SAVES: &SaveKind = <crate::env::versus::Versus<MauriceLite> as super::common::BindGame>::SAVES;

/// Adds the submodule `maurice` to the extension `m` (importable as `maquis._core.maurice`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_two_player::<game::PyGame, classes::PyMauriceEnv, classes::PyMauriceVecEngine, agents::PyAgent>(m, "maurice", |sub| {
        tables::register(sub)?;
        super::common::vector::add_potential_terms::<crate::maurice::env::Maurice>(sub)?;
        ladder::register(sub)?;
        network::register(sub)
    })
}
