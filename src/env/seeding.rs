//! The two streams of an environment, from its stream seed, and the stream seeds of a vector.
//!
//! Env `i` of a vector seeded with `seed` gets a hash of (seed, i), never `seed + i`: vectors
//! seeded `seed`, `seed + 1`, ... (as RLlib seeds its env runners) then share no stream. The hash
//! is the one the Python vector envs use, written here once so that Rust and Python agree:
//! `maquis.sub_env_seed(seed, i)` (NumPy's `SeedSequence(seed, spawn_key=(i,))`, first 64-bit
//! word) is the single env's seed that replays env `i`, and the single env turns a seed `s` into
//! its stream seed as Gymnasium's `np_random(s)` then one full-range `integers` draw would (NumPy's
//! `PCG64` seeded by `SeedSequence(s)`, its first output). `stream_seed(seed, i)` is the whole
//! chain: what `Engine::seed_all(seed)` and `MaquisVectorEnv.reset(seed=seed)` give env `i`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// NumPy's `SeedSequence` constants (numpy/random/bit_generator.pyx).
const INIT_A: u32 = 0x43b0_d7e5;
const MULT_A: u32 = 0x931e_8875;
const INIT_B: u32 = 0x8b51_f9dd;
const MULT_B: u32 = 0x58f3_8ded;
const MIX_MULT_L: u32 = 0xca01_f9dd;
const MIX_MULT_R: u32 = 0x4973_f715;
const POOL_SIZE: usize = 4;
/// PCG64's 128-bit LCG multiplier (NumPy's `PCG_DEFAULT_MULTIPLIER_128`).
const PCG_MULT: u128 = (2549297995355413924u128 << 64) + 4865540595714422341u128;

/// An integer as NumPy's `SeedSequence` reads it: its 32-bit words, least significant first (at
/// least one).
pub fn seed_words(mut n: u128) -> Vec<u32> {
    let mut words = vec![n as u32];
    n >>= 32;
    while n > 0 {
        words.push(n as u32);
        n >>= 32;
    }
    words
}

/// The pool of `SeedSequence(entropy, spawn_key)`, with both given as 32-bit words.
fn seed_sequence_pool(entropy: &[u32], spawn_key: &[u32]) -> [u32; POOL_SIZE] {
    let mut run = entropy.to_vec();
    // NumPy pads the entropy to the pool size when there is a spawn key, so that the key never
    // reads as entropy.
    if !spawn_key.is_empty() && run.len() < POOL_SIZE {
        run.resize(POOL_SIZE, 0);
    }
    run.extend_from_slice(spawn_key);
    let mut hash_const = INIT_A;
    let mut hashmix = |value: u32| {
        let mut v = value ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        v = v.wrapping_mul(hash_const);
        v ^ (v >> 16)
    };
    let mix = |x: u32, y: u32| {
        let r = MIX_MULT_L.wrapping_mul(x).wrapping_sub(MIX_MULT_R.wrapping_mul(y));
        r ^ (r >> 16)
    };
    let mut pool = [0u32; POOL_SIZE];
    for (i, p) in pool.iter_mut().enumerate() {
        *p = hashmix(run.get(i).copied().unwrap_or(0));
    }
    for src in 0..POOL_SIZE {
        for dst in 0..POOL_SIZE {
            if src != dst {
                pool[dst] = mix(pool[dst], hashmix(pool[src]));
            }
        }
    }
    for &word in run.iter().skip(POOL_SIZE) {
        for p in pool.iter_mut() {
            *p = mix(*p, hashmix(word));
        }
    }
    pool
}

/// `SeedSequence.generate_state(N, np.uint64)` of `pool`.
fn generate_u64<const N: usize>(pool: &[u32; POOL_SIZE]) -> [u64; N] {
    let mut hash_const = INIT_B;
    let mut word = |i: usize| {
        let mut v = pool[i % POOL_SIZE] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        v = v.wrapping_mul(hash_const);
        (v ^ (v >> 16)) as u64
    };
    let mut out = [0u64; N];
    for (k, o) in out.iter_mut().enumerate() {
        *o = word(2 * k) | (word(2 * k + 1) << 32);
    }
    out
}

