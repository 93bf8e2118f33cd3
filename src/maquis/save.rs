//! Saved states (versioned JSON, exact round trip), their validation, and the plain `state_dict`
//! view of API.md.

use crate::maquis::board::{bit, PATROL_LOCATIONS, SLOTS, SPARE_ROOMS};
use crate::error::{Error, Result};
use crate::maquis::ids::*;
use crate::maquis::missions::info;
use crate::maquis::rules::routes::closed_roads;
use crate::maquis::state::State;
use crate::maquis::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

pub const FORMAT: &str = "maquis-state";
/// Bumped whenever the saved layout of `State` changes.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct SavedRef<'a> {
    format: &'static str,
    version: u32,
    state: &'a State,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    format: String,
    version: u32,
    state: State,
}

pub fn save(s: &State) -> String {
    serde_json::to_string(&SavedRef { format: FORMAT, version: VERSION, state: s }).expect("a State always serializes")
}

/// Reads a saved state; anything malformed or inconsistent is an `Error::BadSave`.
pub fn load(json: &str) -> Result<State> {
    let saved: Saved = serde_json::from_str(json).map_err(|e| Error::BadSave(e.to_string()))?;
    if saved.format != FORMAT {
        return Err(Error::BadSave(format!("format is '{}', expected '{FORMAT}'", saved.format)));
    }
    if saved.version != VERSION {
        return Err(Error::BadSave(format!("version {} is not supported (this build reads {VERSION})", saved.version)));
    }
    validate(&saved.state)?;
    Ok(saved.state)
}

fn bad(msg: String) -> Error {
    Error::BadSave(msg)
}

/// The invariants every reachable state keeps (also checked by the property tests).
pub fn validate(s: &State) -> Result<()> {
    if s.tracks.morale > MAX_MORALE || s.tracks.soldiers > MAX_SOLDIERS {
        return Err(bad(format!("morale {} / soldiers {} out of range", s.tracks.morale, s.tracks.soldiers)));
    }
    if s.day > END_DAY || !(1..=2).contains(&s.pass) {
        return Err(bad(format!("day {} / pass {} out of range", s.day, s.pass)));
    }
    if s.tracks.morale == 0 && s.phase != Phase::GameOver {
        return Err(bad("morale 0 but the game is not over".into()));
    }
    if s.outcome.is_some() != (s.phase == Phase::GameOver) {
        return Err(bad("outcome and phase disagree".into()));
    }
    // T4: supply conservation.
    for r in Resource::ALL {
        let i = r.idx();
        let on_workers = if *r == Resource::FakeId { s.marks.fake_ids.count_ones() as u8 } else { 0 };
        let pending = s.today.pending.and_then(|p| p.reward).map_or(0, |rw| rw.tokens[i]);
        let total = s.tokens.supply[i] as u32
            + s.tokens.hand[i] as u32
            + s.tokens.airdrop[0][i] as u32
            + s.tokens.airdrop[1][i] as u32
            + on_workers as u32
            + pending as u32;
        if total != s.tokens_total(*r) as u32 {
            return Err(bad(format!("{r}: {total} tokens in the game, expected {}", s.tokens_total(*r))));
        }
    }
    // B5, B6: pawns where they may be.
    let patrol_ok = PATROL_LOCATIONS.iter().fold(0u32, |acc, &l| acc | bit(l));
    if s.patrol_set() & !patrol_ok != 0 {
        return Err(bad("a patrol stands outside the patrolled locations (B6)".into()));
    }
    if s.pawns[Location::SafeHouse.idx()] != Pawn::Empty {
        return Err(bad("a pawn stands on the safe house".into()));
    }
    if s.marks.fake_ids & !s.locs_with(Pawn::Worker) != 0 {
        return Err(bad("a Fake ID lies where no worker stands".into()));
    }
    if s.marks.stuck & !(bit(SLOTS[0]) | bit(SLOTS[1])) != 0 {
        return Err(bad("a stuck worker outside the mission slots".into()));
    }
    // T5: worker counts.
    let total = s.home as u32 + s.placed_workers() as u32 + s.stuck_workers() as u32 + s.recruitable as u32 + s.gone as u32;
    if total != s.level_workers as u32 || !(4..=5).contains(&s.level_workers) {
        return Err(bad(format!("{total} workers counted, the level has {}", s.level_workers)));
    }
    if s.phase != Phase::GameOver && s.patrol_set().count_ones() > s.patrols_today as u32 {
        return Err(bad("more patrols on the board than were drawn".into()));
    }
    if !s.deck.is_complete() {
        return Err(bad("the patrol deck and discard must hold cards 0-9 once each".into()));
    }
    if s.missions[0].id == s.missions[1].id {
        return Err(bad("the two missions must differ".into()));
    }
    if (s.phase == Phase::PostAction) != s.today.pending.is_some() && s.phase != Phase::GameOver {
        return Err(bad("a pending activation exists exactly in phase post_action".into()));
    }
    if let Some(p) = s.today.pending {
        if s.pawns[p.loc.idx()] != Pawn::Worker {
            return Err(bad(format!("pending activation on {} where no worker stands", p.loc)));
        }
    }
    let mut built = [false; NUM_TILES];
    for t in s.marks.tiles.iter().flatten() {
        if std::mem::replace(&mut built[t.idx()], true) {
            return Err(bad(format!("tile {t} is built twice")));
        }
    }
    Ok(())
}

