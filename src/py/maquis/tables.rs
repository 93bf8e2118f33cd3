//! The engine's rule tables for Python (`maquis._core.LOCATIONS`, `ROADS`, `PATROL_CARDS`, …), read
//! from the const tables and functions the rules themselves use, so that the renderers and the
//! command line never keep a copy of docs/rules/maquis.md. Ids are the spec's strings; sequences are tuples and
//! mappings read-only (`types.MappingProxyType`), since every importer shares them.

// The engine paths in one block: they move with the source layout, nothing below names a path.
use crate::maquis::action::Opt;
use crate::maquis::board::{bit, FIELDS, PATROL_LOCATIONS, ROADS, SAFE_LOCATIONS, SLOTS, SPARE_ROOMS, WEST_BANK};
use crate::maquis::config::{
    airdrop_amount, arrest_costs_morale, final_day, passes, starting_workers, tile_in_pool, tokens_in_game,
    triangle_morale,
};
use crate::maquis::deck::PATROL_CARDS;
use crate::maquis::ids::{Deal, Difficulty, Location, MissionId, MissionPool, Phase, Resource, Tile};
use crate::maquis::missions::{info, pool};
use crate::maquis::rules::actions::{fixer_target, tile_action};
use crate::maquis::tracks::{
    END_DAY, LAST_DAY, MAX_MORALE, MAX_SOLDIERS, MAX_WORKERS, MIN_PATROLS, ORANGE_DAYS, START_MORALE,
    TOKENS_PER_RESOURCE, TRIANGLE_DAYS,
};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Adds the tables to `_core` (called once from the module's init).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let names = |ids: &[&'static str]| PyTuple::new(py, ids.iter().copied());

    // B1–B6: the board.
    m.add("LOCATIONS", names(&Location::ALL.iter().map(|l| l.as_str()).collect::<Vec<_>>())?)?;
    m.add("SLOTS", names(&SLOTS.map(Location::as_str))?)?;
    m.add("SPARE_ROOMS", names(&SPARE_ROOMS.map(Location::as_str))?)?;
    m.add("FIELDS", names(&FIELDS.map(Location::as_str))?)?;
    m.add("PATROL_LOCATIONS", names(&PATROL_LOCATIONS.map(Location::as_str))?)?;
    m.add("WEST_BANK", names(&WEST_BANK.map(Location::as_str))?)?;
    let safe: Vec<_> =
        Location::ALL.iter().filter(|&&l| SAFE_LOCATIONS & bit(l) != 0).map(|l| l.as_str()).collect();
    m.add("SAFE_LOCATIONS", names(&safe)?)?;
    m.add("ROADS", PyTuple::new(py, ROADS.iter().map(|&(a, b)| (a.as_str(), b.as_str())))?)?;
    // P1: card id (its index) -> its three locations in order.
    let cards = PATROL_CARDS.iter().map(|c| c.map(Location::as_str)).map(|[a, b, c]| (a, b, c));
    m.add("PATROL_CARDS", PyTuple::new(py, cards)?)?;

    // T1–T5: the tracks.
    m.add("END_DAY", END_DAY)?;
    m.add("LAST_DAY", LAST_DAY)?;
    m.add("ORANGE_DAYS", PyTuple::new(py, ORANGE_DAYS)?)?;
    m.add("TRIANGLE_DAYS", PyTuple::new(py, TRIANGLE_DAYS)?)?;
    m.add("MAX_MORALE", MAX_MORALE)?;
    m.add("START_MORALE", START_MORALE)?;
    // Indexed by morale; entry 0 is never used (at morale 0 the game is over).
    m.add("MIN_PATROLS", PyTuple::new(py, MIN_PATROLS)?)?;
    m.add("MAX_SOLDIERS", MAX_SOLDIERS)?;
    m.add("TOKENS_PER_RESOURCE", TOKENS_PER_RESOURCE)?;
    m.add("MAX_WORKERS", MAX_WORKERS)?;

    // T4, A5, §6: resources, tiles, missions.
    m.add("RESOURCES", names(&Resource::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>())?)?;
    m.add("TILES", names(&Tile::ALL.iter().map(|t| t.as_str()).collect::<Vec<_>>())?)?;
    m.add("SAFE_TILES", names(&safe_tiles())?)?;
    let missions = PyDict::new(py);
    for &id in MissionId::ALL {
        let mi = info(id);
        let d = PyDict::new(py);
        d.set_item("stars", mi.stars)?;
        d.set_item("shield", mi.shield)?;
        d.set_item("boxes", mi.boxes)?;
        missions.set_item(id.as_str(), read_only(&d)?)?;
    }
    m.add("MISSIONS", read_only(&missions)?)?;

    // D1–D3: the options of a game.
    m.add("DIFFICULTIES", names(&Difficulty::ALL.iter().map(|d| d.as_str()).collect::<Vec<_>>())?)?;
    let by_difficulty = PyDict::new(py);
    for &d in Difficulty::ALL {
        by_difficulty.set_item(d.as_str(), read_only(&difficulty_settings(py, d)?)?)?;
    }
    m.add("DIFFICULTY_SETTINGS", read_only(&by_difficulty)?)?;
    m.add("MISSION_POOLS", names(&MissionPool::ALL.iter().map(|p| p.as_str()).collect::<Vec<_>>())?)?;
    let by_pool = PyDict::new(py);
    for &p in MissionPool::ALL {
        by_pool.set_item(p.as_str(), read_only(&pool_settings(py, p)?)?)?;
    }
    m.add("POOL_SETTINGS", read_only(&by_pool)?)?;
    m.add("DEALS", names(&Deal::ALL.iter().map(|d| d.as_str()).collect::<Vec<_>>())?)?;
    m.add("PHASES", names(&Phase::ALL.iter().map(|p| p.as_str()).collect::<Vec<_>>())?)?;
    Ok(())
}

