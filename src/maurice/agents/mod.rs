//! D1: the bundled opponents — `random`, `heuristic`, `search` — each playing either side from
//! its own observation and the legal mask only (D3), with its own seeded stream.

pub mod heuristic;
pub mod rebuild;
pub mod search;
pub mod view;

pub use heuristic::HeuristicAgent;
pub use search::SearchAgent;

use super::action::Mask;
/// A bundled policy (`Agent<Mask>`: a legal action from an observation and a non-empty mask).
pub use crate::env::opponents::{Agent, RandomAgent};
use crate::env::opponents::{Bundled, Level};

impl Agent<Mask> for HeuristicAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        HeuristicAgent::act(self, obs, mask)
    }
}

impl Agent<Mask> for SearchAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        SearchAgent::act(self, obs, mask)
    }
}

impl Level for HeuristicAgent {
    fn with_seed(_budget: u32, seed: u64) -> HeuristicAgent {
        HeuristicAgent::new(seed)
    }
}

impl Level for SearchAgent {
    fn with_seed(budget: u32, seed: u64) -> SearchAgent {
        SearchAgent::new(budget, seed)
    }
}

/// Any bundled agent, by its D1 id (`AnyAgent::by_id`).
pub type AnyAgent = Bundled<HeuristicAgent, SearchAgent>;
