//! M-bomb_the_barracks. Bomb the Barracks (3★).
//! Objectives 1, 2 (not safe): `recon` on two different days; objective 3 (safe): `bomb`, pay 1 fake_id + 2 explosives: success, major if another worker took `distract` (1 weapon, on an empty field) earlier that day.

use super::prelude::*;

/// The costs of `bomb` (objective 3) and of `distract`.
pub const BOMB: Cost = cost(&[(FakeId, 1), (Explosive, 2)]);
pub const DISTRACT: Cost = cost(&[(Weapon, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Recon, Opt::Bomb];

/// Recon done twice, the bomb not yet: empty fields take a distraction.
#[inline]
pub fn distraction_possible(s: &State) -> bool {
    s.open_mission(BombTheBarracks).is_some_and(|m| m.boxes_done == 2)
}

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let b = s.missions[slot].boxes_done;
    match opt {
        Opt::Recon if b < 2 && not_today(s, slot) => Some(FREE),
        Opt::Bomb if b == 2 => Some(BOMB),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, opt: Opt) -> Performed {
    match opt {
        // Not safe: the box waits for the route check.
        Opt::Recon => settle(s, Reward { mission_box: Some(slot as u8), ..Reward::default() }, false, HOME),
        _ => {
            let tier = if s.today.distracted_today { Tier::Major } else { Tier::Success };
            box_done(s, slot);
            complete(s, slot, tier);
            Performed::HOME
        }
    }
}

/// `distract`: on a field with no airdrop and no AA gun.
#[inline]
pub(super) fn board_cost(s: &State, loc: Location) -> Option<Cost> {
    if !(matches!(loc, FieldW | FieldE) && distraction_possible(s)) {
        return None;
    }
    let fi = field_index(loc).unwrap();
    if s.field_has_tokens(fi) || s.marks.aa_guns & bit(loc) != 0 {
        return None;
    }
    Some(DISTRACT)
}

/// Not safe: the distraction waits for the route check.
pub(super) fn distract(s: &mut State) -> Performed {
    settle(s, Reward { distract: true, ..Reward::default() }, false, HOME)
}
