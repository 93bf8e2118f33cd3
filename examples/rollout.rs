//! Random legal playouts from Rust: outcome counts and steps per game.
//! `cargo run --release --example rollout -- [games] [difficulty]`

use maquis::agents::random::sample;
use maquis::ids::Difficulty;
use maquis::{action_table, apply_legal, legal_mask, new_game, Setup};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let difficulty = args.get(2).map(|d| Difficulty::parse(d).expect("difficulty id")).unwrap_or(Difficulty::Normal);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut outcomes = BTreeMap::new();
    let (mut steps, mut days) = (0u64, 0u64);
    let t = std::time::Instant::now();
    for seed in 0..games {
        let mut s = new_game(&Setup::new(difficulty), seed).unwrap();
        while !s.is_over() {
            let a = sample(&legal_mask(&s), &mut rng).unwrap();
            apply_legal(&mut s, action_table().actions[a]);
            steps += 1;
        }
        days += s.day as u64 + (s.pass as u64 - 1) * 15;
        *outcomes.entry(s.outcome.unwrap().as_str()).or_insert(0) += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!("{games} games on {difficulty}: {outcomes:?}");
    println!("{:.1} steps/game, {:.1} days/game, {:.0} steps/s", steps as f64 / games as f64, days as f64 / games as f64, steps as f64 / secs);
}
