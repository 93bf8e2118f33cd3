//! Fuzzing `load_state`: saves taken along random games (every difficulty, every phase), each
//! mutated by one to three edits (tests/fuzz/mutate.rs). Every mutant is refused with
//! `Error::BadSave` or loads a state that passes `validate` and then plays random legal steps to
//! the end of its game without a panic, keeping the invariants after every step and every
//! observation in [0, 1]. `cargo test` runs a short run; a long one:
//! `MAQUIS_FUZZ_CASES=1000000 cargo test --release --test fuzz_load -- --nocapture`
//! (docs/reliability.md).

#[path = "fuzz/mutate.rs"]
mod mutate;

use maquis::maquis::agents::random::sample;
use maquis::maquis::ids::Difficulty;
use maquis::maquis::save::{load, save, validate};
use maquis::Error;
use maquis::maquis::{apply, legal_mask, new_game, observation, Setup, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Saves along random games of every difficulty, about one position in ten, and each game's end.
fn saved_positions(games: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for g in 0..games {
        let d = Difficulty::ALL[g as usize % Difficulty::ALL.len()];
        let mut s = new_game(&Setup::new(d), g).unwrap();
        while !s.is_over() {
            if rng.gen_bool(0.1) {
                out.push(serde_json::from_str(&save(&s)).unwrap());
            }
            let a = sample(&legal_mask(&s), &mut rng).unwrap();
            apply(&mut s, a as i64).unwrap();
        }
        out.push(serde_json::from_str(&save(&s)).unwrap());
    }
    out
}

/// Random legal steps from `s` to the end of its game (at most `max_steps`), checking the
/// invariants after each.
fn play_on(mut s: State, seed: u64, max_steps: u32) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut steps = 0;
    while !s.is_over() && steps < max_steps {
        let mask = legal_mask(&s);
        let a = sample(&mask, &mut rng).expect("a live game has a legal action");
        apply(&mut s, a as i64).expect("a masked action applies");
        validate(&s).unwrap_or_else(|e| panic!("invariant broken after step {steps}: {e}"));
        let obs = observation(&s);
        assert!(obs.iter().all(|x| (0.0..=1.0).contains(x)), "an observation outside [0, 1] after step {steps}");
        steps += 1;
    }
    assert!(s.is_over(), "a loaded game did not end in {max_steps} steps");
    assert!(legal_mask(&s).is_empty());
    steps
}

#[test]
fn mutated_saves_are_refused_or_play_to_the_end() {
    let game = mutate::GameSaves {
        name: "fuzz_load",
        load,
        save,
        validate,
        play_on: |s, case| play_on(s, case, 3_000) as usize,
        _state: std::marker::PhantomData,
    };
    mutate::fuzz_game_saves(&game, &saved_positions(24), 0xf022, mutate::cases(4_000));
}

/// The bugs of issue 21, one by one: each was accepted and then panicked or gave observations
/// outside [0, 1].
#[test]
fn issue21_out_of_range_fields_are_refused_by_name() {
    let s = new_game(&Setup::new(Difficulty::Normal), 3).unwrap();
    let doc: Value = serde_json::from_str(&save(&s)).unwrap();
    for (field, value, named) in [
        ("/state/day", 15, "day"),
        ("/state/peek", 16, "peek"),
        ("/state/peek", 10, "peek"),
        ("/state/patrols_drawn", 9, "patrols_drawn"),
        ("/state/patrols_today", 9, "patrols_today"),
        ("/state/missions/0/boxes_done", 12, "boxes_done"),
        ("/state/pass", 2, "pass"),
        ("/state/level_workers", 4, "level_workers"),
    ] {
        let mut d = doc.clone();
        *d.pointer_mut(field).unwrap_or_else(|| panic!("{field}")) = value.into();
        match load(&d.to_string()) {
            Err(Error::BadSave(why)) => assert!(why.contains(named), "{field} = {value}: {why}"),
            other => panic!("{field} = {value} not refused: {other:?}"),
        }
    }
    // A Tricky game ends when the marker reaches 12: a live game on day 12 cannot be.
    let s = new_game(&Setup::new(Difficulty::Tricky), 3).unwrap();
    let mut d: Value = serde_json::from_str(&save(&s)).unwrap();
    d["state"]["day"] = 12.into();
    assert!(matches!(load(&d.to_string()), Err(Error::BadSave(w)) if w.contains("day")));
    d["state"]["day"] = 11.into();
    load(&d.to_string()).unwrap();
}
