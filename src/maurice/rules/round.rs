//! R1–R9, E2: the round — its start, the volley decision, the command choice and the draw, pass
//! and event, the CinC move and the end of round.

use super::{cards, cinc, morale, not_yet};
use crate::error::Result;
use crate::maurice::action::{Action, Mask, MaskExt};
use crate::maurice::cards::Card;
use crate::maurice::ids::{CardMark, Command, Outcome, Phase, Side, HAND_LIMIT};
use crate::maurice::state::{Pending, Resume, Round, State};

/// R1: `side` becomes active and a new round begins with its volley decision (R3).
pub fn start_round(s: &mut State, side: Side) {
    s.round_no += 1;
    s.active = side;
    s.round = Round::default();
    for army in s.armies.iter_mut() {
        army.drawn = Default::default();
        army.displaced = false;
        for u in army.units.iter_mut() {
            u.fired = false;
            u.round_formation = u.formation;
        }
    }
    ask(s, Phase::VolleyChoice, side);
}

/// Sets the pending decision.
pub fn ask(s: &mut State, phase: Phase, side: Side) {
    s.phase = phase;
    s.to_move = Some(side);
}

/// R3.
pub fn volley_mask(m: &mut Mask) {
    m.add(Action::Volley);
    m.add(Action::NoVolley);
}

pub fn apply_volley_choice(s: &mut State, a: Action) -> Result<()> {
    match a {
        Action::NoVolley => {
            ask(s, Phase::Command, s.active);
            Ok(())
        }
        _ => {
            super::fire::volley::call_volley(s);
            Ok(())
        }
    }
}

/// R4: `pass`; an event card in hand; the feasible actions (A4) — only `pass` with an empty hand.
pub fn command_mask(s: &State, m: &mut Mask) {
    m.add(Action::Pass);
    let hand = &s.army(s.active).hand;
    if hand.is_empty() {
        return;
    }
    for card in hand.types().filter(|c| c.mark() == Some(CardMark::Event)) {
        m.add(Action::Card(card));
    }
    let map = super::command_distance::CommandMap::new(s, s.active);
    let seeds = super::force::Seeds::new(s, s.active);
    for command in Command::ACTIONS {
        if super::force::feasible_in(s, command, &map, &seeds) {
            m.add(command_action(command));
        }
    }
}

pub const fn command_action(c: Command) -> Action {
    match c {
        Command::Pass => Action::Pass,
        Command::March => Action::March,
        Command::Charge => Action::Charge,
        Command::Bombard => Action::Bombard,
        Command::Rally => Action::Rally,
        Command::Event => Action::Decline,
    }
}

pub fn apply_command(s: &mut State, a: Action) -> Result<()> {
    let side = s.active;
    match a {
        Action::Pass => {
            // R8: a night pass is chosen with the deck empty.
            s.round.night_pass = s.deck.is_empty();
            s.round.command = Some(Command::Pass);
            cards::draw_n(s, side, Command::Pass.draws())?;
            cinc_move(s);
        }
        Action::Card(card) => {
            s.round.command = Some(Command::Event);
            cards::discard(s, side, card);
            event(s, side, card);
            cinc_move(s);
        }
        Action::March => super::activation::start(s, Command::March)?,
        Action::Charge => super::activation::start(s, Command::Charge)?,
        Action::Bombard => super::activation::start(s, Command::Bombard)?,
        Action::Rally => super::activation::start(s, Command::Rally)?,
        _ => return Err(not_yet(s, a, "of this command")),
    }
    Ok(())
}

/// R7, K8: an event's effect.
fn event(s: &mut State, side: Side, card: Card) {
    if card == Card::ValeurEtDiscipline {
        for u in s.army_mut(side).units.iter_mut().filter(|u| u.on_table) {
            u.disr = u.disr.saturating_sub(1);
        }
    }
}

/// R2 step 5, H2: the active side, holding a card, may move its CinC.
pub fn cinc_move(s: &mut State) {
    if s.is_over() {
        return;
    }
    if s.army(s.active).hand.is_empty() {
        end_of_round(s);
    } else {
        ask(s, Phase::CincMove, s.active);
    }
}

pub fn cinc_move_mask(s: &State, m: &mut Mask) {
    m.add(Action::Decline);
    m.add_cells(&cinc::move_target_rows(s, s.active));
}

pub fn apply_cinc_move(s: &mut State, a: Action) {
    match a {
        Action::Cell(c) => {
            let side = s.active;
            s.army_mut(side).cinc = c;
            ask(s, Phase::CincPay, side);
        }
        _ => end_of_round(s),
    }
}

/// Any card in the decider's hand (H2 `cinc_pay`, H4 `penalty_discard`, R9 `hand_limit`).
pub fn hand_mask(s: &State, side: Side, m: &mut Mask) {
    for card in s.army(side).hand.types() {
        m.add(Action::Card(card));
    }
}

pub fn apply_cinc_pay(s: &mut State, a: Action) {
    if let Action::Card(card) = a {
        cards::discard(s, s.active, card);
    }
    end_of_round(s);
}

/// The sides in R9's order: the active side first.
fn sides(s: &State) -> [Side; 2] {
    [s.active, s.passive()]
}

/// R9, resumed after each decision it asks for: (1) displacement of CinCs covered by their own
/// units, (2) penalties, (3) the hand limit, (4) nightfall, (5) the next round.
pub fn end_of_round(s: &mut State) {
    if s.is_over() {
        return;
    }
    for side in sides(s) {
        if cinc::covered_by_own(s, side) {
            s.pending = Pending::Displace { side, then: Resume::EndOfRound };
            ask(s, Phase::Displace, side);
            return;
        }
    }
    for side in sides(s) {
        if s.army(side).displaced && !s.round.penalty_paid[side.idx()] {
            s.round.penalty_paid[side.idx()] = true;
            if s.army(side).hand.is_empty() {
                morale::lose_morale(s, side, 1);
                if s.is_over() {
                    return;
                }
            } else {
                s.pending = Pending::Penalty { side };
                ask(s, Phase::PenaltyDiscard, side);
                return;
            }
        }
    }
    for side in sides(s) {
        let held = s.army(side).hand.total();
        if held > HAND_LIMIT {
            s.pending = Pending::HandLimit { side, count: (held - HAND_LIMIT) as u8 };
            ask(s, Phase::HandLimit, side);
            return;
        }
    }
    s.pending = Pending::None;
    if s.round.night_pass && s.night_pass_last_round {
        morale::end_game(s, Outcome::Draw);
        return;
    }
    s.night_pass_last_round = s.round.night_pass;
    start_round(s, s.passive());
}

/// H4 and R9 (3): one card of the side's choice is discarded.
pub fn apply_discard(s: &mut State, a: Action) {
    if let (Some(side), Action::Card(card)) = (s.to_move, a) {
        cards::discard(s, side, card);
    }
    end_of_round(s);
}

/// H3: the displaced CinC's new cell.
pub fn apply_displace(s: &mut State, a: Action) {
    if let (Pending::Displace { side, then }, Action::Cell(c)) = (s.pending.clone(), a) {
        s.army_mut(side).cinc = c;
        s.army_mut(side).displaced = true;
        s.pending = Pending::None;
        match then {
            Resume::EndOfRound => end_of_round(s),
            Resume::March => ask(s, Phase::Move, s.active),
            Resume::Charge => ask(s, Phase::Charge, s.active),
            Resume::FallBack(next) => super::charge::fall_back::fall_backs(s, next),
        }
    }
}
