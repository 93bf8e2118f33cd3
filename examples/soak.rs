//! Soak of the vector engine: many steps with the process's memory sampled along the way, and
//! determinism across thread counts (docs/reliability.md).
//!
//! `nice cargo run --release --example soak -- [total_steps] [envs] [threads]` (defaults 10⁸, 1024, 2):
//! 1. the same seeds on 1, 2, 4 and 16 threads (256 envs × 2 000 vector steps, every output and
//!    action hashed) must give one digest; a 2-thread run that saves and reloads an environment
//!    (`load_state`) every few steps must give it too;
//! 2. `total_steps` env steps of random play (next-step autoreset) on `envs` × `threads`, the
//!    resident set size (VmRSS) printed at 20 points; exits 1 if it grows by more than 1 MiB after
//!    the first tenth.

use maquis::maquis::save::{load, save};
use maquis::vector::{Autoreset, IllegalPolicy, OutputBuffers};
use maquis::maquis::{EnvConfig, Maquis, Rewards, VecEngine};
use maquis::maquis::Setup;
use std::time::Instant;

fn engine(n: usize, threads: usize, seed: u64) -> (VecEngine, OutputBuffers) {
    let cfg = EnvConfig::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap();
    let mut engine = VecEngine::new(cfg, n, threads, Autoreset::NextStep).unwrap();
    let mut buffers = OutputBuffers::of::<Maquis>(n);
    engine.seed_all(seed);
    engine.reset(None, None, None, &mut buffers.out()).unwrap();
    (engine, buffers)
}

/// FNV-1a over bytes.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h = (*h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
}

/// A digest of every action and output of `steps` vector steps of random play.
fn trajectory_digest(threads: usize, reload_every: Option<usize>) -> u64 {
    let n = 256;
    let (mut e, mut b) = engine(n, threads, 2026);
    let mut actions = vec![0i64; n];
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for step in 0..2_000 {
        if let Some(k) = reload_every.filter(|k| step % k == 0) {
            // A save and reload of one environment changes nothing that follows.
            let i = step / k % n;
            let state = load(&save(e.slot(i).state())).expect("a saved state loads");
            e.load_state(i, state, &mut b.out());
        }
        e.sample_actions(&mut actions);
        e.step(&actions, &mut b.out()).unwrap();
        for a in &actions {
            fnv(&mut h, &a.to_le_bytes());
        }
        for x in b.obs() {
            fnv(&mut h, &x.to_bits().to_le_bytes());
        }
        for (i, r) in b.rewards.iter().enumerate() {
            fnv(&mut h, &r.to_bits().to_le_bytes());
            fnv(&mut h, &[b.terminated[i] as u8, b.truncated[i] as u8, b.outcomes[i] as u8]);
        }
        fnv(&mut h, &b.masks.iter().map(|&m| m as u8).collect::<Vec<_>>());
    }
    h
}

/// The resident set size in KiB (Linux: /proc/self/status).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let total: u64 = args.get(1).map_or(100_000_000, |s| s.parse().expect("total_steps"));
    let n: usize = args.get(2).map_or(1024, |s| s.parse().expect("envs"));
    let threads: usize = args.get(3).map_or(2, |s| s.parse().expect("threads"));

    let digests: Vec<(String, u64)> = [1, 2, 4, 16]
        .iter()
        .map(|&t| (format!("{t} threads"), trajectory_digest(t, None)))
        .chain(std::iter::once(("2 threads, reloads".to_string(), trajectory_digest(2, Some(7)))))
        .collect();
    for (what, d) in &digests {
        println!("determinism: {what:<20} digest {d:016x}");
    }
    let same = digests.iter().all(|(_, d)| *d == digests[0].1);
    println!("determinism: {}", if same { "identical" } else { "DIFFERENT" });

    let (mut e, mut b) = engine(n, threads, 7);
    let mut actions = vec![0i64; n];
    let vector_steps = total.div_ceil(n as u64);
    let every = (vector_steps / 20).max(1);
    let t = Instant::now();
    let (mut episodes, mut samples) = (0u64, Vec::new());
    for step in 1..=vector_steps {
        e.sample_actions(&mut actions);
        e.step(&actions, &mut b.out()).unwrap();
        episodes += e.ended_counts().0 as u64;
        if step % every == 0 || step == vector_steps {
            let rss = rss_kib();
            samples.push(rss);
            println!(
                "soak: {:>12} env steps {:>9} episodes  {:6.1} s  VmRSS {rss} KiB",
                step * n as u64,
                episodes,
                t.elapsed().as_secs_f64()
            );
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let done = vector_steps * n as u64;
    let warm = samples[samples.len().min(2) - 1];
    let (lo, hi) = (samples[1..].iter().min().copied().unwrap_or(warm), samples.iter().max().copied().unwrap_or(0));
    println!(
        "soak: {done} env steps ({n} envs, {threads} threads) in {secs:.1} s ({:.2} M steps/s), {episodes} episodes; \
         VmRSS after the first tenth {warm} KiB, min {lo} max {hi} KiB, last {} KiB",
        done as f64 / secs / 1e6,
        samples.last().unwrap()
    );
    let flat = samples.last().unwrap().saturating_sub(warm) <= 1024;
    println!("soak: memory {}", if flat { "flat" } else { "GROWING" });
    if !same || !flat {
        std::process::exit(1);
    }
}
