//! The full state of a D-Day game: a plain struct of fixed arrays (plus the dice log), holding its
//! RNG, so that clone, save and load are exact.

use super::allocation::{self, Contents, Sequence};
use super::dice::Dice;
use super::ids::{Answer, FigState, Kind, Outcome, Phase, Pool, Side, Unit, VpLine, Zone, GUESSES, NUM_ITEMS};
use serde::{Deserialize, Serialize};

/// The most figures of one skirmish: 9 Resistance and 12 German (a squad and two gendarme units).
pub const MAX_FIGURES: usize = 21;
/// The most VP lines: 3 fixed and 5 dice lines per zone.
pub const MAX_LINES: usize = 16;

/// I5: one guess and its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guess {
    pub zone: Zone,
    pub value: u8,
    pub answer: Answer,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interrogation {
    pub log: [Option<Guess>; GUESSES as usize],
    pub n: u8,
    pub guesses_left: u8,
    pub stopped: bool,
}

/// One figure of a skirmish (S3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    pub unit: Unit,
    /// Where it is, or was last (1–6).
    pub section: u8,
    pub state: FigState,
    pub fresh: bool,
    pub moves: u8,
    pub shots: u8,
    pub cover_changed: bool,
}

impl Figure {
    pub const NONE: Figure = Figure {
        unit: Unit::Resistance,
        section: 1,
        state: FigState::Killed,
        fresh: false,
        moves: 0,
        shots: 0,
        cover_changed: false,
    };
    pub fn side(&self) -> Side {
        self.unit.side()
    }
    pub fn is_fighting(&self) -> bool {
        self.state.is_fighting()
    }
}

/// The skirmish being played (C4: set up from scratch for each attacked zone).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skirmish {
    pub zone: Zone,
    pub clock: i16,
    pub task_section: Option<u8>,
    pub turn: Side,
    pub turn_number: u16,
    /// K1: task sets as bit masks (bit f for face f), Resistance then German.
    pub task: [u8; 2],
    pub task_rolled: bool,
    /// AP per pool (Pool order); only pools in `pools_rolled` exist (A4).
    pub pools: [u8; 6],
    pub pools_rolled: [bool; 6],
    pub acting: Option<u8>,
    pub group_size: u8,
    pub n_figures: u8,
    pub figures: [Figure; MAX_FIGURES],
}

impl Skirmish {
    pub fn figures(&self) -> &[Figure] {
        &self.figures[..self.n_figures as usize]
    }
    pub fn figures_mut(&mut self) -> &mut [Figure] {
        &mut self.figures[..self.n_figures as usize]
    }
    /// Fighting figures of `side` in `section`.
    pub fn fighting_in(&self, side: Side, section: u8) -> usize {
        self.figures().iter().filter(|f| f.side() == side && f.section == section && f.is_fighting()).count()
    }
    pub fn fighting(&self, side: Side) -> usize {
        self.figures().iter().filter(|f| f.side() == side && f.is_fighting()).count()
    }
    pub fn count(&self, side: Side, state: FigState) -> usize {
        self.figures().iter().filter(|f| f.side() == side && f.state == state).count()
    }
    /// The lowest id of a figure matching (S3's "a figure of a class").
    pub fn find(&self, pred: impl Fn(&Figure) -> bool) -> Option<usize> {
        self.figures().iter().position(pred)
    }
    /// K3: a Resistance fighting figure is in the task section.
    pub fn holds_task_section(&self) -> bool {
        self.task_section.is_some_and(|t| self.fighting_in(Side::Resistance, t) > 0)
    }
    /// A3: the pool that pays a figure action of `unit`.
    pub fn pool_of(&self, unit: Unit) -> Pool {
        if unit.side() == Side::German && self.pools_rolled[Pool::Shared.idx()] {
            Pool::Shared
        } else {
            Pool::of_unit(unit)
        }
    }
    /// A3: AP available for a task roll of the turn player.
    pub fn task_ap(&self) -> u8 {
        match self.turn {
            Side::Resistance => self.pools[Pool::Resistance.idx()],
            Side::German => self.pools[1..].iter().sum(),
        }
    }
}

/// E1: what is kept of a finished skirmish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub zone: Zone,
    pub completed: Option<Side>,
    pub task: [u8; 2],
    pub resistance_size: u8,
    pub resistance_killed: u8,
    pub resistance_ran_away: u8,
    pub resistance_evacuated: u8,
    pub german_figures: u8,
    pub german_killed: u8,
    pub german_ran_away: u8,
    pub german_evacuated: u8,
}

/// One scored VP line (V2, V3); `slot` is the zone's place in the play order (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineScore {
    pub slot: u8,
    pub line: VpLine,
    pub points: u8,
    /// Dice lines: the dice that stand (n_dice 0 for fixed lines).
    pub n_dice: u8,
    pub dice: [u8; 4],
    pub rerolled: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vp {
    pub resistance: u16,
    pub german: u16,
    pub n_lines: u8,
    pub lines: [Option<LineScore>; MAX_LINES],
}

