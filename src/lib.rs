//! maquis: the solitaire worker-placement game *Maquis* (Jake Staines) as a fast, exact
//! reinforcement-learning environment. The engine is plain Rust; Python bindings live in `py/`
//! behind the `python` feature.
//!
//! ```
//! use maquis::maquis::{new_game, legal_mask, apply, Setup};
//! let mut s = new_game(&Setup::default(), 7).unwrap();
//! while !s.is_over() {
//!     let a = legal_mask(&s).iter().next().unwrap();
//!     apply(&mut s, a as i64).unwrap();
//! }
//! assert!(s.outcome.is_some());
//! ```

pub mod bitmask;
pub mod dday;
pub mod digest;
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

pub use vector::pool;

#[cfg(feature = "python")]
mod py;

pub use error::{Error, Result};
pub use game::Game;
