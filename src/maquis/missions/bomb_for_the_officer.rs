//! M-bomb_for_the_officer. Bomb for the Officer (2★, shield).
//! While unfinished, field_e and spare_room_se are unusable; `deliver` on the card needs morale ≥ 5, pay 1 weapon + 1 explosive.

use super::prelude::*;

/// The cost of `deliver`.
pub const DELIVER: Cost = cost(&[(Weapon, 1), (Explosive, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Deliver];

/// The locations no worker may use while it is unfinished.
#[inline]
pub fn unusable(s: &State) -> LocSet {
    if s.has_open(BombForTheOfficer) {
        bit(FieldE) | bit(SpareRoomSe)
    } else {
        0
    }
}

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, _: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Deliver if s.tracks.morale >= 5 => Some(DELIVER),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}
