//! R1–R3: morale at the start of a turn.

use super::action_points;
use crate::dday::ids::{ChanceEvent, FigState, Phase, Side, Unit};
use crate::dday::state::{Pending, State};

/// R1, R2: roll one die per own casualty marker (the German ignores one); each 1 is a runaway.
pub fn start(s: &mut State) {
    let sk = &s.skirmish;
    let p = sk.turn;
    let mut n = sk.count(p, FigState::Casualty);
    if p == Side::German {
        n = n.saturating_sub(1);
    }
    let mut runaways = 0;
    if n > 0 {
        let roll = s.dice.roll(ChanceEvent::Morale, n);
        runaways = roll.dice().iter().filter(|&&d| d == 1).count().min(s.skirmish.fighting(p));
    }
    next_runaway(s, runaways as u8);
}

/// R3: the player's furthest-forward section holding its fighting figures.
pub fn furthest_forward(s: &State, side: Side) -> Option<u8> {
    let sections = s.skirmish.figures().iter().filter(|f| f.side() == side && f.is_fighting()).map(|f| f.section);
    match side {
        Side::Resistance => sections.max(),
        Side::German => sections.min(),
    }
}

fn next_runaway(s: &mut State, remaining: u8) {
    match furthest_forward(s, s.skirmish.turn) {
        Some(section) if remaining > 0 => {
            s.pending = Some(Pending::Flee { section, remaining });
            s.phase = Phase::Morale;
        }
        _ => {
            s.pending = None;
            action_points::roll(s);
        }
    }
}

/// R3: `flee:<unit>:<state>` is legal when such a fighting figure of the turn player is in the
/// section concerned.
pub fn check_flee(s: &State, unit: Unit, state: FigState) -> Result<(), &'static str> {
    let Some(Pending::Flee { section, .. }) = s.pending else { return Err("no runaway to take") };
    if unit.side() != s.skirmish.turn {
        return Err("not a unit of the player whose morale is rolled");
    }
    s.skirmish
        .find(|f| f.unit == unit && f.section == section && f.state == state)
        .map(|_| ())
        .ok_or("no fighting figure of that class in the furthest-forward section")
}

/// R2, R3: the figure of that class (lowest id) runs away; then the next runaway.
pub fn flee(s: &mut State, unit: Unit, state: FigState) {
    let Some(Pending::Flee { section, remaining }) = s.pending else { return };
    if let Some(i) = s.skirmish.find(|f| f.unit == unit && f.section == section && f.state == state) {
        let f = &mut s.skirmish.figures[i];
        f.state = FigState::RanAway;
        f.fresh = false;
    }
    next_runaway(s, remaining - 1);
}
