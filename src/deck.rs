//! P1–P2. The ten patrol cards and the deck: draw from the top, reshuffle the discard when empty.

use crate::ids::Location::{self, *};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// P1. Each card lists three locations in order.
pub const PATROL_CARDS: [[Location; 3]; 10] = [
    [PontLeveque, PontDuNord, Doctor], // 0
    [RadioB, Grocer, BlackMarket],     // 1
    [Grocer, PoorDistrict, Doctor],    // 2
    [RadioA, PontLeveque, BlackMarket], // 3
    [RadioA, RueBaradat, Grocer],      // 4
    [PontLeveque, BlackMarket, Doctor], // 5
    [RadioB, RueBaradat, PontLeveque], // 6
    [Fence, PontDuNord, PontLeveque],  // 7
    [Grocer, PontDuNord, Fence],       // 8
    [Fence, RueBaradat, PoorDistrict], // 9
];
pub const NUM_CARDS: usize = PATROL_CARDS.len();

/// P2. The deck and the face-up discard, in fixed arrays (no allocation when cloned or drawn).
/// The deck is `cards[top..]` in draw order; the discard is `discard[..discard_len]`, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PatrolDeck {
    pub cards: [u8; NUM_CARDS],
    pub top: u8,
    pub discard: [u8; NUM_CARDS],
    pub discard_len: u8,
}

impl PatrolDeck {
    /// A deck holding exactly `order` (draw order, top first); the other cards are in the discard.
    pub fn from_order(order: &[u8]) -> PatrolDeck {
        let mut d = PatrolDeck { cards: [0; NUM_CARDS], top: (NUM_CARDS - order.len()) as u8, discard: [0; NUM_CARDS], discard_len: 0 };
        d.cards[d.top as usize..].copy_from_slice(order);
        for c in 0..NUM_CARDS as u8 {
            if !order.contains(&c) {
                d.discard[d.discard_len as usize] = c;
                d.discard_len += 1;
            }
        }
        d
    }

    pub fn shuffled<R: Rng>(rng: &mut R) -> PatrolDeck {
        let mut order: [u8; NUM_CARDS] = std::array::from_fn(|i| i as u8);
        order.shuffle(rng);
        // The whole deck, nothing in the discard (what `from_order` gives for a full order).
        PatrolDeck { cards: order, top: 0, discard: [0; NUM_CARDS], discard_len: 0 }
    }

    /// The remaining deck, top first.
    #[inline]
    pub fn deck(&self) -> &[u8] {
        &self.cards[self.top as usize..]
    }
    #[inline]
    pub fn discard(&self) -> &[u8] {
        &self.discard[..self.discard_len as usize]
    }

    /// P2: when a draw finds the deck empty, the discard is shuffled into a new deck first.
    pub fn ensure_top<R: Rng>(&mut self, rng: &mut R) {
        if self.top as usize == NUM_CARDS {
            let n = self.discard_len as usize;
            let start = NUM_CARDS - n;
            self.cards[start..].copy_from_slice(&self.discard[..n]);
            self.cards[start..].shuffle(rng);
            self.top = start as u8;
            self.discard_len = 0;
        }
    }

    /// The top card, reshuffling first if needed (Infiltration's peek, Double Agent's reveal).
    pub fn peek<R: Rng>(&mut self, rng: &mut R) -> u8 {
        self.ensure_top(rng);
        self.cards[self.top as usize]
    }

    /// Draws the top card and puts it face up on the discard.
    pub fn draw<R: Rng>(&mut self, rng: &mut R) -> u8 {
        self.ensure_top(rng);
        let card = self.cards[self.top as usize];
        self.top += 1;
        self.discard[self.discard_len as usize] = card;
        self.discard_len += 1;
        card
    }

    /// Determinization for search: reshuffle the hidden part of the deck, keeping the first
    /// `known_top` cards (seen by the player, e.g. under Infiltration) in place.
    pub fn determinize<R: Rng>(&mut self, rng: &mut R, known_top: usize) {
        let start = (self.top as usize + known_top).min(NUM_CARDS);
        self.cards[start..].shuffle(rng);
    }

    /// True when deck and discard together hold the ten cards once each.
    pub fn is_complete(&self) -> bool {
        if self.top as usize > NUM_CARDS || self.discard_len as usize > NUM_CARDS {
            return false;
        }
        let mut seen = [false; NUM_CARDS];
        for &c in self.deck().iter().chain(self.discard().iter()) {
            if (c as usize) >= NUM_CARDS || seen[c as usize] {
                return false;
            }
            seen[c as usize] = true;
        }
        seen.iter().all(|&x| x)
    }
}
