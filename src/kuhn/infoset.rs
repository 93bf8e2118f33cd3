//! The 12 information sets of Kuhn poker: what the side to decide knows — its card and the moves
//! so far — at each of the four points where a decision is taken (`first` opening, `second` after
//! a pass or a bet, `first` after pass–bet). Behaviour strategies (`solve`) and the heuristic
//! agent index them as `card × 4 + node`, named as OpenSpiel's strings with the card's letter:
//! `J`, `Jp`, `Jb`, `Jpb`, `Q`, … `Kpb`.

use super::ids::{Card, Move, Side};
use super::state::{History, State};

/// The moves before each decision point, in node order.
pub const NODES: [&[Move]; 4] = [&[], &[Move::Pass], &[Move::Bet], &[Move::Pass, Move::Bet]];
/// The side deciding at each node.
pub const NODE_SIDE: [Side; 4] = [Side::First, Side::Second, Side::Second, Side::First];
pub const NUM_INFOSETS: usize = Card::COUNT * NODES.len();

/// The names of the information sets, in index order.
pub const INFOSET_NAMES: [&str; NUM_INFOSETS] =
    ["J", "Jp", "Jb", "Jpb", "Q", "Qp", "Qb", "Qpb", "K", "Kp", "Kb", "Kpb"];

/// The index of the information set of `card` at `node`.
pub const fn index(card: Card, node: usize) -> usize {
    card.idx() * NODES.len() + node
}

/// The node of the moves of `h` (None: not a decision point).
pub fn node_of(h: &History) -> Option<usize> {
    NODES.iter().position(|n| n.len() == h.len() && n.iter().zip(h.moves()).all(|(&a, b)| a == b))
}

/// The information set of the side to move in `s` (None once the hand is over).
pub fn of_state(s: &State) -> Option<usize> {
    let side = s.to_move()?;
    Some(index(s.card(side), node_of(&s.history)?))
}

/// The index of an information set's name (`"Qpb"`).
pub fn from_name(name: &str) -> Option<usize> {
    INFOSET_NAMES.iter().position(|&n| n == name)
}
