//! P1–P2. The ten patrol cards and the deck: draw from the top, reshuffle the discard when empty.

use crate::maquis::ids::Location::{self, *};
use crate::draw::shuffle;
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
#[serde(from = "DeckCards", into = "DeckCards")]
pub struct PatrolDeck {
    pub cards: [u8; NUM_CARDS],
    pub top: u8,
    /// Reordering the discard is allowed; changing which cards it holds goes through `draw` and
    /// `ensure_top`, which keep `discard_set`.
    pub discard: [u8; NUM_CARDS],
    pub discard_len: u8,
    /// The cards in the discard, bit `c` for card `c`, kept by every change (the observation
    /// shows it after every draw; a loop over a discard of varying length mispredicts).
    discard_set: u16,
}

/// What a saved deck holds: `PatrolDeck` without the set it derives.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct DeckCards {
    cards: [u8; NUM_CARDS],
    top: u8,
    discard: [u8; NUM_CARDS],
    discard_len: u8,
}

impl From<DeckCards> for PatrolDeck {
    fn from(d: DeckCards) -> PatrolDeck {
        let mut deck = PatrolDeck { cards: d.cards, top: d.top, discard: d.discard, discard_len: d.discard_len, discard_set: 0 };
        deck.discard_set = deck.count_discard();
        deck
    }
}

impl From<PatrolDeck> for DeckCards {
    fn from(d: PatrolDeck) -> DeckCards {
        DeckCards { cards: d.cards, top: d.top, discard: d.discard, discard_len: d.discard_len }
    }
}

impl PatrolDeck {
    /// A deck holding exactly `order` (draw order, top first); the other cards are in the discard.
    pub fn from_order(order: &[u8]) -> PatrolDeck {
        let mut d = PatrolDeck {
            cards: [0; NUM_CARDS],
            top: (NUM_CARDS - order.len()) as u8,
            discard: [0; NUM_CARDS],
            discard_len: 0,
            discard_set: 0,
        };
        d.cards[d.top as usize..].copy_from_slice(order);
        for c in 0..NUM_CARDS as u8 {
            if !order.contains(&c) {
                d.discard[d.discard_len as usize] = c;
                d.discard_len += 1;
                d.discard_set |= 1 << c;
            }
        }
        d
    }

    pub fn shuffled<R: Rng>(rng: &mut R) -> PatrolDeck {
        let mut order: [u8; NUM_CARDS] = std::array::from_fn(|i| i as u8);
        shuffle(rng, &mut order);
        // The whole deck, nothing in the discard (what `from_order` gives for a full order).
        PatrolDeck { cards: order, top: 0, discard: [0; NUM_CARDS], discard_len: 0, discard_set: 0 }
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

    /// The discard as a set, bit `c` for card `c`.
    #[inline]
    pub fn discard_set(&self) -> u32 {
        self.discard_set as u32
    }

    /// `discard_set` counted from the discard itself (for a loaded deck; and the check that the
    /// kept one is right). Cards out of range count for nothing (`is_complete` refuses them).
    fn count_discard(&self) -> u16 {
        // `take`, not `discard()`: a malformed save may claim more than ten cards.
        let cards = self.discard.iter().take(self.discard_len as usize);
        cards.fold(0, |acc, &c| acc | 1u16.checked_shl(c as u32).unwrap_or(0))
    }

    /// P2: when a draw finds the deck empty, the discard is shuffled into a new deck first.
    #[inline]
    pub fn ensure_top<R: Rng>(&mut self, rng: &mut R) {
        if self.top as usize == NUM_CARDS {
            self.reshuffle(rng);
        }
    }

    // Out of line: a reshuffle comes once in ten draws at most, and inlined, its shuffle loop
    // made every draw save and restore six registers.
    #[cold]
    #[inline(never)]
    fn reshuffle<R: Rng>(&mut self, rng: &mut R) {
        let n = self.discard_len as usize;
        let start = NUM_CARDS - n;
        self.cards[start..].copy_from_slice(&self.discard[..n]);
        shuffle(rng, &mut self.cards[start..]);
        self.top = start as u8;
        self.discard_len = 0;
        self.discard_set = 0;
    }

    /// The top card, reshuffling first if needed (Infiltration's peek, Double Agent's reveal).
    pub fn peek<R: Rng>(&mut self, rng: &mut R) -> u8 {
        self.ensure_top(rng);
        self.cards[self.top as usize]
    }

    /// Draws the top card and puts it face up on the discard.
    #[inline]
    pub fn draw<R: Rng>(&mut self, rng: &mut R) -> u8 {
        self.ensure_top(rng);
        let card = self.cards[self.top as usize];
        self.top += 1;
        self.discard[self.discard_len as usize] = card;
        self.discard_len += 1;
        self.discard_set |= 1 << card;
        card
    }

    /// Determinization for search: reshuffle the hidden part of the deck, keeping the first
    /// `known_top` cards (seen by the player, e.g. under Infiltration) in place.
    pub fn determinize<R: Rng>(&mut self, rng: &mut R, known_top: usize) {
        let start = (self.top as usize + known_top).min(NUM_CARDS);
        shuffle(rng, &mut self.cards[start..]);
    }

    /// True when deck and discard together hold the ten cards once each (and the kept
    /// discard set is the discard's).
    pub fn is_complete(&self) -> bool {
        if self.top as usize > NUM_CARDS || self.discard_len as usize > NUM_CARDS {
            return false;
        }
        if self.discard_set != self.count_discard() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn p2_a_shuffled_deck_puts_every_card_in_every_place_equally_often() {
        // 20 000 shuffles of the ten cards: 2 000 expected in each (place, card) cell, σ ≈ 42.
        // A swap partner drawn from 0..i instead of 0..=i (Sattolo's cycles) leaves every
        // diagonal cell empty; a biased draw skews whole rows.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut counts = [[0u32; NUM_CARDS]; NUM_CARDS];
        for _ in 0..20_000 {
            for (place, &card) in PatrolDeck::shuffled(&mut rng).deck().iter().enumerate() {
                counts[place][card as usize] += 1;
            }
        }
        for (place, row) in counts.iter().enumerate() {
            for (card, &n) in row.iter().enumerate() {
                assert!((1_750..=2_250).contains(&n), "card {card} in place {place} {n} times of 20 000");
            }
        }
    }

    #[test]
    fn p2_the_kept_discard_set_follows_draws_reshuffles_and_saves() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut d = PatrolDeck::from_order(&[3, 1, 4]);
        for _ in 0..50 {
            let counted = d.discard().iter().fold(0, |acc, &c| acc | 1 << c);
            assert_eq!(d.discard_set(), counted);
            assert!(d.is_complete());
            // Saved without the set (the JSON keys are the four arrays and counts), loaded with it.
            let json = serde_json::to_value(d).unwrap();
            assert_eq!(json.as_object().unwrap().len(), 4);
            assert_eq!(serde_json::from_value::<PatrolDeck>(json).unwrap(), d);
            d.draw(&mut rng);
        }
        // A set that disagrees with the discard is refused.
        let mut bad = d;
        bad.discard_set ^= 1;
        assert!(!bad.is_complete());
        // A malformed save loads without a panic, and is refused.
        let mut json = serde_json::to_value(d).unwrap();
        json["discard_len"] = 11.into();
        assert!(!serde_json::from_value::<PatrolDeck>(json).unwrap().is_complete());
    }
}
