//! M: the march — choosing each unit of the force, its move one action at a time (M3–M12), ending
//! or cancelling it.

pub mod allowance;
pub mod geometry;

use super::morale::add_disr;
use super::round::{ask, cinc_move};
use crate::maurice::action::{Action, FormKind, Mask, MaskExt, MoveKind};
use crate::maurice::grid::{in_contact, Cell};
use crate::maurice::ids::{Formation, Phase, Side, UnitType, MAX_UNITS};
use crate::maurice::state::{Mode, Moving, Pending, Resume, State, Unit};
use allowance::{allowance, march_modifier, ART_LIMITED};
use geometry::{form_step, move_step, Step};

/// M2: after the march window: a smoking `art` force only clears its smoke; otherwise the
/// units move one at a time.
pub fn start_march(s: &mut State) {
    let side = s.active;
    let force = s.round.force;
    let units = (0..MAX_UNITS as u8).filter(|i| force >> i & 1 == 1);
    let ids: Vec<u8> = units.collect();
    let art = ids.iter().all(|&i| s.unit(side, i).kind == UnitType::Art);
    if art && ids.iter().any(|&i| s.unit(side, i).smoke) {
        for &i in &ids {
            s.unit_mut(side, i).smoke = false;
        }
        cinc_move(s);
        return;
    }
    ask(s, Phase::Move, side);
}

/// M2: an unmoved unit of the force, or `end_moves`.
pub fn move_mask(s: &State, m: &mut Mask) {
    m.add(Action::EndMoves);
    for id in 0..MAX_UNITS as u8 {
        let bit = 1u16 << id;
        if s.round.force & bit != 0 && s.round.done & bit == 0 && s.unit(s.active, id).on_table {
            m.add(Action::Unit(id));
        }
    }
}

pub fn apply_move_choice(s: &mut State, a: Action) {
    match a {
        Action::Unit(id) => {
            let side = s.active;
            let u = *s.unit(side, id);
            let near = s.near_enemy(side, u.cells());
            s.round.moving = Some(Moving {
                id,
                spent: 0,
                mode: None,
                actions: 0,
                near,
                costed: false,
                difficult: false,
                about_faced: false,
                formed: false,
                over: false,
                interpenetrated: 0,
                passed: Vec::new(),
                start: u,
                supporting: s.round.command == Some(crate::maurice::ids::Command::Charge),
            });
            ask(s, Phase::UnitMove, side);
        }
        _ => end_march(s),
    }
}

fn end_march(s: &mut State) {
    s.round.moving = None;
    if s.round.command == Some(crate::maurice::ids::Command::Charge) {
        super::charge::procedure::after_moves(s);
    } else {
        cinc_move(s);
    }
}

/// What a unit's move would be after one more action: the bookkeeping M5–M8 check.
struct After {
    unit: Unit,
    moving: Moving,
}

/// M8: the DISR the move would bring at its end — the mover's and each interpenetrated unit's.
fn end_disr(s: &State, unit: &Unit, mv: &Moving) -> (u8, Vec<(u8, u8)>) {
    let line_like = |u: &Unit| matches!(u.kind, UnitType::Inf | UnitType::Cav) && matches!(u.formation, Formation::Line | Formation::Massed);
    let passed_friends = mv.interpenetrated.count_ones() as u8;
    let mut own = 0;
    if matches!(unit.kind, UnitType::Inf | UnitType::Cav) && mv.difficult {
        own += 1;
    }
    if line_like(unit) {
        own += passed_friends;
    }
    let others = (0..MAX_UNITS as u8)
        .filter(|i| mv.interpenetrated >> i & 1 == 1)
        .map(|i| s.unit(unit.side, i))
        .filter(|o| line_like(o))
        .map(|o| (o.id, 1))
        .collect();
    (own, others)
}

