//! M-assassination. Assassination (2★, no shield, no slot).
//! Complete at the first moment the soldier track is 5 and the other mission is complete.

use crate::maquis::ids::MissionId::Assassination;
use crate::maquis::state::{State, Tier};

/// Run by the rules' end check (E1).
pub fn check(s: &mut State) {
    if let Some(slot) = s.mission_slot(Assassination) {
        let other = &s.missions[1 - slot];
        if s.missions[slot].open() && s.tracks.soldiers == 5 && other.complete {
            let m = &mut s.missions[slot];
            m.complete = true;
            m.boxes_done = 1;
            m.tier = Some(Tier::Success);
        }
    }
}
