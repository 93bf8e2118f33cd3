//! What a bundled agent reads: one side's observation decoded back into counts, cells and ids
//! (API.md "Observation"). Only the first `COMPACT_OBSERVATION_SIZE` values are read here, so the
//! heuristic plays the same from a full or a compact row; the maps are read by `rebuild`.

use crate::maurice::cards::{Card, PLAYABLE};
use crate::maurice::grid::{footprint, Cell, Cells};
use crate::maurice::ids::{Command, Facing, Formation, Phase, Side, UnitType, MAX_UNITS};

// Offsets of API.md's layout table (checked against `observation_layout` by a test).
pub const SELF: usize = 0;
pub const PHASE: usize = 2;
pub const TO_MOVE: usize = 23;
pub const ACTIVE: usize = 25;
pub const ROUND: usize = 27;
pub const MORALE: usize = 28;
pub const HAND: usize = 32;
pub const HAND_NEW: usize = 61;
pub const HAND_SIZES: usize = 90;
pub const DECK_SIZE: usize = 92;
pub const DISCARD: usize = 93;
pub const REMOVED: usize = 122;
pub const COMMAND: usize = 123;
pub const ACTIVATION: usize = 129;
pub const INTERRUPT: usize = 133;
pub const MODIFIERS: usize = 136;
pub const VOLLEY: usize = 252;
pub const NIGHT: usize = 255;
pub const CINC: usize = 256;
pub const UNITS: usize = 284;
pub const PLANES: usize = 1084;
pub const FEATURES: usize = 25;

/// The count behind an observed ratio.
pub fn count(v: f32, divisor: u32) -> u32 {
    // `x.round().max(0.0) as u32` without the library call: the fraction of an x below 2^24 is
    // exact in f32, and from 2^24 every f32 is a whole number (NaN and x ≤ 0 give 0 either way).
    let x = v * divisor as f32;
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    if x >= 16_777_216.0 {
        return x as u32;
    }
    let whole = x as u32;
    whole + u32::from(x - whole as f32 >= 0.5)
}

fn hot(obs: &[f32]) -> Option<usize> {
    obs.iter().position(|&v| v > 0.5)
}

/// One unit as observed (a row of `units`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeenUnit {
    pub id: u8,
    pub kind: UnitType,
    pub formation: Formation,
    pub facing: Facing,
    pub at: Cell,
    pub cells: Cells,
    pub disr: u8,
    pub smoke: bool,
    pub fired: bool,
    pub in_force: bool,
    pub done: bool,
    pub engaged: bool,
    pub near: bool,
    /// Command distance from its own CinC (64 when infinite or farther).
    pub command: u32,
    pub moving: bool,
}

impl SeenUnit {
    /// Combat value (S1) less DISR: a rough worth in a fight.
    pub fn strength(&self) -> i32 {
        let cv = if self.kind == UnitType::Art { 1 } else { 6 };
        cv - self.disr as i32
    }
}

/// Chebyshev distance between two sets of cells (the grid's BW, ignoring lakes).
pub fn gap(a: &[Cell], b: &[Cell]) -> i32 {
    let mut best = i32::MAX;
    for p in a {
        for q in b {
            let d = (p.x as i32 - q.x as i32).abs().max((p.y as i32 - q.y as i32).abs());
            best = best.min(d);
        }
    }
    best
}

/// A side's observation, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub me: Side,
    pub phase: Phase,
    pub active: Side,
    pub round: u32,
    /// Own then enemy, left and at start.
    pub morale: [u32; 2],
    pub morale_start: [u32; 2],
    pub hand: [u8; PLAYABLE],
    pub hand_new: [u8; PLAYABLE],
    pub hand_sizes: [u32; 2],
    pub deck_size: u32,
    pub discard: [u8; PLAYABLE],
    pub removed: u32,
    pub command: Option<Command>,
    /// Span played this round and the activation distance (0 until known).
    pub span_played: u32,
    pub distance: u32,
    pub cinc: [Cell; 2],
    /// Own units, then the enemy's (on the table only).
    pub units: [Vec<SeenUnit>; 2],
    /// The box holding each enemy unit's cells (`cell_box`), in the order of `units[1]`: what
    /// `enemy_gap` compares first, asked of every unit many times a decision.
    pub enemy_boxes: Vec<(i32, i32, i32, i32)>,
}

