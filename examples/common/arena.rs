//! What the examples that pit agents against each other share: the CPU time of a playing thread
//! and Wilson intervals of the rates they report. Included with `#[path = "common/arena.rs"] mod arena;`.

/// CPU seconds used by this thread (Linux; 0 elsewhere): the machine may be shared, so wall
/// time alone would misstate an agent's cost.
#[allow(dead_code)] // not every example counts ticks
pub fn thread_cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|st| {
            let rest = &st[st.rfind(')')? + 2..];
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some((f[11].parse::<f64>().ok()? + f[12].parse::<f64>().ok()?) / 100.0)
        })
        .unwrap_or(0.0)
}

/// The 95 % Wilson interval of `k` successes in `n` trials.
#[allow(dead_code)] // not every example reports rates
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96;
    let p = k / n;
    let c = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (c - h, c + h)
}

/// CPU nanoseconds used by this thread (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, Linux; 0
/// elsewhere): fine enough to time single decisions, where `thread_cpu` counts 10 ms ticks.
#[allow(dead_code)] // not every example times decisions
pub fn thread_cpu_ns() -> u64 {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timespec {
            sec: i64,
            nsec: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut t = Timespec { sec: 0, nsec: 0 };
        // SAFETY: clock_gettime writes one timespec into the valid, exclusively borrowed `t`.
        if unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.sec as u64 * 1_000_000_000 + t.nsec as u64;
        }
    }
    0
}
