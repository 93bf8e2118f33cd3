//! Saved states (versioned JSON, exact round trip), their validation, and the plain `state_dict`
//! view of API.md.

use crate::error::{Error, Result};
use crate::maquis::board::{bit, LocSet, FIELDS, PATROL_LOCATIONS, SLOTS, SPARE_ROOMS};
use crate::maquis::config::{final_day, passes, starting_workers, tile_in_pool};
use crate::maquis::deck::{NUM_CARDS, PATROL_CARDS};
use crate::maquis::ids::*;
use crate::maquis::missions::double_agent::VISIT_LOCATIONS;
use crate::maquis::missions::info;
use crate::maquis::missions::officers_mansion::GRAFFITI_LOCATIONS;
use crate::maquis::missions::pool;
use crate::maquis::rules::mole_in_place;
use crate::maquis::rules::routes::closed_roads;
use crate::maquis::state::State;
use crate::maquis::state::Tier;
use crate::maquis::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS, MIN_PATROLS};
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
    /// An environment's streams (`save_state` of an env): read by the env, ignored here.
    #[serde(default)]
    #[allow(dead_code)]
    env_streams: Option<serde::de::IgnoredAny>,
}

pub fn save(s: &State) -> String {
    serde_json::to_string(&SavedRef { format: FORMAT, version: VERSION, state: s }).expect("a State always serializes")
}

