//! A3: the command distance — cells strictly between the CinC and a unit along a path of
//! neighbours that keeps off lakes and more than 1 BW away from every enemy base.
//!
//! Speed: the map is a breadth-first search over bit rows (one `u64` per row of 45 cells, a whole
//! ring of the search in a few dozen word operations), and the last maps built for each game on a
//! thread are kept, keyed by everything they depend on — the terrain (its `Arc`, held so that its
//! address cannot be reused), the CinC's cell and the cells of the enemy units — so that the legal
//! mask, the observations of both sides and the opponent's decision build each map once while the
//! armies stand still. A map from the cache is the map the search would build, so the answers are
//! the same.

use crate::maurice::grid::Cell;
use crate::maurice::ids::{Side, HEIGHT, WIDTH};
use crate::maurice::state::{State, Unit};
use crate::maurice::terrain::{DifficultRows, Terrain};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// The bits of a row that lie on the table.
pub(crate) const ROW: u64 = (1 << WIDTH) - 1;

/// A set of cells, a row of bits per y (bit x).
pub type Rows = [u64; HEIGHT];

/// Whether `c` (a cell of the table) is in `rows`.
#[inline]
pub(crate) fn has(rows: &Rows, c: Cell) -> bool {
    rows[c.y as usize] >> c.x & 1 == 1
}

/// Whether some cell of `cells` (cells of the table) is in `rows`.
#[inline]
pub(crate) fn has_any(rows: &Rows, cells: &[Cell]) -> bool {
    cells.iter().any(|&c| has(rows, c))
}

/// The cells `units` cover, as rows.
#[inline]
pub(crate) fn unit_rows<'a>(units: impl Iterator<Item = &'a Unit>) -> Rows {
    let mut rows = [0u64; HEIGHT];
    for u in units {
        for &c in u.cells() {
            // Unit cells are on the table (G1).
            rows[c.y as usize] |= 1 << c.x;
        }
    }
    rows
}

/// The cells within one cell (Chebyshev) of `r`, on the table.
#[inline]
pub(crate) fn dilate(r: &Rows, lo: usize, hi: usize, out: &mut Rows) {
    for y in lo..=hi {
        let mut v = r[y];
        if y > 0 {
            v |= r[y - 1];
        }
        if y + 1 < HEIGHT {
            v |= r[y + 1];
        }
        out[y] = (v | v << 1 | v >> 1) & ROW;
    }
}

/// The terrain's passable cells as rows, cached with the terrain.
fn passable_rows(t: &Terrain) -> Rows {
    let mut rows = [0u64; HEIGHT];
    for (y, row) in rows.iter_mut().enumerate() {
        for x in 0..WIDTH {
            if t.passable(Cell::new(x as i8, y as i8)) {
                *row |= 1 << x;
            }
        }
    }
    rows
}

/// For every cell, the fewest cells strictly between `side`'s CinC and it along an open path
/// (u16::MAX when none): the distance map the command distances of all units read.
pub struct CommandMap {
    cinc: Cell,
    depth: Rc<Depths>,
}

/// What a command map holds: per cell the least depth of its neighbours, the cell's command
/// distance (a unit's distance is then a read per cell), and the open cells, from which a cell's
/// own depth follows.
struct Depths {
    /// Per cell (`Cell::index`), the least depth of its 8 neighbours (0 at the CinC's cell),
    /// u16::MAX when none was reached. The depth of a cell is the number of cells of the path
    /// from the CinC up to and including it.
    near: [u16; WIDTH * HEIGHT],
    /// Passable and not on or next to an enemy cell: a path may pass there.
    open: Rows,
}

impl Depths {
    /// The depth of a cell of the table: 0 at the CinC; an open cell reached from a neighbour
    /// at depth d is at d + 1 (the search reaches every open neighbour of a reached cell).
    fn depth(&self, cinc: Cell, c: Cell) -> u16 {
        if c == cinc {
            return 0;
        }
        let near = self.near[c.index()];
        if self.open[c.y as usize] >> c.x & 1 == 1 && near != u16::MAX {
            near + 1
        } else {
            u16::MAX
        }
    }
}

/// One cached map and its key (with its game's terrain).
struct Entry {
    cinc: Cell,
    enemy: Rows,
    depth: Rc<Depths>,
}

/// Maps and zones kept per game: both sides of two positions.
const CACHED: usize = 4;
/// Games whose caches a thread keeps (about 20 KB each); all are dropped when one more comes. A
/// vector env of 1024 environments on one thread fits, with the games that replaced ended ones.
const GAMES: usize = 1536;

/// What one game's positions share, by its terrain (each game has its own `Arc`; clones of a
/// state share it). The `Arc` is held, so its address names this terrain while the entry lives.
struct GameCache {
    _terrain: Arc<Terrain>,
    passable: Rows,
    difficult: DifficultRows,
    maps: Vec<Entry>,
    next_map: usize,
    /// Near zones (`near_zone`) by the enemy cells they were built from.
    zones: Vec<(Rows, Rows)>,
    next_zone: usize,
}

