//! The ladder of Maurice Lite's bundled opponents (RULES D1, D2): every pairing played from both
//! seats on the same deals, with per pairing and seat the wins, draws and losses of the first
//! agent, its score (win 1, draw ½) with a 95 % Wilson interval, the mean rounds and decisions of
//! a game and the CPU time per game and per decision of each agent.
//!
//! ```text
//! cargo run --release --example maurice_ladder -- --games 1000 --threads 16 --seed 0 \
//!     --scenario standard [--budget 100] [--pairs heuristic:random,search:heuristic,search:random] [--json]
//! ```
//!
//! `--games` is per seat and pairing; `--scenario both` runs `standard` then `skirmish`. Game g
//! of every pairing and seat uses the deal `splitmix64(seed ^ splitmix64(g))`, and each agent a
//! stream derived from it and its seat, so the results depend on the seed only, never on
//! `--threads`. `--json` prints the table as JSON on stdout (the text table goes to stderr).

use maquis::draw::splitmix64;
use maquis::maurice::agents::{Agent, AnyAgent};
use maquis::maurice::{apply, legal_mask, new_game, write_observation, ScenarioId, Setup, Side, OBSERVATION_SIZE};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[path = "common/arena.rs"]
mod arena;
use arena::{thread_cpu_ns, wilson};

struct Args {
    games: usize,
    threads: usize,
    seed: u64,
    scenarios: Vec<ScenarioId>,
    budget: u32,
    pairs: Vec<(String, String)>,
    json: bool,
}

fn usage(msg: &str) -> ! {
    eprintln!("maurice_ladder: {msg}");
    eprintln!("usage: maurice_ladder [--games N] [--threads T] [--seed S] [--scenario standard|skirmish|both] [--budget B] [--pairs a:b,...] [--json]");
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut a = Args {
        games: 100,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        seed: 0,
        scenarios: vec![ScenarioId::Standard],
        budget: maquis::maurice::agents::search::DEFAULT_BUDGET,
        pairs: vec![("heuristic".into(), "random".into()), ("search".into(), "heuristic".into()), ("search".into(), "random".into())],
        json: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--json" {
            a.json = true;
            continue;
        }
        let Some(value) = it.next() else { usage(&format!("{flag} needs a value")) };
        let num = |v: &str| v.parse::<u64>().unwrap_or_else(|_| usage(&format!("{flag}: {v:?} is not a whole number")));
        match flag.as_str() {
            "--games" => a.games = num(&value) as usize,
            "--threads" => a.threads = (num(&value) as usize).max(1),
            "--seed" => a.seed = num(&value),
            "--budget" => a.budget = num(&value) as u32,
            "--scenario" => {
                a.scenarios = match value.as_str() {
                    "both" => vec![ScenarioId::Standard, ScenarioId::Skirmish],
                    v => vec![ScenarioId::parse(v).unwrap_or_else(|_| usage(&format!("--scenario: unknown scenario {v:?}")))],
                }
            }
            "--pairs" => {
                a.pairs = value
                    .split(',')
                    .map(|p| match p.split_once(':') {
                        Some((x, y)) => (x.to_string(), y.to_string()),
                        None => usage(&format!("--pairs: {p:?} is not a:b")),
                    })
                    .collect();
                for (x, y) in &a.pairs {
                    for id in [x, y] {
                        if AnyAgent::by_id(id, 0, 1).is_err() {
                            usage(&format!("--pairs: unknown agent {id:?} (random, heuristic, search)"));
                        }
                    }
                }
            }
            _ => usage(&format!("unknown option {flag}")),
        }
    }
    a
}

/// One game's tally, seen from the pairing's first agent.
#[derive(Clone, Copy, Default)]
struct Game {
    /// 0 win, 1 draw, 2 loss.
    result: usize,
    rounds: u32,
    /// Decisions and CPU nanoseconds in `act`, of the first then the second agent.
    decisions: [u64; 2],
    act_ns: [u64; 2],
    /// CPU nanoseconds of the whole game: engine, observations and both agents.
    game_ns: u64,
}

