//! M-free_the_resistance_leader. Free the Resistance Leader (3★).
//! Objective 1 (not safe): `bribe` on day ≤ 5, pay 1 intel + 1 money; objective 2 (safe): `poison` (1 poison) on day ≤ 9: success, or `rescue` on day 10 (1 fake_id + 2 weapons + 1 medicine, soldiers +2): major; deadlines days 5 and 10.

use super::prelude::*;

/// The costs of `bribe` (objective 1), `poison` and `rescue` (objective 2).
pub const BRIBE: Cost = cost(&[(Intel, 1), (Money, 1)]);
pub const POISON: Cost = cost(&[(Poison, 1)]);
pub const RESCUE: Cost = cost(&[(FakeId, 1), (Weapon, 2), (Medicine, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Bribe, Opt::Poison, Opt::Rescue];

#[inline]
pub(super) fn placeable(s: &State, slot: usize) -> bool {
    if s.missions[slot].boxes_done == 0 {
        s.day <= 5
    } else {
        s.day <= 10
    }
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let b = s.missions[slot].boxes_done;
    match opt {
        Opt::Bribe if b == 0 && s.day <= 5 => Some(BRIBE),
        Opt::Poison if b == 1 && s.day <= 9 => Some(POISON),
        Opt::Rescue if b == 1 && s.day == 10 => Some(RESCUE),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, opt: Opt) -> Performed {
    match opt {
        // Not safe: the box waits for the route check.
        Opt::Bribe => settle(s, Reward { mission_box: Some(slot as u8), ..Reward::default() }, false, HOME),
        Opt::Poison => {
            box_done(s, slot);
            complete(s, slot, Tier::Success);
            Performed::HOME
        }
        _ => {
            advance_soldiers(s, 2);
            box_done(s, slot);
            complete(s, slot, Tier::Major);
            Performed::HOME
        }
    }
}

/// Failed once day 5 has ended without the bribe, or day 10 without the leader freed.
#[inline]
pub(super) fn missed(day: u8, boxes_done: u8) -> bool {
    (day >= 5 && boxes_done == 0) || (day >= 10 && boxes_done < 2)
}
