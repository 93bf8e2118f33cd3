//! A two-player game's trained network for Python, written once over `nn::player::Registered`:
//! `load_network` (the file the `network` levels play), `network_metadata`, `network_forward`
//! (`network_functions!`), and the arrays of `selfplay`'s training samples (`samples_dict`).

use crate::nn::player::Registered;
use crate::nn::selfplay::{Samples, Teacher};
use crate::nn::Network;
use crate::py::errors::MaquisError;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Reads a weight file of game `G` (`title` names the game in the error).
pub fn read<G: Registered>(path: &std::path::Path, title: &str) -> PyResult<Network<G>> {
    Network::<G>::load(path).map_err(|e| MaquisError::new_err(format!("{title} network {e}")))
}

/// Registers the network of `path` for `G`'s levels; its metadata.
pub fn load<G: Registered>(path: &std::path::Path, title: &str) -> PyResult<BTreeMap<String, String>> {
    let net = read::<G>(path, title)?;
    let meta = net.metadata.clone();
    G::slot().set(Arc::new(net));
    Ok(meta)
}

/// The registered network's metadata.
pub fn metadata<G: Registered>() -> Option<BTreeMap<String, String>> {
    G::slot().get().map(|n| n.metadata.clone())
}

/// Logits and values of input rows under `G`'s registered network (`hint`: how to load one).
#[allow(clippy::type_complexity)]
pub fn forward<'py, G: Registered>(
    py: Python<'py>,
    obs: PyReadonlyArray2<'py, f32>,
    hint: &str,
) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
    let net = G::slot().get().ok_or_else(|| MaquisError::new_err(format!("no network is loaded ({hint})")))?;
    let size = net.input_size();
    if obs.shape()[1] != size {
        return Err(MaquisError::new_err(format!("observations must have shape (n, {size}), got {:?}", obs.shape())));
    }
    let rows = obs.as_array().to_owned();
    let (l, v) = py.detach(|| net.forward(rows.view()));
    Ok((l.into_pyarray(py), v.into_pyarray(py)))
}

/// `selfplay`'s teacher by name (`network`: the weight file of `network_search` or `network`) and
/// the seeds of its `games` games from `seed`.
pub fn teacher_and_seeds<G: Registered>(
    name: &str,
    budget: u32,
    network: Option<std::path::PathBuf>,
    title: &str,
    games: usize,
    seed: u64,
) -> PyResult<(Teacher<Network<G>>, Vec<u64>)> {
    let net = network.filter(|_| Teacher::<Network<G>>::needs_network(name)).map(|p| read::<G>(&p, title)).transpose()?;
    let teacher = Teacher::parse(name, budget, net.map(Arc::new)).map_err(|e| MaquisError::new_err(e.to_string()))?;
    Ok((teacher, (0..games as u64).map(|i| seed.wrapping_add(i)).collect()))
}

/// `selfplay`'s dict of numpy arrays: `obs` float32 (n, obs_size), `masks` bool (n, num_actions),
/// `action`, `side`, `game` int64 (n,), `outcome` float32 (n,), `game_outcomes` int64 (games,).
pub fn samples_dict(py: Python<'_>, s: Samples, obs_size: usize, num_actions: usize) -> PyResult<Bound<'_, PyDict>> {
    let n = s.action.len();
    let ints = |v: Vec<u32>| v.into_iter().map(i64::from).collect::<Vec<_>>();
    let d = PyDict::new(py);
    d.set_item("obs", numpy::ndarray::Array2::from_shape_vec((n, obs_size), s.obs).expect("n rows").into_pyarray(py))?;
    d.set_item("masks", numpy::ndarray::Array2::from_shape_vec((n, num_actions), s.masks).expect("n rows").into_pyarray(py))?;
    d.set_item("action", ints(s.action).into_pyarray(py))?;
    d.set_item("side", s.side.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("outcome", s.outcome.into_pyarray(py))?;
    d.set_item("game", ints(s.game).into_pyarray(py))?;
    d.set_item("game_outcomes", s.game_outcomes.into_iter().map(i64::from).collect::<Vec<_>>().into_pyarray(py))?;
    if n > 0 && !s.maps.is_empty() {
        let per = s.maps.len() / n;
        d.set_item("maps", numpy::ndarray::Array2::from_shape_vec((n, per), s.maps).expect("n rows").into_pyarray(py))?;
    }
    Ok(d)
}

/// A game's `load_network`, `network_metadata` and `network_forward` over its `Registered` net
/// type `$g` (`$title` names it in errors, `$module` is where `load_network` is for users).
#[macro_export]
macro_rules! network_functions {
    ($g:ty, $title:literal, $module:literal) => {
        /// Loads a weight file (safetensors, `maquis-net-v1` with this build's
        /// `OBSERVATION_FINGERPRINT`) and makes it the network of the `network` and
        /// `network_search` levels; returns its metadata.
        ///
        /// Raises:
        ///     MaquisError: unreadable, not this format, or made for another game or observation
        ///         layout (both fingerprints named).
        #[pyo3::pyfunction]
        fn load_network(path: std::path::PathBuf) -> pyo3::PyResult<std::collections::BTreeMap<String, String>> {
            $crate::py::common::network::load::<$g>(&path, $title)
        }

        /// The metadata of the network the levels play, or None when none is loaded.
        #[pyo3::pyfunction]
        fn network_metadata() -> Option<std::collections::BTreeMap<String, String>> {
            $crate::py::common::network::metadata::<$g>()
        }

        /// Logits (n, NUM_ACTIONS) and values (n,) (win 1, draw 0.5, loss 0) of the network's
        /// input rows (n, its input size) under the loaded network.
        ///
        /// Raises:
        ///     MaquisError: no network loaded, or the wrong shape.
        #[pyo3::pyfunction]
        #[allow(clippy::type_complexity)]
        fn network_forward<'py>(
            py: pyo3::Python<'py>,
            obs: numpy::PyReadonlyArray2<'py, f32>,
        ) -> pyo3::PyResult<(pyo3::Bound<'py, numpy::PyArray2<f32>>, pyo3::Bound<'py, numpy::PyArray1<f32>>)> {
            $crate::py::common::network::forward::<$g>(py, obs, concat!($module, ".load_network"))
        }

        fn register_network_functions(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
            use pyo3::types::PyModuleMethods;
            m.add("NETWORK_FORMAT", $crate::nn::NETWORK_FORMAT)?;
            m.add("OBSERVATION_FINGERPRINT", <$g as $crate::nn::NetGame>::fingerprint())?;
            m.add_function(pyo3::wrap_pyfunction!(load_network, m)?)?;
            m.add_function(pyo3::wrap_pyfunction!(network_metadata, m)?)?;
            m.add_function(pyo3::wrap_pyfunction!(network_forward, m)?)
        }
    };
}
