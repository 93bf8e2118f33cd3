//! One error enum for everything a caller can get wrong; the Python layer maps it once.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// An action index outside 0..NUM_ACTIONS.
    ActionOutOfRange { action: i64, num_actions: usize },
    /// A known action that the rules do not allow now.
    IllegalAction { action: String, phase: &'static str, reason: String },
    /// An id (location, mission, resource …) that RULES.md does not define.
    UnknownId { kind: &'static str, id: String },
    /// A reset option or setup value that is not allowed.
    BadOption(String),
    /// A saved state that cannot be read or that breaks an invariant.
    BadSave(String),
    /// The game is over: reset before stepping again.
    GameOver,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ActionOutOfRange { action, num_actions } => {
                write!(f, "action {action} is out of range: actions are 0 to {} ({num_actions} actions)", num_actions - 1)
            }
            Error::IllegalAction { action, phase, reason } => {
                write!(f, "illegal action '{action}' in phase '{phase}': {reason}")
            }
            Error::UnknownId { kind, id } => write!(f, "unknown {kind} id '{id}'"),
            Error::BadOption(msg) => write!(f, "bad option: {msg}"),
            Error::BadSave(msg) => write!(f, "malformed saved state: {msg}"),
            Error::GameOver => write!(f, "the game is over; call reset() before step()"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
