//! How often this machine stops a core, and for how long: the noise under every benchmark.
//!
//! `cargo run --release --example clock_gaps -- [seconds] [threads]`
//!
//! Each thread reads the clock in a tight loop (tens of nanoseconds apart) and records every gap
//! over 5 µs: time the thread did not run (an interrupt, or the hypervisor running something
//! else on the core). It prints how many gaps a second each core lost, the share of its time,
//! and the gaps' median and upper tenth (`docs/performance.md` keeps what it measured).
//! A two-thread vector step waits whenever a gap hits the thread that would finish last, so the
//! vector env loses more to the gaps than the one-core engine it is compared with.

use std::time::Instant;

/// Gaps over 5 µs seen by one thread in `secs` seconds, in µs; and how many clock reads it made.
fn gaps(secs: f64) -> (Vec<f64>, u64) {
    let start = Instant::now();
    let (mut last, mut reads, mut gaps) = (start, 0u64, Vec::new());
    while last.duration_since(start).as_secs_f64() < secs {
        let now = Instant::now();
        let gap = now.duration_since(last).as_secs_f64() * 1e6;
        if gap > 5.0 {
            gaps.push(gap);
        }
        last = now;
        reads += 1;
    }
    (gaps, reads)
}

fn main() {
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3.0);
    let threads: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let runs: Vec<(Vec<f64>, u64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(move || gaps(secs))).collect();
        handles.into_iter().map(|h| h.join().expect("the loop does not panic")).collect()
    });
    for (t, (mut g, reads)) in runs.into_iter().enumerate() {
        g.sort_by(|a, b| a.total_cmp(b));
        let at = |q: f64| g.get(((g.len().max(1) - 1) as f64 * q) as usize).copied().unwrap_or(0.0);
        let lost: f64 = g.iter().sum();
        println!(
            "thread {t}: {:.0} gaps > 5 µs per second, {:.2} % of the time; gap median {:.1} µs, \
             90th percentile {:.1}, longest {:.1}; one clock read every {:.0} ns",
            g.len() as f64 / secs,
            lost / (secs * 1e6) * 100.0,
            at(0.5),
            at(0.9),
            at(1.0),
            secs * 1e9 / reads as f64
        );
    }
}
