//! A hand of Kuhn poker: the two cards dealt (K1) and the moves made (B1–B4). Everything else —
//! the side to move, the pot, how the hand ended and the payoffs — follows from these two, so a
//! state cannot disagree with itself.

use super::ids::{Card, Move, Phase, Side};
use serde::{Deserialize, Serialize};

/// The most moves a hand can take (B4: pass, bet, then a call or a fold).
pub const MAX_MOVES: usize = 3;

/// The moves of a hand in order, at most `MAX_MOVES`; saved as a list of action ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "Vec<Move>", try_from = "Vec<Move>")]
pub struct History {
    len: u8,
    moves: [Option<Move>; MAX_MOVES],
}

impl History {
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().take(self.len as usize).flatten().copied()
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The `k`-th move, if made.
    pub fn get(&self, k: usize) -> Option<Move> {
        self.moves.get(k).copied().flatten()
    }
    /// Appends a move (the caller checks that the hand goes on).
    pub(crate) fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = Some(m);
        self.len += 1;
    }
}

impl From<History> for Vec<Move> {
    fn from(h: History) -> Vec<Move> {
        h.moves().collect()
    }
}

impl TryFrom<Vec<Move>> for History {
    type Error = String;
    fn try_from(moves: Vec<Move>) -> Result<History, String> {
        if moves.len() > MAX_MOVES {
            return Err(format!("{} moves, a hand has at most {MAX_MOVES}", moves.len()));
        }
        let mut h = History::default();
        moves.into_iter().for_each(|m| h.push(m));
        Ok(h)
    }
}

/// How a finished hand ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// S1: both cards shown; `stake` is what each side put in (1 after two passes, 2 after a call).
    Showdown { stake: i8 },
    /// B3, B4: `folder` passed after a bet and loses its ante.
    Fold { folder: Side },
}

/// A hand: the cards of `first` and `second`, and the moves so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct State {
    /// K1: `first`'s card, then `second`'s.
    pub cards: [Card; 2],
    pub history: History,
}

impl State {
    /// A hand with these cards and no move made yet.
    pub fn dealt(cards: [Card; 2]) -> State {
        State { cards, history: History::default() }
    }

    /// `side`'s card.
    pub fn card(&self, side: Side) -> Card {
        self.cards[side.idx()]
    }

    /// B2–B4: how the hand ended, once it has.
    pub fn end(&self) -> Option<End> {
        use Move::{Bet, Pass};
        match (self.history.get(0), self.history.get(1), self.history.get(2)) {
            (Some(Pass), Some(Pass), None) => Some(End::Showdown { stake: 1 }),
            (Some(Bet), Some(Bet), None) | (Some(Pass), Some(Bet), Some(Bet)) => Some(End::Showdown { stake: 2 }),
            (Some(Bet), Some(Pass), None) => Some(End::Fold { folder: Side::Second }),
            (Some(Pass), Some(Bet), Some(Pass)) => Some(End::Fold { folder: Side::First }),
            _ => None,
        }
    }

    pub fn is_over(&self) -> bool {
        self.end().is_some()
    }

    /// B1: the side to decide — the sides alternate, `first` opening — or None once it is over.
    pub fn to_move(&self) -> Option<Side> {
        if self.is_over() {
            return None;
        }
        Some(if self.history.len().is_multiple_of(2) { Side::First } else { Side::Second })
    }

    pub fn phase(&self) -> Phase {
        if self.is_over() {
            Phase::GameOver
        } else {
            Phase::Betting
        }
    }

    /// K2, B1: the chips in the pot: the two antes and one for every `bet`.
    pub fn pot(&self) -> u8 {
        2 + self.history.moves().filter(|&m| m == Move::Bet).count() as u8
    }

    /// S1, B3: the side that takes the pot, once the hand is over.
    pub fn winner(&self) -> Option<Side> {
        Some(match self.end()? {
            End::Showdown { .. } => {
                if self.cards[0] > self.cards[1] {
                    Side::First
                } else {
                    Side::Second
                }
            }
            End::Fold { folder } => folder.other(),
        })
    }

    /// P1: `side`'s payoff in chips once the hand is over: the winner gains what the loser put in
    /// (±1 or ±2).
    pub fn payoff(&self, side: Side) -> Option<i8> {
        let won = match self.end()? {
            End::Showdown { stake } => stake,
            End::Fold { .. } => 1,
        };
        Some(if self.winner()? == side { won } else { -won })
    }
}
