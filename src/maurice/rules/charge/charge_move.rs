//! C2–C4: whether a unit can charge, and where a lead-in takes it.

use crate::maurice::action::Lead;
use crate::maurice::grid::{touching_edge, Cell, Cells, Edge, Frame};
use crate::maurice::ids::{Formation, Side, TerrainType, UnitType, MAX_UNITS};
use crate::maurice::rules::command_distance::{has_any, Rows};
use crate::maurice::state::{State, Unit};

/// C3: a charge move at most 4 BW long.
pub const CHARGE_REACH: u8 = 4;

/// A legal charge move (C3, C4): where the unit stops, what it passed and whom it contacts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargeMove {
    pub at: Cell,
    pub cells: Cells,
    /// Every cell passed, in order.
    pub passed: Vec<Cell>,
    /// Walls crossed on the way.
    pub walls: bool,
    pub spent: u8,
    /// The enemy units contacted, a bit per id.
    pub contacts: u16,
}

/// G9: whether a cell in front of a unit (in its frame) is hidden from it.
fn hidden_from(s: &State, u: &Unit, e: Cell) -> bool {
    let t = &s.terrain;
    let (a, b) = u.frame().coords(e);
    b >= 1
        && t.level(e) == 0
        && u.cells().iter().all(|&c| t.level(c) == 0)
        && (1..b).any(|j| {
            let c = u.frame().cell(a, j);
            c.on_table() && t.level(c) == 1
        })
}

/// C3 item 3: a cell the charge may pass.
fn passable(s: &State, u: &Unit, c: Cell, rough_going: bool) -> bool {
    let t = &s.terrain;
    t.passable(c)
        && s.unit_at(c).is_none_or(|o| o.side == u.side && o.id == u.id)
        && !(u.kind == UnitType::Cav && t.kind(c) == TerrainType::Woods)
        && !(rough_going && !u.cells.contains(c) && t.is_difficult(c))
}

/// C3, C4: the charge move of `side`'s unit `id` with lead-in `lead`, if legal.
pub fn charge_move(s: &State, side: Side, id: u8, lead: Lead) -> Option<ChargeMove> {
    if !enemy_in_reach(s, side, s.unit(side, id)) {
        return None;
    }
    charge_move_in_reach(s, side, id, lead, true)
}

/// The move covers at most CHARGE_REACH cells, each base then touching the cell ahead: an enemy
/// farther than that from every cell of the unit cannot be reached by any lead-in. The boxes of
/// the unit and of each enemy answer first (a cell pair is no nearer than its boxes).
fn enemy_in_reach(s: &State, side: Side, u: &Unit) -> bool {
    let reach = CHARGE_REACH as i32 + 1;
    let ub = cell_box(u.cells());
    s.units(side.other()).any(|e| {
        box_gap(ub, cell_box(e.cells())) <= reach
            && e.cells().iter().any(|&c| u.cells().iter().any(|&m| m.chebyshev(c) <= reach))
    })
}

