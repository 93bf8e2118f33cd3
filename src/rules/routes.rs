//! F7. Route home: a path along open roads to a Safe House through locations holding no patrol.
//! Bitboard flood fill over B3 (closed roads removed); a Fake ID lets the path cross one patrol.

use crate::board::{bit, LocSet, ADJACENCY, BRIDGE_NORTH, BRIDGE_SOUTH, ROADS, ROAD_BARADAT_FENCE};
use crate::ids::{Location, MissionId};
use crate::state::State;
use crate::tracks::is_orange;

/// Roads closed now: Milice Parade Day on orange days (while unfinished), destroyed bridges.
pub fn closed_roads(s: &State) -> u32 {
    let mut closed = 0u32;
    if s.has_open(MissionId::MiliceParadeDay) && is_orange(s.day) {
        closed |= 1 << ROAD_BARADAT_FENCE;
    }
    if s.bridges_destroyed & 1 != 0 {
        closed |= 1 << BRIDGE_NORTH;
    }
    if s.bridges_destroyed & 2 != 0 {
        closed |= 1 << BRIDGE_SOUTH;
    }
    closed
}

/// The adjacency bitboards with the closed roads removed.
pub fn open_adjacency(s: &State) -> [LocSet; 19] {
    let mut adj = ADJACENCY;
    let mut closed = closed_roads(s);
    while closed != 0 {
        let r = closed.trailing_zeros() as usize;
        closed &= closed - 1;
        let (a, b) = ROADS[r];
        adj[a as usize] &= !bit(b);
        adj[b as usize] &= !bit(a);
    }
    adj
}

#[inline]
fn neighbours(adj: &[LocSet; 19], set: LocSet) -> LocSet {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= adj[i];
    }
    out
}

/// Everything reachable from `from` moving only through `passable` (the start always counts).
#[inline]
fn flood(adj: &[LocSet; 19], from: LocSet, passable: LocSet) -> LocSet {
    let mut reach = from;
    loop {
        let next = reach | (neighbours(adj, reach) & passable);
        if next == reach {
            return reach;
        }
        reach = next;
    }
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
    let adj = open_adjacency(s);
    let patrols = s.patrol_set();
    let homes = s.safe_houses();
    let start = bit(loc);
    if start & homes != 0 {
        return Route::Clear;
    }
    // Safe Houses never hold patrols, so reaching one through patrol-free locations is a route.
    let clear = flood(&adj, start, !patrols);
    if clear & homes != 0 {
        return Route::Clear;
    }
    if has_fake_id {
        // Cross exactly one patrol-held location (never the destination), then go on clear.
        let crossed = neighbours(&adj, clear) & patrols;
        if flood(&adj, crossed, !patrols) & homes != 0 {
            return Route::WithFakeId;
        }
    }
    Route::None
}
