//! Exact analysis of Kuhn poker: behaviour strategies (the probability of `bet` at each of the 12
//! information sets, `infoset`), the exact expected payoff of two of them (the 6 deals and every
//! line of betting, weighted), the exact best response to a strategy, and the exploitability.
//! The hands are played by the engine itself (`State`), so the analysis and the rules cannot
//! disagree.
//!
//! Kuhn's (1950) equilibria: for `first`, any α in [0, 1/3] — bet J with α, K with 3α, never Q;
//! after pass–bet call with Q with α + 1/3, always with K, never with J. For `second`: after a
//! pass bet J with 1/3, never Q, always K; after a bet call with Q with 1/3, always with K, never
//! with J. The game's value for `first` is −1/18.

use super::ids::{Card, Move, Side};
use super::infoset::{index, of_state, NODES, NODE_SIDE, NUM_INFOSETS};
use super::rules::DEALS;
use super::state::State;
use crate::error::{Error, Result};

/// Ties between `pass` and `bet` closer than this go to `pass`.
pub const TIE: f64 = 1e-12;

/// A behaviour strategy: for each information set (in `INFOSET_NAMES` order) the probability of
/// `bet`. It holds a decision for both seats; each seat reads its own information sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strategy(pub [f64; NUM_INFOSETS]);

impl Strategy {
    /// The strategy of these probabilities, each a number in [0, 1].
    pub fn new(bet: [f64; NUM_INFOSETS]) -> Result<Strategy> {
        if let Some((i, p)) = bet.iter().enumerate().find(|(_, p)| !(0.0..=1.0).contains(*p)) {
            let name = super::infoset::INFOSET_NAMES[i];
            return Err(Error::BadOption(format!("the probability of bet at '{name}', {p}, is not in [0, 1]")));
        }
        Ok(Strategy(bet))
    }

    /// `random`: `bet` with probability 1/2 everywhere.
    pub fn uniform() -> Strategy {
        Strategy([0.5; NUM_INFOSETS])
    }

    /// The probability of `m` at information set `i`.
    pub fn prob(&self, i: usize, m: Move) -> f64 {
        match m {
            Move::Bet => self.0[i],
            Move::Pass => 1.0 - self.0[i],
        }
    }
}

/// Kuhn's equilibrium with parameter `alpha` (in [0, 1/3]); the heuristic agent plays α = 1/3.
pub fn equilibrium(alpha: f64) -> Result<Strategy> {
    if !(0.0..=1.0 / 3.0).contains(&alpha) {
        return Err(Error::BadOption(format!("alpha: {alpha} is not in [0, 1/3]")));
    }
    let third = 1.0 / 3.0;
    let mut s = [0.0; NUM_INFOSETS];
    // (card, [opening, after a pass, after a bet, after pass–bet]).
    for (card, bet) in [
        (Card::Jack, [alpha, third, 0.0, 0.0]),
        (Card::Queen, [0.0, 0.0, third, alpha + third]),
        (Card::King, [3.0 * alpha, 1.0, 1.0, 1.0]),
    ] {
        for (node, p) in bet.into_iter().enumerate() {
            s[index(card, node)] = p;
        }
    }
    Strategy::new(s)
}

/// The expected payoff to `first` from `s` on, `first` playing `seats[0]` and `second` `seats[1]`.
fn value(s: &State, seats: [&Strategy; 2]) -> f64 {
    let (Some(side), Some(i)) = (s.to_move(), of_state(s)) else {
        return s.payoff(Side::First).unwrap_or(0) as f64;
    };
    Move::ALL
        .iter()
        .map(|&m| {
            let p = seats[side.idx()].prob(i, m);
            if p == 0.0 {
                return 0.0;
            }
            let mut next = *s;
            next.history.push(m);
            p * value(&next, seats)
        })
        .sum()
}

/// The exact expected payoff to `first` when `first` plays `a` and `second` plays `b` (the mean
/// over the 6 deals, K1).
pub fn expected_payoff(a: &Strategy, b: &Strategy) -> f64 {
    DEALS.iter().map(|&cards| value(&State::dealt(cards), [a, b])).sum::<f64>() / DEALS.len() as f64
}

/// `side`'s expected payoff playing `own` against `other` in the other seat.
pub fn seat_payoff(side: Side, own: &Strategy, other: &Strategy) -> f64 {
    match side {
        Side::First => expected_payoff(own, other),
        Side::Second => -expected_payoff(other, own),
    }
}

/// A best response and what it earns in each seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BestResponse {
    /// A pure strategy (every probability 0 or 1), best in both seats.
    pub strategy: Strategy,
    /// Its expected payoff as `first` and as `second` against the strategy answered.
    pub value: [f64; 2],
}

impl BestResponse {
    /// The mean of the two seats' values: the answered strategy's exploitability.
    pub fn mean(&self) -> f64 {
        (self.value[0] + self.value[1]) / 2.0
    }
}

/// The exact best response to `sigma` in both seats. Each seat's decisions are taken from the
/// last decision point back (`first` after pass–bet before its opening), each the action of the
/// higher counterfactual value: the sum over the deals that reach it of the chance and
/// `sigma`'s own probabilities of the moves so far times the value of the action's subtree.
/// Ties (within `TIE`) go to `pass`.
pub fn best_response(sigma: &Strategy) -> BestResponse {
    let mut br = Strategy([0.0; NUM_INFOSETS]);
    for &side in Side::ALL {
        let seats = |br: &Strategy| match side {
            Side::First => [*br, *sigma],
            Side::Second => [*sigma, *br],
        };
        let mut nodes: Vec<usize> = (0..NODES.len()).filter(|&n| NODE_SIDE[n] == side).collect();
        nodes.sort_by_key(|&n| std::cmp::Reverse(NODES[n].len()));
        for node in nodes {
            for &card in Card::ALL {
                let mut action_value = [0.0; 2];
                for cards in DEALS.iter().filter(|c| c[side.idx()] == card) {
                    let mut s = State::dealt(*cards);
                    let mut reach = 1.0;
                    for &m in NODES[node] {
                        if s.to_move() != Some(side) {
                            reach *= sigma.prob(of_state(&s).expect("a decision point"), m);
                        }
                        s.history.push(m);
                    }
                    for &m in Move::ALL {
                        let mut next = s;
                        next.history.push(m);
                        let [a, b] = seats(&br);
                        let v = value(&next, [&a, &b]);
                        action_value[m.idx()] += reach * if side == Side::First { v } else { -v };
                    }
                }
                br.0[index(card, node)] = (action_value[1] > action_value[0] + TIE) as u8 as f64;
            }
        }
    }
    BestResponse { strategy: br, value: [Side::First, Side::Second].map(|s| seat_payoff(s, &br, sigma)) }
}

/// How much a best response gains against `sigma`, the mean over the two seats (OpenSpiel's
/// `exploitability`: NashConv / 2); 0 exactly at an equilibrium.
pub fn exploitability(sigma: &Strategy) -> f64 {
    best_response(sigma).mean()
}
