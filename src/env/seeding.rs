//! The two streams of an environment, from its stream seed, and the stream seeds of a vector.

use crate::draw::splitmix64;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The stream seed of env `env` in a vector seeded with `seed` (pure-Rust derivation).
pub fn stream_seed(seed: u64, env: usize) -> u64 {
    splitmix64(seed ^ splitmix64(env as u64))
}

/// The episode stream (stream 0) and the sampling stream (stream 1) of `seed`.
pub(crate) fn streams(seed: u64) -> (ChaCha8Rng, ChaCha8Rng) {
    let episode = ChaCha8Rng::seed_from_u64(seed);
    let mut sample = ChaCha8Rng::seed_from_u64(seed);
    sample.set_stream(1);
    (episode, sample)
}
