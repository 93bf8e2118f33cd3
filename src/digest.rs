//! FNV-1a, 64 bit: a digest fixed across platforms and Rust versions (std's hasher is not), for
//! fingerprints and recorded trajectories.

/// The running FNV-1a digest of the bytes fed so far (`.0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// The digest of no bytes (the FNV offset basis).
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ x as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// `x`'s eight bytes, little-endian.
    pub fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
}
