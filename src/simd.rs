//! The optional x86-64 instruction sets that the observation and mask writers use, detected once.
//!
//! `is_x86_feature_detected!` is cheap (a cached load and a test), but the writers checked it
//! about six times per environment step, and each check kept their small wrappers from being
//! inlined. The vector environment reads `Simd::detect()` once per block of environments and
//! hands it down; the other callers use the functions that detect for themselves.

use std::sync::OnceLock;

/// Which compiled variant of the writers this CPU can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    /// AVX2 and popcnt: the observation writer's variant, the 32-byte mask writer.
    pub avx2: bool,
    /// AVX-512 BW and VL: the masked-move mask writer.
    pub avx512: bool,
}

impl Simd {
    /// The x86-64 baseline (SSE2) or another architecture: the portable code only.
    pub const BASELINE: Simd = Simd { avx2: false, avx512: false };

    /// This CPU's (detected on the first call).
    #[inline]
    pub fn detect() -> Simd {
        static DETECTED: OnceLock<Simd> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                use std::is_x86_feature_detected as has;
                Simd {
                    avx2: has!("avx2") && has!("popcnt"),
                    avx512: has!("avx512bw") && has!("avx512vl"),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            Simd::BASELINE
        })
    }
}
