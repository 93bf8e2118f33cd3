//! H1–H4: the CinC — its move, its displacement and the penalty for it.

use crate::maurice::grid::Cell;
use crate::maurice::ids::{Side, HEIGHT, WIDTH};
use crate::maurice::state::State;

/// H1: a cell the CinC may stand on: on the table and not `lake`.
fn can_stand(s: &State, c: Cell) -> bool {
    s.terrain.passable(c)
}

/// H2: the cells `side`'s CinC may move to: any other cell on the table, not `lake`, covered by no
/// unit, reachable by moves to neighbours through cells that are not `lake` and hold no enemy unit.
pub fn move_targets(s: &State, side: Side) -> Vec<Cell> {
    let mut covered = [0u8; WIDTH * HEIGHT];
    for u in s.units_on_table() {
        for &c in u.cells() {
            covered[c.index()] = 1 + (u.side != side) as u8;
        }
    }
    let start = s.army(side).cinc;
    let mut seen = [false; WIDTH * HEIGHT];
    seen[start.index()] = true;
    // Breadth first; each cell is queued at most once, so a plain list with a read head serves.
    let mut queue = Vec::with_capacity(WIDTH * HEIGHT);
    queue.push(start);
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        for n in c.neighbours() {
            if !can_stand(s, n) || seen[n.index()] || covered[n.index()] == 2 {
                continue;
            }
            seen[n.index()] = true;
            queue.push(n);
        }
    }
    // In cell order: the reachable cells no unit covers, the CinC's own excepted.
    Cell::all().filter(|&c| c != start && seen[c.index()] && covered[c.index()] == 0).collect()
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
