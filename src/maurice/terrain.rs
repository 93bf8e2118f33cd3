//! U5, T1, G4, G8–G10: the terrain map (a type and a level per cell, walls on cell edges) and the
//! measures that depend on it — distance around lakes, walls crossed, sight over hills.

use super::grid::{Cell, Vec2};
use super::ids::{TerrainType, HEIGHT, WIDTH};
use std::collections::VecDeque;

const CELLS: usize = WIDTH * HEIGHT;

/// The map: per cell its type, level (1 = hill) and the walls on its north and east edges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terrain {
    pub kind: [TerrainType; CELLS],
    pub hill: [bool; CELLS],
    pub wall_n: [bool; CELLS],
    pub wall_e: [bool; CELLS],
    /// The lake cells, kept apart: distances need a search only when one lies on a shortest path.
    lakes: Vec<Cell>,
    /// The least box (x0, y0, x1, y1) holding every lake cell ((0, 0, 0, 0) and unused when there
    /// is none), kept with `lakes` by `set_kind`.
    lake_box: (i8, i8, i8, i8),
}

impl Default for Terrain {
    fn default() -> Terrain {
        Terrain::open()
    }
}

impl Terrain {
    /// All cells `open` at level 0, no walls.
    pub fn open() -> Terrain {
        Terrain {
            kind: [TerrainType::Open; CELLS],
            hill: [false; CELLS],
            wall_n: [false; CELLS],
            wall_e: [false; CELLS],
            lakes: Vec::new(),
            lake_box: (0, 0, 0, 0),
        }
    }

    /// Sets a cell's type (the lake list follows).
    pub fn set_kind(&mut self, c: Cell, t: TerrainType) {
        self.kind[c.index()] = t;
        self.lakes.retain(|&l| l != c);
        if t == TerrainType::Lake {
            self.lakes.push(c);
            self.lakes.sort();
        }
        // A function of the lake list alone (so that equal maps compare equal): (0, 0, 0, 0) for none.
        self.lake_box = match self.lakes.first() {
            None => (0, 0, 0, 0),
            Some(&f) => self.lakes.iter().fold((f.x, f.y, f.x, f.y), |(x0, y0, x1, y1), l| {
                (x0.min(l.x), y0.min(l.y), x1.max(l.x), y1.max(l.y))
            }),
        };
    }

    /// The Chebyshev distance from `c` to the lakes' box, a bound below its distance to any lake.
    fn to_lake_box(&self, c: Cell) -> i32 {
        let (x0, y0, x1, y1) = self.lake_box;
        let dx = (x0 as i32 - c.x as i32).max(c.x as i32 - x1 as i32).max(0);
        let dy = (y0 as i32 - c.y as i32).max(c.y as i32 - y1 as i32).max(0);
        dx.max(dy)
    }

    /// The type of a cell on the table.
    pub fn kind(&self, c: Cell) -> TerrainType {
        self.kind[c.index()]
    }
    /// The level, 0 or 1 (G9).
    pub fn level(&self, c: Cell) -> u8 {
        self.hill[c.index()] as u8
    }
    pub fn is_lake(&self, c: Cell) -> bool {
        c.on_table() && self.kind(c) == TerrainType::Lake
    }
    /// Whether a unit's base may stand here: on the table and not `lake`.
    pub fn passable(&self, c: Cell) -> bool {
        c.on_table() && self.kind(c) != TerrainType::Lake
    }
    /// T2: `woods`, `rough` or `marsh`.
    pub fn is_difficult(&self, c: Cell) -> bool {
        c.on_table() && self.kind(c).is_difficult()
    }
    pub fn lakes(&self) -> &[Cell] {
        &self.lakes
    }
    /// Whether every cell is more than `d` cells (Chebyshev) from every lake: then no lake lies on
    /// a shortest path of `d` moves or fewer from them, and `steps_between` up to `d` is the crow's.
    pub fn lakes_farther_than(&self, cells: &[Cell], d: i32) -> bool {
        self.lakes.is_empty() || cells.iter().all(|&c| self.to_lake_box(c) > d)
    }

    /// G8: whether a wall lies on the common edge of two orthogonal neighbours.
    pub fn wall_between(&self, a: Cell, b: Cell) -> bool {
        let (lo, hi) = if (b.x, b.y) < (a.x, a.y) { (b, a) } else { (a, b) };
        if !lo.on_table() || !hi.on_table() {
            return false;
        }
        match (hi.x - lo.x, hi.y - lo.y) {
            (0, 1) => self.wall_n[lo.index()],
            (1, 0) => self.wall_e[lo.index()],
            _ => false,
        }
    }

    /// G8: whether a move from `a` to the neighbour `b` crosses a wall; a diagonal move crosses one
    /// only when both orthogonal detours do.
    pub fn crosses_wall(&self, a: Cell, b: Cell) -> bool {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        if dx == 0 || dy == 0 {
            return self.wall_between(a, b);
        }
        let (u, v) = (a.plus(Vec2(dx, 0)), a.plus(Vec2(0, dy)));
        let via_u = self.wall_between(a, u) || self.wall_between(u, b);
        let via_v = self.wall_between(a, v) || self.wall_between(v, b);
        via_u && via_v
    }

