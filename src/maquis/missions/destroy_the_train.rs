//! M-destroy_the_train. Destroy the Train (2★, shield).
//! `deliver`, pay 3 explosives, only on days 6–9.

use super::prelude::*;

/// The cost of `deliver`.
pub const DELIVER: Cost = cost(&[(Explosive, 3)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Deliver];

/// The days the train passes.
const DAYS: std::ops::RangeInclusive<u8> = 6..=9;

#[inline]
pub(super) fn placeable(s: &State, _: usize) -> bool {
    DAYS.contains(&s.day)
}

#[inline]
pub(super) fn slot_option(s: &State, _: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Deliver if DAYS.contains(&s.day) => Some(DELIVER),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}
