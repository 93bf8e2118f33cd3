//! Maurice Lite's hot paths, one core: a random game (decisions/s); per call over a corpus of the
//! positions of random standard games: `legal_mask`, `apply` (the legal action played there),
//! `write_observation` (compact uint8, full float32), the command-distance map and the CinC's
//! move targets (as the mask reads them: bit rows); the `heuristic` opponent's decision, and the
//! view the vector env's opponent decides from; one `search` decision at budget 100.
//!
//! `cargo bench --profile dist --bench maurice` (fat LTO, as the wheels). Python-side throughput is
//! `python -m maquis maurice bench`; instruction counts, `examples/maurice_speed.rs`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use maquis::draw::splitmix64;
use maquis::maurice::agents::{Agent, HeuristicAgent, RandomAgent, SearchAgent};
use maquis::maurice::agents::view::View;
use maquis::maurice::rules::cinc::move_target_rows;
use maquis::maurice::rules::command_distance::CommandMap;
use maquis::maurice::{
    apply, legal_mask, new_game, write_observation, Phase, Setup, Side, State, COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE,
};
use std::hint::black_box;
use std::time::Duration;

/// One random game from deal `g`; its decisions.
fn random_game(setup: &Setup, g: u64) -> u64 {
    let mut s = new_game(splitmix64(g), setup).unwrap();
    let mut agent = RandomAgent::new(g);
    let mut n = 0;
    while s.to_move.is_some() {
        let a = agent.act(&[], &legal_mask(&s));
        apply(&mut s, a as i64).unwrap();
        n += 1;
    }
    n
}

/// Every position of `games` random standard games, with the action played there.
fn corpus(games: u64) -> Vec<(State, i64)> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut s = new_game(splitmix64(1_000 + g), &Setup::default()).unwrap();
        let mut agent = RandomAgent::new(g);
        while s.to_move.is_some() {
            let a = agent.act(&[], &legal_mask(&s)) as i64;
            out.push((s.clone(), a));
            apply(&mut s, a).unwrap();
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let setup = Setup::default();
    let per_game = (0..20).map(|g| random_game(&setup, g)).sum::<u64>() / 20;
    let mut g = c.benchmark_group("maurice_game");
    g.throughput(Throughput::Elements(per_game));
    let mut seed = 0;
    g.bench_function("random_game_standard", |b| {
        b.iter(|| {
            seed += 1;
            random_game(&setup, seed)
        })
    });
    g.finish();

    let positions = corpus(4);
    let n = positions.len() as u64;
    let mut g = c.benchmark_group("maurice_per_position");
    g.throughput(Throughput::Elements(n));
    g.bench_function("legal_mask", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                black_box(legal_mask(black_box(s)));
            }
        })
    });
    g.bench_function("apply", |b| {
        b.iter_batched(
            || positions.clone(),
            |mut ps| {
                for (s, a) in ps.iter_mut() {
                    apply(s, *a).unwrap();
                }
                ps
            },
            BatchSize::LargeInput,
        )
    });
    let mut compact = vec![0u8; COMPACT_OBSERVATION_SIZE];
    g.bench_function("observation_compact_u8", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                write_observation(s, s.to_move.unwrap(), &mut compact[..]);
                black_box(&compact);
            }
        })
    });
    let mut full = vec![0f32; OBSERVATION_SIZE];
    g.bench_function("observation_full_f32", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                write_observation(s, s.to_move.unwrap(), &mut full[..]);
                black_box(&full);
            }
        })
    });
    g.bench_function("command_map_both_sides", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                for side in Side::ALL {
                    let map = CommandMap::new(s, *side);
                    for u in s.units(*side) {
                        black_box(map.to_unit(u));
                    }
                }
            }
        })
    });
    g.bench_function("cinc_move_target_rows", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                black_box(move_target_rows(s, s.active));
            }
        })
    });
    g.bench_function("opponent_view", |b| {
        b.iter(|| {
            for (s, _) in &positions {
                black_box(View::observed(s, s.to_move.unwrap()));
            }
        })
    });
    let mut obs = vec![0f32; COMPACT_OBSERVATION_SIZE];
    g.bench_function("heuristic_act", |b| {
        let mut agent = HeuristicAgent::new(7);
        b.iter(|| {
            for (s, _) in &positions {
                write_observation(s, s.to_move.unwrap(), &mut obs[..]);
                black_box(agent.act(&obs, &legal_mask(s)));
            }
        })
    });
    g.finish();

    // One searched decision: the command decisions of the corpus past its first 30 positions.
    let searched: Vec<&State> = positions
        .iter()
        .skip(30)
        .map(|(s, _)| s)
        .filter(|s| s.phase == Phase::Command && legal_mask(s).count() > 1)
        .step_by(7)
        .take(8)
        .collect();
    let mut full_obs: Vec<Vec<f32>> = Vec::new();
    for s in &searched {
        let mut o = vec![0f32; OBSERVATION_SIZE];
        write_observation(s, s.to_move.unwrap(), &mut o[..]);
        full_obs.push(o);
    }
    let mut g = c.benchmark_group("maurice_search");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    g.throughput(Throughput::Elements(searched.len() as u64));
    g.bench_function("search_budget_100", |b| {
        b.iter(|| {
            for (k, s) in searched.iter().enumerate() {
                let mut agent = SearchAgent::new(100, k as u64);
                black_box(agent.act(&full_obs[k], &legal_mask(s)));
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
