//! How the threads of a step share the work: each thread owns one consecutive share of the
//! environments (which stays in its core's cache) and steps it in blocks from the front; a thread
//! done with its own helps with the others' from the back, and takes an owner's last block only
//! once the owner is late (descheduled by the machine, say), so that one slow core does not hold
//! up the step.

use super::pool::Pool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run of consecutive environments with their rows, which can give up some at either end.
pub(crate) trait Piece {
    /// How many environments it holds.
    fn len(&self) -> usize;
    /// The first `n` environments (the last `n` if `back`) as a piece of their own, this one
    /// keeping the others.
    fn take(&mut self, n: usize, back: bool) -> Self;
}

/// A thread's share of a step (see `Engine::step`), on cache lines of its own.
#[repr(align(128))]
pub(crate) struct Share<P> {
    chunk: Mutex<P>,
    /// The environments not taken yet, as last set under the lock: read without it by a thread
    /// waiting to see whether the owner gets through its last block (`work_shares`).
    left: AtomicUsize,
}

/// How long a thread done with its work waits for another's last block before it helps with it:
/// about the shares' usual, random difference, and shorter than the usual time the machine stops
/// a core for (`examples/clock_gaps.rs` measures those gaps).
const PATIENCE: Duration = Duration::from_micros(5);

/// The environments a thread takes at a time from a late owner's last block.
const LATE_PIECE: usize = 8;

impl<P: Piece> Share<P> {
    pub(crate) fn new(chunk: P) -> Share<P> {
        let left = AtomicUsize::new(chunk.len());
        Share { chunk: Mutex::new(chunk), left }
    }

    /// Up to `n` environments from the front (`back` false: the owner) or the back (`back`
    /// true), leaving `keep` untaken.
    pub(crate) fn take(&self, n: usize, back: bool, keep: usize) -> Option<P> {
        let mut c = self.chunk.lock().unwrap_or_else(|e| e.into_inner());
        let left = c.len();
        if left <= keep {
            return None;
        }
        let taken = c.take(n.min(left - keep), back);
        self.left.store(c.len(), Ordering::Relaxed);
        Some(taken)
    }

    /// The next `block` environments to step: from the front for the share's own thread, from
    /// the back for another, which leaves the last block to the owner.
    pub(crate) fn next(&self, block: usize, back: bool) -> Option<P> {
        self.take(block, back, if back { block } else { 0 })
    }

    /// Up to `n` environments from the back, the owner's last block included: for a thread
    /// that waited `PATIENCE` for it.
    pub(crate) fn next_late(&self, n: usize) -> Option<P> {
        self.take(n, true, 0)
    }

    /// Whether every environment has been taken (possibly not stepped yet).
    pub(crate) fn all_taken(&self) -> bool {
        self.left.load(Ordering::Relaxed) == 0
    }
}

/// Thread `t`'s part of a step: its own share in blocks from the front (a lock taken once per
/// block, on its own cache line), then blocks from the back of the others' while they have more
/// than one left. Only a whole block behind (descheduled by the machine, say), not for the few
/// microseconds by which the shares' work differs at random: the environments taken move to
/// another core's cache and back, which costs more than the wait. The owner's last block too, but only once the owner is `PATIENCE` late.
pub(crate) fn work_shares<P: Piece>(t: usize, shares: &[Share<P>], block: usize, mut step: impl FnMut(P)) {
    if let Some(own) = shares.get(t) {
        while let Some(c) = own.next(block, false) {
            step(c);
        }
    }
    for other in shares.iter().skip(t + 1).chain(shares.iter().take(t)) {
        while let Some(c) = other.next(block, true) {
            step(c);
        }
        if other.all_taken() {
            continue;
        }
        // Wait a little before taking the owner's last block: the owner is usually about to take
        // it, and moving those environments to this core's cache costs more than the wait.
        let since = Instant::now();
        while !other.all_taken() {
            if since.elapsed() < PATIENCE {
                std::hint::spin_loop();
            } else if let Some(c) = other.next_late(LATE_PIECE) {
                step(c);
            }
        }
    }
}

/// Runs `f` on every one of `parts`, which come in `pool.threads()` consecutive shares:
/// thread `t` takes the parts of share `t` first, in order, then helps with what is left of
/// the others. Each thread usually steps just its own share (which stays in its core's
/// cache), but a thread that the machine deschedules for a while does not hold up the step.
/// With at most one part per thread, thread `t` takes part `t` first.
pub(crate) fn on_threads<T: Send>(pool: &Pool, parts: Vec<T>, f: impl Fn(T) + Sync) {
    let (n, threads) = (parts.len(), pool.threads());
    if n <= 1 || threads == 1 {
        return parts.into_iter().for_each(f);
    }
    let per = n.div_ceil(threads);
    let parts: Vec<Mutex<Option<T>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
    // The next part of each share to take; a share is done once its cursor passes its end.
    let next: Vec<AtomicUsize> = (0..threads).map(|t| AtomicUsize::new(t * per)).collect();
    pool.run(&|t| {
        for share in (t..threads).chain(0..t) {
            let end = ((share + 1) * per).min(n);
            loop {
                let i = next[share].fetch_add(1, Ordering::Relaxed);
                if i >= end {
                    break;
                }
                if let Some(p) = parts[i].lock().unwrap_or_else(|e| e.into_inner()).take() {
                    f(p)
                }
            }
        }
    });
}

