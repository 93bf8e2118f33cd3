//! F3–F5. The placement phase: where a worker may go, and placing it (with a Fake ID).

use crate::maquis::board::{bit, LocSet, FIELDS, SLOTS};
use crate::maquis::ids::{Location, Location::*, Pawn, Resource};
use crate::maquis::missions::hooks::{distraction_possible, slot_placeable, unusable};
use crate::maquis::state::State;

/// F4. May the next worker be placed on `loc`?
pub fn placeable(s: &State, loc: Location) -> bool {
    placeable_set(s) & bit(loc) != 0
}

/// F4. Every location the next worker may be placed on, as a bitboard (one pass for the mask).
pub fn placeable_set(s: &State) -> LocSet {
    let mut set = s.locs_with(Pawn::Empty) & !bit(SafeHouse) & !unusable(s);
    for (fi, &field) in FIELDS.iter().enumerate() {
        if set & bit(field) != 0 {
            let gun = s.marks.aa_guns & bit(field) != 0;
            let distraction = distraction_possible(s) && !s.field_has_tokens(fi) && !gun;
            if !(s.tokens.airdrop_at_day_start[fi] || gun || distraction) {
                set &= !bit(field);
            }
        }
    }
    for (slot, &l) in SLOTS.iter().enumerate() {
        // M-infiltration: with the mole on the card the slot still takes one (placed) worker.
        if set & bit(l) != 0 && !slot_placeable(s, slot) {
            set &= !bit(l);
        }
    }
    set
}

/// F3, F5. Places the next worker, optionally with a Fake ID from the hand.
pub fn place_worker(s: &mut State, loc: Location, fake_id: bool) {
    s.pawns[loc.idx()] = Pawn::Worker;
    s.home -= 1;
    if fake_id {
        s.tokens.hand[Resource::FakeId.idx()] -= 1;
        s.marks.fake_ids |= bit(loc);
    }
}
