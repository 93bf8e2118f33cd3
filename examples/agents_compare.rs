//! Compares the Rust agents: outcome rates per difficulty (uniform deals of the second-edition
//! pool; game i uses seed 1_000_000 + i, so agents meet the same deals), missions completed per
//! game, days reached, moves per game, and time per move (wall clock, and CPU time of the playing
//! thread — the machine may be shared).
//!
//! `cargo run --release --example agents_compare -- [agents] [games] [difficulties] [simulations] [threads]`
//! e.g. `-- random,heuristic 2000 normal`, `-- heuristic,search 300 normal 64 2`,
//! `-- search 100 easy,hard 128`. Defaults: `random,heuristic 500 normal 200 2`.
//!
//! Environment: `PER_MISSION=1` completion rate per mission; `TRACE=<seed>` prints one game move
//! by move (`MISSIONS=a,b`, `DIFF=level`, `AGENT=search`, `SIMS=n`, `SCORES=1` for the heuristic's
//! scores); `HW="name=value,…"`, `HSAMPLES`, `HCANDS`, `HLOOK=0`, `HFAST=1` adjust the heuristic;
//! `SCANDS`, `SMARGIN`, `SDRAW`, `SFULL=1`, `SACT=1`, `SPB` adjust the search, `NET`, `GPW`,
//! `GCANDS`, `GHC`, `GMIX`, `GDEPTH`, `GDRAW`, `GPB`, `GFULL=1` the network_search; `RW="name=value,…"` the heuristic weights of both searches' rollouts and candidates; `PERGAME=1` prints each game's outcome (see the functions below).

use maquis::maquis::agents::heuristic::HeuristicAgent;
use maquis::maquis::agents::random::sample;
use maquis::maquis::ids::{Difficulty, MissionId, Outcome};
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, Setup, State};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Instant;

#[path = "common/arena.rs"]
mod arena;
use arena::thread_cpu;

#[derive(Default, Clone)]
struct Tally {
    games: u64,
    outcomes: [u64; 4],
    days: u64,
    missions_done: u64,
    moves: u64,
    secs: f64,
    per_mission: Vec<(u64, u64)>, // (games with it, completed)
    /// Losses by morale 0, by losing every worker, at the day-track end.
    loss_kind: [u64; 3],
    cpu: f64,
}

/// `HW="name=value,…"` overrides heuristic weights, `HLOOK=0` turns its lookahead off,
/// `HSAMPLES=n` sets its risk samples (for tuning).
fn heuristic(seed: u64) -> HeuristicAgent {
    let mut h = HeuristicAgent::new(seed);
    set_weights(&mut h.weights, "HW");
    if std::env::var("HFAST").is_ok() {
        h = HeuristicAgent { weights: h.weights.clone(), ..HeuristicAgent::fast(seed) };
    }
    if std::env::var("HLOOK").is_ok_and(|v| v == "0") {
        h.lookahead = false;
    }
    if let Some(n) = std::env::var("HSAMPLES").ok().and_then(|v| v.parse().ok()) {
        h.risk_samples = n;
    }
    if let Some(n) = std::env::var("HORDER").ok().and_then(|v| v.parse().ok()) {
        h.order_samples = n;
    }
    if let Some(n) = std::env::var("HCANDS").ok().and_then(|v| v.parse().ok()) {
        h.max_candidates = n;
    }
    h
}

/// Applies the weights listed in the environment variable `var` (`"name=value,…"`).
fn set_weights(w: &mut maquis::maquis::agents::heuristic::Weights, var: &str) {
    if let Ok(spec) = std::env::var(var) {
        for kv in spec.split(',').filter(|x| !x.is_empty()) {
            let (k, v) = kv.split_once('=').expect("name=value");
            assert!(w.set(k, v.parse().unwrap()), "unknown weight {k}");
        }
    }
}

