//! F1, F5–F9, K6 (volley window), K7 (`first_fire`): the volley phase and a side's fire — naming
//! units, aiming, rolling to hit, then to disrupt.

use super::targets::{firing_bases, lane_target_in, occupied, LaneTarget, Range};
use crate::error::Result;
use crate::maurice::action::{Action, Aim as AimChoice, Mask, MaskExt};
use crate::maurice::cards::Card;
use crate::maurice::grid::lanes;
use crate::maurice::ids::{CardMark, ChanceEvent, Formation, Phase, Side, TerrainType, UnitType, HEIGHT, MAX_UNITS};
use crate::maurice::rules::command_distance::{crow_zone, enemy_rows, has_any};
use crate::maurice::rules::round::ask;
use crate::maurice::rules::{cards, morale, round};
use crate::maurice::state::{Aim, Fire, State, Unit};

/// F5: the lanes of one base that have a target: straight, left, right.
/// (`occupied`: the covered cells, `targets::occupied(s)`, worked out once for all the bases.)
fn base_targets(s: &State, occupied: &[u64; HEIGHT], u: &Unit, b: crate::maurice::grid::Cell, range: Range) -> [Option<Aim>; 3] {
    lanes(u.facing).map(|v| match lane_target_in(s, occupied, u.side, b, v, range) {
        LaneTarget::Target { cell, k } => Some(Aim { base: b, target: cell, k, lane: v }),
        _ => None,
    })
}

fn range(bombard: bool) -> Range {
    if bombard {
        Range::Long
    } else {
        Range::Short
    }
}

/// What every unit's F3 check reads of a position, worked out once for all of a side's units:
/// the covered cells (`targets::occupied`) and the cells a lane can find an enemy from (within
/// R + 1 cells of an enemy cell).
struct Sight {
    occupied: [u64; HEIGHT],
    reach: [u64; HEIGHT],
}

impl Sight {
    fn new(s: &State, side: Side) -> Sight {
        // A lane is searched R + 1 cells out.
        const _: () = assert!(Range::Short.reach() + 1 == 5, "crow_zone holds the cells within 5");
        Sight { occupied: occupied(s), reach: crow_zone(&enemy_rows(s, side)) }
    }
}

/// F3: whether the unit may fire now: it has not fired this round and a base has a target (in a
/// bombard: it is of the force and can bombard, F2).
fn eligible(s: &State, side: Side, id: u8, bombard: bool, sight: &Sight) -> bool {
    let u = s.unit(side, id);
    if !u.on_table || u.fired {
        return false;
    }
    if bombard {
        return s.round.force >> id & 1 == 1 && super::can_bombard(s, side, id);
    }
    // With no enemy cell within R + 1 of its cells (of the table), no base has a target.
    if !has_any(&sight.reach, u.cells()) {
        return false;
    }
    firing_bases(s, u).as_slice().iter().any(|&b| base_targets(s, &sight.occupied, u, b, Range::Short).iter().any(Option::is_some))
}

fn any_eligible(s: &State, side: Side, bombard: bool) -> bool {
    let sight = Sight::new(s, side);
    (0..MAX_UNITS as u8).any(|i| eligible(s, side, i, bombard, &sight))
}

/// R3 `volley`: the passive side's interrupt window (K7), then the volley window (K6).
pub fn call_volley(s: &mut State) {
    s.round.volley = true;
    let passive = s.passive();
    if s.round.interrupt.is_none() && !s.army(passive).hand.is_empty() {
        ask(s, Phase::VolleyInterrupt, passive);
    } else {
        set_order(s, s.active);
    }
}

pub fn interrupt_mask(s: &State, m: &mut Mask) {
    m.add(Action::Decline);
    if s.army(s.passive()).hand.get(Card::FirstFire) > 0 {
        m.add(Action::Card(Card::FirstFire));
    }
}

pub fn apply_interrupt(s: &mut State, a: Action) {
    let passive = s.passive();
    if let Action::Card(card) = a {
        cards::discard(s, passive, card);
        s.round.interrupt = Some(card);
        set_order(s, passive);
    } else {
        set_order(s, s.active);
    }
}

/// F1: `first` fires first and decides first in the volley window.
fn set_order(s: &mut State, first: Side) {
    s.round.first_shooter = Some(first);
    volley_window(s, first);
}

