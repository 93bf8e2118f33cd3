//! API `state_dict()`: a plain view of the full state (nothing hidden), in the API's key names.

use super::cards::Card;
use super::ids::{Phase, Side, MAX_UNITS};
use super::rules::activation::DELAY;
use super::rules::charge::procedure::king_candidates;
use super::rules::cinc::displace_targets;
use super::rules::fire::volley::aim_options;
use super::rules::movement::allowance;
use super::state::{Mode, Pending, State};
use super::terrain::TerrainMap;
use serde_json::{json, Map, Value};

fn ids(bits: u16) -> Vec<u8> {
    (0..MAX_UNITS as u8).filter(|i| bits >> i & 1 == 1).collect()
}

fn cards(v: &[Card]) -> Vec<&'static str> {
    v.iter().map(|c| c.as_str()).collect()
}

fn per_side(f: impl Fn(Side) -> Value) -> Value {
    let mut m = Map::new();
    for side in Side::ALL {
        m.insert(side.as_str().into(), f(*side));
    }
    Value::Object(m)
}

fn xy(c: super::grid::Cell) -> Value {
    json!([c.x, c.y])
}

/// The state as the API's `state_dict`.
pub fn state_dict(s: &State) -> Value {
    let r = &s.round;
    let terrain = TerrainMap::from(&*s.terrain);
    let units = per_side(|side| {
        Value::Array(
            s.army(side)
                .units
                .iter()
                .filter(|u| u.present)
                .map(|u| {
                    json!({
                        "id": u.id, "type": u.kind.as_str(), "formation": u.formation.as_str(),
                        "facing": u.facing.as_str(), "x": u.at.x, "y": u.at.y,
                        "cells": u.cells().iter().map(|&c| xy(c)).collect::<Vec<_>>(),
                        "disr": u.disr, "smoke": u.smoke, "fired": u.fired, "on_table": u.on_table,
                    })
                })
                .collect(),
        )
    });
    let moving = r.moving.as_ref().map(|mv| {
        let u = s.unit(s.active, mv.id);
        let limit = if u.kind == super::ids::UnitType::Art {
            allowance::basic(u) + allowance::march_modifier(s)
        } else {
            allowance::allowance(s, u, mv.near, mv.mode)
        };
        json!({
            "id": mv.id, "spent": mv.spent, "allowance": limit,
            "mode": mv.mode.map(|m| if m == Mode::Forward { "forward" } else { "retrograde" }),
            "near": mv.near, "difficult": mv.difficult, "about_faced": mv.about_faced, "formed": mv.formed,
            "over": mv.over, "interpenetrated": ids(mv.interpenetrated),
            "passed": mv.passed.iter().map(|&c| xy(c)).collect::<Vec<_>>(),
            "start": {"formation": mv.start.formation.as_str(), "facing": mv.start.facing.as_str(),
                      "x": mv.start.at.x, "y": mv.start.at.y},
        })
    });
    let engaged = per_side(|side| {
        let mut m = Map::new();
        for (id, &b) in r.engaged[side.idx()].iter().enumerate() {
            if b != 0 {
                m.insert(id.to_string(), json!(ids(b)));
            }
        }
        Value::Object(m)
    });
    let scores = per_side(|side| {
        let mut m = Map::new();
        for (id, sc) in r.scores[side.idx()].iter().enumerate() {
            if let Some(v) = sc {
                m.insert(id.to_string(), json!(v));
            }
        }
        Value::Object(m)
    });
    let pending = match (&s.pending, s.phase) {
        (_, Phase::Aim) => aim_options(s).map(|(a, left, right)| {
            json!({"kind": "aim", "unit": r.fire.as_ref().and_then(|f| f.unit), "base": a,
                   "left": xy(left.target), "right": xy(right.target)})
        }),
        (Pending::Displace { side, .. }, Phase::Displace) => Some(json!({"kind": "displace", "side": side.as_str(),
            "cells": displace_targets(s, *side).into_iter().map(xy).collect::<Vec<_>>()})),
        (Pending::HandLimit { side, count }, Phase::HandLimit) => {
            Some(json!({"kind": "hand_limit", "side": side.as_str(), "count": count}))
        }
        (Pending::Penalty { side }, Phase::PenaltyDiscard) => Some(json!({"kind": "penalty", "side": side.as_str()})),
        (_, Phase::KingTarget) => s.to_move.map(|side| json!({"kind": "king_target", "side": side.as_str(),
            "unit": king_candidates(s, side)})),
        _ => None,
    };
    let distance = r.distance.map(|d| d + if r.delayed { DELAY } else { 0 });
    json!({
        "phase": s.phase.as_str(),
        "to_move": s.to_move.map(|x| x.as_str()),
        "round": s.round_no,
        "active": s.active.as_str(),
        "scenario": s.scenario.as_str(),
        "terrain": {"rows": terrain.rows, "hills": terrain.hills,
                    "walls": terrain.walls.iter().map(|(x, y, side)| json!([x, y, side])).collect::<Vec<_>>()},
        "units": units,
        "cinc": per_side(|side| xy(s.army(side).cinc)),
        "morale": per_side(|side| json!({"left": s.army(side).morale, "start": s.army(side).morale_start})),
        "hands": per_side(|side| json!(cards(&s.army(side).hand.cards()))),
        "drawn_this_round": per_side(|side| json!(cards(&s.army(side).drawn.cards()))),
        "deck": cards(&s.deck),
        "discard": cards(&s.discard),
        "removed": cards(&s.removed),
        "round_state": {
            "volley": r.volley,
            "first_shooter": r.first_shooter.map(|x| x.as_str()),
            "command": r.command.map(|c| c.as_str()),
            "interrupt": r.interrupt.map(|c| c.as_str()),
            "modifiers": per_side(|side| json!({
                "volley": r.modifiers[side.idx()][0].map(|c| c.as_str()),
                "action": r.modifiers[side.idx()][1].map(|c| c.as_str()),
            })),
            "force": ids(r.force),
            "distance": distance,
            "span_played": cards(&r.span_played),
            "delayed": r.delayed,
            "activated": r.activated,
            "rough_going": r.rough_going,
            "done": ids(r.done),
            "charged": ids(r.charged),
            "moving": moving,
            "engaged": engaged,
            "scores": scores,
            "displaced": per_side(|side| json!(s.army(side).displaced)),
        },
        "night_pass_last_round": s.night_pass_last_round,
        "pending": pending,
        "dice_log": s.dice.log.iter().map(|roll| json!({"event": roll.event.as_str(), "dice": roll.dice})).collect::<Vec<_>>(),
        "outcome": s.outcome.map(|o| o.as_str()),
    })
}
