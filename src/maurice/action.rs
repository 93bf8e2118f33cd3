//! The flat action space of API.md: 1447 indices, one canonical name each, in block order. The
//! names come from the id tables, so names and indices cannot drift apart.

use super::cards::{Card, PLAYABLE};
use super::grid::Cell;
use super::ids::{MAX_UNITS, NUM_ACTIONS, WIDTH, HEIGHT};
use crate::error::Error;
use crate::id_enum::id_enum;
use std::sync::OnceLock;

id_enum!(
    /// M3: the move actions, in API order.
    MoveKind, "move", [Forward = "forward", Back = "back", ObliqueLeft = "oblique_left",
    ObliqueRight = "oblique_right", WheelFrontLeft = "wheel_front_left", WheelFrontRight = "wheel_front_right",
    WheelRearLeft = "wheel_rear_left", WheelRearRight = "wheel_rear_right", Left = "left", Right = "right",
    PivotLeft = "pivot_left", PivotRight = "pivot_right", AboutFace = "about_face"]);

id_enum!(
    /// M11: the formation changes, in API order.
    FormKind, "formation change", [LineLeft = "line_left", LineRight = "line_right",
    MassedUpLeft = "massed_up_left", MassedUpRight = "massed_up_right", MassedBackLeft = "massed_back_left",
    MassedBackRight = "massed_back_right", ColumnLeft = "column_left", ColumnRight = "column_right",
    MassedLeft = "massed_left", MassedRight = "massed_right", MassedCentre = "massed_centre",
    ColumnFileLeft = "column_file_left", ColumnFileRight = "column_file_right",
    LineFrontLeft = "line_front_left", LineFrontRight = "line_front_right", LineFrontBoth = "line_front_both",
    LineRearLeft = "line_rear_left", LineRearRight = "line_rear_right", LineRearBoth = "line_rear_both"]);

id_enum!(
    /// F5: which lane a base aims along when both side lanes have a target.
    Aim, "aim", [Left = "left", Right = "right"]);

id_enum!(
    /// C3: the charge lead-ins.
    Lead, "lead-in", [Straight = "straight", ObliqueLeft = "oblique_left", ObliqueRight = "oblique_right"]);

/// A decision of RULES.md Q1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Volley,
    NoVolley,
    /// `pass`, `march`, `charge`, `bombard`, `rally` (an event is a `Card`).
    Pass,
    March,
    Charge,
    Bombard,
    Rally,
    ConfirmForce,
    GiveUp,
    Decline,
    EndFire,
    UnitDone,
    UnitCancel,
    EndMoves,
    EndCharges,
    Aim(Aim),
    ChargeLead(Lead),
    Move(MoveKind),
    Form(FormKind),
    /// One of the decider's units, by id 0–15.
    Unit(u8),
    /// One copy of a playable card type.
    Card(Card),
    Cell(Cell),
}

// Block offsets, API.md "Actions".
const AIM: usize = 15;
const LEAD: usize = 17;
const MOVE: usize = 20;
const FORM: usize = 33;
pub const UNIT: usize = 52;
pub const CARD: usize = 68;
pub const CELL: usize = 97;

const SINGLES: [Action; 15] = [
    Action::Volley,
    Action::NoVolley,
    Action::Pass,
    Action::March,
    Action::Charge,
    Action::Bombard,
    Action::Rally,
    Action::ConfirmForce,
    Action::GiveUp,
    Action::Decline,
    Action::EndFire,
    Action::UnitDone,
    Action::UnitCancel,
    Action::EndMoves,
    Action::EndCharges,
];

impl Action {
    /// The action's index; None for a value outside the action space (a unit 16, a `reshuffle`
    /// card, a cell off the table).
    pub fn index(self) -> Option<usize> {
        Some(match self {
            Action::Aim(a) => AIM + a.idx(),
            Action::ChargeLead(l) => LEAD + l.idx(),
            Action::Move(m) => MOVE + m.idx(),
            Action::Form(f) => FORM + f.idx(),
            Action::Unit(u) => UNIT + (u as usize).lt(&MAX_UNITS).then_some(u as usize)?,
            Action::Card(c) => CARD + c.is_playable().then_some(c.idx())?,
            Action::Cell(c) => CELL + c.on_table().then_some(c.index())?,
            single => SINGLES.iter().position(|&a| a == single)?,
        })
    }