impl Vp {
    pub fn lines(&self) -> impl Iterator<Item = &LineScore> {
        self.lines.iter().take(self.n_lines as usize).flatten()
    }
    pub fn total(&self, side: Side) -> u16 {
        match side {
            Side::Resistance => self.resistance,
            Side::German => self.german,
        }
    }
}

/// The decision awaited, with what it concerns (Q1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// S1: the group-size die.
    GroupSize { die: u8 },
    /// A2: the squad's two dice (the other pools are already in `pools`).
    ActionPoints { dice: [u8; 2] },
    /// L1: the clock die.
    Clock { die: u8 },
    /// V4: a dice line of the zone in play-order `slot`.
    Vp { slot: u8, line: VpLine, n: u8, dice: [u8; 4] },
    /// F3: a hit on section `to`, shot from `from`.
    Hit { from: u8, to: u8 },
    /// R3: a runaway to take from `section`; `remaining` counts it too.
    Flee { section: u8, remaining: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub phase: Phase,
    /// G2: the zone of each item placed so far, in ITEM_ORDER (the placing order, hidden).
    pub placement: Sequence,
    pub placed: u8,
    pub interrogation: Interrogation,
    pub attacked: Option<[Zone; 2]>,
    pub order: Option<[Zone; 2]>,
    pub skirmish_index: Option<u8>,
    /// The skirmish being played (meaningful while `skirmish_index` is set and the game is not
    /// in scoring or over).
    pub skirmish: Skirmish,
    pub records: [Option<Record>; 2],
    pub vp: Vp,
    pub pending: Option<Pending>,
    pub outcome: Option<Outcome>,
    pub dice: Dice,
}

impl State {
    /// Zone × kind counts of the items placed so far.
    pub fn contents(&self) -> Contents {
        allocation::contents(&self.placement, self.placed as usize)
    }
    pub fn allocation_done(&self) -> bool {
        self.placed as usize == NUM_ITEMS
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// Is a skirmish in play (its state meaningful)?
    pub fn in_skirmish(&self) -> bool {
        matches!(
            self.phase,
            Phase::GroupSize | Phase::Morale | Phase::ActionPoints | Phase::Actions | Phase::Hit | Phase::Clock
        )
    }
    /// The side that decides now (Q1), None when the game is over.
    pub fn to_move(&self) -> Option<Side> {
        Some(match self.phase {
            Phase::Allocation | Phase::ActionPoints => Side::German,
            Phase::Interrogation | Phase::Attack | Phase::Order | Phase::GroupSize => Side::Resistance,
            Phase::Morale | Phase::Actions | Phase::Clock => self.skirmish.turn,
            Phase::Hit => self.skirmish.turn.other(),
            Phase::Scoring => match self.pending {
                Some(Pending::Vp { line, .. }) => line.side(),
                _ => return None,
            },
            Phase::GameOver => return None,
        })
    }
    /// Does `side` see the contents of `zone` (O2, O4)?
    pub fn sees_zone(&self, side: Side, zone: Zone) -> bool {
        side == Side::German || self.attacked.is_some_and(|a| a.contains(&zone))
    }
    /// The zone in play-order slot 0 or 1.
    pub fn played_zone(&self, slot: u8) -> Option<Zone> {
        self.order.map(|o| o[slot as usize])
    }
    /// The item kind the German places next (G2), None when all are placed.
    pub fn next_item(&self) -> Option<Kind> {
        super::ids::ITEM_ORDER.get(self.placed as usize).copied()
    }
    /// `"win"`, `"draw"` or `"loss"` from `side`'s view once the game is over (API infos).
    pub fn outcome_for(&self, side: Side) -> Option<&'static str> {
        Some(match (self.outcome?, side) {
            (Outcome::Draw, _) => "draw",
            (Outcome::Resistance, Side::Resistance) | (Outcome::German, Side::German) => "win",
            _ => "loss",
        })
    }
    /// (own VP − opponent's VP) / 150, the `"vp_margin"` reward of API.md.
    pub fn vp_margin(&self, side: Side) -> f32 {
        (self.vp.total(side) as f32 - self.vp.total(side.other()) as f32) / 150.0
    }
    /// `side`'s result as a value: win 1, draw ½ (or no end yet), loss 0.
    pub fn result_for(&self, side: Side) -> f32 {
        match self.outcome {
            Some(Outcome::Draw) | None => 0.5,
            Some(Outcome::Resistance) => f32::from(side == Side::Resistance),
            Some(Outcome::German) => f32::from(side == Side::German),
        }
    }
    /// The Resistance's and the German's VP totals.
    pub fn vp_totals(&self) -> (u16, u16) {
        (self.vp.resistance, self.vp.german)
    }
}