fn counts(n: &[u8; NUM_RESOURCES]) -> Value {
    let mut m = Map::new();
    for r in Resource::ALL {
        m.insert(r.as_str().into(), json!(n[r.idx()]));
    }
    Value::Object(m)
}

/// The plain view of API.md `state_dict()` (plus `pass`-independent extras: `peek`, `pending`,
/// `patrols_today`, `patrols_drawn`, `bridges_destroyed`).
pub fn state_dict(s: &State) -> Value {
    let mut board = Map::new();
    for &l in Location::ALL {
        let i = l.idx();
        let airdrop = match l {
            Location::FieldW => counts(&s.tokens.airdrop[0]),
            Location::FieldE => counts(&s.tokens.airdrop[1]),
            _ => json!({}),
        };
        let tile = SPARE_ROOMS.iter().position(|&r| r == l).and_then(|k| s.marks.tiles[k]).map(|t| t.as_str());
        board.insert(
            l.as_str().into(),
            json!({
                "pawn": s.pawns[i].as_str(),
                "stuck_worker": s.marks.stuck & bit(l) != 0,
                "fake_id": s.marks.fake_ids & bit(l) != 0,
                "airdrop": airdrop,
                "aa_gun": s.marks.aa_guns & bit(l) != 0,
                "tile": tile,
                "tagged": s.marks.tagged & bit(l) != 0,
                "visited": s.marks.visited & bit(l) != 0,
            }),
        );
    }
    let missions: Vec<Value> = s
        .missions
        .iter()
        .enumerate()
        .map(|(slot, m)| {
            json!({
                "id": m.id.as_str(),
                "slot": SLOTS[slot].as_str(),
                "stars": info(m.id).stars,
                "boxes_done": m.boxes_done,
                "boxes": m.boxes(),
                "complete": m.complete,
                "failed": m.failed,
                "tier": m.tier.map(|t| t.as_str()),
            })
        })
        .collect();
    let closed = closed_roads(s);
    let closed_roads: Vec<Value> = (0..crate::maquis::board::NUM_ROADS)
        .filter(|r| closed >> r & 1 == 1)
        .map(|r| json!([crate::maquis::board::ROADS[r].0.as_str(), crate::maquis::board::ROADS[r].1.as_str()]))
        .collect();
    json!({
        "day": s.day,
        "pass": s.pass,
        "phase": s.phase.as_str(),
        "morale": s.tracks.morale,
        "soldiers": s.tracks.soldiers,
        "hand": counts(&s.tokens.hand),
        "supply": counts(&s.tokens.supply),
        "workers": {
            "available": s.home,
            "placed": s.placed_workers(),
            "stuck": s.stuck_workers(),
            "recruitable": s.recruitable,
            "gone": s.gone,
        },
        "board": board,
        "missions": missions,
        "patrol_deck": s.deck.deck(),
        "patrol_discard": s.deck.discard(),
        "shot_today": s.today.shot_today,
        "closed_roads": closed_roads,
        "dark_lady": s.marks.dark_lady.map(|l| l.as_str()),
        "outcome": s.outcome.map(|o| o.as_str()),
        "difficulty": s.difficulty.as_str(),
        "mission_pool": s.mission_pool.as_str(),
        "peek": s.today.peek,
        "pending": s.today.pending.map(|p| p.loc.as_str()),
        "patrols_today": s.patrols_today,
        "patrols_drawn": s.patrols_drawn,
        "bridges_destroyed": [s.marks.bridges_destroyed & 1 != 0, s.marks.bridges_destroyed & 2 != 0],
    })
}
