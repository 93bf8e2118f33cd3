//! Agents that run in Rust: uniform random play over the legal actions.

pub mod random;
