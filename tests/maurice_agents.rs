//! RULES D1–D3: the bundled opponents of Maurice Lite — each plays whole games from either side,
//! decides from its own observation only (D3), and the levels rank (D2).

use maquis::maurice::agents::view::View;
use maquis::maurice::agents::{Agent, AnyAgent};
use maquis::maurice::streams::{Dice, Shuffler};
use maquis::maurice::{
    apply, legal_mask, new_game, observation, observation_layout, Card, ObservationKind, Phase, ScenarioId, Setup, Side, State,
};
use std::time::Instant;

mod maurice_common;
use maurice_common::{art, c, deal_to_deck, inf, play as play_names, position};
use maquis::maurice::cards::Card::{Orders12, Orders16, March4, Rally4};
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::Facing;

/// Plays one game of `setup` with seed `seed`, `blue` against `red`; the final state, the
/// number of decisions and the seconds each agent spent.
fn play(setup: &Setup, seed: u64, agents: &mut [AnyAgent; 2]) -> (State, usize, [f64; 2], [usize; 2]) {
    let mut s = new_game(seed, setup).unwrap();
    let mut n = 0;
    let mut secs = [0.0; 2];
    let mut calls = [0; 2];
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        let t = Instant::now();
        let a = agents[side.idx()].act(&obs, &mask);
        secs[side.idx()] += t.elapsed().as_secs_f64();
        calls[side.idx()] += 1;
        assert!(mask.get(a), "{side} chose the illegal action {a}");
        apply(&mut s, a as i64).unwrap();
        n += 1;
        assert!(n < 200_000, "the game ends");
    }
    (s, n, secs, calls)
}

/// Wins, draws and losses of `a` against `b` over `games` seeds, `a` taking each seat in turn.
fn ladder(a: &str, b: &str, games: u64, budget: u32, setup: &Setup) -> [u32; 3] {
    let mut out = [0; 3];
    let mut time = [0.0; 2];
    let mut calls = [0; 2];
    let mut rounds = 0;
    for g in 0..games {
        let a_side = if g % 2 == 0 { Side::Blue } else { Side::Red };
        let seats = |side: Side| if side == a_side { (a, 0) } else { (b, 1) };
        let mut agents = [Side::Blue, Side::Red].map(|side| AnyAgent::by_id(seats(side).0, 1000 + g * 2 + side.idx() as u64, budget).unwrap());
        let (s, _, secs, c) = play(setup, g, &mut agents);
        for side in [Side::Blue, Side::Red] {
            time[seats(side).1] += secs[side.idx()];
            calls[seats(side).1] += c[side.idx()];
        }
        rounds += s.round_no;
        match s.outcome.unwrap().winner() {
            None => out[1] += 1,
            Some(w) if w == a_side => out[0] += 1,
            Some(_) => out[2] += 1,
        }
    }
    eprintln!(
        "{a} vs {b}: {out:?} (w/d/l), {:.1} rounds a game, {:.3} ms / {:.3} ms per decision",
        rounds as f64 / games as f64,
        1e3 * time[0] / calls[0].max(1) as f64,
        1e3 * time[1] / calls[1].max(1) as f64
    );
    out
}

fn skirmish() -> Setup {
    Setup { scenario: ScenarioId::Skirmish, ..Setup::default() }
}

/// Per seat (a blue, a red): wins, draws, losses of `a` against `b` over `games` seeds each.
fn seats(a: &str, b: &str, games: u64, budget: u32) -> [[u32; 3]; 2] {
    let mut out = [[0; 3]; 2];
    for g in 0..games {
        for a_side in [Side::Blue, Side::Red] {
            let id = |side: Side| if side == a_side { a } else { b };
            let mut agents = [Side::Blue, Side::Red].map(|side| AnyAgent::by_id(id(side), 77 + g * 2 + side.idx() as u64, budget).unwrap());
            let (s, ..) = play(&skirmish(), g, &mut agents);
            let k = match s.outcome.unwrap().winner() {
                None => 1,
                Some(w) if w == a_side => 0,
                Some(_) => 2,
            };
            out[a_side.idx()][k] += 1;
        }
    }
    eprintln!("{a} against {b}, w/d/l as blue {:?}, as red {:?}", out[0], out[1]);
    out
}

