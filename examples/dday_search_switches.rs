//! How often the `search` agent plays another move than the heuristic would in the same position,
//! per phase: the search keeps the heuristic's choice unless a candidate is reliably better, so
//! this rate says how much of its game is its own. Games 0..n at seeds 1_000 + i with the agent
//! seeds of `dday_arena`, the search on one side and the heuristic on the other; at each of the
//! search's decisions with more than one legal action a fresh `HeuristicAgent` (seeded with the
//! game's seed; its random fall-back may differ from the search's own) is asked too.
//! The CPU time of each of the search's decisions is counted per phase (one thread).
//!
//! `cargo run --release --example dday_search_switches -- <resistance|german> [games]`

use maquis::dday::agents::view::View;
use maquis::dday::agents::{Agent, AnyAgent, HeuristicAgent};
use maquis::dday::{apply, legal_mask, new_game, observation, Scenario};
use std::collections::BTreeMap;

#[path = "common/arena.rs"]
mod arena;
use arena::thread_cpu_ns;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let searcher = match args.get(1).map(String::as_str) {
        Some("resistance") => 0,
        Some("german") => 1,
        _ => {
            eprintln!("usage: dday_search_switches <resistance|german> [games]");
            std::process::exit(2);
        }
    };
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(60);
    // Per phase: decisions, decisions unlike the heuristic's, CPU nanoseconds of the search.
    let mut tally: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    for i in 0..games {
        let seed = 1_000 + i;
        let mut s = new_game(seed, &Scenario::default()).unwrap();
        let id = |side| if side == searcher { "search" } else { "heuristic" };
        let mut agents =
            [AnyAgent::by_id(id(0), seed ^ 0x1111, 200).unwrap(), AnyAgent::by_id(id(1), seed ^ 0x2222, 200).unwrap()];
        while let Some(side) = s.to_move() {
            let mask = legal_mask(&s);
            let obs = observation(&s, side);
            let t0 = thread_cpu_ns();
            let a = agents[side.idx()].act(&obs, &mask);
            let ns = thread_cpu_ns() - t0;
            if side.idx() == searcher && mask.count() > 1 {
                let h = HeuristicAgent::new(seed).act(&obs, &mask);
                let e = tally.entry(format!("{:?}", View::decode(&obs).phase)).or_default();
                e.0 += 1;
                e.1 += u64::from(h != a);
                e.2 += ns;
            }
            apply(&mut s, a as i64).unwrap();
        }
    }
    let (mut all_n, mut all_ns) = (0, 0);
    for (phase, (n, d, ns)) in tally {
        println!(
            "{phase:<14} decisions {n:>6}  search differs from heuristic {d:>5} ({:.1}%)  {:.2} ms CPU per decision",
            100.0 * d as f64 / n as f64,
            ns as f64 / n as f64 / 1e6
        );
        all_n += n;
        all_ns += ns;
    }
    println!("all            decisions {all_n:>6}  {:.2} ms CPU per decision", all_ns as f64 / all_n.max(1) as f64 / 1e6);
}
