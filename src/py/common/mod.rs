//! The binding pieces every game shares, written once over `BindGame` (a `Game` and what its
//! Python classes need besides): a new game adds its `BindGame` impl, its constructor keywords and
//! its own methods, and makes its classes with `game_classes!`.
//!
//! | file | holds |
//! |---|---|
//! | `game.rs` | `BindGame`: a game's names, outcomes, state view, save formats |
//! | `save.rs` | which game a save belongs to (`save_game`), the refusal of another game's save |
//! | `vector.rs` | `VecCore<G>` (a batch and its numpy arrays) and `vec_engine_class!` |
//! | `pipeline.rs` | the asynchronous step (`send` / `recv`): the driver thread and the step it runs |
//! | `threads.rs` | `WorkerThreads`: a batch's pool and driver thread, for another batch to share |
//! | `env.rs` | `EnvCore<G>` (one environment) and `env_class!` |
//! | `classes.rs` | `game_classes!`: a game's `Env` and `VecEngine` from one list of keywords |
//! | `versus.rs` | a two-player game against an opponent (`Versus<T>`): `BindTwoPlayer`, `versus_classes!` |
//! | `agents.rs` | a two-player game's bundled opponents as a Python class: `AgentCore<T>`, `agent_class!` |
//! | `ladder.rs` | whole games between bundled agents on threads (`maquis <game> ladder`): `play_games`, `ladder_function!` |
//! | `game_class.rs` | a two-player game's `Game` class (`game_class!`) and its submodule (`register_two_player`) |
//! | `network.rs` | a two-player game's trained network: `network_functions!` (load, metadata, forward), `samples_dict` |
//! | `convert.rs` | JSON to Python, array and index helpers |

pub mod convert;
#[macro_use]
pub mod env;
pub mod game;
pub mod pipeline;
pub mod save;
pub mod threads;
#[macro_use]
pub mod vector;
#[macro_use]
mod classes;
#[macro_use]
pub mod versus;
#[macro_use]
pub mod agents;
#[macro_use]
pub mod ladder;
#[macro_use]
pub mod game_class;
#[macro_use]
pub mod network;

pub use game::BindGame;
