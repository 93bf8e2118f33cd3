//! The match-save fuzzer of the two-player games (tests/dday_fuzz.rs, tests/maurice_fuzz.rs): saves
//! of whole matches (the game, the learner, the opponent and its stream) taken along env episodes,
//! mutated anywhere (tests/fuzz/mutate.rs), each refused with `BadSave` or loaded into an env that
//! validates, round-trips exactly, steps on without a panic and saves again.
#![allow(dead_code)]

use super::mutate;
use maquis::env::versus::{load_match, save_match, TwoPlayer, Versus};
use maquis::env::{Config, Slot};
use maquis::error::{Error, Result};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// The run's settings, as each game chooses them.
pub struct MatchFuzz<'a, T: TwoPlayer> {
    /// The game's name in the run's summary line.
    pub name: &'a str,
    /// The envs' configurations (opponent, side, scenario).
    pub cfgs: &'a [Config<Versus<T>>],
    /// The episodes saves are taken along: (index in `cfgs`, the slot's stream seed).
    pub episodes: &'a [(usize, u64)],
    /// A position is saved with probability 1 / `keep_one_in` (and every episode's last).
    pub keep_one_in: u32,
    /// Cases without `MAQUIS_FUZZ_CASES`.
    pub default_cases: u64,
    pub seed: u64,
    /// Steps played after a load at most.
    pub max_steps: usize,
    /// The game's own validation of a loaded state.
    pub validate: fn(&T::State) -> Result<()>,
}

pub fn run<T: TwoPlayer>(f: &MatchFuzz<T>) {
    let cases = mutate::cases(f.default_cases);
    let mut rng = ChaCha8Rng::seed_from_u64(f.seed);
    let save = |slot: &Slot<Versus<T>>| serde_json::from_str::<Value>(&save_match(slot.state())).unwrap();
    let mut positions = Vec::new();
    for &(k, stream) in f.episodes {
        let cfg = &f.cfgs[k];
        let mut slot = Slot::<Versus<T>>::new(stream);
        slot.reset(&cfg.setup).unwrap();
        while !slot.done() {
            if rng.gen_range(0..f.keep_one_in) == 0 {
                positions.push((k, save(&slot)));
            }
            let a = slot.sample().unwrap();
            slot.step(cfg, a as i64).unwrap();
        }
        positions.push((k, save(&slot)));
    }
    let mut accepted = 0u64;
    for case in 0..cases {
        let (k, doc) = &positions[rng.gen_range(0..positions.len())];
        let mut doc = doc.clone();
        let edits = mutate::mutate(&mut doc, "", &mut rng);
        let text = doc.to_string();
        let cfg = &f.cfgs[*k];
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match load_match::<T>(&text) {
            Err(Error::BadSave(_)) => false,
            Err(e) => panic!("refused with {e:?}, not BadSave"),
            Ok(m) => {
                (f.validate)(&m.game).expect("a loaded game is valid");
                assert_eq!(load_match::<T>(&save_match(&m)).unwrap(), m, "an exact round trip");
                let mut slot = Slot::<Versus<T>>::new(case);
                slot.set_state(m);
                let mut steps = 0;
                while !slot.done() && steps < f.max_steps {
                    let a = slot.sample().unwrap();
                    slot.step(cfg, a as i64).unwrap();
                    steps += 1;
                }
                let _ = save_match(slot.state());
                true
            }
        }));
        match outcome {
            Ok(ok) => accepted += ok as u64,
            Err(_) => panic!("case {case}: {edits:?} panicked (see above) in\n{text}"),
        }
    }
    eprintln!("{} (match saves): {cases} cases, {accepted} accepted", f.name);
    assert!(accepted > 0 && accepted < cases, "{accepted} of {cases} accepted");
}
