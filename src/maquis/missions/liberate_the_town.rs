//! M-liberate_the_town. Liberate the Town (2★, no shield, no slot).
//! Complete if, at the final move of the day marker, the hand holds ≥ 3 weapons and morale is ≥ 4.

use super::prelude::*;

/// Run by the rules at the final move of the day marker (F9).
pub fn check(s: &mut State) {
    if let Some(slot) = s.mission_slot(LiberateTheTown) {
        if s.missions[slot].open() && s.tokens.hand[Weapon.idx()] >= 3 && s.tracks.morale >= 4 {
            let m = &mut s.missions[slot];
            m.complete = true;
            m.boxes_done = 1;
            m.tier = Some(Tier::Success);
        }
    }
}
