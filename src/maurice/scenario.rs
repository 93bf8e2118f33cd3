//! S2–S5: the scenarios — their terrain, armies and CinCs, red as blue turned through 180° — and
//! the random terrain procedure.

use super::grid::Cell;
use super::ids::{Facing, Formation, ScenarioId, Side, TerrainType, UnitType, HEIGHT, WIDTH};
use super::terrain::Terrain;
use crate::draw;
use rand_chacha::ChaCha8Rng;

/// One unit as a scenario or the `units` reset option places it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitSpec {
    pub id: u8,
    pub kind: UnitType,
    pub formation: Formation,
    /// The front-left cell (G3).
    pub at: Cell,
    pub facing: Facing,
    pub disr: u8,
    pub smoke: bool,
}

impl UnitSpec {
    const fn new(id: u8, kind: UnitType, formation: Formation, x: i8, y: i8) -> UnitSpec {
        UnitSpec { id, kind, formation, at: Cell::new(x, y), facing: Facing::N, disr: 0, smoke: false }
    }
    /// S2: the same unit on the other side of the table.
    pub fn turned(self) -> UnitSpec {
        UnitSpec { at: turned(self.at), facing: self.facing.about(), ..self }
    }
}

/// S2: a cell turned through 180°.
pub const fn turned(c: Cell) -> Cell {
    Cell::new(WIDTH as i8 - 1 - c.x, HEIGHT as i8 - 1 - c.y)
}

/// A scenario's data: the terrain, both armies (blue first) and both CinCs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub id: ScenarioId,
    pub terrain: Terrain,
    pub units: [Vec<UnitSpec>; 2],
    pub cinc: [Cell; 2],
}

use Formation::{Artillery as ART_F, Line, Massed};
use UnitType::{Art, Cav, Inf};

/// S3: blue's army in `standard`.
const STANDARD_BLUE: [UnitSpec; 15] = [
    UnitSpec::new(0, Inf, Line, 9, 7),
    UnitSpec::new(1, Inf, Line, 14, 7),
    UnitSpec::new(2, Inf, Line, 19, 7),
    UnitSpec::new(3, Inf, Line, 24, 7),
    UnitSpec::new(4, Inf, Line, 29, 7),
    UnitSpec::new(5, Inf, Line, 34, 7),
    UnitSpec::new(6, Inf, Line, 16, 4),
    UnitSpec::new(7, Inf, Line, 25, 4),
    UnitSpec::new(8, Cav, Massed, 2, 7),
    UnitSpec::new(9, Cav, Massed, 5, 7),
    UnitSpec::new(10, Cav, Massed, 39, 7),
    UnitSpec::new(11, Cav, Massed, 42, 7),
    UnitSpec::new(12, Art, ART_F, 13, 7),
    UnitSpec::new(13, Art, ART_F, 23, 7),
    UnitSpec::new(14, Art, ART_F, 33, 7),
];

/// S4: blue's army in `skirmish`.
const SKIRMISH_BLUE: [UnitSpec; 7] = [
    UnitSpec::new(0, Inf, Line, 14, 7),
    UnitSpec::new(1, Inf, Line, 19, 7),
    UnitSpec::new(2, Inf, Line, 24, 7),
    UnitSpec::new(3, Inf, Line, 29, 7),
    UnitSpec::new(4, Cav, Massed, 9, 7),
    UnitSpec::new(5, Cav, Massed, 34, 7),
    UnitSpec::new(6, Art, ART_F, 23, 7),
];

/// An area piece: x0–x1 × y0–y1, inclusive.
type Rect = (i8, i8, i8, i8);

/// S3: the areas of the standard terrain, each also laid as its 180° twin.
const STANDARD_AREAS: [(Option<TerrainType>, Rect); 10] = [
    (None, (5, 10, 11, 14)),
    (None, (34, 39, 15, 18)),
    (Some(TerrainType::Woods), (20, 24, 13, 16)),
    (Some(TerrainType::Woods), (36, 40, 10, 12)),
    (Some(TerrainType::Woods), (4, 8, 17, 19)),
    (Some(TerrainType::Rough), (13, 16, 12, 13)),
    (Some(TerrainType::Rough), (28, 31, 16, 17)),
    (Some(TerrainType::Marsh), (27, 30, 10, 11)),
    (Some(TerrainType::Marsh), (14, 17, 18, 19)),
    (Some(TerrainType::Lake), (0, 1, 15, 16)),
];
/// S3: walls on the north edges of x0–x1 at row y.
const STANDARD_WALLS: [(i8, i8, i8); 2] = [(31, 35, 13), (9, 13, 15)];

