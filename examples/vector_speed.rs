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
use maquis::agents::random::sample;
use maquis::vector::{Autoreset, EnvConfig, IllegalPolicy, Outputs, Rewards, VecEngine};
use maquis::{action_table, apply_legal, legal_mask, new_game, obs_size, Setup, NUM_ACTIONS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

fn engine(secs: f64) -> f64 {
    let setup = Setup::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let t = Instant::now();
    let mut steps = 0u64;
    let mut seed = 0;
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..100 {
            seed += 1;
            let mut s = new_game(&setup, seed).unwrap();
            while !s.is_over() {
                let a = sample(&legal_mask(&s), &mut rng).unwrap();
                apply_legal(&mut s, action_table().actions[a]);
                steps += 1;
            }
        }
    }
    steps as f64 / t.elapsed().as_secs_f64()
}

fn vector(n: usize, threads: usize, secs: f64) -> f64 {
    let cfg = EnvConfig::new(
        Setup::default(),
        Rewards::default(),
        IllegalPolicy::Terminate,
    )
    .unwrap();
    let mut engine = VecEngine::new(cfg, n, threads, Autoreset::NextStep).unwrap();
    let (o, a) = (obs_size(), NUM_ACTIONS);
    let (mut obs, mut final_obs, mut masks) =
        (vec![0.0f32; n * o], vec![0.0f32; n * o], vec![false; n * a]);
    let (mut rewards, mut terminated, mut truncated) =
        (vec![0.0f32; n], vec![false; n], vec![false; n]);
    let (mut outcomes, mut illegal, mut actions) = (vec![0i8; n], vec![false; n], vec![0i64; n]);
    let mut out = Outputs {
        obs: &mut obs,
        masks: &mut masks,
        rewards: &mut rewards,
        terminated: &mut terminated,
        truncated: &mut truncated,
        outcomes: &mut outcomes,
        illegal: &mut illegal,
        final_obs: &mut final_obs,
    };
    engine.reset(None, None, None, &mut out).unwrap();
    let t = Instant::now();
    let mut steps = 0u64;
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..8 {
            engine.sample_actions(&mut actions);
            engine.step(&actions, &mut out).unwrap();
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

/// Fixed work for instruction counting: `COUNT=vector` (1024 envs × 200 steps) or `COUNT=engine`.
fn fixed(kind: &str) {
    if kind == "engine" {
        let setup = Setup::default();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut steps = 0u64;
        for seed in 0..12000 {
            let mut s = new_game(&setup, seed).unwrap();
            while !s.is_over() {
                let a = sample(&legal_mask(&s), &mut rng).unwrap();
                apply_legal(&mut s, action_table().actions[a]);
                steps += 1;
            }
        }
        println!("engine steps {steps}");
        return;
    }
    let n = 1024;
    let cfg = EnvConfig::new(
        Setup::default(),
        Rewards::default(),
        IllegalPolicy::Terminate,
    )
    .unwrap();
    let mut engine = VecEngine::new(cfg, n, 1, Autoreset::NextStep).unwrap();
    let (o, a) = (obs_size(), NUM_ACTIONS);
    let (mut obs, mut final_obs, mut masks) =
        (vec![0.0f32; n * o], vec![0.0f32; n * o], vec![false; n * a]);
    let (mut rewards, mut terminated, mut truncated) =
        (vec![0.0f32; n], vec![false; n], vec![false; n]);
    let (mut outcomes, mut illegal, mut actions) = (vec![0i8; n], vec![false; n], vec![0i64; n]);
    let mut out = Outputs {
        obs: &mut obs,
        masks: &mut masks,
        rewards: &mut rewards,
        terminated: &mut terminated,
        truncated: &mut truncated,
        outcomes: &mut outcomes,
        illegal: &mut illegal,
        final_obs: &mut final_obs,
    };
    engine.reset(None, None, None, &mut out).unwrap();
    for _ in 0..200 {
        engine.sample_actions(&mut actions);
        engine.step(&actions, &mut out).unwrap();
    }
    println!("vector steps {}", 200 * n);
}
