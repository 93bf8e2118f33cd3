//! K2, K3, R5: drawing (with the `reshuffle` card) and discarding.

use crate::error::Result;
use crate::maurice::cards::Card;
use crate::maurice::ids::Side;
use crate::maurice::state::State;

/// K3: with this many discards a `reshuffle` shuffles the discard pile back into the deck.
pub const RESHUFFLE_DISCARDS: usize = 15;

/// K3: `side` draws one card; nothing when the deck is empty. A `reshuffle` is resolved and the
/// draw made again.
pub fn draw(s: &mut State, side: Side) -> Result<()> {
    while !s.deck.is_empty() {
        let card = s.deck.remove(0);
        if card.is_playable() {
            let army = s.army_mut(side);
            army.hand.add(card);
            army.drawn.add(card);
            return Ok(());
        }
        if s.discard.len() >= RESHUFFLE_DISCARDS {
            // N3: the deck top first, then the discard pile oldest first.
            let mut cards = std::mem::take(&mut s.deck);
            cards.append(&mut s.discard);
            s.shuffler.shuffle(&mut cards)?;
            s.deck = cards;
            s.removed.push(card);
        } else if s.deck.iter().all(|c| !c.is_playable()) {
            s.removed.push(card);
        } else {
            let mut cards = std::mem::take(&mut s.deck);
            cards.push(card);
            s.shuffler.shuffle(&mut cards)?;
            s.deck = cards;
        }
    }
    Ok(())
}

/// R5: `side` draws `n` cards.
pub fn draw_n(s: &mut State, side: Side, n: usize) -> Result<()> {
    for _ in 0..n {
        draw(s, side)?;
    }
    Ok(())
}

/// K2, R5: one copy of `card` leaves `side`'s hand face up onto the discard pile — a copy drawn
/// this round first. The caller has checked that the hand holds one.
pub fn discard(s: &mut State, side: Side, card: Card) {
    let army = s.army_mut(side);
    let held = army.hand.remove(card);
    debug_assert!(held, "discarding a card not in hand");
    army.drawn.remove(card);
    s.discard.push(card);
}

/// A5: the whole hand is discarded (K1 order).
pub fn discard_hand(s: &mut State, side: Side) {
    for card in s.army(side).hand.cards() {
        discard(s, side, card);
    }
}