/// K6: the volley window asks `side` (if it holds a card), then the second shooter.
fn volley_window(s: &mut State, side: Side) {
    let first = s.round.first_shooter.unwrap_or(s.active);
    let order = if side == first { vec![first, first.other()] } else { vec![side] };
    for decider in order {
        if !s.army(decider).hand.is_empty() {
            ask(s, Phase::VolleyModifier, decider);
            return;
        }
    }
    start_fire(s, first, false, Some(first.other()));
}

pub fn modifier_mask(s: &State, side: Side, m: &mut Mask) {
    m.add(Action::Decline);
    let army = s.army(side);
    for card in army.hand.types() {
        if card.symbol() == Some(CardMark::Volley) && army.old_copies(card) > 0 {
            m.add(Action::Card(card));
        }
    }
}

pub fn apply_modifier(s: &mut State, a: Action) {
    let side = s.to_move.expect("a decider");
    if let Action::Card(card) = a {
        s.army_mut(side).hand.remove(card);
        s.discard.push(card);
        s.round.modifiers[side.idx()][0] = Some(card);
    }
    let first = s.round.first_shooter.unwrap_or(s.active);
    if side == first {
        volley_window(s, first.other());
    } else {
        start_fire(s, first, false, Some(first.other()));
    }
}

/// F6: `side` fires (a volley, or a bombard by the activated force).
pub fn start_fire(s: &mut State, side: Side, bombard: bool, second: Option<Side>) {
    s.round.fire = Some(Fire { side, bombard, hits: [0; MAX_UNITS], unit: None, aims: Vec::new(), base: 0, second });
    if any_eligible(s, side, bombard) {
        ask(s, Phase::Fire, side);
    } else {
        end_fire(s);
    }
}

pub fn fire_mask(s: &State, m: &mut Mask) {
    m.add(Action::EndFire);
    if let Some(f) = &s.round.fire {
        let sight = Sight::new(s, f.side);
        for id in 0..MAX_UNITS as u8 {
            if eligible(s, f.side, id, f.bombard, &sight) {
                m.add(Action::Unit(id));
            }
        }
    }
}

pub fn apply_fire(s: &mut State, a: Action) {
    match a {
        Action::Unit(id) => {
            let f = s.round.fire.as_mut().expect("fire in progress");
            f.unit = Some(id);
            f.aims.clear();
            f.base = 0;
            next_aim(s);
        }
        _ => end_fire(s),
    }
}

/// F5: aims the named unit's bases left to right, asking where both side lanes have a target.
fn next_aim(s: &mut State) {
    let f = s.round.fire.as_ref().expect("fire in progress");
    let (side, id, bombard) = (f.side, f.unit.expect("a named unit"), f.bombard);
    let u = *s.unit(side, id);
    let bases = firing_bases(s, &u);
    // Aiming changes no unit: the covered cells stay the same for every base.
    let occupied = occupied(s);
    while let Some(&b) = bases.as_slice().get(s.round.fire.as_ref().expect("fire").base as usize) {
        let [straight, left, right] = base_targets(s, &occupied, &u, b, range(bombard));
        let f = s.round.fire.as_mut().expect("fire");
        match (straight, left, right) {
            (Some(a), _, _) | (None, Some(a), None) | (None, None, Some(a)) => f.aims.push(a),
            (None, Some(_), Some(_)) => {
                ask(s, Phase::Aim, side);
                return;
            }
            (None, None, None) => {}
        }
        s.round.fire.as_mut().expect("fire").base += 1;
    }
    roll_unit(s);
}

/// F5 `aim`: the two side lanes of the base being asked.
pub fn aim_options(s: &State) -> Option<(usize, Aim, Aim)> {
    let f = s.round.fire.as_ref()?;
    let u = s.unit(f.side, f.unit?);
    let bases = firing_bases(s, u);
    let b = *bases.as_slice().get(f.base as usize)?;
    let [_, left, right] = base_targets(s, &occupied(s), u, b, range(f.bombard));
    let a = u.frame().coords(b).0 as usize;
    Some((a, left?, right?))
}

pub fn aim_mask(m: &mut Mask) {
    m.add(Action::Aim(AimChoice::Left));
    m.add(Action::Aim(AimChoice::Right));
}

pub fn apply_aim(s: &mut State, a: Action) {
    if let Some((_, left, right)) = aim_options(s) {
        let f = s.round.fire.as_mut().expect("fire");
        f.aims.push(if a == Action::Aim(AimChoice::Left) { left } else { right });
        f.base += 1;
    }
    next_aim(s);
}

