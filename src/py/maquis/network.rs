//! The learned network for Python: `Network` (a `maquis-net-v1`/`-v2` weight file evaluated in Rust),
//! the `NetworkAgent` and `NetworkSearchAgent` players, `selfplay` (training data, GIL released)
//! and `clairvoyant_games` (the measurement of `agents/clairvoyant.rs`).

use super::agents::{decode, Actions, Masks, Observations};
use super::classes::config;
use crate::py::errors::MaquisError;
use super::tables::read_only;
use crate::maquis::action::NUM_ACTIONS;
use crate::maquis::agents::clairvoyant::{clairvoyant_outcomes, Clairvoyant};
use crate::maquis::agents::guided::{GuidedSearch, GuidedSettings, NETWORK_SEARCH_DEFAULTS, PURE_NETWORK_SETTINGS};
use crate::maquis::agents::heuristic::HeuristicAgent;
use crate::maquis::agents::network::{masked_argmax, observation_fingerprint, Inputs, Network, Scratch, NETWORK_FORMAT, NETWORK_FORMAT_V2};
use crate::maquis::agents::planes::{GAP_SCALE, HEURISTIC_PLANES, HEURISTIC_RANKS};
use crate::maquis::agents::search::SearchAgent;
use crate::maquis::agents::selfplay::{play_games, Teacher};
use crate::maquis::action::ActionMask;
use crate::maquis::observation::obs_size;
use crate::maquis::rules::Setup;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

fn net_err(e: impl std::fmt::Display) -> PyErr {
    MaquisError::new_err(e.to_string())
}

/// A learned network (policy and value heads over the observation, and for `inputs =
/// "observation+heuristic4"` the heuristic's ranking too), evaluated in Rust.
#[pyclass(name = "Network", module = "maquis._core.maquis", frozen)]
pub struct PyNetwork {
    pub(crate) net: Arc<Network>,
}

#[pymethods]
impl PyNetwork {
    /// Reads a weight file (safetensors, format `maquis-net-v1` or `maquis-net-v2`).
    ///
    /// Raises:
    ///     MaquisError: unreadable, not this format, or made for another observation layout.
    #[staticmethod]
    fn load(path: std::path::PathBuf) -> PyResult<Self> {
        Ok(PyNetwork { net: Arc::new(Network::load(&path).map_err(net_err)?) })
    }

    /// Parses the bytes of a weight file.
    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyNetwork { net: Arc::new(Network::from_bytes(data).map_err(net_err)?) })
    }

    /// A freshly initialized network with hidden widths `hidden`, reading `inputs`.
    #[staticmethod]
    #[pyo3(signature = (hidden, seed=0, inputs="observation"))]
    fn random(hidden: Vec<usize>, seed: u64, inputs: &str) -> PyResult<Self> {
        if hidden.contains(&0) {
            return Err(MaquisError::new_err("hidden widths must be positive"));
        }
        let inputs = Inputs::parse(inputs).map_err(net_err)?;
        Ok(PyNetwork { net: Arc::new(Network::random_with_inputs(inputs, &hidden, seed)) })
    }

    /// The weight file's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.net.to_bytes())
    }

    /// Logits (n, NUM_ACTIONS) and values (n,) of observations (n, OBS_SIZE). A network that
    /// reads the heuristic's ranking too computes it from each observation.
    ///
    /// Raises:
    ///     MaquisError: wrong shape, or (for such a network) an observation that does not decode.
    #[allow(clippy::type_complexity)]
    fn forward<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
        let rows = self.input_rows(py, &obs)?;
        let (l, v) = py.detach(|| self.net.forward(rows.view()));
        Ok((l.into_pyarray(py), v.into_pyarray(py)))
    }

    /// The input rows (n, input_size) the network reads for observations (n, OBS_SIZE): the
    /// observation, then for `inputs = "observation+heuristic4"` the heuristic's planes.
    fn inputs_of<'py>(&self, py: Python<'py>, obs: PyReadonlyArray2<'py, f32>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        Ok(self.input_rows(py, &obs)?.into_pyarray(py))
    }

    /// What the network reads: "observation" or "observation+heuristic4".
    #[getter]
    fn inputs(&self) -> &'static str {
        self.net.inputs().name()
    }

    /// Values per input row.
    #[getter]
    fn input_size(&self) -> usize {
        self.net.inputs().size()
    }

    /// Widths of the hidden layers.
    #[getter]
    fn hidden(&self) -> Vec<usize> {
        self.net.hidden()
    }

    /// The file's `__metadata__`.
    #[getter]
    fn metadata(&self) -> BTreeMap<String, String> {
        self.net.metadata.clone()
    }

    fn __repr__(&self) -> String {
        format!("Network(hidden={:?}, inputs={:?})", self.net.hidden(), self.net.inputs().name())
    }
}

