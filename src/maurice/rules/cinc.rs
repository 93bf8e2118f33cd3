//! H1–H4: the CinC — its move, its displacement and the penalty for it.

use crate::maurice::grid::Cell;
use crate::maurice::ids::{Side, HEIGHT, WIDTH};
use crate::maurice::state::State;
use super::command_distance::{dilate, passable, Rows, ROW};

/// H1: a cell the CinC may stand on: on the table and not `lake`.
fn can_stand(s: &State, c: Cell) -> bool {
    s.terrain.passable(c)
}

/// H2: the cells `side`'s CinC may move to: any other cell on the table, not `lake`, covered by no
/// unit, reachable by moves to neighbours through cells that are not `lake` and hold no enemy unit.
pub fn move_targets(s: &State, side: Side) -> Vec<Cell> {
    let mut out = Vec::new();
    for_each_move_target(s, side, |c| out.push(c));
    out
}

/// `move_targets`, each cell handed to `f` in cell order, with no list built.
pub fn for_each_move_target(s: &State, side: Side, mut f: impl FnMut(Cell)) {
    for (y, &row) in move_target_rows(s, side).iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            f(Cell::new(bits.trailing_zeros() as i8, y as i8));
            bits &= bits - 1;
        }
    }
}

/// `move_targets` as a row of bits per y (bit x). The search is a flood fill over bit rows (a
/// row of 45 cells a word).
pub fn move_target_rows(s: &State, side: Side) -> Rows {
    // A cell covered by units of both sides counts as the last one's (blue first, ascending id).
    let (mut own, mut enemy) = ([0u64; HEIGHT], [0u64; HEIGHT]);
    for u in s.units_on_table() {
        for &c in u.cells() {
            let (y, bit) = (c.y as usize, 1u64 << c.x);
            if u.side == side {
                own[y] |= bit;
                enemy[y] &= !bit;
            } else {
                enemy[y] |= bit;
                own[y] &= !bit;
            }
        }
    }
    let passable = passable(&s.terrain);
    let mut open = [0u64; HEIGHT];
    for y in 0..HEIGHT {
        open[y] = passable[y] & !enemy[y];
    }
    let start = s.army(side).cinc;
    let mut seen = [0u64; HEIGHT];
    seen[start.y as usize] = 1 << start.x;
    let mut grown = [0u64; HEIGHT];
    loop {
        dilate(&seen, 0, HEIGHT - 1, &mut grown);
        let mut changed = false;
        for y in 0..HEIGHT {
            let next = seen[y] | (grown[y] & open[y]);
            changed |= next != seen[y];
            seen[y] = next;
        }
        if !changed {
            break;
        }
    }
    seen[start.y as usize] &= !(1 << start.x);
    for y in 0..HEIGHT {
        seen[y] &= !(own[y] | enemy[y]) & ROW;
    }
    seen
}

/// H3: the cells a displaced CinC may go to: the nearest ring (Chebyshev distance k ≥ 1) that
/// holds a cell on the table, not `lake` and covered by no unit — all of that ring's such cells.
pub fn displace_targets(s: &State, side: Side) -> Vec<Cell> {
    let at = s.army(side).cinc;
    for k in 1..WIDTH as i8 {
        let cells: Vec<Cell> = Cell::all()
            .filter(|&c| c.chebyshev(at) == k as i32 && can_stand(s, c) && s.unit_at(c).is_none())
            .collect();
        if !cells.is_empty() {
            return cells;
        }
    }
    Vec::new()
}

/// H3, R9 (1): whether `side`'s CinC is covered by one of its own units.
pub fn covered_by_own(s: &State, side: Side) -> bool {
    let at = s.army(side).cinc;
    s.units(side).any(|u| u.cells.contains(at))
}
