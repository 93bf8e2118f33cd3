//! The options of the contract that are the same for every game: what an illegal action does,
//! when a finished environment of a batch starts again, and the error of one environment.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an illegal action does (API.md `illegal_action=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalPolicy {
    /// The episode ends with the loss reward, outcome `loss`, and the illegal flag.
    Terminate,
    /// `Error::IllegalAction` (naming the action, the phase and why); the state is unchanged.
    Raise,
}

impl IllegalPolicy {
    pub fn parse(s: &str) -> Result<IllegalPolicy> {
        match s {
            "terminate" => Ok(IllegalPolicy::Terminate),
            "raise" => Ok(IllegalPolicy::Raise),
            _ => Err(Error::BadOption(format!(
                "illegal_action must be 'terminate' or 'raise', got '{s}'"
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            IllegalPolicy::Terminate => "terminate",
            IllegalPolicy::Raise => "raise",
        }
    }
}

/// When a finished environment starts its next episode (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// On the step after the one that ended it; that step's action is ignored and it returns the
    /// first observation with reward 0 and no flags.
    NextStep,
    /// Within the step that ended it: `obs` holds the new episode's first observation, `final_obs`
    /// the last one of the finished episode.
    SameStep,
    /// Never: stepping a finished environment is an error; reset it with a mask.
    Disabled,
}

impl Autoreset {
    pub fn parse(s: &str) -> Result<Autoreset> {
        match s {
            "next_step" | "NextStep" => Ok(Autoreset::NextStep),
            "same_step" | "SameStep" => Ok(Autoreset::SameStep),
            "disabled" | "Disabled" => Ok(Autoreset::Disabled),
            _ => Err(Error::BadOption(format!(
                "autoreset_mode must be 'next_step', 'same_step' or 'disabled', got '{s}'"
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
            Autoreset::Disabled => "disabled",
        }
    }
}

/// An error of one environment of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvError {
    pub env: usize,
    pub error: Error,
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "env {}: {}", self.env, self.error)
    }
}

impl std::error::Error for EnvError {}
