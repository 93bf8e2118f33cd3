//! N1: the one dice stream of a game. Scripted dice (the `dice` reset option) are consumed first,
//! then the seeded ChaCha8 stream continues; every roll is logged with its chance event (N2).

use super::ids::ChanceEvent;
use crate::draw;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The most dice one roll can hold: a morale roll with 11 counted German casualties.
pub const MAX_ROLL: usize = 12;

/// One logged roll: its event and its dice in N2 order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub event: ChanceEvent,
    pub n: u8,
    pub dice: [u8; MAX_ROLL],
}

impl Roll {
    pub fn dice(&self) -> &[u8] {
        &self.dice[..self.n as usize]
    }
    pub fn sum(&self) -> u8 {
        self.dice().iter().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dice {
    pub rng: ChaCha8Rng,
    /// Scripted dice still to come, consumed from `script_pos` on.
    pub script: Vec<u8>,
    pub script_pos: usize,
    pub log: Vec<Roll>,
}

impl Dice {
    pub fn new(seed: u64, script: Vec<u8>) -> Dice {
        Dice { rng: ChaCha8Rng::seed_from_u64(seed), script, script_pos: 0, log: Vec::new() }
    }

    fn die(&mut self) -> u8 {
        if let Some(&d) = self.script.get(self.script_pos) {
            self.script_pos += 1;
            d
        } else {
            1 + draw::below(&mut self.rng, 6) as u8
        }
    }

    /// Rolls `n` dice (n ≤ MAX_ROLL) as one event and logs it.
    pub fn roll(&mut self, event: ChanceEvent, n: usize) -> Roll {
        debug_assert!(n <= MAX_ROLL);
        let mut dice = [0u8; MAX_ROLL];
        for d in dice.iter_mut().take(n) {
            *d = self.die();
        }
        let r = Roll { event, n: n as u8, dice };
        self.log.push(r);
        r
    }

    pub fn roll1(&mut self, event: ChanceEvent) -> u8 {
        self.roll(event, 1).dice[0]
    }

    /// Replaces the future dice with a fresh stream (search playouts); the log is kept.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.script.clear();
        self.script_pos = 0;
    }
}