/// `SPB=x` progress bonus, `SDRAW=x` a draw's rollout value (0.5 by default), `SCANDS=k` candidates, `SFULL=1` full heuristic rollouts,
/// `SACT=1` search the whole action phase.
fn search_agent(sims: u32, seed: u64) -> maquis::maquis::agents::search::SearchAgent {
    let mut a = maquis::maquis::agents::search::SearchAgent::new(sims, seed);
    if let Some(x) = std::env::var("SPB").ok().and_then(|v| v.parse().ok()) {
        a.progress_bonus = x;
    }
    if let Some(x) = std::env::var("SDRAW").ok().and_then(|v| v.parse().ok()) {
        a.values[Outcome::Draw.idx()] = x;
    }
    if let Some(x) = std::env::var("SMARGIN").ok().and_then(|v| v.parse().ok()) {
        a.prior_margin = x;
    }
    if let Some(x) = std::env::var("SCANDS").ok().and_then(|v| v.parse().ok()) {
        a.candidates = x;
    }
    if std::env::var("SFULL").is_ok() {
        a.rollout = HeuristicAgent::new(seed);
    }
    if let Ok(v) = std::env::var("SACT") {
        a.search_actions = v == "1";
    }
    set_weights(&mut a.rollout.weights, "RW");
    set_weights(&mut a.prior.weights, "RW");
    a
}

/// `network_search` with its defaults (`NETWORK_SEARCH_DEFAULTS`) over the shipped network (`NET=file`
/// for another); `GPW=w` the prior's weight, `GCANDS=k` the network's
/// candidates, `GHC=k` the heuristic's, `GMIX`, `GDEPTH` the leaves' rollout mix and depth,
/// `GDRAW` a draw's value there, `GPB` their progress bonus, `GFULL=1` full heuristic rollouts.
fn guided_agent(sims: u32, seed: u64) -> maquis::maquis::agents::guided::GuidedSearch {
    use maquis::maquis::agents::guided::{GuidedSearch, GuidedSettings, NETWORK_SEARCH_DEFAULTS};
    use maquis::maquis::agents::network::Network;
    let path = std::env::var("NET").unwrap_or("python/maquis/networks/baseline.safetensors".into());
    let net = Network::load(std::path::Path::new(&path)).expect("a network file");
    let o = GuidedSettings { simulations: sims, ..NETWORK_SEARCH_DEFAULTS };
    let mut g = GuidedSearch::with_settings(std::sync::Arc::new(net), seed, &o);
    let var = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<f32>().ok());
    if let Some(x) = var("GPW") {
        g.settings.prior_weight = x;
    }
    if let Some(x) = var("GCANDS") {
        g.settings.candidates = x as usize;
    }
    if let Some(x) = var("GDRAW") {
        g.draw_value = x;
    }
    if let Some(x) = var("GPB") {
        g.settings.progress_bonus = x;
    }
    if let Some(x) = var("GMIX") {
        g.settings.rollout_mix = x;
    }
    if let Some(x) = var("GDEPTH") {
        g.settings.depth = x as u32;
    }
    if std::env::var("GFULL").is_ok() {
        g.rollout = HeuristicAgent::new(seed);
    }
    if let Some(x) = var("GHC") {
        g.settings.heuristic_candidates = x as usize;
    }
    set_weights(&mut g.rollout.weights, "RW");
    set_weights(&mut g.prior.weights, "RW");
    g
}

fn play(agent: &str, d: Difficulty, seed: u64, sims: u32) -> (State, u64, f64) {
    let mut s = new_game(&Setup::new(d), seed).unwrap();
    let h = heuristic(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xABCD);
    let mut search = search_agent(sims, seed);
    let guided = (agent == "network_search").then(|| guided_agent(sims, seed));
    let mut moves = 0;
    let t = Instant::now();
    while !s.is_over() {
        let a = match agent {
            "random" => sample(&legal_mask(&s), &mut rng).unwrap(),
            "heuristic" => h.act(&s),
            "search" => search.act(&s),
            "network_search" => guided.as_ref().expect("built above").act(&s),
            _ => panic!("unknown agent {agent}"),
        };
        apply_legal(&mut s, action_table().actions[a]);
        moves += 1;
    }
    (s, moves, t.elapsed().as_secs_f64())
}

