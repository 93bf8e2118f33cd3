//! M3, M4, M11: where each move action and formation change takes a unit, what it costs, which
//! cells it passes and whether it crosses a wall.

use crate::maurice::action::{FormKind, MoveKind};
use crate::maurice::grid::{footprint, Cell, Cells, Frame};
use crate::maurice::ids::{Facing, Formation, UnitType};
use crate::maurice::state::{Mode, Unit};
use crate::maurice::terrain::Terrain;

/// One move action or formation change worked out: the unit after it, and what it passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub formation: Formation,
    pub at: Cell,
    pub facing: Facing,
    pub cells: Cells,
    pub cost: u8,
    pub mode: Option<Mode>,
    pub passed: Passed,
    pub walls: bool,
}

/// The cells a step passes, in order: at most a wheel's square of 4 × 4, held inline so that
/// working out a step (a mask tries every move action) allocates nothing. Reads as a slice.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Passed {
    n: u8,
    cells: [Cell; 16],
}

impl Passed {
    pub const EMPTY: Passed = Passed { n: 0, cells: [Cell::new(0, 0); 16] };

    pub fn push(&mut self, c: Cell) {
        self.cells[self.n as usize] = c;
        self.n += 1;
    }
    pub fn of(cells: &[Cell]) -> Passed {
        let mut out = Passed::EMPTY;
        cells.iter().for_each(|&c| out.push(c));
        out
    }
}

impl std::ops::Deref for Passed {
    type Target = [Cell];
    fn deref(&self) -> &[Cell] {
        &self.cells[..self.n as usize]
    }
}

impl std::fmt::Debug for Passed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

fn cells_of(frame: Frame, a0: i8, a1: i8, b0: i8, b1: i8) -> Passed {
    let mut out = Passed::EMPTY;
    for b in b0..=b1 {
        for a in a0..=a1 {
            out.push(frame.cell(a, b));
        }
    }
    out
}

/// M3, M4: the move action `m` for unit `u`, if its formation allows it (M5 item 1).
pub fn move_step(t: &Terrain, u: &Unit, m: MoveKind) -> Option<Step> {
    let f = u.facing;
    let frame = u.frame();
    let (w, d) = u.formation.size();
    let line_like = matches!(u.formation, Formation::Line | Formation::Massed);
    let placed = |at: Cell, facing: Facing| footprint(u.formation, at, facing);
    let step = |at: Cell, facing: Facing, cost: i8, mode: Option<Mode>, passed: Passed, walls: bool| Step {
        formation: u.formation,
        at,
        facing,
        cells: placed(at, facing),
        cost: cost as u8,
        mode,
        passed,
        walls,
    };
    use MoveKind::*;
    match m {
        Forward | Back if line_like => {
            let db = if m == Forward { 1 } else { -1 };
            let at = frame.cell(0, db);
            let new = placed(at, f);
            let walls = u.cells().iter().zip(new.as_slice()).any(|(&a, &b)| t.crosses_wall(a, b));
            let mode = if m == Forward { Mode::Forward } else { Mode::Retrograde };
            Some(step(at, f, 1, Some(mode), Passed::of(new.as_slice()), walls))
        }
        ObliqueLeft | ObliqueRight if line_like => {
            let da = if m == ObliqueLeft { -1 } else { 1 };
            let at = frame.cell(da, 1);
            let mut passed = Passed::EMPTY;
            u.cells().iter().for_each(|&c| passed.push(c.plus(f.vec())));
            let new = placed(at, f);
            let walls = u.cells().iter().zip(passed.iter()).zip(new.as_slice()).any(|((&a, &b), &c)| {
                t.crosses_wall(a, b) || t.crosses_wall(b, c)
            });
            new.as_slice().iter().for_each(|&c| passed.push(c));
            Some(step(at, f, w, Some(Mode::Forward), passed, walls))
        }
        WheelFrontLeft | WheelFrontRight | WheelRearLeft | WheelRearRight if line_like => {
            let (at, facing, square, mode) = match m {
                WheelFrontLeft => (frame.cell(0, 1), f.left(), cells_of(frame, 0, w - 1, 1, w), Mode::Forward),
                WheelFrontRight => (frame.cell(w - 1, w), f.right(), cells_of(frame, 0, w - 1, 1, w), Mode::Forward),
                WheelRearLeft => (frame.cell(d - 1, -d), f.right(), cells_of(frame, 0, w - 1, 1 - d - w, -d), Mode::Retrograde),
                _ => (frame.cell(w - d, 1 - d - w), f.left(), cells_of(frame, 0, w - 1, 1 - d - w, -d), Mode::Retrograde),
            };
            // The square and the unit's own cells: at most 16 + 4.
            let mut region = [Cell::new(0, 0); 20];
            region[..square.len()].copy_from_slice(&square);
            region[square.len()..square.len() + u.cells().len()].copy_from_slice(u.cells());
            let walls = t.wall_inside(&region[..square.len() + u.cells().len()]);
            Some(step(at, facing, w, Some(mode), square, walls))
        }
        Forward | Left | Right if !line_like => {
            let (head, facing) = match m {
                Forward => (frame.cell(0, 1), f),
                Left => (frame.cell(-1, 0), f.left()),
                _ => (frame.cell(1, 0), f.right()),
            };
            // A column is a snake: the last four cells its head stood on, newest first.
            let mut cells = Passed::of(&[head]);
            u.cells().iter().take(u.cells.n as usize - 1).for_each(|&c| cells.push(c));
            Some(Step {
                formation: u.formation,
                at: head,
                facing,
                cells: Cells::from_slice(&cells),
                cost: 1,
                mode: None,
                passed: Passed::of(&[head]),
                walls: t.crosses_wall(u.at, head),
            })
        }
        PivotLeft | PivotRight if u.formation == Formation::Artillery => {
            let facing = if m == PivotLeft { f.left() } else { f.right() };
            Some(step(u.at, facing, 1, None, Passed::EMPTY, false))
        }
        AboutFace if u.kind == UnitType::Cav => Some(step(frame.cell(w - 1, 1 - d), f.about(), 0, None, Passed::EMPTY, false)),
        _ => None,
    }
}

