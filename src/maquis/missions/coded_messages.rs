//! M-coded_messages. Coded Messages (2★, no shield).
//! `train` on day ≤ 6, pay 1 money + 1 food + 1 weapon, the worker stuck; at the end of day 10 it comes home and the mission is complete; untrained by the end of day 6, it fails.

use super::prelude::*;

/// The cost of `train`.
pub const TRAIN: Cost = cost(&[(Money, 1), (Food, 1), (Weapon, 1)]);

pub(super) const SLOT_OPTIONS: &[Opt] = &[Opt::Train];

#[inline]
pub(super) fn placeable(s: &State, slot: usize) -> bool {
    s.missions[slot].boxes_done == 0 && s.day <= 6
}

#[inline]
pub(super) fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Train if s.missions[slot].boxes_done == 0 && s.day <= 6 => Some(TRAIN),
        _ => None,
    }
}

pub(super) fn perform(s: &mut State, slot: usize, _: Opt) -> Performed {
    box_done(s, slot);
    Performed { unsafe_reward: None, disposition: Disposition::Stuck }
}

/// F9 step 1: the cryptographer comes home at the end of day 10, the mission complete.
pub(super) fn end_of_day(s: &mut State) {
    if let Some(slot) = s.mission_slot(CodedMessages) {
        if s.day == 10 && s.missions[slot].open() && s.missions[slot].boxes_done == 1 {
            s.marks.stuck &= !bit(SLOTS[slot]);
            s.home += 1;
            box_done(s, slot);
        }
    }
}

/// Failed once day 6 has ended with nobody trained.
#[inline]
pub(super) fn missed(day: u8, boxes_done: u8) -> bool {
    day >= 6 && boxes_done == 0
}
