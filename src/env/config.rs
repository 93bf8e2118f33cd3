//! What an environment keeps across episodes.

use super::IllegalPolicy;
use crate::error::Result;
use crate::game::Game;
use serde::{Deserialize, Serialize};

/// Everything an environment keeps across episodes: the ruleset of its games, the rewards, the
/// illegal-action policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Config<G: Game> {
    pub setup: G::Setup,
    pub rewards: G::Rewards,
    pub illegal: IllegalPolicy,
}

impl<G: Game> Config<G> {
    /// Checks that the setup makes a game (ids, pool, deal and overrides agree).
    pub fn new(setup: G::Setup, rewards: G::Rewards, illegal: IllegalPolicy) -> Result<Config<G>> {
        G::check_setup(&setup)?;
        Ok(Config { setup, rewards, illegal })
    }
}
