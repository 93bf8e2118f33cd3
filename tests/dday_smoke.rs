mod dday_common;
use maquis::dday::{self, Scenario};

#[test]
fn smoke() {
    let mut steps = 0;
    let mut outcomes = [0; 3];
    for seed in 0..300 {
        let s = dday::new_game(seed, &Scenario::default()).unwrap();
        let s = dday_common::random_game(s, seed, |_, _| steps += 1);
        outcomes[s.outcome.unwrap().idx()] += 1;
    }
    println!("steps {steps} outcomes {outcomes:?}");
}
