//! The environment contract of API.md, written once for every game (`Game`): what one step of an
//! *episode* means (rewards per outcome, illegal actions, episode seeds) for one environment
//! (`Slot`), and when a finished environment of a batch starts again (`Autoreset`). The Python
//! envs and the batch engine (`vector/`) are thin layers over these types, so the contract lives
//! here once (as Pgx's `_step_with_illegal_action`).
//!
//! Seeding. Every environment owns two ChaCha8 streams derived from one 64-bit *stream seed*:
//!
//! ```text
//! stream seed ─┬─ episode stream (stream 0): one u64 per episode → new game of the setup, that u64
//!              └─ sampling stream (stream 1): sample(), uniform over the legal actions
//! ```
//!
//! A game then carries its own RNG (patrol deck reshuffles). Nothing depends on which thread steps
//! which environment, so trajectories are identical for any number of threads, and env `i` of a
//! vector behaves exactly as a `Slot` given the same stream seed. `stream_seed(seed, i)` is env
//! `i`'s stream seed in a vector seeded with `seed`, for `VecEngine::seed_all` and the Python vector
//! envs alike: the one a `MaquisEnv` reset with `maquis.sub_env_seed(seed, i)` draws (a hash of
//! (seed, i), never seed + i; see `seeding.rs`).

mod config;
mod curriculum;
mod policy;
mod seeding;
mod shaping;
mod slot;
pub mod conformance;
pub mod opponents;
pub mod versus;

pub use config::Config;
pub use curriculum::StartStates;
pub use shaping::{Shaping, DEFAULT_GAMMA, MAX_TERMS};
pub use policy::{Autoreset, EnvError, IllegalPolicy};
pub use seeding::stream_seed;
pub use slot::{from_snapshot, snapshot, Slot, Transition};

/// `outcomes[i]` when env `i` did not end this step; otherwise the game's outcome code.
pub const NO_OUTCOME: i8 = -1;