impl View {
    pub fn decode(obs: &[f32]) -> View {
        let me = if obs[SELF] > 0.5 { Side::Blue } else { Side::Red };
        let phase = hot(&obs[PHASE..PHASE + Phase::COUNT]).and_then(Phase::from_idx).unwrap_or(Phase::GameOver);
        let active = if obs[ACTIVE] > 0.5 { Side::Blue } else { Side::Red };
        let cards = |at: usize| {
            let mut out = [0u8; PLAYABLE];
            for (k, o) in out.iter_mut().enumerate() {
                *o = count(obs[at + k], 2) as u8;
            }
            out
        };
        let cell = |k: usize| Cell::new(count(obs[k], 44) as i8, count(obs[k + 1], 29) as i8);
        let mut units = [Vec::with_capacity(MAX_UNITS), Vec::with_capacity(MAX_UNITS)];
        for (block, list) in units.iter_mut().enumerate() {
            for id in 0..MAX_UNITS {
                let r = &obs[UNITS + (block * MAX_UNITS + id) * FEATURES..][..FEATURES];
                if r[0] < 0.5 {
                    continue;
                }
                let kind = UnitType::from_idx(hot(&r[1..4]).unwrap_or(0)).unwrap_or(UnitType::Inf);
                let formation = Formation::from_idx(hot(&r[4..8]).unwrap_or(0)).unwrap_or(Formation::Line);
                let facing = Facing::from_idx(hot(&r[8..12]).unwrap_or(0)).unwrap_or(Facing::N);
                let at = cell(UNITS + (block * MAX_UNITS + id) * FEATURES + 12);
                list.push(SeenUnit {
                    id: id as u8,
                    kind,
                    formation,
                    facing,
                    at,
                    cells: footprint(formation, at, facing),
                    disr: count(r[14], 4) as u8,
                    smoke: r[15] > 0.5,
                    fired: r[16] > 0.5,
                    in_force: r[17] > 0.5,
                    done: r[18] > 0.5,
                    engaged: r[20] > 0.5,
                    near: r[21] > 0.5,
                    command: count(r[23], 64),
                    moving: r[24] > 0.5,
                });
            }
        }
        View {
            me,
            phase,
            active,
            round: count(obs[ROUND], 255),
            morale: [count(obs[MORALE], 8), count(obs[MORALE + 1], 8)],
            morale_start: [count(obs[MORALE + 2], 8), count(obs[MORALE + 3], 8)],
            hand: cards(HAND),
            hand_new: cards(HAND_NEW),
            hand_sizes: [count(obs[HAND_SIZES], 40), count(obs[HAND_SIZES + 1], 40)],
            deck_size: count(obs[DECK_SIZE], 40),
            discard: cards(DISCARD),
            removed: count(obs[REMOVED], 2),
            command: hot(&obs[COMMAND..COMMAND + Command::COUNT]).and_then(Command::from_idx),
            span_played: count(obs[ACTIVATION], 40),
            distance: count(obs[ACTIVATION + 1], 64),
            cinc: [cell(CINC), cell(CINC + 2)],
            units,
            enemy_boxes: Vec::new(),
        }
        .with_boxes()
    }

    pub fn own(&self) -> &[SeenUnit] {
        &self.units[0]
    }
    pub fn enemy(&self) -> &[SeenUnit] {
        &self.units[1]
    }
    pub fn hand_total(&self) -> u32 {
        self.hand.iter().map(|&n| n as u32).sum()
    }
    pub fn holds(&self, c: Card) -> bool {
        c.is_playable() && self.hand[c.idx()] > 0
    }
    /// The distance from `cells` to the nearest enemy unit (of `kinds`, or any).
    pub fn enemy_gap(&self, cells: &[Cell], kinds: Option<UnitType>) -> i32 {
        use crate::maurice::rules::charge::charge_move::{box_gap, cell_box};
        if cells.is_empty() {
            return i32::MAX;
        }
        // No pair of cells is nearer than the boxes holding them: an enemy whose box is no nearer
        // than the best so far cannot lower it, and its cells need not be compared.
        let own = cell_box(cells);
        let mut best = i32::MAX;
        for (e, &b) in self.enemy().iter().zip(&self.enemy_boxes) {
            if kinds.is_none_or(|k| e.kind == k) && e.cells.n > 0 && box_gap(own, b) < best {
                best = best.min(gap(cells, e.cells.as_slice()));
            }
        }
        best
    }
    /// The nearest enemy unit to `cells`.
    pub fn nearest_enemy(&self, cells: &[Cell]) -> Option<&SeenUnit> {
        self.enemy().iter().min_by_key(|e| gap(cells, e.cells.as_slice()))
    }
    /// The centre of the own army (its units' front-left cells).
    pub fn centre(&self) -> Cell {
        let own = self.own();
        if own.is_empty() {
            return self.cinc[0];
        }
        let n = own.len() as i32;
        let x: i32 = own.iter().map(|u| u.at.x as i32).sum();
        let y: i32 = own.iter().map(|u| u.at.y as i32).sum();
        Cell::new((x / n) as i8, (y / n) as i8)
    }
}

