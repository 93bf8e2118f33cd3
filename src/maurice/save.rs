//! API "State, saving": versioned JSON saves of the whole state, RNG streams and dice script
//! included, so that a loaded game continues with the same dice and shuffles.

use super::ids::{Phase, HEIGHT, MAX_UNITS, WIDTH};
use super::state::State;
use crate::error::{Error, Result};
use crate::versioned;

pub const FORMAT: &str = "maquis.maurice";
pub const VERSION: u32 = 1;

/// The state as a versioned JSON string.
pub fn save_state(s: &State) -> String {
    versioned::save(FORMAT, VERSION, s)
}

/// A state from `save_state`'s JSON, with its basic invariants checked.
pub fn load_state(text: &str) -> Result<State> {
    let bad = |m: String| Error::BadSave(m);
    let value = versioned::open(text, FORMAT, VERSION, "Maurice Lite")?;
    let s: State = serde_json::from_value(value).map_err(|e| bad(format!("state: {e}")))?;
    if (s.phase == Phase::GameOver) != s.to_move.is_none() || (s.phase == Phase::GameOver) != s.outcome.is_some() {
        return Err(bad("phase, to_move and outcome disagree".into()));
    }
    let cards = s.deck.len() + s.discard.len() + s.removed.len() + s.armies.iter().map(|a| a.hand.total()).sum::<usize>();
    if cards != super::ids::DECK_SIZE {
        return Err(bad(format!("the cards number {cards}, not {}", super::ids::DECK_SIZE)));
    }
    for army in &s.armies {
        for (i, u) in army.units.iter().enumerate() {
            if u.present && (u.id as usize != i || i >= MAX_UNITS) {
                return Err(bad(format!("unit {i} has id {}", u.id)));
            }
            if u.on_table && u.cells().iter().any(|c| !c.on_table() || c.index() >= WIDTH * HEIGHT) {
                return Err(bad(format!("unit {i} stands off the table")));
            }
            if u.disr > u.bases() {
                return Err(bad(format!("unit {i} holds more DISR than bases")));
            }
        }
        if army.drawn.0.iter().zip(army.hand.0.iter()).any(|(d, h)| d > h) {
            return Err(bad("more cards drawn this round than held".into()));
        }
    }
    Ok(s)
}
