//! *Maurice Lite*, the two-player game of `docs/rules/maurice.md`: two horse-and-musket armies on
//! a 45 × 30 grid, commanded with a hidden hand of cards. Plain Rust, no bindings yet.
//!
//! The rules are complete: `new_game`, `legal_mask` and `apply` play whole games (random play
//! ends every game, tests/maurice_invariants.rs). Above them: the bundled opponents (`agents`,
//! D1–D3) and the two-player environment glue (`env`: `impl TwoPlayer for MauriceLite`, the
//! reset options parsed from JSON maps, `Maurice = Versus<MauriceLite>` for `env::Slot` and
//! `vector::Engine`, tests/maurice_agents.rs and tests/maurice_env.rs).
//!
//! Implemented, with one test per rule id in tests/maurice_*.rs (`rule_coverage.py --game
//! maurice`): U1–U8; G1–G10; T1–T2; S1–S7 (scenarios, mirror, random terrain,
//! morale, setup with the seeded streams); K1–K8 (deck, draws and `reshuffle`, hand limit,
//! windows, interrupts, effects); R1–R9; A1–A9; M1–M13; F1–F9; C1–C14; Y1; X1–X3; H1–H4; E1–E4;
//! N1–N3; Q0–Q2; O1–O3 (the observation); D1–D3 (`random`, `heuristic`, `search`, each on its
//! own seeded stream, deciding from the observation and the mask only); the API constants,
//! action table (1447 names) and observation layout (21334, compact 1084).
//!
//! Also here: `state_dict` (`view`) and `save_state`/`load_state` (`save`: versioned JSON with
//! the RNG streams and scripts; the terrain as the API's map format, `terrain::TerrainMap`);
//! match saves with the opponent's stream (`crate::env::versus::save_match`).
//!
//! Not yet: rendering; the Python bindings and the package `maquis.maurice` (AEC, single and
//! vector envs, `agents`, `evaluate`, the command line).
//!
//! Layout: `ids`, `cards` (K1), `grid` (G1–G3, G6, G7), `terrain` (G4, G8–G10), `scenario`
//! (S2–S5), `streams` (N1–N3), `setup` (S6, S7, reset options), `state`, `action`,
//! `observation`, `view`, `save`, `agents/` (D1–D3), `env` (the learner-against-opponent
//! glue), and `rules/` — `round` (R, H2, R9), `cards` (K2–K4), `cinc` (H), `morale` (X, E1), `command_distance` (A3), `force` (A1, A4, A6), `activation` (A2, A5–A9, K5–K7),
//! `movement/` (M), `fire/` (F), `charge/` (C), `rally` (Y1). A decision the rules do not allow
//! is refused with an error and leaves the state unchanged.

pub mod action;
pub mod agents;
pub mod cards;
pub mod env;
pub mod grid;
pub mod ids;
pub mod observation;
pub mod rules;
pub mod save;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod streams;
pub mod terrain;
pub mod view;

pub use action::{action_from_str, action_names, action_to_str, decode, Action, Mask, MaskExt};
pub use cards::{Card, CARDS};
pub use ids::{
    CardMark, ChanceEvent, Command, Facing, Formation, Outcome, Phase, ScenarioId, Side, TerrainType, UnitType,
    COMPACT_OBSERVATION_SIZE, DECK_SIZE, HEIGHT, MAX_UNITS, NUM_ACTIONS, OBSERVATION_SIZE, WIDTH,
};
pub use observation::{observation, observation_layout, write_observation, ObservationKind};
pub use rules::{apply, apply_action, legal_mask};
pub use save::{load_state, save_state};
pub use setup::{new_game, Setup};
pub use state::State;
pub use view::state_dict;
