//! The rules as a state machine: `legal_mask` (RULES Q2) and `apply` (one decision, then the
//! automatic steps and single-option decisions of Q0). One file per part of the round.

pub mod activation;
pub mod cards;
pub mod charge;
pub mod cinc;
pub mod command_distance;
pub mod fire;
pub mod force;
pub mod morale;
pub mod movement;
pub mod rally;
pub mod round;

use super::action::{decode, Action, Mask, MaskExt};
use super::ids::Phase;
use super::cards::Card;
use super::ids::{Outcome, ScenarioId, Side};
use super::state::{Army, Pending, Round, State};
use super::terrain::Terrain;
use crate::error::{Error, Result};
use std::sync::Arc;

/// The refusal of a decision whose rules are not implemented yet: never a silently wrong game.
pub(crate) fn not_yet(s: &State, a: Action, rules: &str) -> Error {
    Error::IllegalAction {
        action: a.name(),
        phase: s.phase.as_str(),
        reason: format!("rules {rules} are not implemented yet"),
    }
}

thread_local! {
    /// The last position whose mask this thread worked out, and that mask: `apply_action` checks
    /// the action against the mask its caller has just asked for, in the same position.
    static LAST_MASK: std::cell::RefCell<Option<(State, Mask)>> = const { std::cell::RefCell::new(None) };
}

/// Q2: the legal actions of the side to move (empty at `game_over`).
pub fn legal_mask(s: &State) -> Mask {
    if s.to_move.is_none() {
        return Mask::default();
    }
    // The mask is a function of the state alone, so an equal state's mask is this one's.
    if let Some(m) = LAST_MASK.with(|last| last.borrow().as_ref().filter(|(seen, _)| same_position(seen, s)).map(|&(_, m)| m)) {
        return m;
    }
    let m = compute_mask(s);
    remember(s, m);
    m
}

/// Keeps `m` as the mask of `s` for the thread's next `legal_mask`.
fn remember(s: &State, m: Mask) {
    LAST_MASK.with(|last| {
        let mut last = last.borrow_mut();
        match last.as_mut() {
            Some((seen, mask)) => {
                copy_into(seen, s, Streams::Leave);
                *mask = m;
            }
            None => *last = Some((s.clone(), m)),
        }
    });
}

/// The fields of a position that a mask can read: every field of `State` but the dice and card
/// streams and the dice log (only `apply` rolls and shuffles), named so that a new field cannot be
/// forgotten.
#[allow(clippy::type_complexity)]
fn position(s: &State) -> (Position<'_>, (&Side, &Round, &bool, &Phase, &Option<Side>, &Pending, &Option<Outcome>)) {
    let State {
        scenario,
        terrain,
        armies,
        deck,
        discard,
        removed,
        round_no,
        active,
        round,
        night_pass_last_round,
        phase,
        to_move,
        pending,
        outcome,
        dice: _,
        shuffler: _,
    } = s;
    ((scenario, terrain, armies, deck, discard, removed, round_no), (active, round, night_pass_last_round, phase, to_move, pending, outcome))
}

type Position<'a> = (&'a ScenarioId, &'a Arc<Terrain>, &'a [Army; 2], &'a Vec<Card>, &'a Vec<Card>, &'a Vec<Card>, &'a u32);

/// Whether `a` and `b` have the same mask (`position`), asking first what most often differs
/// between two positions of one game.
fn same_position(a: &State, b: &State) -> bool {
    a.phase == b.phase
        && a.to_move == b.to_move
        && a.round_no == b.round_no
        && a.active == b.active
        && a.deck.len() == b.deck.len()
        && a.round.force == b.round.force
        && a.round.done == b.round.done
        && a.round.moving == b.round.moving
        && position(a) == position(b)
}

