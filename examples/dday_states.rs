//! State dicts of D-Day 1944 games played by the bundled heuristic, as JSON lines: one line per
//! decision point, for testing and eyeballing renderers without the Python bindings.
//!
//! `cargo run --release --example dday_states -- [seed] [every]` prints every `every`-th state
//! (default 1) of the game with that seed (default 0), the final state always included.

use maquis::dday::agents::HeuristicAgent;
use maquis::dday::{legal_mask, new_game, observation, state_dict, Scenario, Side};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let seed = args.first().copied().unwrap_or(0);
    let every = args.get(1).copied().unwrap_or(1).max(1);
    let mut s = new_game(seed, &Scenario::default()).unwrap();
    let mut agents = [HeuristicAgent::new(seed * 2 + 1), HeuristicAgent::new(seed * 2 + 2)];
    let mut n = 0u64;
    while !s.is_over() {
        if n.is_multiple_of(every) {
            println!("{}", state_dict(&s));
        }
        let side = s.to_move().unwrap();
        let mask = legal_mask(&s);
        let obs = observation(&s, side);
        let a = agents[(side == Side::German) as usize].act(&obs, &mask);
        maquis::dday::apply(&mut s, a as i64).unwrap();
        n += 1;
    }
    println!("{}", state_dict(&s));
}