    /// G4: the number of moves of a shortest path between a cell of `from` and a cell of `to`
    /// that never enters a lake nor leaves the table (the end cells excepted); None when lakes
    /// leave no path.
    pub fn steps_between(&self, from: &[Cell], to: &[Cell]) -> Option<i32> {
        let mut best = i32::MAX;
        for &a in from {
            for &b in to {
                best = best.min(a.chebyshev(b));
            }
        }
        if best == i32::MAX {
            return None;
        }
        // With no lake on a shortest Chebyshev path of a closest pair, that path is open.
        // A lake l on such a path has d(a, l) + d(l, b) = best, so its box is that near too.
        let blocked = !self.lakes.is_empty()
            && from.iter().any(|&a| {
                to.iter().any(|&b| {
                    a.chebyshev(b) == best
                        && self.to_lake_box(a) + self.to_lake_box(b) <= best
                        && self.lakes.iter().any(|&l| l != a && l != b && a.chebyshev(l) + l.chebyshev(b) == best)
                })
            });
        if !blocked {
            return Some(best);
        }
        self.search_steps(from, to)
    }

    fn search_steps(&self, from: &[Cell], to: &[Cell]) -> Option<i32> {
        let mut dist = [u16::MAX; CELLS];
        let mut queue = VecDeque::new();
        for &a in from {
            if to.contains(&a) {
                return Some(0);
            }
            if a.on_table() && dist[a.index()] == u16::MAX {
                dist[a.index()] = 0;
                queue.push_back(a);
            }
        }
        while let Some(c) = queue.pop_front() {
            let d = dist[c.index()];
            for n in c.neighbours() {
                if !n.on_table() || dist[n.index()] != u16::MAX {
                    continue;
                }
                if to.contains(&n) {
                    return Some(d as i32 + 1);
                }
                if self.kind(n) == TerrainType::Lake {
                    continue;
                }
                dist[n.index()] = d + 1;
                queue.push_back(n);
            }
        }
        None
    }

    /// G4: the distance between two sets of cells (the whole BW between them: neighbours are at 0,
    /// overlapping sets at −1); None when infinite.
    pub fn distance(&self, from: &[Cell], to: &[Cell]) -> Option<i32> {
        self.steps_between(from, to).map(|s| s - 1)
    }

    /// G4: whether `to` is within `n` BW of `from`.
    pub fn within(&self, from: &[Cell], to: &[Cell], n: i32) -> bool {
        // Lakes only lengthen paths, so sets farther apart than n as the crow flies are not
        // within n: the common case is answered without looking for lakes.
        // The boxes first: no pair of cells is nearer than the boxes holding them.
        let fb = crate::maurice::rules::charge::charge_move::cell_box(from);
        let tb = crate::maurice::rules::charge::charge_move::cell_box(to);
        if from.is_empty() || to.is_empty() || crate::maurice::rules::charge::charge_move::box_gap(fb, tb) - 1 > n {
            return false;
        }
        let mut crow = i32::MAX;
        for &a in from {
            for &b in to {
                crow = crow.min(a.chebyshev(b));
            }
        }
        if crow == i32::MAX || crow - 1 > n {
            return false;
        }
        // With no lake as near as the crow's distance, it is the distance (`steps_between`).
        if self.lakes_farther_than(from, crow) {
            return true;
        }
        self.distance(from, to).is_some_and(|d| d <= n)
    }

    /// G9: whether lane cell c_k (k ≥ 1) of base `b` along `v` is hidden from it.
    pub fn lane_hidden(&self, b: Cell, v: Vec2, k: i8) -> bool {
        let ck = b.plus(v.times(k));
        self.level(b) == 0 && self.level(ck) == 0 && (1..k).any(|j| self.level(b.plus(v.times(j))) == 1)
    }

    /// G10: a unit on `cells` is in difficult terrain when one of them is difficult or a wall
    /// lies between two of them.
    pub fn unit_in_difficult(&self, cells: &[Cell]) -> bool {
        if cells.iter().any(|&c| self.is_difficult(c)) {
            return true;
        }
        self.wall_inside(cells)
    }

    /// G8: whether a wall lies between two cells of `cells` that share an edge. Such a wall lies
    /// on the north or east edge of the lower one (`wall_between`): look there only.
    pub fn wall_inside(&self, cells: &[Cell]) -> bool {
        cells.iter().any(|&a| {
            a.on_table()
                && ((self.wall_n[a.index()] && cells.contains(&a.plus(Vec2(0, 1))) && a.plus(Vec2(0, 1)).on_table())
                    || (self.wall_e[a.index()] && cells.contains(&a.plus(Vec2(1, 0))) && a.plus(Vec2(1, 0)).on_table()))
        })
    }

    /// G9: the level of a unit, the least level of its cells.
    pub fn unit_level(&self, cells: &[Cell]) -> u8 {
        cells.iter().map(|&c| self.level(c)).min().unwrap_or(0)
    }
}

