//! The vector engine from Rust, with no Python, against the raw engine on as many cores: the
//! `engine × threads` ratio of `python -m maquis bench`, for a grid of thread counts and batch
//! sizes, and the pieces between the two (docs/scaling_model.md).
//!
//! `cargo run --release --example vector_speed -- [--threads 1,2,4,8,16] [--envs 4096,16384]
//! [--seconds S] [--repeats N] [--detail]`
//!
//! Thread counts above the machine's cores are left out. Every figure is the median of `repeats`
//! timed runs, each paired with a one-core engine run just before it (the machine's speed drifts
//! between rows); a ratio is env steps/s ÷ (that engine run × threads). Rows:
//!
//! - `engine xT`: T independent random-play loops at once, one per thread: what T cores give with
//!   nothing shared (the ceiling of every row below);
//! - `VecEngine`: `sample_actions` then `step` (next-step autoreset, float32 rows, `copy=False`);
//! - with `--detail`, also the work of a step without the engine's machinery: `rows alone`, each
//!   thread stepping its own environments into rows it allocated itself, with no synchronisation
//!   (`Chunk::step`'s work); `rows + barrier`, the same with all threads meeting once per batch
//!   step, with the slowest thread's work over the mean thread's per step and the threads' mean
//!   work over the mean (a lasting difference between cores); `rows, prefetch`, `rows alone`
//!   asking for the next environment's lines while stepping one; and for `VecEngine`, the share
//!   of its time in `sample_actions`, the smallest and largest thread's share of the
//!   environments at the end (`VecEngine::thread_shares`) over the equal share, the share of
//!   threads that chose to prefetch (`VecEngine::thread_prefetch`), and the same step with
//!   prefetch fixed off and on (`VecEngine::set_prefetch`).
//!
//! The table of docs/scaling_model.md: `cargo run --release --example vector_speed -- --detail`
//! (about a minute on 16 cores, after the build).
//!
//! `COUNT=engine|observe|vector|rows valgrind --tool=cachegrind --cache-sim=yes
//! target/release/examples/vector_speed`: a fixed amount of work on one thread (engine: 12,000
//! random games, `observe` also writing each observation and mask; vector and rows: 1024 envs ×
//! 200 steps) whose instruction count does not depend on the machine's load; it prints the steps
//! to divide by. `vector` prefetches with `PREFETCH=on`, else not (fixed, not chosen by timing).

