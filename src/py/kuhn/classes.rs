//! `maquis._core.kuhn.Env`: one learner against an opponent (`env::Slot<Kuhn>`); a bundled
//! opponent plays inside `step`, an `external` one is played by the caller through
//! `apply_opponent`. And `maquis._core.kuhn.VecEngine`, a batch of them with bundled opponents
//! stepped in Rust. The shared methods are `common`'s; here what only Kuhn poker has.

use crate::env::versus::TwoPlayer;
use crate::env::IllegalPolicy;
use crate::error::Result;
use crate::env::Config;
use crate::kuhn::env::{Kuhn, KuhnPoker};
use crate::kuhn::Side;
use crate::py::common::versus;
use std::collections::HashMap;

/// The configuration from the constructor keywords. `reward` None: the margin, payoff / 2 (P2);
/// a mapping: the outcome table (missing keys keep win 1, loss −1). `external`: whether the
/// opponent may be played from outside (the single env).
fn config(side: &str, opponent: &str, reward: Option<HashMap<String, f64>>, illegal_action: &str, external: bool) -> Result<Config<Kuhn>> {
    let setup = versus::setup(Side::from_id(side)?, opponent, KuhnPoker::DEFAULT_BUDGET, external)?;
    let margin = reward.is_none();
    Config::new(setup, versus::rewards(reward, margin)?, IllegalPolicy::parse(illegal_action)?)
}

versus_classes! {
    game: KuhnPoker,
    keywords: (
        side: &str = "first",
        opponent: &str = "heuristic",
        reward: Option<HashMap<String, f64>> = None,
        illegal_action: &str = "terminate",
    ),
    config: |external| config(side, opponent, reward, illegal_action, external),

    /// One hand of Kuhn poker after another: the learner's side, the opponent, the hand and the
    /// seeded streams.
    #[pyo3::pyclass(name = "Env", module = "maquis._core.kuhn")]
    env PyKuhnEnv {
        /// Args:
        ///     side: "first" or "second" (the learner).
        ///     opponent: "random", "heuristic" (Kuhn's equilibrium), or "external" (played by
        ///         the caller; the single environment only).
        ///     reward: None (the default): the payoff in chips / 2, in [-1, 1] (rules P2); or
        ///         {"win", "loss"} -> float, a table (missing keys keep 1, -1).
        ///     illegal_action: "terminate" or "raise".
        new;

        /// The learner's payoff in chips (±1 or ±2) once the hand is over, else None.
        fn payoff(&self) -> Option<i8> {
            let m = self.core.slot.state();
            m.game.payoff(m.learner)
        }
    }

    /// A batch of Kuhn poker environments (each a learner against a bundled opponent) stepped
    /// together in Rust on a persistent thread pool.
    ///
    /// The output arrays (observations, masks, rewards, terminated, truncated, outcomes, illegal,
    /// final_observations) are allocated once and overwritten by every reset and step.
    #[pyo3::pyclass(name = "VecEngine", module = "maquis._core.kuhn")]
    vector PyKuhnVecEngine {}
}
