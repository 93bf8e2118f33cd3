//! Pits two bundled D-Day agents against each other on the same deals (game i uses seed
//! 1_000 + i for the game and its agents) and prints win/draw/loss with 95 % Wilson CIs, mean VP
//! margin and CPU seconds per game.
//!
//! `cargo run --release --example dday_arena -- <resistance> <german> [games] [budget] [threads]`
//! e.g. `-- search heuristic 100 200 2`.

use maquis::dday::agents::{Agent, AnyAgent};
use maquis::dday::{apply, legal_mask, new_game, observation, Outcome, Scenario, Side};
use std::time::Instant;

#[path = "common/arena.rs"]
mod arena;
use arena::{thread_cpu, wilson};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (ra, ga) = (args[1].clone(), args[2].clone());
    let games: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let budget: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(200);
    let threads: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2);
    let t0 = Instant::now();
    let hs: Vec<_> = (0..threads)
        .map(|th| {
            let (ra, ga) = (ra.clone(), ga.clone());
            std::thread::spawn(move || {
                let mut out = [0u64; 3]; // R win, draw, G win
                let mut margin = 0.0f64;
                let cpu0 = thread_cpu();
                let mut i = th;
                while i < games {
                    let seed = 1_000 + i;
                    let mut s = new_game(seed, &Scenario::default()).unwrap();
                    let mut agents = [
                        AnyAgent::by_id(&ra, seed ^ 0x1111, budget).unwrap(),
                        AnyAgent::by_id(&ga, seed ^ 0x2222, budget).unwrap(),
                    ];
                    while let Some(side) = s.to_move() {
                        let mask = legal_mask(&s);
                        let a = agents[side.idx()].act(&observation(&s, side), &mask);
                        apply(&mut s, a as i64).unwrap();
                    }
                    out[match s.outcome {
                        Some(Outcome::Resistance) => 0,
                        Some(Outcome::German) => 2,
                        _ => 1,
                    }] += 1;
                    margin += s.vp_margin(Side::Resistance) as f64;
                    i += threads;
                    // Long runs on a loaded machine: this thread's tally so far, to stderr.
                    let done = out.iter().sum::<u64>();
                    if done % 100 == 0 {
                        eprintln!("thread {th}: {done} games: R {} draws {} G {} cpu {:.1}s", out[0], out[1], out[2], thread_cpu() - cpu0);
                    }
                }
                (out, margin, thread_cpu() - cpu0)
            })
        })
        .collect();
    let mut out = [0u64; 3];
    let (mut margin, mut cpu) = (0.0, 0.0);
    for h in hs {
        let (o, m, c) = h.join().unwrap();
        for k in 0..3 {
            out[k] += o[k];
        }
        margin += m;
        cpu += c;
    }
    let n = games as f64;
    let (rl, rh) = wilson(out[0] as f64, n);
    let (gl, gh) = wilson(out[2] as f64, n);
    println!(
        "R={ra} G={ga} budget {budget}: {games} games  R wins {} ({:.1}% [{:.1},{:.1}])  draws {}  G wins {} ({:.1}% [{:.1},{:.1}])  R margin {:+.2}  cpu {:.2}s/game  [{:.0}s]",
        out[0], 100.0 * out[0] as f64 / n, 100.0 * rl, 100.0 * rh, out[1], out[2], 100.0 * out[2] as f64 / n,
        100.0 * gl, 100.0 * gh, margin / n, cpu / n, t0.elapsed().as_secs_f64()
    );
}
