//! The behaviour guard of the Maurice Lite engine: thousands of seeded whole games (both
//! scenarios, scenario and random terrain, random play on both sides and some with the heuristic)
//! and a few search decisions, each reduced to a 64-bit digest of everything an agent sees — every
//! decision's legal mask, the decider's compact observation and the action taken, the full
//! observation of both sides every 16th decision and at the end, the outcome and the rounds — and
//! compared with the digests recorded from the engine before any speed work
//! (tests/data/maurice_digests.txt). Any change of one outcome, mask or observation value fails
//! here, with the first game that differs.
//!
//! ```text
//! cargo test --release --test maurice_digest                       # the first 2,000 games
//! MAURICE_DIGEST_GAMES=6000 cargo test --release --test maurice_digest   # every recorded game
//! MAURICE_DIGEST_RECORD=1 cargo test --release --test maurice_digest -- --nocapture
//!     # rewrites the fixture from the engine as it is (only for an intended change of behaviour)
//! ```

use maquis::digest::Fnv;
use maquis::draw::splitmix64;
use maquis::maurice::agents::{Agent, HeuristicAgent, RandomAgent, SearchAgent};
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::{
    apply, legal_mask, new_game, write_observation, ScenarioId, Setup, Side, COMPACT_OBSERVATION_SIZE,
    OBSERVATION_SIZE,
};
use std::fmt::Write as _;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/maurice_digests.txt");
/// Games recorded in the fixture, and those checked by default.
const RECORDED_GAMES: u64 = 6_000;
const DEFAULT_GAMES: u64 = 2_000;
/// Search decisions recorded (budget `SEARCH_BUDGET`).
const SEARCH_DECISIONS: u64 = 12;
const SEARCH_BUDGET: u32 = 100;


/// Game g's setup and agents: odd games standard, even skirmish; every fifth on random terrain;
/// two in fifty with the heuristic (against random, and against itself), the rest random.
fn game_plan(g: u64) -> (Setup, [&'static str; 2]) {
    let scenario = if g % 2 == 1 { ScenarioId::Standard } else { ScenarioId::Skirmish };
    let terrain = if g.is_multiple_of(5) { TerrainChoice::Random } else { TerrainChoice::Scenario };
    let agents = match g % 50 {
        7 => ["heuristic", "random"],
        32 => ["random", "heuristic"],
        33 => ["heuristic", "heuristic"],
        _ => ["random", "random"],
    };
    (Setup { scenario, terrain, ..Default::default() }, agents)
}

enum Player {
    Random(RandomAgent),
    Heuristic(HeuristicAgent),
}

impl Player {
    fn act(&mut self, obs: &[f32], mask: &maquis::maurice::Mask) -> usize {
        match self {
            Player::Random(a) => a.act(obs, mask),
            Player::Heuristic(a) => a.act(obs, mask),
        }
    }
}

fn full_obs(h: &mut Fnv, s: &maquis::maurice::State, buf: &mut [u8]) {
    for side in Side::ALL {
        write_observation(s, *side, buf);
        h.bytes(buf);
    }
}

/// The digest of game g.
fn game_digest(g: u64) -> u64 {
    let (setup, ids) = game_plan(g);
    let deal = splitmix64(0x4D41_5552 ^ splitmix64(g));
    let mut s = new_game(deal, &setup).expect("the scenario sets up");
    let mut players = [0usize, 1].map(|i| {
        let seed = splitmix64(deal ^ (0xA6E7 + i as u64));
        match ids[i] {
            "heuristic" => Player::Heuristic(HeuristicAgent::new(seed)),
            _ => Player::Random(RandomAgent::new(seed)),
        }
    });
    let needs_obs = ids.contains(&"heuristic");
    let mut h = Fnv::new();
    let mut compact = vec![0u8; COMPACT_OBSERVATION_SIZE];
    let mut full = vec![0u8; OBSERVATION_SIZE];
    let mut obs = vec![0f32; OBSERVATION_SIZE];
    let mut n = 0u64;
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        for w in mask.0 {
            h.u64(w);
        }
        write_observation(&s, side, &mut compact[..]);
        h.bytes(&compact);
        if n.is_multiple_of(16) {
            full_obs(&mut h, &s, &mut full);
        }
        if needs_obs {
            write_observation(&s, side, &mut obs[..]);
        }
        let a = players[side.idx()].act(&obs, &mask);
        h.u64(a as u64);
        apply(&mut s, a as i64).unwrap_or_else(|e| panic!("game {g}: {e}"));
        n += 1;
        assert!(n < 200_000, "game {g} does not end");
    }
    full_obs(&mut h, &s, &mut full);
    h.u64(n);
    h.u64(s.round_no as u64);
    h.bytes(format!("{:?}", s.outcome).as_bytes());
    h.0
}

