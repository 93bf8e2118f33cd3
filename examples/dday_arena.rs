//! Pits two bundled D-Day agents against each other on the same deals (game i uses seed
//! 1_000 + i for the game and its agents) and prints win/draw/loss with 95 % Wilson CIs, mean VP
//! margin, CPU seconds per game and each side's CPU milliseconds per decision.
//!
//! `cargo run --release --example dday_arena -- <resistance> <german> [games] [budget] [threads]
//! [--first N] [--network FILE]` e.g. `-- search heuristic 100 200 2`; an agent written `id@B`
//! (`search@800`) has its own budget B instead of `budget`. Games N … N + games − 1
//! (default 0), the `network` levels playing FILE (default the package's
//! `python/maquis/dday/networks/dday.safetensors`).

use maquis::dday::agents::network::{set_network, Network};
use maquis::dday::agents::{Agent, AnyAgent};
use maquis::dday::{apply, legal_mask, new_game, observation, Outcome, Scenario, Side};
use std::time::Instant;

#[path = "common/arena.rs"]
mod arena;
use arena::{thread_cpu, thread_cpu_ns, wilson};

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let mut flag = |name: &str| {
        let at = args.iter().position(|a| a == name)?;
        let value = args.get(at + 1).cloned();
        args.drain(at..(at + 2).min(args.len()));
        value
    };
    let first: u64 = flag("--first").map_or(0, |f| f.parse().expect("--first: a game number"));
    let network = flag("--network").unwrap_or_else(|| "python/maquis/dday/networks/dday.safetensors".into());
    if args.len() < 3 {
        eprintln!("usage: dday_arena <resistance> <german> [games] [budget] [threads] [--first N] [--network FILE]");
        std::process::exit(2);
    }
    let (ra, ga) = (args[1].clone(), args[2].clone());
    let games: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(100);
    let budget: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(200);
    let threads: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2);
    if ra.starts_with("network") || ga.starts_with("network") {
        let net = Network::load(std::path::Path::new(&network)).unwrap_or_else(|e| panic!("{e}"));
        set_network(std::sync::Arc::new(net));
    }
    let t0 = Instant::now();
    let hs: Vec<_> = (0..threads)
        .map(|th| {
            let (ra, ga) = (ra.clone(), ga.clone());
            std::thread::spawn(move || {
                let mut out = [0u64; 3]; // R win, draw, G win
                let mut margin = 0.0f64;
                // Per side: decisions taken and CPU nanoseconds spent choosing them.
                let mut decisions = [0u64; 2];
                let mut act_ns = [0u64; 2];
                let cpu0 = thread_cpu();
                let mut i = first + th;
                while i < first + games {
                    let seed = 1_000 + i;
                    let mut s = new_game(seed, &Scenario::default()).unwrap();
                    let mut agents = [
                        agent(&ra, seed ^ 0x1111, budget),
                        agent(&ga, seed ^ 0x2222, budget),
                    ];
                    while let Some(side) = s.to_move() {
                        let mask = legal_mask(&s);
                        let obs = observation(&s, side);
                        let t = thread_cpu_ns();
                        let a = agents[side.idx()].act(&obs, &mask);
                        act_ns[side.idx()] += thread_cpu_ns() - t;
                        decisions[side.idx()] += 1;
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
                (out, margin, thread_cpu() - cpu0, decisions, act_ns)
            })
        })
        .collect();
    let mut out = [0u64; 3];
    let (mut margin, mut cpu) = (0.0, 0.0);
    let (mut decisions, mut act_ns) = ([0u64; 2], [0u64; 2]);
    for h in hs {
        let (o, m, c, d, t) = h.join().unwrap();
        for k in 0..2 {
            decisions[k] += d[k];
            act_ns[k] += t[k];
        }
        for k in 0..3 {
            out[k] += o[k];
        }
        margin += m;
        cpu += c;
    }
    let n = games as f64;
    let (rl, rh) = wilson(out[0] as f64, n);
    let (gl, gh) = wilson(out[2] as f64, n);
    let ms = |k: usize| act_ns[k] as f64 / 1e6 / decisions[k].max(1) as f64;
    println!(
        "R={ra} G={ga} budget {budget}: {games} games  R wins {} ({:.1}% [{:.1},{:.1}])  draws {}  G wins {} ({:.1}% [{:.1},{:.1}])  R margin {:+.2}  cpu {:.2}s/game  R {:.3} ms/decision ({:.1}/game)  G {:.3} ms/decision ({:.1}/game)  [{:.0}s]",
        out[0], 100.0 * out[0] as f64 / n, 100.0 * rl, 100.0 * rh, out[1], out[2], 100.0 * out[2] as f64 / n,
        100.0 * gl, 100.0 * gh, margin / n, cpu / n, ms(0), decisions[0] as f64 / n, ms(1), decisions[1] as f64 / n,
        t0.elapsed().as_secs_f64()
    );
}

/// The agent `spec` names: a bundled id, or `id@budget` with a budget of its own.
fn agent(spec: &str, seed: u64, budget: u32) -> AnyAgent {
    let (id, budget) = match spec.split_once('@') {
        Some((id, b)) => (id, b.parse().unwrap_or_else(|_| panic!("{spec}: the budget after @ must be a number"))),
        None => (spec, budget),
    };
    AnyAgent::by_id(id, seed, budget).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