    /// The canonical name of API.md (`move:wheel_front_left`, `unit:3`, `cell:22:2`, …).
    pub fn name(self) -> String {
        match self {
            Action::Volley => "volley".into(),
            Action::NoVolley => "no_volley".into(),
            Action::Pass => "pass".into(),
            Action::March => "march".into(),
            Action::Charge => "charge".into(),
            Action::Bombard => "bombard".into(),
            Action::Rally => "rally".into(),
            Action::ConfirmForce => "confirm_force".into(),
            Action::GiveUp => "give_up".into(),
            Action::Decline => "decline".into(),
            Action::EndFire => "end_fire".into(),
            Action::UnitDone => "unit_done".into(),
            Action::UnitCancel => "unit_cancel".into(),
            Action::EndMoves => "end_moves".into(),
            Action::EndCharges => "end_charges".into(),
            Action::Aim(a) => format!("aim:{a}"),
            Action::ChargeLead(l) => format!("charge:{l}"),
            Action::Move(m) => format!("move:{m}"),
            Action::Form(f) => format!("form:{f}"),
            Action::Unit(u) => format!("unit:{u}"),
            Action::Card(c) => format!("card:{c}"),
            Action::Cell(c) => format!("cell:{}:{}", c.x, c.y),
        }
    }
}

struct Table {
    actions: Vec<Action>,
    names: Vec<&'static str>,
    by_name: std::collections::HashMap<&'static str, usize>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut actions: Vec<Action> = SINGLES.to_vec();
        actions.extend(Aim::ALL.iter().map(|&a| Action::Aim(a)));
        actions.extend(Lead::ALL.iter().map(|&l| Action::ChargeLead(l)));
        actions.extend(MoveKind::ALL.iter().map(|&m| Action::Move(m)));
        actions.extend(FormKind::ALL.iter().map(|&f| Action::Form(f)));
        actions.extend((0..MAX_UNITS as u8).map(Action::Unit));
        actions.extend(Card::ALL[..PLAYABLE].iter().map(|&c| Action::Card(c)));
        actions.extend((0..WIDTH * HEIGHT).map(|i| Action::Cell(Cell::from_index(i))));
        assert_eq!(actions.len(), NUM_ACTIONS);
        // Leaked once: a 'static view of the names for callers that hand out &str.
        let names: Vec<&'static str> =
            actions.iter().map(|a| &*Box::leak(a.name().into_boxed_str())).collect();
        let by_name = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        Table { actions, names, by_name }
    })
}

/// `ACTION_NAMES` of API.md, in index order.
pub fn action_names() -> &'static [&'static str] {
    &table().names
}

/// The action at `index`, or an error for an index outside 0..1447.
pub fn decode(index: i64) -> crate::error::Result<Action> {
    usize::try_from(index)
        .ok()
        .and_then(|i| table().actions.get(i).copied())
        .ok_or(Error::ActionOutOfRange { action: index, num_actions: NUM_ACTIONS })
}

/// The name of the action at `index`.
pub fn action_to_str(index: i64) -> crate::error::Result<&'static str> {
    decode(index)?;
    Ok(action_names()[index as usize])
}

/// The index of a canonical action name.
pub fn action_from_str(name: &str) -> crate::error::Result<usize> {
    table().by_name.get(name).copied().ok_or_else(|| Error::UnknownId { kind: "action", id: name.to_string() })
}

const WORDS: usize = NUM_ACTIONS.div_ceil(64);

/// A set of action indices (the legal mask), 1447 bits.
pub type Mask = crate::bitmask::BitMask<WORDS, NUM_ACTIONS>;

/// The mask in terms of decoded actions.
pub trait MaskExt {
    /// Adds an action of the table (every `Action` the rules build has an index).
    fn add(&mut self, a: Action);
    fn contains(&self, a: Action) -> bool;
    /// The legal actions, decoded.
    fn actions(&self) -> impl Iterator<Item = Action> + '_;
    /// Adds `Action::Cell` for every cell of a set of cells of the table (a row of bits per y,
    /// bit x): a row's cells are consecutive actions, added a row at a time.
    fn add_cells(&mut self, rows: &[u64; HEIGHT]);
}

impl MaskExt for Mask {
    fn add(&mut self, a: Action) {
        if let Some(i) = a.index() {
            self.set(i);
        }
    }
    fn contains(&self, a: Action) -> bool {
        a.index().is_some_and(|i| self.get(i))
    }
    fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.iter().map(|i| table().actions[i])
    }
    fn add_cells(&mut self, rows: &[u64; HEIGHT]) {
        for (y, &bits) in rows.iter().enumerate() {
            // Bits past the table's width are not cells.
            self.set_bits(CELL + y * WIDTH, bits & ((1 << WIDTH) - 1));
        }
    }
}
