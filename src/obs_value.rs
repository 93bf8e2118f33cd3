//! The element types an observation row can be written in: `f32` (every game) or `u8` (games
//! whose features are all flags and small counts, such as Maquis), a quarter of the bytes to
//! copy, store and transfer.
//!
//! A game's encoder writes each value through these functions, once, generic over the type: the
//! `f32` row and the `u8` row come from the same code, so they cannot disagree.

use crate::game::Game;
use crate::simd::Simd;

/// One value of an observation row.
pub trait ObsValue: Copy + Default + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// A flag that is off / on.
    const OFF: Self;
    const ON: Self;
    /// `b` (0 or 1) as a flag.
    fn bit(b: u32) -> Self;
    /// The count `n` out of a fixed `d`: `n / d` as a float, `n` itself as a byte (the scale
    /// `1 / d` is the slice's, documented beside the layout).
    fn ratio(n: u8, d: u8) -> Self;
    /// The share `n / d` where `d` varies from row to row (so that no fixed scale recovers it
    /// from `n`): as a float `n / d`, as a byte the denominator `d` (the numerator is a value of
    /// its own in the row).
    fn share(n: u8, d: u8) -> Self;
    /// The count `n` back from `ratio(n, d)` (what an encoder that updates a row in place reads
    /// of what it wrote there).
    fn count(self, d: u8) -> u8;
}

impl ObsValue for f32 {
    const OFF: f32 = 0.0;
    const ON: f32 = 1.0;
    #[inline(always)]
    fn bit(b: u32) -> f32 {
        b as f32
    }
    #[inline(always)]
    fn ratio(n: u8, d: u8) -> f32 {
        n as f32 / d as f32
    }
    #[inline(always)]
    fn share(n: u8, d: u8) -> f32 {
        n as f32 / d as f32
    }
    #[inline(always)]
    fn count(self, d: u8) -> u8 {
        // n / d times d is within an ulp of n (n, d < 256): rounded, n exactly.
        (self * d as f32 + 0.5) as u8
    }
}

impl ObsValue for u8 {
    const OFF: u8 = 0;
    const ON: u8 = 1;
    #[inline(always)]
    fn bit(b: u32) -> u8 {
        b as u8
    }
    #[inline(always)]
    fn ratio(n: u8, _: u8) -> u8 {
        n
    }
    #[inline(always)]
    fn share(_: u8, d: u8) -> u8 {
        d
    }
    #[inline(always)]
    fn count(self, _: u8) -> u8 {
        self
    }
}

/// A value of a divisor row (`observation_divisors` of each game): what the encoder divides each
/// count by to give its `f32` value (1 for flags), recorded by the encoder itself. The `u8` form
/// of a `share` is its denominator, so its divisor is recorded as 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Divisor(pub u8);

impl ObsValue for Divisor {
    const OFF: Divisor = Divisor(1);
    const ON: Divisor = Divisor(1);
    fn bit(_: u32) -> Divisor {
        Divisor(1)
    }
    fn ratio(_: u8, d: u8) -> Divisor {
        Divisor(d)
    }
    fn share(_: u8, _: u8) -> Divisor {
        Divisor(0)
    }
    fn count(self, _: u8) -> u8 {
        0
    }
}

/// A game that writes its observation rows as `T` (every game writes `f32`; see `Game`).
pub trait Observes<T: ObsValue>: Game {
    /// Writes the whole observation of `s` into `out` (`obs_size()` values).
    fn write_observation_as(s: &Self::State, out: &mut [T]);
    /// As `Game::update_observation`, in rows of `T`.
    fn update_observation_as(simd: Simd, s: &Self::State, row: &mut [T], written: &mut Self::Written);
}

impl<G: Game> Observes<f32> for G {
    #[inline(always)]
    fn write_observation_as(s: &G::State, out: &mut [f32]) {
        G::write_observation(s, out)
    }
    #[inline(always)]
    fn update_observation_as(simd: Simd, s: &G::State, row: &mut [f32], written: &mut G::Written) {
        G::update_observation(simd, s, row, written)
    }
}

/// (name, offset, length) of each slice of an observation, in order.
pub type Layout = Vec<(&'static str, usize, usize)>;

/// Writes an observation slice after slice, recording their names and offsets when given a
/// `layout`: the layout is read off the encoder itself, so it cannot drift from it.
pub struct SliceWriter<'a, T> {
    pub out: &'a mut [T],
    pub pos: usize,
    pub layout: Option<&'a mut Layout>,
}

impl<'a, T: ObsValue> SliceWriter<'a, T> {
    pub fn new(out: &'a mut [T], layout: Option<&'a mut Layout>) -> SliceWriter<'a, T> {
        SliceWriter { out, pos: 0, layout }
    }
    /// The next `len` values as the slice `name`, zeroed.
    pub fn slice(&mut self, name: &'static str, len: usize) -> &mut [T] {
        if let Some(l) = self.layout.as_deref_mut() {
            l.push((name, self.pos, len));
        }
        let s = &mut self.out[self.pos..self.pos + len];
        s.fill(T::OFF);
        self.pos += len;
        s
    }
}

/// Sets entry `i` of a one-hot slice (nothing when `i` is out of it).
pub fn one_hot<T: ObsValue>(slice: &mut [T], i: usize) {
    if let Some(x) = slice.get_mut(i) {
        *x = T::ON;
    }
}
