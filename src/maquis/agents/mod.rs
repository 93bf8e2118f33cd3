//! Agents that run in Rust: uniform random play, a scripted heuristic player, and a
//! determinized Monte Carlo search that never sees the hidden deck order.
//!
//! All three implement [`Agent`]; [`AnyAgent`] holds any of them (for bindings and evaluators),
//! and [`act_batch`] chooses actions for many states at once on several threads. The heuristic
//! and the search are pure functions of (configuration, state): the same state always gets the
//! same action, whatever the thread or the order of calls.

pub mod clairvoyant;
pub mod guided;
pub mod heuristic;
pub mod network;
pub mod planes;
pub mod random;
pub mod search;
pub mod selfplay;

pub use heuristic::HeuristicAgent;
pub use search::SearchAgent;

use crate::maquis::rules::legal_mask;
use crate::maquis::state::State;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A player: a legal action index for a state whose game is not over.
pub trait Agent {
    fn act(&mut self, s: &State) -> usize;
}

/// Uniformly random legal play, seeded.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Agent for RandomAgent {
    fn act(&mut self, s: &State) -> usize {
        random::sample(&legal_mask(s), &mut self.rng).expect("act() called on a finished game")
    }
}

impl Agent for HeuristicAgent {
    fn act(&mut self, s: &State) -> usize {
        HeuristicAgent::act(self, s)
    }
}

impl Agent for SearchAgent {
    fn act(&mut self, s: &State) -> usize {
        SearchAgent::act(self, s)
    }
}

/// Any of the Rust agents.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyAgent {
    Random(RandomAgent),
    Heuristic(HeuristicAgent),
    Search(SearchAgent),
}

impl AnyAgent {
    /// `"random"`, `"heuristic"` or `"search"` (with its default budget), seeded.
    pub fn by_name(name: &str, seed: u64) -> Option<AnyAgent> {
        Some(match name {
            "random" => AnyAgent::Random(RandomAgent::new(seed)),
            "heuristic" => AnyAgent::Heuristic(HeuristicAgent::new(seed)),
            "search" => AnyAgent::Search(SearchAgent::new(search::DEFAULT_SIMULATIONS, seed)),
            _ => return None,
        })
    }
}

impl Agent for AnyAgent {
    fn act(&mut self, s: &State) -> usize {
        match self {
            AnyAgent::Random(a) => a.act(s),
            AnyAgent::Heuristic(a) => Agent::act(a, s),
            AnyAgent::Search(a) => Agent::act(a, s),
        }
    }
}

/// One action per state, computed on up to `threads` threads (each with its own clone of the
/// agent, so a random agent's draws depend on the split; the heuristic and the search do not).
/// States whose game is over get `usize::MAX`.
pub fn act_batch<A: Agent + Clone + Send>(agent: &A, states: &[State], threads: usize) -> Vec<usize> {
    let mut out = vec![usize::MAX; states.len()];
    let threads = threads.max(1).min(states.len().max(1));
    let chunk = states.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (ss, os) in states.chunks(chunk).zip(out.chunks_mut(chunk)) {
            let mut a = agent.clone();
            scope.spawn(move || {
                for (s, o) in ss.iter().zip(os.iter_mut()) {
                    if !s.is_over() {
                        *o = a.act(s);
                    }
                }
            });
        }
    });
    out
}