#[test]
fn maurice_d1_each_agent_plays_whole_games_from_either_side_with_legal_actions() {
    for id in ["random", "heuristic", "search"] {
        for side in [Side::Blue, Side::Red] {
            let mut agents = [AnyAgent::by_id("random", 1, 4).unwrap(), AnyAgent::by_id("random", 2, 4).unwrap()];
            agents[side.idx()] = AnyAgent::by_id(id, 3, 4).unwrap();
            let (s, n, ..) = play(&skirmish(), 5, &mut agents);
            assert!(s.is_over() && n > 0, "{id} as {side}");
        }
    }
    assert!(AnyAgent::by_id("genius", 0, 1).is_err());
}

#[test]
fn maurice_d1_agents_are_seeded_and_a_saved_agent_keeps_its_stream() {
    for id in ["random", "heuristic", "search"] {
        let run = |agents: &mut [AnyAgent; 2]| play(&skirmish(), 2, agents).0;
        let fresh = || [AnyAgent::by_id(id, 8, 4).unwrap(), AnyAgent::by_id("random", 9, 4).unwrap()];
        assert_eq!(run(&mut fresh()), run(&mut fresh()), "{id}: same seeds, same game");
        // An agent saved mid-game and loaded decides as the original.
        let mut s = new_game(4, &skirmish()).unwrap();
        let mut a = AnyAgent::by_id(id, 8, 4).unwrap();
        let mut other = AnyAgent::by_id("random", 1, 4).unwrap();
        let mut copy: Option<AnyAgent> = None;
        for step in 0..400 {
            let Some(side) = s.to_move else { break };
            let mask = legal_mask(&s);
            let obs = observation(&s, side, ObservationKind::Full);
            if step == 50 {
                copy = Some(serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap());
            }
            let act = if side == Side::Blue {
                let x = a.act(&obs, &mask);
                if let Some(c) = copy.as_mut() {
                    assert_eq!(c.act(&obs, &mask), x, "{id}: the loaded agent decides the same");
                }
                x
            } else {
                other.act(&obs, &mask)
            };
            apply(&mut s, act as i64).unwrap();
        }
        assert!(copy.is_some());
    }
}

/// The in-env opponent's view read off the state (`View::observed`) is the decoded observation
/// but for the units' command distances and `near`, at every position of random and heuristic
/// games of both scenarios, from both sides.
#[test]
fn maurice_d1_observed_view_is_the_observation_view() {
    for g in 0..12u64 {
        let scenario = if g % 2 == 0 { ScenarioId::Standard } else { ScenarioId::Skirmish };
        let mut s = new_game(g, &Setup { scenario, ..Default::default() }).unwrap();
        let ids = if g % 3 == 0 { ["heuristic", "random"] } else { ["random", "random"] };
        let mut agents = [AnyAgent::by_id(ids[0], g, 1).unwrap(), AnyAgent::by_id(ids[1], g + 1, 1).unwrap()];
        while let Some(side) = s.to_move {
            let obs = observation(&s, side, ObservationKind::Compact);
            for who in [side, side.other()] {
                let mut decoded = View::decode(&observation(&s, who, ObservationKind::Compact));
                decoded.units.iter_mut().flatten().for_each(|u| {
                    u.command = 0;
                    u.near = false;
                });
                assert_eq!(View::observed(&s, who), decoded, "game {g}");
            }
            let a = agents[side.idx()].act(&obs, &legal_mask(&s));
            apply(&mut s, a as i64).unwrap();
        }
    }
}

