//! F3–F5. The placement phase: where a worker may go, and placing it (with a Fake ID).

use crate::board::{bit, field_index, slot_index};
use crate::ids::{Location, Location::*, Pawn, Resource};
use crate::missions::rules::{distraction_possible, slot_placeable, unusable};
use crate::state::State;

/// F4. May the next worker be placed on `loc`?
pub fn placeable(s: &State, loc: Location) -> bool {
    if loc == SafeHouse || s.pawns[loc.idx()] != Pawn::Empty || unusable(s) & bit(loc) != 0 {
        return false;
    }
    if let Some(fi) = field_index(loc) {
        let gun = s.aa_guns & bit(loc) != 0;
        let distraction = distraction_possible(s) && !s.field_has_tokens(fi) && !gun;
        return s.airdrop_at_day_start[fi] || gun || distraction;
    }
    if let Some(slot) = slot_index(loc) {
        // M-infiltration: with the mole on the card the slot still takes one (placed) worker.
        return slot_placeable(s, slot);
    }
    true
}

/// F3, F5. Places the next worker, optionally with a Fake ID from the hand.
pub fn place_worker(s: &mut State, loc: Location, fake_id: bool) {
    s.pawns[loc.idx()] = Pawn::Worker;
    s.home -= 1;
    if fake_id {
        s.hand[Resource::FakeId.idx()] -= 1;
        s.fake_ids |= bit(loc);
    }
}
