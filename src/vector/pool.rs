//! A fork-join pool for the vector environment: `run(f)` calls `f(0)` on the caller's thread and
//! `f(1)`…`f(n-1)` on `n-1` persistent workers, and returns when all have finished.
//!
//! Why not rayon's pool: rayon parks its threads between calls, and waking a parked thread can
//! cost as much as a whole step of a large batch. Here a worker spins for a short while after each job before
//! it parks, so back-to-back calls (`sample_actions`, `step`, `sample_actions`, …) cost a few
//! atomic operations; a caller that goes quiet (a policy update, say) finds the workers parked
//! again after the spin (`SPIN` unless `set_spin`). The caller works too, so `n` threads use `n`
//! cores, not `n + 1`; and worker `i` always gets index `i`, so that the vector environment can
//! give it the same share of the environments every time, which then stays in its core's cache.
//!
//! Several batches may share one pool (`Arc<Pool>`: batches stepped in turn, one half while a
//! learner runs its network on the other): their jobs then run one after the other, each on
//! every thread, instead of two pools' workers spinning beside each other.

use std::cell::UnsafeCell;
use std::hint::spin_loop;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle worker spins before it parks, unless set (`set_spin`).
pub const SPIN: Duration = Duration::from_micros(200);
/// The longest spin `set_spin` accepts.
pub const MAX_SPIN: Duration = Duration::from_secs(1);

/// The job of the current epoch, borrowed from `run`'s caller for the duration of the call.
type Job = *const (dyn Fn(usize) + Sync);

/// Keeps a hot atomic on its own cache line (the caller and the workers write different ones).
#[repr(align(128))]
struct Padded<T>(T);

struct Shared {
    /// Bumped once per job: a worker runs the job when it sees a new value.
    epoch: Padded<AtomicU64>,
    /// Workers still running the current job.
    pending: Padded<AtomicUsize>,
    /// Written by `run` before it bumps `epoch`, read by workers after they see the bump, and not
    /// written again before every worker has decremented `pending`.
    job: UnsafeCell<Option<Job>>,
    /// Workers parked (or about to park) on `wake`.
    parked: AtomicUsize,
    /// How long an idle worker spins before it parks, in nanoseconds.
    spin_ns: AtomicU64,
    lock: Mutex<()>,
    wake: Condvar,
    shutdown: AtomicBool,
    /// A worker's share of the last job panicked.
    panicked: AtomicBool,
}

impl Shared {
    fn spin(&self) -> Duration {
        Duration::from_nanos(self.spin_ns.load(Ordering::Relaxed))
    }
}

// SAFETY: `job` is only accessed under the epoch/pending protocol described on the field.
unsafe impl Sync for Shared {}
unsafe impl Send for Shared {}

pub struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// Held for a whole `run`: callers on different threads (batches sharing the pool) take turns.
    one_job: Mutex<()>,
}

impl Pool {
    /// A pool of `threads` threads in all: the caller plus `threads - 1` workers.
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let shared = Arc::new(Shared {
            epoch: Padded(AtomicU64::new(0)),
            pending: Padded(AtomicUsize::new(0)),
            job: UnsafeCell::new(None),
            parked: AtomicUsize::new(0),
            spin_ns: AtomicU64::new(SPIN.as_nanos() as u64),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            shutdown: AtomicBool::new(false),
            panicked: AtomicBool::new(false),
        });
        let mut workers = Vec::new();
        for index in 1..threads.max(1) {
            let s = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("maquis-vec-{index}"))
                .spawn(move || worker(&s, index));
            match spawned {
                Ok(h) => workers.push(h),
                Err(e) => {
                    // Stop the ones already started before reporting.
                    drop(Pool { shared, workers, one_job: Mutex::new(()) });
                    return Err(e);
                }
            }
        }
        Ok(Pool { shared, workers, one_job: Mutex::new(()) })
    }

    /// Threads in all, the caller's included.
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// How long an idle worker spins before it parks.
    pub fn spin(&self) -> Duration {
        self.shared.spin()
    }

    /// Sets how long an idle worker spins before it parks (at most `MAX_SPIN`): longer than the
    /// caller's time between two jobs (a learner's step on a GPU) spares every job the wake-up of
    /// parked workers; shorter gives the cores back to work of the caller's that needs them.
    pub fn set_spin(&self, spin: Duration) {
        self.shared.spin_ns.store(spin.min(MAX_SPIN).as_nanos() as u64, Ordering::Relaxed);
    }

    /// Calls `f(i)` once for every `i` in `0..threads()`, concurrently, and returns when all
    /// calls have returned. A panic in any call is re-raised here after all have finished.
    pub fn run(&self, f: &(dyn Fn(usize) + Sync)) {
        if self.workers.is_empty() {
            return f(0);
        }
        // Poisoning needs a panic inside `run` itself, which is re-raised after the workers end.
        let _turn = self.one_job.lock().unwrap_or_else(|e| e.into_inner());
        let s = &*self.shared;
        // SAFETY: no worker reads `job` now (`pending` is 0 since the last call returned), and
        // this call does not return before every worker is done with it, so erasing the
        // lifetime of `f` cannot let a worker use it after it is gone.
        unsafe {
            *s.job.get() = Some(std::mem::transmute::<&(dyn Fn(usize) + Sync), Job>(f));
        }
        s.pending.0.store(self.workers.len(), Ordering::Relaxed);
        s.epoch.0.fetch_add(1, Ordering::SeqCst);
        if s.parked.load(Ordering::SeqCst) > 0 {
            let _g = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| f(0)));
        let mut spins = 0u32;
        while s.pending.0.load(Ordering::Acquire) != 0 {
            // Workers are running, not parked: wait for them without sleeping, but give the
            // core away now and then in case one of them was descheduled.
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(1024) {
                std::thread::yield_now();
            } else {
                spin_loop();
            }
        }
        if let Err(p) = mine {
            s.panicked.store(false, Ordering::Relaxed);
            resume_unwind(p);
        }
        if s.panicked.swap(false, Ordering::Relaxed) {
            panic!("a maquis-vec worker thread panicked");
        }
    }
}

