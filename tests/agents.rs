//! The Rust agents: always legal, the heuristic clearly beats random play, the search beats the
//! heuristic. All games use fixed seeds, so the results are deterministic (no flaky thresholds);
//! the larger comparisons live in `examples/agents_compare.rs`.

use maquis::maquis::agents::{act_batch, Agent, AnyAgent, HeuristicAgent, RandomAgent, SearchAgent};
use maquis::maquis::ids::{Difficulty, MissionPool, Outcome};
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, Setup, State};

/// Plays one game with `agent`, checking every chosen action against the legal mask.
fn play_checked<A: Agent>(agent: &mut A, setup: &Setup, seed: u64) -> State {
    let mut s = new_game(setup, seed).unwrap();
    let mut moves = 0;
    while !s.is_over() {
        let a = agent.act(&s);
        let mask = legal_mask(&s);
        assert!(
            a < maquis::maquis::NUM_ACTIONS && mask.get(a),
            "illegal action {a} ({}) in phase {:?}, seed {seed}, setup {setup:?}",
            action_table().names.get(a).map_or("?", |n| n.as_str()),
            s.phase
        );
        apply_legal(&mut s, action_table().actions[a]);
        moves += 1;
        assert!(moves < 2000, "game did not end");
    }
    s
}

/// Outcome counts (Outcome order: win, major_win, draw, loss) over `games` seeds, on 2 threads.
fn tally(make: fn(u64) -> AnyAgent, setup: &Setup, seeds: std::ops::Range<u64>) -> [u32; 4] {
    let seeds: Vec<u64> = seeds.collect();
    let mut counts = [0u32; 4];
    std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .chunks(seeds.len().div_ceil(2).max(1))
            .map(|chunk| {
                scope.spawn(move || {
                    let mut c = [0u32; 4];
                    for &seed in chunk {
                        let mut agent = make(seed);
                        let s = play_checked(&mut agent, setup, seed);
                        c[s.outcome.unwrap().idx()] += 1;
                    }
                    c
                })
            })
            .collect();
        for h in handles {
            let c = h.join().unwrap();
            for i in 0..4 {
                counts[i] += c[i];
            }
        }
    });
    counts
}

/// Mean reward with the default mapping (win 1, major_win 1, draw 0, loss −1).
fn score(c: &[u32; 4]) -> f64 {
    let n: u32 = c.iter().sum();
    (c[Outcome::Win.idx()] as f64 + c[Outcome::MajorWin.idx()] as f64 - c[Outcome::Loss.idx()] as f64) / n as f64
}

fn wins(c: &[u32; 4]) -> u32 {
    c[Outcome::Win.idx()] + c[Outcome::MajorWin.idx()]
}

fn describe(c: &[u32; 4]) -> String {
    format!("win {} major_win {} draw {} loss {} (score {:+.3})", c[0], c[1], c[2], c[3], score(c))
}

#[test]
fn heuristic_is_always_legal() {
    for &d in Difficulty::ALL {
        for pool in [MissionPool::SecondEdition, MissionPool::FirstEdition, MissionPool::Pnp2013] {
            let setup = Setup { mission_pool: pool, ..Setup::new(d) };
            for seed in 0..12 {
                play_checked(&mut HeuristicAgent::new(seed), &setup, seed);
            }
        }
    }
}

#[test]
fn heuristic_is_legal_with_every_mission() {
    // Every mission at least once on each slot, on normal and very_hard.
    use maquis::maquis::ids::MissionId;
    for (i, &a) in MissionId::ALL.iter().enumerate() {
        let b = MissionId::ALL[(i + 7) % MissionId::COUNT];
        let b = if maquis::maquis::missions::info(a).stars == 3 && maquis::maquis::missions::info(b).stars == 3 {
            MissionId::OfficersMansion
        } else {
            b
        };
        for d in [Difficulty::Normal, Difficulty::VeryHard] {
            for (x, y) in [(a, b), (b, a)] {
                play_checked(&mut HeuristicAgent::new(i as u64), &Setup::new(d).missions(x, y), 100 + i as u64);
            }
        }
    }
}

#[test]
fn search_is_always_legal() {
    for &d in Difficulty::ALL {
        for seed in 0..2 {
            let mut agent = SearchAgent::new(6, seed);
            play_checked(&mut agent, &Setup::new(d), 50 + seed);
        }
    }
}

#[test]
fn act_batch_matches_single_calls() {
    // Positions from a few heuristic games; the batch (3 threads) gives the same actions.
    let mut states = Vec::new();
    for seed in 0..4 {
        let mut s = new_game(&Setup::default(), seed).unwrap();
        let h = HeuristicAgent::new(1);
        while !s.is_over() && states.len() < 40 * (seed as usize + 1) {
            states.push(s.clone());
            let a = h.act(&s);
            apply_legal(&mut s, action_table().actions[a]);
        }
        states.push(s); // maybe finished: gets usize::MAX
    }
    let h = HeuristicAgent::new(1);
    let batch = act_batch(&h, &states, 3);
    for (s, &a) in states.iter().zip(&batch) {
        if s.is_over() {
            assert_eq!(a, usize::MAX);
        } else {
            assert_eq!(a, h.act(s));
        }
    }
    let search = SearchAgent::new(4, 3);
    let few = &states[..12];
    let batch = act_batch(&search, few, 2);
    for (s, &a) in few.iter().zip(&batch) {
        assert_eq!(a, search.clone().act(s), "search is a pure function of the state");
    }
}

#[test]
fn agents_are_deterministic() {
    let setup = Setup::default();
    let a = play_checked(&mut HeuristicAgent::new(5), &setup, 9);
    let b = play_checked(&mut HeuristicAgent::new(5), &setup, 9);
    assert_eq!(a, b);
    let a = play_checked(&mut SearchAgent::new(4, 5), &setup, 9);
    let b = play_checked(&mut SearchAgent::new(4, 5), &setup, 9);
    assert_eq!(a, b);
}

#[test]
fn heuristic_beats_random_on_normal() {
    let setup = Setup::new(Difficulty::Normal);
    let random = tally(|seed| AnyAgent::Random(RandomAgent::new(seed)), &setup, 0..500);
    let heuristic = tally(|seed| AnyAgent::Heuristic(HeuristicAgent::new(seed)), &setup, 0..500);
    eprintln!("random    {}", describe(&random));
    eprintln!("heuristic {}", describe(&heuristic));
    // Random play essentially always loses; the heuristic completes missions regularly.
    assert!(wins(&heuristic) >= 75, "heuristic wins {} of 500", wins(&heuristic));
    assert!(heuristic[Outcome::Loss.idx()] <= 200, "heuristic loses {} of 500", heuristic[3]);
    assert!(score(&heuristic) > score(&random) + 0.6);
}

#[test]
fn search_beats_heuristic_on_normal() {
    // A small budget (32 rollouts per decision) over the same 80 seeds: about 40 s of CPU in
    // release, on 2 threads.
    let setup = Setup::new(Difficulty::Normal);
    let seeds = 1000..1080;
    let heuristic = tally(|seed| AnyAgent::Heuristic(HeuristicAgent::new(seed)), &setup, seeds.clone());
    let search = tally(|seed| AnyAgent::Search(SearchAgent::new(32, seed)), &setup, seeds);
    eprintln!("heuristic   {}", describe(&heuristic));
    eprintln!("search(32)  {}", describe(&search));
    assert!(score(&search) > score(&heuristic) + 0.05, "search did not beat the heuristic");
    assert!(wins(&search) > wins(&heuristic));
}
