//! M-german_shepherds. German Shepherds (1★, shield).
//! Three boxes: `deliver`, pay 1 medicine + 1 food, on three different days; while unfinished no Milice may be shot (F8).

use super::prelude::*;

/// The cost of each `deliver`.
pub const DELIVER: Cost = cost(&[(Medicine, 1), (Food, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Deliver];

/// F8: no Milice may be shot while it is unfinished.
#[inline]
pub fn shooting_forbidden(s: &State) -> bool {
    s.has_open(GermanShepherds)
}

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
