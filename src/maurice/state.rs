//! The full state of a Maurice Lite game: both armies (units, CinC, morale, hand), the deck, the
//! round state, the pending decision and the streams. Plain data, so that clone is exact.

use super::cards::{Card, CardCounts};
use super::grid::{footprint, Cell, Cells, Frame};
use super::ids::{Command, Facing, Formation, Outcome, Phase, ScenarioId, Side, UnitType, MAX_UNITS};
use super::streams::{Dice, Shuffler};
use super::terrain::Terrain;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One unit (U2, G3, X1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub id: u8,
    pub side: Side,
    pub kind: UnitType,
    pub formation: Formation,
    pub facing: Facing,
    /// The front-left cell (G3; a column's head).
    pub at: Cell,
    /// The cells covered: the footprint, except for a column during its move (a snake, M3).
    pub cells: Cells,
    pub disr: u8,
    pub smoke: bool,
    /// Fired this round (F3).
    pub fired: bool,
    /// The id is in play (the scenario uses it) …
    pub present: bool,
    /// … and the unit is not broken (X2).
    pub on_table: bool,
    /// M1: the formation at the start of the round, which sets the allowance.
    pub round_formation: Formation,
}

impl Unit {
    pub const ABSENT: Unit = Unit {
        id: 0,
        side: Side::Blue,
        kind: UnitType::Inf,
        formation: Formation::Line,
        facing: Facing::N,
        at: Cell::new(0, 0),
        cells: Cells { n: 0, cells: [Cell::new(0, 0); 4] },
        disr: 0,
        smoke: false,
        fired: false,
        present: false,
        on_table: false,
        round_formation: Formation::Line,
    };

    /// A unit placed in formation at front-left cell `at` facing `facing`.
    #[allow(clippy::too_many_arguments)]
    pub fn placed(id: u8, side: Side, kind: UnitType, formation: Formation, at: Cell, facing: Facing) -> Unit {
        Unit {
            id,
            side,
            kind,
            formation,
            facing,
            at,
            cells: footprint(formation, at, facing),
            present: true,
            on_table: true,
            round_formation: formation,
            ..Unit::ABSENT
        }
    }

    pub fn cells(&self) -> &[Cell] {
        self.cells.as_slice()
    }
    pub fn frame(&self) -> Frame {
        Frame::new(self.at, self.facing)
    }
    /// Moves the unit to a new front-left cell, facing and formation, covering its footprint.
    pub fn place(&mut self, formation: Formation, at: Cell, facing: Facing) {
        self.formation = formation;
        self.at = at;
        self.facing = facing;
        self.cells = footprint(formation, at, facing);
    }
    /// S1: the bases, also the most DISR it may hold.
    pub fn bases(&self) -> u8 {
        self.kind.bases()
    }
}

/// One side's army and cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    pub units: [Unit; MAX_UNITS],
    pub cinc: Cell,
    /// X3: army morale left, and its starting value ⌈units / 2⌉ (S6).
    pub morale: u8,
    pub morale_start: u8,
    pub hand: CardCounts,
    /// Of the hand, the copies drawn this round (R5).
    pub drawn: CardCounts,
    /// H4: the CinC was displaced this round.
    pub displaced: bool,
}

impl Army {
    pub fn on_table(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.on_table)
    }
    /// Cards a side may play as a modifier: held and not drawn this round (R5).
    pub fn old_copies(&self, c: Card) -> u8 {
        self.hand.get(c) - self.drawn.get(c)
    }
}

/// The active side's round (API `round_state`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub volley: bool,
    pub first_shooter: Option<Side>,
    pub command: Option<Command>,
    /// R8: this round's command was a pass chosen with an empty deck.
    pub night_pass: bool,
    /// K7: the passive side's one interrupt of the round.
    pub interrupt: Option<Card>,
    /// K6: per side, the volley and the action modifier played.
    pub modifiers: [[Option<Card>; 2]; 2],
    /// A6: the named units, a bit per id.
    pub force: u16,
    /// A7: the activation distance; None before `confirm_force`.
    pub distance: Option<u32>,
    pub span_played: Vec<Card>,
    pub delayed: bool,
    /// A7: the activation interrupt window has come (it comes once).
    pub interrupt_window: bool,
    pub activated: bool,
    pub rough_going: bool,
    /// M2, C5: units that have moved, cancelled or charged this action, a bit per id.
    pub done: u16,
    pub charged: u16,
    /// R9 (2): the penalty of H4 has been settled for the side.
    pub penalty_paid: [bool; 2],
    /// M3–M12: the unit taking its move.
    pub moving: Option<Moving>,
    /// F1, F2, F6: the side firing now and what it has done.
    pub fire: Option<Fire>,
    /// C5: the unit whose lead-in is being chosen.
    pub charging: Option<u8>,
    /// C7: per side, per unit id, the enemy units it is engaged with (bits).
    pub engaged: [[u16; MAX_UNITS]; 2],
    /// C11: the combat scores of the round's combat, per side and unit.
    pub scores: [[Option<i32>; MAX_UNITS]; 2],
    /// K8: the unit chosen for `for_the_king`, per side.
    pub king: [Option<u8>; 2],
}

