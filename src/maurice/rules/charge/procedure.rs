//! C1, C5, C6: the charge after a successful activation — the chargers' moves, the other units'
//! supporting moves, then the charge window (K6, K8 `for_the_king`) and the combat.

use super::charge_move::{can_charge, charge_move};
use super::combat;
use crate::maurice::action::{Action, Lead, Mask, MaskExt};
use crate::maurice::cards::Card;
use crate::maurice::ids::{CardMark, Phase, Side, UnitType, MAX_UNITS};
use crate::maurice::rules::morale::add_disr;
use crate::maurice::rules::movement::displace;
use crate::maurice::rules::round::ask;
use crate::maurice::state::{Resume, State};

fn force_ids(s: &State) -> impl Iterator<Item = u8> + '_ {
    (0..MAX_UNITS as u8).filter(move |i| s.round.force >> i & 1 == 1 && s.unit(s.active, *i).on_table)
}

/// C5: the charge phase opens once the activation succeeded.
pub fn start_charge(s: &mut State) {
    ask(s, Phase::Charge, s.active);
}

/// C5: a unit of the force that can charge now, and `end_charges` once half have charged or
/// nobody else can.
pub fn charge_mask(s: &State, m: &mut Mask) {
    let side = s.active;
    let mut can = false;
    for id in force_ids(s) {
        if s.round.done >> id & 1 == 0 && can_charge(s, side, id) {
            m.add(Action::Unit(id));
            can = true;
        }
    }
    let units = force_ids(s).count() as u32;
    if 2 * s.round.charged.count_ones() >= units || !can {
        m.add(Action::EndCharges);
    }
}

pub fn apply_charge(s: &mut State, a: Action) {
    match a {
        Action::Unit(id) => {
            s.round.charging = Some(id);
            ask(s, Phase::ChargeLead, s.active);
        }
        _ => {
            // C6: the others may move as in a march, supporting.
            ask(s, Phase::Move, s.active);
        }
    }
}

pub fn lead_mask(s: &State, m: &mut Mask) {
    if let Some(id) = s.round.charging {
        for &l in Lead::ALL {
            if charge_move(s, s.active, id, l).is_some() {
                m.add(Action::ChargeLead(l));
            }
        }
    }
}

/// C5: the engine makes the charge move; difficult terrain costs 1 DISR now; the enemy CinC is
/// displaced if passed.
pub fn apply_lead(s: &mut State, a: Action) {
    let (side, Some(id), Action::ChargeLead(lead)) = (s.active, s.round.charging.take(), a) else { return };
    let Some(mv) = charge_move(s, side, id, lead) else { return };
    let t = s.terrain.clone();
    let u = *s.unit(side, id);
    let difficult = mv.spent > 0 && (t.unit_in_difficult(u.cells()) || mv.walls || mv.passed.iter().any(|&c| t.is_difficult(c)));
    let unit = s.unit_mut(side, id);
    unit.place(u.formation, mv.at, u.facing);
    s.round.done |= 1 << id;
    s.round.charged |= 1 << id;
    if difficult && u.kind != UnitType::Art {
        add_disr(s, side, id, 1);
        if s.is_over() {
            return;
        }
    }
    let cinc = s.army(side.other()).cinc;
    if mv.passed.contains(&cinc) || mv.cells.contains(cinc) {
        displace(s, side.other(), Resume::Charge);
        return;
    }
    ask(s, Phase::Charge, side);
}

/// C5 → K6: after the supporting moves, the charge window, active side first.
pub fn after_moves(s: &mut State) {
    s.round.moving = None;
    combat::engage(s);
    window(s, s.active);
}

fn window(s: &mut State, side: Side) {
    for decider in if side == s.active { vec![side, side.other()] } else { vec![side] } {
        if !s.army(decider).hand.is_empty() {
            ask(s, Phase::ActionModifier, decider);
            return;
        }
    }
    combat::fight(s);
}

/// K6, K8: the charge window's cards — `for_the_king` only with an own engaged `inf` unit.
pub fn modifier_mask(s: &State, side: Side, m: &mut Mask) {
    m.add(Action::Decline);
    let army = s.army(side);
    for card in army.hand.types() {
        if card.symbol() != Some(CardMark::Charge) || army.old_copies(card) == 0 {
            continue;
        }
        if card == Card::ForTheKing && king_candidates(s, side).is_empty() {
            continue;
        }
        m.add(Action::Card(card));
    }
}

/// K8: the own engaged `inf` units `for_the_king` may pick.
pub fn king_candidates(s: &State, side: Side) -> Vec<u8> {
    (0..MAX_UNITS as u8)
        .filter(|&i| s.round.engaged[side.idx()][i as usize] != 0 && s.unit(side, i).kind == UnitType::Inf)
        .collect()
}

pub fn apply_modifier(s: &mut State, a: Action) {
    let side = s.to_move.expect("a decider");
    if let Action::Card(card) = a {
        s.army_mut(side).hand.remove(card);
        s.discard.push(card);
        s.round.modifiers[side.idx()][1] = Some(card);
        if card == Card::ForTheKing {
            ask(s, Phase::KingTarget, side);
            return;
        }
    }
    next_in_window(s, side);
}

fn next_in_window(s: &mut State, side: Side) {
    if side == s.active {
        window(s, side.other());
    } else {
        combat::fight(s);
    }
}

pub fn king_mask(s: &State, side: Side, m: &mut Mask) {
    for id in king_candidates(s, side) {
        m.add(Action::Unit(id));
    }
}

pub fn apply_king(s: &mut State, a: Action) {
    let side = s.to_move.expect("a decider");
    if let Action::Unit(id) = a {
        s.round.king[side.idx()] = Some(id);
    }
    next_in_window(s, side);
}
