//! RULES.md D1–D3: the bundled opponents, and the rebuild of a state from an observation that
//! the search relies on.

mod dday_common;
use dday_common::*;
use maquis::dday::agents::rebuild::rebuild;
use maquis::dday::agents::view::View;
use maquis::dday::agents::{Agent, AnyAgent, HeuristicAgent, RandomAgent, SearchAgent};
use maquis::dday::{self, legal_mask, observation, Mask, Outcome, Phase, Scenario, Side, State};

/// Plays a game with one agent per side; returns the final state.
fn duel(seed: u64, res: &mut dyn Agent<Mask>, ger: &mut dyn Agent<Mask>) -> State {
    let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let obs = observation(&s, side);
        let a = if side == Side::Resistance { res.act(&obs, &mask) } else { ger.act(&obs, &mask) };
        assert!(mask.get(a), "an agent played an illegal action");
        dday::apply(&mut s, a as i64).unwrap();
    }
    s
}

#[test]
fn dday_q0_agents_answer_a_one_zone_allocation_step_without_a_draw() {
    // Q0's ruling asks the German the allocation steps with one legal zone the engine used to
    // take: every bundled agent answers them without touching its stream or searching, so games
    // play out as they did before (same dice, same decisions, same streams at the end).
    for (res, ger) in [("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"), ("search", "search")] {
        let mut forced = 0;
        for seed in 0..if ger == "search" { 6 } else { 40 } {
            let agents = [AnyAgent::by_id(res, seed ^ 0x11, 16).unwrap(), AnyAgent::by_id(ger, seed ^ 0x22, 16).unwrap()];
            let [asked, unasked] = asked_and_unasked(seed, &agents);
            assert!(asked == unasked, "{res} v {ger}, seed {seed}: the forced steps changed the game");
            forced += forced_allocation_steps(seed, &agents);
        }
        assert!(forced > 0, "{res} v {ger}: no allocation step had one legal zone");
    }
    // Asked alone, an agent returns the only legal action and its stream stays where it was.
    let mut s = dday::new_game(0, &Scenario::default()).unwrap();
    play(
        &mut s,
        &[
            "allocate:squad:caen",
            "allocate:squad:bayeux",
            "allocate:squad:lison",
            "allocate:goods:caen",
            "allocate:goods:bayeux",
            "allocate:passenger:lison",
            "allocate:vip:saint_lo",
            "allocate:gendarme:saint_lo",
            "allocate:gendarme:avranches",
        ],
    );
    let (obs, mask) = (observation(&s, Side::German), legal_mask(&s));
    assert_eq!(mask.count(), 1);
    for id in ["random", "heuristic", "search"] {
        let mut agent = AnyAgent::by_id(id, 5, 16).unwrap();
        let before = agent.clone();
        assert_eq!(agent.act(&obs, &mask), idx("allocate:gendarme:avranches"), "{id}");
        assert!(agent == before, "{id} drew from its stream for a decision with one option");
    }
}

#[test]
fn dday_observation_rebuilds_the_state_each_side_sees() {
    // The search's determinization: from a side's observation and the true allocation, a state
    // with the same observation and the same legal actions.
    for seed in 0..60 {
        random_game(dday::new_game(seed, &Scenario::default()).unwrap(), seed, |s, _| {
            let side = s.to_move().unwrap();
            let obs = observation(s, side);
            let v = View::decode(&obs);
            let r = rebuild(&v, &s.contents(), 1).expect("a rebuild");
            assert_eq!(observation(&r, side), obs, "phase {:?}", s.phase);
            if s.phase != Phase::Allocation || side == Side::German {
                assert_eq!(legal_mask(&r), legal_mask(s), "phase {:?}", s.phase);
            }
        });
    }
}

#[test]
fn dday_d1_bundled_policies_play_either_side_legally() {
    let mut outcomes = [0u32; 3];
    for seed in 0..40 {
        let mut r = RandomAgent::new(seed);
        let mut h = HeuristicAgent::new(seed + 1);
        let s = duel(seed, &mut h, &mut r);
        outcomes[s.outcome.unwrap().idx()] += 1;
        let mut r = RandomAgent::new(seed);
        let mut h = HeuristicAgent::new(seed + 1);
        let s = duel(seed, &mut r, &mut h);
        assert!(s.is_over());
    }
    // A uniformly random agent spreads its choices over the legal actions.
    let s = dday::new_game(0, &Scenario::default()).unwrap();
    let mask = legal_mask(&s);
    let mut r = RandomAgent::new(3);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..200 {
        seen.insert(r.act(&observation(&s, Side::German), &mask));
    }
    assert_eq!(seen.len() as u32, mask.count());
    assert!(matches!(AnyAgent::by_id("search", 0, 10), Ok(AnyAgent::Search(_))));
    assert!(AnyAgent::by_id("grandmaster", 0, 10).is_err());
    // The heuristic German puts squads with the vip, the passenger and a goods train.
    let mut h = HeuristicAgent::new(9);
    let mut s = dday::new_game(2, &Scenario::default()).unwrap();
    while s.phase == Phase::Allocation {
        let a = h.act(&observation(&s, Side::German), &legal_mask(&s));
        dday::apply(&mut s, a as i64).unwrap();
    }
    let c = s.contents();
    for k in [maquis::dday::Kind::Vip, maquis::dday::Kind::Passenger] {
        assert!(c.iter().any(|z| z[k.idx()] == 1 && z[0] == 1), "{k} guarded by a squad");
    }
    assert!(outcomes[0] > outcomes[1], "the heuristic Resistance beats the random German more often: {outcomes:?}");
}

