//! The batch engine and the environment contract, on Maquis.

use super::chunk::*;
use super::range::*;
use super::scheduler::*;
use super::*;
use crate::maquis::env::{
    env_from_snapshot, env_snapshot, EnvConfig, EnvSlot, Maquis, ResetOptions, Rewards, Transition, VecEngine,
};
use crate::maquis::action::{table, NUM_ACTIONS};
use crate::error::Error;
use crate::maquis::ids::{Difficulty, MissionId, Outcome, Phase};
use crate::maquis::observation::obs_size;
use crate::maquis::rules::Setup;
use crate::simd::Simd;
use super::pool::Pool;
use super::prefetch::Prefetching;
use super::engine::{presample, UNSAMPLED};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

mod autoreset;
mod illegal;
mod reset;
mod rows;
mod step;
mod threads;

fn cfg(illegal: IllegalPolicy) -> EnvConfig {
    EnvConfig::new(Setup::default(), Rewards::default(), illegal).unwrap()
}

/// `n` environments on `threads` threads, streams from `seed` (the engine's own without one),
/// reset, with their buffers.
fn engine(c: &EnvConfig, n: usize, threads: usize, autoreset: Autoreset, seed: Option<u64>) -> (VecEngine, OutputBuffers) {
    let mut v = VecEngine::new(c.clone(), n, threads, autoreset).unwrap();
    if let Some(seed) = seed {
        v.seed_all(seed);
    }
    let mut b = OutputBuffers::of::<Maquis>(n);
    v.reset(None, None, None, &mut b.out()).unwrap();
    (v, b)
}

/// `n` environments on two threads, streams from `seed`, reset, with their buffers.
fn started(c: &EnvConfig, n: usize, seed: u64) -> (VecEngine, OutputBuffers) {
    engine(c, n, 2, Autoreset::NextStep, Some(seed))
}
