//! Engine hot paths, one core: random legal playouts (steps/s); per call over a corpus of
//! positions met in random play (every phase, many missions): `legal_mask`, `apply_legal`,
//! `write_observation`, `clone`; the vector engine's step (per env); `new_game`, `new_game_into`;
//! the shipped network's forward pass and its input row (the heuristic's ranking included), per
//! position with more than one legal action.
//!
//! `cargo bench --profile dist --bench engine` (the `dist` profile has fat LTO, as the wheels).
//! Python-side throughput (single env, vector env, peers) is `python -m maquis bench`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use maquis::maquis::agents::network::{Network, Scratch};
use maquis::maquis::agents::random::{play_out, sample};
use maquis::vector::{Autoreset, IllegalPolicy, OutputBuffers};
use maquis::maquis::{EnvConfig, Maquis, Rewards, VecEngine};
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, new_game_into, obs_size, write_observation, Action, Setup, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// One random legal playout; returns its number of steps.
fn playout_steps(setup: &Setup, seed: u64, rng: &mut ChaCha8Rng) -> u64 {
    play_out(&mut new_game(setup, seed).unwrap(), rng)
}

/// Every position of `games` random playouts (live ones only), with the action played there.
fn corpus(games: u64) -> Vec<(State, Action)> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = Vec::new();
    for seed in 0..games {
        let mut s = new_game(&Setup::default(), 1_000_000 + seed).unwrap();
        while !s.is_over() {
            let a = action_table().actions[sample(&legal_mask(&s), &mut rng).unwrap()];
            out.push((s.clone(), a));
            apply_legal(&mut s, a);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let setup = Setup::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let per_game = (0..1000).map(|i| playout_steps(&setup, i, &mut rng)).sum::<u64>() / 1000;

    let mut g = c.benchmark_group("playout");
    g.throughput(Throughput::Elements(per_game));
    let mut seed = 0;
    g.bench_function("random_playout_normal", |b| {
        b.iter(|| {
            seed += 1;
            playout_steps(&setup, seed, &mut rng)
        })
    });
    g.finish();

    let positions = corpus(500);
    let n = positions.len() as u64;
    let mut g = c.benchmark_group("per_position");
    g.throughput(Throughput::Elements(n));
    g.bench_function("legal_mask", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (s, _) in &positions {
                acc ^= legal_mask(black_box(s)).0[0];
            }
            acc
        })
    });
    let mut buf = vec![0.0f32; obs_size()];
    g.bench_function("write_observation", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                write_observation(black_box(s), &mut buf);
            }
            buf[0]
        })
    });
    g.bench_function("clone", |b| {
        b.iter(|| {
            let mut acc = 0u8;
            for (s, _) in &positions {
                acc ^= black_box(s.clone()).day;
            }
            acc
        })
    });
    // apply_legal mutates: each batch starts from fresh copies (the copy is outside the timing).
    g.bench_function("apply_legal", |b| {
        b.iter_batched_ref(
            || positions.clone(),
            |ps| {
                for (s, a) in ps.iter_mut() {
                    apply_legal(s, *a);
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();

    // The vector engine on one thread: sample_actions + step for 1024 environments (observations
    // and masks written into buffers, next-step autoreset): per env step, to set beside the
    // playout's steps.
    let n = 1024;
    let cfg = EnvConfig::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap();
    let mut engine = VecEngine::new(cfg, n, 1, Autoreset::NextStep).unwrap();
    let mut buffers = OutputBuffers::of::<Maquis>(n);
    let mut actions = vec![0i64; n];
    let mut out = buffers.out();
    engine.reset(None, None, None, &mut out).unwrap();
    let mut g = c.benchmark_group("vector");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("sample_and_step_1024_envs_1_thread", |b| {
        b.iter(|| {
            engine.sample_actions(&mut actions);
            engine.step(&actions, &mut out).unwrap();
        })
    });
    g.finish();

    let mut g = c.benchmark_group("reset");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0;
    g.bench_function("new_game_normal", |b| {
        b.iter(|| {
            seed += 1;
            new_game(black_box(&setup), seed).unwrap()
        })
    });
    // Written over a state in place, as the vector env's resets do (no copies of the state).
    let mut into = new_game(&setup, 0).unwrap();
    g.bench_function("new_game_into_normal", |b| {
        b.iter(|| {
            seed += 1;
            new_game_into(black_box(&setup), seed, &mut into).unwrap();
            black_box(&into);
        })
    });
    g.finish();

    // The shipped network: what `network` pays per decision, and the forward pass alone.
    let net = Network::load(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/python/maquis/networks/baseline.safetensors")))
        .expect("the shipped network");
    let decisions: Vec<&State> = positions.iter().map(|(s, _)| s).filter(|s| legal_mask(s).count() > 1).step_by(20).collect();
    let mut row = Vec::new();
    let inputs: Vec<Vec<f32>> = decisions
        .iter()
        .map(|s| {
            net.write_state_input(s, &mut row);
            row.clone()
        })
        .collect();
    let (mut logits, mut scratch) = (vec![0.0f32; maquis::maquis::NUM_ACTIONS], Scratch::default());
    let mut g = c.benchmark_group("network");
    g.throughput(Throughput::Elements(decisions.len() as u64));
    g.bench_function("forward", |b| {
        b.iter(|| inputs.iter().map(|x| net.forward_into(black_box(x), &mut logits, &mut scratch)).sum::<f32>())
    });
    g.bench_function("input_row", |b| {
        b.iter(|| {
            for s in &decisions {
                net.write_state_input(black_box(s), &mut row);
            }
            row[0]
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2)).sample_size(30);
    targets = bench
}
criterion_main!(benches);
