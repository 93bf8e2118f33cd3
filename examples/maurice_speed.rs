//! Maurice Lite's engine speed on one thread, with no Python: a fixed amount of work per mode, so
//! that `valgrind --tool=callgrind` (or cachegrind) counts the same instructions whatever the
//! machine's load, and a wall-clock rate besides.
//!
//! ```text
//! cargo run --release --example maurice_speed -- MODE [N] [--scenario standard|skirmish]
//! valgrind --tool=callgrind target/release/examples/maurice_speed random 20
//! ```
//!
//! Modes (N: games, or decisions for `search`; each game from the deal `splitmix64(g)`):
//!
//! - `engine`: random play, `legal_mask` then `apply` at each decision;
//! - `random`: the same plus the decider's compact uint8 observation (the bench's engine row);
//! - `full`: the same with the full float32 observation;
//! - `interleaved`: `random` on N games at once, one decision of each in turn (as a vector env's
//!   thread steps its environments), each game restarted when it ends, 300 decisions a game;
//! - `vector` / `vector-heuristic`: the vector env as `python -m maquis maurice bench`'s engine row
//!   (or its `parts` heuristic row) steps it, with no Python: `VecEngine` of N environments (default
//!   256) on one thread against the `random` (`heuristic`) opponent, uint8 rows, `sample_actions`
//!   then `step`, 200 steps (learner decisions counted; `PREFETCH=on|off` fixes the engine's
//!   prefetching, else chosen by measurement);
//! - `mask`: `legal_mask` alone, over the positions of random games (apply not counted);
//! - `observe`: the compact observation alone, over the positions of random games;
//! - `heuristic`: heuristic against heuristic, compact float32 observation;
//! - `search`: `search` (budget 100) decisions in positions of heuristic-against-heuristic games,
//!   one when the side to move has a choice of command or volley at least 30 decisions after the
//!   last (the median and largest time of one are printed too).
//!
//! Prints the work done (decisions) and its rate.

use maquis::draw::splitmix64;
use maquis::maurice::agents::{Agent, HeuristicAgent, RandomAgent, SearchAgent};
use maquis::maurice::{
    apply, legal_mask, new_game, write_observation, Phase, ScenarioId, Setup, State, COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE,
};
use std::hint::black_box;
use std::time::Instant;

