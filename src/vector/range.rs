//! The range check of a batch of actions, once per step before any environment moves.

use crate::simd::Simd;

/// Every action is in `0..n`: `a - n` negative and `a` not, i.e. the sign bit of `(a - n) & !a`
/// set, for all. One AND over the batch, which vectorises (an early exit does not; a max needs a
/// 64-bit compare the baseline x86-64 target lacks): serial work in every step of a batch, so
/// compiled for AVX2 and AVX-512 too.
#[inline]
pub(crate) fn all_in_range(simd: Simd, actions: &[i64], n: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if simd.avx512 {
            // SAFETY: the CPU has AVX-512 F (`Simd::detect`).
            return unsafe { all_in_range_avx512(actions, n) };
        }
        if simd.avx2 {
            // SAFETY: the CPU has AVX2.
            return unsafe { all_in_range_avx2(actions, n) };
        }
    }
    all_in_range_generic(actions, n)
}

#[inline(always)]
pub(crate) fn all_in_range_generic(actions: &[i64], n: usize) -> bool {
    let n = n as i64;
    actions.iter().fold(-1i64, |m, &a| m & (a.wrapping_sub(n) & !a)) < 0
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn all_in_range_avx2(actions: &[i64], n: usize) -> bool {
    all_in_range_generic(actions, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn all_in_range_avx512(actions: &[i64], n: usize) -> bool {
    all_in_range_generic(actions, n)
}
