//! Fuzzing Kuhn poker's match saves (the hand, the learner, the opponent and its stream) with the
//! shared match-save fuzzer (tests/fuzz/match_saves.rs): every mutant is refused with `BadSave` or
//! loads a valid hand that round-trips and plays on. `MAQUIS_FUZZ_CASES` scales the run.

#[path = "fuzz/match_saves.rs"]
mod match_saves;
#[path = "fuzz/mutate.rs"]
mod mutate;

use maquis::env::versus::{Opponent, OpponentKind, Rewards, Setup};
use maquis::env::{Config, IllegalPolicy};
use maquis::kuhn::env::KuhnPoker;
use maquis::kuhn::Side;

#[test]
fn kuhn_mutated_match_saves_are_refused_or_play_on() {
    // The learner in each seat, against each level.
    let cfgs = [(OpponentKind::Random, Side::First), (OpponentKind::Heuristic, Side::Second)].map(|(kind, side)| {
        let opponent = Opponent::bundled(kind, 1);
        Config::new(Setup::<KuhnPoker> { side, opponent, ..Setup::default() }, Rewards::Margin, IllegalPolicy::Terminate)
            .unwrap()
    });
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
