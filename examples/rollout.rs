//! Random legal playouts from Rust: outcome counts, steps per game, speed, and digests that pin
//! the trajectories down (a refactor of the engine must leave them unchanged).
//!
//! `cargo run --profile dist --example rollout -- [games] [difficulty|all] [--check]`
//!
//! - `games` (default 1000) games with seeds 0.., actions drawn by one ChaCha8 stream (seed 0).
//! - `difficulty`: a difficulty id (default `normal`), or `all` for every level in turn.
//! - The `outcomes` digest covers each game's outcome, step count and final day.
//! - `--check` also hashes every legal mask, observation and saved state along the way (slow):
//!   the `trace` digest then changes if anything observable in any position changes (the saved
//!   state's keys are sorted first, so reordering `State`'s fields changes nothing).

use maquis::maquis::agents::random::sample;
use maquis::maquis::ids::Difficulty;
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, obs_size, write_observation, Setup};
use maquis::digest::Fnv;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;


fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let pos: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let games: u64 = pos.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let levels: Vec<Difficulty> = match pos.get(1).map(|s| s.as_str()) {
        Some("all") => Difficulty::ALL.to_vec(),
        Some(d) => vec![Difficulty::parse(d).expect("difficulty id")],
        None => vec![Difficulty::Normal],
    };
    let mut obs = vec![0.0f32; obs_size()];
    for difficulty in levels {
        let setup = Setup::new(difficulty);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut outcomes = BTreeMap::new();
        let (mut steps, mut days) = (0u64, 0u64);
        let (mut outcome_digest, mut trace) = (Fnv::new(), Fnv::new());
        let t = std::time::Instant::now();
        for seed in 0..games {
            let mut s = new_game(&setup, seed).unwrap();
            let mut n = 0u64;
            while !s.is_over() {
                let mask = legal_mask(&s);
                if check {
                    for w in mask.0 {
                        trace.u64(w);
                    }
                    write_observation(&s, &mut obs);
                    for x in &obs {
                        trace.bytes(&x.to_le_bytes());
                    }
                    // With its keys sorted (serde_json's `Value` keeps them in order): the digest
                    // does not depend on the order of `State`'s fields.
                    let saved: serde_json::Value = serde_json::from_str(&maquis::maquis::save::save(&s)).unwrap();
                    trace.bytes(saved.to_string().as_bytes());
                }
                let a = sample(&mask, &mut rng).unwrap();
                apply_legal(&mut s, action_table().actions[a]);
                n += 1;
            }
            steps += n;
            days += s.day as u64 + (s.pass as u64 - 1) * 15;
            let o = s.outcome.unwrap();
            outcome_digest.u64(n);
            outcome_digest.u64(o as u64);
            outcome_digest.u64(s.day as u64);
            *outcomes.entry(o.as_str()).or_insert(0) += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!("{games} games on {difficulty}: {outcomes:?}");
        println!(
            "{:.1} steps/game, {:.1} days/game, {:.0} steps/s",
            steps as f64 / games as f64,
            days as f64 / games as f64,
            steps as f64 / secs
        );
        print!("digest outcomes {:016x}", outcome_digest.0);
        if check {
            print!(" trace {:016x}", trace.0);
        }
        println!();
    }
}