impl PyNetwork {
    fn input_rows(&self, py: Python<'_>, obs: &PyReadonlyArray2<'_, f32>) -> PyResult<ndarray::Array2<f32>> {
        input_rows(py, &self.net, obs)
    }
}

/// The input rows `net` reads for a batch of observations (in parallel, GIL released).
fn input_rows(py: Python<'_>, net: &Network, obs: &PyReadonlyArray2<'_, f32>) -> PyResult<ndarray::Array2<f32>> {
    if obs.shape()[1] != obs_size() {
        return Err(MaquisError::new_err(format!("observations must have shape (n, {}), got {:?}", obs_size(), obs.shape())));
    }
    let obs = obs.as_array().to_owned();
    let size = net.inputs().size();
    let rows: Result<Vec<Vec<f32>>, String> = py.detach(|| {
        (0..obs.nrows())
            .into_par_iter()
            .map(|i| {
                let mut row = Vec::with_capacity(size);
                let o = obs.row(i);
                net.write_input(o.as_slice().expect("a C-contiguous row"), &mut row).map_err(|e| format!("observation {i}: {e}"))?;
                Ok(row)
            })
            .collect()
    });
    let rows = rows.map_err(MaquisError::new_err)?;
    Ok(ndarray::Array2::from_shape_vec((rows.len(), size), rows.concat()).expect("rows of one size"))
}

fn masks_of(masks: &PyReadonlyArray2<'_, bool>, n: usize) -> PyResult<Vec<ActionMask>> {
    if masks.shape() != [n, NUM_ACTIONS] {
        return Err(MaquisError::new_err(format!("masks must have shape ({n}, {NUM_ACTIONS}), got {:?}", masks.shape())));
    }
    let m = masks.as_array();
    (0..n)
        .map(|i| {
            let mut mask = ActionMask::default();
            for a in 0..NUM_ACTIONS {
                if m[[i, a]] {
                    mask.set(a);
                }
            }
            if mask.is_empty() {
                return Err(MaquisError::new_err(format!("mask {i} has no legal action (the episode is over)")));
            }
            Ok(mask)
        })
        .collect()
}

/// The network alone: the legal action with the highest logit (acts on the observation alone).
#[pyclass(name = "NetworkAgent", module = "maquis._core.maquis", frozen)]
pub struct PyNetworkAgent {
    net: Arc<Network>,
}

#[pymethods]
impl PyNetworkAgent {
    #[new]
    fn new(network: &PyNetwork) -> Self {
        PyNetworkAgent { net: network.net.clone() }
    }

    /// One action per observation: int64 (n,).
    fn act_batch<'py>(&self, py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>) -> Actions<'py> {
        let rows = input_rows(py, &self.net, &obs)?;
        let masks = masks_of(&masks, rows.nrows())?;
        let net = &self.net;
        let actions: Vec<i64> = py.detach(|| {
            (0..rows.nrows())
                .into_par_iter()
                .map_init(
                    || (Scratch::default(), vec![0.0f32; NUM_ACTIONS]),
                    |(scratch, logits), i| {
                        net.forward_into(rows.row(i).as_slice().expect("a C-contiguous row"), logits, scratch);
                        masked_argmax(logits, &masks[i]).expect("a legal action") as i64
                    },
                )
                .collect()
        });
        Ok(actions.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        format!("NetworkAgent(hidden={:?})", self.net.hidden())
    }
}

/// Network-guided determinized search (Gumbel top-k, sequential halving, heuristic rollouts or
/// network values at the leaves). Acts on (obs, mask) only, like the other agents. Settings left
/// out take `NETWORK_SEARCH_DEFAULTS` (no exploration noise).
#[pyclass(name = "NetworkSearchAgent", module = "maquis._core.maquis", frozen)]
pub struct PyNetworkSearchAgent {
    search: GuidedSearch,
}

/// The defaults of `PyNetworkSearchAgent`'s signature.
const D: GuidedSettings = NETWORK_SEARCH_DEFAULTS;

#[pymethods]
impl PyNetworkSearchAgent {
    #[new]
    #[pyo3(signature = (network, simulations=D.simulations, seed=0, *, candidates=D.candidates, depth=D.depth, rollout_mix=D.rollout_mix, gumbel_scale=0.0, heuristic_candidates=D.heuristic_candidates, prior_weight=D.prior_weight, progress_bonus=D.progress_bonus))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        network: &PyNetwork,
        simulations: u32,
        seed: u64,
        candidates: usize,
        depth: u32,
        rollout_mix: f32,
        gumbel_scale: f32,
        heuristic_candidates: usize,
        prior_weight: f32,
        progress_bonus: f32,
    ) -> PyResult<Self> {
        let o = GuidedSettings { simulations, candidates, depth, rollout_mix, gumbel_scale, heuristic_candidates, prior_weight, progress_bonus };
        Ok(PyNetworkSearchAgent { search: guided(network, seed, &o)? })
    }