/// A5, B2: tiles whose own action is safe, as the rules perform it (through the fixer's table,
/// which names every tile action).
fn safe_tiles() -> Vec<&'static str> {
    let mut safe: Vec<Tile> = Opt::ALL
        .iter()
        .filter_map(|&o| fixer_target(o))
        .filter(|&(t, o)| tile_action(t, o).is_some_and(|a| a.safe))
        .map(|(t, _)| t)
        .collect();
    safe.sort();
    safe.dedup();
    safe.into_iter().map(Tile::as_str).collect()
}

/// D1: what a difficulty level changes.
fn difficulty_settings(py: Python<'_>, d: Difficulty) -> PyResult<Bound<'_, PyDict>> {
    let s = PyDict::new(py);
    s.set_item("final_day", final_day(d))?;
    s.set_item("passes", passes(d))?;
    let morale_days = if triangle_morale(d) { TRIANGLE_DAYS } else { ORANGE_DAYS };
    s.set_item("morale_days", PyTuple::new(py, morale_days)?)?;
    let (safe_house, cafe) = starting_workers(d);
    let workers = PyDict::new(py);
    workers.set_item("safe_house", safe_house)?;
    workers.set_item("cafe", cafe)?;
    s.set_item("starting_workers", read_only(&workers)?)?;
    s.set_item("arrest_costs_morale", arrest_costs_morale(d))?;
    let airdrop = PyDict::new(py);
    for &r in Resource::ALL {
        let n = airdrop_amount(d, r);
        if n > 0 {
            airdrop.set_item(r.as_str(), n)?;
        }
    }
    s.set_item("airdrop", read_only(&airdrop)?)?;
    Ok(s)
}

/// D2: what a mission pool holds.
fn pool_settings(py: Python<'_>, p: MissionPool) -> PyResult<Bound<'_, PyDict>> {
    let s = PyDict::new(py);
    s.set_item("missions", PyTuple::new(py, pool(p).iter().map(|m| m.as_str()))?)?;
    let tiles: Vec<_> = Tile::ALL.iter().filter(|&&t| tile_in_pool(p, t)).map(|t| t.as_str()).collect();
    s.set_item("tiles", PyTuple::new(py, tiles)?)?;
    let tokens = PyDict::new(py);
    for &r in Resource::ALL {
        tokens.set_item(r.as_str(), tokens_in_game(p, r))?;
    }
    s.set_item("tokens", read_only(&tokens)?)?;
    Ok(s)
}

/// A read-only view of `d` (`types.MappingProxyType`).
pub(super) fn read_only<'py>(d: &Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
    d.py().import("types")?.getattr("MappingProxyType")?.call1((d,))
}