/// The terrain's difficult cells (T2) and the cells with a wall on their north or east edge, a
/// row of bits per y (bit x): `unit_in_difficult` for a unit clear of walls is a few bit reads.
#[derive(Clone, Copy, Debug)]
pub struct DifficultRows {
    difficult: [u64; HEIGHT],
    walled: [u64; HEIGHT],
}

impl DifficultRows {
    pub fn new(t: &Terrain) -> DifficultRows {
        let (mut difficult, mut walled) = ([0u64; HEIGHT], [0u64; HEIGHT]);
        for c in Cell::all() {
            let i = c.index();
            difficult[c.y as usize] |= (t.kind[i].is_difficult() as u64) << c.x;
            walled[c.y as usize] |= ((t.wall_n[i] || t.wall_e[i]) as u64) << c.x;
        }
        DifficultRows { difficult, walled }
    }

    /// `t.unit_in_difficult(cells)`, for the terrain these rows were built from.
    pub fn unit_in(&self, t: &Terrain, cells: &[Cell]) -> bool {
        let mut walled = false;
        for &c in cells {
            if c.on_table() {
                if self.difficult[c.y as usize] >> c.x & 1 == 1 {
                    return true;
                }
                walled |= self.walled[c.y as usize] >> c.x & 1 == 1;
            }
        }
        // A wall between two of its cells lies on the north or east edge of one of them.
        walled && t.unit_in_difficult(cells)
    }
}

/// The terrain map of API.md (`terrain` reset option and `state_dict`): `rows[y]` of 45 type
/// characters, `hills[y]` of 45 `0`/`1`, and the walls as `[x, y, "n" | "e"]`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TerrainMap {
    pub rows: Vec<String>,
    pub hills: Vec<String>,
    pub walls: Vec<(i8, i8, String)>,
}

impl From<&Terrain> for TerrainMap {
    fn from(t: &Terrain) -> TerrainMap {
        let row = |y: usize, f: &dyn Fn(usize) -> char| (0..WIDTH).map(|x| f(y * WIDTH + x)).collect::<String>();
        let mut walls = Vec::new();
        for c in Cell::all() {
            if t.wall_n[c.index()] {
                walls.push((c.x, c.y, "n".to_string()));
            }
            if t.wall_e[c.index()] {
                walls.push((c.x, c.y, "e".to_string()));
            }
        }
        TerrainMap {
            rows: (0..HEIGHT).map(|y| row(y, &|i| t.kind[i].symbol())).collect(),
            hills: (0..HEIGHT).map(|y| row(y, &|i| if t.hill[i] { '1' } else { '0' })).collect(),
            walls,
        }
    }
}

impl TryFrom<&TerrainMap> for Terrain {
    type Error = crate::error::Error;
    fn try_from(m: &TerrainMap) -> Result<Terrain, Self::Error> {
        let bad = |msg: String| crate::error::Error::BadOption(format!("terrain: {msg}"));
        if m.rows.len() != HEIGHT || m.hills.len() != HEIGHT {
            return Err(bad(format!("rows and hills must have {HEIGHT} lines each")));
        }
        let mut t = Terrain::open();
        for y in 0..HEIGHT {
            let (row, hill): (Vec<char>, Vec<char>) = (m.rows[y].chars().collect(), m.hills[y].chars().collect());
            if row.len() != WIDTH || hill.len() != WIDTH {
                return Err(bad(format!("line {y} must have {WIDTH} characters")));
            }
            for x in 0..WIDTH {
                let c = Cell::new(x as i8, y as i8);
                let kind = TerrainType::from_symbol(row[x]).ok_or_else(|| bad(format!("'{}' at ({x}, {y}) is no terrain", row[x])))?;
                t.set_kind(c, kind);
                t.hill[c.index()] = match hill[x] {
                    '0' => false,
                    '1' => true,
                    ch => return Err(bad(format!("'{ch}' at ({x}, {y}) is no level"))),
                };
            }
        }
        for (x, y, side) in &m.walls {
            let c = Cell::new(*x, *y);
            let other = match side.as_str() {
                "n" => c.plus(Vec2(0, 1)),
                "e" => c.plus(Vec2(1, 0)),
                _ => return Err(bad(format!("wall side '{side}' is not 'n' or 'e'"))),
            };
            if !c.on_table() || !other.on_table() {
                return Err(bad(format!("the wall at ({x}, {y}, {side}) is not between two cells of the table")));
            }
            if side == "n" {
                t.wall_n[c.index()] = true;
            } else {
                t.wall_e[c.index()] = true;
            }
        }
        Ok(t)
    }
}

/// Serde for the state's shared terrain, as a `TerrainMap`.
pub mod shared {
    use super::{Terrain, TerrainMap};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(t: &Arc<Terrain>, s: S) -> Result<S::Ok, S::Error> {
        TerrainMap::from(&**t).serialize(s)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<Terrain>, D::Error> {
        let m = TerrainMap::deserialize(d)?;
        Terrain::try_from(&m).map(Arc::new).map_err(serde::de::Error::custom)
    }
}
