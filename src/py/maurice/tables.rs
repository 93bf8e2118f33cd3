//! The constants of docs/api/maurice.md "Identifiers and tables" and "Observation", the
//! action-name conversions and the scenarios' data.

use crate::error::{Error, Result};
use crate::maurice::action::{action_from_str as from_str, action_names, action_to_str as to_str};
use crate::maurice::cards::CARDS;
use crate::maurice::ids::{
    Command, Facing, Formation, Phase, ScenarioId, Side, TerrainType, UnitType, COMPACT_OBSERVATION_SIZE,
    DECK_SIZE, HEIGHT, MAX_UNITS, NUM_ACTIONS, OBSERVATION_SIZE, WIDTH,
};
use crate::maurice::observation::{observation_layout, ObservationKind, PLANES, UNIT_FEATURES};
use crate::maurice::scenario::{scenario as scenario_data, UnitSpec};
use crate::maurice::terrain::TerrainMap;
use crate::py::common::convert::{json_to_py, layout_tuple};
use crate::py::errors::action_index_of;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::{json, Value};
use std::sync::OnceLock;

/// The canonical name of an action index ("move:forward", "cell:3:7", ...).
///
/// Raises:
///     TypeError: not an integer. MaquisError: out of range.
#[pyfunction]
fn action_to_str(index: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(to_str(action_index_of(index, NUM_ACTIONS)?)?)
}

/// The index of a canonical action name.
///
/// Raises:
///     MaquisError: not an action name.
#[pyfunction]
fn action_from_str(name: &str) -> PyResult<usize> {
    Ok(from_str(name)?)
}

fn unit_json(u: &UnitSpec) -> Value {
    json!({
        "id": u.id, "type": u.kind.as_str(), "formation": u.formation.as_str(), "x": u.at.x, "y": u.at.y,
        "facing": u.facing.as_str(), "disr": u.disr, "smoke": u.smoke,
    })
}

/// A scenario's data in the format of the reset options (S2–S4, red already turned).
pub fn scenario_json(name: &str) -> Result<Value> {
    let id = ScenarioId::parse(name)
        .map_err(|_| Error::BadOption(format!("scenario must be 'standard' or 'skirmish', got '{name}'")))?;
    let sc = scenario_data(id);
    let per_side = |f: &dyn Fn(Side) -> Value| {
        Value::Object(Side::ALL.iter().map(|&s| (s.as_str().to_string(), f(s))).collect())
    };
    Ok(json!({
        "terrain": TerrainMap::from(&sc.terrain),
        "units": per_side(&|s| sc.units(s).iter().map(unit_json).collect()),
        "cinc": per_side(&|s| json!([sc.cinc[s.idx()].x, sc.cinc[s.idx()].y])),
    }))
}

/// `{"terrain": map, "units": {side: [unit, ...]}, "cinc": {side: [x, y]}}`: the scenario's data
/// in the format of the reset options (S2–S4, red already turned).
///
/// Raises:
///     MaquisError: not a scenario id.
#[pyfunction]
fn scenario<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    json_to_py(py, &scenario_json(name)?)
}

/// What each uint8 value is divided by to give the float32 one (API.md "Observation": counts by
/// the number given, x by 44, y by 29, flags and planes by 1), by the layout's slice names.
pub fn observation_divisors() -> &'static [u8] {
    static DIVISORS: OnceLock<Vec<u8>> = OnceLock::new();
    DIVISORS.get_or_init(|| {
        let mut out = vec![1u8; OBSERVATION_SIZE];
        for &(name, offset, len) in observation_layout(ObservationKind::Full) {
            let slice = &mut out[offset..offset + len];
            let pattern: &[u8] = match name {
                "round" => &[255],
                "morale" => &[8],
                "hand" | "hand_new" | "discard" | "removed" => &[2],
                "hand_sizes" | "deck_size" => &[40],
                "activation" => &[40, 64, 1, 1],
                "cinc" => &[44, 29],
                "owed" => &[10, 1],
                "aim" => &[1, 1, 1, 1, 44, 29, 44, 29],
                "moving" => &[20, 20, 1, 1, 1, 1, 1, 1, 4, 44, 29, 1],
                "units" => {
                    let mut row = [1u8; UNIT_FEATURES.len()];
                    for (i, f) in UNIT_FEATURES.iter().enumerate() {
                        row[i] = match *f {
                            "x" => 44,
                            "y" => 29,
                            "disr" => 4,
                            "command_distance" => 64,
                            _ => 1,
                        };
                    }
                    for chunk in slice.chunks_mut(row.len()) {
                        chunk.copy_from_slice(&row);
                    }
                    continue;
                }
                _ => &[1],
            };
            for (i, x) in slice.iter_mut().enumerate() {
                *x = pattern[i % pattern.len()];
            }
        }
        out
    })
}

fn cards(py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
    let rows = CARDS
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let d = PyDict::new(py);
            d.set_item("index", i)?;
            d.set_item("id", c.card.as_str())?;
            d.set_item("name", c.name)?;
            d.set_item("span", c.span)?;
            d.set_item("symbol", c.symbol.map(|m| m.as_str()))?;
            d.set_item("mark", c.mark.map(|m| m.as_str()))?;
            d.set_item("copies", c.copies)?;
            d.set_item("effect", c.effect)?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(py, rows)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    fn ids<'py, T: Copy>(py: Python<'py>, all: &[T], name: fn(T) -> &'static str) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, all.iter().map(|&x| name(x)))
    }
    m.add("SIDES", ids(py, Side::ALL, Side::as_str)?)?;
    m.add("UNIT_TYPES", ids(py, UnitType::ALL, UnitType::as_str)?)?;
    m.add("FORMATIONS", ids(py, Formation::ALL, Formation::as_str)?)?;
    m.add("FACINGS", ids(py, Facing::ALL, Facing::as_str)?)?;
    m.add("TERRAINS", ids(py, TerrainType::ALL, TerrainType::as_str)?)?;
    m.add("COMMANDS", ids(py, Command::ALL, Command::as_str)?)?;
    m.add("PHASES", ids(py, Phase::ALL, Phase::as_str)?)?;
    m.add("SCENARIOS", ids(py, ScenarioId::ALL, ScenarioId::as_str)?)?;
    m.add("OUTCOMES", PyTuple::new(py, ["win", "draw", "loss"])?)?;
    m.add("PLANES", PyTuple::new(py, PLANES)?)?;
    m.add("UNIT_FEATURES", PyTuple::new(py, UNIT_FEATURES)?)?;
    m.add("WIDTH", WIDTH)?;
    m.add("HEIGHT", HEIGHT)?;
    m.add("MAX_UNITS", MAX_UNITS)?;
    m.add("DECK_SIZE", DECK_SIZE)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("COMPACT_OBSERVATION_SIZE", COMPACT_OBSERVATION_SIZE)?;
    m.add("ACTION_NAMES", PyTuple::new(py, action_names())?)?;
    m.add("OBSERVATION_LAYOUT", layout_tuple(py, observation_layout(ObservationKind::Full))?)?;
    m.add("COMPACT_OBSERVATION_LAYOUT", layout_tuple(py, observation_layout(ObservationKind::Compact))?)?;
    m.add("OBSERVATION_DIVISOR", PyTuple::new(py, observation_divisors().iter())?)?;
    m.add("CARDS", cards(py)?)?;
    m.add_function(wrap_pyfunction!(action_to_str, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_str, m)?)?;
    m.add_function(wrap_pyfunction!(scenario, m)?)?;
    Ok(())
}
