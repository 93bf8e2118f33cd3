//! The bundled opponents' levels every two-player game offers (its rules' D1): `random`,
//! `heuristic`, `search`. A game supplies its heuristic and its search; the uniformly random level,
//! the choice by id and the dispatch are written here once.

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

/// A level built from its seed (and, for a search, its simulations per decision).
pub trait Level {
    fn with_seed(budget: u32, seed: u64) -> Self;
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

/// Any bundled level of a game whose heuristic is `H` and search `S`, by its D1 id; saved with
/// its stream (`{"random": …}`, `{"heuristic": …}`, `{"search": …}`).
// A few hundred bytes each; agents are few and long-lived, so no boxing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)]
pub enum Bundled<H, S> {
    Random(RandomAgent),
    Heuristic(H),
    Search(S),
}

impl<H: Level, S: Level> Bundled<H, S> {
    /// `random`, `heuristic` or `search` (with `budget` simulations), seeded.
    pub fn by_id(id: &str, seed: u64, budget: u32) -> Result<Bundled<H, S>> {
        Ok(match id {
            "random" => Bundled::Random(RandomAgent::new(seed)),
            "heuristic" => Bundled::Heuristic(H::with_seed(budget, seed)),
            "search" => Bundled::Search(S::with_seed(budget, seed)),
            other => return Err(Error::UnknownId { kind: "opponent", id: other.to_string() }),
        })
    }
}

impl<M, H: Agent<M>, S: Agent<M>> Agent<M> for Bundled<H, S>
where
    RandomAgent: Agent<M>,
{
    fn act(&mut self, obs: &[f32], mask: &M) -> usize {
        match self {
            Bundled::Random(a) => a.act(obs, mask),
            Bundled::Heuristic(a) => a.act(obs, mask),
            Bundled::Search(a) => a.act(obs, mask),
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