/// F7: the to-hit modifier of one aim.
fn to_hit_modifier(s: &State, shooter: &Unit, aim: &Aim, bombard: bool) -> i32 {
    let t = &s.terrain;
    let target = s.unit_at(aim.target).expect("a target unit");
    let mut m = 0;
    if matches!(target.formation, Formation::Column | Formation::Massed) {
        m += 1;
    }
    let fv = target.facing.vec();
    let d = crate::maurice::grid::Vec2(aim.base.x - aim.target.x, aim.base.y - aim.target.y);
    if d.dot(fv) <= 0 {
        m += 1;
    }
    if 2 * shooter.disr >= shooter.bases() {
        m -= 1;
    }
    let wall = (1..aim.k).any(|j| t.crosses_wall(aim.base.plus(aim.lane.times(j)), aim.base.plus(aim.lane.times(j + 1))));
    if t.kind(aim.target) == TerrainType::Woods || wall {
        m -= 1;
    }
    if matches!(t.kind(aim.base), TerrainType::Woods | TerrainType::Rough) {
        m -= 1;
    }
    let side = shooter.side;
    let card = |who: Side, slot: usize| s.round.modifiers[who.idx()][slot];
    if bombard {
        m += card(s.active, 1).is_some() as i32 - card(s.passive(), 1).is_some() as i32;
    } else {
        if card(side, 0).is_some_and(|c| c != Card::ThickSmoke) {
            m += 1;
        }
        if card(side.other(), 0) == Some(Card::ThickSmoke) {
            m -= 1;
        }
    }
    m
}

/// F6, F7, F9: the named unit's dice, bases left to right; hits are tallied; guns smoke.
fn roll_unit(s: &mut State) {
    let f = s.round.fire.as_ref().expect("fire").clone();
    let (side, id) = (f.side, f.unit.expect("a named unit"));
    let shooter = *s.unit(side, id);
    let per_base = if shooter.kind == UnitType::Art && !f.bombard { 2 } else { 1 };
    let mods: Vec<i32> = f.aims.iter().map(|a| to_hit_modifier(s, &shooter, a, f.bombard)).collect();
    let targets: Vec<u8> = f.aims.iter().map(|a| s.unit_at(a.target).expect("target").id).collect();
    let dice = s.dice.roll(ChanceEvent::ToHit, per_base * f.aims.len()).to_vec();
    let fire = s.round.fire.as_mut().expect("fire");
    for (i, &d) in dice.iter().enumerate() {
        let k = i / per_base;
        if d == 6 || (d != 1 && d as i32 + mods[k] >= 4) {
            fire.hits[targets[k] as usize] += 1;
        }
    }
    fire.unit = None;
    let u = s.unit_mut(side, id);
    u.fired = true;
    if u.kind == UnitType::Art {
        u.smoke = true;
    }
    if any_eligible(s, side, f.bombard) {
        ask(s, Phase::Fire, side);
    } else {
        end_fire(s);
    }
}

/// F8: each enemy unit hit, ascending id, rolls a die per hit; 4+ is a DISR (a bombard on
/// artillery needs a 6); then the second side fires, or the round goes on.
fn end_fire(s: &mut State) {
    let f = s.round.fire.take().expect("fire in progress");
    let enemy = f.side.other();
    for id in 0..MAX_UNITS as u8 {
        let n = f.hits[id as usize];
        if n == 0 || !s.unit(enemy, id).on_table {
            continue;
        }
        let need = if f.bombard && s.unit(enemy, id).kind == UnitType::Art { 6 } else { 4 };
        let dice = s.dice.roll(ChanceEvent::ToDisrupt, n as usize).to_vec();
        let disr = dice.iter().filter(|&&d| d >= need).count() as u8;
        if disr > 0 {
            morale::add_disr(s, enemy, id, disr);
        }
        if s.is_over() {
            return;
        }
    }
    match (f.bombard, f.second) {
        (true, _) => round::cinc_move(s),
        (false, Some(second)) => start_fire(s, second, false, None),
        (false, None) => ask(s, Phase::Command, s.active),
    }
}

/// F2: the activated `art` force bombards.
pub fn bombard(s: &mut State) -> Result<()> {
    start_fire(s, s.active, true, None);
    Ok(())
}
