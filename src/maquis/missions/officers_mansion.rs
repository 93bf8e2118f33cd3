//! M-officers_mansion. Officer's Mansion (0★, shield).
//! `graffiti` tags rue_baradat, pont_leveque and pont_du_nord (once each); with all three tagged, `complete` on the card.

use super::prelude::*;

/// The three locations to tag.
pub const GRAFFITI_LOCATIONS: LocSet = bit(RueBaradat) | bit(PontLeveque) | bit(PontDuNord);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Complete];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, _: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Complete if s.marks.tagged & GRAFFITI_LOCATIONS == GRAFFITI_LOCATIONS => Some(FREE),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}

/// `graffiti`: at an untagged location of the three.
#[inline]
pub(super) fn board_cost(s: &State, loc: Location) -> Option<Cost> {
    (s.has_open(OfficersMansion) && GRAFFITI_LOCATIONS & bit(loc) & !s.marks.tagged != 0).then_some(FREE)
}

pub(super) fn graffiti(s: &mut State, loc: Location) -> Performed {
    s.marks.tagged |= bit(loc);
    let slot = s.mission_slot(OfficersMansion).unwrap();
    box_done(s, slot);
    Performed::HOME
}
