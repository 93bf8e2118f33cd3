//! The first game, *Maquis* (Jake Staines, solitaire worker placement): its tables (ids, board,
//! tracks, deck), its state, the rules (`rules/`, `missions/`), the action vocabulary, the
//! observation and the agents that play it. Rule ids are those of RULES.md.

pub mod action;
pub mod agents;
pub mod board;
pub mod config;
pub mod deck;
pub mod effects;
pub mod end;
pub mod env;
pub mod ids;
pub mod mask;
pub mod missions;
pub mod observation;
pub mod rules;
pub mod save;
pub mod state;
pub mod tracked;
pub mod tracks;

// The names callers use most, at the game's root (`maquis::maquis::new_game`).
pub use action::{table as action_table, Action, ActionMask, Opt, NUM_ACTIONS};
pub use env::{
    env_from_snapshot, env_snapshot, outcome_code, EnvConfig, EnvSlot, Maquis, ResetOptions, Rewards, Transition, VecEngine,
};
pub use ids::{Deal, Difficulty, Location, MissionId, MissionPool, Outcome, Pawn, Phase, Resource, Tile};
pub use observation::{obs_size, observation, observation_layout, write_observation};
pub use rules::{apply, apply_legal, determinize, legal_mask, new_game, new_game_into, Setup, StartOverrides, WorkerOverride};
pub use state::State;
