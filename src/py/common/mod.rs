//! The binding pieces every game shares, written once over `BindGame` (a `Game` and what its
//! Python classes need besides): a new game adds its `BindGame` impl, its constructor keywords and
//! its own methods, and makes its classes with `game_classes!`.
//!
//! | file | holds |
//! |---|---|
//! | `game.rs` | `BindGame`: a game's names, outcomes, state view, save formats |
//! | `save.rs` | which game a save belongs to (`save_game`), the refusal of another game's save |
//! | `vector.rs` | `VecCore<G>` (a batch and its numpy arrays) and `vec_engine_class!` |
//! | `env.rs` | `EnvCore<G>` (one environment) and `env_class!` |
//! | `classes.rs` | `game_classes!`: a game's `Env` and `VecEngine` from one list of keywords |
//! | `versus.rs` | a two-player game against an opponent (`Versus<T>`): `BindTwoPlayer`, `versus_classes!` |
//! | `convert.rs` | JSON to Python, array and index helpers |

pub mod convert;
#[macro_use]
pub mod env;
pub mod game;
pub mod save;
#[macro_use]
pub mod vector;
#[macro_use]
mod classes;
#[macro_use]
pub mod versus;

pub use game::BindGame;
