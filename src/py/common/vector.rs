//! A batch's bindings, written once for every game: `VecCore<G>` owns a `vector::Engine<G>` and
//! the numpy arrays it writes (allocated once; reset and step write them in place with the GIL
//! released), and `vec_engine_class!` makes a game's `VecEngine` class of it (a pyclass cannot be
//! generic), adding the game's own constructor and methods.

use super::convert::{aligned_rows, env_index, json_to_py, observation_dtype, parse_observation_dtype};
use super::pipeline::{Done, Driver, Pending, RawOutputs};
use super::save;
use super::threads::WorkerThreads;
use super::BindGame;
use crate::py::errors::MaquisError;
use crate::env::{Autoreset, Config, EnvError, Shaping, Slot, StartStates};
use crate::error::{Error, Result};
use crate::vector::{Copies, Engine, Outputs};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use std::sync::Arc;
use pyo3::types::{PyDict, PyString, PyTuple};
use serde_json::{json, Value};

/// The observation and final-observation rows as bytes (`observation_dtype="uint8"`).
type ByteRows = (Py<PyArray2<u8>>, Py<PyArray2<u8>>);

/// What `step_copy` returns: the copied observations, the copied masks, and the numbers of
/// episodes that ended and that ended on an illegal action.
pub type Copied<'py> = (Bound<'py, PyAny>, Bound<'py, PyArray2<bool>>, usize, usize);

/// The objects of a plain step's return value that are not the engine's arrays: the read-only
/// view of the observations, the masks as int8, the all-True `_action_mask`, and the infos'
/// keys as interned strings.
struct Plain {
    obs: Py<PyAny>,
    masks_i8: Py<PyAny>,
    all_true: Py<PyAny>,
    keys: [Py<PyString>; 6],
}

fn borrow_error(name: &str, e: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(format!("the {name} array cannot be written now: {e}"))
}

/// A batch of environments of `G` and the arrays it writes.
///
/// The output arrays (observations, masks, rewards, terminated, truncated, outcomes, illegal,
/// final_observations) are allocated once and overwritten by every reset and step.
pub struct VecCore<G: BindGame> {
    /// The batch; with the driver thread while a `send` is pending (`pending`), so that nothing
    /// here can reach it then.
    engine: Option<Engine<G>>,
    /// The engine's constants, readable while a send is pending: num_envs, the worker threads
    /// used and asked for (0: one per core), the autoreset mode, the illegal-action policy.
    pub num_envs: usize,
    pub num_threads: usize,
    threads_asked: usize,
    pub autoreset: Autoreset,
    pub illegal_policy: &'static str,
    /// The step started by `send`, until `recv`, with its copies (`copy=True`). Declared
    /// before the arrays: dropping it waits for the step, which writes them.
    pending: Option<(Pending<G>, SentCopies)>,
    /// The thread that runs sent steps (started by the first `send`), shared with the batches
    /// that share the worker pool (`use_worker_threads`), so that their steps queue in turn.
    driver: Option<Arc<Driver>>,
    actions: Vec<i64>,
    obs: Py<PyArray2<f32>>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    outcomes: Py<PyArray1<i8>>,
    illegal: Py<PyArray1<bool>>,
    final_obs: Py<PyArray2<f32>>,
    /// With `observation_dtype` "uint8": the observation and final observation rows as bytes,
    /// written instead of `obs` and `final_obs` (then empty).
    bytes: Option<ByteRows>,
    /// The infos' "outcome": the outcome's name for each environment whose episode ended on the
    /// last step that ended any, else None; updated in place, since building a new object array
    /// in Python on every step is slow next to the step itself.
    outcome_info: Py<PyArray1<Py<PyAny>>>,
    /// The entries of `outcome_info` that hold a name.
    outcome_set: Vec<usize>,
    /// The names, in outcome-code order.
    outcome_names: Vec<Py<PyAny>>,
    /// What `step_plain` returns besides the output arrays, set by the Python vector env when its
    /// steps hand out the arrays themselves (copy=False, not same-step autoreset); None: no plain
    /// steps.
    plain: Option<Plain>,
    /// Every environment has been reset at least once (kept by the Python vector env):
    /// `step_plain` leaves the others to the checked path, which names them.
    pub ready: bool,
}

/// Runs `$body` with `$engine`, `$actions` and `$out` (the output arrays, their observations
/// as float32 or as uint8) bound, with the GIL released: a macro, so that the body is compiled
/// once for each type of row.
macro_rules! with_outputs {
    ($self:ident, $py:ident, |$engine:ident, $actions:ident, $out:ident| $body:expr) => {{
        match &$self.bytes {
            None => with_outputs!($self, $py, $self.obs, $self.final_obs, |$engine, $actions, $out| $body),
            Some((obs, final_obs)) => with_outputs!($self, $py, obs, final_obs, |$engine, $actions, $out| $body),
        }
    }};
    // With the given observation arrays (of one type).
    ($self:ident, $py:ident, $obs:expr, $final_obs:expr, |$engine:ident, $actions:ident, $out:ident| $body:expr) => {{
        // Not through rust-numpy's borrow tracking (a lookup in a shared table per array, a large
        // part of a small call). It only stops another Rust extension from
        // borrowing these arrays during the call; they are this engine's own, `&mut self`
        // keeps every other call of this engine out, and Python code writing them from
        // another thread while the GIL is released is not stopped by the tracking either.
        let mut out = outputs!($self, $py, $obs, $final_obs);
        let $engine = $self.engine.as_mut().expect(AWAY);
        let $actions = &$self.actions[..];
        let $out = &mut out;
        PyResult::Ok($py.detach(|| $body))
    }};
}

/// The output arrays of `$self` as `Outputs`, with the given observation arrays (see
/// `with_outputs` for why not through rust-numpy's borrow tracking).
macro_rules! outputs {
    ($self:ident, $py:ident, $obs:expr, $final_obs:expr) => {{
        macro_rules! rw {
            ($array:expr) => {{
                let a = $array.bind($py);
                // SAFETY: as said in `with_outputs`; the array is contiguous (made by this engine).
                unsafe { a.as_slice_mut() }.map_err(|e| borrow_error("output", e))?
            }};
        }
        Outputs {
            obs: rw!($obs),
            masks: rw!($self.masks),
            rewards: rw!($self.rewards),
            terminated: rw!($self.terminated),
            truncated: rw!($self.truncated),
            outcomes: rw!($self.outcomes),
            illegal: rw!($self.illegal),
            final_obs: rw!($final_obs),
            // Only the engine writes `obs`: Python sees it through read-only views.
            obs_kept: true,
        }
    }};
}