fn compute_mask(s: &State) -> Mask {
    let mut m = Mask::default();
    let Some(side) = s.to_move else { return m };
    match s.phase {
        Phase::VolleyChoice => round::volley_mask(&mut m),
        Phase::VolleyInterrupt => fire::volley::interrupt_mask(s, &mut m),
        Phase::VolleyModifier => fire::volley::modifier_mask(s, side, &mut m),
        Phase::Fire => fire::volley::fire_mask(s, &mut m),
        Phase::Aim => fire::volley::aim_mask(&mut m),
        Phase::Command => round::command_mask(s, &mut m),
        Phase::Force => activation::force_mask(s, &mut m),
        Phase::Span => activation::span_mask(s, &mut m),
        Phase::ActivationInterrupt => activation::interrupt_mask(s, &mut m),
        Phase::ActionModifier if s.round.command == Some(super::ids::Command::Charge) => {
            charge::procedure::modifier_mask(s, side, &mut m)
        }
        Phase::ActionModifier => activation::modifier_mask(s, side, &mut m),
        Phase::Charge => charge::procedure::charge_mask(s, &mut m),
        Phase::ChargeLead => charge::procedure::lead_mask(s, &mut m),
        Phase::KingTarget => charge::procedure::king_mask(s, side, &mut m),
        Phase::Move => movement::move_mask(s, &mut m),
        Phase::UnitMove => movement::unit_move_mask(s, &mut m),
        Phase::CincMove => round::cinc_move_mask(s, &mut m),
        Phase::CincPay | Phase::PenaltyDiscard | Phase::HandLimit => round::hand_mask(s, side, &mut m),
        Phase::Displace => {
            if let super::state::Pending::Displace { side, .. } = s.pending {
                for c in cinc::displace_targets(s, side) {
                    m.add(Action::Cell(c));
                }
            }
        }
        _ => {}
    }
    m
}

/// Applies the action with index `action` for the side to move, then runs the game on to the
/// next decision that needs asking (Q0). On error the state is unchanged.
pub fn apply(s: &mut State, action: i64) -> Result<()> {
    let a = decode(action)?;
    apply_action(s, a)
}

/// `apply` for a decoded action.
pub fn apply_action(s: &mut State, a: Action) -> Result<()> {
    if s.is_over() {
        return Err(Error::GameOver);
    }
    if !legal_mask(s).contains(a) {
        return Err(Error::IllegalAction {
            action: a.name(),
            phase: s.phase.as_str(),
            reason: "the rules do not allow it now (see the legal mask)".into(),
        });
    }
    apply_allowed(s, a)
}

/// `apply_action` for an action the caller has just found in `legal_mask(s)` (a vector env's
/// slot keeps its state's mask): the same, without asking for the mask again.
pub fn apply_allowed(s: &mut State, a: Action) -> Result<()> {
    // The mask settling stops at is kept for the caller's `legal_mask` of the new state.
    apply_allowed_then(s, a, Keep::Remember).map(|_| ())
}

/// `apply_allowed`, returning the mask of the decision it stops at when settling worked it out
/// (None: ask `legal_mask`), for a caller that keeps it (a vector env's slot and opponent).
pub fn apply_allowed_mask(s: &mut State, a: Action) -> Result<Option<Mask>> {
    apply_allowed_then(s, a, Keep::Return)
}

fn apply_allowed_then(s: &mut State, a: Action, keep: Keep) -> Result<Option<Mask>> {
    if s.is_over() {
        return Err(Error::GameOver);
    }
    // Decisions whose rules are missing are refused before anything changes: the decision is
    // taken on a copy (the thread's scratch state, whose allocations are reused, worked on in
    // its place: two moves of a whole state fewer a decision).
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let next = match scratch.as_mut() {
            Some(next) => {
                copy_into(next, s, Streams::Copy);
                next
            }
            None => scratch.insert(s.clone()),
        };
        // The dice log only grows: the decision appends to the state's own log (moved, not
        // copied, so that a step costs the same late in a game), which is cut back if it is
        // refused.
        let logged = s.dice.log.len();
        next.dice.log = std::mem::take(&mut s.dice.log);
        let result = step(next, a).and_then(|()| settle_mask(next, keep));
        if result.is_ok() {
            std::mem::swap(s, next);
        } else {
            next.dice.log.truncate(logged);
            s.dice.log = std::mem::take(&mut next.dice.log);
        }
        result
    })
}

/// What `settle_mask` does with the mask of the decision it stops at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Keeps it for `legal_mask` of the same position (a copy of the position and, at the next
    /// ask, a comparison).
    Remember,
    /// Only returns it: the caller holds it.
    Return,
}

thread_local! {
    /// A state whose allocations `apply_action` reuses for its copy.
    static SCRATCH: std::cell::RefCell<Option<State>> = const { std::cell::RefCell::new(None) };
}

/// What `copy_into` does with the streams.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Streams {
    /// The dice and card streams and their scripts, not the dice log (the caller moves it).
    Copy,
    /// None of them (a position kept for its mask: `same_position` ignores them).
    Leave,
}