/// M11: the formation change `k` for unit `u`, if its type and formation allow it.
pub fn form_step(u: &Unit, k: FormKind) -> Option<Step> {
    use FormKind::*;
    use Formation::*;
    let f = u.facing;
    let (to, a, b, facing) = match (u.formation, k) {
        (Column, LineLeft) => (Line, 0, -3, f.left()),
        (Column, LineRight) => (Line, 0, 0, f.right()),
        (Column, MassedUpLeft) => (Massed, -1, 0, f),
        (Column, MassedUpRight) => (Massed, 0, 0, f),
        (Column, MassedBackLeft) => (Massed, -1, -2, f),
        (Column, MassedBackRight) => (Massed, 0, -2, f),
        (Line, ColumnLeft) => (Column, 0, 0, f.left()),
        (Line, ColumnRight) => (Column, 3, 0, f.right()),
        (Line, MassedLeft) => (Massed, 0, 0, f),
        (Line, MassedRight) => (Massed, 2, 0, f),
        (Line, MassedCentre) => (Massed, 1, 0, f),
        (Massed, ColumnFileLeft) => (Column, 0, 0, f),
        (Massed, ColumnFileRight) => (Column, 1, 0, f),
        (Massed, LineFrontLeft) => (Line, -2, 0, f),
        (Massed, LineFrontRight) => (Line, 0, 0, f),
        (Massed, LineFrontBoth) => (Line, -1, 0, f),
        (Massed, LineRearLeft) => (Line, -2, -1, f),
        (Massed, LineRearRight) => (Line, 0, -1, f),
        (Massed, LineRearBoth) => (Line, -1, -1, f),
        _ => return None,
    };
    if !u.kind.allows(to) {
        return None;
    }
    let at = u.frame().cell(a, b);
    Some(Step { formation: to, at, facing, cells: footprint(to, at, facing), cost: 0, mode: None, passed: Passed::EMPTY, walls: false })
}
