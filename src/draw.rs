//! Uniform draws from the game's and the environments' ChaCha8 streams: an index below `n`, an
//! element of a slice, a shuffle; and SplitMix64, the one integer mixer (stream seeds of a
//! vector's environments, the agents' own cheap generator).
//!
//! Each takes `Uniform::new(0, n)`'s draw, whose threshold is exact: one 32-bit word, and a second
//! only with probability below n / 2^32. rand's `gen_range`, `choose` and `shuffle` round the
//! threshold up to a power of two and reject up to half the words, and their loop's exit then
//! mispredicts, which slows random play down measurably. Which numbers a seed gives is part of
//! the trajectories: changing a draw here changes every game.

use rand::distributions::{Distribution, Uniform};
use rand::Rng;

/// A uniformly random index in `0..n` (`n` ≥ 1).
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    Uniform::new(0, n).sample(rng)
}

/// A uniformly random element of `items`, None if it is empty.
pub fn choose<'a, T, R: Rng + ?Sized>(rng: &mut R, items: &'a [T]) -> Option<&'a T> {
    let n = u32::try_from(items.len()).ok().filter(|&n| n > 0)?;
    items.get(below(rng, n) as usize)
}

/// Fisher–Yates: every order of `items` equally likely.
pub fn shuffle<T, R: Rng + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        // Slices here are a few cards; `i + 1` fits in a u32.
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// SplitMix64's increment (2^64 / φ).
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output for state `z`: spreads nearby integers over the whole u64 range.
#[inline]
pub fn splitmix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 generator: a tiny, fast, deterministic stream for the agents' own choices
/// (never the game's randomness, which is ChaCha8).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed ^ GOLDEN)
    }
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let z = self.0;
        self.0 = z.wrapping_add(GOLDEN);
        splitmix64(z)
    }
    /// An index in `0..n` (multiply-shift on the high 32 bits).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
    /// A float in `[0, 1)` with 53 random bits.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn below_draws_every_index_equally_often() {
        // 70 000 draws below 7: 10 000 expected each, σ ≈ 93. A threshold off by one, or a
        // draw of `0..n - 1`, shows as a count far off or an empty last index.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[below(&mut rng, 7) as usize] += 1;
        }
        assert!(counts.iter().all(|c| (9_500..=10_500).contains(c)), "{counts:?}");
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn choose_gives_none_for_nothing_and_every_element_otherwise() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        assert_eq!(choose::<u8, _>(&mut rng, &[]), None);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[*choose(&mut rng, &[0, 1, 2, 3, 4]).unwrap()] = true;
        }
        assert_eq!(seen, [true; 5]);
    }

    #[test]
    fn splitmix_generator_is_the_stream_of_the_mixer() {
        // Known first output of SplitMix64 seeded with 0 (Vigna's reference implementation).
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        let mut g = SplitMix64::new(5);
        let s0 = 5 ^ GOLDEN;
        assert_eq!(g.next_u64(), splitmix64(s0));
        assert_eq!(g.next_u64(), splitmix64(s0.wrapping_add(GOLDEN)));
    }
}