/// Why the engine is missing: only while a send is pending, which every method checks first.
const AWAY: &str = "the engine is with the driver thread only while a send() is pending, which is checked first";

/// What a sent step hands out besides the output arrays: the copies of the observations and
/// masks with `copy=True`.
type SentCopies = Option<(Py<PyAny>, Py<PyArray2<bool>>)>;

impl<G: BindGame> VecCore<G> {
    /// `num_envs` environments of `cfg` (they need a reset before the first step).
    pub fn new(py: Python<'_>, cfg: Config<G>, num_envs: usize, num_threads: usize, autoreset_mode: &str) -> PyResult<Self> {
        let autoreset = Autoreset::parse(autoreset_mode)?;
        let illegal_policy = cfg.illegal.as_str();
        let engine = Engine::new(cfg, num_envs, num_threads, autoreset)?;
        let (n, o, a) = (num_envs, G::obs_size(), G::NUM_ACTIONS);
        Ok(VecCore {
            num_threads: engine.num_threads(),
            engine: Some(engine),
            num_envs,
            threads_asked: num_threads,
            autoreset,
            illegal_policy,
            pending: None,
            driver: None,
            actions: vec![0; n],
            obs: aligned_rows(py, n, o)?.unbind(),
            masks: PyArray2::zeros(py, [n, a], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
            outcomes: PyArray1::from_vec(py, vec![-1i8; n]).unbind(),
            illegal: PyArray1::zeros(py, n, false).unbind(),
            final_obs: aligned_rows(py, n, o)?.unbind(),
            bytes: None,
            outcome_info: PyArray1::from_vec(py, (0..n).map(|_| py.None()).collect()).unbind(),
            outcome_set: Vec::new(),
            outcome_names: G::OUTCOMES.iter().map(|o| PyString::intern(py, o).into_any().unbind()).collect(),
            plain: None,
            ready: false,
        })
    }

    /// Starts new episodes (see the class's `reset`); `options` is parsed by the game.
    pub fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<Vec<Option<u64>>>,
        mask: Option<PyReadonlyArray1<'_, bool>>,
        options: Option<&str>,
    ) -> PyResult<()> {
        self.idle("reset()")?;
        let n = self.num_envs;
        if let Some(s) = &seeds {
            if s.len() != n {
                return Err(MaquisError::new_err(format!("seeds must hold {n} entries, got {}", s.len())));
            }
        }
        let mask: Option<Vec<bool>> = mask.map(|m| m.as_array().to_vec());
        if let Some(m) = &mask {
            if m.len() != n {
                return Err(MaquisError::new_err(format!("reset_mask must have shape ({n},), got ({},)", m.len())));
            }
        }
        let setup = options.map(|json| G::reset_setup(&self.engine().config().setup, json, false)).transpose()?;
        with_outputs!(self, py, |engine, _a, out| {
            engine.reset(seeds.as_deref(), mask.as_deref(), setup.as_ref(), out)
        })?
        .map_err(|e: EnvError| e.into())
    }

    /// Copies `actions` into `self.actions`, after checking their number.
    fn load_actions(&mut self, actions: &Bound<'_, PyArray1<i64>>) -> PyResult<()> {
        let n = self.num_envs;
        if actions.len() != n {
            return Err(MaquisError::new_err(format!("actions must have shape ({n},), got ({},)", actions.len())));
        }
        // Copied while holding the GIL: no other Python thread can change them under us, which
        // is also why reading them needs no borrow from rust-numpy's tracking (a lookup in a
        // shared table, taken and given back on every step). One memcpy from a contiguous array,
        // not a loop over elements.
        self.actions.clear();
        // SAFETY: read at once, under the GIL, and not kept.
        match unsafe { actions.as_slice() } {
            Ok(a) => self.actions.extend_from_slice(a),
            Err(_) => self.actions.extend(unsafe { actions.as_array() }.iter().copied()),
        }
        Ok(())
    }

    /// `outcome_info` for the step just taken: the entries of the last update back to None,
    /// then the names of this step's outcomes.
    fn update_outcome_info(&mut self, py: Python<'_>) -> PyResult<()> {
        // Not through rust-numpy's borrow tracking, as in `with_outputs` (this runs on most steps
        // of a large batch): the array is this engine's own, and
        // this runs under the GIL, in a call that holds `&mut self`.
        let info = self.outcome_info.bind(py);
        // SAFETY: as said above; the array is contiguous (made by this engine).
        let entries = unsafe { info.as_slice_mut() }.map_err(|e| borrow_error("outcome info", e))?;
        // As raw pointers, counted by hand: through `Py`, `clone_ref` and a drop that asks a
        // thread-local whether the GIL is held would cost more than the update itself.
        // SAFETY: `Py<PyAny>` is a transparent non-null `*mut PyObject`; only non-null pointers to
        // live objects are written back, each with its reference counted, under the GIL.
        let entries: &mut [*mut pyo3::ffi::PyObject] = unsafe { std::mem::transmute(entries) };
        let put = |entry: &mut *mut pyo3::ffi::PyObject, object: *mut pyo3::ffi::PyObject| unsafe {
            pyo3::ffi::Py_INCREF(object);
            pyo3::ffi::Py_DECREF(std::mem::replace(entry, object));
        };
        let none = py.None();
        let none = none.as_ptr();
        for &i in &self.outcome_set {
            put(&mut entries[i], none);
        }
        self.outcome_set.clear();
        // Only the environments the step listed as ended, with their codes: scanning every code
        // mispredicts on codes read back from the workers' caches.
        for (i, code) in self.engine.as_mut().expect(AWAY).ended() {
            if let Some(name) = usize::try_from(code).ok().and_then(|c| self.outcome_names.get(c)) {
                put(&mut entries[i], name.as_ptr());
                self.outcome_set.push(i);
            }
        }
        Ok(())
    }

