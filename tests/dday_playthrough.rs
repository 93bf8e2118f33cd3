//! A golden playthrough: a fixed-seed game between the heuristic players, every decision and
//! every roll written as text and compared with tests/playthroughs/dday/heuristic_seed7.txt, so
//! that any change to the rules' behaviour, the dice stream or the heuristic shows up as a diff.
//! After an intended change, regenerate with `DDAY_UPDATE_GOLDEN=1 cargo test --test dday_playthrough`.

use maquis::dday::agents::HeuristicAgent;
use maquis::dday::{self, action_names, legal_mask, observation, state_dict, Scenario};
use std::fmt::Write;

fn trace(seed: u64) -> String {
    let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
    let mut agents = [HeuristicAgent::new(seed), HeuristicAgent::new(seed + 1)];
    let mut out = String::new();
    let mut logged = 0;
    while let Some(side) = s.to_move() {
        let a = agents[side.idx()].act(&observation(&s, side), &legal_mask(&s));
        writeln!(out, "{:<14} {:<10} {}", s.phase.as_str(), side.as_str(), action_names()[a]).unwrap();
        dday::apply(&mut s, a as i64).unwrap();
        for r in &s.dice.log[logged..] {
            writeln!(out, "  roll {} {:?}", r.event.as_str(), r.dice()).unwrap();
        }
        logged = s.dice.log.len();
    }
    let d = state_dict(&s);
    writeln!(out, "outcome {} vp {} {}", d["outcome"], d["vp"]["resistance"], d["vp"]["german"]).unwrap();
    for l in d["vp"]["lines"].as_array().unwrap() {
        writeln!(out, "  line {} {} {} {}", l["zone"], l["line"], l["points"], l["dice"]).unwrap();
    }
    out
}

#[test]
fn dday_golden_playthrough_heuristic_seed7() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/playthroughs/dday/heuristic_seed7.txt");
    let got = trace(7);
    if std::env::var_os("DDAY_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &got).unwrap();
    }
    let want = std::fs::read_to_string(path).expect("the golden file (DDAY_UPDATE_GOLDEN=1 writes it)");
    assert!(got == want, "the playthrough changed; diff it against {path}");
}
