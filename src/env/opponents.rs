//! The bundled opponents' levels every two-player game offers (its rules' D1): `random`,
//! `heuristic`, `search`, and where the game ships a trained network, `network` and
//! `network_search`. A game supplies its heuristic and its search (and its network levels); the
//! uniformly random level, the choice by id and the dispatch are written here once.

use crate::bitmask::BitMask;
use crate::draw;
use crate::error::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A bundled policy: a legal action from an observation and a non-empty mask of type `M`.
pub trait Agent<M> {
    fn act(&mut self, obs: &[f32], mask: &M) -> usize;
}

/// An opponent built by its D1 id (`random`, `heuristic`, …), seeded, with `budget` simulations
/// per decision for a search: what `TwoPlayer` builds its bundled opponents with.
pub trait ById: Sized {
    fn by_id(id: &str, seed: u64, budget: u32) -> Result<Self>;
}

/// A level built from its seed (and, for a search, its simulations per decision).
pub trait Level {
    fn with_seed(budget: u32, seed: u64) -> Self;
}

/// A level that needs a trained network: built from its seed and budget, or an error saying why
/// it cannot be (no network loaded, or none for this game).
pub trait NetLevel: Sized {
    fn with_seed(budget: u32, seed: u64) -> Result<Self>;
}

/// The network levels of a game that has no network: never built.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum NoNetwork {}

impl<M> Agent<M> for NoNetwork {
    fn act(&mut self, _obs: &[f32], _mask: &M) -> usize {
        match *self {}
    }
}

impl NetLevel for NoNetwork {
    fn with_seed(_budget: u32, _seed: u64) -> Result<NoNetwork> {
        Err(Error::BadOption("this game has no trained network: its opponents are 'random', 'heuristic' and 'search'".into()))
    }
}

/// Level 0: a uniformly random legal action, from its own stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl<const WORDS: usize, const BITS: usize> Agent<BitMask<WORDS, BITS>> for RandomAgent {
    fn act(&mut self, _obs: &[f32], mask: &BitMask<WORDS, BITS>) -> usize {
        mask.nth(draw::below(&mut self.rng, mask.count().max(1))).unwrap_or(0)
    }
}

impl Level for RandomAgent {
    fn with_seed(_budget: u32, seed: u64) -> RandomAgent {
        RandomAgent::new(seed)
    }
}

/// Any bundled level of a game whose heuristic is `H`, search `S`, (where it has a network)
/// network levels `N` and `NS`, and random level `R` (`RandomAgent` unless the game wraps it), by
/// its D1 id; saved with its stream (`{"random": …}`, `{"heuristic": …}`, `{"search": …}`,
/// `{"network": …}`, `{"network_search": …}`).
// A few hundred bytes each; agents are few and long-lived, so no boxing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum Bundled<H, S, N = NoNetwork, NS = NoNetwork, R = RandomAgent> {
    Random(R),
    Heuristic(H),
    Search(S),
    Network(N),
    NetworkSearch(NS),
}

impl<H: Level, S: Level, N: NetLevel, NS: NetLevel, R: Level> Bundled<H, S, N, NS, R> {
    /// `random`, `heuristic`, `search`, `network` or `network_search` (the searches with `budget`
    /// simulations), seeded.
    pub fn by_id(id: &str, seed: u64, budget: u32) -> Result<Bundled<H, S, N, NS, R>> {
        Ok(match id {
            "random" => Bundled::Random(R::with_seed(budget, seed)),
            "heuristic" => Bundled::Heuristic(H::with_seed(budget, seed)),
            "search" => Bundled::Search(S::with_seed(budget, seed)),
            "network" => Bundled::Network(N::with_seed(budget, seed)?),
            "network_search" => Bundled::NetworkSearch(NS::with_seed(budget, seed)?),
            other => return Err(Error::UnknownId { kind: "opponent", id: other.to_string() }),
        })
    }
}

impl<H: Level, S: Level, N: NetLevel, NS: NetLevel, R: Level> ById for Bundled<H, S, N, NS, R> {
    fn by_id(id: &str, seed: u64, budget: u32) -> Result<Self> {
        Bundled::by_id(id, seed, budget)
    }
}

impl<M, H: Agent<M>, S: Agent<M>, N: Agent<M>, NS: Agent<M>, R: Agent<M>> Agent<M> for Bundled<H, S, N, NS, R> {
    fn act(&mut self, obs: &[f32], mask: &M) -> usize {
        match self {
            Bundled::Random(a) => a.act(obs, mask),
            Bundled::Heuristic(a) => a.act(obs, mask),
            Bundled::Search(a) => a.act(obs, mask),
            Bundled::Network(a) => a.act(obs, mask),
            Bundled::NetworkSearch(a) => a.act(obs, mask),
        }
    }
}

/// A game's heuristic `$h` and search `$s` as bundled levels over its mask `$m`: their `act` as
/// `Agent<$m>`, and `Level` (`$h::new(seed)`, `$s::new(budget, seed)`).
#[macro_export]
macro_rules! bundled_levels {
    ($h:ty, $s:ty, $m:ty) => {
        impl $crate::env::opponents::Agent<$m> for $h {
            fn act(&mut self, obs: &[f32], mask: &$m) -> usize {
                <$h>::act(self, obs, mask)
            }
        }
        impl $crate::env::opponents::Agent<$m> for $s {
            fn act(&mut self, obs: &[f32], mask: &$m) -> usize {
                <$s>::act(self, obs, mask)
            }
        }
        impl $crate::env::opponents::Level for $h {
            fn with_seed(_budget: u32, seed: u64) -> $h {
                <$h>::new(seed)
            }
        }
        impl $crate::env::opponents::Level for $s {
            fn with_seed(budget: u32, seed: u64) -> $s {
                <$s>::new(budget, seed)
            }
        }
    };
}

/// A game's network levels `$n` (`network`) and `$ns` (`network_search`) as bundled levels over
/// its mask `$m`: their `act` as `Agent<$m>`, and `NetLevel` (`$n::registered()`,
/// `$ns::registered(budget, seed)`: an error when no network is registered).
#[macro_export]
macro_rules! network_levels {
    ($n:ty, $ns:ty, $m:ty) => {
        impl $crate::env::opponents::Agent<$m> for $n {
            fn act(&mut self, obs: &[f32], mask: &$m) -> usize {
                <$n>::act(self, obs, mask)
            }
        }
        impl $crate::env::opponents::Agent<$m> for $ns {
            fn act(&mut self, obs: &[f32], mask: &$m) -> usize {
                <$ns>::act(self, obs, mask)
            }
        }
        impl $crate::env::opponents::NetLevel for $n {
            fn with_seed(_budget: u32, _seed: u64) -> $crate::error::Result<$n> {
                <$n>::registered()
            }
        }
        impl $crate::env::opponents::NetLevel for $ns {
            fn with_seed(budget: u32, seed: u64) -> $crate::error::Result<$ns> {
                <$ns>::registered(budget, seed)
            }
        }
    };
}