    /// Steps every environment: (ended, illegal).
    pub fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyArray1<i64>>) -> PyResult<(usize, usize)> {
        self.idle("step()")?;
        self.load_actions(actions)?;
        let (ended, illegal) = with_outputs!(self, py, |engine, acts, out| {
            engine.step(acts, out).map(|_| engine.ended_counts())
        })?
        .map_err(PyErr::from)?;
        if ended > 0 {
            self.update_outcome_info(py)?;
        }
        Ok((ended, illegal))
    }

    /// `step`, also returning new arrays holding copies of the observations and the masks, made
    /// by the worker threads as each row is written.
    pub fn step_copy<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyArray1<i64>>) -> PyResult<Copied<'py>> {
        self.idle("step()")?;
        self.load_actions(actions)?;
        let (n, o, a) = (self.num_envs, G::obs_size(), G::NUM_ACTIONS);
        // Not zeroed: a successful step writes every row; on an error they are dropped unseen.
        // SAFETY: new arrays of plain values, not yet shared with Python or borrowed elsewhere.
        let masks = unsafe { PyArray2::<bool>::new(py, [n, a], false) };
        let mask_rows = unsafe { masks.as_slice_mut() }.expect("a new array is contiguous");
        macro_rules! copying {
            ($t:ty, $obs:expr, $final_obs:expr) => {{
                // SAFETY: as for `masks`.
                let obs = unsafe { PyArray2::<$t>::new(py, [n, o], false) };
                let rows = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
                let counts = with_outputs!(self, py, $obs, $final_obs, |engine, acts, out| {
                    let copies = Copies { obs: rows, masks: mask_rows };
                    engine.step_copying(acts, out, copies).map(|_| engine.ended_counts())
                })?;
                (obs.into_any(), counts)
            }};
        }
        let (obs, counts) = match &self.bytes {
            None => copying!(f32, self.obs, self.final_obs),
            Some((o8, f8)) => copying!(u8, o8, f8),
        };
        let (ended, illegal) = counts.map_err(PyErr::from)?;
        if ended > 0 {
            self.update_outcome_info(py)?;
        }
        Ok((obs, masks, ended, illegal))
    }

    pub fn set_plain_outputs(&mut self, py: Python<'_>, outputs: Option<(Py<PyAny>, Py<PyAny>, Py<PyAny>)>) -> PyResult<()> {
        self.idle("setting copy")?;
        let keys = ["action_mask", "_action_mask", "outcome", "_outcome", "illegal_action", "_illegal_action"]
            .map(|k| PyString::intern(py, k).unbind());
        self.plain = outputs.map(|(obs, masks_i8, all_true)| Plain { obs, masks_i8, all_true, keys });
        Ok(())
    }

    /// The Python vector env's step for copy=False without same-step autoreset, whole (see the
    /// class's `step_plain`).
    pub fn step_plain<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        self.idle("step()")?;
        if self.plain.is_none() || !self.ready {
            return Ok(None);
        }
        let Ok(a) = actions.cast::<PyArray1<i64>>() else { return Ok(None) };
        if a.len() != self.num_envs {
            return Ok(None);
        }
        // Out of `self` while the step borrows it, and back whatever the step's result.
        let Some(p) = self.plain.take() else { return Ok(None) };
        let stepped = self.step(py, a);
        self.plain = Some(p);
        let (ended, illegal) = stepped?;
        self.plain_result(py, ended, illegal).map(Some)
    }

    /// What a plain step returns (`step_plain`), after a step that ended `ended` episodes,
    /// `illegal` of them on an illegal action.
    fn plain_result<'py>(&self, py: Python<'py>, ended: usize, illegal: usize) -> PyResult<Bound<'py, PyTuple>> {
        let p = self.plain.as_ref().expect("called only with plain outputs set");
        let k = &p.keys;
        let infos = PyDict::new(py);
        infos.set_item(k[0].bind(py), p.masks_i8.bind(py))?;
        infos.set_item(k[1].bind(py), p.all_true.bind(py))?;
        if ended > 0 {
            infos.set_item(k[2].bind(py), self.outcome_info.bind(py))?;
            infos.set_item(k[3].bind(py), self.terminated.bind(py))?;
            if illegal > 0 {
                // Copies: the flags of the next step overwrite the array.
                let flags = self.illegal.bind(py);
                infos.set_item(k[4].bind(py), flags.to_owned_array().into_pyarray(py))?;
                infos.set_item(k[5].bind(py), flags.to_owned_array().into_pyarray(py))?;
            }
        }
        let out = (p.obs.bind(py), self.rewards.bind(py), self.terminated.bind(py), self.truncated.bind(py), infos);
        out.into_pyobject(py)
    }

    // -- The asynchronous step ---------------------------------------------------------------

    /// An error naming `what` when a send is pending (the engine is with the driver thread).
    fn idle(&self, what: &str) -> PyResult<()> {
        match self.pending {
            None => Ok(()),
            Some(_) => Err(PyRuntimeError::new_err(format!(
                "{what} called while a send() is pending: call recv() first"
            ))),
        }
    }

    fn engine(&self) -> &Engine<G> {
        self.engine.as_ref().expect(AWAY)
    }

    fn engine_mut(&mut self) -> &mut Engine<G> {
        self.engine.as_mut().expect(AWAY)
    }

    /// Whether a send is pending.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Starts stepping every environment with `actions` on the driver thread and returns at once
    /// (`copy`: the step also copies the observation and mask rows, as `step_copy`); `recv`
    /// returns what the step returns.
    pub fn send(&mut self, py: Python<'_>, actions: &Bound<'_, PyArray1<i64>>, copy: bool) -> PyResult<()> {
        self.idle("send()")?;
        self.load_actions(actions)?;
        self.driver()?;
        let (n, o, a) = (self.num_envs, G::obs_size(), G::NUM_ACTIONS);
        let mut copies: SentCopies = None;
        macro_rules! launch {
            ($t:ty, $obs:expr, $final_obs:expr) => {{
                let out = outputs!(self, py, $obs, $final_obs);
                let raw = if copy {
                    // Not zeroed: a successful step writes every row; on an error they are
                    // dropped unseen. SAFETY: new arrays of plain values, not shared yet.
                    let obs = unsafe { PyArray2::<$t>::new(py, [n, o], false) };
                    let masks = unsafe { PyArray2::<bool>::new(py, [n, a], false) };
                    let rows = unsafe { obs.as_slice_mut() }.expect("a new array is contiguous");
                    let mask_rows = unsafe { masks.as_slice_mut() }.expect("a new array is contiguous");
                    // SAFETY: the arrays are kept in `pending` (and the outputs by `self`) until
                    // the step has ended; every method that reads or writes them checks `idle`.
                    let raw = unsafe { RawOutputs::detach(out, Copies { obs: rows, masks: mask_rows }) };
                    copies = Some((obs.into_any().unbind(), masks.unbind()));
                    raw
                } else {
                    // SAFETY: as above.
                    unsafe { RawOutputs::detach(out, Copies::none()) }
                };
                let engine = self.engine.take().expect(AWAY);
                let actions = std::mem::take(&mut self.actions);
                let driver = self.driver.as_ref().expect("started above");
                // SAFETY: as above; dropping the `Pending` waits for the step.
                unsafe { Pending::start(driver, engine, actions, raw) }
            }};
        }
        let pending = match &self.bytes {
            None => launch!(f32, self.obs, self.final_obs),
            Some((o8, f8)) => launch!(u8, o8, f8),
        };
        self.pending = Some((pending, copies));
        Ok(())
    }

    /// The driver thread, started if this batch has none yet.
    fn driver(&mut self) -> PyResult<Arc<Driver>> {
        if self.driver.is_none() {
            let driver = Driver::new(Arc::clone(self.engine().pool()))
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start the driver thread: {e}")))?;
            self.driver = Some(Arc::new(driver));
        }
        Ok(Arc::clone(self.driver.as_ref().expect("set above")))
    }

    /// This batch's threads (worker pool and driver), for another batch to step on.
    pub fn worker_threads(&mut self) -> PyResult<WorkerThreads> {
        self.idle("worker_threads()")?;
        Ok(WorkerThreads { driver: self.driver()? })
    }

    /// Steps this batch on `threads` from now on (see `Engine::use_pool`); its sends queue on
    /// their driver thread behind the other batches'.
    pub fn use_worker_threads(&mut self, threads: &WorkerThreads) -> PyResult<()> {
        self.idle("use_worker_threads()")?;
        let pool = Arc::clone(threads.driver.pool());
        self.engine_mut().use_pool(pool).map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.driver = Some(Arc::clone(&threads.driver));
        self.num_threads = self.engine().num_threads();
        Ok(())
    }

    /// How long the worker threads spin after a step before they sleep, in seconds.
    pub fn worker_spin(&self) -> PyResult<f64> {
        self.idle("worker_spin")?;
        Ok(self.engine().pool().spin().as_secs_f64())
    }

    /// Sets `worker_spin` (seconds, from 0 to 1) for every batch on these threads.
    pub fn set_worker_spin(&self, seconds: f64) -> PyResult<()> {
        self.idle("worker_spin")?;
        let most = crate::vector::pool::MAX_SPIN.as_secs_f64();
        if !(0.0..=most).contains(&seconds) {
            return Err(PyValueError::new_err(format!("worker_spin must be from 0 to {most} seconds, got {seconds}")));
        }
        self.engine().pool().set_spin(std::time::Duration::from_secs_f64(seconds));
        Ok(())
    }

    /// Waits for the step started by `send` (with the GIL released) and returns what the step
    /// would have: the plain step's tuple (plain outputs set, no copies), else `step_copy`'s
    /// (observations, masks, ended, illegal) with `copy`, else `step`'s (ended, illegal).
    pub fn recv<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some((pending, copies)) = self.pending.take() else {
            return Err(PyRuntimeError::new_err("recv() called without a pending send(actions)"));
        };
        let Some(Done { engine, actions, counts }) = py.detach(|| pending.wait()) else {
            return Err(PyRuntimeError::new_err("the driver thread stopped: this vector env is lost"));
        };
        self.engine = Some(engine);
        self.actions = actions;
        let Some(counts) = counts else {
            return Err(PyRuntimeError::new_err("the sent step panicked: this vector env's state is undefined"));
        };
        let (ended, illegal) = counts.map_err(PyErr::from)?;
        if ended > 0 {
            self.update_outcome_info(py)?;
        }
        match copies {
            Some((obs, masks)) => Ok((obs.bind(py), masks.bind(py), ended, illegal).into_pyobject(py)?.into_any()),
            None if self.plain.is_some() => Ok(self.plain_result(py, ended, illegal)?.into_any()),
            None => Ok((ended, illegal).into_pyobject(py)?.into_any()),
        }
    }

    // -- Pickling ----------------------------------------------------------------------------

    /// The batch as versioned JSON: its configuration, counts and mode, and each environment
    /// (game, streams, the action drawn for the next `sample_actions`) whose `seeded` entry is
    /// true (the others were never reset: they are rebuilt as they were made).
    pub fn snapshot(&self, seeded: Vec<bool>) -> PyResult<String> {
        self.idle("pickling")?;
        if seeded.len() != self.num_envs {
            return Err(MaquisError::new_err(format!("seeded must hold {} entries, got {}", self.num_envs, seeded.len())));
        }
        let engine = self.engine();
        let envs: Vec<Value> = seeded
            .iter()
            .enumerate()
            .map(|(i, &s)| match s {
                true => json!({"env": engine.slot(i).snapshot(), "presampled": engine.presampled(i)}),
                false => Value::Null,
            })
            .collect();
        Ok(json!({
            "format": vector_format::<G>(),
            "version": 1,
            "config": engine.config(),
            "num_envs": self.num_envs,
            "num_threads": self.threads_asked,
            "autoreset_mode": self.autoreset.as_str(),
            "observation_dtype": self.observation_dtype(),
            "envs": envs,
        })
        .to_string())
    }

    /// Puts this batch in the state of a `snapshot` of a batch made with the same settings: the
    /// shaping set since, and each environment saved (its rows written as by a reset; the others
    /// are left as they are). Checked whole before anything changes.
    pub fn restore(&mut self, py: Python<'_>, json: &str) -> PyResult<()> {
        self.idle("restore()")?;
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Snap<G: BindGame> {
            format: String,
            version: u32,
            #[serde(bound = "")]
            config: Config<G>,
            num_envs: usize,
            num_threads: usize,
            autoreset_mode: String,
            observation_dtype: String,
            envs: Vec<Value>,
        }
        let bad = |e: String| -> PyErr { Error::BadSave(format!("vector env snapshot: {e}")).into() };
        let snap: Snap<G> = serde_json::from_str(json).map_err(|e| bad(e.to_string()))?;
        if snap.format != vector_format::<G>() || snap.version != 1 {
            return Err(bad(format!(
                "not a {} snapshot of version 1 (format {:?}, version {})",
                vector_format::<G>(),
                snap.format,
                snap.version
            )));
        }
        let cfg = self.engine().config();
        let mine = (cfg.setup.clone(), cfg.rewards.clone(), cfg.illegal);
        let theirs = (snap.config.setup.clone(), snap.config.rewards.clone(), snap.config.illegal);
        let same = [
            ("num_envs", snap.num_envs.to_string(), self.num_envs.to_string()),
            ("envs", snap.envs.len().to_string(), self.num_envs.to_string()),
            ("autoreset_mode", snap.autoreset_mode.clone(), self.autoreset.as_str().to_string()),
            ("observation_dtype", snap.observation_dtype.clone(), self.observation_dtype().to_string()),
        ];
        for (what, theirs, mine) in same {
            if theirs != mine {
                return Err(bad(format!("{what} is {theirs}, this vector env's is {mine}")));
            }
        }
        if mine != theirs {
            return Err(bad("its game settings (setup, rewards, illegal actions) are not this vector env's".into()));
        }
        let _ = snap.num_threads; // the new batch keeps its own: trajectories do not depend on it
        let mut envs = Vec::new();
        for (i, env) in snap.envs.iter().enumerate() {
            if env.is_null() {
                continue;
            }
            let slot = Slot::<G>::from_snapshot(&env["env"]).map_err(|e| bad(format!("env {i}: {e}")))?;
            let presampled: Option<i64> =
                serde_json::from_value(env["presampled"].clone()).map_err(|e| bad(format!("env {i}: presampled: {e}")))?;
            envs.push((i, slot, presampled));
        }
        self.engine_mut().set_shaping(snap.config.shaping);
        with_outputs!(self, py, |engine, _a, out| {
            for (i, slot, presampled) in envs {
                engine.restore(i, slot, presampled, out);
            }
        })
    }

    pub fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        self.idle("sample_actions()")?;
        // Not zeroed first: `sample_actions` writes every entry before Python sees the array.
        // SAFETY: a new array of plain integers, not yet shared with Python or borrowed
        // elsewhere, and fully written below.
        let a = unsafe { PyArray1::<i64>::new(py, self.num_envs, false) };
        self.engine_mut().sample_actions(unsafe { a.as_slice_mut() }.expect("a new array is contiguous"));
        Ok(a)
    }

    pub fn state_dict<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        self.idle("state_dict()")?;
        let i = env_index(i, self.num_envs)?;
        json_to_py(py, &G::state_dict(self.engine().slot(i).state()))
    }

    pub fn save_state(&self, i: usize) -> PyResult<String> {
        self.idle("save_state()")?;
        let i = env_index(i, self.num_envs)?;
        let engine = self.engine();
        let slot = engine.slot(i);
        let (episode, sample) = slot.streams();
        // The action drawn ahead for the next `sample_actions` is saved as the stream before that
        // draw where it can be found (the save is then a single env's in the same place).
        let (sample, presampled) = match engine.presampled(i) {
            // A finished episode's entry (0) was not drawn.
            Some(_) if slot.done() => (sample.clone(), None),
            Some(a) => match save::before_draw::<G>(slot.mask(), sample, a) {
                Some(before) => (before, None),
                None => (sample.clone(), Some(a)),
            },
            None => (sample.clone(), None),
        };
        let streams = save::EnvStreams { episode: episode.clone(), sample, presampled };
        Ok(save::with_streams(G::save(slot.state()), &streams))
    }

    pub fn load_state(&mut self, py: Python<'_>, i: usize, json: &str) -> PyResult<()> {
        self.idle("load_state()")?;
        let i = env_index(i, self.num_envs)?;
        let (game, streams) = save::split_streams::<G>(json).map_err(|e| save::refusal::<G>(json, e))?;
        let state = save::load::<G>(&game).map_err(|e| save::refusal::<G>(json, e))?;
        match streams {
            // The env as saved, its streams and drawn action included.
            Some(s) => {
                let mut slot = self.engine().slot(i).clone();
                slot.set_state(state);
                slot.set_streams(s.episode, s.sample);
                with_outputs!(self, py, |engine, _a, out| engine.restore(i, slot, s.presampled, out))
            }
            None => with_outputs!(self, py, |engine, _a, out| engine.load_state(i, state, out)),
        }
    }

    pub fn set_start_states(&mut self, states: Option<Vec<String>>, weights: Option<Vec<f64>>, probability: f64) -> PyResult<()> {
        self.idle("set_start_states()")?;
        let Some(states) = states else {
            self.engine_mut().set_start_states(None);
            return Ok(());
        };
        // Said first for a game that has no curricula, whatever the states.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
        if G::redraw_hidden(&mut G::placeholder(), &mut rng).is_err() {
            return Err(Error::BadOption(format!("start states: {} has no start-state curricula", G::SAVES.title)).into());
        }
        let loaded = states
            .iter()
            .enumerate()
            .map(|(i, json)| save::load::<G>(json).map_err(|e| Error::BadOption(format!("start states: state {i}: {e}"))))
            .collect::<Result<Vec<_>>>()?;
        let pool = StartStates::new(loaded, weights, probability)?;
        self.engine_mut().set_start_states(Some(pool));
        Ok(())
    }

    pub fn set_start_probability(&mut self, probability: f64) -> PyResult<()> {
        self.idle("set_start_probability()")?;
        Ok(self.engine_mut().set_start_probability(probability)?)
    }

    pub fn start_states(&self) -> PyResult<Option<(usize, f64)>> {
        self.idle("start_states")?;
        Ok(self.engine().config().start.as_ref().map(|p| (p.len(), p.probability())))
    }

    pub fn shaping(&self) -> PyResult<Option<String>> {
        self.idle("shaping")?;
        Ok(shaping_json(self.engine().config()))
    }

    pub fn set_shaping(&mut self, shaping: Option<&str>) -> PyResult<()> {
        self.idle("set_shaping()")?;
        self.engine_mut().set_shaping(parse_shaping::<G>(shaping)?);
        Ok(())
    }

    pub fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows = match &self.bytes {
            Some((obs, _)) => obs.bind(py).as_any(),
            None => self.obs.bind(py).as_any(),
        };
        let view = rows.call_method0("view")?;
        view.getattr("flags")?.setattr("writeable", false)?;
        Ok(view)
    }
    pub fn masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.masks.bind(py).clone()
    }
    pub fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        self.rewards.bind(py).clone()
    }
    pub fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    pub fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    pub fn outcomes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        self.outcomes.bind(py).clone()
    }
    pub fn outcome_info<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<Py<PyAny>>> {
        self.outcome_info.bind(py).clone()
    }
    pub fn illegal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.illegal.bind(py).clone()
    }
    pub fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match &self.bytes {
            Some((_, final_obs)) => final_obs.bind(py).clone().into_any(),
            None => self.final_obs.bind(py).clone().into_any(),
        }
    }

    pub fn observation_dtype(&self) -> &'static str {
        observation_dtype(self.bytes.is_some())
    }

    /// Switches the rows to `dtype`, as new zeroed arrays: every environment needs a reset.
    pub fn set_observation_dtype(&mut self, py: Python<'_>, dtype: &str) -> PyResult<()> {
        self.idle("setting observation_dtype")?;
        let bytes = parse_observation_dtype(dtype)?;
        let (n, o) = (self.num_envs, G::obs_size());
        // The rows of the type not in use are left empty.
        let floats = if bytes { 0 } else { n };
        self.obs = aligned_rows(py, floats, o)?.unbind();
        self.final_obs = aligned_rows(py, floats, o)?.unbind();
        self.bytes = if bytes { Some((aligned_rows(py, n, o)?.unbind(), aligned_rows(py, n, o)?.unbind())) } else { None };
        self.ready = false;
        Ok(())
    }

    pub fn repr(&self) -> String {
        format!(
            "{}VecEngine(num_envs={}, num_threads={}, autoreset_mode={:?})",
            G::REPR_PREFIX,
            self.num_envs,
            self.num_threads,
            self.autoreset.as_str()
        )
    }
}

