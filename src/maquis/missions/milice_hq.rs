//! M-milice_hq. Milice HQ (3★).
//! Objective 1 (not safe): `records` at rue_baradat; objective 2 (safe): `poison` on the card, pay 2 poison, morale +2, soldiers +3: success if soldiers were ≥ 3, else major.

use super::prelude::*;

/// The cost of `poison` (objective 2).
pub const POISON: Cost = cost(&[(Poison, 2)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Poison];

#[inline]
pub(super) fn placeable(_: &State, _: usize) -> bool {
    true
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Poison if s.missions[slot].boxes_done == 1 => Some(POISON),
        _ => None,
    }
}

/// `poison`: completes it with its tier.
pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    let tier = if s.tracks.soldiers >= 3 { Tier::Success } else { Tier::Major };
    change_morale(s, 2);
    advance_soldiers(s, 3);
    box_done(s, slot);
    complete(s, slot, tier);
    Performed::HOME
}

/// `records`: at rue_baradat, objective 1 not done yet.
#[inline]
pub(super) fn board_cost(s: &State, loc: Location) -> Option<Cost> {
    (loc == RueBaradat && s.open_mission(MiliceHq).is_some_and(|m| m.boxes_done == 0)).then_some(FREE)
}

/// Not safe: the box waits for the route check.
pub(super) fn records(s: &mut State) -> Performed {
    let slot = s.mission_slot(MiliceHq).unwrap() as u8;
    settle(s, Reward { mission_box: Some(slot), ..Reward::default() }, false, HOME)
}
