//! *French Resistance D-Day 1944*, the two-player game of `docs/rules/dday1944.md`: the German
//! allocation, the interrogation, the attack, two skirmishes and the victory points. Plain Rust;
//! the environment adapters and the Python bindings sit on top of the functions re-exported here.
//!
//! ```
//! use maquis::dday::{new_game, legal_mask, apply, Scenario};
//! let mut s = new_game(7, &Scenario::default()).unwrap();
//! while !s.is_over() {
//!     let a = legal_mask(&s).iter().next().unwrap();
//!     apply(&mut s, a as i64).unwrap();
//! }
//! assert!(s.outcome.is_some());
//! ```

pub mod action;
pub mod agents;
pub mod allocation;
pub mod dice;
pub mod env;
pub mod ids;
pub mod interrogation;
pub mod observation;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod scoring;
pub mod skirmish;
pub mod state;
pub mod view;

pub use action::{action_from_str, action_names, action_to_str, decode, Action, Mask, NUM_ACTIONS};
pub use allocation::{valid_allocations, valid_sequences};
pub use ids::{Answer, ChanceEvent, FigState, Kind, Outcome, Phase, Pool, Side, Unit, VpLine, Zone};
pub use observation::{observation, observation_layout, write_observation, OBSERVATION_SIZE};
pub use rules::{apply, apply_action, check, legal_actions, legal_mask, new_game};
pub use save::{load_state, save_state, validate};
pub use scenario::Scenario;
pub use state::State;
pub use view::state_dict;