/// The view the playouts read straight off the state is the decoded observation (but for the
/// command distances and `near`, which the heuristic does not read).
#[test]
fn maurice_d1_playout_view_is_the_observation_view() {
    let mut s = new_game(3, &skirmish()).unwrap();
    let mut agents = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("random", 2, 1).unwrap()];
    while let Some(side) = s.to_move {
        let obs = observation(&s, side, ObservationKind::Full);
        for who in [side, side.other()] {
            let mut decoded = View::decode(&observation(&s, who, ObservationKind::Compact));
            for list in decoded.units.iter_mut() {
                list.iter_mut().for_each(|u| {
                    u.command = 0;
                    u.near = false;
                });
            }
            assert_eq!(View::of_state(&s, who), decoded);
        }
        let mask = legal_mask(&s);
        let a = agents[side.idx()].act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
    }
    // The view's offsets are the layout's.
    let layout = observation_layout(ObservationKind::Full);
    let at = |name: &str| layout.iter().find(|r| r.0 == name).unwrap().1;
    use maquis::maurice::agents::view as v;
    for (name, off) in [("self", v::SELF), ("phase", v::PHASE), ("to_move", v::TO_MOVE), ("active", v::ACTIVE), ("round", v::ROUND),
        ("morale", v::MORALE), ("hand", v::HAND), ("hand_new", v::HAND_NEW), ("hand_sizes", v::HAND_SIZES), ("deck_size", v::DECK_SIZE),
        ("discard", v::DISCARD), ("removed", v::REMOVED), ("command", v::COMMAND), ("activation", v::ACTIVATION),
        ("interrupt", v::INTERRUPT), ("modifiers", v::MODIFIERS), ("volley", v::VOLLEY), ("night", v::NIGHT), ("cinc", v::CINC),
        ("units", v::UNITS), ("planes", v::PLANES)] {
        assert_eq!(at(name), off, "{name}");
    }
}

/// The hidden information of `s` for `side` shuffled: the opponent's hand and the deck dealt
/// again from the same cards (sizes kept), other dice and shuffles.
fn other_hidden(s: &State, side: Side, seed: u64) -> State {
    use rand::SeedableRng;
    let mut t = s.clone();
    let enemy = side.other();
    let mut pool: Vec<Card> = t.army(enemy).hand.cards();
    let size = pool.len();
    pool.extend(t.deck.iter().copied());
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    maquis::draw::shuffle(&mut rng, &mut pool);
    // A reshuffle card cannot be held: keep them in the deck.
    pool.sort_by_key(|&c| c == Card::Reshuffle);
    let (hand, deck) = pool.split_at(size);
    let mut counts = maquis::maurice::cards::CardCounts::default();
    hand.iter().for_each(|&c| counts.add(c));
    t.army_mut(enemy).hand = counts;
    // Nothing drawn this round is known to the observer either: keep the drawn marks consistent.
    t.army_mut(enemy).drawn = Default::default();
    let mut deck = deck.to_vec();
    maquis::draw::shuffle(&mut rng, &mut deck);
    t.deck = deck;
    t.dice = Dice::new(seed, Vec::new());
    t.shuffler = Shuffler::new(seed, Vec::new());
    t
}

#[test]
fn maurice_d3_agents_decide_the_same_whatever_the_hidden_information() {
    let mut s = new_game(6, &skirmish()).unwrap();
    let mut players = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("heuristic", 2, 1).unwrap()];
    let mut checked = 0;
    for _ in 0..600 {
        let Some(side) = s.to_move else { break };
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        if matches!(s.phase, Phase::Command | Phase::VolleyChoice | Phase::Span | Phase::Move | Phase::ActivationInterrupt) && s.army(side.other()).drawn.is_empty() {
            let t = other_hidden(&s, side, checked);
            let obs_t = observation(&t, side, ObservationKind::Full);
            assert_eq!(obs, obs_t, "the hidden information is not in the observation");
            assert_eq!(mask, legal_mask(&t), "nor in the mask");
            for id in ["random", "heuristic", "search"] {
                let a = AnyAgent::by_id(id, 10 + checked, 6).unwrap();
                let mut b = a.clone();
                let mut a = a;
                assert_eq!(a.act(&obs, &mask), b.act(&obs_t, &mask), "{id} at {:?}", s.phase);
            }
            checked += 1;
        }
        let a = players[side.idx()].act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
    }
    assert!(checked >= 10, "{checked} decisions checked");
}

