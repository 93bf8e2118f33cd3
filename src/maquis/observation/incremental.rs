//! The incremental writer: a row keeps what it was written from (`Written`), and an update
//! rewrites only the sections whose tracked groups of `State` changed since, compiled for AVX2 too.

use super::encode::{encode, Writer};
use super::OBS_SIZE;
use crate::maquis::state::State;
use crate::obs_value::ObsValue;
use crate::simd::Simd;

/// The parts of an observation to write: one bit per lane of `Written`. Each tracked group of
/// `State` (see `Tracked`) feeds its own sections; the other sections are written every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts {
    lanes: u32,
}

impl Parts {
    pub(crate) const SETUP: u32 = 1 << 0;
    pub(crate) const DAY: u32 = 1 << 1;
    pub(crate) const TRACKS: u32 = 1 << 2;
    pub(crate) const TOKENS: u32 = 1 << 3;
    pub(crate) const MARKS: u32 = 1 << 4;
    pub(crate) const MISSIONS: u32 = 1 << 5;
    pub(crate) const TODAY: u32 = 1 << 6;
    pub(crate) const ALL: Parts = Parts { lanes: u32::MAX };

    /// Any of `bits`.
    #[inline(always)]
    pub(crate) fn any(self, bits: u32) -> bool {
        self.lanes & bits != 0
    }
}

/// What an observation was written from, beyond the sections written every time: one lane per
/// bit of `Parts` (the setup, i.e. the game; the day and pass; the change counts of the tracked
/// groups; a spare lane, 0). Two vector compares find what changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Written {
    lanes: [u32; 8],
}

/// Bit `i` set when lane `i` of `a` and `b` differs.
#[inline(always)]
fn differing(a: &[u32; 8], b: &[u32; 8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 (always there on x86_64): four lanes per compare (a loop is not vectorised, and
        // costs several times as much).
        // SAFETY: two unaligned 16-byte loads from each 32-byte array.
        unsafe {
            let (a, b) = (a.as_ptr() as *const __m128i, b.as_ptr() as *const __m128i);
            let eq = |k: usize| {
                let (x, y) = (_mm_loadu_si128(a.add(k)), _mm_loadu_si128(b.add(k)));
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, y))) as u32
            };
            !(eq(0) | eq(1) << 4) & 0xff
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..8).fold(0, |bits, i| bits | ((a[i] != b[i]) as u32) << i)
    }
}

impl Written {
    /// Nothing written yet: the next update writes everything (no game has this setup lane).
    pub const NOTHING: Written = Written { lanes: [u32::MAX, 0, 0, 0, 0, 0, 0, 0] };

    #[inline(always)]
    fn of(s: &State) -> Written {
        Written {
            lanes: [
                s.difficulty as u32 | (s.mission_pool as u32) << 8,
                s.day as u32 | (s.pass as u32) << 8,
                s.tracks.changes(),
                s.tokens.changes(),
                s.marks.changes(),
                s.missions.changes(),
                s.today.changes(),
                // Spare (the deck's section is written every time).
                0,
            ],
        }
    }

    /// The parts that may differ between the observations of `self` and `now`. Another setup
    /// is another game (or nothing written): everything.
    #[inline(always)]
    fn changed(&self, now: &Written) -> Parts {
        let lanes = differing(&self.lanes, &now.lanes);
        if lanes & Parts::SETUP != 0 {
            return Parts::ALL;
        }
        Parts { lanes }
    }
}

#[inline]
pub(super) fn as_row<T>(out: &mut [T]) -> &mut [T; OBS_SIZE] {
    let n = out.len();
    out.try_into().unwrap_or_else(|_| panic!("an observation has {OBS_SIZE} values, the buffer {n}"))
}

/// Brings `out` up to date with `s`, rewriting only the sections that may have changed since
/// `written`, which says what `out` holds: the observation of an earlier position of the same
/// game, or `Written::NOTHING` (then everything is written). Change counts are only comparable
/// within one game, so after a loaded state too, start from `NOTHING`.
#[inline(always)]
pub fn update_observation<T: ObsValue>(s: &State, out: &mut [T], written: &mut Written) {
    update_observation_with(Simd::detect(), s, out, written)
}

/// `update_observation` with the instruction sets already detected.
#[inline(always)]
pub fn update_observation_with<T: ObsValue>(simd: Simd, s: &State, out: &mut [T], written: &mut Written) {
    let out = as_row(out);
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: the CPU has AVX2 and popcnt (`Simd::detect`).
        return unsafe { update_observation_avx2(s, out, written) };
    }
    update_observation_baseline(s, out, written)
}

/// `update_observation` for the x86-64 baseline and other architectures; kept out of line so
/// that the dispatch above stays small enough to inline.
#[inline(never)]
fn update_observation_baseline<T: ObsValue>(s: &State, out: &mut [T; OBS_SIZE], written: &mut Written) {
    update_observation_generic(s, out, written)
}

/// `update_observation` compiled for CPUs with AVX2 and popcnt, chosen at run time: the wheels
/// target the x86-64 baseline (SSE2), where the conversions below take twice the instructions
/// and counting bits has no instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
pub(super) unsafe fn update_observation_avx2<T: ObsValue>(s: &State, out: &mut [T; OBS_SIZE], written: &mut Written) {
    update_observation_generic(s, out, written)
}

#[inline(always)]
pub(super) fn update_observation_generic<T: ObsValue>(s: &State, out: &mut [T; OBS_SIZE], written: &mut Written) {
    let now = Written::of(s);
    let parts = written.changed(&now);
    *written = now;
    let mut w = Writer { buf: out, at: 0, end: OBS_SIZE, layout: None };
    encode(s, &mut w, parts);
    debug_assert_eq!(w.at, OBS_SIZE);
}