/// One base's aim (F5): its cell, its target cell and the lane cell number k.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aim {
    pub base: Cell,
    pub target: Cell,
    pub k: i8,
    pub lane: crate::maurice::grid::Vec2,
}

/// A side's fire in progress (F6, F8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fire {
    pub side: Side,
    /// A bombard (long range) rather than the volley phase.
    pub bombard: bool,
    /// Hits scored on each enemy unit, by id.
    pub hits: [u8; MAX_UNITS],
    /// The unit being aimed (F5), its aims so far and the base index being asked.
    pub unit: Option<u8>,
    pub aims: Vec<Aim>,
    pub base: u8,
    /// In the volley phase, whether the second side has yet to fire.
    pub second: Option<Side>,
}

/// M6: the two modes of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    Forward,
    Retrograde,
}

/// The unit taking its move (API `moving`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moving {
    pub id: u8,
    pub spent: u8,
    pub mode: Option<Mode>,
    /// Move actions taken so far (the first-action rules of M11, M12).
    pub actions: u8,
    /// M6: near the enemy before the move or at a cell passed.
    pub near: bool,
    /// M7: the unit has taken a move action with a cost.
    pub costed: bool,
    /// M7: the move passes through difficult terrain.
    pub difficult: bool,
    pub about_faced: bool,
    pub formed: bool,
    /// M11: only `unit_done` and `unit_cancel` remain.
    pub over: bool,
    /// M8: friendly units passed, a bit per id.
    pub interpenetrated: u16,
    /// M4: every cell passed.
    pub passed: Vec<Cell>,
    /// M10: where the unit stood.
    pub start: Unit,
    /// C6: a non-charging unit of a charge.
    pub supporting: bool,
}

/// What the pending decision is about, beyond its phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    #[default]
    None,
    /// H3: the side whose CinC must move, then where the flow resumes.
    Displace { side: Side, then: Resume },
    /// H4: the side paying its penalty.
    Penalty { side: Side },
    /// R9 (3): the side over the hand limit and the cards it owes.
    HandLimit { side: Side, count: u8 },
}

/// Where the flow resumes after a decision that can interrupt several steps (a displacement).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resume {
    /// R9 step 1, for the next side to check.
    #[default]
    EndOfRound,
    /// M2: the march goes on with its next unit.
    March,
    /// C5: the charge goes on with its next charger.
    Charge,
    /// C14: the fall backs go on after this attacker.
    FallBack(u8),
}

/// A game of Maurice Lite.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub scenario: ScenarioId,
    /// Fixed for the game; shared between clones.
    #[serde(with = "super::terrain::shared")]
    pub terrain: Arc<Terrain>,
    pub armies: [Army; 2],
    /// Top first.
    pub deck: Vec<Card>,
    /// Oldest first.
    pub discard: Vec<Card>,
    /// `reshuffle` cards out of the game (K3).
    pub removed: Vec<Card>,
    pub round_no: u32,
    pub active: Side,
    pub round: Round,
    /// R8, E2: the previous round's command was a night pass.
    pub night_pass_last_round: bool,
    pub phase: Phase,
    /// The side to decide; None at `game_over`.
    pub to_move: Option<Side>,
    pub pending: Pending,
    pub outcome: Option<Outcome>,
    pub dice: Dice,
    pub shuffler: Shuffler,
}

impl State {
    pub fn army(&self, side: Side) -> &Army {
        &self.armies[side.idx()]
    }
    pub fn army_mut(&mut self, side: Side) -> &mut Army {
        &mut self.armies[side.idx()]
    }
    pub fn unit(&self, side: Side, id: u8) -> &Unit {
        &self.armies[side.idx()].units[id as usize]
    }
    pub fn unit_mut(&mut self, side: Side, id: u8) -> &mut Unit {
        &mut self.armies[side.idx()].units[id as usize]
    }
    pub fn passive(&self) -> Side {
        self.active.other()
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    /// Every unit on the table, blue first, ascending id.
    pub fn units_on_table(&self) -> impl Iterator<Item = &Unit> {
        self.armies.iter().flat_map(|a| a.on_table())
    }
    /// The unit on the table covering `c`, if any.
    pub fn unit_at(&self, c: Cell) -> Option<&Unit> {
        self.units_on_table().find(|u| u.cells.contains(c))
    }
    /// The side's units on the table.
    pub fn units(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.army(side).on_table()
    }
    /// G5: whether `cells` lie within 4 BW of a unit of the side opposed to `side`.
    pub fn near_enemy(&self, side: Side, cells: &[Cell]) -> bool {
        // For cells of the table the zone (`rules::command_distance::near_zone`) is G5 exactly.
        if cells.iter().all(|c| c.on_table()) {
            use crate::maurice::rules::command_distance::{has_any, near_zone};
            return has_any(&near_zone(self, side), cells);
        }
        self.units(side.other()).any(|e| self.terrain.within(cells, e.cells(), 4))
    }
}
