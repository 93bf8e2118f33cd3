//! F7. Route home: a path along open roads to a Safe House through locations holding no patrol.
//! Bitboard flood fill over B3 (closed roads removed); a Fake ID lets the path cross one patrol.

use crate::maquis::board::{bit, LocSet, ADJACENCY, BRIDGE_NORTH, BRIDGE_SOUTH, ROADS, ROAD_BARADAT_FENCE};
use crate::maquis::ids::{Location, MissionId};
use crate::maquis::state::State;
use crate::maquis::tracks::is_orange;

/// Roads closed now: Milice Parade Day on orange days (while unfinished), destroyed bridges.
pub fn closed_roads(s: &State) -> u32 {
    let mut closed = 0u32;
    if s.has_open(MissionId::MiliceParadeDay) && is_orange(s.day) {
        closed |= 1 << ROAD_BARADAT_FENCE;
    }
    if s.marks.bridges_destroyed & 1 != 0 {
        closed |= 1 << BRIDGE_NORTH;
    }
    if s.marks.bridges_destroyed & 2 != 0 {
        closed |= 1 << BRIDGE_SOUTH;
    }
    closed
}

/// The adjacency bitboards with the closed roads removed.
pub fn open_adjacency(s: &State) -> [LocSet; 19] {
    adjacency_without(closed_roads(s))
}

fn adjacency_without(mut closed: u32) -> [LocSet; 19] {
    let mut adj = ADJACENCY;
    while closed != 0 {
        let r = closed.trailing_zeros() as usize;
        closed &= closed - 1;
        let (a, b) = ROADS[r];
        adj[a as usize] &= !bit(b);
        adj[b as usize] &= !bit(a);
    }
    adj
}

/// The union of the neighbours of `set` along the roads of `adj`.
#[inline]
pub fn neighbours(adj: &[LocSet; 19], set: LocSet) -> LocSet {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= adj[i];
    }
    out
}

/// `neighbours` over every road by table lookup: the locations in three chunks of 7 bits,
/// `NEIGHBOURS[chunk][bits]` the union of their neighbours (no road closed).
const NEIGHBOURS: [[LocSet; 128]; 3] = {
    let mut t = [[0; 128]; 3];
    let mut chunk = 0;
    while chunk < 3 {
        let mut bits = 0;
        while bits < 128 {
            let mut i = 0;
            while i < 7 {
                let l = chunk * 7 + i;
                if bits >> i & 1 != 0 && l < 19 {
                    t[chunk][bits] |= ADJACENCY[l];
                }
                i += 1;
            }
            bits += 1;
        }
        chunk += 1;
    }
    t
};

#[inline]
fn all_roads_neighbours(set: LocSet) -> LocSet {
    NEIGHBOURS[0][(set & 127) as usize] | NEIGHBOURS[1][(set >> 7 & 127) as usize] | NEIGHBOURS[2][(set >> 14 & 127) as usize]
}

/// Everything reachable from `from` moving only through `passable` (the start always counts),
/// frontier by frontier so that each location's neighbours are looked up once; stops early once
/// `stop` is reached (the result then holds part of `stop`, which is all a caller asks of it).
#[inline]
fn flood(nb: impl Fn(LocSet) -> LocSet, from: LocSet, passable: LocSet, stop: LocSet) -> LocSet {
    let mut reach = from;
    let mut frontier = from;
    while frontier != 0 && reach & stop == 0 {
        frontier = nb(frontier) & passable & !reach;
        reach |= frontier;
    }
    reach
}

/// How a worker at `loc` can get home.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Clear,
    /// Only by spending a Fake ID to pass one patrol.
    WithFakeId,
    None,
}

pub fn route_home(s: &State, loc: Location, has_fake_id: bool) -> Route {
    let homes = s.safe_houses();
    let start = bit(loc);
    if start & homes != 0 {
        return Route::Clear;
    }
    // Usually no road is closed: neighbours by table lookup.
    match closed_roads(s) {
        0 => route_over(all_roads_neighbours, s.patrol_set(), homes, start, has_fake_id),
        closed => {
            let adj = adjacency_without(closed);
            route_over(|set| neighbours(&adj, set), s.patrol_set(), homes, start, has_fake_id)
        }
    }
}

/// F7 on bitboards: the route from `start` to one of `homes` along the roads of `nb` past
/// `patrols` (pure, for simulations of the day too).
#[inline]
pub fn route_over(
    nb: impl Fn(LocSet) -> LocSet + Copy,
    patrols: LocSet,
    homes: LocSet,
    start: LocSet,
    has_fake_id: bool,
) -> Route {
    // Safe Houses never hold patrols, so reaching one through patrol-free locations is a route.
    let clear = flood(nb, start, !patrols, homes);
    if clear & homes != 0 {
        return Route::Clear;
    }
    if has_fake_id {
        // Cross exactly one patrol-held location (never the destination), then go on clear.
        let crossed = nb(clear) & patrols;
        if flood(nb, crossed, !patrols, homes) & homes != 0 {
            return Route::WithFakeId;
        }
    }
    Route::None
}