/// `TRACE=<seed>`: prints one heuristic game move by move (with `MISSIONS=a,b`, `DIFF=level`).
fn trace(seed: u64) {
    let d = Difficulty::parse(&std::env::var("DIFF").unwrap_or("normal".into())).unwrap();
    let mut setup = Setup::new(d);
    if let Ok(ms) = std::env::var("MISSIONS") {
        let v: Vec<MissionId> = ms.split(',').map(|m| MissionId::parse(m).unwrap()).collect();
        setup = setup.missions(v[0], v[1]);
    }
    let mut s = new_game(&setup, seed).unwrap();
    let h = heuristic(seed);
    let mut search = search_agent(std::env::var("SIMS").ok().and_then(|x| x.parse().ok()).unwrap_or(64), seed);
    let use_search = std::env::var("AGENT").is_ok_and(|a| a == "search");
    println!("missions: {:?} / {:?}", s.missions[0].id, s.missions[1].id);
    let mut day = 99;
    while !s.is_over() {
        if s.day != day {
            day = s.day;
            println!(
                "-- day {} morale {} soldiers {} home {} stuck {} recruitable {} gone {} hand {:?} tiles {:?} field {:?} boxes {}/{}",
                s.day, s.tracks.morale, s.tracks.soldiers, s.home, s.stuck_workers(), s.recruitable, s.gone,
                s.tokens.hand, s.marks.tiles,
                s.tokens.airdrop, s.missions[0].boxes_done, s.missions[1].boxes_done
            );
        }
        if std::env::var("SCORES").is_ok() && s.phase != maquis::maquis::ids::Phase::Placement {
            let mut rng = h.rng_for(&s);
            let sc = h.ranked(&s, &mut rng);
            let txt: Vec<String> = sc.iter().take(6).map(|(i, v)| format!("{}={:.0}", action_table().names[*i], v)).collect();
            println!("      ranked: {}", txt.join(" "));
        }
        if std::env::var("SCORES").is_ok() && s.phase == maquis::maquis::ids::Phase::Placement {
            let mut rng = maquis::maquis::agents::heuristic::Rng64::new(1);
            let sc = h.placement_scores(&s, &mut rng);
            let txt: Vec<String> = sc.iter().take(6).map(|(i, v)| format!("{}={:.0}", action_table().names[*i], v)).collect();
            println!("      scores: {}", txt.join(" "));
            let lv: Vec<String> = h.location_values(&s).iter().map(|(l, o, v, safe)| format!("{l}:{o}={v:.0}{}", if *safe { "s" } else { "" })).collect();
            println!("      values: {}", lv.join(" "));
        }
        let a = if use_search { search.act(&s) } else { h.act(&s) };
        let before = s.patrol_set();
        apply_legal(&mut s, action_table().actions[a]);
        let mut patrols = vec![];
        for (i, p) in s.pawns.iter().enumerate() {
            if p.is_patrol() && before & (1 << i) == 0 {
                patrols.push(maquis::maquis::ids::Location::ALL[i].as_str());
            }
        }
        println!("   {}  {}", action_table().names[a], if patrols.is_empty() { String::new() } else { format!("-> patrol {patrols:?}") });
    }
    println!(
        "outcome {:?} day {} morale {} gone {} boxes {}/{}",
        s.outcome, s.day, s.tracks.morale, s.gone, s.missions[0].boxes_done, s.missions[1].boxes_done
    );
}