/// M5–M8: the move after `step`, if legal.
fn try_step(s: &State, step: Step, is_form: bool) -> Option<After> {
    let side = s.active;
    let mv = s.round.moving.as_ref()?;
    let u = s.unit(side, mv.id);
    let t = &s.terrain;
    // 6: no smoking gun moves; nothing after the move is over.
    if mv.over || (u.kind == UnitType::Art && u.smoke) {
        return None;
    }
    // 1: modes and first actions.
    if let (Some(a), Some(b)) = (mv.mode, step.mode) {
        if a != b {
            return None;
        }
    }
    if mv.supporting && step.mode == Some(Mode::Retrograde) {
        return None;
    }
    // 2: every cell passed (and every new cell) on the table, not lake, no enemy.
    let enemy_at = |c: Cell| s.units(side.other()).any(|e| e.cells.contains(c));
    if step.passed.iter().chain(step.cells.as_slice()).any(|&c| !t.passable(c) || enemy_at(c)) {
        return None;
    }
    // 3: a column's head does not run into itself.
    if u.formation == Formation::Column && !is_form && step.passed.first().is_some_and(|&h| u.cells.contains(h)) {
        return None;
    }
    // 4: no new contact with an enemy unit.
    for e in s.units(side.other()) {
        if in_contact(step.cells.as_slice(), e.cells()) && !in_contact(u.cells(), e.cells()) {
            return None;
        }
    }
    // C6: a supporting unit keeps out of contact.
    if mv.supporting && s.units(side.other()).any(|e| in_contact(step.cells.as_slice(), e.cells())) {
        return None;
    }
    // 5: rough going.
    if s.round.rough_going {
        let new_difficult = step.passed.iter().chain(step.cells.as_slice()).any(|&c| !u.cells.contains(c) && t.is_difficult(c));
        if new_difficult || step.walls {
            return None;
        }
    }
    // The cells passed so far are copied only for a legal step (a mask tries every action).
    let mut next = Moving { passed: Vec::new(), ..*mv };
    next.actions += 1;
    next.mode = next.mode.or(step.mode);
    if step.cost > 0 && !next.costed {
        next.costed = true;
        if t.unit_in_difficult(u.cells()) {
            next.difficult = true;
        }
    }
    if step.cost > 0 && (step.walls || step.passed.iter().any(|&c| t.is_difficult(c))) {
        next.difficult = true;
    }
    if is_form {
        // M11: a base moving into or out of difficult terrain.
        let old = u.cells();
        let new = step.cells.as_slice();
        if old.iter().chain(new).any(|&c| t.is_difficult(c) && (old.contains(&c) != new.contains(&c))) {
            next.difficult = true;
        }
        next.formed = true;
        next.over = u.formation != Formation::Column;
    }
    if step.passed.iter().any(|&c| s.near_enemy(side, &[c])) {
        next.near = true;
    }
    for &c in &step.passed {
        if let Some(o) = s.units(side).find(|o| o.id != u.id && o.cells.contains(c)) {
            next.interpenetrated |= 1 << o.id;
        }
    }
    next.spent += step.cost;
    // 7: the allowance (M6) and no break by moving (M7, M8).
    let limit = if u.kind == UnitType::Art {
        (if next.difficult { ART_LIMITED } else { allowance::basic(u) }) + march_modifier(s)
    } else {
        allowance(s, u, next.near, next.mode)
    };
    if next.spent as i32 > limit {
        return None;
    }
    let mut unit = *u;
    unit.formation = step.formation;
    unit.at = step.at;
    unit.facing = step.facing;
    unit.cells = step.cells;
    let (own, others) = end_disr(s, &unit, &next);
    if unit.disr + own > unit.bases() || others.iter().any(|&(i, n)| s.unit(side, i).disr + n > s.unit(side, i).bases()) {
        return None;
    }
    next.passed.reserve_exact(mv.passed.len() + step.passed.len());
    next.passed.extend_from_slice(&mv.passed);
    next.passed.extend(step.passed.iter().copied());
    Some(After { unit, moving: next })
}