/// D2: over seeded skirmish games from both seats, heuristic beats random and search (a small
/// budget, to keep the test short) beats heuristic.
#[test]
fn maurice_d2_ladder_heuristic_beats_random_and_search_beats_heuristic() {
    let h = seats("heuristic", "random", 40, 1);
    for seat in h {
        assert!(seat[0] > seat[2] + 2, "heuristic against random: {h:?}");
    }
    let s = seats("search", "heuristic", 6, 16);
    for seat in s {
        assert!(seat[0] > seat[2], "search against heuristic: {s:?}");
    }
}

/// D1 `search` finishes against an enemy that never comes: with its default budget it wins
/// skirmish games against `random` from both seats, where it used to walk nowhere and draw at
/// nightfall (`ground_left`, `urgency`).
#[test]
fn maurice_d1_search_goes_to_an_enemy_that_stays_home_and_wins() {
    let s = seats("search", "random", 6, maquis::maurice::agents::search::DEFAULT_BUDGET);
    for seat in s {
        assert!(seat[0] >= 3 && seat[0] > seat[2] + 2, "search against random: {s:?}");
    }
}

/// The search's leaf terms: nightfall is far with the deck as dealt and the enemy at home; an
/// enemy that has left its deployment rows no longer stays home, and marching closer leaves
/// less ground.
#[test]
fn maurice_d1_search_value_sees_nightfall_and_a_staying_enemy() {
    use maquis::maurice::agents::search::{ground_left, staying, urgency};
    let mut s = new_game(3, &skirmish()).unwrap();
    assert!(urgency(&s) < 0.05, "urgency at the start {}", urgency(&s));
    assert_eq!(staying(&s, Side::Blue), 1.0);
    let far = ground_left(&s, Side::Blue);
    assert!(far > 0.0, "the armies start apart");
    // The clock is linear in the cards drawn (a squared one starts the walk too late): 14 of the
    // 58 cards to draw gone is 14/58 of the way to nightfall.
    let plain = |c: &&maquis::maurice::cards::Card| **c != maquis::maurice::cards::Card::Reshuffle;
    let gone: Vec<_> = s.deck.iter().filter(plain).take(14).copied().collect();
    for c in gone {
        let at = s.deck.iter().position(|&d| d == c).unwrap();
        s.deck.remove(at);
    }
    let drawn = 14.0 / maquis::maurice::agents::search::DECK_CLOCK;
    assert!((urgency(&s) - drawn).abs() < 1e-6, "urgency {} after 14 of 58 cards", urgency(&s));
    s.deck.clear();
    assert_eq!(urgency(&s), 1.0);
    for u in s.armies[Side::Red.idx()].units.iter_mut().filter(|u| u.on_table) {
        u.at = maquis::maurice::grid::Cell::new(u.at.x, u.at.y - 8);
        u.cells = maquis::maurice::grid::footprint(u.formation, u.at, u.facing);
    }
    assert!(staying(&s, Side::Blue) < maquis::maurice::agents::search::STAYING);
    assert!(ground_left(&s, Side::Blue) < far, "the enemy came closer");
}

