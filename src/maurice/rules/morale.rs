//! X2, X3, E1: breaking units and army morale, which ends the game the moment it reaches 0.

use crate::maurice::ids::{Outcome, Phase, Side};
use crate::maurice::state::State;

/// X3, E1: `side` loses `n` army morale; at 0 the game ends and it loses.
pub fn lose_morale(s: &mut State, side: Side, n: u8) {
    if s.is_over() {
        return;
    }
    let army = s.army_mut(side);
    army.morale = army.morale.saturating_sub(n);
    if army.morale == 0 {
        end_game(s, if side == Side::Blue { Outcome::Red } else { Outcome::Blue });
    }
}

/// E3: the game ends with `outcome`.
pub fn end_game(s: &mut State, outcome: Outcome) {
    s.outcome = Some(outcome);
    s.phase = Phase::GameOver;
    s.to_move = None;
}

/// X1, X2: `side`'s unit `id` gains `n` DISR; above its bases it breaks and costs its side 1 army
/// morale. Returns whether it broke.
pub fn add_disr(s: &mut State, side: Side, id: u8, n: u8) -> bool {
    let u = s.unit_mut(side, id);
    if !u.on_table {
        return false;
    }
    if u.disr + n > u.bases() {
        break_unit(s, side, id);
        true
    } else {
        u.disr += n;
        false
    }
}

/// X2: the unit is removed from the table at once; X3: its side loses 1 army morale.
pub fn break_unit(s: &mut State, side: Side, id: u8) {
    let u = s.unit_mut(side, id);
    if !u.on_table {
        return;
    }
    u.on_table = false;
    lose_morale(s, side, 1);
}
