//! D1: the bundled opponents — `random`, `heuristic`, `search`, and the trained `network` and
//! `network_search` — each playing either side from its own observation and the legal mask only
//! (D3), with its own seeded stream. A decision with one legal action (since Q0's ruling of
//! 2026-11-28, an allocation step with one legal zone) is answered with that action by every
//! agent before anything else: no draw from its stream, no search, no network (`only_action`).

pub mod attack_values;
pub mod heuristic;
pub mod intel;
pub mod network;
pub mod rebuild;
pub mod relabel;
pub mod search;
pub mod selfplay;
pub mod view;

pub use heuristic::HeuristicAgent;
pub use network::{NetworkAgent, NetworkSearchAgent, RelabelledNetwork, RelabelledNetworkSearch};
pub use search::SearchAgent;

use super::action::Mask;
/// A bundled policy (`Agent<Mask>`: a legal action from an observation and a non-empty mask).
pub use crate::env::opponents::Agent;
use crate::env::opponents::{Bundled, Level};
use serde::{Deserialize, Serialize};

crate::bundled_levels!(HeuristicAgent, SearchAgent, Mask);

/// Any bundled agent, by its D1 id (`AnyAgent::by_id`).
pub type AnyAgent = Bundled<HeuristicAgent, SearchAgent, RelabelledNetwork, RelabelledNetworkSearch, RandomAgent>;

/// The action of a decision with exactly one legal action. Q0's ruling (2026-11-28) asks the
/// German every allocation step, even one with a single legal zone, where the engine used to take
/// it; each bundled agent answers such a step with this before anything else — drawing nothing
/// from its stream and running no search or network — so that every agent plays the rest of the
/// game exactly as it did before the ruling.
pub fn only_action(mask: &Mask) -> Option<usize> {
    (mask.count() == 1).then(|| mask.iter().next()).flatten()
}

/// D1 `random`: the shared uniformly random level (`env::opponents::RandomAgent`), answering a
/// decision with one legal action without a draw (`only_action`; the shared level draws there,
/// as Maurice's card windows need). Saved as the shared level is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RandomAgent(crate::env::opponents::RandomAgent);

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent(crate::env::opponents::RandomAgent::new(seed))
    }
}

impl Agent<Mask> for RandomAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        only_action(mask).unwrap_or_else(|| self.0.act(obs, mask))
    }
}

impl Level for RandomAgent {
    fn with_seed(_budget: u32, seed: u64) -> RandomAgent {
        RandomAgent::new(seed)
    }
}