#[test]
fn dday_d2_levels_are_ordered_random_below_heuristic() {
    // The heuristic as either side beats the random player more often than it loses.
    let mut score = 0i32;
    for seed in 0..200 {
        let mut r = RandomAgent::new(seed);
        let mut h = HeuristicAgent::new(seed);
        let (res, ger): (&mut dyn Agent<Mask>, &mut dyn Agent<Mask>) =
            if seed % 2 == 0 { (&mut h, &mut r) } else { (&mut r, &mut h) };
        let heuristic_side = if seed % 2 == 0 { Outcome::Resistance } else { Outcome::German };
        let s = duel(seed, res, ger);
        score += match s.outcome.unwrap() {
            Outcome::Draw => 0,
            o if o == heuristic_side => 1,
            _ => -1,
        };
    }
    assert!(score > 40, "heuristic vs random net wins over 200 games: {score}");
}

#[test]
fn dday_d3_agents_use_the_observation_only_and_their_own_stream() {
    // Same observation, mask and seed: same action, whatever the hidden state behind it.
    let sc = |alloc| Scenario { allocation: Some(alloc), ..Default::default() };
    let a = dday::new_game(1, &sc(standard_allocation())).unwrap();
    let mut alt = standard_allocation();
    alt.swap(1, 2); // bayeux and lison swap contents: hidden from the Resistance
    let b = dday::new_game(1, &sc(alt)).unwrap();
    assert_eq!(observation(&a, Side::Resistance), observation(&b, Side::Resistance));
    let (oa, ma) = (observation(&a, Side::Resistance), legal_mask(&a));
    let (ob, mb) = (observation(&b, Side::Resistance), legal_mask(&b));
    assert_eq!(HeuristicAgent::new(4).act(&oa, &ma), HeuristicAgent::new(4).act(&ob, &mb));
    assert_eq!(SearchAgent::new(20, 4).act(&oa, &ma), SearchAgent::new(20, 4).act(&ob, &mb));
    // The same at the attack, a decision the search does search.
    let stop = dday::action_from_str("stop_interrogation").unwrap();
    let (mut a2, mut b2) = (a.clone(), b.clone());
    dday::apply(&mut a2, stop as i64).unwrap();
    dday::apply(&mut b2, stop as i64).unwrap();
    assert_eq!(a2.phase, dday::Phase::Attack);
    let (oa, ma) = (observation(&a2, Side::Resistance), legal_mask(&a2));
    let (ob, mb) = (observation(&b2, Side::Resistance), legal_mask(&b2));
    assert_eq!(oa, ob);
    assert_eq!(SearchAgent::new(20, 4).act(&oa, &ma), SearchAgent::new(20, 4).act(&ob, &mb));
    // The agents never draw from the game's dice: a game's dice log is the same whichever agents
    // decided, as long as they choose the same actions (here: random agents with different seeds
    // replaying the same actions see the same dice).
    let s0 = dday::new_game(5, &Scenario::default()).unwrap();
    let before = s0.dice.clone();
    let mut search = SearchAgent::new(10, 1);
    let mut s = s0.clone();
    let a = search.act(&observation(&s, Side::German), &legal_mask(&s));
    assert_eq!(s.dice, before, "searching does not touch the game's stream");
    dday::apply(&mut s, a as i64).unwrap();
}

#[test]
fn dday_search_plays_whole_games_against_the_heuristic() {
    for seed in 0..2 {
        let mut sr = SearchAgent::new(8, seed);
        let mut h = HeuristicAgent::new(seed);
        let s = duel(seed, &mut sr, &mut h);
        assert!(s.outcome.is_some());
    }
}

#[test]
fn dday_search_german_places_a_searched_order_of_the_heuristic_plan() {
    // The German search compares zone orders of the heuristic's five contents and places one of
    // them in full; the same seed places the same allocation.
    let allocate = |agent_seed: u64| {
        let mut s = dday::new_game(3, &Scenario::default()).unwrap();
        let mut g = SearchAgent::new(8, agent_seed);
        while s.phase == Phase::Allocation {
            let mask = legal_mask(&s);
            let a = g.act(&observation(&s, Side::German), &mask);
            assert!(mask.get(a));
            dday::apply(&mut s, a as i64).unwrap();
        }
        s.contents()
    };
    let c = allocate(5);
    let mut zones: Vec<[u8; 5]> = c.to_vec();
    zones.sort();
    let mut plan = maquis::dday::agents::heuristic::heuristic_plan(&mut rand::SeedableRng::seed_from_u64(0)).to_vec();
    plan.sort();
    assert_eq!(zones, plan, "the heuristic's five contents, in some zone order");
    assert_eq!(allocate(5), c);
}
