//! M-destroy_aa_guns. Destroy AA Guns (3★, safe).
//! `aa_explosive` or `aa_weapon` (1 explosive or 1 weapon) where a gun stands destroys it; 3 destroyed: success, 5: major; guns can still be destroyed after completion.

use super::prelude::*;

/// The costs of `aa_explosive` and `aa_weapon`.
pub const AA_EXPLOSIVE: Cost = cost(&[(Explosive, 1)]);
pub const AA_WEAPON: Cost = cost(&[(Weapon, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::AaExplosive, Opt::AaWeapon];

/// Ruling (RULES.md M-destroy_aa_guns, M-tier): the card's own gun can still be destroyed after
/// the mission is complete: the card's work is not done while its gun stands.
#[inline]
pub(super) fn placeable(s: &State, slot: usize) -> bool {
    s.marks.aa_guns & bit(SLOTS[slot]) != 0
}

/// On the card or on the board: wherever a gun stands (guns exist only when it is dealt).
#[inline]
pub(super) fn cost_at(s: &State, loc: Location, opt: Opt) -> Option<Cost> {
    if s.marks.aa_guns & bit(loc) == 0 {
        return None;
    }
    match opt {
        Opt::AaExplosive => Some(AA_EXPLOSIVE),
        Opt::AaWeapon => Some(AA_WEAPON),
        _ => None,
    }
}

pub(super) fn destroy(s: &mut State, loc: Location) -> Performed {
    s.marks.aa_guns &= !bit(loc);
    let slot = s.mission_slot(DestroyAaGuns).unwrap();
    box_done(s, slot);
    Performed::HOME
}
