//! The flat action space of API.md: 191 indices, one canonical name each, in block order. The
//! blocks are generated from the id tables, so names and indices cannot drift apart.

use super::ids::{FigState, Kind, Unit, Zone, CHOICE_STATES, SECTIONS};
use crate::error::{Error, Result};
use std::sync::OnceLock;

/// A decision of RULES.md Q1 (sections are 1–6, guess values 1–10, task dice 1–3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Allocate(Kind, Zone),
    Guess(Zone, u8),
    StopInterrogation,
    /// Two distinct zones, the first before the second in Z1 order.
    Attack(Zone, Zone),
    First(Zone),
    Reroll,
    Keep,
    Activate(Unit, u8, FigState),
    Move(u8),
    Shoot(u8),
    Cover,
    Rescue,
    Task(u8),
    EndTurn,
    Hit(Unit, FigState),
    Flee(Unit, FigState),
}

pub const NUM_ACTIONS: usize = 191;

// Block offsets, API.md "Actions".
const ALLOCATE: usize = 0;
const GUESS: usize = 25;
const STOP: usize = 75;
const ATTACK: usize = 76;
const FIRST: usize = 86;
const REROLL: usize = 91;
const KEEP: usize = 92;
const ACTIVATE: usize = 93;
const MOVE: usize = 153;
/// The `activate` actions' indices.
pub const ACTIVATIONS: std::ops::Range<usize> = ACTIVATE..MOVE;
const SHOOT: usize = 159;
const COVER: usize = 165;
const RESCUE: usize = 166;
const TASK: usize = 167;
const END_TURN: usize = 170;
const HIT: usize = 171;
const FLEE: usize = 181;

/// Index of a pair (a, b), a < b, among the 10 ordered pairs of zones.
fn pair_index(a: Zone, b: Zone) -> usize {
    let (a, b) = (a.idx(), b.idx());
    (0..a).map(|i| 4 - i).sum::<usize>() + (b - a - 1)
}

fn state_index(x: FigState) -> usize {
    if x == FigState::InCover {
        1
    } else {
        0
    }
}

impl Action {
    /// The action's index; None for a value outside the action space (e.g. a section 7).
    pub fn index(self) -> Option<usize> {
        let sec = |s: u8| (1..=SECTIONS).contains(&s).then(|| s as usize - 1);
        let st = |x: FigState| x.is_fighting().then(|| state_index(x));
        Some(match self {
            Action::Allocate(k, z) => ALLOCATE + k.idx() * 5 + z.idx(),
            Action::Guess(z, v) => GUESS + z.idx() * 10 + (1..=10).contains(&v).then(|| v as usize - 1)?,
            Action::StopInterrogation => STOP,
            Action::Attack(a, b) => {
                if a >= b {
                    return None;
                }
                ATTACK + pair_index(a, b)
            }
            Action::First(z) => FIRST + z.idx(),
            Action::Reroll => REROLL,
            Action::Keep => KEEP,
            Action::Activate(u, s, x) => ACTIVATE + u.idx() * 12 + sec(s)? * 2 + st(x)?,
            Action::Move(s) => MOVE + sec(s)?,
            Action::Shoot(s) => SHOOT + sec(s)?,
            Action::Cover => COVER,
            Action::Rescue => RESCUE,
            Action::Task(n) => TASK + (1..=3).contains(&n).then(|| n as usize - 1)?,
            Action::EndTurn => END_TURN,
            Action::Hit(u, x) => HIT + u.idx() * 2 + st(x)?,
            Action::Flee(u, x) => FLEE + u.idx() * 2 + st(x)?,
        })
    }

    /// The canonical name of API.md (`allocate:squad:caen`, `shoot:4`, …).
    pub fn name(self) -> String {
        match self {
            Action::Allocate(k, z) => format!("allocate:{k}:{z}"),
            Action::Guess(z, v) => format!("guess:{z}:{v}"),
            Action::StopInterrogation => "stop_interrogation".into(),
            Action::Attack(a, b) => format!("attack:{a}:{b}"),
            Action::First(z) => format!("first:{z}"),
            Action::Reroll => "reroll".into(),
            Action::Keep => "keep".into(),
            Action::Activate(u, s, x) => format!("activate:{u}:{s}:{x}"),
            Action::Move(s) => format!("move:{s}"),
            Action::Shoot(s) => format!("shoot:{s}"),
            Action::Cover => "cover".into(),
            Action::Rescue => "rescue".into(),
            Action::Task(n) => format!("task:{n}"),
            Action::EndTurn => "end_turn".into(),
            Action::Hit(u, x) => format!("hit:{u}:{x}"),
            Action::Flee(u, x) => format!("flee:{u}:{x}"),
        }
    }
}

struct Table {
    actions: Vec<Action>,
    names: Vec<String>,
    name_refs: Vec<&'static str>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut actions = Vec::with_capacity(NUM_ACTIONS);
        for &k in Kind::ALL {
            for &z in Zone::ALL {
                actions.push(Action::Allocate(k, z));
            }
        }
        for &z in Zone::ALL {
            for v in 1..=10 {
                actions.push(Action::Guess(z, v));
            }
        }
        actions.push(Action::StopInterrogation);
        for (i, &a) in Zone::ALL.iter().enumerate() {
            for &b in &Zone::ALL[i + 1..] {
                actions.push(Action::Attack(a, b));
            }
        }
        actions.extend(Zone::ALL.iter().map(|&z| Action::First(z)));
        actions.extend([Action::Reroll, Action::Keep]);
        for &u in Unit::ALL {
            for s in 1..=SECTIONS {
                for x in CHOICE_STATES {
                    actions.push(Action::Activate(u, s, x));
                }
            }
        }
        actions.extend((1..=SECTIONS).map(Action::Move));
        actions.extend((1..=SECTIONS).map(Action::Shoot));
        actions.extend([Action::Cover, Action::Rescue]);
        actions.extend((1..=3).map(Action::Task));
        actions.push(Action::EndTurn);
        for make in [Action::Hit as fn(Unit, FigState) -> Action, Action::Flee] {
            for &u in Unit::ALL {
                for x in CHOICE_STATES {
                    actions.push(make(u, x));
                }
            }
        }
        let names: Vec<String> = actions.iter().map(|a| a.name()).collect();
        // Leaked once: a 'static view of the names for callers that hand out &str.
        let name_refs = names.iter().map(|n| &*Box::leak(n.clone().into_boxed_str())).collect();
        Table { actions, names, name_refs }
    })
}

/// `ACTION_NAMES` of API.md, in index order.
pub fn action_names() -> &'static [&'static str] {
    &table().name_refs
}

/// The action at `index`, or an error for an index outside 0..191.
pub fn decode(index: i64) -> Result<Action> {
    usize::try_from(index)
        .ok()
        .and_then(|i| table().actions.get(i).copied())
        .ok_or(Error::ActionOutOfRange { action: index, num_actions: NUM_ACTIONS })
}

/// The name of the action at `index`.
pub fn action_to_str(index: i64) -> Result<&'static str> {
    decode(index).map(|a| action_names()[a.index().expect("table actions have indices")])
}

/// The index of a canonical action name.
pub fn action_from_str(name: &str) -> Result<usize> {
    table()
        .names
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| Error::UnknownId { kind: "action", id: name.to_string() })
}

/// A set of action indices (the legal mask), 191 bits.
pub type Mask = crate::bitmask::BitMask<3, NUM_ACTIONS>;
