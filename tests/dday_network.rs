//! D-Day's trained-network levels (`dday/agents/network.rs` over the shared `nn` module): the
//! weight file tied to D-Day's fingerprint, the `network` and `network_search` agents for both
//! sides, their registration as bundled levels, and the self-play data.

mod dday_common;
use dday_common::{asked_and_unasked, forced_allocation_steps};
use maquis::dday::agents::network::{
    observation_fingerprint, set_network, Network, NetworkAgent, NetworkSearchAgent, RelabelledNetwork, RelabelledNetworkSearch,
};
use maquis::dday::agents::selfplay::{play_games, Lineup, Teacher};
use maquis::dday::agents::{Agent, AnyAgent};
use maquis::dday::{self, legal_mask, observation, Scenario, Side};
use maquis::env::versus::{OpponentKind, TwoPlayer};
use std::sync::Arc;

fn net(seed: u64) -> Arc<Network> {
    Arc::new(Network::random(&[24], seed))
}

/// A side's player: an action from its observation and the mask.
type Player<'a> = &'a mut dyn FnMut(&[f32], &dday::Mask) -> usize;

/// Plays game `seed` to its end with `agents[side]` choosing for each side; every action is
/// checked legal. Returns the actions taken.
fn play(seed: u64, agents: &mut [Player<'_>; 2]) -> Vec<usize> {
    let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
    let mut taken = Vec::new();
    while let Some(side) = s.to_move() {
        let mask = legal_mask(&s);
        let a = agents[side.idx()](&observation(&s, side), &mask);
        assert!(mask.get(a), "seed {seed}: illegal action {a} for {side:?}");
        dday::apply(&mut s, a as i64).unwrap();
        taken.push(a);
    }
    assert!(s.outcome.is_some());
    taken
}

#[test]
fn the_weight_file_is_tied_to_dday_and_refuses_maquiss() {
    let fp = observation_fingerprint();
    assert!(fp.starts_with("dday1944-obs380-a191-"), "{fp}");
    let n = Network::random(&[8], 3);
    let back = Network::from_bytes(&n.to_bytes()).unwrap();
    assert_eq!(back.metadata["observation"], fp);
    let obs = observation(&dday::new_game(1, &Scenario::default()).unwrap(), Side::German);
    let (mut a, mut b) = (NetworkAgent::new(Arc::new(n)), NetworkAgent::new(Arc::new(back)));
    assert_eq!(a.evaluate(&obs).0.to_vec(), b.evaluate(&obs).0.to_vec());

    // A Maquis network is refused by D-Day naming both fingerprints, and the reverse.
    let maquis_net = maquis::maquis::agents::network::Network::random(&[8], 1);
    let e = Network::from_bytes(&maquis_net.to_bytes()).unwrap_err();
    let maquis_fp = maquis::maquis::agents::network::observation_fingerprint();
    assert!(e.0.contains(&fp) && e.0.contains(&maquis_fp), "{e}");
    let e = maquis::maquis::agents::network::Network::from_bytes(&Network::random(&[8], 1).to_bytes()).unwrap_err();
    assert!(e.0.contains(&fp) && e.0.contains(&maquis_fp), "{e}");
}

#[test]
fn network_agent_plays_legal_moves_for_both_sides_and_is_deterministic() {
    for seed in 0..6 {
        let (mut r, mut g) = (NetworkAgent::new(net(1)), NetworkAgent::new(net(2)));
        let first = play(seed, &mut [&mut |o, m| r.act(o, m), &mut |o, m| g.act(o, m)]);
        let (mut r, mut g) = (NetworkAgent::new(net(1)), NetworkAgent::new(net(2)));
        let again = play(seed, &mut [&mut |o, m| r.act(o, m), &mut |o, m| g.act(o, m)]);
        assert_eq!(first, again);
    }
    // The greedy choice is the best legal logit.
    let s = dday::new_game(4, &Scenario::default()).unwrap();
    let side = s.to_move().unwrap();
    let (obs, mask) = (observation(&s, side), legal_mask(&s));
    let mut a = NetworkAgent::new(net(5));
    let ranked = a.ranked(&obs, &mask);
    assert_eq!(ranked.len() as u32, mask.count());
    let logits = a.evaluate(&obs).0.to_vec();
    assert!(ranked.windows(2).all(|w| logits[w[0]] >= logits[w[1]]));
    assert_eq!(a.act(&obs, &mask), ranked[0]);
}

#[test]
fn network_search_plays_both_sides_legally_and_a_seed_decides_it() {
    for seed in [0u64, 1] {
        let mut r = NetworkSearchAgent::new(net(1), 8, seed);
        let mut g = NetworkSearchAgent::new(net(1), 8, seed + 9);
        let first = play(seed, &mut [&mut |o, m| r.act(o, m), &mut |o, m| g.act(o, m)]);
        let mut r = NetworkSearchAgent::new(net(1), 8, seed);
        let mut g = NetworkSearchAgent::new(net(1), 8, seed + 9);
        let again = play(seed, &mut [&mut |o, m| r.act(o, m), &mut |o, m| g.act(o, m)]);
        assert_eq!(first, again);
    }
}

/// Four games of `network_search` as `seat` against the heuristic, asserting that its decisions in
/// `phases` are the network's alone; how many were checked in each phase, in `phases` order.
fn decisions_as_the_network(seat: Side, phases: &[dday::Phase]) -> Vec<usize> {
    let mut checked = vec![0; phases.len()];
    for seed in 0..4u64 {
        let mut other = maquis::dday::agents::HeuristicAgent::new(seed);
        let mut ns = NetworkSearchAgent::new(net(3), 8, seed);
        let mut alone = NetworkAgent::new(net(3));
        let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
        while let Some(side) = s.to_move() {
            let (obs, mask) = (observation(&s, side), legal_mask(&s));
            let a = if side != seat {
                other.act(&obs, &mask)
            } else {
                let a = ns.act(&obs, &mask);
                if let Some(k) = phases.iter().position(|&p| p == s.phase) {
                    assert_eq!(a, alone.act(&obs, &mask), "seed {seed}, phase {:?}", s.phase);
                    checked[k] += 1;
                }
                a
            };
            dday::apply(&mut s, a as i64).unwrap();
        }
    }
    checked
}

#[test]
fn network_search_plays_the_networks_choice_where_the_search_does_not_search() {
    // The German's allocation, skirmish actions and hits are not searched: there network_search
    // is the network (the search's default is the network's choice, not the heuristic's; its
    // allocation is the network's, not a plan of the heuristic's contents).
    use dday::Phase::*;
    let n = decisions_as_the_network(Side::German, &[Allocation, Actions, Hit]);
    // Of the 11 items, those left with one zone are no decision.
    let all: usize = n.iter().sum();
    assert!(all > 20 && n[0] >= 4 * 5, "German decisions checked (allocation, actions, hits): {n:?}");
}

#[test]
fn network_search_interrogates_and_attacks_as_its_network_does() {
    // The Resistance's guesses and attack are priced by the search's intel over uniformly drawn
    // allocations; network_search plays its network's there (and in the hits and flights).
    use dday::Phase::*;
    let n = decisions_as_the_network(Side::Resistance, &[Interrogation, Attack, Hit, Morale]);
    assert!(n[0] >= 4 && n[1] == 4, "Resistance decisions checked (guesses, attacks, hits, flights): {n:?}");
}

/// The registry is process-wide: everything that depends on what is registered is in this one
/// test, in order.
#[test]
fn the_network_levels_need_a_registered_network() {
    let e = AnyAgent::by_id("network", 0, 10).unwrap_err().to_string();
    assert!(e.contains("network") && e.contains("none is loaded"), "{e}");
    assert!(AnyAgent::by_id("network_search", 0, 10).is_err());
    // A setup with a network opponent is refused when built, not played as an external one.
    let kind = OpponentKind::parse("network", false).unwrap();
    assert!(maquis::dday::env::DDay1944::bundled_opponent(kind, 10, 0).is_err());

    set_network(net(7));
    for id in ["network", "network_search"] {
        let mut agent = AnyAgent::by_id(id, 3, 8).unwrap();
        for seed in 0..2 {
            let mut other = AnyAgent::by_id("heuristic", seed, 8).unwrap();
            play(seed, &mut [&mut |o, m| agent.act(o, m), &mut |o, m| other.act(o, m)]);
            play(seed, &mut [&mut |o, m| other.act(o, m), &mut |o, m| agent.act(o, m)]);
        }
        // Saved with the network's fingerprint (and the search's stream), loaded with the
        // registered network.
        let json = serde_json::to_string(&agent).unwrap();
        assert!(json.contains(&observation_fingerprint()), "{json}");
        let back: AnyAgent = serde_json::from_str(&json).unwrap();
        assert_eq!(back, agent);
        // With the zones' relabelling and its stream; a save from before it still loads.
        let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(old[id]["relabel"].is_object(), "{json}");
        old[id].as_object_mut().unwrap().remove("relabel");
        assert!(serde_json::from_value::<AnyAgent>(old).is_ok());
    }
    // Maurice's levels have their own network, none registered here: they say so.
    let e = maquis::maurice::agents::AnyAgent::by_id("network", 0, 10).unwrap_err().to_string();
    assert!(e.contains("Maurice Lite network") && e.contains("none is loaded"), "{e}");
}

#[test]
fn selfplay_records_both_sides_the_same_for_any_thread_count() {
    let seeds: Vec<u64> = (10..16).collect();
    let one = play_games(&Teacher::Search(4), &Lineup::default(), &seeds, 1).unwrap();
    let two = play_games(&Teacher::Search(4), &Lineup::default(), &seeds, 2).unwrap();
    assert_eq!((one.action.clone(), one.obs.clone(), one.outcome.clone()), (two.action, two.obs, two.outcome));
    assert_eq!(one.game_outcomes.len(), seeds.len());
    assert!(one.side.contains(&0) && one.side.contains(&1));
    let n = one.action.len();
    assert_eq!(one.obs.len(), n * dday::OBSERVATION_SIZE);
    for i in 0..n {
        let mask = &one.masks[i * dday::NUM_ACTIONS..(i + 1) * dday::NUM_ACTIONS];
        assert!(mask[one.action[i] as usize] && mask.iter().filter(|&&m| m).count() > 1);
        // The outcome is the game's result seen from the side that moved.
        let g = one.game[i] as usize;
        let expected = match (one.game_outcomes[g], one.side[i]) {
            (0, _) => 0.5,
            (1, 0) | (2, 1) => 1.0,
            _ => 0.0,
        };
        assert_eq!(one.outcome[i], expected);
    }
    let guided = play_games(&Teacher::NetworkSearch(net(2), 4), &Lineup::default(), &seeds[..2], 1).unwrap();
    assert_eq!(guided.game_outcomes.len(), 2);
}

#[test]
fn selfplay_against_a_level_records_the_teacher_alone() {
    let seeds: Vec<u64> = (30..34).collect();
    let both = play_games(&Teacher::Heuristic, &Lineup::default(), &seeds, 1).unwrap();
    let lineup = Lineup::new::<AnyAgent>(vec!["heuristic".into()], 4).unwrap();
    let lined = play_games(&Teacher::Heuristic, &lineup, &seeds, 2).unwrap();
    let keep: Vec<usize> = (0..both.action.len()).filter(|&i| both.side[i] as u32 == both.game[i] % 2).collect();
    assert!(!keep.is_empty() && keep.len() < both.action.len());
    assert_eq!(lined.action, keep.iter().map(|&i| both.action[i]).collect::<Vec<_>>());
    assert_eq!(lined.game_outcomes, both.game_outcomes);
    let e = Lineup::new::<AnyAgent>(vec!["nobody".into()], 4).unwrap_err().to_string();
    assert!(e.contains("nobody"), "{e}");
}

#[test]
fn dday_q0_network_levels_answer_a_one_zone_allocation_step_as_before() {
    // As `dday_q0_agents_answer_a_one_zone_allocation_step_without_a_draw` for the network
    // levels (built on a network of their own, not the registered one).
    let n = net(11);
    let mut forced = 0;
    for seed in 0..8 {
        let network = || AnyAgent::Network(RelabelledNetwork::new(n.clone(), seed));
        let search = || AnyAgent::NetworkSearch(RelabelledNetworkSearch::new(n.clone(), 8, seed));
        for agents in [[network(), search()], [search(), network()]] {
            let [asked, unasked] = asked_and_unasked(seed, &agents);
            assert!(asked == unasked, "seed {seed}: the forced steps changed the game");
            forced += forced_allocation_steps(seed, &agents);
        }
    }
    assert!(forced > 0, "no allocation step had one legal zone");
}

/// The Resistance's first guess of game `seed` by `agent`.
fn first_guess(seed: u64, agent: &mut dyn FnMut(&[f32], &dday::Mask) -> usize) -> usize {
    let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
    let mut german = maquis::dday::agents::HeuristicAgent::new(seed);
    while s.to_move() == Some(Side::German) {
        let a = german.act(&observation(&s, Side::German), &legal_mask(&s));
        dday::apply(&mut s, a as i64).unwrap();
    }
    agent(&observation(&s, Side::Resistance), &legal_mask(&s))
}

#[test]
fn the_network_levels_play_each_game_under_a_relabelling_of_the_zones() {
    // The raw network opens every game with the same guess (it sees nothing of the allocation);
    // the level draws a relabelling a game and samples its policy, so its opening guess moves
    // between zones, each seed deciding which.
    let n = net(13);
    let mut raw = NetworkAgent::new(n.clone());
    let raw_first: Vec<usize> = (0..20).map(|g| first_guess(g, &mut |o, m| raw.act(o, m))).collect();
    assert!(raw_first.windows(2).all(|w| w[0] == w[1]), "{raw_first:?}");
    let mut level = RelabelledNetwork::new(n.clone(), 5);
    let firsts: Vec<usize> = (0..20).map(|g| first_guess(g, &mut |o, m| level.act(o, m))).collect();
    let zones: std::collections::BTreeSet<usize> = firsts.iter().map(|a| (a - 25) / 10).collect();
    assert!(zones.len() >= 3, "opening guesses' zones {zones:?}");
    // The Resistance samples its policy: the opening guess is legal, and the value guessed is
    // the raw network's best in some games, not in all (its policy at temperature ½ here puts
    // weight on several values).
    let best_value = (raw_first[0] - 25) % 10;
    let same = firsts.iter().filter(|&&a| (a - 25) % 10 == best_value).count();
    assert!(0 < same && same < firsts.len(), "{firsts:?} {raw_first:?}");
    let mut again = RelabelledNetwork::new(n.clone(), 5);
    let repeat: Vec<usize> = (0..20).map(|g| first_guess(g, &mut |o, m| again.act(o, m))).collect();
    assert_eq!(firsts, repeat);
    // The German is not relabelled: the level's German is the raw network's.
    let (mut r, mut g, mut raw) = (RelabelledNetwork::new(n.clone(), 1), RelabelledNetwork::new(n.clone(), 2), NetworkAgent::new(n.clone()));
    play(4, &mut [&mut |o, m| r.act(o, m), &mut |o, m| {
        let a = g.act(o, m);
        assert_eq!(a, raw.act(o, m));
        a
    }]);
    // Whole games are legal and decided by the seeds.
    for seed in 0..3 {
        let games: Vec<Vec<usize>> = (0..2)
            .map(|_| {
                let (mut r, mut g) = (RelabelledNetworkSearch::new(n.clone(), 8, seed), RelabelledNetwork::new(n.clone(), seed + 1));
                play(seed, &mut [&mut |o, m| r.act(o, m), &mut |o, m| g.act(o, m)])
            })
            .collect();
        assert_eq!(games[0], games[1]);
    }
}

#[test]
fn a_sampled_action_follows_the_softmax_of_the_legal_logits() {
    // The first German decision of a game: draws spread evenly over [0, 1) land on each legal
    // action in proportion to its softmax probability (at temperature 1 and 0.5).
    let s = dday::new_game(5, &Scenario::default()).unwrap();
    let obs = observation(&s, Side::German);
    let legal: Vec<usize> = legal_mask(&s).iter().collect();
    assert!(legal.len() > 1);
    let mut player = maquis::nn::player::Player::new(net(4));
    let logits = player.evaluate(&obs).0.to_vec();
    for t in [1.0f32, 0.5] {
        let w: Vec<f64> = legal.iter().map(|&a| f64::from(logits[a] / t).exp()).collect();
        let total: f64 = w.iter().sum();
        let n = 10_000;
        let mut counts = vec![0usize; legal.len()];
        for k in 0..n {
            let a = player.sample(&obs, legal.iter().copied(), t, (k as f64 + 0.5) / n as f64);
            counts[legal.iter().position(|&l| l == a).expect("a legal action")] += 1;
        }
        for (c, wi) in counts.iter().zip(&w) {
            assert!((*c as f64 / n as f64 - wi / total).abs() <= 1.5 / n as f64, "t {t}: {counts:?} v {w:?}");
        }
    }
}

#[test]
fn a_network_at_file_opponent_plays_its_file_and_refuses_bad_ids() {
    use maquis::env::versus::Opponent;
    use maquis::nn::player::NetworkLevels;
    let dir = std::env::temp_dir().join(format!("maquis_file_opponent_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.safetensors");
    std::fs::write(&path, net(11).to_bytes()).unwrap();
    let id = format!("network@{}", path.display());
    let o = Opponent::parse::<dday::env::DDay1944>(&id, 8, false).unwrap();
    assert_eq!((o.kind, o.id()), (OpponentKind::Network, id.clone()));
    // The file's network plays, not a registered one: as the level built on the same weights does.
    let index = o.file.as_ref().and_then(|f| f.index).unwrap();
    let on_file = dday::env::DDay1944::opponent_on_file(OpponentKind::Network, index, 8, 5).unwrap();
    let same: AnyAgent = NetworkLevels::with_network(OpponentKind::Network, net(11), 8, 5).unwrap();
    for seed in 0..3 {
        let games: Vec<Vec<usize>> = [on_file.clone(), same.clone()]
            .into_iter()
            .map(|mut agent| {
                let mut other = AnyAgent::by_id("heuristic", seed, 8).unwrap();
                play(seed, &mut [&mut |o, m| agent.act(o, m), &mut |o, m| other.act(o, m)])
            })
            .collect();
        assert_eq!(games[0], games[1]);
    }
    // Its save names the file, and loads back to the same network.
    let json = serde_json::to_string(&on_file).unwrap();
    assert!(json.contains("net.safetensors"), "{json}");
    let back: AnyAgent = serde_json::from_str(&json).unwrap();
    assert_eq!(back, on_file);
    for (bad, says) in [
        ("heuristic@x".to_string(), "only network@FILE and network_search@FILE"),
        ("network@".to_string(), "no file after '@'"),
        (format!("network@{}", dir.join("missing").display()), "network file"),
    ] {
        let e = Opponent::parse::<dday::env::DDay1944>(&bad, 8, false).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
