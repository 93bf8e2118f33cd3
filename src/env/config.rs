//! What an environment keeps across episodes.

use super::{IllegalPolicy, Shaping, StartStates};
use crate::error::Result;
use crate::game::Game;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Everything an environment keeps across episodes: the ruleset of its games, the rewards, the
/// illegal-action policy, the optional shaping and start states.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Config<G: Game> {
    pub setup: G::Setup,
    pub rewards: G::Rewards,
    pub illegal: IllegalPolicy,
    /// Potential-based shaping added to every step's reward (None: the outcome reward alone).
    #[serde(default)]
    pub shaping: Option<Shaping>,
    /// The start-state curriculum of a vector's episodes (None: every episode is a new game).
    /// Not saved in snapshots: a pool is set on a live batch.
    #[serde(skip)]
    pub start: Option<Arc<StartStates<G>>>,
}

impl<G: Game> Config<G> {
    /// Checks that the setup makes a game (ids, pool, deal and overrides agree).
    pub fn new(setup: G::Setup, rewards: G::Rewards, illegal: IllegalPolicy) -> Result<Config<G>> {
        G::check_setup(&setup)?;
        Ok(Config { setup, rewards, illegal, shaping: None, start: None })
    }
}
