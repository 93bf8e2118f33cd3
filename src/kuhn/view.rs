//! `state_dict()`: the whole hand (nothing hidden) as plain JSON, for the Python layer.

use super::ids::{Move, Side};
use super::state::State;
use serde_json::{json, Value};

pub fn state_dict(s: &State) -> Value {
    let per_side = |f: &dyn Fn(Side) -> Value| json!({"first": f(Side::First), "second": f(Side::Second)});
    json!({
        "cards": per_side(&|side| json!(s.card(side).as_str())),
        "history": s.history.moves().map(Move::as_str).collect::<Vec<_>>(),
        "pot": s.pot(),
        "phase": s.phase().as_str(),
        "to_move": s.to_move().map(Side::as_str),
        "winner": s.winner().map(Side::as_str),
        // Every game's state_dict says how it ended under this key (the shared play, playthrough,
        // replay and web layers read it): the winning side, None while the hand is on.
        "outcome": s.winner().map(Side::as_str),
        "payoff": if s.is_over() { per_side(&|side| json!(s.payoff(side))) } else { Value::Null },
    })
}
