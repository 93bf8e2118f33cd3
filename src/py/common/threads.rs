//! `WorkerThreads`: a batch's worker pool and driver thread, as a handle another batch (of any
//! game) can step on (`VecEngine.use_worker_threads`). Batches stepped in turn (one half while a
//! learner runs its network on the other) then take turns on one set of threads, where two pools
//! would each take the cores, or spin beside each other.

use super::pipeline::Driver;
use pyo3::prelude::*;
use std::sync::Arc;

/// The threads a vector engine steps on: its worker pool and the driver thread of `send`.
/// From `VecEngine.worker_threads()`; opaque.
#[pyclass(module = "maquis._core", frozen)]
pub struct WorkerThreads {
    /// The driver thread, which holds the pool its steps run on.
    pub(crate) driver: Arc<Driver>,
}

#[pymethods]
impl WorkerThreads {
    /// Threads in all: the workers and the thread that runs each step's first share.
    #[getter]
    fn num_threads(&self) -> usize {
        self.driver.pool().threads()
    }

    fn __repr__(&self) -> String {
        format!("WorkerThreads(num_threads={})", self.driver.pool().threads())
    }
}