/// A measuring tool: `A`, `B` (agent ids), `GAMES`, `BUDGET`, `SKIRMISH` from the environment.
#[test]
#[ignore]
fn maurice_d2_measure() {
    let mut setup = Setup::default();
    if std::env::var("SKIRMISH").is_ok() {
        setup.scenario = maquis::maurice::ScenarioId::Skirmish;
    }
    let n: u64 = std::env::var("GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(20);
    let a = std::env::var("A").unwrap_or("heuristic".into());
    let b = std::env::var("B").unwrap_or("random".into());
    let budget = std::env::var("BUDGET").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    ladder(&a, &b, n, budget, &setup);
}

/// Milliseconds per step of the engine's parts along a heuristic game.
#[test]
#[ignore]
fn maurice_d2_costs() {
    let mut s = new_game(0, &Setup::default()).unwrap();
    let mut agents = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("heuristic", 2, 1).unwrap()];
    let (mut tm, mut to, mut tc, mut ta, mut n) = (0.0, 0.0, 0.0, 0.0, 0);
    let mut buf = vec![0.0f32; maquis::maurice::COMPACT_OBSERVATION_SIZE];
    while let Some(side) = s.to_move {
        let t = Instant::now();
        let mask = legal_mask(&s);
        tm += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let obs = observation(&s, side, ObservationKind::Full);
        to += t.elapsed().as_secs_f64();
        let t = Instant::now();
        maquis::maurice::write_observation(&s, side, &mut buf[..]);
        tc += t.elapsed().as_secs_f64();
        let a = agents[side.idx()].act(&obs, &mask);
        let t = Instant::now();
        apply(&mut s, a as i64).unwrap();
        ta += t.elapsed().as_secs_f64();
        n += 1;
    }
    eprintln!("{n} steps: mask {:.3} ms, full obs {:.3} ms, compact obs {:.3} ms, apply {:.3} ms per step", 1e3 * tm / n as f64, 1e3 * to / n as f64, 1e3 * tc / n as f64, 1e3 * ta / n as f64);
}

/// Milliseconds per decision of `search` at the default budget where it searches (the round's
/// volley choice and command), along a heuristic game of the standard scenario.
#[test]
#[ignore]
fn maurice_d1_search_timing() {
    let mut s = new_game(1, &Setup::default()).unwrap();
    let mut players = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("heuristic", 2, 1).unwrap()];
    let mut search = AnyAgent::by_id("search", 3, maquis::maurice::agents::search::DEFAULT_BUDGET).unwrap();
    let (mut secs, mut n, mut worst) = (0.0, 0, 0.0f64);
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        if matches!(s.phase, Phase::Command | Phase::VolleyChoice) && mask.count() > 1 && n < 40 {
            let t = Instant::now();
            search.act(&obs, &mask);
            let e = t.elapsed().as_secs_f64();
            secs += e;
            worst = worst.max(e);
            n += 1;
        }
        let a = players[side.idx()].act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
    }
    eprintln!("search: {n} searched decisions, {:.1} ms each on average, {:.1} ms at most", 1e3 * secs / n as f64, 1e3 * worst);
}

/// Blue's first command, by the heuristic, in a position where blue has already declined its volley.
fn heuristic_command(blue: &[UnitSpec], red: &[UnitSpec]) -> &'static str {
    let cards = deal_to_deck(&[Orders16, Orders12, March4, Rally4], &[], &[], &[]);
    let mut s = maquis::maurice::new_game(1, &position(blue, red, [c(22, 5), c(22, 27)], cards)).unwrap();
    play_names(&mut s, &["no_volley"]);
    assert_eq!(s.phase, Phase::Command);
    let mut h = AnyAgent::by_id("heuristic", 3, 1).unwrap();
    let a = h.act(&observation(&s, Side::Blue, ObservationKind::Full), &legal_mask(&s));
    maquis::maurice::action_names()[a]
}

