//! Y1: rally — each unit of the force rolls a die per DISR; each that reaches its rally number
//! removes one.

use super::force::ids;
use crate::maurice::ids::ChanceEvent;
use crate::maurice::state::State;

/// K8: the rally modifier on every die: +1 for the active side's `rally_*`, −1 for the passive's.
fn card_modifier(s: &State) -> i32 {
    let played = |side: crate::maurice::ids::Side| s.round.modifiers[side.idx()][1].is_some();
    played(s.active) as i32 - played(s.passive()) as i32
}

/// Y1 for every unit of the force, ascending id.
pub fn rally(s: &mut State) {
    let side = s.active;
    let cards = card_modifier(s);
    for id in ids(s.round.force) {
        let u = *s.unit(side, id);
        if !u.on_table || u.disr == 0 {
            continue;
        }
        let mut modifier = cards;
        if s.terrain.unit_in_difficult(u.cells()) {
            modifier -= 1;
        }
        if !s.near_enemy(side, u.cells()) {
            modifier += 1;
        }
        let need = u.kind.rally_on();
        let dice = s.dice.roll(ChanceEvent::Rally, u.disr as usize);
        let removed = dice.iter().filter(|&&d| d == 6 || (d != 1 && d as i32 + modifier >= need)).count() as u8;
        let unit = s.unit_mut(side, id);
        unit.disr -= removed;
    }
}
