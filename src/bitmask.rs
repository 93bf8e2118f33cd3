//! A set of action indices as bits (the legal mask of the games whose masks need no SIMD path):
//! `BitMask<WORDS, BITS>` holds `BITS` actions in `WORDS` 64-bit words.

/// The legal actions of a state, `BITS` of them, as bits in `WORDS` words (`WORDS` = ⌈BITS/64⌉).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitMask<const WORDS: usize, const BITS: usize>(pub [u64; WORDS]);

impl<const WORDS: usize, const BITS: usize> Default for BitMask<WORDS, BITS> {
    fn default() -> Self {
        BitMask([0; WORDS])
    }
}

/// What the shared machinery asks of a game's legal mask (`env::versus`).
pub trait ActionSet {
    fn get(&self, i: usize) -> bool;
    fn count(&self) -> u32;
    /// The `k`-th legal action in index order.
    fn nth(&self, k: u32) -> Option<usize>;
    /// The mask as 0/1 bytes, index order.
    fn write_bytes(&self, out: &mut [u8]);
}

impl<const WORDS: usize, const BITS: usize> ActionSet for BitMask<WORDS, BITS> {
    fn get(&self, i: usize) -> bool {
        BitMask::get(self, i)
    }
    fn count(&self) -> u32 {
        BitMask::count(self)
    }
    fn nth(&self, k: u32) -> Option<usize> {
        BitMask::nth(self, k)
    }
    fn write_bytes(&self, out: &mut [u8]) {
        BitMask::write_bytes(self, out)
    }
}

impl<const WORDS: usize, const BITS: usize> BitMask<WORDS, BITS> {
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    pub fn get(&self, i: usize) -> bool {
        i < BITS && self.0[i / 64] >> (i % 64) & 1 == 1
    }
    /// Sets index `at + i` for every bit i of `bits` (a row of up to 64 actions at once; the
    /// indices must be below `BITS`).
    pub fn set_bits(&mut self, at: usize, bits: u64) {
        let (w, shift) = (at / 64, at % 64);
        self.0[w] |= bits << shift;
        if shift > 0 && bits >> (64 - shift) != 0 {
            self.0[w + 1] |= bits >> (64 - shift);
        }
    }
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// The set indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
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
    /// The k-th set index (k < count).
    pub fn nth(&self, k: u32) -> Option<usize> {
        self.iter().nth(k as usize)
    }
    /// The mask as 0/1 bytes, index order (`out.len()` ≥ `BITS`).
    pub fn write_bytes(&self, out: &mut [u8]) {
        // Eight bits at a time: the byte copied into every byte of a word, byte i keeping bit i,
        // then each byte's bit moved to its top (adding 0x7F carries into it from any bit set)
        // and down to 0 or 1.
        const ONES: u64 = 0x0101_0101_0101_0101;
        let spread = |k: usize| {
            let byte = self.0[k / 8] >> (8 * (k % 8)) & 0xFF;
            (((byte * ONES) & 0x8040_2010_0804_0201) + 0x7F7F_7F7F_7F7F_7F7F) >> 7 & ONES
        };
        let n = out.len().min(BITS);
        let mut chunks = out[..n].chunks_exact_mut(8);
        let mut k = 0;
        for chunk in &mut chunks {
            chunk.copy_from_slice(&spread(k).to_le_bytes());
            k += 1;
        }
        let tail = chunks.into_remainder();
        if !tail.is_empty() {
            let len = tail.len();
            tail.copy_from_slice(&spread(k).to_le_bytes()[..len]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BitMask;

    #[test]
    fn set_get_count_iter_nth_and_bytes_agree() {
        let mut m = BitMask::<3, 191>::default();
        assert!(m.is_empty() && m.iter().next().is_none() && m.nth(0).is_none());
        for i in [0, 63, 64, 127, 128, 190] {
            m.set(i);
        }
        assert_eq!(m.count(), 6);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![0, 63, 64, 127, 128, 190]);
        assert_eq!(m.nth(3), Some(127));
        assert_eq!(m.nth(6), None);
        assert!(m.get(190) && !m.get(189) && !m.get(191) && !m.get(1000));
        let mut full = BitMask::<1, 64>::default();
        full.set(63);
        let mut row = [9u8; 64];
        full.write_bytes(&mut row);
        assert!(row[..63].iter().all(|&b| b == 0) && row[63] == 1);
        let mut wide = BitMask::<23, 1447>::default();
        (0..1447).filter(|i| i * 7 % 5 < 2 || i % 64 == 63).for_each(|i| wide.set(i));
        let mut row = [9u8; 1447];
        wide.write_bytes(&mut row);
        assert!((0..1447).all(|i| row[i] == wide.get(i) as u8));
        let mut bytes = [9u8; 191];
        m.write_bytes(&mut bytes);
        assert_eq!(bytes.iter().map(|&b| b as u32).sum::<u32>(), 6);
        assert_eq!((bytes[64], bytes[65]), (1, 0));
    }

    #[test]
    fn set_bits_sets_each_bit_of_a_row_at_its_index() {
        for at in [0, 1, 19, 63, 64, 100, 127, 146] {
            let bits = (0x1F_F0F0_0F0F_0001u64 | 1 << 44) & ((1 << 45) - 1);
            let mut rows = BitMask::<3, 191>::default();
            rows.set_bits(at, bits);
            let mut one_by_one = BitMask::<3, 191>::default();
            (0..45).filter(|i| bits >> i & 1 == 1).for_each(|i| one_by_one.set(at + i));
            assert_eq!(rows, one_by_one, "at {at}");
        }
    }
}
