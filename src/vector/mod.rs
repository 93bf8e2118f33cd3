//! The batch engine over any `Game`: many environments stepped together on a persistent thread
//! pool, writing into caller-owned arrays (the Python `MaquisVectorEnv` is a thin layer over it).
//!
//! - `engine`: `Engine<G>`, the batch (reset, step, samples, the list of ended episodes);
//! - `chunk`: one thread's piece of a step, cut from the batch's rows and stepped row by row;
//! - `scheduler`: how the threads share a step (own share first, help the late);
//! - `pool`: the persistent worker threads;
//! - `prefetch`: asking for the next environment's lines, where each thread measures it pays;
//! - `buffers`: the output arrays, borrowed or owned;
//! - `range`: the SIMD range check of a batch of actions;
//! - `conformance`: checks every game's batch engine must pass.
//!
//! The environment contract each row follows (rewards, illegal actions, seeding, autoreset) is
//! `crate::env`. No game lives here: each game names its own engine (`crate::maquis::VecEngine`
//! is `Engine<Maquis>`).

mod buffers;
mod chunk;
pub mod conformance;
mod engine;
pub mod pool;
mod prefetch;
mod range;
mod scheduler;
#[cfg(test)]
mod tests;

pub use buffers::{AlignedRows, ByteBuffers, OutputBuffers, Outputs, RowBuffers, RowStore};
pub use chunk::{Copies, ENDED_BYTES_PER_THREAD};
pub use engine::Engine;
pub use prefetch::lines as prefetch_lines;

pub use crate::env::{stream_seed, Autoreset, EnvError, IllegalPolicy, NO_OUTCOME};