/// Plays game `g` of a pairing with the first agent `a` on `a_side`.
fn play(setup: &Setup, seed: u64, ids: [&str; 2], a_side: Side, g: u64, budget: u32, obs: &mut [f32]) -> Game {
    let t0 = thread_cpu_ns();
    let deal = splitmix64(seed ^ splitmix64(g));
    let mut s = new_game(deal, setup).expect("the scenario sets up");
    let seat_of = |side: Side| usize::from(side != a_side);
    let mut agents = [Side::Blue, Side::Red]
        .map(|side| AnyAgent::by_id(ids[seat_of(side)], splitmix64(deal ^ (0xA6E7 + side.idx() as u64)), budget).expect("a known agent"));
    let mut out = Game::default();
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        write_observation(&s, side, obs);
        let t = thread_cpu_ns();
        let act = agents[side.idx()].act(obs, &mask);
        let seat = seat_of(side);
        out.act_ns[seat] += thread_cpu_ns() - t;
        out.decisions[seat] += 1;
        apply(&mut s, act as i64).expect("a bundled agent plays a legal action");
    }
    out.result = match s.outcome.and_then(|o| o.winner()) {
        None => 1,
        Some(w) if w == a_side => 0,
        Some(_) => 2,
    };
    out.rounds = s.round_no;
    out.game_ns = thread_cpu_ns() - t0;
    out
}

/// The games of one pairing and seat, summed.
#[derive(Default)]
struct Row {
    scenario: ScenarioId,
    a: String,
    b: String,
    a_side: Option<Side>,
    wdl: [u64; 3],
    rounds: u64,
    decisions: [u64; 2],
    act_ns: [u64; 2],
    game_ns: u64,
}

impl Row {
    fn n(&self) -> f64 {
        self.wdl.iter().sum::<u64>() as f64
    }
    fn score(&self) -> f64 {
        (self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64) / self.n()
    }
    fn score_ci(&self) -> (f64, f64) {
        wilson(self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64, self.n())
    }
    fn ms_per_decision(&self, k: usize) -> f64 {
        1e-6 * self.act_ns[k] as f64 / self.decisions[k].max(1) as f64
    }
    /// The first agent's wins and losses have disjoint 95 % intervals, wins above.
    fn separated(&self) -> bool {
        wilson(self.wdl[0] as f64, self.n()).0 > wilson(self.wdl[2] as f64, self.n()).1
    }
    fn json(&self) -> String {
        let (lo, hi) = self.score_ci();
        let (wl, wh) = wilson(self.wdl[0] as f64, self.n());
        let (ll, lh) = wilson(self.wdl[2] as f64, self.n());
        let n = self.n();
        format!(
            concat!(
                "{{\"scenario\": \"{}\", \"agent\": \"{}\", \"opponent\": \"{}\", \"agent_side\": \"{}\", \"games\": {}, ",
                "\"wins\": {}, \"draws\": {}, \"losses\": {}, \"score\": {:.4}, \"score_ci95\": [{:.4}, {:.4}], ",
                "\"win_ci95\": [{:.4}, {:.4}], \"loss_ci95\": [{:.4}, {:.4}], \"separated\": {}, ",
                "\"mean_rounds\": {:.2}, \"mean_decisions\": [{:.1}, {:.1}], \"cpu_ms_per_game\": {:.3}, ",
                "\"cpu_ms_per_decision\": [{:.4}, {:.4}]}}"
            ),
            self.scenario.as_str(),
            self.a,
            self.b,
            self.a_side.map_or("", |s| s.as_str()),
            n,
            self.wdl[0],
            self.wdl[1],
            self.wdl[2],
            self.score(),
            lo,
            hi,
            wl,
            wh,
            ll,
            lh,
            self.separated(),
            self.rounds as f64 / n,
            self.decisions[0] as f64 / n,
            self.decisions[1] as f64 / n,
            1e-6 * self.game_ns as f64 / n,
            self.ms_per_decision(0),
            self.ms_per_decision(1),
        )
    }
}

