//! `maquis._core.Env` (one Maquis environment, for `maquis.MaquisEnv`) and `maquis._core.VecEngine`
//! (a batch of them stepped in Rust, for `maquis.MaquisVectorEnv`). The shared methods are
//! `common`'s; here the constructor keywords, `reset`'s options, `determinize`, the shaping and
//! the reward table.

use crate::error::Result;
use crate::maquis::env::{EnvConfig, Maquis, Rewards};
use crate::maquis::ids::{Deal, Difficulty, MissionId, MissionPool, Outcome};
use crate::maquis::rules::Setup;
use crate::env::IllegalPolicy;
use crate::py::common::env::{ResetResult, StepResult};
use crate::py::common::BindGame;
use super::action_index;
use pyo3::prelude::*;
use std::collections::HashMap;

/// The configuration from the constructor keywords shared by `Env` and `VecEngine`.
pub(crate) fn config(
    difficulty: &str,
    mission_pool: &str,
    deal: &str,
    missions: Option<Vec<String>>,
    reward: Option<HashMap<String, f64>>,
    illegal_action: &str,
) -> Result<EnvConfig> {
    let missions = missions
        .map(|ms| ms.iter().map(|m| MissionId::parse(m)).collect::<Result<Vec<_>>>())
        .transpose()?;
    let setup = Setup {
        difficulty: Difficulty::parse(difficulty)?,
        mission_pool: MissionPool::parse(mission_pool)?,
        deal: Deal::parse(deal)?,
        missions,
        patrol_deck: None,
        start: None,
    };
    setup.validate()?;
    let mut rewards = Rewards::default();
    for (outcome, value) in reward.unwrap_or_default() {
        rewards = rewards.with(&outcome, value)?;
    }
    EnvConfig::new(setup, rewards, IllegalPolicy::parse(illegal_action)?)
}

game_classes! {
    game: Maquis,
    keywords: (
        difficulty: &str = "normal",
        mission_pool: &str = "second_edition",
        deal: &str = "uniform",
        missions: Option<Vec<String>> = None,
        reward: Option<HashMap<String, f64>> = None,
        illegal_action: &str = "terminate",
    ),
    config: |_external| config(difficulty, mission_pool, deal, missions, reward, illegal_action),

    /// One Maquis environment: the game, its legal actions, and its seeded streams (episode seeds
    /// and sampling). The engine behind `maquis.MaquisEnv`; see that class for the contract.
    #[pyo3::pyclass(name = "Env", module = "maquis._core.maquis")]
    env PyEnv {
        /// Create an environment (it needs a reset before the first step).
        ///
        /// Args:
        ///     difficulty: a difficulty id ("very_easy" … "very_hard").
        ///     mission_pool: "second_edition", "first_edition" or "pnp_2013".
        ///     deal: "uniform", "grouped_2013" or "grouped_2019".
        ///     missions: two mission ids (the first goes on mission_a), or None to deal.
        ///     reward: {outcome: float} for some of "win", "major_win", "draw", "loss".
        ///     illegal_action: "terminate" or "raise".
        ///
        /// Raises:
        ///     MaquisError: an unknown id or an inconsistent setup.
        new;

        /// Start a new episode.
        ///
        /// Args:
        ///     stream_seed: if given, first restart the episode and sampling streams from it.
        ///     options: JSON of the reset options (difficulty, missions, patrol_deck, start) for
        ///         this episode only.
        ///
        /// Returns:
        ///     (observation (OBS_SIZE,) of `observation_dtype`, action mask int8 (NUM_ACTIONS,)).
        ///
        /// Raises:
        ///     MaquisError: unknown keys or ids, or values the rules refuse. Nothing changes then.
        #[pyo3(signature = (stream_seed=None, options=None))]
        fn reset<'py>(
            &mut self,
            py: Python<'py>,
            stream_seed: Option<u64>,
            options: Option<&str>,
        ) -> PyResult<ResetResult<'py>> {
            let setup = options.map(|json| Maquis::reset_setup(&self.core.cfg.setup, json, true)).transpose()?;
            self.core.reset(py, stream_seed, setup.as_ref())
        }

        /// Play one decision.
        ///
        /// Args:
        ///     action: an action index (int or numpy integer).
        ///
        /// Returns:
        ///     (observation, action mask int8, reward, terminated, truncated, outcome or None,
        ///     illegal) where illegal is True when the episode ended on an illegal action.
        ///
        /// Raises:
        ///     TypeError: the action is not an integer.
        ///     MaquisError: out of range, or the episode is over.
        ///     IllegalActionError: an illegal action with illegal_action="raise" (state unchanged).
        fn step<'py>(&mut self, py: Python<'py>, action: &Bound<'py, PyAny>) -> PyResult<StepResult<'py>> {
            let a = action_index(action)?;
            self.core.step(py, a)
        }

        /// Resamples what the player cannot see (the order of the cards still in the patrol deck,
        /// keeping a peeked top card, and the game's RNG) from `seed`: for planning by determinization.
        fn determinize(&mut self, seed: u64) {
            let mut s = self.core.slot.state().clone();
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
            crate::maquis::rules::determinize(&mut s, &mut rng);
            self.core.slot.set_state(s);
        }


        /// {outcome: reward} for all four outcomes.
        #[getter]
        fn reward(&self) -> HashMap<&'static str, f64> {
            Outcome::ALL.iter().map(|&o| (o.as_str(), self.core.cfg.rewards.of(o))).collect()
        }

        fn __repr__(&self) -> String {
            let s = &self.core.cfg.setup;
            format!(
                "Env(difficulty={:?}, mission_pool={:?}, deal={:?}, illegal_action={:?}, phase={:?})",
                s.difficulty.as_str(),
                s.mission_pool.as_str(),
                s.deal.as_str(),
                self.core.cfg.illegal.as_str(),
                self.core.slot.state().phase.as_str()
            )
        }
    }

    /// A batch of Maquis environments stepped together in Rust on a persistent thread pool. The
    /// engine behind `maquis.MaquisVectorEnv`; see that class for the contract.
    ///
    /// The output arrays (observations, masks, rewards, terminated, truncated, outcomes, illegal,
    /// final_observations) are allocated once and overwritten by every reset and step.
    #[pyo3::pyclass(name = "VecEngine", module = "maquis._core.maquis")]
    vector PyVecEngine {}
}
