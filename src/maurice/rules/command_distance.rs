//! A3: the command distance — cells strictly between the CinC and a unit along a path of
//! neighbours that keeps off lakes and more than 1 BW away from every enemy base.

use crate::maurice::grid::Cell;
use crate::maurice::ids::{Side, HEIGHT, WIDTH};
use crate::maurice::state::{State, Unit};

const CELLS: usize = WIDTH * HEIGHT;

/// For every cell, the fewest cells strictly between `side`'s CinC and it along an open path
/// (u16::MAX when none): the distance map the command distances of all units read.
pub struct CommandMap {
    cinc: Cell,
    /// Depth of each open cell: the cells of the path from the CinC up to and including it.
    depth: Vec<u16>,
}

impl CommandMap {
    pub fn new(s: &State, side: Side) -> CommandMap {
        let mut open: Vec<bool> = Cell::all().map(|c| s.terrain.passable(c)).collect();
        for e in s.units(side.other()) {
            for &c in e.cells() {
                open[c.index()] = false;
                for n in c.neighbours().filter(|n| n.on_table()) {
                    open[n.index()] = false;
                }
            }
        }
        let cinc = s.army(side).cinc;
        let mut depth = vec![u16::MAX; CELLS];
        depth[cinc.index()] = 0;
        // Breadth first; each cell is queued at most once, so a plain list with a read head serves.
        let mut queue = Vec::with_capacity(CELLS);
        queue.push(cinc);
        let mut head = 0;
        while let Some(&c) = queue.get(head) {
            head += 1;
            let d = depth[c.index()];
            for n in c.neighbours() {
                if n.on_table() && open[n.index()] && depth[n.index()] == u16::MAX {
                    depth[n.index()] = d + 1;
                    queue.push(n);
                }
            }
        }
        CommandMap { cinc, depth }
    }

    /// The command distance to a cell: 0 when the CinC is on it or next to it; None if infinite.
    pub fn to_cell(&self, t: Cell) -> Option<u32> {
        if t == self.cinc {
            return Some(0);
        }
        t.neighbours()
            .filter(|z| z.on_table())
            .filter_map(|z| if z == self.cinc { Some(0) } else { Some(self.depth[z.index()]).filter(|&d| d != u16::MAX) })
            .min()
            .map(u32::from)
    }

    /// A3: a unit's command distance, the least over its cells.
    pub fn to_unit(&self, u: &Unit) -> Option<u32> {
        u.cells().iter().filter_map(|&c| self.to_cell(c)).min()
    }
}

/// A3: the command distance of `side`'s unit `id`.
pub fn command_distance(s: &State, side: Side, id: u8) -> Option<u32> {
    CommandMap::new(s, side).to_unit(s.unit(side, id))
}
