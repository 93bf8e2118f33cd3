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
///
/// Returns how many environments of its own share the thread stepped and in how long: its
/// speed, for `Balance`.
pub(crate) fn work_shares<P: Piece>(
    t: usize,
    shares: &[Share<P>],
    block: usize,
    mut step: impl FnMut(P),
) -> (usize, Duration) {
    let start = Instant::now();
    let mut own_steps = 0;
    if let Some(own) = shares.get(t) {
        while let Some(c) = own.next(block, false) {
            own_steps += c.len();
            step(c);
        }
    }
    let own_time = start.elapsed();
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
    (own_steps, own_time)
}

/// Where each thread's share of a step starts and ends: equal shares at first, then shares in
/// proportion to the speed each thread showed on its own share over the last steps. The threads
/// of one machine do not run at one speed (another tenant on a core's sibling, a core's clock),
/// and a step waits for the slowest share (docs/scaling_model.md). Taking work from a late
/// thread (`work_shares`) moves the environments to another core's cache and back, costing more
/// than it saves when the difference lasts; moving a share's edges moves them once.
#[derive(Clone, Debug)]
pub(crate) struct Balance {
    /// `threads + 1` edges: thread `t` owns environments `bounds[t]..bounds[t + 1]`.
    bounds: Vec<usize>,
    /// Per thread, the time per environment of its own share (0: not measured yet), from the
    /// last windows of `WINDOW` steps.
    cost: Vec<f64>,
    /// Per thread, the seconds and environments of its own share in the current window.
    window: Vec<(f64, usize)>,
    /// Steps in the current window.
    steps: u32,
}

/// Steps measured before the shares may move: one step's time per environment varies with the
/// environments' own work (which of them reset, say), a window's much less.
pub(crate) const WINDOW: u32 = 16;
/// The longest share's time, over the time of equal-time shares at the measured speeds, that
/// is left as it is: each moved environment costs a trip to another core's cache, and shares
/// moved on noise would move back.
const TOLERANCE: f64 = 1.05;

impl Balance {
    /// `n` environments in `threads` equal consecutive shares.
    pub(crate) fn new(n: usize, threads: usize) -> Balance {
        let threads = threads.max(1);
        let per = n.div_ceil(threads);
        let bounds = (0..=threads).map(|t| (t * per).min(n)).collect();
        Balance { bounds, cost: vec![0.0; threads], window: vec![(0.0, 0); threads], steps: 0 }
    }

    pub(crate) fn bounds(&self) -> &[usize] {
        &self.bounds
    }

    /// Sets the edges (tests: any consecutive shares give the same trajectories).
    #[cfg(test)]
    pub(crate) fn set_bounds(&mut self, bounds: &[usize]) {
        assert_eq!(bounds.len(), self.bounds.len(), "one share per thread");
        assert!(bounds[0] == 0 && bounds.last() == self.bounds.last() && bounds.windows(2).all(|w| w[0] <= w[1]));
        self.bounds = bounds.to_vec();
    }

    /// The environments of each thread's share, one range per thread.
    pub(crate) fn ranges(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        self.bounds.windows(2).map(|w| w[0]..w[1])
    }

    /// Thread `t` stepped `envs` of its own share in `time` on this step. A share mostly taken
    /// by others (its thread stopped by the machine, say) says little and is left out, and a
    /// step counts for at most twice the thread's known time per environment.
    pub(crate) fn measured(&mut self, t: usize, envs: usize, time: Duration) {
        let share = self.bounds[t + 1] - self.bounds[t];
        if envs == 0 || envs * 2 < share {
            return;
        }
        let (c, w) = (self.cost[t], &mut self.window[t]);
        let secs = time.as_secs_f64();
        w.0 += if c > 0.0 { secs.min(2.0 * c * envs as f64) } else { secs };
        w.1 += envs;
    }

    /// Ends a step: after every `WINDOW` steps, updates the threads' times per environment and
    /// moves the edges so that every share would take the same time, if the longest would
    /// otherwise take more than `TOLERANCE` times that. A thread's speed counts for between
    /// half and twice the mean: one measured while the machine stopped it is not left (nearly)
    /// nothing.
    pub(crate) fn step_done(&mut self) {
        let threads = self.cost.len();
        if threads < 2 {
            return;
        }
        self.steps += 1;
        if self.steps < WINDOW {
            return;
        }
        self.steps = 0;
        for (c, w) in self.cost.iter_mut().zip(&mut self.window) {
            if w.1 > 0 {
                let x = w.0 / w.1 as f64;
                *c = if *c > 0.0 { 0.5 * (*c + x) } else { x };
            }
            *w = (0.0, 0);
        }
        if self.cost.iter().any(|&c| c <= 0.0) {
            return;
        }
        let n = self.bounds[threads];
        let speed: f64 = self.cost.iter().map(|c| 1.0 / c).sum();
        let longest = self.ranges().zip(&self.cost).map(|(r, c)| r.len() as f64 * c).fold(0.0, f64::max);
        if longest <= TOLERANCE * n as f64 / speed {
            return;
        }
        let mean = speed / threads as f64;
        let weight = |c: f64| (1.0 / c).clamp(mean * 0.5, mean * 2.0);
        let total: f64 = self.cost.iter().map(|&c| weight(c)).sum();
        let mut sum = 0.0;
        for (t, &c) in self.cost.iter().enumerate() {
            sum += weight(c);
            self.bounds[t + 1] = ((n as f64 * sum / total).round() as usize).min(n);
        }
        // Rounding leaves the last edge near `n`: it is `n`.
        self.bounds[threads] = n;
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
