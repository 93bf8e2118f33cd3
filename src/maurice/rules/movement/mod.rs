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
use super::command_distance::{enemy_rows, has, near_zone, unit_rows, Rows, ROW};
use crate::maurice::ids::HEIGHT;
use geometry::{form_step, move_step, Passed, Step};

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
    /// The move after the step, but for its cells passed: those so far, then `passed`.
    moving: Moving,
    passed: Passed,
}

/// M8: the DISR the move would bring at its end — the mover's, and one for each interpenetrated
/// unit of the ids in the returned bits.
fn end_disr(s: &State, unit: &Unit, mv: &Moving) -> (u8, u16) {
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
        .filter(|&i| mv.interpenetrated >> i & 1 == 1 && line_like(s.unit(unit.side, i)))
        .fold(0u16, |bits, i| bits | 1 << i);
    (own, others)
}

/// What every move action of one unit's move is checked against, worked out once per mask or
/// move (bit rows, so that trying the 32 actions reads bits instead of looping over the enemy):
/// the enemy's cells, the cells sharing an edge with one, G5's zone (`near_zone`), and the cells
/// of the mover's friends (most cells passed are on none, and then no unit is looked for).
struct Around {
    enemy: Rows,
    touching: Rows,
    zone: Rows,
    friends: Rows,
}

impl Around {
    fn new(s: &State) -> Around {
        let side = s.active;
        let enemy = enemy_rows(s, side);
        let mut touching = [0u64; HEIGHT];
        for y in 0..HEIGHT {
            let v = enemy[y];
            let mut t = v << 1 | v >> 1;
            if y > 0 {
                t |= enemy[y - 1];
            }
            if y + 1 < HEIGHT {
                t |= enemy[y + 1];
            }
            touching[y] = t & ROW;
        }
        let mover = s.round.moving.as_ref().map(|mv| mv.id);
        let friends = unit_rows(s.units(side).filter(|o| Some(o.id) != mover));
        Around { enemy, touching, zone: near_zone(s, side), friends }
    }
    /// Whether `cells` (of the table) share an edge with some enemy cell.
    fn touches(&self, cells: &[Cell]) -> bool {
        cells.iter().any(|&c| has(&self.touching, c))
    }
}

/// M5–M8: the move after `step`, if legal.
fn try_step(s: &State, around: &Around, step: Step, is_form: bool) -> Option<After> {
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
    // (`passable` first: the bit rows hold cells of the table only.)
    if step.passed.iter().chain(step.cells.as_slice()).any(|&c| !t.passable(c) || has(&around.enemy, c)) {
        return None;
    }
    // 3: a column's head does not run into itself.
    if u.formation == Formation::Column && !is_form && step.passed.first().is_some_and(|&h| u.cells.contains(h)) {
        return None;
    }
    // 4: no new contact with an enemy unit (none at all unless a new cell touches one).
    let touches = around.touches(step.cells.as_slice());
    if touches {
        for e in s.units(side.other()) {
            if in_contact(step.cells.as_slice(), e.cells()) && !in_contact(u.cells(), e.cells()) {
                return None;
            }
        }
    }
    // C6: a supporting unit keeps out of contact.
    if mv.supporting && touches {
        return None;
    }
    // 5: rough going.
    if s.round.rough_going {
        let new_difficult = step.passed.iter().chain(step.cells.as_slice()).any(|&c| !u.cells.contains(c) && t.is_difficult(c));
        if new_difficult || step.walls {
            return None;
        }
    }
    // The cells passed so far are copied only by the step taken (a mask tries every action).
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
    // The cells passed are on the table (2), where the zone is G5 exactly.
    if step.passed.iter().any(|&c| has(&around.zone, c)) {
        next.near = true;
    }
    for &c in step.passed.iter().filter(|&&c| has(&around.friends, c)) {
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
    let breaks = |i: u8| s.unit(side, i).disr + 1 > s.unit(side, i).bases();
    if unit.disr + own > unit.bases() || (0..MAX_UNITS as u8).any(|i| others >> i & 1 == 1 && breaks(i)) {
        return None;
    }
    Some(After { unit, moving: next, passed: step.passed })
}

fn move_after(s: &State, around: &Around, m: MoveKind) -> Option<After> {
    let mv = s.round.moving.as_ref()?;
    let u = s.unit(s.active, mv.id);
    if m == MoveKind::AboutFace && (mv.actions > 0 || mv.supporting) {
        return None;
    }
    try_step(s, around, move_step(&s.terrain, u, m)?, false)
}

fn form_after(s: &State, around: &Around, k: FormKind) -> Option<After> {
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
    try_step(s, around, step, true)
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
    let around = Around::new(s);
    for &k in MoveKind::ALL {
        if move_after(s, &around, k).is_some() {
            m.add(Action::Move(k));
        }
    }
    for &k in FormKind::ALL {
        if form_after(s, &around, k).is_some() {
            m.add(Action::Form(k));
        }
    }
}

pub fn apply_unit_move(s: &mut State, a: Action) {
    let side = s.active;
    let after = match a {
        Action::Move(k) => move_after(s, &Around::new(s), k),
        Action::Form(k) => form_after(s, &Around::new(s), k),
        Action::UnitDone => return finish(s),
        _ => return cancel(s),
    };
    let Some(After { unit, mut moving, passed }) = after else { return };
    let before = &s.round.moving.as_ref().expect("a unit moving").passed;
    moving.passed.reserve_exact(before.len() + passed.len());
    moving.passed.extend_from_slice(before);
    moving.passed.extend_from_slice(&passed);
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
    for i in (0..MAX_UNITS as u8).filter(|i| others >> i & 1 == 1) {
        add_disr(s, side, i, 1);
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