fn move_after(s: &State, m: MoveKind) -> Option<After> {
    let mv = s.round.moving.as_ref()?;
    let u = s.unit(s.active, mv.id);
    if m == MoveKind::AboutFace && (mv.actions > 0 || mv.supporting) {
        return None;
    }
    try_step(s, move_step(&s.terrain, u, m)?, false)
}

fn form_after(s: &State, k: FormKind) -> Option<After> {
    let mv = s.round.moving.as_ref()?;
    if mv.actions > 0 || mv.supporting {
        return None;
    }
    let u = s.unit(s.active, mv.id);
    let step = form_step(u, k)?;
    // M11: the new cells covered by no other unit.
    if step.cells.as_slice().iter().any(|&c| s.unit_at(c).is_some_and(|o| !(o.side == u.side && o.id == u.id))) {
        return None;
    }
    try_step(s, step, true)
}

/// M9: whether the unit may stop here.
fn can_stop(s: &State) -> bool {
    let Some(mv) = s.round.moving.as_ref() else { return false };
    let side = s.active;
    let u = s.unit(side, mv.id);
    if s.units_on_table().any(|o| !(o.side == side && o.id == u.id) && u.cells().iter().any(|&c| o.cells.contains(c))) {
        return false;
    }
    if u.formation == Formation::Column && u.cells != crate::maurice::grid::footprint(Formation::Column, u.at, u.facing) {
        return false;
    }
    let near = s.near_enemy(side, u.cells());
    if u.kind == UnitType::Art && near && mv.spent as i32 > ART_LIMITED + march_modifier(s) {
        return false;
    }
    !(u.kind == UnitType::Cav && mv.about_faced && near)
}

/// M3–M12: the legal actions of the moving unit.
pub fn unit_move_mask(s: &State, m: &mut Mask) {
    m.add(Action::UnitCancel);
    if can_stop(s) {
        m.add(Action::UnitDone);
    }
    for &k in MoveKind::ALL {
        if move_after(s, k).is_some() {
            m.add(Action::Move(k));
        }
    }
    for &k in FormKind::ALL {
        if form_after(s, k).is_some() {
            m.add(Action::Form(k));
        }
    }
}

pub fn apply_unit_move(s: &mut State, a: Action) {
    let side = s.active;
    let after = match a {
        Action::Move(k) => move_after(s, k),
        Action::Form(k) => form_after(s, k),
        Action::UnitDone => return finish(s),
        _ => return cancel(s),
    };
    let Some(After { unit, mut moving }) = after else { return };
    if a == Action::Move(MoveKind::AboutFace) {
        moving.about_faced = true;
    }
    *s.unit_mut(side, unit.id) = unit;
    s.round.moving = Some(moving);
}

/// M10: back to where it stood; it counts as moved.
fn cancel(s: &mut State) {
    if let Some(mv) = s.round.moving.take() {
        *s.unit_mut(s.active, mv.id) = mv.start;
        s.round.done |= 1 << mv.id;
    }
    ask(s, Phase::Move, s.active);
}

/// M9: the move ends: its DISR (M7, M8), then the enemy CinC if passed or covered (H3).
fn finish(s: &mut State) {
    let side = s.active;
    let Some(mv) = s.round.moving.take() else { return };
    s.round.done |= 1 << mv.id;
    let unit = *s.unit(side, mv.id);
    let (own, others) = end_disr(s, &unit, &mv);
    if own > 0 {
        add_disr(s, side, mv.id, own);
    }
    for (i, n) in others {
        add_disr(s, side, i, n);
    }
    if s.is_over() {
        return;
    }
    let enemy_cinc = s.army(side.other()).cinc;
    if mv.passed.contains(&enemy_cinc) || unit.cells.contains(enemy_cinc) {
        displace(s, side.other(), Resume::March);
        return;
    }
    ask(s, Phase::Move, side);
}

/// H3: `side`'s CinC must move; the flow resumes at `then`.
pub fn displace(s: &mut State, side: Side, then: Resume) {
    s.pending = Pending::Displace { side, then };
    ask(s, Phase::Displace, side);
}
