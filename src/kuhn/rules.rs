//! The driver of a hand: the seeded deal (K1, N1), the legal actions (B1) and applying one.

use super::ids::{decode, Card, Mask, Move};
use super::scenario::Scenario;
use super::state::State;
use crate::draw;
use crate::error::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// N1. The six deals (`first`'s card, `second`'s card) in the order a draw indexes them.
pub const DEALS: [[Card; 2]; 6] = {
    use Card::{Jack as J, King as K, Queen as Q};
    [[J, Q], [J, K], [Q, J], [Q, K], [K, J], [K, Q]]
};

/// N1. The deal of game seed `seed`: one draw below 6 from a ChaCha8 stream seeded with it.
pub fn deal(seed: u64) -> [Card; 2] {
    DEALS[draw::below(&mut ChaCha8Rng::seed_from_u64(seed), DEALS.len() as u32) as usize]
}

/// A new hand: `scenario`'s cards (N2), or else the deal of `seed` (N1); `first` to move.
pub fn new_game(seed: u64, scenario: &Scenario) -> Result<State> {
    scenario.validate()?;
    Ok(State::dealt(scenario.cards.unwrap_or_else(|| deal(seed))))
}

/// B1: both actions while the hand goes on, none once it is over.
pub fn legal_mask(s: &State) -> Mask {
    let mut m = Mask::default();
    if !s.is_over() {
        Move::ALL.iter().for_each(|a| m.set(a.idx()));
    }
    m
}

/// Plays `m` for the side to move, or says why it cannot (the hand is over); nothing changes then.
pub fn apply_move(s: &mut State, m: Move) -> Result<()> {
    if s.is_over() {
        return Err(Error::GameOver);
    }
    s.history.push(m);
    Ok(())
}

/// Plays the action with index `action` (0 `pass`, 1 `bet`).
pub fn apply(s: &mut State, action: i64) -> Result<()> {
    apply_move(s, decode(action)?)
}
