//! maquis: the solitaire worker-placement game *Maquis* (Jake Staines) as a fast, exact
//! reinforcement-learning environment. The engine is plain Rust; Python bindings live in `py/`
//! behind the `python` feature.
//!
//! ```
//! use maquis::{new_game, legal_mask, apply, Setup};
//! let mut s = new_game(&Setup::default(), 7).unwrap();
//! while !s.is_over() {
//!     let a = legal_mask(&s).iter().next().unwrap();
//!     apply(&mut s, a as i64).unwrap();
//! }
//! assert!(s.outcome.is_some());
//! ```

pub mod bitmask;
pub mod dday;
pub mod draw;
pub mod env;
pub mod error;
pub mod game;
mod id_enum;
pub mod kuhn;
pub mod maquis;
pub mod maurice;
pub mod nn;
pub mod obs_value;
pub mod simd;
pub mod vector;
pub mod versioned;

// The Maquis engine's modules at the crate root too, where callers found them before the games
// had folders of their own.
pub use maquis::{
    action, agents, board, config, deck, ids, missions, observation, rules, save, state, tracked, tracks,
};
pub use vector::pool;

#[cfg(feature = "python")]
mod py;

pub use action::{table as action_table, Action, ActionMask, Opt, NUM_ACTIONS};
pub use error::{Error, Result};
pub use ids::{Deal, Difficulty, Location, MissionId, MissionPool, Outcome, Pawn, Phase, Resource, Tile};
pub use observation::{obs_size, observation, observation_layout, write_observation};
pub use rules::{apply, apply_legal, determinize, legal_mask, new_game, new_game_into, Setup, StartOverrides, WorkerOverride};
pub use state::State;
pub use game::Game;
pub use maquis::env::Maquis;
pub use vector::{EnvConfig, EnvSlot, IllegalPolicy, ResetOptions, Rewards, VecEngine};
