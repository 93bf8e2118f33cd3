//! Fuzzing Kuhn poker's match saves (the hand, the learner, the opponent and its stream) with the
//! shared match-save fuzzer (tests/fuzz/match_saves.rs): every mutant is refused with `BadSave` or
//! loads a valid hand that round-trips and plays on. `MAQUIS_FUZZ_CASES` scales the run.

#[path = "fuzz/match_saves.rs"]
mod match_saves;
#[path = "fuzz/mutate.rs"]
mod mutate;

use maquis::env::versus::OpponentKind;
use maquis::env::IllegalPolicy;
use maquis::kuhn::env::{EnvConfig, KuhnPoker, Opponent, Rewards, Setup};
use maquis::kuhn::Side;

fn cfg(kind: OpponentKind, side: Side) -> EnvConfig {
    let setup = Setup { side, opponent: Opponent { kind, budget: 1 }, ..Setup::default() };
    EnvConfig::new(setup, Rewards::Margin, IllegalPolicy::Terminate).unwrap()
}

#[test]
fn kuhn_mutated_match_saves_are_refused_or_play_on() {
    let cfgs = [cfg(OpponentKind::Random, Side::First), cfg(OpponentKind::Heuristic, Side::Second)];
    let episodes: Vec<(usize, u64)> = (0..cfgs.len()).flat_map(|k| (0..8).map(move |stream| (k, stream))).collect();
    match_saves::run(&match_saves::MatchFuzz::<KuhnPoker> {
        name: "kuhn_fuzz",
        cfgs: &cfgs,
        episodes: &episodes,
        keep_one_in: 1,
        default_cases: 2_000,
        seed: 0x4b01,
        max_steps: 10,
        validate: maquis::kuhn::validate,
    });
}
