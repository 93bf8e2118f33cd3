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
