//! Fuzzing D-Day's match saves (the game, the learner, the opponent and its stream) the way
//! tests/dday_invariants.rs fuzzes the game's own saves, and the reported bad saves one by one.
//! `MAQUIS_FUZZ_CASES` scales the fuzz run (docs/reliability.md).

#[path = "fuzz/match_saves.rs"]
mod match_saves;
#[path = "fuzz/mutate.rs"]
mod mutate;

use maquis::dday::env::{DDay1944, EnvConfig, EnvSlot, Opponent, OpponentKind, Rewards, Setup};
use maquis::dday::{self, Phase, Scenario, Side};
use maquis::env::versus::{load_match, save_match};
use maquis::env::IllegalPolicy;
use maquis::Error;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

fn cfg(kind: OpponentKind, side: Side) -> EnvConfig {
    let setup = Setup { side, opponent: Opponent::bundled(kind, 2), ..Setup::default() };
    EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
}

#[test]
fn dday_mutated_match_saves_are_refused_or_play_on() {
    let cfgs = [cfg(OpponentKind::Random, Side::Resistance), cfg(OpponentKind::Heuristic, Side::German)];
    let episodes: Vec<(usize, u64)> = (0..cfgs.len()).flat_map(|k| (0..3).map(move |stream| (k, stream))).collect();
    match_saves::run(&match_saves::MatchFuzz::<DDay1944> {
        name: "dday_fuzz",
        cfgs: &cfgs,
        episodes: &episodes,
        keep_one_in: 4,
        default_cases: 1_000,
        seed: 0xdd01,
        max_steps: 3_000,
        validate: dday::save::validate,
    });
}

/// After one guess, `guesses_left` 255 passed `n + guesses_left <= 7` by wrapping, and the 8th
/// guess panicked.
#[test]
fn dday_guesses_left_past_the_guesses_is_refused() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut s = dday::new_game(5, &Scenario::default()).unwrap();
    while !(s.phase == Phase::Interrogation && s.interrogation.n == 1) {
        assert!(!s.is_over(), "no game reaches a first guess");
        let legal: Vec<usize> = dday::legal_mask(&s).iter().collect();
        dday::apply(&mut s, legal[rng.gen_range(0..legal.len())] as i64).unwrap();
    }
    let doc: Value = serde_json::from_str(&dday::save_state(&s)).unwrap();
    for left in [7, 8, 200, 249, 255] {
        let mut d = doc.clone();
        d["state"]["interrogation"]["guesses_left"] = left.into();
        match dday::load_state(&d.to_string()) {
            Err(Error::BadSave(w)) => assert!(w.contains("guesses_left"), "{w}"),
            other => panic!("guesses_left {left} not refused: {:?}", other.is_ok()),
        }
    }
    let mut d = doc.clone();
    d["state"]["dice"]["rng"]["word_pos"] = json!(u64::MAX);
    assert!(matches!(dday::load_state(&d.to_string()), Err(Error::BadSave(w)) if w.contains("word_pos")));
}

/// An opponent's stream at 2⁶⁴ was accepted and then could not be saved again.
#[test]
fn dday_opponent_stream_past_the_saveable_is_refused() {
    let c = cfg(OpponentKind::Heuristic, Side::Resistance);
    let mut slot = EnvSlot::new(1);
    slot.reset(&c.setup).unwrap();
    let text = save_match(slot.state());
    let opponent = text.find("\"opponent\"").unwrap();
    let pos = opponent + text[opponent..].find("\"word_pos\":").unwrap();
    let end = pos + text[pos..].find(['}', ',']).unwrap();
    for w in ["18446744073709551616", "18446744073709551615", "-1", "1.5"] {
        let bad = format!("{}\"word_pos\":{w}{}", &text[..pos], &text[end..]);
        match load_match::<DDay1944>(&bad) {
            Err(Error::BadSave(e)) => assert!(e.contains("word_pos"), "{e}"),
            other => panic!("word_pos {w} not refused: {:?}", other.is_ok()),
        }
    }
}
