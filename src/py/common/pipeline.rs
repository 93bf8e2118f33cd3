//! The asynchronous step of a batch (`VecCore::send` / `recv`, EnvPool's API): `send` moves the
//! engine to a driver thread (the batch's own, or shared with the batches on its worker pool,
//! whose sent steps queue in turn), which steps it on the pool while the caller's thread goes on
//! (a learner runs its network on the last observations); `recv` waits for the step and takes
//! the engine back. The engine is moved, not shared, so that nothing on the
//! caller's side can reach it during the step; only the output arrays, owned by the caller and
//! kept alive by it, are written through the raw pointers below.

use crate::env::EnvError;
use crate::game::Game;
use crate::vector::pool::Pool;
use crate::vector::{Copies, Engine, Outputs};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

type Job = Box<dyn FnOnce() + Send>;

/// A persistent thread that runs the sent steps of the batches on one pool, one at a time, in
/// the order they were sent. It sleeps between steps: spinning it too measured slower on the
/// 16-core GPU machine (docs/performance.md).
pub struct Driver {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<thread::JoinHandle<()>>,
    /// The pool the steps run on.
    pool: Arc<Pool>,
}

impl Driver {
    pub fn new(pool: Arc<Pool>) -> std::io::Result<Driver> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = thread::Builder::new().name("maquis-driver".into()).spawn(move || {
            for job in queue {
                job();
            }
        })?;
        Ok(Driver { jobs: Some(jobs), thread: Some(thread), pool })
    }

    /// The pool the driver's steps run on.
    pub fn pool(&self) -> &Arc<Pool> {
        &self.pool
    }

    fn run(&self, job: Job) {
        // The thread only ends when `jobs` is dropped, with the driver.
        self.jobs.as_ref().expect("a live driver has its queue").send(job).expect("the driver thread outlives its queue");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        drop(self.jobs.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A slice as a pointer and a length, to hand to the driver thread.
struct RawSlice<T> {
    ptr: *mut T,
    len: usize,
}

// SAFETY: only the driver thread uses the slice, while its owner waits (see `Outputs::detach`).
unsafe impl<T: Send> Send for RawSlice<T> {}

impl<T> RawSlice<T> {
    fn of(s: &mut [T]) -> Self {
        RawSlice { ptr: s.as_mut_ptr(), len: s.len() }
    }
    /// SAFETY: the memory is alive, and used by nothing else, for `'a`.
    unsafe fn get<'a>(self) -> &'a mut [T] {
        std::slice::from_raw_parts_mut(self.ptr, self.len)
    }
}

/// `Outputs` and `Copies` without their lifetime, for the driver thread.
pub struct RawOutputs<T> {
    obs: RawSlice<T>,
    masks: RawSlice<bool>,
    rewards: RawSlice<f32>,
    terminated: RawSlice<bool>,
    truncated: RawSlice<bool>,
    outcomes: RawSlice<i8>,
    illegal: RawSlice<bool>,
    final_obs: RawSlice<T>,
    obs_kept: bool,
    copy_obs: RawSlice<T>,
    copy_masks: RawSlice<bool>,
}

impl<T> RawOutputs<T> {
    /// SAFETY: every array of `out` and `copies` stays alive, and is neither read nor written by
    /// anything else, until the step that `Pending::wait` returns has ended.
    pub unsafe fn detach(out: Outputs<'_, T>, copies: Copies<'_, T>) -> Self {
        RawOutputs {
            obs: RawSlice::of(out.obs),
            masks: RawSlice::of(out.masks),
            rewards: RawSlice::of(out.rewards),
            terminated: RawSlice::of(out.terminated),
            truncated: RawSlice::of(out.truncated),
            outcomes: RawSlice::of(out.outcomes),
            illegal: RawSlice::of(out.illegal),
            final_obs: RawSlice::of(out.final_obs),
            obs_kept: out.obs_kept,
            copy_obs: RawSlice::of(copies.obs),
            copy_masks: RawSlice::of(copies.masks),
        }
    }

    /// SAFETY: as for `detach`.
    unsafe fn attach<'a>(self) -> (Outputs<'a, T>, Copies<'a, T>) {
        let out = Outputs {
            obs: self.obs.get(),
            masks: self.masks.get(),
            rewards: self.rewards.get(),
            terminated: self.terminated.get(),
            truncated: self.truncated.get(),
            outcomes: self.outcomes.get(),
            illegal: self.illegal.get(),
            final_obs: self.final_obs.get(),
            obs_kept: self.obs_kept,
        };
        (out, Copies { obs: self.copy_obs.get(), masks: self.copy_masks.get() })
    }
}

/// (episodes ended, of which on an illegal action), or why the step was refused.
pub type Counts = std::result::Result<(usize, usize), EnvError>;

/// What a sent step gives back: the engine, the actions buffer, and the step's counts (None: the
/// step panicked).
pub struct Done<G: Game> {
    pub engine: Engine<G>,
    pub actions: Vec<i64>,
    pub counts: Option<Counts>,
}

/// A step running on the driver thread.
pub struct Pending<G: Game> {
    /// In a mutex only to be `Sync` (as a pyclass's fields must be): one owner receives.
    done: Mutex<mpsc::Receiver<Done<G>>>,
}

impl<G: Game> Pending<G> {
    /// Starts `engine.step_copying(actions, outputs, copies)` on `driver`.
    ///
    /// SAFETY: as for `RawOutputs::detach`: the arrays behind `outputs` stay alive and untouched
    /// until `wait` has returned (or the `Pending` is dropped, which waits).
    pub unsafe fn start<T>(driver: &Driver, mut engine: Engine<G>, actions: Vec<i64>, outputs: RawOutputs<T>) -> Self
    where
        T: crate::obs_value::ObsValue + Send + 'static,
        G: crate::obs_value::Observes<T>,
    {
        let (send, done) = mpsc::sync_channel(1);
        driver.run(Box::new(move || {
            let counts = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // SAFETY: the caller's promise, until `send` below hands the step back.
                let (mut out, copies) = unsafe { outputs.attach() };
                engine.step_copying(&actions, &mut out, copies).map(|_| engine.ended_counts())
            }))
            .ok();
            let _ = send.send(Done { engine, actions, counts });
        }));
        Pending { done: Mutex::new(done) }
    }

    /// Waits for the step (None: the driver thread died, and the engine with it).
    pub fn wait(self) -> Option<Done<G>> {
        self.receive()
    }

    fn receive(&self) -> Option<Done<G>> {
        self.done.lock().unwrap_or_else(|e| e.into_inner()).recv().ok()
    }
}

impl<G: Game> Drop for Pending<G> {
    fn drop(&mut self) {
        // Dropped unreceived (the batch itself is going away): the arrays must outlive the step.
        let _ = self.receive();
    }
}