/// `maquis.sub_env_seed(seed, index)` for a seed given as its 32-bit words (`seed_words`): the
/// single-env seed that replays env `index` of a vector seeded with that seed.
pub fn sub_env_seed(seed: &[u32], index: usize) -> u64 {
    generate_u64::<1>(&seed_sequence_pool(seed, &seed_words(index as u128)))[0]
}

/// The stream seed a single env reset with `seed` draws: the first output of NumPy's `PCG64`
/// seeded by `SeedSequence(seed)` (Gymnasium's `np_random(seed)`), as the Python envs draw it.
pub fn single_env_stream_seed(seed: u64) -> u64 {
    let s = generate_u64::<4>(&seed_sequence_pool(&seed_words(seed as u128), &[]));
    let (initstate, initseq) = (((s[0] as u128) << 64) | s[1] as u128, ((s[2] as u128) << 64) | s[3] as u128);
    let inc = (initseq << 1) | 1;
    let step = |state: u128| state.wrapping_mul(PCG_MULT).wrapping_add(inc);
    // pcg64_srandom_r, then one step of the draw.
    let state = step(step(0).wrapping_add(initstate));
    let state = step(state);
    // The XSL-RR output.
    (((state >> 64) as u64) ^ (state as u64)).rotate_right((state >> 122) as u32)
}

/// The stream seed of env `env` in a vector seeded with `seed`: the one the single env reset with
/// `sub_env_seed(seed, env)` draws.
pub fn stream_seed(seed: u64, env: usize) -> u64 {
    single_env_stream_seed(sub_env_seed(&seed_words(seed as u128), env))
}

/// The episode stream (stream 0) and the sampling stream (stream 1) of `seed`.
pub(crate) fn streams(seed: u64) -> (ChaCha8Rng, ChaCha8Rng) {
    let episode = ChaCha8Rng::seed_from_u64(seed);
    let mut sample = ChaCha8Rng::seed_from_u64(seed);
    sample.set_stream(1);
    (episode, sample)
}

#[cfg(test)]
mod tests {
    use super::*;

    // The values NumPy 2.4 gives: `SeedSequence(seed, spawn_key=(i,)).generate_state(1,
    // np.uint64)[0]`, and `gymnasium.utils.seeding.np_random(s)[0].integers(0, 2**64,
    // dtype=np.uint64)`.
    #[test]
    fn sub_env_seeds_are_numpys_seed_sequence_spawns() {
        assert_eq!(sub_env_seed(&seed_words(0), 0), 8668861027912758289);
        assert_eq!(sub_env_seed(&seed_words(7), 3), 6823953754371609207);
        assert_eq!(sub_env_seed(&seed_words((1 << 63) + 5), 1000), 17416399566448831410);
    }

    #[test]
    fn single_env_stream_seeds_are_gymnasiums_np_random_draws() {
        assert_eq!(single_env_stream_seed(8668861027912758289), 16219912208487427077);
        assert_eq!(single_env_stream_seed(6823953754371609207), 1094360110608287726);
        assert_eq!(single_env_stream_seed(0), 11749869230777074271);
        assert_eq!(single_env_stream_seed(12345), 4193609425186963869);
        assert_eq!(stream_seed(7, 3), 1094360110608287726);
    }

    #[test]
    fn offset_seeds_give_distinct_streams() {
        // Runners seeded 0..8, 16 envs each: 128 streams, where seed + i would give 23.
        let mut seeds: Vec<u64> = (0..8).flat_map(|w| (0..16).map(move |i| stream_seed(w, i))).collect();
        seeds.sort_unstable();
        seeds.dedup();
        assert_eq!(seeds.len(), 128);
    }
}