/// Lays an area (None: a hill) and its twin.
fn lay_area(t: &mut Terrain, kind: Option<TerrainType>, (x0, x1, y0, y1): Rect) {
    for y in y0..=y1 {
        for x in x0..=x1 {
            for c in [Cell::new(x, y), turned(Cell::new(x, y))] {
                match kind {
                    Some(k) => t.set_kind(c, k),
                    None => t.hill[c.index()] = true,
                }
            }
        }
    }
}

/// Lays a wall on the north edge of (x, y) and its twin, the north edge of (44 − x, 28 − y).
fn lay_wall_n(t: &mut Terrain, c: Cell) {
    t.wall_n[c.index()] = true;
    t.wall_n[Cell::new(WIDTH as i8 - 1 - c.x, HEIGHT as i8 - 2 - c.y).index()] = true;
}

/// Lays a wall on the east edge of (x, y) and its twin, the east edge of (43 − x, 29 − y).
fn lay_wall_e(t: &mut Terrain, c: Cell) {
    t.wall_e[c.index()] = true;
    t.wall_e[Cell::new(WIDTH as i8 - 2 - c.x, HEIGHT as i8 - 1 - c.y).index()] = true;
}

/// S3: the standard terrain (also `skirmish`'s).
pub fn standard_terrain() -> Terrain {
    let mut t = Terrain::open();
    for (kind, rect) in STANDARD_AREAS {
        lay_area(&mut t, kind, rect);
    }
    for (x0, x1, y) in STANDARD_WALLS {
        for x in x0..=x1 {
            lay_wall_n(&mut t, Cell::new(x, y));
        }
    }
    t
}

/// S2–S4: a scenario by id, red already turned.
pub fn scenario(id: ScenarioId) -> Scenario {
    let (blue, cinc): (&[UnitSpec], Cell) = match id {
        ScenarioId::Standard => (&STANDARD_BLUE, Cell::new(22, 2)),
        ScenarioId::Skirmish => (&SKIRMISH_BLUE, Cell::new(22, 4)),
    };
    Scenario {
        id,
        terrain: standard_terrain(),
        units: [blue.to_vec(), blue.iter().map(|u| u.turned()).collect()],
        cinc: [cinc, turned(cinc)],
    }
}

impl Scenario {
    pub fn units(&self, side: Side) -> &[UnitSpec] {
        &self.units[side.idx()]
    }
}

/// A uniform integer in [lo, hi] from the terrain stream.
fn uniform(rng: &mut ChaCha8Rng, lo: i32, hi: i32) -> i32 {
    lo + draw::below(rng, (hi - lo + 1) as u32) as i32
}

fn die(rng: &mut ChaCha8Rng) -> i32 {
    uniform(rng, 1, 6)
}

/// S5: random terrain, drawn from the terrain stream (N1).
pub fn random_terrain(rng: &mut ChaCha8Rng) -> Terrain {
    let mut t = Terrain::open();
    let (hi, lo) = loop {
        let (a, b) = (die(rng), die(rng));
        if a != b {
            break (a.max(b), a.min(b));
        }
    };
    let n = uniform(rng, hi, hi + lo);
    let pairs = (n + 1) / 2;
    for _ in 0..pairs {
        let kind = match die(rng) {
            1 | 2 => Some(Some(TerrainType::Woods)),
            3 => Some(Some(TerrainType::Rough)),
            4 => Some(None),
            5 => Some(Some(TerrainType::Marsh)),
            _ => None,
        };
        match kind {
            Some(kind) => {
                let width = uniform(rng, 2, 6);
                let height = uniform(rng, 2, 4);
                let x0 = uniform(rng, 0, WIDTH as i32 - width);
                let y0 = uniform(rng, 10, 20 - height);
                let rect = (x0 as i8, (x0 + width - 1) as i8, y0 as i8, (y0 + height - 1) as i8);
                lay_area(&mut t, kind, rect);
            }
            None => {
                if die(rng) <= 3 {
                    let length = uniform(rng, 3, 8);
                    let x0 = uniform(rng, 0, WIDTH as i32 - length);
                    let y0 = uniform(rng, 10, 18);
                    for x in x0..x0 + length {
                        lay_wall_n(&mut t, Cell::new(x as i8, y0 as i8));
                    }
                } else {
                    let length = uniform(rng, 2, 4);
                    let x0 = uniform(rng, 0, 43);
                    let y0 = uniform(rng, 10, 20 - length);
                    for y in y0..y0 + length {
                        lay_wall_e(&mut t, Cell::new(x0 as i8, y as i8));
                    }
                }
            }
        }
    }
    t
}