/// Per thread, the caches of the games it played last: a vector env's thread takes its
/// environments in turn, so a cache per thread of the last few positions would not serve it.
#[derive(Default)]
struct Cache {
    games: HashMap<usize, GameCache, BuildHasherDefault<AddressHasher>>,
}

/// A hasher for addresses (one multiplication; the default hasher costs more than the lookup).
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
}

impl Cache {
    fn game(&mut self, t: &Arc<Terrain>) -> &mut GameCache {
        let key = Arc::as_ptr(t) as usize;
        if !self.games.contains_key(&key) && self.games.len() >= GAMES {
            self.games.clear();
        }
        self.games.entry(key).or_insert_with(|| GameCache {
            _terrain: t.clone(),
            passable: passable_rows(t),
            difficult: DifficultRows::new(t),
            maps: Vec::with_capacity(CACHED),
            next_map: 0,
            zones: Vec::with_capacity(CACHED),
            next_zone: 0,
        })
    }
}

/// Puts `item` in a list of at most `CACHED`, over the oldest when full.
fn keep<T>(list: &mut Vec<T>, next: &mut usize, item: T) {
    if list.len() < CACHED {
        list.push(item);
    } else {
        list[*next] = item;
        *next = (*next + 1) % CACHED;
    }
}

/// G5's zone: the cells within 4 BW of a cell of `enemy` — reached from one in at most 5 moves
/// that stay on the table and off lakes between the two ends, as `Terrain::steps_between` counts
/// them. With no lake on the map, the cells within 5 cells as the crow flies.
fn build_zone(enemy: &Rows, passable: &Rows, lakes: bool) -> Rows {
    if !lakes {
        return crow_zone(enemy);
    }
    // A path goes on from its first cell (an enemy cell) or from a cell it may pass (passable).
    let mut reach = *enemy;
    let mut grown = [0u64; HEIGHT];
    for _ in 0..5 {
        let mut from = [0u64; HEIGHT];
        for y in 0..HEIGHT {
            from[y] = reach[y] & (passable[y] | enemy[y]);
        }
        dilate(&from, 0, HEIGHT - 1, &mut grown);
        for y in 0..HEIGHT {
            reach[y] |= grown[y];
        }
    }
    reach
}

/// The cells within 5 cells (Chebyshev) of a cell of `enemy`.
pub(crate) fn crow_zone(enemy: &Rows) -> Rows {
    let mut wide = [0u64; HEIGHT];
    for (w, &v) in wide.iter_mut().zip(enemy) {
        *w = (v | v << 1 | v << 2 | v << 3 | v << 4 | v << 5 | v >> 1 | v >> 2 | v >> 3 | v >> 4 | v >> 5) & ROW;
    }
    let mut zone = [0u64; HEIGHT];
    for (y, z) in zone.iter_mut().enumerate() {
        *z = wide[y.saturating_sub(5)..(y + 6).min(HEIGHT)].iter().fold(0, |a, &r| a | r);
    }
    zone
}

/// G5's zone for `side`: the cells of the table within 4 BW of one of its enemies' cells (lakes
/// counted), a row of bits per y, from the thread's cache. A set of cells of the table is near
/// the enemy exactly when one of them is in the zone.
pub fn near_zone(s: &State, side: Side) -> Rows {
    let enemy = enemy_rows(s, side);
    CACHE.with(|cache| zone_in(cache.borrow_mut().game(&s.terrain), s, &enemy))
}

fn zone_in(game: &mut GameCache, s: &State, enemy: &Rows) -> Rows {
    if let Some((_, zone)) = game.zones.iter().find(|(key, _)| key == enemy) {
        return *zone;
    }
    let zone = build_zone(enemy, &game.passable, !s.terrain.lakes().is_empty());
    keep(&mut game.zones, &mut game.next_zone, (*enemy, zone));
    zone
}

/// What the observation reads of one side: its command map, its G5 zone (`near_zone`) and the
/// terrain's difficult cells, from one visit to the thread's cache.
pub(crate) fn observed(s: &State, side: Side) -> (CommandMap, Rows, DifficultRows) {
    let enemy = enemy_rows(s, side);
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        let game = cache.game(&s.terrain);
        (CommandMap::in_game(game, s, side, &enemy), zone_in(game, s, &enemy), game.difficult)
    })
}

/// The terrain's passable cells (on the table, not `lake`) as rows, from the thread's cache.
pub(crate) fn passable(t: &Arc<Terrain>) -> Rows {
    CACHE.with(|cache| cache.borrow_mut().game(t).passable)
}

