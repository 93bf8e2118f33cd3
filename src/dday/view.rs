//! `state_dict()` of API.md: the full state (nothing hidden) as plain JSON, with exactly the keys
//! of API.md's "State, saving, seeding, rendering", for the Python layer to hand over as it is.

use super::allocation::{items_by_zone, zone_value};
use super::ids::{Phase, Pool, Side, Zone};
use super::skirmish::task::faces;
use super::state::{Pending, Record, State};
use serde_json::{json, Map, Value};

fn task_json(task: [u8; 2]) -> Value {
    json!({
        "resistance": faces(task[0]).collect::<Vec<_>>(),
        "german": faces(task[1]).collect::<Vec<_>>(),
    })
}

fn record_json(r: &Record) -> Value {
    json!({
        "zone": r.zone.as_str(),
        "completed": r.completed.map(Side::as_str),
        "task": task_json(r.task),
        "resistance": {"size": r.resistance_size, "killed": r.resistance_killed,
                       "ran_away": r.resistance_ran_away, "evacuated": r.resistance_evacuated},
        "german": {"figures": r.german_figures, "killed": r.german_killed,
                   "ran_away": r.german_ran_away, "evacuated": r.german_evacuated},
    })
}

fn pending_json(s: &State) -> Value {
    let zone = |slot: u8| s.played_zone(slot).map(Zone::as_str);
    match s.pending {
        None => Value::Null,
        Some(Pending::GroupSize { die }) => json!({"kind": "group_size", "dice": [die]}),
        Some(Pending::ActionPoints { dice }) => json!({"kind": "action_points", "dice": dice}),
        Some(Pending::Clock { die }) => json!({"kind": "clock", "dice": [die]}),
        Some(Pending::Vp { slot, line, n, dice }) => json!({
            "kind": "vp", "dice": &dice[..n as usize], "line": line.as_str(), "zone": zone(slot),
        }),
        Some(Pending::Hit { from, to }) => json!({"kind": "hit", "from": from, "to": to}),
        Some(Pending::Flee { section, remaining }) => {
            json!({"kind": "flee", "section": section, "remaining": remaining})
        }
    }
}

fn skirmish_json(s: &State) -> Value {
    // In `scoring` the last skirmish is shown as it ended, holding the pending VP roll: API.md
    // puts `pending` inside `skirmish` and has no other place for it.
    if !s.in_skirmish() && s.phase != Phase::Scoring {
        return Value::Null;
    }
    let sk = &s.skirmish;
    let mut pools = Map::new();
    for &p in Pool::ALL {
        if sk.pools_rolled[p.idx()] {
            pools.insert(p.as_str().into(), json!(sk.pools[p.idx()]));
        }
    }
    let figures: Vec<Value> = sk
        .figures()
        .iter()
        .enumerate()
        .map(|(id, f)| {
            json!({
                "id": id, "side": f.side().as_str(), "unit": f.unit.as_str(), "section": f.section,
                "state": f.state.as_str(), "fresh": f.fresh, "moves": f.moves, "shots": f.shots,
                "cover_changed": f.cover_changed,
            })
        })
        .collect();
    json!({
        "zone": sk.zone.as_str(),
        "clock": sk.clock,
        "task_section": sk.task_section,
        "turn": sk.turn.as_str(),
        "turn_number": sk.turn_number,
        "task": task_json(sk.task),
        "task_rolled": sk.task_rolled,
        "pools": pools,
        "acting": sk.acting,
        "figures": figures,
        "pending": pending_json(s),
    })
}

/// The plain view of the full state.
pub fn state_dict(s: &State) -> Value {
    let c = s.contents();
    let by_zone = items_by_zone(&c);
    let mut allocation = Map::new();
    let mut values = Map::new();
    for &z in Zone::ALL {
        let items: Vec<&str> = by_zone[z.idx()].iter().map(|k| k.as_str()).collect();
        allocation.insert(z.as_str().into(), json!(items));
        values.insert(z.as_str().into(), json!(zone_value(&c[z.idx()])));
    }
    let log: Vec<Value> = s
        .interrogation
        .guesses()
        .map(|g| json!({"zone": g.zone.as_str(), "value": g.value, "answer": g.answer.as_str()}))
        .collect();
    let closed: Vec<&str> = s.interrogation.closed().map(Zone::as_str).collect();
    let lines: Vec<Value> =
        s.vp.lines()
            .map(|l| {
                json!({
                    "zone": s.played_zone(l.slot).map(Zone::as_str), "side": l.line.side().as_str(),
                    "line": l.line.as_str(), "points": l.points,
                    "dice": (l.n_dice > 0).then(|| l.dice[..l.n_dice as usize].to_vec()),
                    "rerolled": l.rerolled,
                })
            })
            .collect();
    let dice_log: Vec<Value> =
        s.dice.log.iter().map(|r| json!({"event": r.event.as_str(), "dice": r.dice()})).collect();
    json!({
        "phase": s.phase.as_str(),
        "to_move": s.to_move().map(Side::as_str),
        "allocation": allocation,
        "zone_values": values,
        "interrogation": {
            "log": log,
            "guesses_left": s.interrogation.guesses_left,
            "closed": closed,
            "stopped": s.interrogation.stopped,
        },
        "attacked": s.attacked.map(|a| a.map(Zone::as_str)),
        "order": s.order.map(|a| a.map(Zone::as_str)),
        "skirmish_index": s.skirmish_index,
        "skirmish": skirmish_json(s),
        "records": s.records.iter().flatten().map(record_json).collect::<Vec<_>>(),
        "vp": {"resistance": s.vp.resistance, "german": s.vp.german, "lines": lines},
        "dice_log": dice_log,
        "outcome": s.outcome.map(|o| o.as_str()),
    })
}
