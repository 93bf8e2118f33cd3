//! `maquis._core.dday.Env`: one learner against an opponent (`env::Slot<DDay>`), for
//! `maquis.dday.DDayEnv`. A bundled opponent plays inside `step`; an `external` one (a Python
//! object) is played by the caller through `apply_opponent` whenever `opponent_to_move`. And
//! `maquis._core.dday.VecEngine`, a batch of them with bundled opponents (stepped inside, in Rust),
//! for `maquis.dday.DDayVectorEnv`. The shared methods are `common`'s; here what only D-Day has.

use super::convert::config;
use crate::dday::env::DDay1944;
use std::collections::HashMap;

versus_classes! {
    game: DDay1944,
    keywords: (
        side: &str = "resistance",
        opponent: &str = "heuristic",
        budget: u32 = 200,
        reward: Option<HashMap<String, f64>> = None,
        vp_margin: bool = false,
        illegal_action: &str = "terminate",
    ),
    config: |external| config(side, opponent, budget, reward, vp_margin, illegal_action, external),

    /// One D-Day environment: the learner's side, the opponent, the game and the seeded streams.
    /// The engine behind `maquis.dday.DDayEnv`; see that class for the contract.
    #[pyo3::pyclass(name = "Env", module = "maquis._core.dday")]
    env PyDDayEnv {
        /// Args:
        ///     side: "resistance" or "german" (the learner).
        ///     opponent: "random", "heuristic", "search", or "external" (played by the caller;
        ///         the single environment only).
        ///     budget: the search opponent's simulations per decision.
        ///     reward: {"win", "draw", "loss"} -> float (missing keys keep 1, 0, -1).
        ///     vp_margin: the reward is (own VP - opponent VP) / 150 instead.
        ///     illegal_action: "terminate" or "raise".
        new;

        /// (Resistance VP, German VP).
        fn vp(&self) -> (u16, u16) {
            self.core.slot.state().game.vp_totals()
        }
    }

    /// A batch of D-Day environments (each a learner against a bundled opponent) stepped together
    /// in Rust on a persistent thread pool. The engine behind `maquis.dday.DDayVectorEnv`.
    ///
    /// The output arrays (observations, masks, rewards, terminated, truncated, outcomes, illegal,
    /// final_observations) are allocated once and overwritten by every reset and step.
    #[pyo3::pyclass(name = "VecEngine", module = "maquis._core.dday")]
    vector PyDDayVecEngine {}
}
