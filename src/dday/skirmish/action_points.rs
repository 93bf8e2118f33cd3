//! A1, A2: rolling the turn player's action-point pools (A3's paying is in `pay`).

use super::turn;
use crate::dday::ids::{ChanceEvent, Phase, Pool, Side, Unit};
use crate::dday::state::{Pending, State};

/// A1: the pools of the turn player, counted after morale; A2: the German's squad re-roll.
pub fn roll(s: &mut State) {
    let sk = &s.skirmish;
    let p = sk.turn;
    let fighting = sk.fighting(p);
    // The pools rolled, in A1's dice order, with their number of dice.
    let mut pools: [(Pool, usize); 4] = [(Pool::Shared, 0); 4];
    let mut n = 0;
    if p == Side::Resistance {
        pools[0] = (Pool::Resistance, if fighting >= 3 { 2 } else { 1 });
        n = 1;
    } else if fighting < 3 {
        pools[0] = (Pool::Shared, 1);
        n = 1;
    } else {
        for u in [Unit::Squad, Unit::Gendarme1, Unit::Gendarme2, Unit::Gendarme3] {
            if sk.figures().iter().any(|f| f.unit == u && f.is_fighting()) {
                pools[n] = (Pool::of_unit(u), if u == Unit::Squad { 2 } else { 1 });
                n += 1;
            }
        }
    }
    let total: usize = pools[..n].iter().map(|p| p.1).sum();
    let roll = s.dice.roll(ChanceEvent::ActionPoints, total);
    let mut d = 0;
    for &(pool, k) in &pools[..n] {
        s.skirmish.pools[pool.idx()] = roll.dice()[d..d + k].iter().sum();
        s.skirmish.pools_rolled[pool.idx()] = true;
        d += k;
    }
    if s.skirmish.pools_rolled[Pool::Squad.idx()] {
        // The squad's dice come first (A1 order).
        s.pending = Some(Pending::ActionPoints { dice: [roll.dice[0], roll.dice[1]] });
        s.phase = Phase::ActionPoints;
    } else {
        turn::start_actions(s);
    }
}

/// A2: keep the squad's dice or roll both again (the second result stands).
pub fn decide(s: &mut State, reroll: bool) {
    if reroll {
        s.skirmish.pools[Pool::Squad.idx()] = s.dice.roll(ChanceEvent::ActionPoints, 2).sum();
    }
    s.pending = None;
    turn::start_actions(s);
}

/// A3: pay `n` AP from `pool`.
pub fn pay(s: &mut State, pool: Pool, n: u8) {
    let p = &mut s.skirmish.pools[pool.idx()];
    *p = p.saturating_sub(n);
}