/// The format tag of a game's pickled vector envs.
fn vector_format<G: BindGame>() -> String {
    format!("{}-vector", G::NAME)
}

/// The `shaping` keyword's JSON (None: no shaping), validated; a game without potential terms
/// refuses any shaping by name.
pub fn parse_shaping<G: BindGame>(shaping: Option<&str>) -> Result<Option<Shaping>> {
    if shaping.is_some() && G::POTENTIAL_TERMS.is_empty() {
        return Err(Error::BadOption(format!("shaping: {} has no shaping potential (no potential terms)", G::SAVES.title)));
    }
    shaping.map(Shaping::from_json::<G>).transpose()
}

/// Adds `POTENTIAL_TERMS` to a game's submodule `m`: its shaping terms as (name, default weight)
/// pairs in the order of its potential, the one list the Python keyword checks against.
pub fn add_potential_terms<G: BindGame>(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("POTENTIAL_TERMS", PyTuple::new(m.py(), G::POTENTIAL_TERMS.iter().copied())?)
}

/// The shaping of `cfg` as JSON (`{"gamma": γ, "weights": {term: w}}`), or None.
pub fn shaping_json<G: BindGame>(cfg: &Config<G>) -> Option<String> {
    cfg.shaping.map(|s| s.to_json::<G>().to_string())
}

