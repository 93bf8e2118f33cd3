//! Versioned JSON saves of a hand, `{"format": "maquis.kuhn", "version": 1, "state": {"cards":
//! ["K", "J"], "history": ["pass", "bet"]}}`. Loading checks every invariant and names the field
//! that breaks one, so a bad save is an error here rather than a surprise later.

use super::ids::Move;
use super::state::State;
use crate::error::{Error, Result};

/// The save's format tag; its version is 1.
pub const FORMAT: &str = "maquis.kuhn";

/// The hand as a versioned JSON string.
pub fn save_state(s: &State) -> String {
    crate::versioned::save(FORMAT, 1, s)
}

/// A hand from `save_state`'s JSON, validated.
pub fn load_state(text: &str) -> Result<State> {
    let value = crate::versioned::open(text, FORMAT, 1, "Kuhn poker")?;
    let s = serde_json::from_value(value).map_err(|e| Error::BadSave(format!("state: {e}")))?;
    validate(&s).map(|()| s)
}

/// K1: two different cards; B2–B4: no move after the hand has ended.
pub fn validate(s: &State) -> Result<()> {
    if s.cards[0] == s.cards[1] {
        return Err(Error::BadSave(format!("state.cards: both sides hold '{}' (K1: the two cards differ)", s.cards[0])));
    }
    let mut replay = State::dealt(s.cards);
    for (k, m) in s.history.moves().enumerate() {
        if replay.is_over() {
            let moves: Vec<&str> = s.history.moves().map(Move::as_str).collect();
            return Err(Error::BadSave(format!("state.history: move {k} comes after the hand ended ({moves:?})")));
        }
        replay.history.push(m);
    }
    Ok(())
}