/// `*dst = src.clone()`, reusing `dst`'s allocations, but for the streams (`streams`); every field
/// is named (`position`), so a new field cannot be forgotten.
pub(crate) fn copy_into(dst: &mut State, src: &State, streams: Streams) {
    let ((scenario, terrain, armies, deck, discard, removed, round_no), (active, round, night_pass_last_round, phase, to_move, pending, outcome)) =
        position(src);
    dst.scenario.clone_from(scenario);
    if !std::sync::Arc::ptr_eq(&dst.terrain, terrain) {
        dst.terrain = terrain.clone();
    }
    dst.armies.clone_from(armies);
    dst.deck.clone_from(deck);
    dst.discard.clone_from(discard);
    dst.removed.clone_from(removed);
    dst.round_no = *round_no;
    dst.active = *active;
    dst.round.clone_from(round);
    dst.night_pass_last_round = *night_pass_last_round;
    dst.phase = *phase;
    dst.to_move = *to_move;
    dst.pending.clone_from(pending);
    dst.outcome.clone_from(outcome);
    if streams == Streams::Copy {
        dst.dice.rng.clone_from(&src.dice.rng);
        dst.dice.script.clone_from(&src.dice.script);
        dst.shuffler.rng.clone_from(&src.shuffler.rng);
        dst.shuffler.script.clone_from(&src.shuffler.script);
    }
}

fn step(s: &mut State, a: Action) -> Result<()> {
    match s.phase {
        Phase::VolleyChoice => round::apply_volley_choice(s, a)?,
        Phase::VolleyInterrupt => fire::volley::apply_interrupt(s, a),
        Phase::VolleyModifier => fire::volley::apply_modifier(s, a),
        Phase::Fire => fire::volley::apply_fire(s, a),
        Phase::Aim => fire::volley::apply_aim(s, a),
        Phase::Command => round::apply_command(s, a)?,
        Phase::Force => activation::apply_force(s, a),
        Phase::Span => activation::apply_span(s, a)?,
        Phase::ActivationInterrupt => activation::apply_interrupt(s, a)?,
        Phase::ActionModifier if s.round.command == Some(super::ids::Command::Charge) => {
            charge::procedure::apply_modifier(s, a)
        }
        Phase::ActionModifier => activation::apply_modifier(s, a)?,
        Phase::Charge => charge::procedure::apply_charge(s, a),
        Phase::ChargeLead => charge::procedure::apply_lead(s, a),
        Phase::KingTarget => charge::procedure::apply_king(s, a),
        Phase::Move => movement::apply_move_choice(s, a),
        Phase::UnitMove => movement::apply_unit_move(s, a),
        Phase::CincMove => round::apply_cinc_move(s, a),
        Phase::CincPay => round::apply_cinc_pay(s, a),
        Phase::PenaltyDiscard | Phase::HandLimit => round::apply_discard(s, a),
        Phase::Displace => round::apply_displace(s, a),
        _ => return Err(not_yet(s, a, "of this phase")),
    }
    Ok(())
}

/// Q0: takes every decision that offers one action only — except where the decider holds a card
/// and the phase's actions depend on its hand (being asked must not reveal a hand).
/// Returns the mask of the decision it stops at when it had to compute it (the single-option
/// masks on the way are never asked for again, so they are not kept).
fn settle_mask(s: &mut State, keep: Keep) -> Result<Option<Mask>> {
    while let Some(side) = s.to_move {
        if s.phase.reveals_hand() && !s.army(side).hand.is_empty() {
            return Ok(None);
        }
        let m = compute_mask(s);
        if m.count() != 1 {
            if keep == Keep::Remember {
                remember(s, m);
            }
            return Ok(Some(m));
        }
        let a = m.actions().next().expect("one legal action");
        step(s, a)?;
    }
    Ok(None)
}

/// `apply_action` for an action just taken from `legal_mask(s)`, for the search's playouts: no
/// second check against the mask and no copy of the state. Returns the next decision's mask when
/// settling it already computed it (None: ask `legal_mask`). On an error the state is left part-way
/// and must be dropped.
pub fn apply_legal(s: &mut State, a: Action) -> Result<Option<Mask>> {
    if s.is_over() {
        return Err(Error::GameOver);
    }
    step(s, a)?;
    settle_mask(s, Keep::Remember)
}
