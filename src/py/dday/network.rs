//! D-Day's trained network for Python: registering the network the `network` and
//! `network_search` levels play (`load_network`), its forward pass (`network_forward`, for checks
//! and training) — the shared `network_functions!` — and `selfplay` (training games in Rust, GIL
//! released).

use crate::dday::action::NUM_ACTIONS;
use crate::dday::agents::network::DDayNet;
use crate::dday::agents::selfplay::{play_games, Lineup};
use crate::dday::agents::AnyAgent;
use crate::dday::observation::OBSERVATION_SIZE;
use crate::py::common::network::{samples_dict, teacher_and_seeds};
use pyo3::prelude::*;
use pyo3::types::PyDict;

crate::network_functions!(DDayNet, "D-Day", "maquis.dday.agents");

/// Plays `games` whole games with `teacher` on both sides (or against `opponents`) and returns
/// the training samples (GIL released). Game i has seed `seed + i`.
///
/// Args:
///     teacher: "heuristic", "search", "network_search" or "network" (the last two need
///         `network`, a weight file path).
///     budget: the searches' simulations per searched decision.
///     threads: games played in parallel.
///     opponents: bundled level ids the teacher plays against in turn (game i against
///         `opponents[i % n]`, the teacher the Resistance when `(i // n) % 2 == 0`, else the
///         German), only the teacher's decisions recorded; None: the teacher plays both sides.
///     opponent_budget: the opponents' search simulations per decision.
///
/// Returns:
///     dict of numpy arrays: `obs` float32 (n, OBSERVATION_SIZE), `masks` bool (n, NUM_ACTIONS),
///     `action` int64 (n,), `side` int64 (n,) (0 resistance, 1 german), `outcome` float32 (n,)
///     (the result for the side to move: win 1, draw 0.5, loss 0), `game` int64 (n,), and
///     `game_outcomes` int64 (games,) (0 draw, 1 resistance, 2 german).
#[pyfunction]
#[pyo3(signature = (teacher, games, seed=0, *, budget=200, network=None, threads=1, opponents=None, opponent_budget=200))]
#[allow(clippy::too_many_arguments)]
fn selfplay<'py>(
    py: Python<'py>,
    teacher: &str,
    games: usize,
    seed: u64,
    budget: u32,
    network: Option<std::path::PathBuf>,
    threads: usize,
    opponents: Option<Vec<String>>,
    opponent_budget: u32,
) -> PyResult<Bound<'py, PyDict>> {
    let (teacher, seeds) = teacher_and_seeds::<DDayNet>(teacher, budget, network, "D-Day", games, seed)?;
    let lineup = Lineup::new::<AnyAgent>(opponents.unwrap_or_default(), opponent_budget)?;
    let s = py.detach(|| play_games(&teacher, &lineup, &seeds, threads))?;
    samples_dict(py, s, OBSERVATION_SIZE, NUM_ACTIONS)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    register_network_functions(m)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    Ok(())
}
