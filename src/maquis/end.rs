//! E1–E3. When the game ends and how: the immediate ends checked after every effect that may
//! cause one, the outcome, and the final state.

use crate::maquis::ids::{Outcome, Phase};
use crate::maquis::missions::{assassination, info};
use crate::maquis::state::{State, Tier};

/// E1. Immediate ends: morale 0 (loss), both missions complete (win), no worker left in play.
pub fn check_end(s: &mut State) {
    if s.is_over() {
        return;
    }
    if s.tracks.morale == 0 {
        finish(s, Outcome::Loss);
        return;
    }
    assassination::check(s);
    if s.missions.iter().all(|m| m.complete) || s.no_workers_in_play() {
        // A worker still being walked home (post_action) is in play: it is counted as placed.
        let o = outcome(s);
        finish(s, o);
    }
}

/// E3. The outcome if the game ended now.
pub fn outcome(s: &State) -> Outcome {
    let complete = s.missions.iter().filter(|m| m.complete).count();
    if s.tracks.morale == 0 {
        Outcome::Loss
    } else if complete == 2 {
        let major = s.missions.iter().any(|m| info(m.id).stars == 3 && m.tier == Some(Tier::Major));
        if major { Outcome::MajorWin } else { Outcome::Win }
    } else if complete == 1 {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

pub fn finish(s: &mut State, o: Outcome) {
    s.outcome = Some(o);
    s.phase = Phase::GameOver;
    s.today.assign(|t| &mut t.pending, None);
}
