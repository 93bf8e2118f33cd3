//! `maquis._core.maurice.Env`: one learner against an opponent (`env::Slot<Maurice>`), for
//! `maquis.maurice.MauriceEnv`. A bundled opponent plays inside `step`; an `external` one (a
//! Python object) is played by the caller through `apply_opponent` whenever `opponent_to_move`.
//! And `maquis._core.maurice.VecEngine`, a batch of them with bundled opponents (stepped inside, in
//! Rust), for `maquis.maurice.MauriceVectorEnv`. The shared methods are `common`'s; here what only
//! Maurice Lite has.

use super::convert::config;
use crate::maurice::env::MauriceLite;
use crate::maurice::ids::Side;
use std::collections::HashMap;

versus_classes! {
    game: MauriceLite,
    keywords: (
        side: &str = "blue",
        opponent: &str = "heuristic",
        budget: u32 = 100,
        scenario: &str = "standard",
        terrain: &str = "scenario",
        reward: Option<HashMap<String, f64>> = None,
        morale_margin: bool = false,
        illegal_action: &str = "terminate",
    ),
    config: |external| config(side, opponent, budget, scenario, terrain, reward, morale_margin, illegal_action, external),

    /// One Maurice Lite environment: the learner's side, the opponent, the game and the seeded
    /// streams. The engine behind `maquis.maurice.MauriceEnv`; see that class for the contract.
    #[pyo3::pyclass(name = "Env", module = "maquis._core.maurice")]
    env PyMauriceEnv {
        /// Args:
        ///     side: "blue" or "red" (the learner).
        ///     opponent: "random", "heuristic", "search", or "external" (played by the caller;
        ///         the single environment only).
        ///     budget: the search opponent's simulations per decision.
        ///     scenario: "standard" or "skirmish"; terrain: "scenario" or "random" (S5).
        ///     reward: {"win", "draw", "loss"} -> float (missing keys keep 1, 0, -1).
        ///     morale_margin: the reward is own morale left / own start − the same for the enemy.
        ///     illegal_action: "terminate" or "raise".
        new;

        /// Army morale left (blue, red).
        fn morale(&self) -> (u8, u8) {
            let g = &self.core.slot.state().game;
            (g.army(Side::Blue).morale, g.army(Side::Red).morale)
        }
    }

    /// A batch of Maurice Lite environments (each a learner against a bundled opponent) stepped
    /// together in Rust on a persistent thread pool. The engine behind
    /// `maquis.maurice.MauriceVectorEnv`.
    ///
    /// The output arrays (observations, masks, rewards, terminated, truncated, outcomes, illegal,
    /// final_observations) are allocated once and overwritten by every reset and step.
    #[pyo3::pyclass(name = "VecEngine", module = "maquis._core.maurice")]
    vector PyMauriceVecEngine {}
}
