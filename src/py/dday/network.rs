//! D-Day's trained network for Python: registering the network the `network` and
//! `network_search` levels play (`load_network`), its forward pass (`network_forward`, for checks
//! and training), and `selfplay` (training games in Rust, GIL released).

use crate::dday::action::NUM_ACTIONS;
use crate::dday::agents::network::{network, observation_fingerprint, set_network, Network};
use crate::dday::agents::selfplay::{play_games, Teacher};
use crate::dday::observation::OBSERVATION_SIZE;
use crate::py::errors::MaquisError;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;
use std::sync::Arc;

fn read(path: &std::path::Path) -> PyResult<Network> {
    Network::load(path).map_err(|e| MaquisError::new_err(format!("D-Day network {e}")))
}

/// Loads a D-Day weight file (safetensors, `maquis-net-v1` with this build's D-Day
/// `OBSERVATION_FINGERPRINT`) and makes it the network of the `network` and `network_search`
/// levels; returns its metadata.
///
/// Raises:
///     MaquisError: unreadable, not this format, or made for another game or observation layout
///         (both fingerprints named).
#[pyfunction]
fn load_network(path: std::path::PathBuf) -> PyResult<BTreeMap<String, String>> {
    let net = read(&path)?;
    let meta = net.metadata.clone();
    set_network(Arc::new(net));
    Ok(meta)
}

/// The metadata of the network the levels play, or None when none is loaded.
#[pyfunction]
fn network_metadata() -> Option<BTreeMap<String, String>> {
    network().map(|n| n.metadata.clone())
}

/// Logits (n, NUM_ACTIONS) and values (n,) (win 1, draw 0.5, loss 0) of observations
/// (n, OBSERVATION_SIZE) under the loaded network.
///
/// Raises:
///     MaquisError: no network loaded, or the wrong shape.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn network_forward<'py>(
    py: Python<'py>,
    obs: PyReadonlyArray2<'py, f32>,
) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
    let net = network().ok_or_else(|| MaquisError::new_err("no D-Day network is loaded (maquis.dday.agents.load_network)"))?;
    if obs.shape()[1] != OBSERVATION_SIZE {
        return Err(MaquisError::new_err(format!("observations must have shape (n, {OBSERVATION_SIZE}), got {:?}", obs.shape())));
    }
    let rows = obs.as_array().to_owned();
    let (l, v) = py.detach(|| net.forward(rows.view()));
    Ok((l.into_pyarray(py), v.into_pyarray(py)))
}

/// Plays `games` whole games with `teacher` on both sides and returns the training samples
/// (GIL released). Game i has seed `seed + i`.
///
/// Args:
///     teacher: "heuristic", "search" or "network_search" (needs `network`, a weight file path).
///     budget: the searches' simulations per searched decision.
///     threads: games played in parallel.
///
/// Returns:
///     dict of numpy arrays: `obs` float32 (n, OBSERVATION_SIZE), `masks` bool (n, NUM_ACTIONS),
///     `action` int64 (n,), `side` int64 (n,) (0 resistance, 1 german), `outcome` float32 (n,)
///     (the result for the side to move: win 1, draw 0.5, loss 0), `game` int64 (n,), and
///     `game_outcomes` int64 (games,) (0 draw, 1 resistance, 2 german).
#[pyfunction]
#[pyo3(signature = (teacher, games, seed=0, *, budget=200, network=None, threads=1))]
fn selfplay<'py>(
    py: Python<'py>,
    teacher: &str,
    games: usize,
    seed: u64,
    budget: u32,
    network: Option<std::path::PathBuf>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if budget == 0 {
        return Err(MaquisError::new_err("budget must be a positive int"));
    }
    let teacher = match (teacher, network) {
        ("heuristic", _) => Teacher::Heuristic,
        ("search", _) => Teacher::Search(budget),
        ("network_search", Some(path)) => Teacher::NetworkSearch(Arc::new(read(&path)?), budget),
        ("network_search", None) => return Err(MaquisError::new_err("teacher 'network_search' needs network=<weight file>")),
        (other, _) => {
            return Err(MaquisError::new_err(format!(
                "unknown teacher {other:?}: expected 'heuristic', 'search' or 'network_search'"
            )))
        }
    };
    let seeds: Vec<u64> = (0..games as u64).map(|i| seed.wrapping_add(i)).collect();
    let s = py.detach(|| play_games(&teacher, &seeds, threads))?;
    let n = s.action.len();
    let d = PyDict::new(py);
    d.set_item("obs", numpy::ndarray::Array2::from_shape_vec((n, OBSERVATION_SIZE), s.obs).expect("n rows").into_pyarray(py))?;
    d.set_item("masks", numpy::ndarray::Array2::from_shape_vec((n, NUM_ACTIONS), s.masks).expect("n rows").into_pyarray(py))?;
    d.set_item("action", s.action.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("side", s.side.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("outcome", s.outcome.into_pyarray(py))?;
    d.set_item("game", s.game.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("game_outcomes", s.game_outcomes.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NETWORK_FORMAT", crate::nn::NETWORK_FORMAT)?;
    m.add("OBSERVATION_FINGERPRINT", observation_fingerprint())?;
    m.add_function(wrap_pyfunction!(load_network, m)?)?;
    m.add_function(wrap_pyfunction!(network_metadata, m)?)?;
    m.add_function(wrap_pyfunction!(network_forward, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    Ok(())
}