    /// One action per observation: int64 (n,) (searches run in parallel).
    fn act_batch<'py>(&self, py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>) -> Actions<'py> {
        let states = decode(&obs, &masks, self.search.seed)?;
        let actions: Vec<i64> = py.detach(|| states.par_iter().map(|s| self.search.act(s) as i64).collect());
        Ok(actions.into_pyarray(py))
    }

    /// The search's root statistics: a dict of `action` int64 (n,), `policy` float32
    /// (n, NUM_ACTIONS) (the improved policy), `value` float32 (n,) (the root value after the
    /// search) and `net_value` float32 (n,) (the network's).
    fn search_batch<'py>(&self, py: Python<'py>, obs: Observations<'py>, masks: Masks<'py>) -> PyResult<Bound<'py, PyDict>> {
        let states = decode(&obs, &masks, self.search.seed)?;
        let stats: Vec<_> = py.detach(|| states.par_iter().map(|s| self.search.search(s)).collect());
        let n = stats.len();
        let d = PyDict::new(py);
        d.set_item("action", stats.iter().map(|r| r.action as i64).collect::<Vec<_>>().into_pyarray(py))?;
        let policy: Vec<f32> = stats.iter().flat_map(|r| r.policy.iter().copied()).collect();
        d.set_item("policy", numpy::ndarray::Array2::from_shape_vec((n, NUM_ACTIONS), policy).expect("n rows").into_pyarray(py))?;
        d.set_item("value", stats.iter().map(|r| r.value).collect::<Vec<_>>().into_pyarray(py))?;
        d.set_item("net_value", stats.iter().map(|r| r.net_value).collect::<Vec<_>>().into_pyarray(py))?;
        Ok(d)
    }

    #[getter]
    fn simulations(&self) -> u32 {
        self.search.settings.simulations
    }

    fn __repr__(&self) -> String {
        let (g, seed) = (&self.search.settings, self.search.seed);
        format!(
            "NetworkSearchAgent(simulations={}, seed={}, candidates={}, depth={}, rollout_mix={}, gumbel_scale={}, heuristic_candidates={}, prior_weight={}, progress_bonus={})",
            g.simulations, seed, g.candidates, g.depth, g.rollout_mix, g.gumbel_scale, g.heuristic_candidates, g.prior_weight,
            g.progress_bonus
        )
    }
}

/// A guided search over `network` with the settings `o`, checked.
fn guided(network: &PyNetwork, seed: u64, o: &GuidedSettings) -> PyResult<GuidedSearch> {
    if o.candidates == 0 {
        return Err(MaquisError::new_err("candidates must be at least 1"));
    }
    if !(0.0..=1.0).contains(&o.rollout_mix) {
        return Err(MaquisError::new_err(format!("rollout_mix must lie in [0, 1], got {}", o.rollout_mix)));
    }
    if !o.gumbel_scale.is_finite() || o.gumbel_scale < 0.0 {
        return Err(MaquisError::new_err(format!("gumbel_scale must be >= 0, got {}", o.gumbel_scale)));
    }
    if !o.prior_weight.is_finite() || o.prior_weight < 0.0 {
        return Err(MaquisError::new_err(format!("prior_weight must be >= 0, got {}", o.prior_weight)));
    }
    if !o.progress_bonus.is_finite() || o.progress_bonus < 0.0 {
        return Err(MaquisError::new_err(format!("progress_bonus must be >= 0, got {}", o.progress_bonus)));
    }
    Ok(GuidedSearch::with_settings(network.net.clone(), seed, o))
}

