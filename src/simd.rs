//! The optional x86-64 instruction sets that the hot paths use (bit counts, the k-th legal
//! action, the observation and mask writers), detected once per process.
//!
//! `is_x86_feature_detected!` is cheap (a cached load and a test), but the writers checked it
//! about six times per environment step, and each check kept their small wrappers from being
//! inlined. The vector environment reads `Simd::detect()` once per step and hands it down; the
//! other callers use the functions that detect for themselves.

use std::sync::OnceLock;

/// Which compiled variant of the writers this CPU can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    /// AVX2 and popcnt: the observation writer's variant, the 32-byte mask writer.
    pub avx2: bool,
    /// AVX-512 F, BW and VL: the masked-move mask writer.
    pub avx512: bool,
    /// The popcnt instruction: mask counts (the baseline x86-64 target counts bits in software).
    pub popcnt: bool,
    /// BMI2 and popcnt, with a fast `pdep`: the k-th legal action. AMD CPUs before Zen 3 run
    /// `pdep` in microcode, hundreds of cycles, slower than the portable select.
    pub pdep: bool,
}

impl Simd {
    /// The x86-64 baseline (SSE2) or another architecture: the portable code only.
    pub const BASELINE: Simd = Simd { avx2: false, avx512: false, popcnt: false, pdep: false };

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
                    avx512: has!("avx512f") && has!("avx512bw") && has!("avx512vl"),
                    popcnt: has!("popcnt"),
                    pdep: has!("bmi2") && has!("popcnt") && !amd_before_zen3(),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            Simd::BASELINE
        })
    }
}

/// An AMD CPU of family 0x17 or older (Zen 2 and before), whose `pdep` is microcoded.
#[cfg(target_arch = "x86_64")]
fn amd_before_zen3() -> bool {
    use std::arch::x86_64::__cpuid;
    // cpuid leaves 0 and 1 exist on every x86-64 CPU.
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    // Family 0xF plus the extended family: 0x17 is Zen 1 and 2, 0x19 Zen 3 and 4.
    let family = (signature >> 8 & 0xf) + (signature >> 20 & 0xff);
    amd && family < 0x19
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detected_once_and_as_std_says() {
        let s = Simd::detect();
        assert_eq!(s, Simd::detect());
        #[cfg(target_arch = "x86_64")]
        {
            use std::is_x86_feature_detected as has;
            assert_eq!(s.avx2, has!("avx2") && has!("popcnt"));
            assert_eq!(s.avx512, has!("avx512f") && has!("avx512bw") && has!("avx512vl"));
            assert_eq!(s.popcnt, has!("popcnt"));
            // pdep only where BMI2 is, and never on a microcoded pdep.
            assert!(!s.pdep || (has!("bmi2") && s.popcnt && !amd_before_zen3()));
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(s, Simd::BASELINE);
    }
}
