//! A2, A5–A9, K5–K7: after an action is chosen — the bluff check, naming the force, paying the
//! span, the passive side's activation interrupt and the action's modifier window.

use super::command_distance::CommandMap;
use super::force::{group, ids, linked, Seeds};
use super::round::{ask, cinc_move, end_of_round};
use super::{cards, charge::can_charge, fire::can_bombard, rally};
use crate::error::Result;
use crate::maurice::action::{Action, Mask, MaskExt};
use crate::maurice::cards::Card;
use crate::maurice::ids::{Command, Phase, Side, UnitType};
use crate::maurice::state::State;

/// K8: `unexpected_delay` adds this to the activation distance.
pub const DELAY: u32 = 8;

fn command(s: &State) -> Command {
    s.round.command.unwrap_or(Command::Pass)
}

/// A5: the sum of the spans of every card in the active side's hand.
pub fn span_total(s: &State) -> u32 {
    s.army(s.active).hand.span_total()
}

/// A6: the units that may seed the force: command distance within the span total (worked out
/// as they are taken: whether there is one at all asks no further than the first).
fn seeds(s: &State) -> impl Iterator<Item = u8> + '_ {
    let (side, cmd, total) = (s.active, command(s), span_total(s));
    let map = CommandMap::new(s, side);
    let seeds = Seeds::new(s, side);
    s.units(side).filter(move |u| map.to_unit(u).is_some_and(|d| d <= total) && seeds.can_seed(u.id, cmd)).map(|u| u.id)
}

/// R5, A5: after choosing an action the active side draws; if no unit can seed a force within
/// the span total the bluff fails: the whole hand is discarded and the round ends (no CinC move).
pub fn start(s: &mut State, cmd: Command) -> Result<()> {
    let side = s.active;
    s.round.command = Some(cmd);
    cards::draw_n(s, side, cmd.draws())?;
    if seeds(s).next().is_none() {
        cards::discard_hand(s, side);
        end_of_round(s);
    } else {
        ask(s, Phase::Force, side);
    }
    Ok(())
}

/// Units of the force that can charge, and all of them.
fn chargers(s: &State, force: u16) -> (usize, usize) {
    let side = s.active;
    let n = ids(force).count();
    (ids(force).filter(|&i| can_charge(s, side, i)).count(), n)
}

/// A2: whether the named units may be activated for the command.
pub fn meets_a2(s: &State, force: u16) -> bool {
    let side = s.active;
    if force == 0 {
        return false;
    }
    let first = s.unit(side, ids(force).next().expect("non-empty"));
    match command(s) {
        Command::March => true,
        Command::Charge => {
            let (c, n) = chargers(s, force);
            matches!(first.kind, UnitType::Inf | UnitType::Cav) && 2 * c >= n
        }
        Command::Bombard => first.kind == UnitType::Art && ids(force).any(|i| can_bombard(s, side, i)),
        Command::Rally => ids(force).any(|i| s.unit(side, i).disr > 0),
        Command::Pass | Command::Event => false,
    }
}

/// A6: the next unit may be named when it is in the seed's group, not yet named, within 2 BW of
/// a named unit, and (charge) keeps 2 × chargers ≥ units.
pub fn force_mask(s: &State, m: &mut Mask) {
    let side = s.active;
    let force = s.round.force;
    if force == 0 {
        for id in seeds(s) {
            m.add(Action::Unit(id));
        }
        return;
    }
    let seed = ids(force).next().expect("non-empty");
    for id in ids(group(s, side, seed) & !force) {
        let u = s.unit(side, id);
        if !ids(force).any(|f| linked(s, s.unit(side, f), u)) {
            continue;
        }
        if command(s) == Command::Charge && !can_charge(s, side, id) {
            let (c, n) = chargers(s, force);
            if 2 * c < n + 1 {
                continue;
            }
        }
        m.add(Action::Unit(id));
    }
    if meets_a2(s, force) {
        m.add(Action::ConfirmForce);
    }
}

pub fn apply_force(s: &mut State, a: Action) {
    match a {
        Action::Unit(id) => s.round.force |= 1 << id,
        _ => {
            let map = CommandMap::new(s, s.active);
            let d = ids(s.round.force).filter_map(|i| map.to_unit(s.unit(s.active, i))).min();
            s.round.distance = d;
            ask(s, Phase::Span, s.active);
        }
    }
}

/// A7: the activation distance: the force's command distance, plus 8 after a delay.
pub fn activation_distance(s: &State) -> u32 {
    s.round.distance.unwrap_or(u32::MAX) + if s.round.delayed { DELAY } else { 0 }
}