use maquis::maquis::agents::random::{play_out, sample};
use maquis::env::Config;
use maquis::simd::Simd;
use maquis::vector::{prefetch_lines, Autoreset, IllegalPolicy, OutputBuffers, NO_OUTCOME};
use maquis::maquis::{outcome_code, EnvConfig, EnvSlot, Rewards, VecEngine};
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, new_game_into, obs_size, write_observation, Maquis};
use maquis::maquis::{Setup, State, NUM_ACTIONS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One random legal game from `seed`, played in `s` (with `observe`, each position's observation
/// and mask bytes written too, as `python -m maquis bench`'s second engine row); its steps.
fn playout(
    setup: &Setup,
    seed: u64,
    rng: &mut ChaCha8Rng,
    s: &mut State,
    rows: Option<(&mut [f32], &mut [u8])>,
) -> u64 {
    new_game_into(setup, seed, s).unwrap();
    let Some((obs, mask_bytes)) = rows else {
        return play_out(s, rng);
    };
    let mut n = 0;
    loop {
        let mask = legal_mask(s);
        write_observation(s, obs);
        mask.write_bytes(mask_bytes);
        let Some(a) = sample(&mask, rng) else { return n };
        apply_legal(s, action_table().actions[a]);
        n += 1;
    }
}

/// Random play on this thread for about `secs`: (steps, seconds).
fn engine_loop(seed: u64, secs: f64) -> (u64, f64) {
    let (setup, mut rng) = (Setup::default(), ChaCha8Rng::seed_from_u64(seed));
    let mut s = new_game(&setup, seed).unwrap();
    let (t, mut steps, mut game) = (Instant::now(), 0u64, seed.wrapping_mul(1_000_003));
    loop {
        for _ in 0..20 {
            game += 1;
            steps += playout(&setup, game, &mut rng, &mut s, None);
        }
        let e = t.elapsed().as_secs_f64();
        if e >= secs {
            return (steps, e);
        }
    }
}

/// `threads` independent engine loops at once: summed steps/s.
fn engines(threads: usize, secs: f64) -> f64 {
    let runs: Vec<(u64, f64)> = std::thread::scope(|sc| {
        let h: Vec<_> = (1..threads).map(|k| sc.spawn(move || engine_loop(k as u64, secs))).collect();
        let mine = engine_loop(0, secs);
        std::iter::once(mine).chain(h.into_iter().map(|h| h.join().unwrap())).collect()
    });
    runs.iter().map(|&(s, e)| s as f64 / e).sum()
}

fn config() -> EnvConfig {
    EnvConfig::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap()
}

/// `n` environments on `threads` threads, reset, with their output buffers.
fn started(n: usize, threads: usize) -> (VecEngine, OutputBuffers) {
    let mut engine = VecEngine::new(config(), n, threads, Autoreset::NextStep).unwrap();
    let mut buffers = OutputBuffers::of::<Maquis>(n);
    engine.reset(None, None, None, &mut buffers.out()).unwrap();
    (engine, buffers)
}

/// `VecEngine` env steps/s over about `secs` (after a few warm-up steps), the share of the
/// time spent in `sample_actions`, the smallest and largest thread's share of the environments
/// at the end, over the equal share, and the share of threads prefetching at the end; `prefetch`
/// fixes whether they prefetch (None: each thread measures).
fn vector(n: usize, threads: usize, secs: f64, prefetch: Option<bool>) -> (f64, f64, [f64; 2], f64) {
    let (mut engine, mut buffers) = started(n, threads);
    engine.set_prefetch(prefetch);
    let mut actions = vec![0i64; n];
    // Past the first windows, in which each thread tries both ways of `prefetch`.
    for _ in 0..64 {
        engine.sample_actions(&mut actions);
        engine.step(&actions, &mut buffers.out()).unwrap();
    }
    let (t, mut steps, mut sampling) = (Instant::now(), 0u64, Duration::ZERO);
    loop {
        for _ in 0..8 {
            let s = Instant::now();
            engine.sample_actions(&mut actions);
            sampling += s.elapsed();
            engine.step(&actions, &mut buffers.out()).unwrap();
            steps += n as u64;
        }
        let e = t.elapsed().as_secs_f64();
        if e >= secs {
            let shares = engine.thread_shares();
            let equal = n as f64 / shares.len() as f64;
            let (lo, hi) = (shares.iter().min().unwrap(), shares.iter().max().unwrap());
            let ways = engine.thread_prefetch();
            let prefetching = ways.iter().filter(|&&on| on).count() as f64 / ways.len() as f64;
            let spread = [*lo as f64 / equal, *hi as f64 / equal];
            return (steps as f64 / e, sampling.as_secs_f64() / e, spread, prefetching);
        }
    }
}

/// One thread's environments and the rows it writes, allocated (and so first touched) by it.
struct Rows {
    slots: Vec<EnvSlot>,
    actions: Vec<i64>,
    obs: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    flags: Vec<(bool, i8)>,
}

impl Rows {
    fn new(first: usize, n: usize, cfg: &Config<Maquis>) -> Rows {
        let mut slots: Vec<EnvSlot> =
            (first..first + n).map(|i| EnvSlot::new(maquis::vector::stream_seed(0, i))).collect();
        let mut actions = vec![0i64; n];
        for (s, a) in slots.iter_mut().zip(&mut actions) {
            s.start_episode(cfg).unwrap();
            *a = s.sample().map_or(0, |x| x as i64);
        }
        Rows {
            slots,
            actions,
            obs: vec![0.0; n * obs_size()],
            masks: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            flags: vec![(false, 0); n],
        }
    }

    /// One step of every environment, as `Chunk::step` does it (next-step autoreset, rows kept),
    /// its presampled action written where the next step reads it.
    fn step(&mut self, cfg: &Config<Maquis>, simd: Simd, ahead: usize) {
        let (o, a) = (obs_size(), NUM_ACTIONS);
        let n = self.slots.len();
        let (sp, op) = (self.slots.as_ptr(), self.obs.as_ptr());
        let rows = self.slots.iter_mut().zip(&mut self.actions).zip(self.obs.chunks_exact_mut(o));
        let rows = rows.zip(self.masks.chunks_exact_mut(a)).zip(&mut self.rewards).zip(&mut self.flags);
        for (k, (((((slot, action), obs), mask), reward), flags)) in rows.enumerate() {
            if ahead > 0 && k + ahead < n {
                prefetch_lines(sp.wrapping_add(k + ahead), std::mem::size_of::<EnvSlot>());
                prefetch_lines(op.wrapping_add((k + ahead) * o), o * 4);
            }
            let (r, term, code) = if slot.done() {
                slot.start_episode(cfg).unwrap();
                (0.0, false, NO_OUTCOME)
            } else {
                let t = slot.step(cfg, *action).unwrap();
                (t.reward, t.terminated, outcome_code(t.outcome))
            };
            *reward = r as f32;
            *flags = (term, code);
            slot.update_observation(simd, obs, true);
            slot.write_mask_with(simd, mask);
            *action = slot.sample().map_or(0, |x| x as i64);
        }
    }
}

/// A spinning barrier for `n` threads (the pool's workers spin too).
struct Barrier {
    n: usize,
    count: AtomicUsize,
    generation: AtomicUsize,
}

impl Barrier {
    fn wait(&self) {
        let g = self.generation.load(Ordering::Acquire);
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.count.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
        } else {
            while self.generation.load(Ordering::Acquire) == g {
                std::hint::spin_loop();
            }
        }
    }
}

/// `n` environments in `threads` private shares, each stepped by its own thread for about
/// `secs` (all meeting once per batch step with `barrier`; prefetching `ahead` environments
/// ahead): env steps/s, and with the barrier the mean over steps of the slowest thread's work
/// ÷ the mean thread's, and the slowest and fastest thread's mean work ÷ the mean.
fn rows_alone(n: usize, threads: usize, secs: f64, barrier: bool, ahead: usize) -> (f64, [f64; 3]) {
    let cfg = config();
    let per = n.div_ceil(threads);
    let simd = Simd::detect();
    let b = Barrier { n: threads, count: AtomicUsize::new(0), generation: AtomicUsize::new(0) };
    let stop = AtomicBool::new(false);
    let (cfg, b, stop) = (&cfg, &b, &stop);
    let run = move |t: usize| -> (u64, f64, Vec<f64>) {
        let mut rows = Rows::new(t * per, per.min(n - t * per), cfg);
        for _ in 0..4 {
            rows.step(cfg, simd, ahead);
        }
        if barrier {
            b.wait();
        }
        let (start, mut steps, mut work) = (Instant::now(), 0u64, Vec::with_capacity(1 << 16));
        loop {
            let w = Instant::now();
            rows.step(cfg, simd, ahead);
            work.push(w.elapsed().as_secs_f64());
            steps += rows.slots.len() as u64;
            if barrier {
                // Thread 0 decides when all stop, between two meetings.
                if t == 0 && start.elapsed().as_secs_f64() >= secs {
                    stop.store(true, Ordering::Relaxed);
                }
                b.wait();
                if stop.load(Ordering::Relaxed) {
                    b.wait();
                    break;
                }
                b.wait();
            } else if start.elapsed().as_secs_f64() >= secs {
                break;
            }
        }
        black_box(&rows.obs);
        (steps, start.elapsed().as_secs_f64(), work)
    };
    let runs: Vec<(u64, f64, Vec<f64>)> = std::thread::scope(|sc| {
        let h: Vec<_> = (1..threads).map(|t| sc.spawn(move || run(t))).collect();
        let mine = run(0);
        std::iter::once(mine).chain(h.into_iter().map(|h| h.join().unwrap())).collect()
    });
    if !barrier {
        return (runs.iter().map(|(s, e, _)| *s as f64 / e).sum(), [0.0; 3]);
    }
    // One clock for all: they stopped together.
    let rate = runs.iter().map(|r| r.0).sum::<u64>() as f64 / runs[0].1;
    let steps = runs.iter().map(|r| r.2.len()).min().unwrap();
    let mean_of = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let spread = mean_of(
        &(0..steps)
            .map(|k| {
                let w: Vec<f64> = runs.iter().map(|r| r.2[k]).collect();
                w.iter().cloned().fold(0.0, f64::max) / mean_of(&w)
            })
            .collect::<Vec<_>>(),
    );
    let per_thread: Vec<f64> = runs.iter().map(|r| mean_of(&r.2[..steps])).collect();
    let m = mean_of(&per_thread);
    let (lo, hi) = per_thread.iter().fold((f64::MAX, 0.0f64), |(l, h), &x| (l.min(x / m), h.max(x / m)));
    (rate, [spread, hi, lo])
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Medians over `reps` of (rate, rate ÷ (a one-core engine run just before it × threads)).
fn paired(reps: usize, secs: f64, threads: usize, mut run: impl FnMut() -> f64) -> (f64, f64) {
    let (mut rates, mut ratios) = (vec![], vec![]);
    for _ in 0..reps {
        let (s, e) = engine_loop(99, secs);
        let r = run();
        rates.push(r);
        ratios.push(r / (s as f64 / e * threads as f64));
    }
    (median(rates), median(ratios))
}

fn list(args: &[String], flag: &str, default: &[usize]) -> Vec<usize> {
    match args.iter().position(|a| a == flag) {
        Some(i) => args[i + 1].split(',').map(|x| x.trim().parse().expect("a list of numbers")).collect(),
        None => default.to_vec(),
    }
}

fn value(args: &[String], flag: &str, default: f64) -> f64 {
    args.iter().position(|a| a == flag).map_or(default, |i| args[i + 1].parse().expect("a number"))
}

fn main() {
    if let Ok(k) = std::env::var("COUNT") {
        return fixed(&k);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<usize> = list(&args, "--threads", &[1, 2, 4, 8, 16]).into_iter().filter(|&t| t <= cores).collect();
    let envs = list(&args, "--envs", &[4096, 16384]);
    let secs = value(&args, "--seconds", 0.25);
    let reps = value(&args, "--repeats", 3.0) as usize;
    let detail = args.iter().any(|a| a == "--detail");
    let (e1, _) = paired(reps, secs, 1, || engine_loop(99, secs).0 as f64 / secs);
    println!("{cores} cores; engine (random play, 1 core) {:.2} M steps/s; medians of {reps} x {secs} s", e1 / 1e6);
    println!("{:<16} {:>6} {:>4} {:>10} {:>6}  note", "row", "envs", "thr", "M steps/s", "ratio");
    for &t in &threads {
        let (r, q) = paired(reps, secs, t, || engines(t, secs));
        println!("{:<16} {:>6} {:>4} {:>10.2} {:>6.2}", format!("engine x{t}"), "-", t, r / 1e6, q);
    }
    for &n in &envs {
        for &t in &threads {
            let (mut share, mut spread, mut prefetching) = (vec![], vec![], vec![]);
            let (r, q) = paired(reps, secs, t, || {
                let (r, s, lohi, p) = vector(n, t, secs, None);
                share.push(s);
                spread.push(lohi);
                prefetching.push(p);
                r
            });
            let note = if detail {
                let m = |i: usize| median(spread.iter().map(|s| s[i]).collect());
                format!(
                    "sample_actions {:.1}% of the time; threads' shares {:.2}..{:.2} of equal; {:.0}% prefetching",
                    100.0 * median(share),
                    m(0),
                    m(1),
                    100.0 * median(prefetching)
                )
            } else {
                String::new()
            };
            println!("{:<16} {:>6} {:>4} {:>10.2} {:>6.2}  {note}", "VecEngine", n, t, r / 1e6, q);
            if detail {
                for (name, way) in [("  prefetch off", false), ("  prefetch on", true)] {
                    let (r, q) = paired(reps, secs, t, || vector(n, t, secs, Some(way)).0);
                    println!("{:<16} {:>6} {:>4} {:>10.2} {:>6.2}", name, n, t, r / 1e6, q);
                }
                for (name, barrier, ahead) in
                    [("rows alone", false, 0), ("rows + barrier", true, 0), ("rows, prefetch", false, 1)]
                {
                    let mut stats = vec![];
                    let (r, q) = paired(reps, secs, t, || {
                        let (r, s) = rows_alone(n, t, secs, barrier, ahead);
                        stats.push(s);
                        r
                    });
                    let note = if barrier {
                        let m = |i: usize| median(stats.iter().map(|s| s[i]).collect());
                        format!(
                            "slowest thread's work / mean per step {:.3}; threads' means {:.3}..{:.3}",
                            m(0),
                            m(2),
                            m(1)
                        )
                    } else {
                        String::new()
                    };
                    println!("{:<16} {:>6} {:>4} {:>10.2} {:>6.2}  {note}", name, n, t, r / 1e6, q);
                }
            }
        }
    }
}

/// Fixed work on one thread for instruction counting (see the module's doc).
fn fixed(kind: &str) {
    let setup = Setup::default();
    let mut s = new_game(&setup, 0).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut obs, mut mask_bytes) = (vec![0.0f32; obs_size()], vec![0u8; NUM_ACTIONS]);
    let (n, steps) = (1024, 200);
    match kind {
        "engine" | "observe" => {
            let total: u64 = (0..12000)
                .map(|seed| {
                    let rows = (kind == "observe").then_some((&mut obs[..], &mut mask_bytes[..]));
                    playout(&setup, seed, &mut rng, &mut s, rows)
                })
                .sum();
            println!("{kind} steps {total}");
        }
        "vector" => {
            let (mut engine, mut buffers) = started(n, 1);
            // Fixed, not chosen by timing: the count does not depend on the machine.
            engine.set_prefetch(Some(std::env::var("PREFETCH").is_ok_and(|p| p == "on")));
            let mut actions = vec![0i64; n];
            for _ in 0..steps {
                engine.sample_actions(&mut actions);
                engine.step(&actions, &mut buffers.out()).unwrap();
            }
            println!("vector steps {}", n * steps);
        }
        "rows" => {
            let cfg = config();
            let mut rows = Rows::new(0, n, &cfg);
            let simd = Simd::detect();
            for _ in 0..steps {
                rows.step(&cfg, simd, 0);
            }
            black_box(&rows.obs);
            println!("rows steps {}", n * steps);
        }
        _ => panic!("COUNT is engine, observe, vector or rows"),
    }
}
