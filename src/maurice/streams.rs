//! N1–N3: the seeded streams of a game. Dice and cards are ChaCha8 streams 0 and 1 of the seed
//! (the terrain stream, 2, is used only at setup, S5). Scripted dice and scripted shuffles (the
//! `dice` and `shuffles` reset options) are consumed first, then the seeded streams continue.

use super::cards::Card;
use super::ids::ChanceEvent;
use crate::draw;
use crate::error::{Error, Result};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The stream number of each N1 stream within a game's seed.
pub const DICE_STREAM: u64 = 0;
pub const CARDS_STREAM: u64 = 1;
pub const TERRAIN_STREAM: u64 = 2;

/// One of the seed's streams.
pub fn stream(seed: u64, n: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(n);
    rng
}

/// One logged roll (API `dice_log`): its N2 event and its dice in N2 order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    pub event: ChanceEvent,
    pub dice: Vec<u8>,
}

/// The dice stream, with its script and the log of every roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dice {
    pub rng: ChaCha8Rng,
    pub script: VecDeque<u8>,
    pub log: Vec<Roll>,
}

impl Dice {
    pub fn new(seed: u64, script: Vec<u8>) -> Dice {
        Dice { rng: stream(seed, DICE_STREAM), script: script.into(), log: Vec::new() }
    }

    fn die(&mut self) -> u8 {
        self.script.pop_front().unwrap_or_else(|| 1 + draw::below(&mut self.rng, 6) as u8)
    }

    /// Rolls `n` dice as one logged event.
    pub fn roll(&mut self, event: ChanceEvent, n: usize) -> &[u8] {
        let dice = (0..n).map(|_| self.die()).collect();
        self.log.push(Roll { event, dice });
        &self.log.last().expect("just pushed").dice
    }
}

/// The cards stream, with the scripted results of the next shuffles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shuffler {
    pub rng: ChaCha8Rng,
    pub script: VecDeque<Vec<Card>>,
}

impl Shuffler {
    pub fn new(seed: u64, script: Vec<Vec<Card>>) -> Shuffler {
        Shuffler { rng: stream(seed, CARDS_STREAM), script: script.into() }
    }

    /// N3: Fisher–Yates over the cards listed in their fixed order (position 0 on top), or the
    /// next scripted result, which must be a permutation of the same cards.
    pub fn shuffle(&mut self, cards: &mut [Card]) -> Result<()> {
        match self.script.pop_front() {
            Some(s) => {
                let (mut a, mut b) = (s.clone(), cards.to_vec());
                a.sort();
                b.sort();
                if a != b {
                    let ids = |v: &[Card]| v.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ");
                    return Err(Error::BadOption(format!(
                        "shuffles: [{}] is not a permutation of the cards shuffled, [{}]",
                        ids(&s),
                        ids(cards)
                    )));
                }
                cards.copy_from_slice(&s);
            }
            None => draw::shuffle(&mut self.rng, cards),
        }
        Ok(())
    }
}
