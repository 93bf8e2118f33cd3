//! A1: the bundled agents of Kuhn poker — `random` (the shared uniformly random level) and
//! `heuristic` (Kuhn's equilibrium) — each playing either side from its own observation and the
//! legal mask only, with its own seeded stream. Kuhn poker has no `search` and no `network` level:
//! asking for one is an error naming the two it has.

pub mod heuristic;

pub use heuristic::HeuristicAgent;

use super::ids::Mask;
pub use crate::env::opponents::{Agent, ById, RandomAgent};
use crate::env::versus::OpponentKind;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// The levels Kuhn poker has, for messages.
pub const LEVELS: &str = "'random' and 'heuristic'";

/// A bundled agent of Kuhn poker with its stream; saved as `{"random": …}` or `{"heuristic": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KuhnAgent {
    Random(RandomAgent),
    Heuristic(HeuristicAgent),
}

impl KuhnAgent {
    /// The agent of `kind`, seeded; `search`, `network` and `network_search` are refused by name.
    pub fn of_kind(kind: OpponentKind, seed: u64) -> Result<KuhnAgent> {
        match kind {
            OpponentKind::Random => Ok(KuhnAgent::Random(RandomAgent::new(seed))),
            OpponentKind::Heuristic => Ok(KuhnAgent::Heuristic(HeuristicAgent::new(seed))),
            other => Err(Error::BadOption(format!(
                "Kuhn poker has no '{}' level: its agents are {LEVELS}",
                other.as_str()
            ))),
        }
    }

}

impl ById for KuhnAgent {
    /// The agent with this id (`random`, `heuristic`), seeded; no level searches, so `budget` is
    /// never read.
    fn by_id(id: &str, seed: u64, _budget: u32) -> Result<KuhnAgent> {
        let kind = OpponentKind::parse(id, false)
            .map_err(|_| Error::BadOption(format!("unknown agent '{id}': Kuhn poker's agents are {LEVELS}")))?;
        KuhnAgent::of_kind(kind, seed)
    }
}

impl Agent<Mask> for KuhnAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        match self {
            KuhnAgent::Random(a) => a.act(obs, mask),
            KuhnAgent::Heuristic(a) => a.act(obs, mask),
        }
    }
}
