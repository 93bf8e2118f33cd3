//! M-underground_newspaper. Underground Newspaper (1★, shield).
//! Three boxes: `deliver`, pay 2 intel, on three different days.

use super::prelude::*;

/// The cost of each `deliver`.
pub const DELIVER: Cost = cost(&[(Intel, 2)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Deliver];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Deliver if not_today(s, slot) => Some(DELIVER),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}