/// Search decision k: a standard game (scenario terrain; every third on random terrain) played
/// at random for 40 + 25 k decisions, then one search decision at the next decision point where
/// the search searches (volley_choice or command for the side to move); the digest of the
/// action chosen and the position.
fn search_digest(k: u64) -> u64 {
    let terrain = if k % 3 == 2 { TerrainChoice::Random } else { TerrainChoice::Scenario };
    let setup = Setup { scenario: ScenarioId::Standard, terrain, ..Default::default() };
    let deal = splitmix64(0x5EA2 ^ splitmix64(k));
    let mut s = new_game(deal, &setup).expect("the scenario sets up");
    let mut random = RandomAgent::new(deal);
    let mut obs = vec![0f32; OBSERVATION_SIZE];
    let mut h = Fnv::new();
    let mut n = 0;
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        write_observation(&s, side, &mut obs[..]);
        let searches = matches!(s.phase, maquis::maurice::Phase::Command | maquis::maurice::Phase::VolleyChoice)
            && mask.count() > 1;
        if n >= 40 + 25 * k && searches {
            let mut agent = SearchAgent::new(SEARCH_BUDGET, splitmix64(deal ^ 0x5EA));
            let a = agent.act(&obs, &mask);
            h.u64(n);
            h.u64(a as u64);
            return h.0;
        }
        let a = random.act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
        n += 1;
    }
    h.u64(u64::MAX);
    h.0
}

/// The games' digest lines, computed on every core (each game is independent).
fn lines(games: u64) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let mut digests = vec![0u64; games as usize];
    let chunk = games.div_ceil(threads).max(1) as usize;
    std::thread::scope(|scope| {
        for (i, part) in digests.chunks_mut(chunk).enumerate() {
            scope.spawn(move || {
                for (j, d) in part.iter_mut().enumerate() {
                    *d = game_digest((i * chunk + j) as u64);
                }
            });
        }
    });
    digests.iter().enumerate().map(|(g, d)| format!("game {g} {d:016x}")).collect()
}

fn search_lines() -> Vec<String> {
    (0..SEARCH_DECISIONS).map(|k| format!("search {k} {:016x}", search_digest(k))).collect()
}

fn read_fixture() -> Vec<String> {
    let text = std::fs::read_to_string(FIXTURE).expect("tests/data/maurice_digests.txt (see this file's header)");
    text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(str::to_string).collect()
}

fn check(expected: &[String], actual: &[String]) {
    assert!(actual.len() <= expected.len(), "more games asked than recorded ({})", expected.len());
    let mismatches: Vec<_> = expected.iter().zip(actual).filter(|(e, a)| e != a).collect();
    assert!(
        mismatches.is_empty(),
        "{} of {} digests differ from the recorded engine; first: expected {:?}, got {:?}",
        mismatches.len(),
        actual.len(),
        mismatches[0].0,
        mismatches[0].1
    );
}

#[test]
fn maurice_games_match_the_recorded_digests() {
    if std::env::var_os("MAURICE_DIGEST_RECORD").is_some() {
        let mut text = String::from(
            "# Digests of seeded Maurice Lite games and search decisions (tests/maurice_digest.rs).\n\
             # Regenerate only for an intended change of behaviour:\n\
             # MAURICE_DIGEST_RECORD=1 cargo test --release --test maurice_digest -- --nocapture\n",
        );
        for l in lines(RECORDED_GAMES).into_iter().chain(search_lines()) {
            writeln!(text, "{l}").unwrap();
        }
        std::fs::write(FIXTURE, text).unwrap();
        eprintln!("recorded {FIXTURE}");
        return;
    }
    let games = std::env::var("MAURICE_DIGEST_GAMES").ok().map_or(DEFAULT_GAMES, |v| v.parse().expect("a number"));
    let expected = read_fixture();
    let (games_expected, _) = expected.split_at(RECORDED_GAMES as usize);
    check(games_expected, &lines(games.min(RECORDED_GAMES)));
}

#[test]
fn maurice_search_decisions_match_the_recorded_digests() {
    if std::env::var_os("MAURICE_DIGEST_RECORD").is_some() {
        return;
    }
    let expected = read_fixture();
    check(&expected[RECORDED_GAMES as usize..], &search_lines());
}
