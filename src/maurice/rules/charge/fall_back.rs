//! C14: attackers still in contact fall back — straight back, through friends if they must.

use crate::maurice::grid::{in_contact, Cell};
use crate::maurice::ids::{UnitType, MAX_UNITS};
use crate::maurice::rules::morale::{add_disr, break_unit};
use crate::maurice::rules::movement::displace;
use crate::maurice::rules::round::cinc_move;
use crate::maurice::state::{Resume, State};

/// C14: the fall back distance, `inf` 1 BW, `cav` 2 BW.
fn distance(kind: UnitType) -> u8 {
    if kind == UnitType::Cav {
        2
    } else {
        1
    }
}

/// C14 for the attackers from id `from` on, ascending; then the round goes on (CinC move).
pub fn fall_backs(s: &mut State, from: u8) {
    let side = s.active;
    for id in from..MAX_UNITS as u8 {
        if s.round.charged >> id & 1 == 0 {
            continue;
        }
        let u = *s.unit(side, id);
        if !u.on_table || !s.units(side.other()).any(|e| in_contact(u.cells(), e.cells())) {
            continue;
        }
        let back = u.facing.about().vec();
        let t = s.terrain.clone();
        let mut at = u.at;
        let mut cells = u.cells;
        let mut steps = 0;
        let mut passed: Vec<Cell> = Vec::new();
        let mut friends = 0u16;
        let mut difficult = t.unit_in_difficult(u.cells());
        let overlaps = |s: &State, cells: &[Cell]| s.units(side).filter(|o| o.id != id).any(|o| cells.iter().any(|&c| o.cells.contains(c)));
        let mut broke = false;
        loop {
            let next_at = at.plus(back);
            let next = crate::maurice::grid::footprint(u.formation, next_at, u.facing);
            for (i, &c) in next.as_slice().iter().enumerate() {
                let old = cells.as_slice()[i];
                let enemy = s.units(side.other()).any(|e| e.cells.contains(c));
                let blocked_by_card = s.round.rough_going && (t.is_difficult(c) || t.crosses_wall(old, c));
                if !t.passable(c) || enemy || blocked_by_card {
                    broke = true;
                }
                difficult |= t.is_difficult(c) || t.crosses_wall(old, c);
            }
            if broke {
                break;
            }
            at = next_at;
            cells = next;
            passed.extend(cells.as_slice());
            for o in s.units(side) {
                if o.id != id && cells.as_slice().iter().any(|&c| o.cells.contains(c)) {
                    friends |= 1 << o.id;
                }
            }
            steps += 1;
            if steps >= distance(u.kind) && !overlaps(s, cells.as_slice()) {
                break;
            }
        }
        if broke {
            break_unit(s, side, id);
            if s.is_over() {
                return;
            }
            continue;
        }
        s.unit_mut(side, id).place(u.formation, at, u.facing);
        let own = friends.count_ones() as u8 + difficult as u8;
        if own > 0 {
            add_disr(s, side, id, own);
        }
        for o in (0..MAX_UNITS as u8).filter(|o| friends >> o & 1 == 1) {
            add_disr(s, side, o, 1);
        }
        if s.is_over() {
            return;
        }
        let cinc = s.army(side.other()).cinc;
        if passed.contains(&cinc) {
            displace(s, side.other(), Resume::FallBack(id + 1));
            return;
        }
    }
    cinc_move(s);
}