/// D1 `heuristic`: it charges when its estimated score beats the defender's — a gun, or a line
/// already holding 3 DISR — and not into a fresh line, where the exchange is even.
#[test]
fn maurice_d1_heuristic_charges_when_the_odds_favour_it() {
    let blue = [inf(0, 20, 10, Facing::N)];
    assert_eq!(heuristic_command(&blue, &[art(0, 21, 13, Facing::S)]), "charge", "a gun 2 BW ahead");
    let mut worn = inf(0, 23, 13, Facing::S);
    worn.disr = 3;
    assert_eq!(heuristic_command(&blue, &[worn]), "charge", "a line holding 3 DISR");
    assert_ne!(heuristic_command(&blue, &[inf(0, 23, 13, Facing::S)]), "charge", "a fresh line");
    // Infantry never charges cavalry (C4), however worn.
    let mut horse = maurice_common::cav(0, 21, 13, Facing::S);
    horse.disr = 3;
    assert_ne!(heuristic_command(&blue, &[horse]), "charge", "cavalry");
}

/// D1 `heuristic`: it sees the charge that only an oblique lead-in makes, and the gun is broken.
#[test]
fn maurice_d1_heuristic_charges_the_gun_with_the_lead_in_that_meets_it() {
    // The gun is one cell to the right of the line's right end: only the oblique right meets it.
    let blue = [inf(0, 20, 10, Facing::N), inf(1, 10, 10, Facing::N)];
    let red = [art(0, 24, 13, Facing::S), inf(1, 40, 25, Facing::S), inf(2, 35, 25, Facing::S)];
    let cards = deal_to_deck(&[Orders16, Orders12, March4, Rally4], &[], &[], &[]);
    let mut s = maquis::maurice::new_game(1, &position(&blue, &red, [c(22, 5), c(22, 27)], cards)).unwrap();
    play_names(&mut s, &["no_volley"]);
    let mut h = AnyAgent::by_id("heuristic", 3, 1).unwrap();
    let mut names = Vec::new();
    while s.to_move == Some(Side::Blue) && s.round_no == 1 {
        let a = h.act(&observation(&s, Side::Blue, ObservationKind::Full), &legal_mask(&s));
        names.push(maquis::maurice::action_names()[a]);
        apply(&mut s, a as i64).unwrap();
    }
    assert_eq!(names[0], "charge", "{names:?}");
    // The only charge and its only lead-in are taken by the engine (Q0): the line stepped right.
    assert_eq!(s.unit(Side::Blue, 0).at.x, 21, "{names:?}");
    assert!(!s.unit(Side::Red, 0).on_table, "the gun is broken: {names:?}");
}

/// D1 `heuristic` march: the front line moves first and the line behind follows without passing
/// through it, so neither gains DISR (M8), and both end nearer the enemy.
#[test]
fn maurice_d1_heuristic_marches_front_first_without_interpenetrating() {
    let blue = [inf(0, 20, 7, Facing::N), inf(1, 20, 10, Facing::N)];
    let red = [inf(0, 23, 26, Facing::S)];
    let cards = deal_to_deck(&[Orders16, Orders12, March4, Rally4], &[], &[], &[]);
    let mut s = maquis::maurice::new_game(1, &position(&blue, &red, [c(22, 5), c(22, 27)], cards)).unwrap();
    let mut h = AnyAgent::by_id("heuristic", 3, 1).unwrap();
    let mut names = Vec::new();
    while s.to_move == Some(Side::Blue) && s.round_no == 1 {
        let a = h.act(&observation(&s, Side::Blue, ObservationKind::Full), &legal_mask(&s));
        names.push(maquis::maurice::action_names()[a]);
        apply(&mut s, a as i64).unwrap();
    }
    assert!(names.contains(&"march"), "{names:?}");
    let moved: Vec<&str> = names.iter().copied().filter(|n| n.starts_with("unit:")).collect();
    let first_move = names.iter().position(|n| n.starts_with("move:")).expect("a unit moves");
    assert_eq!(names[..first_move].iter().rev().find(|n| n.starts_with("unit:")), Some(&"unit:1"), "the front line first: {names:?}");
    assert!(moved.contains(&"unit:0"), "{names:?}");
    for id in [0, 1] {
        assert_eq!(s.unit(Side::Blue, id).disr, 0, "unit {id}: {names:?}");
    }
    assert!(s.unit(Side::Blue, 1).at.y > 10 && s.unit(Side::Blue, 0).at.y > 7, "{names:?}");
}

