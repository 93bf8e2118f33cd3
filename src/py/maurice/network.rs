//! Maurice's trained network for Python: registering the network the `network` and
//! `network_search` levels play (`load_network`), its forward pass over compact observations
//! (`network_forward`) — the shared `network_functions!` — and `selfplay` (training games in
//! Rust, GIL released).

use crate::maurice::agents::network::MauriceNet;
use crate::maurice::agents::selfplay::{play_games, Lineup};
use crate::maurice::agents::AnyAgent;
use crate::maurice::ids::{ScenarioId, COMPACT_OBSERVATION_SIZE, NUM_ACTIONS};
use crate::py::common::network::{samples_dict, teacher_and_seeds};
use pyo3::prelude::*;
use pyo3::types::PyDict;

crate::network_functions!(MauriceNet, "Maurice Lite", "maquis.maurice.agents");

/// Plays `games` whole games with `teacher` on both sides (or against `opponents`) and returns
/// the training samples (GIL released). Game i has seed `seed + i` and scenario
/// `scenarios[i % len(scenarios)]` (None: standard and skirmish in turn).
///
/// Args:
///     teacher: "heuristic", "search", "network_search" or "network" (the last two need
///         `network`, a weight file path).
///     budget: the searches' simulations per searched decision.
///     scenarios: "standard" and/or "skirmish", taken in turn.
///     threads: games played in parallel.
///     opponents: bundled level ids the teacher plays against in turn (game i against
///         `opponents[i % n]`, the teacher blue when `(i // n) % 2 == 0`, else red), only the
///         teacher's decisions recorded; None: the teacher plays both sides.
///     opponent_budget: the opponents' search simulations per decision.
///     maps: also record each sample's 15 map planes (for a network with inputs "maps").
///
/// Returns:
///     dict of numpy arrays: `obs` float32 (n, COMPACT_OBSERVATION_SIZE) (the side to move's
///     compact observation), `masks` bool (n, NUM_ACTIONS), `action` int64 (n,), `side` int64 (n,)
///     (0 blue, 1 red), `outcome` float32 (n,) (the result for the side to move: win 1, draw 0.5,
///     loss 0), `game` int64 (n,), and `game_outcomes` int64 (games,) (0 draw, 1 blue, 2 red);
///     with `maps`, `maps` uint8 (n, 2532): the planes (`obs[1084:]` of the full observation)
///     packed by `numpy.packbits` (`numpy.unpackbits(maps, axis=1, count=20250)` reads them back).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (teacher, games, seed=0, *, scenarios=None, budget=100, network=None, threads=1, opponents=None, opponent_budget=100, maps=false))]
fn selfplay<'py>(
    py: Python<'py>,
    teacher: &str,
    games: usize,
    seed: u64,
    scenarios: Option<Vec<String>>,
    budget: u32,
    network: Option<std::path::PathBuf>,
    threads: usize,
    opponents: Option<Vec<String>>,
    opponent_budget: u32,
    maps: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let scenarios = match scenarios {
        None => ScenarioId::ALL.to_vec(),
        Some(names) => names.iter().map(|s| ScenarioId::parse(s)).collect::<crate::error::Result<Vec<_>>>()?,
    };
    let (teacher, seeds) = teacher_and_seeds::<MauriceNet>(teacher, budget, network, "Maurice Lite", games, seed)?;
    let lineup = Lineup::new::<AnyAgent>(opponents.unwrap_or_default(), opponent_budget)?;
    let s = py.detach(|| play_games(&teacher, &lineup, &scenarios, maps, &seeds, threads))?;
    samples_dict(py, s, COMPACT_OBSERVATION_SIZE, NUM_ACTIONS)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_network_functions(m)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    Ok(())
}
