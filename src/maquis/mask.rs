//! `ActionMask`: the legal actions as a bitset over the flat action space, with the fast paths
//! that read it (count, the k-th set bit for uniform sampling, one byte per action for numpy),
//! each compiled for the instruction sets the CPU has (`Simd::detect`).

use super::action::NUM_ACTIONS;
use crate::simd::Simd;

/// Whether the CPU counts bits in one instruction (`Simd::detect`).
#[cfg(target_arch = "x86_64")]
#[inline]
fn popcnt() -> bool {
    Simd::detect().popcnt
}

/// Whether the CPU has BMI2 (and popcnt) with a fast `pdep` (`Simd::detect`).
#[cfg(target_arch = "x86_64")]
#[inline]
fn fast_pdep() -> bool {
    Simd::detect().pdep
}

/// `SELECT_IN_BYTE[b][k]`: the position of the k-th (0-based) set bit of the byte `b`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// A set of legal actions as a bitset over the N indices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ActionMask(pub [u64; 4]);

impl ActionMask {
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }
    #[inline]
    pub fn count(&self) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if popcnt() {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            return unsafe { self.count_popcnt() };
        }
        self.count_generic()
    }
    #[inline(always)]
    fn count_generic(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// `count` compiled for CPUs with `popcnt` (the baseline x86-64 target counts bits in software).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn count_popcnt(&self) -> u32 {
        self.count_generic()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// The legal indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }
    /// Writes the mask as one byte per action, 0 or 1, into `out` (length N): the layout of numpy
    /// `int8` and `bool` arrays. 32 actions at a time with AVX-512 or AVX2 (chosen at run time),
    /// else eight per table lookup.
    #[inline]
    pub fn write_bytes(&self, out: &mut [u8]) {
        self.write_bytes_with(Simd::detect(), out)
    }

    /// `write_bytes` with the instruction sets already detected.
    #[inline]
    pub fn write_bytes_with(&self, simd: Simd, out: &mut [u8]) {
        #[cfg(target_arch = "x86_64")]
        if simd.avx512 {
            // SAFETY: the CPU has AVX-512 BW and VL (`Simd::detect`).
            return unsafe { self.write_bytes_avx512(out) };
        }
        #[cfg(target_arch = "x86_64")]
        if simd.avx2 {
            // SAFETY: the CPU has AVX2 (`Simd::detect`).
            return unsafe { self.write_bytes_avx2(out) };
        }
        self.write_bytes_generic(out)
    }

    /// `write_bytes`, 32 actions per step: each byte picks its bit of a broadcast 32-bit word.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn write_bytes_avx2(&self, out: &mut [u8]) {
        use std::arch::x86_64::*;
        let out = &mut out[..NUM_ACTIONS];
        // Byte j of a group takes byte j / 8 of the word (vpshufb picks within each 128-bit
        // lane, and the broadcast puts the whole word in both), then tests its bit j % 8.
        let pick = _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3,
            3, 3, 3,
        );
        let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let one = _mm256_set1_epi8(1);
        // The 32 actions from `start` on.
        let bytes = |start: usize| {
            let (w, b) = (start / 64, start % 64);
            let high = if b > 32 { self.0[w + 1] << (64 - b) } else { 0 };
            let word = (self.0[w] >> b | high) as u32;
            let v = _mm256_shuffle_epi8(_mm256_set1_epi32(word as i32), pick);
            _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit), one)
        };
        const _: () = assert!(NUM_ACTIONS >= 32 && NUM_ACTIONS <= 256);
        for g in 0..NUM_ACTIONS / 32 {
            // SAFETY: bytes 32g..32g+32 are inside `out` (g < NUM_ACTIONS / 32).
            _mm256_storeu_si256(out.as_mut_ptr().add(32 * g) as *mut __m256i, bytes(32 * g));
        }
        // The last 32 actions (overlapping the last group: the same bytes again).
        let start = NUM_ACTIONS - 32;
        // SAFETY: bytes start..NUM_ACTIONS are inside `out`.
        _mm256_storeu_si256(out.as_mut_ptr().add(start) as *mut __m256i, bytes(start));
    }

    /// `write_bytes`, 32 actions per masked move: AVX-512 turns 32 bits into 32 bytes in one
    /// instruction (256-bit registers only, so that the core keeps its AVX2 clock).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    unsafe fn write_bytes_avx512(&self, out: &mut [u8]) {
        use std::arch::x86_64::*;
        let out = &mut out[..NUM_ACTIONS];
        let one = _mm256_set1_epi8(1);
        const GROUPS: usize = NUM_ACTIONS.div_ceil(32);
        const _: () = assert!(GROUPS <= 8);
        let p = out.as_mut_ptr();
        for g in 0..GROUPS - 1 {
            let bits = (self.0[g / 2] >> (32 * (g % 2))) as u32;
            // SAFETY: bytes 32g..32g+32 are inside `out` (g < GROUPS - 1).
            _mm256_storeu_si256(p.add(32 * g) as *mut __m256i, _mm256_maskz_mov_epi8(bits, one));
        }
        // The last group stores only the bytes that exist.
        let g = GROUPS - 1;
        let bits = (self.0[g / 2] >> (32 * (g % 2))) as u32;
        let tail = (1u64 << (NUM_ACTIONS - 32 * g)) - 1;
        // SAFETY: the masked store writes bytes 32g..NUM_ACTIONS only.
        _mm256_mask_storeu_epi8(p.add(32 * g) as *mut i8, tail as u32, _mm256_maskz_mov_epi8(bits, one));
    }

    #[inline(always)]
    fn write_bytes_generic(&self, out: &mut [u8]) {
        // SPREAD[b]: bit i of b → byte i (0 or 1), little-endian.
        const SPREAD: [u64; 256] = {
            let mut t = [0u64; 256];
            let mut b = 0;
            while b < 256 {
                let mut i = 0;
                while i < 8 {
                    t[b] |= ((b as u64 >> i) & 1) << (8 * i);
                    i += 1;
                }
                b += 1;
            }
            t
        };
        let out = &mut out[..NUM_ACTIONS];
        let mut chunks = out.chunks_exact_mut(8);
        for (k, chunk) in (&mut chunks).enumerate() {
            let byte = (self.0[k >> 3] >> ((k & 7) * 8)) as u8;
            chunk.copy_from_slice(&SPREAD[byte as usize].to_le_bytes());
        }
        let done = NUM_ACTIONS / 8 * 8;
        for (j, x) in chunks.into_remainder().iter_mut().enumerate() {
            *x = self.get(done + j) as u8;
        }
    }

    /// The `draw(n)`-th legal index, `n` the number of legal actions (None, without calling
    /// `draw`, when there are none): `nth(draw(count()))` counting the bits once, for uniform
    /// sampling.
    #[inline]
    pub fn pick(&self, draw: impl FnOnce(u32) -> u32) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if fast_pdep() {
            // SAFETY: the CPU has BMI2 and popcnt (checked by fast_pdep).
            return unsafe { self.pick_pdep(draw) };
        }
        self.pick_portable(draw)
    }
    // Out of line, so that `pick` inlines into its callers as a test and a call.
    #[inline(never)]
    fn pick_portable(&self, draw: impl FnOnce(u32) -> u32) -> Option<usize> {
        match self.count() {
            0 => None,
            n => self.nth(draw(n)),
        }
    }

    /// The k-th legal index (0-based), for uniform sampling without allocation.
    #[inline]
    pub fn nth(&self, k: u32) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if fast_pdep() {
            // SAFETY: the CPU has BMI2 and popcnt (checked by fast_pdep).
            return unsafe { self.nth_pdep(k) };
        }
        #[cfg(target_arch = "x86_64")]
        if popcnt() {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            return unsafe { self.nth_popcnt(k) };
        }
        self.nth_generic(k)
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn nth_popcnt(&self, k: u32) -> Option<usize> {
        self.nth_generic(k)
    }
    /// `nth` with BMI2: the word is chosen by comparisons (no branch on the data), and `pdep`
    /// deposits the bit `1 << k` onto the k-th set bit of the word.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn nth_pdep(&self, k: u32) -> Option<usize> {
        self.pick_pdep(|_| k)
    }
    /// `pick` with BMI2: `nth_pdep` on the counts that gave `n`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn pick_pdep(&self, draw: impl FnOnce(u32) -> u32) -> Option<usize> {
        let c = self.0.map(|w| w.count_ones());
        let before = [0, c[0], c[0] + c[1], c[0] + c[1] + c[2]];
        let n = before[3] + c[3];
        if n == 0 {
            return None;
        }
        let k = draw(n);
        if k >= n {
            return None;
        }
        let w = (k >= before[1]) as usize + (k >= before[2]) as usize + (k >= before[3]) as usize;
        let bit = std::arch::x86_64::_pdep_u64(1 << (k - before[w]), self.0[w]);
        Some(w * 64 + bit.trailing_zeros() as usize)
    }
    #[inline(always)]
    fn nth_generic(&self, mut k: u32) -> Option<usize> {
        for w in 0..4 {
            let c = self.0[w].count_ones();
            if k < c {
                // Select the k-th set bit without data-dependent branches (they mispredict):
                // skip the low half, quarter, eighth when k lies above them, then look the
                // position up within the byte.
                let (mut bits, mut at) = (self.0[w], 0);
                for width in [32, 16, 8] {
                    let low = (bits & ((1u64 << width) - 1)).count_ones();
                    let skip = k >= low;
                    k -= if skip { low } else { 0 };
                    let shift = if skip { width } else { 0 };
                    bits >>= shift;
                    at += shift;
                }
                return Some(w * 64 + at + SELECT_IN_BYTE[(bits & 0xff) as usize][k as usize] as usize);
            }
            k -= c;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_is_the_kth_legal_index_on_every_code_path() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for case in 0..3000 {
            let mut m = ActionMask::default();
            for w in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Sparse, dense, empty and full words.
                m.0[w] = match (case + w) % 5 {
                    0 => x & x >> 7 & x >> 13,
                    1 => 0,
                    2 => u64::MAX,
                    _ => x,
                };
            }
            let legal: Vec<usize> = m.iter().collect();
            for k in 0..=legal.len() as u32 + 1 {
                let want = legal.get(k as usize).copied();
                assert_eq!(m.nth(k), want);
                assert_eq!(m.nth_generic(k), want);
                // `pick` hands `draw` the count, and takes its answer as `nth` does.
                let picked = m.pick(|n| {
                    assert_eq!(n as usize, legal.len());
                    k
                });
                assert_eq!(picked, if legal.is_empty() { None } else { want });
                assert_eq!(m.pick_portable(|_| k), picked);
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt") {
                    // SAFETY: the CPU has BMI2 and popcnt.
                    assert_eq!(unsafe { m.nth_pdep(k) }, want);
                }
            }
        }
    }

    #[test]
    fn mask_bytes_are_the_bits_on_every_code_path() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut m = ActionMask::default();
            for w in 0..4 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                m.0[w] = x ^ (x >> 29);
            }
            m.0[3] &= (1u64 << (NUM_ACTIONS - 192)) - 1;
            let want: Vec<u8> = (0..NUM_ACTIONS).map(|i| m.get(i) as u8).collect();
            let mut got = vec![7u8; NUM_ACTIONS];
            m.write_bytes(&mut got);
            assert_eq!(got, want);
            got.fill(7);
            m.write_bytes_generic(&mut got);
            assert_eq!(got, want);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                got.fill(7);
                // SAFETY: the CPU has AVX2.
                unsafe { m.write_bytes_avx2(&mut got) };
                assert_eq!(got, want);
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vl") {
                // One byte past the row: the masked tail must not touch it.
                let mut row = vec![7u8; NUM_ACTIONS + 1];
                // SAFETY: the CPU has AVX-512 BW and VL.
                unsafe { m.write_bytes_avx512(&mut row) };
                assert_eq!(row[..NUM_ACTIONS], want[..]);
                assert_eq!(row[NUM_ACTIONS], 7);
            }
        }
    }
}
