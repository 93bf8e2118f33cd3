//! M-infiltration. Infiltration (1★, shield).
//! Box 1: `mole`, pay 2 intel, the worker stays as the mole (the top patrol card is seen); box 2: `extract`, pay 1 weapon + 1 explosive, both go home.

use super::prelude::*;

/// The costs of `mole` (box 1) and `extract` (box 2).
pub const MOLE: Cost = cost(&[(Intel, 2)]);
pub const EXTRACT: Cost = cost(&[(Weapon, 1), (Explosive, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Mole, Opt::Extract];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let b = s.missions[slot].boxes_done;
    match opt {
        Opt::Mole if b == 0 => Some(MOLE),
        Opt::Extract if b == 1 => Some(EXTRACT),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, opt: Opt) -> Performed {
    box_done(s, slot);
    let disposition = match opt {
        Opt::Mole => Disposition::Stuck,
        _ => Disposition::GoHome { with_mole: true },
    };
    Performed { unsafe_reward: None, disposition }
}
