//! F1–F4: shooting with line of fire, the target owner's choice, the save.

use super::actions::{acting_with_ap, pay_acting};
use crate::dday::ids::{ChanceEvent, FigState, Phase, Unit};
use crate::dday::state::{Pending, State};

/// F2: the lowest die that hits at distance 1, 2, 3.
pub const TO_HIT: [u8; 3] = [4, 5, 6];

/// F1: fewer than 2 shots, distance 1–3, an enemy fighting figure in the target, and no fighting
/// figure of either side strictly between.
pub fn check_shoot(s: &State, to: u8) -> Result<(), &'static str> {
    let f = acting_with_ap(s)?;
    if f.shots >= 2 {
        return Err("the acting figure has shot twice this turn");
    }
    let d = f.section.abs_diff(to);
    if !(1..=3).contains(&d) {
        return Err("the target is not at distance 1, 2 or 3");
    }
    let sk = &s.skirmish;
    if sk.fighting_in(f.side().other(), to) == 0 {
        return Err("no enemy fighting figure in the target section");
    }
    let (lo, hi) = (f.section.min(to), f.section.max(to));
    if (lo + 1..hi).any(|b| sk.figures().iter().any(|g| g.section == b && g.is_fighting())) {
        return Err("a fighting figure between blocks the line of fire");
    }
    Ok(())
}

/// F1, F2: one shot; a hit asks the target's owner which figure (F3).
pub fn shoot(s: &mut State, to: u8) {
    let i = pay_acting(s);
    let from = s.skirmish.figures[i].section;
    s.skirmish.figures[i].shots += 1;
    let die = s.dice.roll1(ChanceEvent::ToHit);
    if die >= TO_HIT[from.abs_diff(to) as usize - 1] {
        s.pending = Some(Pending::Hit { from, to });
        s.phase = Phase::Hit;
    }
}

/// F3: the target's owner names a class of his fighting figures in the target section.
pub fn check_hit(s: &State, unit: Unit, state: FigState) -> Result<(), &'static str> {
    let Some(Pending::Hit { to, .. }) = s.pending else { return Err("no hit to assign") };
    if unit.side() == s.skirmish.turn {
        return Err("the target's owner can only pick one of his own figures");
    }
    s.skirmish
        .find(|f| f.unit == unit && f.section == to && f.state == state)
        .map(|_| ())
        .ok_or("no fighting figure of that class in the target section")
}

/// F3, F4: the figure (lowest id of the class) saves on 4+ standing, 3+ in cover; else it becomes
/// a casualty marker.
pub fn hit(s: &mut State, unit: Unit, state: FigState) {
    let Some(Pending::Hit { to, .. }) = s.pending else { return };
    let die = s.dice.roll1(ChanceEvent::Save);
    let need = if state == FigState::InCover { 3 } else { 4 };
    if die < need {
        if let Some(i) = s.skirmish.find(|f| f.unit == unit && f.section == to && f.state == state) {
            s.skirmish.figures[i].state = FigState::Casualty;
            s.skirmish.figures[i].fresh = false;
        }
    }
    s.pending = None;
    s.phase = Phase::Actions;
}
