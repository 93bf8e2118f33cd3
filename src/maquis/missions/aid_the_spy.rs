//! M-aid_the_spy. Aid the Spy (2★, shield).
//! Box 1: `weapons`, pay 2 weapons; box 2, on a later day: `supplies`, pay 1 money + 2 food.

use super::prelude::*;

/// The costs of `weapons` (box 1) and `supplies` (box 2).
pub const WEAPONS: Cost = cost(&[(Weapon, 2)]);
pub const SUPPLIES: Cost = cost(&[(Money, 1), (Food, 2)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Weapons, Opt::Supplies];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let b = s.missions[slot].boxes_done;
    match opt {
        Opt::Weapons if b == 0 => Some(WEAPONS),
        Opt::Supplies if b == 1 && not_today(s, slot) => Some(SUPPLIES),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed::HOME
}
