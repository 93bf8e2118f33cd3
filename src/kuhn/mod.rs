//! *Kuhn poker* (H. W. Kuhn, 1950), the two-player game of `docs/rules/kuhn.md`: three cards, one
//! each, an ante and one round of betting. The smallest game with hidden information and chance
//! worth playing, kept as the worked example of how a game is added (`docs/adding_a_game.md`):
//! every part a game has, each small.
//!
//! | file | holds |
//! |---|---|
//! | `ids.rs` | cards, sides, actions (0 `pass`, 1 `bet`), phases, the mask |
//! | `state.rs` | a hand: the cards and the moves; the side to move, pot, end and payoffs follow |
//! | `rules.rs` | the seeded deal, the legal mask, applying an action |
//! | `scenario.rs` | the reset options (`cards`) |
//! | `observation.rs` | what a side sees (13 flags), its layout |
//! | `save.rs` | versioned saves, validated |
//! | `infoset.rs` | the 12 information sets |
//! | `solve.rs` | exact expected payoffs, best responses, exploitability |
//! | `agents/` | `random` and `heuristic` (the equilibrium) |
//! | `env.rs` | the `TwoPlayer` impl: the learner against an opponent |
//! | `view.rs` | `state_dict` |
//!
//! ```
//! use maquis::kuhn::{new_game, legal_mask, apply, Scenario};
//! let mut s = new_game(7, &Scenario::default()).unwrap();
//! while !s.is_over() {
//!     let a = legal_mask(&s).iter().next().unwrap();
//!     apply(&mut s, a as i64).unwrap();
//! }
//! assert_eq!(s.payoff(maquis::kuhn::Side::First).unwrap().abs(), 1);
//! ```

pub mod agents;
pub mod env;
pub mod ids;
pub mod infoset;
pub mod observation;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod solve;
pub mod state;
pub mod view;

pub use ids::{action_from_str, decode, Card, Mask, Move, Phase, Side, ACTION_NAMES, NUM_ACTIONS};
pub use observation::{observation, observation_layout, write_observation_as, OBSERVATION_SIZE};
pub use rules::{apply, apply_move, deal, legal_mask, new_game, DEALS};
pub use save::{load_state, save_state, validate};
pub use scenario::Scenario;
pub use state::{End, History, State};
