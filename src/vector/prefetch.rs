//! Asking for the next environment's lines while stepping one, where that pays: chosen per
//! thread by measuring both ways.
//!
//! A share that lives in a core's L2 gains nothing from software prefetch and loses its
//! instructions (about 5 % of a step); one that lives in a far L3 or in memory gains up to
//! 1.6× (docs/scaling_model.md, sections 5 and 9). Which of the two a share is depends on the machine,
//! the batch, the thread count and the neighbours on the machine, so each thread measures.

use super::scheduler::WINDOW;
use std::time::Duration;

/// Windows (of `WINDOW` steps) between two tries of the way not in use: a wrong choice is
/// found within this many, and the tries cost at most their share of the steps.
const RETRY: u32 = 16;

/// Prefetching is used where it cost at most this share of the time without: a difference
/// within the noise of the windows keeps the plain loop.
const GAIN: f64 = 0.97;

/// Asks for the lines of the `bytes` bytes from `p` on (and at most one line after them) to be
/// brought into L1; reads nothing (`vector_speed`'s rows use it too, as `prefetch_lines`).
#[inline(always)]
pub fn lines<T>(p: *const T, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // One line more than the bytes fill, whatever their alignment: with `bytes` a constant,
        // so is the count, and the loop unrolls to one instruction a line (a loop to the exact
        // end cost four a line, more than the prefetches).
        let start = p as usize & !63;
        for i in 0..bytes.div_ceil(64) + 1 {
            // SAFETY: prefetch never faults, whatever the address.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((start + 64 * i) as *const i8) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, bytes);
}

/// One thread's choice: the time per environment of its own share measured each way, and the
/// way in use.
#[derive(Clone, Debug, Default)]
struct Choice {
    on: bool,
    /// Seconds per environment with prefetch off, on (0: not measured yet).
    cost: [f64; 2],
    /// The current window's seconds and environments.
    window: (f64, usize),
    /// Windows ended; the first is left out (its steps touch every line for the first time).
    windows: u32,
}

/// Whether each thread prefetches, and what each way has cost it.
#[derive(Clone, Debug)]
pub(crate) struct Prefetching {
    threads: Vec<Choice>,
    steps: u32,
    /// Every thread's way, fixed by `fix` (benchmarks, tests); None: each thread's own.
    fixed: Option<bool>,
}

impl Prefetching {
    pub(crate) fn new(threads: usize) -> Prefetching {
        Prefetching { threads: vec![Choice::default(); threads.max(1)], steps: 0, fixed: None }
    }

    /// Whether thread `t` prefetches on this step.
    pub(crate) fn on(&self, t: usize) -> bool {
        self.fixed.unwrap_or(self.threads[t].on)
    }

    /// Thread `t` stepped `envs` of its own share in `time` on this step.
    pub(crate) fn measured(&mut self, t: usize, envs: usize, time: Duration) {
        let w = &mut self.threads[t].window;
        w.0 += time.as_secs_f64();
        w.1 += envs;
    }

    /// Ends a step: after every `WINDOW` steps, each thread keeps the way that cost it less
    /// (prefetching by a margin, `GAIN`), trying the other once every `RETRY` windows (and once
    /// at the start).
    pub(crate) fn step_done(&mut self) {
        self.steps += 1;
        if self.steps < WINDOW {
            return;
        }
        self.steps = 0;
        for c in &mut self.threads {
            let (secs, envs) = std::mem::take(&mut c.window);
            c.windows = c.windows.wrapping_add(1);
            if c.windows == 1 || envs == 0 {
                continue;
            }
            let x = secs / envs as f64;
            let cost = &mut c.cost[c.on as usize];
            *cost = if *cost > 0.0 { 0.5 * (*cost + x) } else { x };
            let better = c.cost[1] > 0.0 && c.cost[1] < GAIN * c.cost[0];
            let untried = c.cost[!c.on as usize] == 0.0;
            c.on = if untried || c.windows % RETRY == 0 { !c.on } else { better };
        }
    }

    /// Whether each thread prefetches now (`Engine::thread_prefetch`).
    pub(crate) fn ways(&self) -> Vec<bool> {
        (0..self.threads.len()).map(|t| self.on(t)).collect()
    }

    /// Every thread prefetching (`Some(true)`) or not from now on, never trying the other way;
    /// `None`: each thread chooses by measuring again.
    pub(crate) fn fix(&mut self, way: Option<bool>) {
        self.fixed = way;
    }
}
