//! D1: the bundled opponents — `random`, `heuristic`, `search` — each playing either side from
//! its own observation and the legal mask only (D3), with its own seeded stream.

pub mod heuristic;
pub mod rebuild;
pub mod search;
pub mod view;

pub use heuristic::HeuristicAgent;
pub use search::SearchAgent;

use super::action::Mask;
use crate::draw;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A bundled policy: a legal action from an observation (full, or compact for `random` and
/// `heuristic`) and a non-empty mask.
pub trait Agent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize;
}

/// D1 level 0: a uniformly random legal action.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Agent for RandomAgent {
    fn act(&mut self, _obs: &[f32], mask: &Mask) -> usize {
        mask.nth(draw::below(&mut self.rng, mask.count().max(1))).unwrap_or(0)
    }
}

impl Agent for HeuristicAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        HeuristicAgent::act(self, obs, mask)
    }
}

impl Agent for SearchAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        SearchAgent::act(self, obs, mask)
    }
}

/// Any bundled agent, by its D1 id.
// A few hundred bytes each; agents are few and long-lived, so no boxing.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum AnyAgent {
    Random(RandomAgent),
    Heuristic(HeuristicAgent),
    Search(SearchAgent),
}

impl AnyAgent {
    /// `random`, `heuristic` or `search` (with `budget` simulations), seeded.
    pub fn by_id(id: &str, seed: u64, budget: u32) -> crate::error::Result<AnyAgent> {
        Ok(match id {
            "random" => AnyAgent::Random(RandomAgent::new(seed)),
            "heuristic" => AnyAgent::Heuristic(HeuristicAgent::new(seed)),
            "search" => AnyAgent::Search(SearchAgent::new(budget, seed)),
            other => return Err(crate::error::Error::UnknownId { kind: "opponent", id: other.to_string() }),
        })
    }
}

impl Agent for AnyAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        match self {
            AnyAgent::Random(a) => a.act(obs, mask),
            AnyAgent::Heuristic(a) => a.act(obs, mask),
            AnyAgent::Search(a) => a.act(obs, mask),
        }
    }
}