/// `charge_move` once an enemy is known to be in reach; the cells passed are listed only when
/// `keep_passed` (`can_charge` asks only whether there is a move).
fn charge_move_in_reach(s: &State, side: Side, id: u8, lead: Lead, keep_passed: bool) -> Option<ChargeMove> {
    let u = s.unit(side, id);
    let rough_going = s.round.rough_going && side == s.active;
    let (w, _) = u.formation.size();
    let mut frame = u.frame();
    let mut cells = u.cells;
    // Every cell passed, in order: at most CHARGE_REACH steps of two rows of 4 bases.
    let mut passed = [Cell::default(); 2 * 4 * CHARGE_REACH as usize];
    let mut n_passed = 0usize;
    let mut walls = false;
    let mut spent = 0u8;
    let step = |frame: &mut Frame, cells: &mut Cells, da: i8, passed: &mut [Cell], n_passed: &mut usize, walls: &mut bool| {
        // Each base moves one ahead, then (an oblique lead-in) one aside.
        for &c in cells.as_slice() {
            let ahead = c.plus(frame.facing.vec());
            *walls |= s.terrain.crosses_wall(c, ahead);
            if da != 0 {
                *walls |= s.terrain.crosses_wall(ahead, ahead.plus(frame.facing.right().vec().times(da)));
            }
        }
        if da != 0 {
            for &c in cells.as_slice() {
                passed[*n_passed] = c.plus(frame.facing.vec());
                *n_passed += 1;
            }
        }
        *frame = Frame::new(frame.cell(da, 1), frame.facing);
        *cells = crate::maurice::grid::footprint(u.formation, frame.origin, frame.facing);
        for &c in cells.as_slice() {
            passed[*n_passed] = c;
            *n_passed += 1;
        }
    };
    let enemies = || s.units(side.other());
    let contact = |cells: &Cells| enemies().any(|e| crate::maurice::grid::in_contact(cells.as_slice(), e.cells()));
    let da = match lead {
        Lead::Straight => 0,
        Lead::ObliqueLeft => -1,
        Lead::ObliqueRight => 1,
    };
    if da != 0 {
        step(&mut frame, &mut cells, da, &mut passed, &mut n_passed, &mut walls);
        spent += 1;
        if contact(&cells) {
            return None;
        }
    }
    let contacts = loop {
        // A touch other than across the front edge makes the charge illegal.
        let mut ahead = 0u16;
        for e in enemies() {
            for &c in e.cells() {
                match touching_edge(frame, u.formation, c) {
                    Some(Edge::Front) => ahead |= 1 << e.id,
                    Some(_) => return None,
                    None => {}
                }
            }
        }
        if ahead != 0 {
            break ahead;
        }
        if spent == CHARGE_REACH {
            return None;
        }
        step(&mut frame, &mut cells, 0, &mut passed, &mut n_passed, &mut walls);
        spent += 1;
    };
    let passed = &passed[..n_passed];
    if passed.iter().any(|&c| !passable(s, u, c, rough_going)) || (rough_going && walls) {
        return None;
    }
    // C4: whom it contacts, and whether it may.
    for e in (0..MAX_UNITS as u8).filter(|i| contacts >> i & 1 == 1).map(|i| s.unit(side.other(), i)) {
        let touched = || (0..w).map(|a| frame.cell(a, 1)).filter(|c| e.cells.contains(*c));
        if touched().all(|c| hidden_from(s, u, c)) {
            return None;
        }
        if u.kind == UnitType::Inf && e.kind == UnitType::Cav {
            return None;
        }
        if u.kind == UnitType::Cav && touched().any(|c| s.terrain.kind(c) == TerrainType::Woods) {
            return None;
        }
    }
    let passed = if keep_passed { passed.to_vec() } else { Vec::new() };
    Some(ChargeMove { at: frame.origin, cells, passed, walls, spent, contacts })
}

/// The least box (x0, y0, x1, y1) holding the cells.
pub(crate) fn cell_box(cells: &[Cell]) -> (i32, i32, i32, i32) {
    cells.iter().fold((i32::MAX, i32::MAX, i32::MIN, i32::MIN), |(x0, y0, x1, y1), c| {
        (x0.min(c.x as i32), y0.min(c.y as i32), x1.max(c.x as i32), y1.max(c.y as i32))
    })
}

/// The Chebyshev distance between two boxes (0 when they overlap): no pair of their cells is
/// nearer.
pub(crate) fn box_gap(a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)) -> i32 {
    let dx = (b.0 - a.2).max(a.0 - b.2).max(0);
    let dy = (b.1 - a.3).max(a.1 - b.3).max(0);
    dx.max(dy)
}

/// C2: `inf` or `cav`, in `line` or `massed`, at most 3 DISR, not moved this action, and a
/// lead-in that gives a legal charge move.
pub fn can_charge(s: &State, side: Side, id: u8) -> bool {
    can_charge_if(s, side, id, |u| enemy_in_reach(s, side, u))
}

/// `can_charge` with the cells within CHARGE_REACH + 1 of an enemy cell at hand (`crow_zone` of
/// the enemy's cells), for a side's units asked in turn.
pub(crate) fn can_charge_near(s: &State, side: Side, id: u8, reach: &Rows) -> bool {
    const _: () = assert!(CHARGE_REACH + 1 == 5, "crow_zone holds the cells within 5");
    can_charge_if(s, side, id, |u| has_any(reach, u.cells()))
}

/// C2, with `in_reach` answering `enemy_in_reach` for a unit on the table.
fn can_charge_if(s: &State, side: Side, id: u8, in_reach: impl FnOnce(&Unit) -> bool) -> bool {
    let u = s.unit(side, id);
    u.on_table
        && matches!(u.kind, UnitType::Inf | UnitType::Cav)
        && matches!(u.formation, Formation::Line | Formation::Massed)
        && u.disr <= 3
        && (side != s.active || s.round.done & (1 << id) == 0)
        && in_reach(u)
        && Lead::ALL.iter().any(|&l| charge_move_in_reach(s, side, id, l, false).is_some())
}