fn main() {
    if let Ok(seed) = std::env::var("TRACE") {
        trace(seed.parse().unwrap());
        return;
    }
    let args: Vec<String> = std::env::args().collect();
    let agents: Vec<String> = args.get(1).map_or("random,heuristic", |s| s).split(',').map(String::from).collect();
    let games: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let diffs: Vec<Difficulty> = args
        .get(3)
        .map_or("normal", |s| s)
        .split(',')
        .map(|d| Difficulty::parse(d).expect("difficulty id"))
        .collect();
    let sims: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(200);
    let threads: u64 = args.get(5).and_then(|a| a.parse().ok()).unwrap_or(2);
    for agent in &agents {
        for &d in &diffs {
            let t0 = Instant::now();
            let handles: Vec<_> = (0..threads)
                .map(|th| {
                    let agent = agent.clone();
                    std::thread::spawn(move || {
                        let mut t = Tally { per_mission: vec![(0, 0); MissionId::COUNT], ..Tally::default() };
                        let cpu0 = thread_cpu();
                        let mut seed = th;
                        while seed < games {
                            let (s, moves, secs) = play(&agent, d, 1_000_000 + seed, sims);
                            t.games += 1;
                            if std::env::var("PERGAME").is_ok() {
                                eprintln!("game {} {:?}", 1_000_000 + seed, s.outcome.unwrap());
                            }
                            t.outcomes[s.outcome.unwrap().idx()] += 1;
                            if s.outcome == Some(Outcome::Loss) {
                                let k = if s.tracks.morale == 0 { 0 } else if s.workers_in_play() == 0 { 1 } else { 2 };
                                t.loss_kind[k] += 1;
                            }
                            t.days += s.day as u64 + (s.pass as u64 - 1) * 15;
                            t.moves += moves;
                            t.secs += secs;
                            for m in &s.missions {
                                t.per_mission[m.id.idx()].0 += 1;
                                if m.complete {
                                    t.missions_done += 1;
                                    t.per_mission[m.id.idx()].1 += 1;
                                }
                            }
                            seed += threads;
                        }
                        t.cpu = thread_cpu() - cpu0;
                        t
                    })
                })
                .collect();
            let mut tot = Tally { per_mission: vec![(0, 0); MissionId::COUNT], ..Tally::default() };
            for h in handles {
                let t = h.join().unwrap();
                tot.games += t.games;
                for i in 0..4 {
                    tot.outcomes[i] += t.outcomes[i];
                }
                tot.days += t.days;
                for i in 0..3 {
                    tot.loss_kind[i] += t.loss_kind[i];
                }
                tot.missions_done += t.missions_done;
                tot.moves += t.moves;
                tot.secs += t.secs;
                tot.cpu += t.cpu;
                for i in 0..MissionId::COUNT {
                    tot.per_mission[i].0 += t.per_mission[i].0;
                    tot.per_mission[i].1 += t.per_mission[i].1;
                }
            }
            let g = tot.games as f64;
            let o = &tot.outcomes;
            let label = if agent.contains("search") { format!("{agent}({sims})") } else { agent.clone() };
            println!(
                "{label:>12} {d:>9}: {} games  win {} ({:.1}%)  major_win {} ({:.1}%)  draw {} ({:.1}%)  loss {} ({:.1}%)  | win+major {:.1}%  draw+ {:.1}%  missions/game {:.2}  days {:.1}  moves/game {:.0}  {:.3} ms/move (cpu {:.3})  [{:.0}s]",
                tot.games,
                o[Outcome::Win.idx()], 100.0 * o[Outcome::Win.idx()] as f64 / g,
                o[Outcome::MajorWin.idx()], 100.0 * o[Outcome::MajorWin.idx()] as f64 / g,
                o[Outcome::Draw.idx()], 100.0 * o[Outcome::Draw.idx()] as f64 / g,
                o[Outcome::Loss.idx()], 100.0 * o[Outcome::Loss.idx()] as f64 / g,
                100.0 * (o[0] + o[1]) as f64 / g,
                100.0 * (o[0] + o[1] + o[2]) as f64 / g,
                tot.missions_done as f64 / g,
                tot.days as f64 / g,
                tot.moves as f64 / g,
                1000.0 * tot.secs / tot.moves as f64,
                1000.0 * tot.cpu / tot.moves as f64,
                t0.elapsed().as_secs_f64()
            );
            println!("             losses: morale {} / no workers {} / time {}", tot.loss_kind[0], tot.loss_kind[1], tot.loss_kind[2]);
            if std::env::var("PER_MISSION").is_ok() {
                for (i, &(n, c)) in tot.per_mission.iter().enumerate() {
                    if n > 0 {
                        println!("    {:>28}: {c}/{n} ({:.0}%)", MissionId::ALL[i].as_str(), 100.0 * c as f64 / n as f64);
                    }
                }
            }
        }
    }
}
