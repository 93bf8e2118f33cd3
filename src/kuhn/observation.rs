//! O1: what a side sees, 13 values, every one a flag: its seat, its own card, the side to move and
//! the moves so far. The other card is never in it, not even after a showdown (the payoff says who
//! held the higher card). The layout is recorded by the code that writes the slices, so the two
//! cannot drift apart.

use super::ids::{Card, Move, Side};
use super::state::{History, State, MAX_MOVES};
use crate::obs_value::{one_hot, Divisor, ObsValue, SliceWriter as Writer};
pub use crate::obs_value::Layout;
use std::sync::OnceLock;

pub const OBSERVATION_SIZE: usize = Side::COUNT + Card::COUNT + Side::COUNT + MAX_MOVES * Move::COUNT;

// Offsets of the slices `write` lays out, for reading an observation back (`own_card`, `history`).
const CARD: usize = Side::COUNT;
const HISTORY: usize = CARD + Card::COUNT + Side::COUNT;

fn write<T: ObsValue>(s: &State, me: Side, w: &mut Writer<T>) {
    one_hot(w.slice("self", Side::COUNT), me.idx());
    one_hot(w.slice("card", Card::COUNT), s.card(me).idx());
    let to_move = w.slice("to_move", Side::COUNT);
    if let Some(side) = s.to_move() {
        one_hot(to_move, side.idx());
    }
    let history = w.slice("history", MAX_MOVES * Move::COUNT);
    for (k, m) in s.history.moves().enumerate() {
        history[k * Move::COUNT + m.idx()] = T::ON;
    }
    debug_assert_eq!(w.pos, OBSERVATION_SIZE);
}

/// Writes `side`'s observation of `s` into `out` (length ≥ `OBSERVATION_SIZE`) as `T` (`f32`, or
/// `u8`: the same flags as bytes).
pub fn write_observation_as<T: ObsValue>(s: &State, side: Side, out: &mut [T]) {
    write(s, side, &mut Writer::new(out, None));
}

/// `side`'s observation of `s`, as floats.
pub fn observation(s: &State, side: Side) -> [f32; OBSERVATION_SIZE] {
    let mut out = [0.0; OBSERVATION_SIZE];
    write_observation_as(s, side, &mut out);
    out
}

/// The layout and the divisors, recorded by the encoder itself from any hand.
fn tables() -> &'static (Layout, [u8; OBSERVATION_SIZE]) {
    static TABLES: OnceLock<(Layout, [u8; OBSERVATION_SIZE])> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (mut layout, mut divisors) = (Layout::new(), [Divisor(u8::MAX); OBSERVATION_SIZE]);
        write(&State::dealt([Card::Jack, Card::Queen]), Side::First, &mut Writer::new(&mut divisors, Some(&mut layout)));
        (layout, divisors.map(|d| d.0))
    })
}

/// `OBSERVATION_LAYOUT`: (name, offset, length) of each slice.
pub fn observation_layout() -> &'static Layout {
    &tables().0
}

/// What each `u8` value is divided by to give the `f32` one: 1 everywhere (every value is a flag).
pub fn observation_divisors() -> &'static [u8; OBSERVATION_SIZE] {
    &tables().1
}

/// The observer's own card, read back from an observation (None: no card flag set).
pub fn own_card(obs: &[f32]) -> Option<Card> {
    (0..Card::COUNT).find(|&i| obs.get(CARD + i) == Some(&1.0)).and_then(Card::from_idx)
}

/// The moves so far, read back from an observation (None: not a history the encoder writes).
pub fn history(obs: &[f32]) -> Option<History> {
    let slots = obs.get(HISTORY..HISTORY + MAX_MOVES * Move::COUNT)?;
    let mut moves = Vec::with_capacity(MAX_MOVES);
    for slot in slots.chunks(Move::COUNT) {
        match Move::ALL.iter().position(|m| slot[m.idx()] == 1.0) {
            Some(i) if slot.iter().filter(|&&x| x != 0.0).count() == 1 => moves.push(Move::ALL[i]),
            None if slot.iter().all(|&x| x == 0.0) => break,
            _ => return None,
        }
    }
    History::try_from(moves).ok()
}
