//! F9, E1–E3. The end of the day, and the end of the game.

use crate::maquis::config::{final_day, passes, triangle_morale};
use crate::maquis::ids::Pawn;
use crate::maquis::missions::hooks as mission_rules;
use crate::maquis::state::State;
use crate::maquis::tracks::{is_orange, is_triangle, END_DAY};
pub use crate::maquis::end::{finish, outcome};

/// F9. (1) end-of-day mission effects, (2) patrols leave, (3) the marker advances (orange or
/// triangle days cost morale), (4) end checks; then the next day begins.
pub fn upkeep(s: &mut State) {
    mission_rules::end_of_day(s);
    if s.is_over() {
        return;
    }
    for p in s.pawns.iter_mut() {
        if p.is_patrol() {
            *p = Pawn::Empty;
        }
    }
    s.today.assign(|t| &mut t.shot_today, false);
    s.today.assign(|t| &mut t.distracted_today, false);

    s.day += 1;
    let costly = if triangle_morale(s.difficulty) { is_triangle(s.day) } else { is_orange(s.day) };
    if costly {
        super::change_morale(s, -1);
    }
    let final_move = s.day == final_day(s.difficulty) && s.pass == passes(s.difficulty);
    if final_move {
        mission_rules::check_liberation(s);
    } else if s.day == END_DAY {
        // D1 Very Easy: moving onto END moves the marker to START for a second pass.
        s.day = 0;
        s.pass += 1;
    }
    super::check_end(s);
    if s.is_over() {
        return;
    }
    if final_move {
        finish(s, outcome(s));
        return;
    }
    super::begin_day(s);
}


