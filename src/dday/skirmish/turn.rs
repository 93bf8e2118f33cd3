//! T1–T4 and L1: the turn's frame — fresh figures, the end of the actions step, the clock.

use super::{end, morale};
use crate::dday::ids::{ChanceEvent, Phase};
use crate::dday::state::{Pending, State};

/// T2: the turn player's per-turn counters at 0; then morale (R).
pub fn begin_turn(s: &mut State) {
    let sk = &mut s.skirmish;
    let p = sk.turn;
    for f in sk.figures_mut() {
        if f.side() == p {
            f.moves = 0;
            f.shots = 0;
            f.cover_changed = false;
        }
    }
    sk.task_rolled = false;
    sk.acting = None;
    sk.pools = [0; 6];
    sk.pools_rolled = [false; 6];
    morale::start(s);
}

/// T2, T3: the actions step begins with every fighting figure of the turn player fresh. (Marked
/// here rather than before morale: the runaways are no longer fighting, and so the observation,
/// whose `fresh` slice is blank outside the actions step, always determines the fresh figures.)
pub fn start_actions(s: &mut State) {
    let p = s.skirmish.turn;
    for f in s.skirmish.figures_mut() {
        f.fresh = f.side() == p && f.is_fighting();
    }
    s.phase = Phase::Actions;
}

/// T4: the turn's actions are over — AP lost (A4), every figure spent; then the clock (L1).
pub fn end_actions(s: &mut State) {
    let sk = &mut s.skirmish;
    for f in sk.figures_mut() {
        f.fresh = false;
    }
    sk.acting = None;
    sk.pools = [0; 6];
    sk.pools_rolled = [false; 6];
    let die = s.dice.roll1(ChanceEvent::Clock);
    s.pending = Some(Pending::Clock { die });
    s.phase = Phase::Clock;
}

/// L1: keep or re-roll the clock die, subtract it; ≤ 0 ends the skirmish (E1), else the other
/// side's turn.
pub fn decide_clock(s: &mut State, reroll: bool) {
    let Some(Pending::Clock { die }) = s.pending else { return };
    let die = if reroll { s.dice.roll1(ChanceEvent::Clock) } else { die };
    s.pending = None;
    s.skirmish.clock -= die as i16;
    if s.skirmish.clock <= 0 {
        end::end_skirmish(s, None);
    } else {
        s.skirmish.turn = s.skirmish.turn.other();
        s.skirmish.turn_number += 1;
        begin_turn(s);
    }
}
