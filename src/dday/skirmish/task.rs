//! K1–K5: task rolls and completion.

use super::action_points::pay;
use super::end;
use crate::dday::ids::{ChanceEvent, Pool, Side};
use crate::dday::state::State;

/// K5: the full set {1, …, 6} as bits 1–6.
pub const FULL: u8 = 0b111_1110;

/// The faces of a task set, ascending.
pub fn faces(set: u8) -> impl Iterator<Item = u8> {
    (1..=6).filter(move |f| set >> f & 1 == 1)
}

/// K2, K3: one roll a turn, n ≤ task AP, and the Resistance must hold its task section.
pub fn check_task(s: &State, n: u8) -> Result<(), &'static str> {
    let sk = &s.skirmish;
    if sk.task_rolled {
        return Err("task has already been rolled this turn");
    }
    if n > sk.task_ap() {
        return Err("not enough AP for that many task dice");
    }
    if sk.turn == Side::Resistance && !sk.holds_task_section() {
        return Err("the Resistance does not hold its task section (K3)");
    }
    Ok(())
}

/// K2: pay (A3's order), roll n dice together, add the faces; K5: a full set ends the skirmish.
pub fn task(s: &mut State, n: u8) {
    let side = s.skirmish.turn;
    let order: &[Pool] = match side {
        Side::Resistance => &[Pool::Resistance],
        Side::German => &[Pool::Shared, Pool::Gendarme1, Pool::Gendarme2, Pool::Gendarme3, Pool::Squad],
    };
    let mut due = n;
    for &pool in order {
        let k = due.min(s.skirmish.pools[pool.idx()]);
        pay(s, pool, k);
        due -= k;
    }
    let roll = s.dice.roll(ChanceEvent::Task, n as usize);
    let sk = &mut s.skirmish;
    for &d in roll.dice() {
        sk.task[side.idx()] |= 1 << d;
    }
    sk.task_rolled = true;
    if sk.task[side.idx()] == FULL {
        end::end_skirmish(s, Some(side));
    }
}
