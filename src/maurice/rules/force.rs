//! A1, A4, A6: forces, their groups and the seeds that make an action feasible.

use super::charge::can_charge;
use super::charge::charge_move::{box_gap, cell_box};
use super::charge::charge_move::can_charge_near;
use super::command_distance::{crow_zone, enemy_rows, CommandMap, Rows};
use super::fire::can_bombard;
use crate::maurice::ids::{Command, Formation, Side, UnitType, MAX_UNITS};
use crate::maurice::state::{State, Unit};
use std::cell::{Cell, OnceCell};

/// A1: whether the unit can be in a force at all (an `art` unit that fired this round cannot).
pub fn can_join(u: &Unit) -> bool {
    u.on_table && !(u.kind == UnitType::Art && u.fired)
}

/// A1: the class that all units of one force share: type, formation (`inf`/`cav`) and whether
/// in difficult terrain.
fn class(s: &State, u: &Unit) -> (UnitType, Formation, bool) {
    (u.kind, u.formation, s.terrain.unit_in_difficult(u.cells()))
}

/// A1: two units of a force are linked when within 2 BW.
pub fn linked(s: &State, a: &Unit, b: &Unit) -> bool {
    s.terrain.within(a.cells(), b.cells(), 2)
}

/// A6: the group of a seed — every unit a force with it may contain (same class, chained by
/// links), a bit per id.
pub fn group(s: &State, side: Side, seed: u8) -> u16 {
    let units = &s.army(side).units;
    let seed_unit = &units[seed as usize];
    if !can_join(seed_unit) {
        return 0;
    }
    let cls = class(s, seed_unit);
    // Bit sets of ids, not lists: a group is asked for at every naming of a force.
    let members = units.iter().filter(|u| can_join(u) && class(s, u) == cls).fold(0u16, |m, u| m | 1 << u.id);
    let mut group = 1u16 << seed;
    let mut todo = group;
    while todo != 0 {
        let u = &units[todo.trailing_zeros() as usize];
        todo &= todo - 1;
        for v in ids(members & !group) {
            if linked(s, u, &units[v as usize]) {
                group |= 1 << v;
                todo |= 1 << v;
            }
        }
    }
    group
}

/// The A6 questions about one side's units in one position, each answered once: the class of
/// every unit, the links between units of a class, whether each unit can charge or bombard. The
/// command mask asks them for every unit and every action; the answers are those of `group`,
/// `can_charge` and `can_bombard`.
pub struct Seeds<'a> {
    s: &'a State,
    side: Side,
    /// Per id, the units of its class it is linked to (bits), once built.
    links: OnceCell<[u16; MAX_UNITS]>,
    /// The cells within 5 of an enemy cell (`can_charge_near`), once asked for.
    reach: OnceCell<Rows>,
    charge_known: Cell<u16>,
    charge_yes: Cell<u16>,
    bombard_known: Cell<u16>,
    bombard_yes: Cell<u16>,
}