fn main() {
    let args = parse_args();
    let started = Instant::now();
    // Every game of the run, in a fixed order: scenario, pairing, seat, game.
    let mut jobs = Vec::new();
    for &scenario in &args.scenarios {
        for (p, _) in args.pairs.iter().enumerate() {
            for a_side in [Side::Blue, Side::Red] {
                for g in 0..args.games {
                    jobs.push((scenario, p, a_side, g as u64));
                }
            }
        }
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Game>>> = Mutex::new(vec![None; jobs.len()]);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut obs = vec![0.0f32; OBSERVATION_SIZE];
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(scenario, p, a_side, g)) = jobs.get(j) else { break };
                    let setup = Setup { scenario, ..Setup::default() };
                    let (a, b) = &args.pairs[p];
                    let game = play(&setup, args.seed, [a, b], a_side, g, args.budget, &mut obs);
                    results.lock().expect("no thread panicked")[j] = Some(game);
                    let k = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if k.is_multiple_of(100) || k == jobs.len() {
                        eprintln!("{k}/{} games, {:.0} s", jobs.len(), started.elapsed().as_secs_f64());
                    }
                }
            });
        }
    });
    let results = results.into_inner().expect("no thread panicked");
    let mut rows: Vec<Row> = Vec::new();
    for (&(scenario, p, a_side, _), game) in jobs.iter().zip(&results) {
        let game = game.expect("every game was played");
        if rows.last().is_none_or(|r| r.scenario != scenario || r.a_side != Some(a_side) || (&r.a, &r.b) != (&args.pairs[p].0, &args.pairs[p].1)) {
            rows.push(Row { scenario, a: args.pairs[p].0.clone(), b: args.pairs[p].1.clone(), a_side: Some(a_side), ..Row::default() });
        }
        let r = rows.last_mut().expect("just pushed");
        r.wdl[game.result] += 1;
        r.rounds += u64::from(game.rounds);
        r.game_ns += game.game_ns;
        for k in 0..2 {
            r.decisions[k] += game.decisions[k];
            r.act_ns[k] += game.act_ns[k];
        }
    }
    let mut text = format!(
        "maurice ladder: {} games a seat, seed {}, search budget {}, {} threads, {:.0} s wall\n",
        args.games,
        args.seed,
        args.budget,
        args.threads,
        started.elapsed().as_secs_f64()
    );
    text += &format!(
        "{:<9} {:<20} {:<5} {:>5} {:>5} {:>5}  {:<22} {:<8} {:>7} {:>13} {:>10} {:>17}\n",
        "scenario", "A vs B", "A as", "win", "draw", "loss", "A's score [95% CI]", "ladder", "rounds", "decisions A/B", "ms/game", "ms/decision A/B"
    );
    for r in &rows {
        let (lo, hi) = r.score_ci();
        let n = r.n();
        text += &format!(
            "{:<9} {:<20} {:<5} {:>5} {:>5} {:>5}  {:.3} [{:.3}, {:.3}]   {:<8} {:>7.1} {:>6.0}/{:<6.0} {:>10.2} {:>8.3}/{:<8.3}\n",
            r.scenario.as_str(),
            format!("{} vs {}", r.a, r.b),
            r.a_side.map_or("", |s| s.as_str()),
            r.wdl[0],
            r.wdl[1],
            r.wdl[2],
            r.score(),
            lo,
            hi,
            if r.separated() { "yes" } else { "no" },
            r.rounds as f64 / n,
            r.decisions[0] as f64 / n,
            r.decisions[1] as f64 / n,
            1e-6 * r.game_ns as f64 / n,
            r.ms_per_decision(0),
            r.ms_per_decision(1),
        );
    }
    text += "ladder: yes when A's win and loss rates have disjoint 95% Wilson intervals, wins above; CPU is per thread (clock_gettime), ms/game includes the engine and observations\n";
    if args.json {
        eprint!("{text}");
        let body: Vec<String> = rows.iter().map(|r| format!("    {}", r.json())).collect();
        println!(
            "{{\n  \"games_per_seat\": {},\n  \"seed\": {},\n  \"budget\": {},\n  \"threads\": {},\n  \"rows\": [\n{}\n  ]\n}}",
            args.games,
            args.seed,
            args.budget,
            args.threads,
            body.join(",\n")
        );
    } else {
        print!("{text}");
    }
}