fn paid(s: &State) -> u32 {
    s.round.span_played.iter().map(|c| c.span()).sum()
}

/// A7, A8: any card for its span; after a delay `give_up` too, and only `give_up` when the hand
/// cannot reach the distance.
pub fn span_mask(s: &State, m: &mut Mask) {
    let hand = &s.army(s.active).hand;
    if s.round.delayed {
        m.add(Action::GiveUp);
        if paid(s) + hand.span_total() < activation_distance(s) {
            return;
        }
    }
    for card in hand.types() {
        m.add(Action::Card(card));
    }
}

pub fn apply_span(s: &mut State, a: Action) -> Result<()> {
    let side = s.active;
    match a {
        Action::Card(card) => {
            cards::discard(s, side, card);
            s.round.span_played.push(card);
            if paid(s) >= activation_distance(s) {
                if !s.round.interrupt_window {
                    s.round.interrupt_window = true;
                    let passive = s.passive();
                    if s.round.interrupt.is_none() && !s.army(passive).hand.is_empty() {
                        ask(s, Phase::ActivationInterrupt, passive);
                        return Ok(());
                    }
                }
                return succeed(s);
            }
            Ok(())
        }
        // A8: a foiled activation; the round goes to its end.
        _ => {
            end_of_round(s);
            Ok(())
        }
    }
}

/// K7: `unexpected_delay` (any action), `rough_going` (march, charge), `decline`.
pub fn interrupt_mask(s: &State, m: &mut Mask) {
    m.add(Action::Decline);
    let hand = &s.army(s.passive()).hand;
    if hand.get(Card::UnexpectedDelay) > 0 {
        m.add(Action::Card(Card::UnexpectedDelay));
    }
    if hand.get(Card::RoughGoing) > 0 && matches!(command(s), Command::March | Command::Charge) {
        m.add(Action::Card(Card::RoughGoing));
    }
}

pub fn apply_interrupt(s: &mut State, a: Action) -> Result<()> {
    if let Action::Card(card) = a {
        cards::discard(s, s.passive(), card);
        s.round.interrupt = Some(card);
        match card {
            Card::UnexpectedDelay => {
                s.round.delayed = true;
                if paid(s) < activation_distance(s) {
                    ask(s, Phase::Span, s.active);
                    return Ok(());
                }
            }
            _ => s.round.rough_going = true,
        }
    }
    succeed(s)
}

/// A7–A9: the activation succeeded; the action's modifier window (K6), then the action. A
/// charge's window comes after its moves (C5).
fn succeed(s: &mut State) -> Result<()> {
    s.round.activated = true;
    if command(s) == Command::Charge {
        super::charge::procedure::start_charge(s);
        return Ok(());
    }
    open_modifier_window(s)
}

/// K6: the window asks the active side first, then the passive; a side holding no card is
/// skipped.
fn open_modifier_window(s: &mut State) -> Result<()> {
    for side in [s.active, s.passive()] {
        if !s.army(side).hand.is_empty() {
            ask(s, Phase::ActionModifier, side);
            return Ok(());
        }
    }
    run_action(s)
}

/// K6: `decline` or one copy, not drawn this round, of a card with the action's symbol.
pub fn modifier_mask(s: &State, side: Side, m: &mut Mask) {
    m.add(Action::Decline);
    let symbol = command(s).symbol();
    let army = s.army(side);
    for card in army.hand.types() {
        if card.symbol().is_some() && card.symbol() == symbol && army.old_copies(card) > 0 {
            m.add(Action::Card(card));
        }
    }
}

pub fn apply_modifier(s: &mut State, a: Action) -> Result<()> {
    let side = s.to_move.expect("a decider");
    if let Action::Card(card) = a {
        // A modifier is always an old copy (R5): the hand loses one, the new copies stay.
        s.army_mut(side).hand.remove(card);
        s.discard.push(card);
        s.round.modifiers[side.idx()][1] = Some(card);
    }
    if side == s.active && !s.army(s.passive()).hand.is_empty() {
        ask(s, Phase::ActionModifier, s.passive());
        return Ok(());
    }
    run_action(s)
}

/// A9: the activated action.
fn run_action(s: &mut State) -> Result<()> {
    match command(s) {
        Command::Rally => {
            rally::rally(s);
            cinc_move(s);
            Ok(())
        }
        Command::March => {
            super::movement::start_march(s);
            Ok(())
        }
        Command::Bombard => super::fire::volley::bombard(s),
        _ => {
            super::charge::procedure::after_moves(s);
            Ok(())
        }
    }
}