/// `NETWORK_SEARCH_DEFAULTS` as a dict (without `gumbel_scale`, self-play's exploration). Floats go
/// through their shortest decimal form so that 0.2f32 reads 0.2, not 0.20000000298.
fn network_search_defaults(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let o = NETWORK_SEARCH_DEFAULTS;
    let float = |x: f32| x.to_string().parse::<f64>().expect("a float's decimal form");
    let d = PyDict::new(py);
    d.set_item("simulations", o.simulations)?;
    d.set_item("candidates", o.candidates)?;
    d.set_item("heuristic_candidates", o.heuristic_candidates)?;
    d.set_item("depth", o.depth)?;
    d.set_item("rollout_mix", float(o.rollout_mix))?;
    d.set_item("prior_weight", float(o.prior_weight))?;
    d.set_item("progress_bonus", float(o.progress_bonus))?;
    Ok(d)
}

fn setups(difficulties: &[String], mission_pool: &str) -> PyResult<Vec<Setup>> {
    if difficulties.is_empty() {
        return Err(MaquisError::new_err("difficulties must not be empty"));
    }
    difficulties.iter().map(|d| Ok(config(d, mission_pool, "uniform", None, None, "terminate")?.setup)).collect()
}

/// The defaults of `selfplay`'s guided search (its exploration noise aside).
const P: GuidedSettings = PURE_NETWORK_SETTINGS;

