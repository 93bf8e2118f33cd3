//! A1 `heuristic`: Kuhn's (1950) equilibrium with α = 1/3 (`solve::equilibrium`), played from the
//! observation alone (its own card and the moves so far, O1) with its own seeded stream. No
//! strategy does better against it in expectation: a best response to it earns −1/18 per hand as
//! `first` and +1/18 as `second`, its own value in each seat.

use crate::kuhn::ids::{Mask, Move};
use crate::kuhn::infoset::{index, node_of};
use crate::kuhn::observation::{history, own_card};
use crate::kuhn::solve::{equilibrium, Strategy};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// α of the strategy played: the equilibrium that bets the king for value and bluffs the jack
/// most often (K with probability 3α = 1).
pub const ALPHA: f64 = 1.0 / 3.0;

fn strategy() -> &'static Strategy {
    static S: OnceLock<Strategy> = OnceLock::new();
    S.get_or_init(|| equilibrium(ALPHA).expect("1/3 is an equilibrium's alpha"))
}

/// The equilibrium player; it holds only its stream, saved as the stream itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HeuristicAgent(ChaCha8Rng);

impl HeuristicAgent {
    pub fn new(seed: u64) -> HeuristicAgent {
        HeuristicAgent(ChaCha8Rng::seed_from_u64(seed))
    }

    /// `bet` with the equilibrium's probability at the observer's information set, drawing from
    /// the stream only where that probability is strictly between 0 and 1. An observation that
    /// is no decision point of Kuhn poker gets the first legal action.
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let fallback = mask.iter().next().unwrap_or(0);
        let (Some(card), Some(node)) = (own_card(obs), history(obs).as_ref().and_then(node_of)) else {
            return fallback;
        };
        let p = strategy().0[index(card, node)];
        let bet = if p <= 0.0 {
            false
        } else if p >= 1.0 {
            true
        } else {
            self.0.gen::<f64>() < p
        };
        let m = if bet { Move::Bet } else { Move::Pass };
        if mask.get(m.idx()) {
            m.idx()
        } else {
            fallback
        }
    }
}
