//! The game's driver: a new game from a scenario, the legality of every action (Q2) — one
//! `check` used by both the mask and `apply` — and Q0's automatic single-option steps (never an
//! allocation step: each of the 11 is the German's decision, Q0's ruling of 2026-11-28).

use super::action::{decode, Action, Mask, ACTIVATIONS, NUM_ACTIONS};
use super::allocation::step_is_legal;
use super::dice::Dice;
use super::ids::{Phase, Zone};
use super::interrogation;
use super::scenario::Scenario;
use super::scoring;
use super::skirmish::actions::legal_activations;
use super::skirmish::{action_points, actions, fire, morale, setup, task, turn};
use super::state::{Interrogation, Pending, Skirmish, State, Vp, MAX_LINES};
use crate::error::{Error, Result};

/// A new game seeded with `seed`, set up as `scenario` asks (API "Reset options"); it stops at
/// the first decision point (Q0: more than one legal action, or an allocation step).
pub fn new_game(seed: u64, scenario: &Scenario) -> Result<State> {
    let setup = scenario.validate()?;
    let mut s = State {
        phase: Phase::Allocation,
        placement: [0; 11],
        placed: 0,
        interrogation: Interrogation::new(),
        attacked: None,
        order: None,
        skirmish_index: None,
        skirmish: Skirmish::empty(Zone::Caen),
        records: [None, None],
        vp: Vp { resistance: 0, german: 0, n_lines: 0, lines: [None; MAX_LINES] },
        pending: None,
        outcome: None,
        dice: Dice::new(seed, scenario.dice.clone()),
    };
    if let Some(seq) = setup.sequence {
        s.placement = seq;
        s.placed = 11;
        s.phase = Phase::Interrogation;
    }
    if let Some(attacked) = setup.attack {
        s.interrogation.guesses_left = 0;
        s.attacked = Some(attacked);
        s.phase = Phase::Order;
    }
    if let (Some(first), Some([a, b])) = (setup.first, setup.attack) {
        s.order = Some(if first == a { [a, b] } else { [b, a] });
        s.skirmish_index = Some(0);
        setup::start(&mut s);
    }
    settle(&mut s);
    Ok(s)
}

/// Q2: why `a` is illegal in `s`, if it is. The mask and `apply` both use this.
pub fn check(s: &State, a: Action) -> std::result::Result<(), &'static str> {
    match (s.phase, a) {
        (Phase::Allocation, Action::Allocate(k, z)) => {
            if s.next_item() != Some(k) {
                return Err("that is not the next item to place (G2)");
            }
            let prefix = &s.placement[..s.placed as usize];
            if !step_is_legal(prefix, z.idx() as u8) {
                return Err("no valid allocation completes this placement (G2, G3)");
            }
            Ok(())
        }
        (Phase::Interrogation, Action::Guess(z, _)) => interrogation::check_guess(s, z),
        (Phase::Interrogation, Action::StopInterrogation) => Ok(()),
        (Phase::Attack, Action::Attack(..)) => Ok(()),
        (Phase::Order, Action::First(z)) => match s.attacked {
            Some(att) if att.contains(&z) => Ok(()),
            _ => Err("the zone is not attacked"),
        },
        (Phase::GroupSize | Phase::ActionPoints | Phase::Clock | Phase::Scoring, Action::Reroll | Action::Keep) => {
            Ok(())
        }
        (Phase::Actions, Action::Activate(u, sec, x)) => actions::check_activate(s, u, sec, x),
        (Phase::Actions, Action::Move(to)) => actions::check_move(s, to),
        (Phase::Actions, Action::Shoot(to)) => fire::check_shoot(s, to),
        (Phase::Actions, Action::Cover) => actions::check_cover(s),
        (Phase::Actions, Action::Rescue) => actions::check_rescue(s),
        (Phase::Actions, Action::Task(n)) => task::check_task(s, n),
        (Phase::Actions, Action::EndTurn) => Ok(()),
        (Phase::Hit, Action::Hit(u, x)) => fire::check_hit(s, u, x),
        (Phase::Morale, Action::Flee(u, x)) => morale::check_flee(s, u, x),
        (Phase::GameOver, _) => Err("the game is over"),
        _ => Err("not an action of this phase"),
    }
}

/// The index range of the action blocks a phase can use.
fn block(phase: Phase) -> std::ops::Range<usize> {
    match phase {
        Phase::Allocation => 0..25,
        Phase::Interrogation => 25..76,
        Phase::Attack => 76..86,
        Phase::Order => 86..91,
        Phase::GroupSize | Phase::ActionPoints | Phase::Clock | Phase::Scoring => 91..93,
        Phase::Actions => 93..171,
        Phase::Hit => 171..181,
        Phase::Morale => 181..NUM_ACTIONS,
        Phase::GameOver => 0..0,
    }
}