/// The vector env's steps: `n` environments on one thread against `opponent`, uint8 rows, 200 steps
/// of `sample_actions` then `step`; the learner decisions taken.
fn vector_steps(setup: &Setup, n: usize, opponent: &str) -> u64 {
    use maquis::env::{Autoreset, IllegalPolicy};
    use maquis::maurice::env::{EnvConfig, Maurice, Opponent, OpponentKind, Rewards, Scenario, VecEngine};
    use maquis::vector::ByteBuffers;
    let scenario = Scenario::from_options(&serde_json::json!({"scenario": setup.scenario.as_str()})).unwrap();
    let kind = OpponentKind::parse(opponent, false).unwrap();
    let game = maquis::maurice::env::Setup { scenario, opponent: Opponent::bundled(kind, 100), ..Default::default() };
    let cfg = EnvConfig::new(game, Rewards::default(), IllegalPolicy::Terminate).unwrap();
    let mut engine = VecEngine::new(cfg, n, 1, Autoreset::NextStep).unwrap();
    // PREFETCH=on|off fixes the engine's prefetching (else chosen by measurement).
    match std::env::var("PREFETCH").as_deref() {
        Ok("on") => engine.set_prefetch(Some(true)),
        Ok("off") => engine.set_prefetch(Some(false)),
        _ => {}
    }
    let mut rows = ByteBuffers::of::<Maurice>(n);
    let mut actions = vec![0i64; n];
    engine.seed_all(7);
    engine.reset(None, None, None, &mut rows.out()).unwrap();
    for _ in 0..200 {
        engine.sample_actions(&mut actions);
        engine.step(&actions, &mut rows.out()).unwrap();
    }
    black_box(rows.obs());
    200 * n as u64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().cloned().unwrap_or_else(|| "random".into());
    let n: u64 = args.get(1).and_then(|v| v.parse().ok()).unwrap_or(match mode.as_str() {
        "search" => 10,
        _ => 100,
    });
    let scenario = match args.iter().position(|a| a == "--scenario") {
        Some(i) => ScenarioId::parse(&args[i + 1]).expect("a scenario"),
        None => ScenarioId::Standard,
    };
    let setup = Setup { scenario, ..Default::default() };
    let mut compact = vec![0u8; COMPACT_OBSERVATION_SIZE];
    let mut obs = vec![0f32; OBSERVATION_SIZE];
    let t = Instant::now();
    let mut decisions = 0u64;
    let mut timed = 0f64;
    match mode.as_str() {
        "engine" | "random" | "full" => {
            for g in 0..n {
                let mut s = new_game(splitmix64(g), &setup).unwrap();
                let mut agent = RandomAgent::new(g);
                while let Some(side) = s.to_move {
                    let mask = legal_mask(&s);
                    match mode.as_str() {
                        "random" => write_observation(&s, side, &mut compact[..]),
                        "full" => write_observation(&s, side, &mut obs[..]),
                        _ => {}
                    }
                    let a = agent.act(&obs, &mask);
                    apply(&mut s, a as i64).unwrap();
                    decisions += 1;
                }
                black_box(&compact);
            }
        }
        "interleaved" => {
            let mut games: Vec<(State, RandomAgent, u64)> =
                (0..n).map(|g| (new_game(splitmix64(g), &setup).unwrap(), RandomAgent::new(g), g)).collect();
            for _ in 0..300 {
                for (s, agent, g) in games.iter_mut() {
                    if s.to_move.is_none() {
                        *g += n;
                        *s = new_game(splitmix64(*g), &setup).unwrap();
                    }
                    let side = s.to_move.unwrap();
                    let mask = legal_mask(s);
                    write_observation(s, side, &mut compact[..]);
                    let a = agent.act(&obs, &mask);
                    apply(s, a as i64).unwrap();
                    decisions += 1;
                }
            }
        }
        "mask" | "observe" => {
            let mut positions: Vec<State> = Vec::new();
            for g in 0..n {
                let mut s = new_game(splitmix64(g), &setup).unwrap();
                let mut agent = RandomAgent::new(g);
                while s.to_move.is_some() {
                    positions.push(s.clone());
                    let a = agent.act(&obs, &legal_mask(&s));
                    apply(&mut s, a as i64).unwrap();
                }
            }
            let t0 = Instant::now();
            for s in &positions {
                if mode == "mask" {
                    black_box(legal_mask(black_box(s)));
                } else {
                    write_observation(s, s.to_move.unwrap(), &mut compact[..]);
                    black_box(&compact);
                }
                decisions += 1;
            }
            timed = t0.elapsed().as_secs_f64();
        }
        "heuristic" => {
            for g in 0..n {
                let mut s = new_game(splitmix64(g), &setup).unwrap();
                let mut agents = [HeuristicAgent::new(g), HeuristicAgent::new(g ^ 1)];
                while let Some(side) = s.to_move {
                    let mask = legal_mask(&s);
                    write_observation(&s, side, &mut obs[..COMPACT_OBSERVATION_SIZE]);
                    let a = agents[side.idx()].act(&obs[..COMPACT_OBSERVATION_SIZE], &mask);
                    apply(&mut s, a as i64).unwrap();
                    decisions += 1;
                }
            }
        }
        "search" => {
            let mut g = 0;
            let mut times = Vec::new();
            while decisions < n {
                let mut s = new_game(splitmix64(1000 + g), &setup).unwrap();
                let mut players = [HeuristicAgent::new(g), HeuristicAgent::new(g ^ 1)];
                let mut agent = SearchAgent::new(100, g);
                let mut k = 0;
                while let Some(side) = s.to_move {
                    let mask = legal_mask(&s);
                    write_observation(&s, side, &mut obs[..]);
                    let a = if k >= 30 && matches!(s.phase, Phase::Command | Phase::VolleyChoice) && mask.count() > 1 {
                        let t0 = Instant::now();
                        let a = agent.act(&obs, &mask);
                        times.push(t0.elapsed().as_secs_f64());
                        decisions += 1;
                        k = 0;
                        if decisions == n {
                            break;
                        }
                        a
                    } else {
                        players[side.idx()].act(&obs[..COMPACT_OBSERVATION_SIZE], &mask)
                    };
                    apply(&mut s, a as i64).unwrap();
                    k += 1;
                }
                g += 1;
            }
            times.sort_by(|a, b| a.partial_cmp(b).unwrap());
            println!(
                "search decisions: median {:.2} ms, max {:.2} ms",
                1e3 * times[times.len() / 2],
                1e3 * times[times.len() - 1]
            );
        }
        "vector" | "vector-heuristic" => {
            decisions = vector_steps(&setup, n as usize, if mode == "vector" { "random" } else { "heuristic" });
        }
        m => panic!("unknown mode {m}"),
    }
    let secs = if timed > 0.0 { timed } else { t.elapsed().as_secs_f64() };
    println!("{mode} {scenario:?}: {decisions} decisions in {secs:.3} s: {:.0} decisions/s", decisions as f64 / secs);
}
