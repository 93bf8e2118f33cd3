//! The vector engine from Rust, beside the raw engine, with no Python: what `MaquisVectorEnv`
//! can reach at most (`python -m maquis bench` has the full table).
//!
//! `cargo run --profile dist --example vector_speed -- [seconds] [repeats]`: medians of steps/s for
//! the raw engine (random play, one core) and `VecEngine` (1024 envs on 1 and 2 threads, 4096 on
//! 2), with the ratio to engine × threads.
//!
//! `COUNT=engine|vector valgrind --tool=cachegrind --cache-sim=no target/dist/examples/vector_speed`:
//! a fixed amount of work (12,000 random games; 1024 envs × 200 steps) whose instruction count
//! does not depend on the machine's load; it prints the steps to divide by.

use maquis::agents::random::play_out;
use maquis::vector::{Autoreset, EnvConfig, IllegalPolicy, OutputBuffers, Rewards, VecEngine};
use maquis::state::State;
use maquis::{new_game, new_game_into, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

/// One random legal playout from `seed`, played in `s`; returns its number of steps.
fn playout(setup: &Setup, seed: u64, rng: &mut ChaCha8Rng, s: &mut State) -> u64 {
    new_game_into(setup, seed, s).unwrap();
    play_out(s, rng)
}

/// Raw engine steps/s over about `secs` of random playouts.
fn engine(secs: f64) -> f64 {
    let (setup, mut rng) = (Setup::default(), ChaCha8Rng::seed_from_u64(1));
    let mut s = new_game(&setup, 0).unwrap();
    let t = Instant::now();
    let (mut steps, mut seed) = (0u64, 0);
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..100 {
            seed += 1;
            steps += playout(&setup, seed, &mut rng, &mut s);
        }
    }
    steps as f64 / t.elapsed().as_secs_f64()
}

/// `n` environments on `threads` threads, reset, with their output buffers.
fn started(n: usize, threads: usize) -> (VecEngine, OutputBuffers) {
    let cfg = EnvConfig::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap();
    let mut engine = VecEngine::new(cfg, n, threads, Autoreset::NextStep).unwrap();
    let mut buffers = OutputBuffers::new(n);
    engine.reset(None, None, None, &mut buffers.out()).unwrap();
    (engine, buffers)
}

/// One `sample_actions` + `step` of every environment.
fn step(engine: &mut VecEngine, actions: &mut [i64], buffers: &mut OutputBuffers) {
    engine.sample_actions(actions);
    engine.step(actions, &mut buffers.out()).unwrap();
}

/// `VecEngine` env steps/s over about `secs`.
fn vector(n: usize, threads: usize, secs: f64) -> f64 {
    let (mut engine, mut buffers) = started(n, threads);
    let mut actions = vec![0i64; n];
    let t = Instant::now();
    let mut steps = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..8 {
            step(&mut engine, &mut actions, &mut buffers);
            steps += n as u64;
        }
    }
    steps as f64 / t.elapsed().as_secs_f64()
}

fn main() {
    if let Ok(k) = std::env::var("COUNT") {
        return fixed(&k);
    }
    let secs: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let reps: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let e = median((0..reps).map(|_| engine(secs)).collect());
    println!("engine (random play, 1 core)   {:>6.2} M steps/s", e / 1e6);
    for (n, th) in [(1024, 1), (1024, 2), (4096, 2)] {
        let v = median((0..reps).map(|_| vector(n, th, secs)).collect());
        println!("VecEngine {n:>5} envs, {th} thr    {:>6.2} M steps/s  ratio {:.2}", v / 1e6, v / (e * th as f64));
    }
}

/// Fixed work for instruction counting: `COUNT=vector` (1024 envs × 200 steps) or `COUNT=engine`
/// (12,000 games).
fn fixed(kind: &str) {
    if kind == "engine" {
        let (setup, mut rng) = (Setup::default(), ChaCha8Rng::seed_from_u64(1));
        let mut s = new_game(&setup, 0).unwrap();
        let steps: u64 = (0..12000).map(|seed| playout(&setup, seed, &mut rng, &mut s)).sum();
        println!("engine steps {steps}");
        return;
    }
    let n = 1024;
    let (mut engine, mut buffers) = started(n, 1);
    let mut actions = vec![0i64; n];
    for _ in 0..200 {
        step(&mut engine, &mut actions, &mut buffers);
    }
    println!("vector steps {}", 200 * n);
}
