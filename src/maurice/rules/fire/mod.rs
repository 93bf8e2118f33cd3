//! F: fire — who may fire, lanes and targets (F2–F5), the volley phase and a side's fire, its
//! dice and the disruption (F1, F6–F9).

pub mod targets;
pub mod volley;

pub use targets::{can_bombard, lane_target, LaneTarget, Range};