fn worker(s: &Shared, index: usize) {
    let mut seen = 0u64;
    loop {
        // Wait for the next job: spin, then park.
        let start = Instant::now();
        let spin = s.spin();
        let mut spins = 0u32;
        loop {
            let e = s.epoch.0.load(Ordering::Acquire);
            if e != seen {
                seen = e;
                break;
            }
            if s.shutdown.load(Ordering::Relaxed) {
                return;
            }
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(256) {
                spin_loop();
                continue;
            }
            if start.elapsed() < spin {
                // Now and then, the core to any other thread that waits for it (a caller's
                // thread beside as many workers as cores, say) instead of spinning it out.
                std::thread::yield_now();
                continue;
            }
            let mut g = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.parked.fetch_add(1, Ordering::SeqCst);
            // `run` bumps `epoch` before it reads `parked`: re-checking after announcing this
            // worker as parked means a job cannot slip by without a wake-up.
            while s.epoch.0.load(Ordering::SeqCst) == seen && !s.shutdown.load(Ordering::SeqCst) {
                g = s.wake.wait(g).unwrap_or_else(|e| e.into_inner());
            }
            s.parked.fetch_sub(1, Ordering::SeqCst);
        }
        if s.shutdown.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: the epoch moved, so `run` has stored this job and waits for `pending`.
        let job = unsafe { (*s.job.get()).expect("a job is set before the epoch moves") };
        let f = unsafe { &*job };
        if catch_unwind(AssertUnwindSafe(|| f(index))).is_err() {
            s.panicked.store(true, Ordering::Relaxed);
        }
        s.pending.0.fetch_sub(1, Ordering::Release);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        {
            let _g = self.shared.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.shared.wake.notify_all();
        }
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_runs_once_per_call_including_after_parking() {
        for threads in 1..=4 {
            let pool = Pool::new(threads).unwrap();
            assert_eq!(pool.threads(), threads);
            let hits: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            for round in 0..200 {
                if round % 50 == 49 {
                    // Long enough for the workers to park: the next call must wake them.
                    std::thread::sleep(SPIN * 3);
                }
                pool.run(&|i| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                });
            }
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 200));
        }
    }

    #[test]
    fn run_borrows_the_callers_data_and_writes_disjoint_parts() {
        let pool = Pool::new(3).unwrap();
        let mut data = vec![0u64; 3 * 1000];
        let parts: Vec<Mutex<&mut [u64]>> = data.chunks_mut(1000).map(Mutex::new).collect();
        pool.run(&|i| {
            for x in parts[i].lock().unwrap().iter_mut() {
                *x = i as u64 + 1;
            }
        });
        drop(parts);
        assert_eq!(data.iter().sum::<u64>(), 1000 * (1 + 2 + 3));
    }

    #[test]
    fn callers_on_several_threads_share_one_pool_and_take_turns() {
        let pool = Arc::new(Pool::new(3).unwrap());
        let busy = AtomicUsize::new(0);
        let overlaps = AtomicUsize::new(0);
        let hits = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..200 {
                        pool.run(&|i| {
                            if i == 0 && busy.fetch_add(1, Ordering::SeqCst) != 0 {
                                overlaps.fetch_add(1, Ordering::SeqCst);
                            }
                            hits.fetch_add(1, Ordering::Relaxed);
                            if i == 0 {
                                std::hint::black_box((0..100).sum::<u64>());
                                busy.fetch_sub(1, Ordering::SeqCst);
                            }
                        });
                    }
                });
            }
        });
        assert_eq!(hits.load(Ordering::Relaxed), 4 * 200 * 3);
        assert_eq!(overlaps.load(Ordering::Relaxed), 0, "two jobs ran on the pool at once");
    }

    #[test]
    fn a_panicking_worker_is_reported_to_the_caller_and_the_pool_still_works() {
        let pool = Pool::new(2).unwrap();
        let r = catch_unwind(AssertUnwindSafe(|| {
            pool.run(&|i| {
                if i == 1 {
                    panic!("boom");
                }
            })
        }));
        assert!(r.is_err());
        let n = AtomicUsize::new(0);
        pool.run(&|_| {
            n.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(n.load(Ordering::Relaxed), 2);
    }
}
