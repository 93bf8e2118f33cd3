//! F2–F5: firing bases, lanes, the first base of a lane and whether it is a target.

use crate::maurice::grid::{lanes, Cell, Cells, Vec2};
use crate::maurice::ids::{Formation, Side, TerrainType, UnitType, HEIGHT};
use crate::maurice::state::{State, Unit};

/// The two ranges of fire (F1, F2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// The volley phase: distance ≤ 4 (musketry and canister).
    Short,
    /// A bombard: distance 5–16.
    Long,
}

impl Range {
    /// F4's R: how far a lane is searched for its first base.
    pub const fn reach(self) -> i8 {
        match self {
            Range::Short => 4,
            Range::Long => 16,
        }
    }
    pub const fn holds(self, d: i8) -> bool {
        match self {
            Range::Short => d <= 4,
            Range::Long => 5 <= d && d <= 16,
        }
    }
}

/// What a lane holds (F4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneTarget {
    /// No base within R + 1 cells, or a friendly one first.
    None,
    /// The first base is an enemy's at lane cell c_k that is not a target (hidden, obstructed or
    /// out of range): it still blocks the lane.
    Blocked { cell: Cell, k: i8, hidden_or_obstructed: bool },
    /// The first base is a target at lane cell c_k.
    Target { cell: Cell, k: i8 },
}

/// F3: the firing bases of a unit — the 4 bases of `inf` in `line`, the base of `art` — less
/// those that may not fire (a base in `marsh`, an `art` base in `woods`).
pub fn firing_bases(s: &State, u: &Unit) -> Cells {
    let fires = match u.kind {
        UnitType::Inf => u.formation == Formation::Line,
        UnitType::Art => true,
        UnitType::Cav => false,
    };
    let mut bases = Cells::default();
    if !fires || !u.on_table {
        return bases;
    }
    // Held inline (at most a unit's 4 cells): the masks ask for every unit's bases.
    for &c in u.cells() {
        let t = s.terrain.kind(c);
        if t != TerrainType::Marsh && !(u.kind == UnitType::Art && t == TerrainType::Woods) {
            bases.cells[bases.n as usize] = c;
            bases.n += 1;
        }
    }
    bases
}

/// G9, F4 item 2: whether the lane from `b` along `v` to its cell c_k is obstructed — a `woods`
/// cell strictly between, or a wall crossed by a move c_j → c_{j+1}, 1 ≤ j ≤ k − 2; an
/// obstruction at level 0 is ignored when the target is at level 1.
fn obstructed(s: &State, b: Cell, v: Vec2, k: i8) -> bool {
    let t = &s.terrain;
    let e = b.plus(v.times(k));
    let target_high = t.level(e) == 1;
    let counts = |level: u8| !(target_high && level == 0);
    let woods = (1..k).any(|j| {
        let c = b.plus(v.times(j));
        t.kind(c) == TerrainType::Woods && counts(t.level(c))
    });
    let wall = (1..=k - 2).any(|j| {
        let (c, n) = (b.plus(v.times(j)), b.plus(v.times(j + 1)));
        t.crosses_wall(c, n) && counts(t.level(c).max(t.level(n)))
    });
    woods || wall
}

/// The cells covered by units on the table, a row of bits per y.
pub(crate) fn occupied(s: &State) -> [u64; HEIGHT] {
    crate::maurice::rules::command_distance::unit_rows(s.units_on_table())
}

/// F4: the lane of base `b` (of `side`) along `v`, searched up to R + 1 cells.
pub fn lane_target(s: &State, side: Side, b: Cell, v: Vec2, range: Range) -> LaneTarget {
    lane_target_in(s, &occupied(s), side, b, v, range)
}

/// `lane_target` with the covered cells (`occupied(s)`) at hand.
pub(crate) fn lane_target_in(s: &State, occupied: &[u64; HEIGHT], side: Side, b: Cell, v: Vec2, range: Range) -> LaneTarget {
    for k in 1..=range.reach() + 1 {
        let c = b.plus(v.times(k));
        if !c.on_table() {
            return LaneTarget::None;
        }
        if occupied[c.y as usize] >> c.x & 1 == 0 {
            continue;
        }
        let Some(u) = s.unit_at(c) else { continue };
        if u.side == side {
            return LaneTarget::None;
        }
        let hidden_or_obstructed = s.terrain.lane_hidden(b, v, k) || obstructed(s, b, v, k);
        return if !hidden_or_obstructed && range.holds(k - 1) {
            LaneTarget::Target { cell: c, k }
        } else {
            LaneTarget::Blocked { cell: c, k, hidden_or_obstructed }
        };
    }
    LaneTarget::None
}

/// F2: an `art` unit can bombard when not in `woods` or `marsh`, it has not fired this round, a
/// lane has a long-range target, and no lane's first base is an enemy within 4 BW that is neither
/// hidden nor obstructed (that one may only take canister).
pub fn can_bombard(s: &State, side: Side, id: u8) -> bool {
    let u = s.unit(side, id);
    if u.kind != UnitType::Art || !u.on_table || u.fired {
        return false;
    }
    let b = u.at;
    if matches!(s.terrain.kind(b), TerrainType::Woods | TerrainType::Marsh) {
        return false;
    }
    let mut long = false;
    let occupied = occupied(s);
    for v in lanes(u.facing) {
        match lane_target_in(s, &occupied, side, b, v, Range::Long) {
            LaneTarget::Target { .. } => long = true,
            LaneTarget::Blocked { k, hidden_or_obstructed: false, .. } if k - 1 <= 4 => return false,
            _ => {}
        }
    }
    long
}