/// Plays `games` whole games with a teacher and returns the training samples (GIL released).
///
/// Args:
///     teacher: "heuristic", "search" (one-hot targets of the chosen action) or "network_search"
///         (the improved policy of the guided search; needs `network`).
///     games: number of games; game i has game seed `seed + i` and difficulty
///         `difficulties[i % len(difficulties)]`.
///     simulations: the search's budget ("search": rollouts; "network_search": leaf evaluations;
///         "heuristic" ignores it).
///     candidates, depth, rollout_mix, gumbel_scale, heuristic_candidates, prior_weight,
///         progress_bonus: the guided search's settings (defaults `PURE_NETWORK_SETTINGS`, not
///         `NETWORK_SEARCH_DEFAULTS`); only "network_search" reads them.
///
/// Returns:
///     dict of numpy arrays: `obs` float32 (n, OBS_SIZE), `masks` bool (n, NUM_ACTIONS), `policy`
///     float32 (n, NUM_ACTIONS), `root_value` float32 (n,), `outcome` float32 (n,) (the game's value:
///     win 1, draw 0.5, loss 0), `game` int64 (n,), and `game_outcomes` int64 (games,) (index in
///     OUTCOMES).
#[pyfunction]
#[pyo3(signature = (teacher, games, seed=0, *, difficulties=vec!["normal".to_string()], mission_pool="second_edition", network=None, simulations=64, candidates=P.candidates, depth=P.depth, rollout_mix=P.rollout_mix, gumbel_scale=1.0, heuristic_candidates=P.heuristic_candidates, prior_weight=P.prior_weight, progress_bonus=P.progress_bonus, threads=1))]
#[allow(clippy::too_many_arguments)]
fn selfplay<'py>(
    py: Python<'py>,
    teacher: &str,
    games: usize,
    seed: u64,
    difficulties: Vec<String>,
    mission_pool: &str,
    network: Option<PyRef<'py, PyNetwork>>,
    simulations: u32,
    candidates: usize,
    depth: u32,
    rollout_mix: f32,
    gumbel_scale: f32,
    heuristic_candidates: usize,
    prior_weight: f32,
    progress_bonus: f32,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let o = GuidedSettings { simulations, candidates, depth, rollout_mix, gumbel_scale, heuristic_candidates, prior_weight, progress_bonus };
    let teacher = match (teacher, &network) {
        ("heuristic", _) => Teacher::Heuristic(HeuristicAgent::new(seed)),
        ("search", _) => Teacher::Search(SearchAgent::new(simulations, seed)),
        ("network_search", Some(net)) => {
            Teacher::Guided(guided(net, seed, &o)?)
        }
        ("network_search", None) => return Err(MaquisError::new_err("teacher 'network_search' needs a network")),
        (other, _) => {
            return Err(MaquisError::new_err(format!(
                "unknown teacher {other:?}: expected 'heuristic', 'search' or 'network_search'"
            )))
        }
    };
    let setups = setups(&difficulties, mission_pool)?;
    let seeds: Vec<u64> = (0..games as u64).map(|i| seed.wrapping_add(i)).collect();
    let s = py.detach(|| play_games(&teacher, &setups, &seeds, threads))?;
    let n = s.len();
    let d = PyDict::new(py);
    let arr2 = |v: Vec<f32>, w: usize| numpy::ndarray::Array2::from_shape_vec((n, w), v).expect("n rows");
    d.set_item("obs", arr2(s.obs, obs_size()).into_pyarray(py))?;
    d.set_item("masks", numpy::ndarray::Array2::from_shape_vec((n, NUM_ACTIONS), s.masks).expect("n rows").into_pyarray(py))?;
    d.set_item("policy", arr2(s.policy, NUM_ACTIONS).into_pyarray(py))?;
    d.set_item("root_value", s.root_value.into_pyarray(py))?;
    d.set_item("outcome", s.outcome.into_pyarray(py))?;
    d.set_item("game", s.game.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("game_outcomes", s.game_outcomes.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// The clairvoyant ceiling (a measurement, not an agent: it sees the deck order and future
/// reshuffles). Plays `episodes` games (game seed `seed + i`) and returns one record per game:
/// (outcome, days survived, missions completed, star total), as `maquis.evaluate` counts them.
#[pyfunction]
#[pyo3(signature = (difficulty="normal", episodes=100, seed=0, *, mission_pool="second_edition", candidates=4, rollouts=2, threads=1))]
#[allow(clippy::too_many_arguments)]
fn clairvoyant_games(
    py: Python<'_>,
    difficulty: &str,
    episodes: usize,
    seed: u64,
    mission_pool: &str,
    candidates: usize,
    rollouts: u32,
    threads: usize,
) -> PyResult<Vec<(String, u32, u32, u32)>> {
    if candidates == 0 || rollouts == 0 {
        return Err(MaquisError::new_err("candidates and rollouts must be at least 1"));
    }
    let setup = setups(&[difficulty.to_string()], mission_pool)?.remove(0);
    let cv = Clairvoyant::new(candidates, rollouts, seed);
    let seeds: Vec<u64> = (0..episodes as u64).map(|i| seed.wrapping_add(i)).collect();
    let ends = py.detach(|| clairvoyant_outcomes(&cv, &setup, &seeds, threads))?;
    Ok(ends
        .iter()
        .map(|s| {
            let days = s.day as u32 + (s.pass as u32 - 1) * 15;
            let done = s.missions.iter().filter(|m| m.complete).count() as u32;
            let stars = s.missions.iter().map(|m| crate::maquis::missions::info(m.id).stars as u32).sum();
            (s.outcome.expect("a finished game").as_str().to_string(), days, done, stars)
        })
        .collect())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("NETWORK_FORMAT", NETWORK_FORMAT)?;
    m.add("NETWORK_FORMAT_V2", NETWORK_FORMAT_V2)?;
    m.add("NETWORK_INPUTS", PyTuple::new(m.py(), Inputs::ALL.map(|i| i.name()))?)?;
    m.add("HEURISTIC_RANKS", HEURISTIC_RANKS)?;
    m.add("HEURISTIC_PLANES", HEURISTIC_PLANES)?;
    m.add("HEURISTIC_GAP_SCALE", GAP_SCALE)?;
    m.add("OBSERVATION_FINGERPRINT", observation_fingerprint())?;
    m.add_class::<PyNetwork>()?;
    m.add_class::<PyNetworkAgent>()?;
    m.add_class::<PyNetworkSearchAgent>()?;
    m.add("NETWORK_SEARCH_DEFAULTS", read_only(&network_search_defaults(m.py())?)?)?;
    m.add_function(wrap_pyfunction!(selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(clairvoyant_games, m)?)?;
    Ok(())
}
