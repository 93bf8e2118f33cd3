//! `maquis._core.kuhn`: the Kuhn poker bindings, a submodule of the extension. Conversions only;
//! the rules are `crate::kuhn`, the environment contract `crate::env` over `crate::kuhn::env`.
//!
//! | file | exports |
//! |---|---|
//! | `tables.rs` | the constants (ids, action names, observation layout, information sets), action-name conversions |
//! | `game.rs` | `Game`: the two-player game, for a PettingZoo AEC env |
//! | `classes.rs` | `Env`: one learner against an opponent; `VecEngine`: a batch of them, numpy outputs, GIL released |
//! | `agents.rs` | `Agent`: a bundled agent acting on observations |
//! | `solve.rs` | `expected_payoff`, `best_response`, `equilibrium`: the exact analysis |
//! | `ladder.rs` | `play_games`: whole games between bundled agents on threads |

mod agents;
mod classes;
mod game;
mod ladder;
mod solve;
mod tables;

use super::common::game_class::register_two_player;
use super::common::save::SaveKind;
use super::common::versus::BindTwoPlayer;
use crate::kuhn::env::{KuhnPoker, MATCH_FORMAT};
use crate::kuhn::save::FORMAT;
use crate::kuhn::{Side, State};
use pyo3::prelude::*;
use serde_json::Value;

impl BindTwoPlayer for KuhnPoker {
    const SAVES: &'static SaveKind = &SaveKind {
        key: "kuhn",
        title: "Kuhn poker",
        loaded_with: "maquis._core.kuhn (Env, VecEngine, Game)",
        formats: &[FORMAT, MATCH_FORMAT, "kuhn-env"],
    };
    const REPR_PREFIX: &'static str = "kuhn.";
    fn state_dict(s: &State) -> Value {
        crate::kuhn::view::state_dict(s)
    }
    fn phase(s: &State) -> &'static str {
        s.phase().as_str()
    }
    fn side_name(side: Side) -> &'static str {
        side.as_str()
    }
}

/// Kuhn poker's save formats, for the save kinds of `crate::py` (`games!`).
pub const SAVES: &SaveKind = <crate::env::versus::Versus<KuhnPoker> as super::common::BindGame>::SAVES;

/// Adds the submodule `kuhn` to the extension `m` (importable as `maquis._core.kuhn`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_two_player::<game::PyGame, classes::PyKuhnEnv, classes::PyKuhnVecEngine, agents::PyAgent>(m, "kuhn", |sub| {
        tables::register(sub)?;
        solve::register(sub)?;
        ladder::register(sub)
    })
}