/// D1 `search`: outside the decisions that open its own round, and wherever one action is
/// legal, it plays what the heuristic plays (with the same stream), without simulating.
#[test]
fn maurice_d1_search_leaves_the_other_decisions_to_the_heuristic() {
    let mut s = new_game(11, &skirmish()).unwrap();
    let mut players = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("heuristic", 2, 1).unwrap()];
    let mut checked = 0;
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        let opening = matches!(s.phase, Phase::Command | Phase::VolleyChoice) && s.active == side;
        if !opening || mask.count() == 1 {
            let mut search = maquis::maurice::agents::SearchAgent::new(100, 5);
            let mut h = maquis::maurice::agents::HeuristicAgent::new(5 ^ 0xD1);
            let t = Instant::now();
            assert_eq!(search.act(&obs, &mask), h.act(&obs, &mask), "at {:?}", s.phase);
            assert!(t.elapsed().as_secs_f64() < 0.05, "no simulation at {:?}", s.phase);
            checked += 1;
        }
        let a = players[side.idx()].act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
    }
    assert!(checked > 50, "{checked}");
}

/// D1 `network_search` while the enemy stays home: its playouts are scored by the search's own
/// value, not the guide's (the network learned from teachers that walked late). A guide that
/// ranks nothing and values every position at 0 must then decide as `search` does, where the
/// search leaves the heuristic's choice to walk; with the guide's value mixed in, every candidate
/// would tie and the heuristic's choice would stand.
#[test]
fn maurice_d1_network_search_walks_on_the_search_value_while_the_enemy_stays_home() {
    use maquis::maurice::agents::search::{staying, Guide, SearchAgent, STAYING};
    use maquis::maurice::agents::HeuristicAgent;
    use maquis::maurice::Mask;
    struct Blind;
    impl Guide for Blind {
        fn ranked(&mut self, _obs: &[f32], _mask: &Mask) -> Vec<usize> {
            Vec::new()
        }
        fn leaf(&mut self, _s: &State, _me: Side, _searched: f32) -> f32 {
            0.0
        }
    }
    let mut found = 0;
    'games: for seed in 0..40 {
        let mut s = new_game(seed, &Setup::default()).unwrap();
        // Blue plays the heuristic, red `random`, whose army stays home.
        let (mut blue, mut red) = (HeuristicAgent::new(seed), maquis::maurice::agents::RandomAgent::new(seed + 100));
        while let Some(side) = s.to_move {
            let mask = legal_mask(&s);
            let obs = observation(&s, side, ObservationKind::Full);
            if side == Side::Blue && s.phase == Phase::Command && s.active == side && staying(&s, side) >= STAYING && s.round_no >= 4 {
                let search = SearchAgent::new(100, seed);
                let plain = search.clone().act(&obs, &mask);
                if plain != HeuristicAgent::new(0).act(&obs, &mask) {
                    assert_eq!(search.clone().act_guided(&obs, &mask, &mut Blind), plain, "seed {seed}, round {}", s.round_no);
                    found += 1;
                    if found == 3 {
                        break 'games;
                    }
                }
            }
            let a = if side == Side::Blue { blue.act(&obs, &mask) } else { red.act(&obs, &mask) };
            apply(&mut s, a as i64).unwrap();
            if s.round_no > 30 {
                continue 'games;
            }
        }
    }
    assert!(found > 0, "no position where the search walks away from the heuristic's choice");
}