/// Reads a saved state; anything malformed or inconsistent is an `Error::BadSave`.
pub fn load(json: &str) -> Result<State> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| Error::BadSave(e.to_string()))?;
    crate::versioned::check_streams(&value, "")?;
    let saved: Saved = serde_json::from_value(value).map_err(|e| Error::BadSave(e.to_string()))?;
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
    // A stream past this cannot be saved again.
    if s.rng.get_word_pos() > crate::versioned::MAX_WORD_POS as u128 {
        return Err(bad(format!("rng.word_pos: {} is past {}", s.rng.get_word_pos(), crate::versioned::MAX_WORD_POS)));
    }
    // First: the checks below read the deck.
    if !s.deck.is_complete() {
        return Err(bad("deck: the patrol deck and discard must hold cards 0-9 once each".into()));
    }
    if s.tracks.morale > MAX_MORALE || s.tracks.soldiers > MAX_SOLDIERS {
        return Err(bad(format!("morale {} / soldiers {} out of range", s.tracks.morale, s.tracks.soldiers)));
    }
    // T1, D1, E2: the pass within the level's passes; a live game stands before its final space
    // (Very Easy's first pass before END), a finished one at most on END.
    if !(1..=passes(s.difficulty)).contains(&s.pass) {
        return Err(bad(format!(
            "pass: {} is out of range for {} (1..={})",
            s.pass,
            s.difficulty,
            passes(s.difficulty)
        )));
    }
    let last_live_day = if s.pass == passes(s.difficulty) { final_day(s.difficulty) - 1 } else { END_DAY - 1 };
    let last_day = if s.phase == Phase::GameOver { END_DAY } else { last_live_day };
    if s.day > last_day {
        return Err(bad(format!(
            "day: {} is past the last day {last_day} of {} in pass {} ({})",
            s.day, s.difficulty, s.pass, s.phase
        )));
    }
    let (home0, recruitable0) = starting_workers(s.difficulty);
    if s.level_workers != home0 + recruitable0 {
        return Err(bad(format!(
            "level_workers: {} but {} has {}",
            s.level_workers,
            s.difficulty,
            home0 + recruitable0
        )));
    }
    validate_missions(s)?;
    validate_day(s)?;
    validate_marks(s)?;
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
    let total =
        s.home as u32 + s.placed_workers() as u32 + s.stuck_workers() as u32 + s.recruitable as u32 + s.gone as u32;
    if total != s.level_workers as u32 || !(4..=5).contains(&s.level_workers) {
        return Err(bad(format!("{total} workers counted, the level has {}", s.level_workers)));
    }
    if s.phase != Phase::GameOver && s.patrol_set().count_ones() > s.patrols_drawn as u32 {
        return Err(bad(format!(
            "patrols_drawn: {} but {} patrols stand on the board",
            s.patrols_drawn,
            s.patrol_set().count_ones()
        )));
    }
    if (s.phase == Phase::PostAction) != s.today.pending.is_some() && s.phase != Phase::GameOver {
        return Err(bad("a pending activation exists exactly in phase post_action".into()));
    }
    if let Some(p) = s.today.pending {
        if s.pawns[p.loc.idx()] != Pawn::Worker {
            return Err(bad(format!("pending activation on {} where no worker stands", p.loc)));
        }
        if p.with_mole && s.mission_slot(MissionId::Infiltration).is_none_or(|i| SLOTS[i] != p.loc) {
            return Err(bad(format!(
                "pending.with_mole: the mole leaves {} but the Infiltration card is not there",
                p.loc
            )));
        }
        if let Some(r) = p.reward {
            if r.airdrop_field.is_some_and(|f| !FIELDS.contains(&f)) {
                return Err(bad("pending.reward.airdrop_field: not a field".into()));
            }
            if r.mission_box.is_some_and(|slot| slot as usize >= SLOTS.len()) {
                return Err(bad("pending.reward.mission_box: not a mission slot (0 or 1)".into()));
            }
            if r.morale.unsigned_abs() > MAX_MORALE {
                return Err(bad(format!("pending.reward.morale: {} is out of range", r.morale)));
            }
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

/// M0, M-tier, D2: the dealt missions belong to the pool and their boxes, completion, failure
/// and tier agree.
fn validate_missions(s: &State) -> Result<()> {
    for (slot, m) in s.missions.iter().enumerate() {
        let at = |field: &str, why: String| bad(format!("missions[{slot}].{field}: {why} ({})", m.id));
        if !pool(s.mission_pool).contains(&m.id) {
            return Err(at("id", format!("not in the {} pool", s.mission_pool)));
        }
        if m.boxes_done > m.boxes() {
            return Err(at("boxes_done", format!("{} but the card has {} boxes", m.boxes_done, m.boxes())));
        }
        if m.complete && m.failed {
            return Err(at("failed", "a mission cannot be both complete and failed".into()));
        }
        if m.complete != m.tier.is_some() {
            return Err(at("tier", format!("{:?} but complete is {}", m.tier, m.complete)));
        }
        // Destroy AA Guns completes at its third gun and is major at its fifth; every other
        // mission completes with its last box.
        let (complete_at, major_at) = if m.id == MissionId::DestroyAaGuns { (3, Some(5)) } else { (m.boxes(), None) };
        if m.complete != (m.boxes_done >= complete_at) {
            return Err(at("complete", format!("{} with {} of {} boxes done", m.complete, m.boxes_done, complete_at)));
        }
        if let Some(major) = major_at {
            if m.boxes_done >= complete_at && !m.complete {
                return Err(at("complete", format!("false with {} boxes done", m.boxes_done)));
            }
            if (m.tier == Some(Tier::Major)) != (m.boxes_done >= major) {
                return Err(at("tier", format!("{:?} with {} boxes done", m.tier, m.boxes_done)));
            }
        }
        if let Some(d) = m.last_box_day {
            if m.boxes_done == 0 || d > s.abs_day() {
                return Err(at("last_box_day", format!("{d} with {} boxes done on day {}", m.boxes_done, s.abs_day())));
            }
        }
    }
    if s.missions[0].id == s.missions[1].id {
        return Err(bad("missions: the two missions must differ".into()));
    }
    Ok(())
}

/// F2–F4, P4, M-infiltration: the day's patrol counts, the phase-dependent fields and the peek.
fn validate_day(s: &State) -> Result<()> {
    if s.phase == Phase::GameOver {
        // The game may end in the middle of any phase; only the ranges still matter.
        if s.patrols_drawn > 5 || s.patrols_today > 5 {
            return Err(bad(format!(
                "patrols_today {} / patrols_drawn {} out of range",
                s.patrols_today, s.patrols_drawn
            )));
        }
    } else {
        // F2: n = max(available workers, minimum for the morale) was at least 2 and at most 5.
        if !(MIN_PATROLS[MAX_MORALE as usize]..=5).contains(&s.patrols_today) {
            return Err(bad(format!("patrols_today: {} is not a possible F2 count (2..=5)", s.patrols_today)));
        }
        if s.patrols_drawn > s.patrols_today {
            return Err(bad(format!(
                "patrols_drawn: {} but only {} patrols come out today",
                s.patrols_drawn, s.patrols_today
            )));
        }
        // F3: the action phase starts once every patrol of the day is out.
        if s.phase != Phase::Placement && s.patrols_drawn != s.patrols_today {
            return Err(bad(format!(
                "patrols_drawn: {} of {} in phase {}, where every patrol is out",
                s.patrols_drawn, s.patrols_today, s.phase
            )));
        }
        // F2: before the first placement of a day the count is the rule's, from what it reads.
        let f2 = s.home.max(MIN_PATROLS[s.tracks.morale as usize]);
        if s.phase == Phase::Placement && s.patrols_drawn == 0 && s.patrols_today != f2 {
            return Err(bad(format!(
                "patrols_today: {} but F2 gives {f2} (home {}, morale {})",
                s.patrols_today, s.home, s.tracks.morale
            )));
        }
        // F3: in placement, a patrol follows each worker placed; all come out once no worker is home.
        if s.phase == Phase::Placement && s.home == 0 {
            return Err(bad("home: 0 in phase placement, which ends when every worker is placed".into()));
        }
    }
    if let Some(c) = s.today.peek {
        if c as usize >= NUM_CARDS {
            return Err(bad(format!("peek: card {c} does not exist (0..={})", NUM_CARDS - 1)));
        }
        if s.mission_slot(MissionId::Infiltration).is_none() {
            return Err(bad("peek: a card is peeked but Infiltration is not dealt".into()));
        }
    }
    // M-infiltration: before the first patrol of a day, the peek is the top card exactly when the
    // mole is on the card.
    if s.phase == Phase::Placement && s.patrols_drawn == 0 {
        let top = s.deck.deck().first().copied();
        let want = if mole_in_place(s) { top } else { None };
        if s.today.peek != want || (mole_in_place(s) && top.is_none()) {
            return Err(bad(format!("peek: {:?} but the top card with the mole in place is {:?}", s.today.peek, want)));
        }
    }
    if s.phase == Phase::Placement && s.today.shot_today {
        return Err(bad("shot_today: true in phase placement (shots are taken in the action phase)".into()));
    }
    Ok(())
}

/// B1, A5, mission markers: every set names real locations, and the markers of a mission lie
/// only where that mission is dealt.
fn validate_marks(s: &State) -> Result<()> {
    let all: LocSet = (1 << NUM_LOCATIONS) - 1;
    let m = &s.marks;
    for (name, set) in [
        ("fake_ids", m.fake_ids),
        ("stuck", m.stuck),
        ("tagged", m.tagged),
        ("visited", m.visited),
        ("aa_guns", m.aa_guns),
    ] {
        if set & !all != 0 {
            return Err(bad(format!("{name}: bits {:#x} name no location", set & !all)));
        }
    }
    if m.bridges_chosen > 3 || m.bridges_destroyed > 3 {
        return Err(bad(format!(
            "bridges_chosen {} / bridges_destroyed {}: two bridges (bits 0 and 1)",
            m.bridges_chosen, m.bridges_destroyed
        )));
    }
    let dealt = |id| s.mission_slot(id).is_some();
    let markers = [
        ("aa_guns", m.aa_guns != 0, MissionId::DestroyAaGuns),
        ("tagged", m.tagged != 0, MissionId::OfficersMansion),
        ("visited", m.visited != 0, MissionId::DoubleAgent),
        ("dark_lady", m.dark_lady.is_some(), MissionId::DoubleAgent),
        ("bridges_chosen", m.bridges_chosen != 0, MissionId::TakeOutTheBridges),
        ("bridges_destroyed", m.bridges_destroyed != 0, MissionId::TakeOutTheBridges),
    ];
    for (name, present, id) in markers {
        if present && !dealt(id) {
            return Err(bad(format!("{name}: set but {id} is not dealt")));
        }
    }
    // M-infiltration, M-coded_messages: a worker is stuck on the card from its first box until
    // it goes home (Infiltration: with the worker of `extract`, pending; Coded Messages: at the
    // end of day 10, with the second box).
    let with_mole = s.today.pending.is_some_and(|p| p.with_mole);
    for (slot, &l) in SLOTS.iter().enumerate() {
        let ms = &s.missions[slot];
        let expected = match ms.id {
            MissionId::Infiltration => ms.boxes_done == 1 || (ms.boxes_done == 2 && with_mole),
            MissionId::CodedMessages => ms.boxes_done == 1,
            _ => false,
        };
        if (m.stuck & bit(l) != 0) != expected {
            return Err(bad(format!(
                "stuck: {} on {l}, but {} with {} boxes done {}",
                if expected { "no worker is stuck" } else { "a worker is stuck" },
                ms.id,
                ms.boxes_done,
                if expected { "holds one" } else { "holds none" }
            )));
        }
        if ms.id == MissionId::Infiltration && with_mole && ms.boxes_done != 2 {
            return Err(bad(format!("pending.with_mole: the mole leaves {} with {} boxes done", ms.id, ms.boxes_done)));
        }
    }
    // M-officers_mansion, M-double_agent, M-take_out_the_bridges: their boxes are the markers
    // on the board (and the last box, for the first two).
    let progress = [
        (MissionId::OfficersMansion, "tagged", m.tagged & !GRAFFITI_LOCATIONS == 0, m.tagged.count_ones()),
        (MissionId::DoubleAgent, "visited", m.visited & !VISIT_LOCATIONS == 0, m.visited.count_ones()),
        (
            MissionId::TakeOutTheBridges,
            "bridges_destroyed",
            m.bridges_chosen & m.bridges_destroyed == 0,
            m.bridges_destroyed.count_ones(),
        ),
    ];
    for (id, name, places_ok, marked) in progress {
        if let Some(slot) = s.mission_slot(id) {
            let ms = &s.missions[slot];
            let last = u32::from(ms.complete && id != MissionId::TakeOutTheBridges);
            // A bridge destroyed by other means (the rule tests' positions) counts no box, but a
            // box without its bridge would let a third box be done.
            let consistent = if id == MissionId::TakeOutTheBridges {
                ms.boxes_done as u32 <= marked
            } else {
                marked + last == ms.boxes_done as u32
            };
            if !places_ok || !consistent {
                return Err(bad(format!("{name}: {marked} marked where {id} has {} boxes done", ms.boxes_done)));
            }
        }
    }
    if let Some(slot) = s.mission_slot(MissionId::DoubleAgent) {
        // The sixth visit reveals the Dark Lady at the first location of a patrol card.
        let revealed = m.visited == VISIT_LOCATIONS;
        if m.dark_lady.is_some() != revealed || m.dark_lady.is_some_and(|l| !PATROL_CARDS.iter().any(|c| c[0] == l)) {
            return Err(bad(format!(
                "dark_lady: {:?} with {} of 6 visits ({})",
                m.dark_lady,
                m.visited.count_ones(),
                s.missions[slot].id
            )));
        }
    }
    // M-destroy_aa_guns: five guns at setup (the fields, rue_baradat, black_market, the card);
    // each destroyed one is a box.
    if let Some(slot) = s.mission_slot(MissionId::DestroyAaGuns) {
        let guns = bit(Location::FieldW)
            | bit(Location::FieldE)
            | bit(Location::RueBaradat)
            | bit(Location::BlackMarket)
            | bit(SLOTS[slot]);
        if m.aa_guns & !guns != 0 || m.aa_guns.count_ones() + s.missions[slot].boxes_done as u32 != 5 {
            return Err(bad(format!(
                "aa_guns: {} guns stand and {} are destroyed, of the five at their setup places",
                m.aa_guns.count_ones(),
                s.missions[slot].boxes_done
            )));
        }
    }
    for (i, t) in m.tiles.iter().enumerate() {
        if let Some(t) = t {
            if !tile_in_pool(s.mission_pool, *t) {
                return Err(bad(format!("tiles[{i}]: {t} is not in the {} pool", s.mission_pool)));
            }
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
