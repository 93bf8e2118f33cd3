//! H1–H4: the CinC — its move, its displacement and the penalty for it.

use crate::maurice::grid::Cell;
use crate::maurice::ids::{Side, HEIGHT, WIDTH};
use crate::maurice::state::State;
use super::command_distance::{passable, Rows, ROW};

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
    // Sweeps down then up the table, each row taking the open neighbours of the rows beside it
    // and then whole runs of open cells along it: a few sweeps reach what growing by one ring at
    // a time reaches in a pass per cell of distance. Done when a pair of sweeps adds nothing.
    loop {
        let mut changed = false;
        for y in (0..HEIGHT).chain((0..HEIGHT).rev()) {
            let v = seen[y] | if y > 0 { seen[y - 1] } else { 0 } | if y + 1 < HEIGHT { seen[y + 1] } else { 0 };
            let next = seen[y] | along_runs((v | v << 1 | v >> 1) & ROW & open[y], open[y]);
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

/// The runs of `open` cells along a row (bits) that hold a cell of `seeds` (a subset of `open`),
/// whole. Adding the seeds to the runs carries from the lowest seed of a run to its top; towards
/// bit 0, each seed spreads over 1, 2, 4, … cells in turn where all of them are open.
fn along_runs(seeds: u64, open: u64) -> u64 {
    let up = (open.wrapping_add(seeds) ^ open) & open | seeds;
    let (mut down, mut through) = (seeds, open);
    for shift in [1, 2, 4, 8, 16, 32] {
        down |= through & down >> shift;
        through &= through >> shift;
    }
    up | down
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `along_runs` against a walk from each seed along its run, on rows of many shapes.
    #[test]
    fn along_runs_takes_the_whole_runs_of_the_seeds() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x = crate::draw::splitmix64(x);
            let open = x & ROW;
            let seeds = open & crate::draw::splitmix64(x ^ 1) & crate::draw::splitmix64(x ^ 2);
            let mut want = 0u64;
            for b in (0..WIDTH).filter(|&b| seeds >> b & 1 == 1) {
                let (mut lo, mut hi) = (b, b);
                while lo > 0 && open >> (lo - 1) & 1 == 1 {
                    lo -= 1;
                }
                while hi + 1 < WIDTH && open >> (hi + 1) & 1 == 1 {
                    hi += 1;
                }
                want |= (lo..=hi).fold(0, |m, i| m | 1 << i);
            }
            assert_eq!(along_runs(seeds, open), want, "open {open:#x} seeds {seeds:#x}");
        }
    }
}
