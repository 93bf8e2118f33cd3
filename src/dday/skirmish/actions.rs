//! T3 (one figure at a time), M1 (move), P1 (cover) and H1 (rescue): the acting figure's actions
//! other than shooting.

use super::action_points::pay;
use crate::dday::action::Action;
use crate::dday::ids::{ChanceEvent, FigState, Unit};
use crate::dday::state::{Figure, State};

/// T3: `activate:<unit>:<section>:<state>` — a fresh own figure of that class whose pool has AP.
pub fn check_activate(s: &State, unit: Unit, section: u8, state: FigState) -> Result<(), &'static str> {
    let sk = &s.skirmish;
    if unit.side() != sk.turn {
        return Err("not a unit of the turn player");
    }
    if sk.find(|f| f.fresh && f.unit == unit && f.section == section && f.state == state).is_none() {
        return Err("no fresh figure of that class");
    }
    if sk.pools[sk.pool_of(unit).idx()] == 0 {
        return Err("its pool has no AP left");
    }
    Ok(())
}

/// T3's legal `activate` indices in one pass over the figures (`check_activate` of every class
/// at once): the class of each fresh figure of the turn player whose pool has AP.
pub fn legal_activations(s: &State) -> impl Iterator<Item = usize> + '_ {
    let sk = &s.skirmish;
    sk.figures()
        .iter()
        .filter(move |f| f.fresh && f.unit.side() == sk.turn && sk.pools[sk.pool_of(f.unit).idx()] > 0)
        .filter_map(|f| Action::Activate(f.unit, f.section, f.state).index())
}

/// T3: the lowest-id fresh figure of the class acts; the previous acting figure is spent.
pub fn activate(s: &mut State, unit: Unit, section: u8, state: FigState) {
    let sk = &mut s.skirmish;
    if let Some(i) = sk.find(|f| f.fresh && f.unit == unit && f.section == section && f.state == state) {
        sk.figures[i].fresh = false;
        sk.acting = Some(i as u8);
    }
}

/// The acting figure, if there is one and its pool holds ≥ 1 AP (every figure action's condition).
pub fn acting_with_ap(s: &State) -> Result<Figure, &'static str> {
    let sk = &s.skirmish;
    let f = sk.acting.map(|i| sk.figures[i as usize]).ok_or("no figure is acting")?;
    if sk.pools[sk.pool_of(f.unit).idx()] == 0 {
        return Err("the acting figure's pool has no AP left");
    }
    Ok(f)
}

/// Pays 1 AP for the acting figure's action and returns its id.
pub fn pay_acting(s: &mut State) -> usize {
    let i = s.skirmish.acting.unwrap_or(0) as usize;
    let pool = s.skirmish.pool_of(s.skirmish.figures[i].unit);
    pay(s, pool, 1);
    i
}

/// M1: standing, fewer than 2 moves, to an adjacent section with no enemy fighting figure.
pub fn check_move(s: &State, to: u8) -> Result<(), &'static str> {
    let f = acting_with_ap(s)?;
    if f.state != FigState::Standing {
        return Err("the acting figure is in cover: it must stand up to move");
    }
    if f.moves >= 2 {
        return Err("the acting figure has moved twice this turn");
    }
    if f.section.abs_diff(to) != 1 {
        return Err("the section is not adjacent");
    }
    if s.skirmish.fighting_in(f.side().other(), to) > 0 {
        return Err("an enemy fighting figure is in that section");
    }
    Ok(())
}

pub fn do_move(s: &mut State, to: u8) {
    let i = pay_acting(s);
    let f = &mut s.skirmish.figures[i];
    f.section = to;
    f.moves += 1;
}

/// P1: one cover change per figure per turn, either way.
pub fn check_cover(s: &State) -> Result<(), &'static str> {
    let f = acting_with_ap(s)?;
    if f.cover_changed {
        return Err("the acting figure has already changed cover this turn");
    }
    Ok(())
}

pub fn cover(s: &mut State) {
    let i = pay_acting(s);
    let f = &mut s.skirmish.figures[i];
    f.state = if f.state == FigState::Standing { FigState::InCover } else { FigState::Standing };
    f.cover_changed = true;
}

fn own_marker(s: &State, f: &Figure) -> Option<usize> {
    let (side, section) = (f.side(), f.section);
    s.skirmish.find(|m| m.side() == side && m.section == section && m.state == FigState::Casualty)
}

/// H1: an own casualty marker in the acting figure's section.
pub fn check_rescue(s: &State) -> Result<(), &'static str> {
    let f = acting_with_ap(s)?;
    own_marker(s, &f).map(|_| ()).ok_or("no own casualty marker in the acting figure's section")
}

/// H1: 5 or 6 evacuates the marker (lowest id), 1–4 does nothing.
pub fn rescue(s: &mut State) {
    let i = pay_acting(s);
    let die = s.dice.roll1(ChanceEvent::Rescue);
    if die >= 5 {
        let f = s.skirmish.figures[i];
        if let Some(m) = own_marker(s, &f) {
            s.skirmish.figures[m].state = FigState::Evacuated;
        }
    }
}
