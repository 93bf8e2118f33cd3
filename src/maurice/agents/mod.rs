//! D1: the bundled opponents — `random`, `heuristic`, `search`, and the trained `network` and
//! `network_search` — each playing either side from its own observation and the legal mask only
//! (D3), with its own seeded stream.

pub mod heuristic;
pub mod network;
pub mod rebuild;
pub mod search;
pub mod selfplay;
pub mod view;

pub use heuristic::HeuristicAgent;
pub use network::{NetworkAgent, NetworkSearchAgent};
pub use search::SearchAgent;

use super::action::Mask;
/// A bundled policy (`Agent<Mask>`: a legal action from an observation and a non-empty mask).
pub use crate::env::opponents::{Agent, RandomAgent};
use crate::env::opponents::Bundled;

crate::bundled_levels!(HeuristicAgent, SearchAgent, Mask);

/// Any bundled agent, by its D1 id (`AnyAgent::by_id`).
pub type AnyAgent = Bundled<HeuristicAgent, SearchAgent, NetworkAgent, NetworkSearchAgent>;
