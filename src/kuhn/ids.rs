//! Identifiers of docs/rules/kuhn.md (K1, B1, O1) as `#[repr(u8)]` enums: `as_str()` is the rule
//! id, `parse()` its inverse, `ALL` the order of observations and action indices.

// `Result` stays unimported: `id_enum!` spells out the two-argument one.
use crate::error::{self, Error};
use crate::id_enum::id_enum;

id_enum!(
    /// K1. The three cards, lowest first: J < Q < K.
    Card, "card", [Jack = "J", Queen = "Q", King = "K"]);

id_enum!(
    /// K3. The two seats: `first` opens the betting, `second` answers.
    Side, "side", [First = "first", Second = "second"]);

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// The side with this id, or an error that lists the sides.
    pub fn from_id(id: &str) -> error::Result<Side> {
        Side::parse(id).map_err(|_| Error::BadOption(format!("side must be 'first' or 'second', got '{id}'")))
    }
}

id_enum!(
    /// B1. The two actions, with OpenSpiel's indices: 0 `pass` (check or fold), 1 `bet` (bet or
    /// call).
    Move, "action", [Pass = "pass", Bet = "bet"]);

id_enum!(
    /// Whether a decision is pending (`betting`) or the hand is over.
    Phase, "phase", [Betting = "betting", GameOver = "game_over"]);

/// B1. The action space: `pass` and `bet`.
pub const NUM_ACTIONS: usize = Move::COUNT;

/// The legal actions of a state, 2 bits.
pub type Mask = crate::bitmask::BitMask<1, NUM_ACTIONS>;

/// The move at `index`, or an error for an index outside 0..2.
pub fn decode(index: i64) -> error::Result<Move> {
    usize::try_from(index)
        .ok()
        .and_then(Move::from_idx)
        .ok_or(Error::ActionOutOfRange { action: index, num_actions: NUM_ACTIONS })
}

/// `ACTION_NAMES`, in index order.
pub const ACTION_NAMES: [&str; NUM_ACTIONS] = [Move::Pass.as_str(), Move::Bet.as_str()];

/// The index of an action name (`pass`, `bet`).
pub fn action_from_str(name: &str) -> error::Result<usize> {
    Move::parse(name).map(Move::idx)
}
