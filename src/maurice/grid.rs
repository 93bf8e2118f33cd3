//! G1–G3, G6, G7: cells, directions, unit frames and footprints, contact and edges. The terrain-
//! aware measures (G4 distance, G8 walls, G9 sight) live in `terrain`.

use super::ids::{Facing, Formation, HEIGHT, WIDTH};
use serde::{Deserialize, Serialize};

/// A cell (x, y): x west to east, y south to north (G1). Off-table values are allowed in
/// arithmetic; `on_table` tells them apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub x: i8,
    pub y: i8,
}

impl Cell {
    pub const fn new(x: i8, y: i8) -> Cell {
        Cell { x, y }
    }
    pub const fn on_table(self) -> bool {
        self.x >= 0 && self.y >= 0 && (self.x as usize) < WIDTH && (self.y as usize) < HEIGHT
    }
    /// The cell's index y·45 + x (the order of the maps and of `cell:<x>:<y>`); only on the table.
    pub const fn index(self) -> usize {
        self.y as usize * WIDTH + self.x as usize
    }
    pub const fn from_index(i: usize) -> Cell {
        Cell::new((i % WIDTH) as i8, (i / WIDTH) as i8)
    }
    pub const fn plus(self, v: Vec2) -> Cell {
        Cell::new(self.x + v.0, self.y + v.1)
    }
    /// Chebyshev distance max(|Δx|, |Δy|): G4's steps when no lake is in the way.
    pub fn chebyshev(self, o: Cell) -> i32 {
        ((self.x as i32 - o.x as i32).abs()).max((self.y as i32 - o.y as i32).abs())
    }
    /// G2: the 8 cells that differ by at most 1 in x and y (some may be off the table).
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        NEIGHBOUR_STEPS.iter().map(move |&v| self.plus(v))
    }
    /// Whether the two cells share an edge (G6).
    pub fn shares_edge(self, o: Cell) -> bool {
        (self.x - o.x).abs() + (self.y - o.y).abs() == 1
    }
    /// Every cell of the table, in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..WIDTH * HEIGHT).map(Cell::from_index)
    }
}

/// A step or offset in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Vec2(pub i8, pub i8);

impl Vec2 {
    pub const fn times(self, k: i8) -> Vec2 {
        Vec2(self.0 * k, self.1 * k)
    }
    pub const fn plus(self, o: Vec2) -> Vec2 {
        Vec2(self.0 + o.0, self.1 + o.1)
    }
    pub const fn minus(self, o: Vec2) -> Vec2 {
        Vec2(self.0 - o.0, self.1 - o.1)
    }
    pub const fn dot(self, o: Vec2) -> i32 {
        self.0 as i32 * o.0 as i32 + self.1 as i32 * o.1 as i32
    }
}

const NEIGHBOUR_STEPS: [Vec2; 8] =
    [Vec2(-1, -1), Vec2(0, -1), Vec2(1, -1), Vec2(-1, 0), Vec2(1, 0), Vec2(-1, 1), Vec2(0, 1), Vec2(1, 1)];

impl Facing {
    /// G2: `n` = (0, +1), `e` = (+1, 0), `s` = (0, −1), `w` = (−1, 0).
    pub const fn vec(self) -> Vec2 {
        match self {
            Facing::N => Vec2(0, 1),
            Facing::E => Vec2(1, 0),
            Facing::S => Vec2(0, -1),
            Facing::W => Vec2(-1, 0),
        }
    }
    /// G2: right of `n`/`e`/`s`/`w` is `e`/`s`/`w`/`n`.
    pub const fn right(self) -> Facing {
        match self {
            Facing::N => Facing::E,
            Facing::E => Facing::S,
            Facing::S => Facing::W,
            Facing::W => Facing::N,
        }
    }
    pub const fn left(self) -> Facing {
        self.right().right().right()
    }
    pub const fn about(self) -> Facing {
        self.right().right()
    }
}

/// G3: a unit's frame — its front-left cell p and facing f; (a, b) names p + a·r + b·f.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub origin: Cell,
    pub facing: Facing,
}

impl Frame {
    pub const fn new(origin: Cell, facing: Facing) -> Frame {
        Frame { origin, facing }
    }
    /// The cell at frame coordinates (a, b).
    pub const fn cell(self, a: i8, b: i8) -> Cell {
        self.origin.plus(self.facing.right().vec().times(a).plus(self.facing.vec().times(b)))
    }
    /// The frame coordinates (a, b) of cell c.
    pub fn coords(self, c: Cell) -> (i8, i8) {
        let d = Vec2(c.x - self.origin.x, c.y - self.origin.y);
        (d.dot(self.facing.right().vec()) as i8, d.dot(self.facing.vec()) as i8)
    }
}

/// Up to four cells, in a fixed order (G3: rows front to back, each left to right).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cells {
    pub n: u8,
    pub cells: [Cell; 4],
}

impl Cells {
    pub fn as_slice(&self) -> &[Cell] {
        &self.cells[..self.n as usize]
    }
    pub fn contains(&self, c: Cell) -> bool {
        self.as_slice().contains(&c)
    }
    pub fn len(&self) -> usize {
        self.n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn from_slice(cs: &[Cell]) -> Cells {
        let mut out = Cells { n: cs.len() as u8, cells: [Cell::default(); 4] };
        out.cells[..cs.len()].copy_from_slice(cs);
        out
    }
}

/// G3: the cells a unit of this formation covers with front-left cell `p` and facing `f`: rows
/// b = 0, −1, … front to back, each a = 0 … w − 1 left to right (a column's head first).
pub fn footprint(formation: Formation, p: Cell, f: Facing) -> Cells {
    let (w, d) = formation.size();
    let frame = Frame::new(p, f);
    let mut out = Cells::default();
    for b in 0..d {
        for a in 0..w {
            out.cells[out.n as usize] = frame.cell(a, -b);
            out.n += 1;
        }
    }
    out
}

/// G6: how a cell of another unit touches a unit of footprint (w, d) in frame `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    Front,
    Flank,
    Rear,
}

/// G6: the edge of the unit (frame, formation) that cell c touches, if any.
pub fn touching_edge(frame: Frame, formation: Formation, c: Cell) -> Option<Edge> {
    let (w, d) = formation.size();
    let (a, b) = frame.coords(c);
    if b == 1 && (0..w).contains(&a) {
        Some(Edge::Front)
    } else if (a == -1 || a == w) && (1 - d..=0).contains(&b) {
        Some(Edge::Flank)
    } else if b == -d && (0..w).contains(&a) {
        Some(Edge::Rear)
    } else {
        None
    }
}

/// G6: whether two sets of cells are in contact (a cell of one shares an edge with one of the other).
pub fn in_contact(a: &[Cell], b: &[Cell]) -> bool {
    a.iter().any(|&x| b.iter().any(|&y| x.shares_edge(y)))
}

/// G7: the three lane directions of a base facing f — straight, left, right.
pub fn lanes(f: Facing) -> [Vec2; 3] {
    let (v, r) = (f.vec(), f.right().vec());
    [v, v.minus(r), v.plus(r)]
}