/// A game's `VecEngine` class: `$name` holding a `VecCore<$game>`, with the shared methods and
/// the game's own `$extra` ones (its `#[new]` at least) in one `#[pymethods]` block.
macro_rules! vec_engine_class {
    ($(#[$meta:meta])* $name:ident, $game:ty, { $($extra:tt)* }) => {
        $(#[$meta])*
        pub struct $name {
            core: $crate::py::common::vector::VecCore<$game>,
        }

        #[pyo3::pymethods]
        impl $name {
            $($extra)*

            /// Start new episodes, writing the rows of the environments reset.
            ///
            /// Args:
            ///     seeds: None, or one stream seed (or None: keep its streams) per environment.
            ///     mask: None (all), or a bool (num_envs,) array of the environments to reset.
            ///     options: JSON of the reset options for these episodes only.
            ///
            /// Raises:
            ///     ValueError: wrong lengths. MaquisError: bad options ("env i: …" when one
            ///     environment's game cannot be made). Nothing changes on error.
            #[pyo3(signature = (seeds=None, mask=None, options=None))]
            fn reset(
                &mut self,
                py: pyo3::Python<'_>,
                seeds: Option<Vec<Option<u64>>>,
                mask: Option<numpy::PyReadonlyArray1<'_, bool>>,
                options: Option<&str>,
            ) -> pyo3::PyResult<()> {
                self.core.reset(py, seeds, mask, options)
            }

            /// Step every environment (the action of one being autoreset is ignored).
            ///
            /// Args:
            ///     actions: int64 (num_envs,) action indices.
            ///
            /// Raises:
            ///     ValueError: wrong shape. MaquisError / IllegalActionError "env i: …": an action out
            ///     of range, an illegal action with illegal_action="raise", or a finished environment
            ///     without next_step autoreset. Nothing changes on error.
            ///
            /// Returns:
            ///     (ended, illegal): how many episodes ended on this step, and how many of them on an
            ///     illegal action (so that the caller builds end-of-episode infos only when needed).
            fn step(&mut self, py: pyo3::Python<'_>, actions: &pyo3::Bound<'_, numpy::PyArray1<i64>>) -> pyo3::PyResult<(usize, usize)> {
                self.core.step(py, actions)
            }

            /// `step`, also returning new arrays holding copies of the observations and the masks, made
            /// by the worker threads as each row is written (no second pass over the batch: the cost of
            /// `copy=True`).
            ///
            /// Returns:
            ///     (observations copy, masks copy (bool), ended, illegal). Errors as for `step`.
            fn step_copy<'py>(
                &mut self,
                py: pyo3::Python<'py>,
                actions: &pyo3::Bound<'py, numpy::PyArray1<i64>>,
            ) -> pyo3::PyResult<$crate::py::common::vector::Copied<'py>> {
                self.core.step_copy(py, actions)
            }

            /// Hand out `obs`, `masks_i8` and `all_true` from `step_plain` (None: no plain steps).
            #[pyo3(signature = (outputs=None))]
            fn set_plain_outputs(&mut self, py: pyo3::Python<'_>, outputs: Option<(pyo3::Py<pyo3::PyAny>, pyo3::Py<pyo3::PyAny>, pyo3::Py<pyo3::PyAny>)>) -> pyo3::PyResult<()> {
                self.core.set_plain_outputs(py, outputs)
            }

            /// The vector env's `step` for copy=False without same-step autoreset, whole: the arrays
            /// themselves and the infos, or None when it is not that case or `actions` is not an int64
            /// (num_envs,) array of ready environments (the caller's checked path then steps, or says
            /// what is wrong). Errors as for `step`.
            fn step_plain<'py>(
                &mut self,
                py: pyo3::Python<'py>,
                actions: &pyo3::Bound<'py, pyo3::PyAny>,
            ) -> pyo3::PyResult<Option<pyo3::Bound<'py, pyo3::types::PyTuple>>> {
                self.core.step_plain(py, actions)
            }

            /// Start stepping every environment with `actions` on a driver thread of this batch and
            /// return at once (the GIL released meanwhile); `recv()` waits for the step and returns
            /// what `step` (or `step_copy` with `copy`, or `step_plain` with plain outputs set)
            /// would have. Until then the output arrays belong to the step: every other method
            /// raises RuntimeError.
            ///
            /// Raises:
            ///     RuntimeError: a send already pending. ValueError: wrong shape. The step's own
            ///     errors are raised by `recv`, and then nothing has changed.
            #[pyo3(signature = (actions, copy=false))]
            fn send(&mut self, py: pyo3::Python<'_>, actions: &pyo3::Bound<'_, numpy::PyArray1<i64>>, copy: bool) -> pyo3::PyResult<()> {
                self.core.send(py, actions, copy)
            }

            /// The result of the step started by `send` (see `send`).
            ///
            /// Raises:
            ///     RuntimeError: no send pending. MaquisError / IllegalActionError: as for `step`.
            fn recv<'py>(&mut self, py: pyo3::Python<'py>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                self.core.recv(py)
            }

            /// The stream seed of each of `num_envs` environments of a vector reset with `seed`:
            /// the one a single env reset with `maquis.sub_env_seed(seed, i)` draws
            /// (`crate::env::seeding`; also `Engine::seed_all`'s).
            #[staticmethod]
            fn stream_seeds(seed: u64, num_envs: usize) -> Vec<u64> {
                (0..num_envs).map(|i| $crate::env::stream_seed(seed, i)).collect()
            }

            /// The threads this batch steps on (its worker pool and the driver thread of `send`),
            /// for another batch to step on too (`use_worker_threads`).
            ///
            /// Raises:
            ///     RuntimeError: a send pending.
            fn worker_threads(&mut self) -> pyo3::PyResult<$crate::py::common::threads::WorkerThreads> {
                self.core.worker_threads()
            }

            /// Step on `threads` (another batch's `worker_threads()`, of any game) from now on:
            /// the batches take turns on one pool, and a `send` queues behind the other batches'
            /// sent steps. `num_threads` becomes theirs; trajectories do not change.
            ///
            /// Raises:
            ///     RuntimeError: a send pending. ValueError: more threads than environments.
            fn use_worker_threads(&mut self, threads: &$crate::py::common::threads::WorkerThreads) -> pyo3::PyResult<()> {
                self.core.use_worker_threads(threads)
            }

            /// Seconds the worker threads spin after a step, waiting for the next, before they
            /// sleep (200 µs by default; shared by the batches on these threads). Longer than the
            /// caller's time between steps (a learner's step on a GPU, whose cores are otherwise
            /// idle) spares each step the wake-up of sleeping threads; short leaves the cores to a
            /// learner on the CPU.
            ///
            /// Raises:
            ///     RuntimeError: a send pending. ValueError (setting): outside [0, 1].
            #[getter]
            fn get_worker_spin(&self) -> pyo3::PyResult<f64> {
                self.core.worker_spin()
            }
            #[setter]
            fn set_worker_spin(&self, seconds: f64) -> pyo3::PyResult<()> {
                self.core.set_worker_spin(seconds)
            }

            /// Whether a `send` waits for its `recv`.
            #[getter]
            fn pending(&self) -> bool {
                self.core.is_pending()
            }

            /// The batch as versioned JSON (configuration, counts, and each environment whose
            /// `seeded` entry is true: game, streams, drawn action), for pickling; `restore` puts a
            /// batch made with the same settings in that state.
            ///
            /// Raises:
            ///     RuntimeError: a send pending. MaquisError: `seeded` of the wrong length.
            fn snapshot(&self, seeded: Vec<bool>) -> pyo3::PyResult<String> {
                self.core.snapshot(seeded)
            }

            /// Put this batch, made with the same settings, in the state of a `snapshot()`: the
            /// shaping set since, and each environment saved (its rows written as by a reset).
            ///
            /// Raises:
            ///     MaquisError: a malformed snapshot, another game's, or one of other settings.
            ///     RuntimeError: a send pending. Nothing changes on error.
            fn restore(&mut self, py: pyo3::Python<'_>, json: &str) -> pyo3::PyResult<()> {
                self.core.restore(py, json)
            }

            /// One uniformly random legal action per environment (0 for a finished one), int64
            /// (num_envs,), each from its environment's sampling stream.
            fn sample_actions<'py>(&mut self, py: pyo3::Python<'py>) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray1<i64>>> {
                self.core.sample_actions(py)
            }

            /// The full game state of environment `i` as plain Python data.
            fn state_dict<'py>(&self, py: pyo3::Python<'py>, i: usize) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                self.core.state_dict(py, i)
            }

            /// Environment `i`'s game as versioned JSON (as `Env.save_state`).
            fn save_state(&self, i: usize) -> pyo3::PyResult<String> {
                self.core.save_state(i)
            }

            /// Replace the game of environment `i` by a saved one (`save_state`), writing its rows as a
            /// reset does; its streams too when the save holds them (an env's `save_state` does: its
            /// resets and samples then go on as the saved env's), else they go on as they are. The
            /// other environments are untouched.
            ///
            /// Raises:
            ///     IndexError: `i` out of range. MaquisError: malformed or inconsistent JSON (the
            ///     same checks as `Env.load_state`), or another game's save (naming it). Nothing
            ///     changes on error.
            fn load_state(&mut self, py: pyo3::Python<'_>, i: usize, json: &str) -> pyo3::PyResult<()> {
                self.core.load_state(py, i, json)
            }

            /// Start the episodes that begin from now on (autoresets, and resets without options) from
            /// these saved games with `probability` (each drawn in proportion to `weights`, uniformly if
            /// None; hidden information redrawn); None: every episode is a new game again.
            ///
            /// Raises:
            ///     MaquisError: a game without start-state curricula; "start states: state i …" for a
            ///     malformed, inconsistent or finished game; bad weights or probability. Nothing
            ///     changes on error.
            #[pyo3(signature = (states, weights=None, probability=1.0))]
            fn set_start_states(&mut self, states: Option<Vec<String>>, weights: Option<Vec<f64>>, probability: f64) -> pyo3::PyResult<()> {
                self.core.set_start_states(states, weights, probability)
            }

            /// Change the probability of the start-state pool (annealing) without reloading it.
            ///
            /// Raises:
            ///     MaquisError: no pool set, or a probability outside [0, 1].
            fn set_start_probability(&mut self, probability: f64) -> pyo3::PyResult<()> {
                self.core.set_start_probability(probability)
            }

            /// (number of start states, probability), or None without a pool.
            #[getter]
            fn start_states(&self) -> pyo3::PyResult<Option<(usize, f64)>> {
                self.core.start_states()
            }

            /// The shaping as JSON {"gamma": γ, "weights": {term: w}}, or None.
            #[getter]
            fn shaping(&self) -> pyo3::PyResult<Option<String>> {
                self.core.shaping()
            }

            /// Add potential-based shaping to the rewards of the steps from now on: the JSON of
            /// {"gamma": γ, "weights": {term: w}} (both optional), or None for the outcome reward alone.
            ///
            /// Raises:
            ///     MaquisError: a game without potential terms, unknown keys or terms, γ outside
            ///     (0, 1], non-finite weights.
            #[pyo3(signature = (shaping=None))]
            fn set_shaping(&mut self, shaping: Option<&str>) -> pyo3::PyResult<()> {
                self.core.set_shaping(shaping)
            }

            /// (num_envs, observation size) of `observation_dtype`: the observations, as a read-only
            /// view (a step may rewrite only the parts of each row that changed, so the rows must hold
            /// what it wrote last).
            #[getter]
            fn observations<'py>(&self, py: pyo3::Python<'py>) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::PyAny>> {
                self.core.observations(py)
            }
            /// bool (num_envs, NUM_ACTIONS): the legal actions (none for a finished environment).
            #[getter]
            fn masks<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray2<bool>> {
                self.core.masks(py)
            }
            /// float32 (num_envs,): the rewards of the last step.
            #[getter]
            fn rewards<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<f32>> {
                self.core.rewards(py)
            }
            /// bool (num_envs,): the episode ended on the last step.
            #[getter]
            fn terminated<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<bool>> {
                self.core.terminated(py)
            }
            /// bool (num_envs,): always False (games end by the rules).
            #[getter]
            fn truncated<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<bool>> {
                self.core.truncated(py)
            }
            /// int8 (num_envs,): index into OUTCOMES of the episode that ended on the last step, else -1.
            #[getter]
            fn outcomes<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<i8>> {
                self.core.outcomes(py)
            }
            /// object (num_envs,): the outcome's name ("win", ...) for each environment whose episode
            /// ended on the last step that ended any, else None. Updated in place by `step`.
            #[getter]
            fn outcome_info<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<pyo3::Py<pyo3::PyAny>>> {
                self.core.outcome_info(py)
            }
            /// bool (num_envs,): the episode ended on an illegal action on the last step.
            #[getter]
            fn illegal<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, numpy::PyArray1<bool>> {
                self.core.illegal(py)
            }
            /// (num_envs, observation size) of `observation_dtype`: same_step only, the last
            /// observation of each environment that ended on the last step (other rows are stale).
            #[getter]
            fn final_observations<'py>(&self, py: pyo3::Python<'py>) -> pyo3::Bound<'py, pyo3::PyAny> {
                self.core.final_observations(py)
            }

            /// "float32" (the default) or "uint8": the type of `observations` and `final_observations`.
            #[getter]
            fn get_observation_dtype(&self) -> &'static str {
                self.core.observation_dtype()
            }
            /// Switch the observation rows to `dtype` ("float32" or "uint8"; ValueError for any other),
            /// as new zeroed arrays: every environment needs a reset before its next step.
            #[setter]
            fn set_observation_dtype(&mut self, py: pyo3::Python<'_>, dtype: &str) -> pyo3::PyResult<()> {
                self.core.set_observation_dtype(py, dtype)
            }

            /// Every environment has been reset at least once (kept by the Python vector env).
            #[getter]
            fn get_ready(&self) -> bool {
                self.core.ready
            }
            #[setter]
            fn set_ready(&mut self, ready: bool) {
                self.core.ready = ready;
            }

            #[getter]
            fn num_envs(&self) -> usize {
                self.core.num_envs
            }
            /// The worker threads actually used.
            #[getter]
            fn num_threads(&self) -> usize {
                self.core.num_threads
            }
            /// "next_step", "same_step" or "disabled".
            #[getter]
            fn autoreset_mode(&self) -> &'static str {
                self.core.autoreset.as_str()
            }
            /// "terminate" or "raise".
            #[getter]
            fn illegal_action(&self) -> &'static str {
                self.core.illegal_policy
            }

            fn __repr__(&self) -> String {
                self.core.repr()
            }
        }
    };
}
