//! The skirmish of one attacked zone (S, T, A, M, P, F, H, K, R, L, E1): each file one part of
//! the turn; every rule has a `check_*` (why an action is illegal, the mask's predicate) and the
//! function that carries it out.

pub mod action_points;
pub mod actions;
pub mod end;
pub mod fire;
pub mod morale;
pub mod setup;
pub mod task;
pub mod turn;