/// The terrain's difficult and walled cells as rows, from the thread's cache.
pub(crate) fn difficult_rows(t: &Arc<Terrain>) -> DifficultRows {
    CACHE.with(|cache| cache.borrow_mut().game(t).difficult)
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The cells of `side`'s enemies on the table.
pub(crate) fn enemy_rows(s: &State, side: Side) -> Rows {
    unit_rows(s.units(side.other()))
}

fn build(passable: &Rows, enemy: &Rows, cinc: Cell) -> Depths {
    // Open: passable and not on or next to an enemy cell.
    let mut near_enemy = [0u64; HEIGHT];
    dilate(enemy, 0, HEIGHT - 1, &mut near_enemy);
    let mut open = [0u64; HEIGHT];
    for y in 0..HEIGHT {
        open[y] = passable[y] & !near_enemy[y];
    }
    let (cx, cy) = (cinc.x as usize, cinc.y as usize);
    let mut near = [u16::MAX; WIDTH * HEIGHT];
    near[cy * WIDTH + cx] = 0;
    // The cells whose least neighbour depth is set: the first ring next to them sets it. An open
    // cell is reached (joins the next ring) when it is set, so the cells set are the cells
    // visited and their neighbours, and an open cell not set is one not yet visited.
    let mut marked = [0u64; HEIGHT];
    marked[cy] = 1 << cx;
    // The ring of depth `d`, row y at y + 1 (an empty row above and below: no bounds checks).
    let mut frontier = [0u64; HEIGHT + 2];
    frontier[cy + 1] = 1 << cx;
    let (mut lo, mut hi) = (cy, cy);
    let mut d = 0u16;
    loop {
        let (glo, ghi) = (lo.saturating_sub(1), (hi + 1).min(HEIGHT - 1));
        let mut any = 0;
        // The ring is replaced row by row: the row above's old value is kept for the next row.
        let mut above = frontier[glo];
        for y in glo..=ghi {
            let here = frontier[y + 1];
            let v = above | here | frontier[y + 2];
            above = here;
            let mut bits = (v | v << 1 | v >> 1) & ROW & !marked[y];
            marked[y] |= bits;
            let new = bits & open[y];
            frontier[y + 1] = new;
            any |= new;
            while bits != 0 {
                near[y * WIDTH + bits.trailing_zeros() as usize] = d;
                bits &= bits - 1;
            }
        }
        if any == 0 {
            break;
        }
        // Every row of the old ring lies in glo..=ghi, so the frontier holds the new ring only;
        // its rows are found from the ends of that span (cheaper than noting them row by row).
        (lo, hi) = (glo, ghi);
        while frontier[lo + 1] == 0 {
            lo += 1;
        }
        while frontier[hi + 1] == 0 {
            hi -= 1;
        }
        d += 1;
    }
    Depths { near, open }
}

impl CommandMap {
    pub fn new(s: &State, side: Side) -> CommandMap {
        let enemy = enemy_rows(s, side);
        CACHE.with(|cache| CommandMap::in_game(cache.borrow_mut().game(&s.terrain), s, side, &enemy))
    }

    fn in_game(game: &mut GameCache, s: &State, side: Side, enemy: &Rows) -> CommandMap {
        let cinc = s.army(side).cinc;
        if let Some(e) = game.maps.iter().find(|e| e.cinc == cinc && e.enemy == *enemy) {
            return CommandMap { cinc, depth: e.depth.clone() };
        }
        let depth = Rc::new(build(&game.passable, enemy, cinc));
        keep(&mut game.maps, &mut game.next_map, Entry { cinc, enemy: *enemy, depth: depth.clone() });
        CommandMap { cinc, depth }
    }

    /// The command distance to a cell: 0 when the CinC is on it or next to it (the CinC's own
    /// depth is 0, so the least depth of the neighbours covers "next to it"); None if infinite.
    pub fn to_cell(&self, t: Cell) -> Option<u32> {
        let best = if t.on_table() { self.depth.near[t.index()] } else { self.off_table(t) };
        (best != u16::MAX).then_some(u32::from(best))
    }

    /// The least depth of the neighbours of a cell off the table (those on the table only).
    #[cold]
    fn off_table(&self, t: Cell) -> u16 {
        t.neighbours().filter(|z| z.on_table()).map(|z| self.depth.depth(self.cinc, z)).min().unwrap_or(u16::MAX)
    }

    /// A3: a unit's command distance, the least over its cells.
    pub fn to_unit(&self, u: &Unit) -> Option<u32> {
        let mut best = u16::MAX;
        for &c in u.cells() {
            best = best.min(if c.on_table() { self.depth.near[c.index()] } else { self.off_table(c) });
        }
        (best != u16::MAX).then_some(u32::from(best))
    }
}

/// A3: the command distance of `side`'s unit `id`.
pub fn command_distance(s: &State, side: Side, id: u8) -> Option<u32> {
    CommandMap::new(s, side).to_unit(s.unit(side, id))
}
