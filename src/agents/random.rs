//! Uniformly random legal play (exploration, benchmarks, the random baseline).

use crate::action::ActionMask;
use rand::Rng;

/// A uniformly random legal action, or None when nothing is legal (game over).
#[inline]
pub fn sample<R: Rng>(mask: &ActionMask, rng: &mut R) -> Option<usize> {
    let n = mask.count();
    if n == 0 {
        return None;
    }
    mask.nth(rng.gen_range(0..n))
}
