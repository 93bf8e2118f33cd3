//! Engine hot paths: random legal playouts (steps/s on one core), legal_mask, observation.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use maquis::agents::random::sample;
use maquis::{apply_legal, legal_mask, new_game, obs_size, write_observation, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn playout_steps(seed: u64, rng: &mut ChaCha8Rng) -> u64 {
    let mut s = new_game(&Setup::default(), seed).unwrap();
    let mut steps = 0;
    while !s.is_over() {
        let a = sample(&legal_mask(&s), rng).unwrap();
        apply_legal(&mut s, maquis::action_table().actions[a]);
        steps += 1;
    }
    steps
}

fn bench(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let per_game = (0..200).map(|i| playout_steps(i, &mut rng)).sum::<u64>() / 200;
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(per_game));
    let mut seed = 0;
    g.bench_function("random_playout", |b| {
        b.iter(|| {
            seed += 1;
            playout_steps(seed, &mut rng)
        })
    });
    g.finish();
    let s = new_game(&Setup::default(), 3).unwrap();
    c.bench_function("legal_mask", |b| b.iter(|| legal_mask(std::hint::black_box(&s))));
    let mut buf = vec![0.0f32; obs_size()];
    c.bench_function("write_observation", |b| b.iter(|| write_observation(std::hint::black_box(&s), &mut buf)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