impl<'a> Seeds<'a> {
    pub fn new(s: &'a State, side: Side) -> Seeds<'a> {
        Seeds {
            s,
            side,
            links: OnceCell::new(),
            reach: OnceCell::new(),
            charge_known: Cell::new(0),
            charge_yes: Cell::new(0),
            bombard_known: Cell::new(0),
            bombard_yes: Cell::new(0),
        }
    }

    fn links(&self) -> &[u16; MAX_UNITS] {
        self.links.get_or_init(|| {
            let s = self.s;
            let units = &s.army(self.side).units;
            let difficult = super::command_distance::difficult_rows(&s.terrain);
            let classes: [Option<(UnitType, Formation, bool)>; MAX_UNITS] = std::array::from_fn(|i| {
                let u = &units[i];
                can_join(u).then(|| (u.kind, u.formation, difficult.unit_in(&s.terrain, u.cells())))
            });
            // `linked` answers from the units' boxes first; each unit's box is worked out once.
            let boxes: [(i32, i32, i32, i32); MAX_UNITS] = std::array::from_fn(|i| cell_box(units[i].cells()));
            let mut links = [0u16; MAX_UNITS];
            for i in 0..MAX_UNITS {
                let Some(ci) = classes[i] else { continue };
                for j in i + 1..MAX_UNITS {
                    if classes[j] == Some(ci) && box_gap(boxes[i], boxes[j]) <= 3 && linked(s, &units[i], &units[j]) {
                        links[i] |= 1 << j;
                        links[j] |= 1 << i;
                    }
                }
            }
            links
        })
    }

    /// `group(s, side, seed)`.
    pub fn group(&self, seed: u8) -> u16 {
        if !can_join(self.s.unit(self.side, seed)) {
            return 0;
        }
        let links = self.links();
        let mut group = 1u16 << seed;
        let mut todo = group;
        while todo != 0 {
            let i = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = links[i] & !group;
            group |= new;
            todo |= new;
        }
        group
    }

    fn memo(known: &Cell<u16>, yes: &Cell<u16>, id: u8, f: impl FnOnce() -> bool) -> bool {
        let bit = 1u16 << id;
        if known.get() & bit == 0 {
            known.set(known.get() | bit);
            if f() {
                yes.set(yes.get() | bit);
            }
        }
        yes.get() & bit != 0
    }

    pub fn can_charge(&self, id: u8) -> bool {
        Self::memo(&self.charge_known, &self.charge_yes, id, || {
            let reach = self.reach.get_or_init(|| crow_zone(&enemy_rows(self.s, self.side)));
            can_charge_near(self.s, self.side, id, reach)
        })
    }

    pub fn can_bombard(&self, id: u8) -> bool {
        Self::memo(&self.bombard_known, &self.bombard_yes, id, || can_bombard(self.s, self.side, id))
    }

    /// `can_seed(s, side, id, command)`.
    pub fn can_seed(&self, id: u8, command: Command) -> bool {
        let (s, side) = (self.s, self.side);
        let u = s.unit(side, id);
        if !can_join(u) {
            return false;
        }
        match command {
            Command::March => true,
            // The group holds the seed itself, so the seed answers first.
            Command::Rally => {
                u.disr > 0
                    || (s.units(side).any(|v| v.disr > 0) && ids(self.group(id)).any(|i| s.unit(side, i).disr > 0))
            }
            Command::Bombard => {
                u.kind == UnitType::Art && (self.can_bombard(id) || ids(self.group(id)).any(|i| self.can_bombard(i)))
            }
            // The units of the seed's group linked to it are its own links (`linked` between
            // units of one class).
            Command::Charge => {
                matches!(u.kind, UnitType::Inf | UnitType::Cav)
                    && (self.can_charge(id) || ids(self.links()[id as usize]).any(|i| self.can_charge(i)))
            }
            Command::Pass | Command::Event => false,
        }
    }
}

/// The ids of a bit set.
pub fn ids(bits: u16) -> impl Iterator<Item = u8> {
    (0..MAX_UNITS as u8).filter(move |i| bits >> i & 1 == 1)
}

/// A6: whether `side`'s unit `id` may seed a force for `command` (command distance apart).
pub fn can_seed(s: &State, side: Side, id: u8, command: Command) -> bool {
    let u = s.unit(side, id);
    if !can_join(u) {
        return false;
    }
    match command {
        Command::March => true,
        Command::Rally => ids(group(s, side, id)).any(|i| s.unit(side, i).disr > 0),
        Command::Bombard => u.kind == UnitType::Art && ids(group(s, side, id)).any(|i| can_bombard(s, side, i)),
        Command::Charge => {
            matches!(u.kind, UnitType::Inf | UnitType::Cav)
                && (can_charge(s, side, id)
                    || ids(group(s, side, id))
                        .any(|i| i != id && linked(s, u, s.unit(side, i)) && can_charge(s, side, i)))
        }
        Command::Pass | Command::Event => false,
    }
}

/// A4: an action is feasible when some unit of the active side could seed a force for it at a
/// finite command distance, whatever the cards.
pub fn feasible(s: &State, command: Command) -> bool {
    feasible_with(s, command, &CommandMap::new(s, s.active))
}

/// `feasible` with the active side's command map already built (the command mask asks for every
/// action on one map).
pub fn feasible_with(s: &State, command: Command, map: &CommandMap) -> bool {
    feasible_in(s, command, map, &Seeds::new(s, s.active))
}

/// `feasible_with`, with the active side's `Seeds` shared between actions.
pub fn feasible_in(s: &State, command: Command, map: &CommandMap, seeds: &Seeds) -> bool {
    s.units(s.active).any(|u| map.to_unit(u).is_some() && seeds.can_seed(u.id, command))
}
