//! Uniformly random legal play (exploration, benchmarks, the random baseline).

use crate::maquis::action::{table, ActionMask};
use crate::draw::below;
use crate::maquis::rules::{apply_legal, legal_mask};
use crate::maquis::state::State;
use rand::Rng;

/// A uniformly random legal action, or None when nothing is legal (game over).
#[inline]
pub fn sample<R: Rng>(mask: &ActionMask, rng: &mut R) -> Option<usize> {
    mask.pick(|n| below(rng, n))
}

/// Plays uniformly random legal moves until the game is over; returns how many were played.
pub fn play_out<R: Rng>(s: &mut State, rng: &mut R) -> u64 {
    let mut moves = 0;
    while let Some(a) = sample(&legal_mask(s), rng) {
        apply_legal(s, table().actions[a]);
        moves += 1;
    }
    moves
}