impl View {
    /// `decode` of `side`'s observation of `s`, read off the state with no observation written:
    /// the in-env heuristic opponent's view. Every field is what `decode` gives — counts stop at
    /// the observation's divisors, a moving unit's cells are its footprint — except the units' `near`
    /// and `command` (false, 0), which the heuristic does not read (the vector env's opponent
    /// makes the decisions of the whole observation's: tests/maurice_env.rs).
    pub fn observed(s: &crate::maurice::State, side: Side) -> View {
        let mut v = View::unboxed(s, side);
        // Plain loops over each array (a chain of iterators checks which part it is in at every
        // step, and a view is made at every decision of the in-env opponent).
        for cards in [&mut v.hand, &mut v.hand_new, &mut v.discard] {
            for n in cards.iter_mut() {
                *n = (*n).min(2);
            }
        }
        v.removed = v.removed.min(2);
        v.hand_sizes = v.hand_sizes.map(|n| n.min(40));
        v.deck_size = v.deck_size.min(40);
        v.span_played = v.span_played.min(40);
        v.morale = v.morale.map(|n| n.min(8));
        v.morale_start = v.morale_start.map(|n| n.min(8));
        for u in v.units.iter_mut().flatten() {
            u.disr = u.disr.min(4);
            // Only a unit on the move may cover other cells than its footprint (M3; `load_state`
            // checks it of every other).
            if u.moving {
                u.cells = footprint(u.formation, u.at, u.facing);
            }
        }
        v.with_boxes()
    }

    /// This view with `enemy_boxes` worked out from its enemy units' cells.
    fn with_boxes(mut self) -> View {
        use crate::maurice::rules::charge::charge_move::cell_box;
        self.enemy_boxes.clear();
        self.enemy_boxes.extend(self.units[1].iter().map(|e| cell_box(e.cells.as_slice())));
        self
    }

    /// The view `side` has of `s`, read off the state without writing the observation (the
    /// search's playouts, where the observation's command distances would cost most of the time).
    /// It holds what `decode` of `side`'s observation holds, except the units' `command` (0).
    pub fn of_state(s: &crate::maurice::State, side: Side) -> View {
        View::unboxed(s, side).with_boxes()
    }

    /// `of_state` but for `enemy_boxes` (left empty).
    fn unboxed(s: &crate::maurice::State, side: Side) -> View {
        let sides = [side, side.other()];
        let r = &s.round;
        let mut units = [Vec::with_capacity(MAX_UNITS), Vec::with_capacity(MAX_UNITS)];
        for (block, list) in units.iter_mut().enumerate() {
            let own_round = sides[block] == s.active;
            for u in s.units(sides[block]) {
                list.push(SeenUnit {
                    id: u.id,
                    kind: u.kind,
                    formation: u.formation,
                    facing: u.facing,
                    at: u.at,
                    cells: u.cells,
                    disr: u.disr,
                    smoke: u.smoke,
                    fired: u.fired,
                    in_force: own_round && r.force >> u.id & 1 == 1,
                    done: own_round && r.done >> u.id & 1 == 1,
                    engaged: r.engaged[sides[block].idx()][u.id as usize] != 0,
                    near: false,
                    command: 0,
                    moving: own_round && r.moving.as_ref().is_some_and(|m| m.id == u.id),
                });
            }
        }
        let (mine, theirs) = (s.army(side), s.army(side.other()));
        let mut discard = [0u8; PLAYABLE];
        for c in &s.discard {
            if c.is_playable() {
                discard[c.idx()] += 1;
            }
        }
        let delay = if r.delayed { crate::maurice::rules::activation::DELAY } else { 0 };
        View {
            me: side,
            phase: s.phase,
            active: s.active,
            round: s.round_no.min(255),
            morale: [mine.morale as u32, theirs.morale as u32],
            morale_start: [mine.morale_start as u32, theirs.morale_start as u32],
            hand: mine.hand.0,
            hand_new: mine.drawn.0,
            hand_sizes: [mine.hand.total() as u32, theirs.hand.total() as u32],
            deck_size: s.deck.len() as u32,
            discard,
            removed: s.removed.len() as u32,
            command: r.command,
            span_played: r.span_played.iter().map(|c| c.span()).sum(),
            distance: r.distance.map_or(0, |d| (d + delay).min(64)),
            cinc: [mine.cinc, theirs.cinc],
            units,
            enemy_boxes: Vec::new(),
        }
    }
}