/// Q2: the legal actions now (empty only when the game is over).
pub fn legal_mask(s: &State) -> Mask {
    let mut m = Mask::default();
    let mut checked = block(s.phase);
    if s.phase == Phase::Actions {
        // The 60 activations open the block; they are set from the figures at once rather than
        // checked one by one.
        debug_assert_eq!(checked.start, ACTIVATIONS.start);
        legal_activations(s).for_each(|i| m.set(i));
        checked.start = ACTIVATIONS.end;
    }
    for i in checked {
        if let Ok(a) = decode(i as i64) {
            if check(s, a).is_ok() {
                m.set(i);
            }
        }
    }
    m
}

/// The legal action indices, ascending.
pub fn legal_actions(s: &State) -> Vec<usize> {
    legal_mask(s).iter().collect()
}

/// Applies the action at `index` for the side to move, then runs chance and Q0 steps up to the
/// next real decision. An illegal action is an error and leaves `s` unchanged.
pub fn apply(s: &mut State, index: i64) -> Result<()> {
    apply_action(s, decode(index)?)
}

/// `apply` with a decoded action.
pub fn apply_action(s: &mut State, a: Action) -> Result<()> {
    if s.is_over() {
        return Err(Error::GameOver);
    }
    check(s, a).map_err(|reason| Error::IllegalAction {
        action: a.name(),
        phase: s.phase.as_str(),
        reason: reason.to_string(),
    })?;
    execute(s, a);
    settle(s);
    Ok(())
}

/// Carries out a legal action and the chance events that follow it.
fn execute(s: &mut State, a: Action) {
    let reroll = a == Action::Reroll;
    match a {
        Action::Allocate(_, z) => {
            s.placement[s.placed as usize] = z.idx() as u8;
            s.placed += 1;
            if s.allocation_done() {
                s.phase = Phase::Interrogation;
            }
        }
        Action::Guess(z, v) => interrogation::guess(s, z, v),
        Action::StopInterrogation => interrogation::stop(s),
        // C1, C2: the reveal is the attacked zones becoming visible (O2).
        Action::Attack(x, y) => {
            s.attacked = Some([x, y]);
            s.phase = Phase::Order;
        }
        // C3, C4.
        Action::First(z) => {
            let [x, y] = s.attacked.unwrap_or([z, z]);
            s.order = Some(if z == x { [x, y] } else { [y, x] });
            s.skirmish_index = Some(0);
            setup::start(s);
        }
        Action::Reroll | Action::Keep => match s.pending {
            Some(Pending::GroupSize { .. }) => setup::decide_group_size(s, reroll),
            Some(Pending::ActionPoints { .. }) => action_points::decide(s, reroll),
            Some(Pending::Clock { .. }) => turn::decide_clock(s, reroll),
            Some(Pending::Vp { .. }) => scoring::decide(s, reroll),
            _ => {}
        },
        Action::Activate(u, sec, x) => actions::activate(s, u, sec, x),
        Action::Move(to) => actions::do_move(s, to),
        Action::Shoot(to) => fire::shoot(s, to),
        Action::Cover => actions::cover(s),
        Action::Rescue => actions::rescue(s),
        Action::Task(n) => task::task(s, n),
        Action::EndTurn => turn::end_actions(s),
        Action::Hit(u, x) => fire::hit(s, u, x),
        Action::Flee(u, x) => morale::flee(s, u, x),
    }
}

/// The only legal action, if exactly one is legal and Q0 takes it. Phases that always offer two
/// or more (interrogation: the open zones' guesses and the stop; attack; order; reroll/keep) are
/// skipped, and the scan stops at the second legal action. The allocation is skipped too: Q0's
/// ruling (2026-11-28) makes each of its 11 steps the German's decision even with one legal zone,
/// so that the number of German decisions, which the Resistance sees, never depends on the
/// hidden allocation.
fn single_legal(s: &State) -> Option<Action> {
    if !matches!(s.phase, Phase::Actions | Phase::Hit | Phase::Morale) {
        return None;
    }
    let mut found = None;
    for i in block(s.phase) {
        let a = decode(i as i64).ok()?;
        if check(s, a).is_ok() {
            if found.is_some() {
                return None;
            }
            found = Some(a);
        }
    }
    found
}

/// Q0: while exactly one action is legal (outside the allocation), take it.
fn settle(s: &mut State) {
    while !s.is_over() {
        let Some(a) = single_legal(s) else { return };
        execute(s, a);
    }
}
