//! A1, A4, A6: forces, their groups and the seeds that make an action feasible.

use super::charge::can_charge;
use super::command_distance::CommandMap;
use super::fire::can_bombard;
use crate::maurice::ids::{Command, Formation, Side, UnitType, MAX_UNITS};
use crate::maurice::state::{State, Unit};

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
    let members: Vec<&Unit> = units.iter().filter(|u| can_join(u) && class(s, u) == cls).collect();
    let mut group = 1u16 << seed;
    let mut frontier = vec![seed_unit];
    while let Some(u) = frontier.pop() {
        for &v in &members {
            if group & (1 << v.id) == 0 && linked(s, u, v) {
                group |= 1 << v.id;
                frontier.push(v);
            }
        }
    }
    group
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
    let side = s.active;
    s.units(side).any(|u| map.to_unit(u).is_some() && can_seed(s, side, u.id, command))
}
