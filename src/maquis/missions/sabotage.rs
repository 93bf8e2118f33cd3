//! M-sabotage. Sabotage (1★, shield).
//! Boxes 1, 2: `infiltrate` on the card (free) on two different days; box 3: `sabotage`, pay 1 explosive, on a later day.

use super::prelude::*;

/// The cost of `sabotage` (box 3).
pub const SABOTAGE: Cost = cost(&[(Explosive, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Infiltrate, Opt::Sabotage];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let b = s.missions[slot].boxes_done;
    match opt {
        Opt::Infiltrate if b < 2 && not_today(s, slot) => Some(FREE),
        Opt::Sabotage if b == 2 && not_today(s, slot) => Some(SABOTAGE),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}
