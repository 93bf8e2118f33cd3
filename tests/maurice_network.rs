//! RULES D1, D3: Maurice Lite's trained-network levels (`maurice/agents/network.rs` over the
//! shared `nn` module): the weight file tied to Maurice's compact observation, the `network` and
//! `network_search` agents for both sides, their registration as bundled levels, and the
//! self-play data.

use maquis::maurice::agents::network::{
    map_spec, observation_fingerprint, set_network, MauriceInputs, Network, NetworkAgent, NetworkSearchAgent,
};
use maquis::maurice::agents::selfplay::{play_games, Lineup, Teacher};
use maquis::maurice::agents::{Agent, AnyAgent};
use maquis::maurice::{
    apply, legal_mask, new_game, observation, ObservationKind, ScenarioId, Setup, COMPACT_OBSERVATION_SIZE,
    NUM_ACTIONS, OBSERVATION_SIZE,
};
use std::sync::Arc;
use std::time::Instant;

fn net(seed: u64) -> Arc<Network> {
    Arc::new(Network::random(&[16], seed))
}

/// A network over the full observation: the map planes through a stem of stride 3 then 2.
fn maps_net(seed: u64) -> Arc<Network> {
    Arc::new(Network::random_with_maps(MauriceInputs::Maps, map_spec(vec![3, 2], vec![0, 1]), &[(4, 3), (6, 3)], &[16], seed))
}

fn skirmish() -> Setup {
    Setup { scenario: ScenarioId::Skirmish, ..Setup::default() }
}

/// Plays game `seed` of `setup` to its end with `agents[side]`; every action checked legal.
/// Returns the actions taken.
fn play(setup: &Setup, seed: u64, agents: &mut [&mut dyn Agent<maquis::maurice::Mask>; 2]) -> Vec<usize> {
    let mut s = new_game(seed, setup).unwrap();
    let mut taken = Vec::new();
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let a = agents[side.idx()].act(&observation(&s, side, ObservationKind::Full), &mask);
        assert!(mask.get(a), "seed {seed}: illegal action {a} for {side:?}");
        apply(&mut s, a as i64).unwrap();
        taken.push(a);
        assert!(taken.len() < 200_000, "the game ends");
    }
    assert!(s.outcome.is_some());
    taken
}

#[test]
fn maurice_network_file_is_tied_to_the_compact_observation_and_refuses_another_games() {
    let fp = observation_fingerprint();
    assert!(fp.starts_with(&format!("maurice-obs{COMPACT_OBSERVATION_SIZE}-a{NUM_ACTIONS}-")), "{fp}");
    let n = Network::random(&[8], 3);
    let back = Network::from_bytes(&n.to_bytes()).unwrap();
    assert_eq!(back.metadata["observation"], fp);
    // A D-Day network is refused naming both fingerprints, and the reverse.
    let dday_fp = maquis::dday::agents::network::observation_fingerprint();
    let e = Network::from_bytes(&maquis::dday::agents::network::Network::random(&[8], 1).to_bytes()).unwrap_err();
    assert!(e.0.contains(&fp) && e.0.contains(&dday_fp), "{e}");
    let e = maquis::dday::agents::network::Network::from_bytes(&n.to_bytes()).unwrap_err();
    assert!(e.0.contains(&fp) && e.0.contains(&dday_fp), "{e}");
}

#[test]
fn maurice_d1_network_levels_play_legal_moves_for_both_sides_and_are_deterministic() {
    for seed in 0..2 {
        let (mut b, mut r) = (NetworkAgent::new(net(1)), NetworkAgent::new(net(2)));
        let first = play(&skirmish(), seed, &mut [&mut b, &mut r]);
        let (mut b, mut r) = (NetworkAgent::new(net(1)), NetworkAgent::new(net(2)));
        assert_eq!(play(&skirmish(), seed, &mut [&mut b, &mut r]), first, "the network has no stream");
        let (mut b, mut r) = (NetworkSearchAgent::new(net(1), 6, 4), NetworkSearchAgent::new(net(2), 6, 5));
        let first = play(&skirmish(), seed, &mut [&mut b, &mut r]);
        let (mut b, mut r) = (NetworkSearchAgent::new(net(1), 6, 4), NetworkSearchAgent::new(net(2), 6, 5));
        assert_eq!(play(&skirmish(), seed, &mut [&mut b, &mut r]), first, "seeded: the same game again");
    }
}

#[test]
fn maurice_d1_network_levels_are_built_on_a_given_network_without_registering_it() {
    // What the ladder runner's `network@FILE` agents are: two networks in one game, neither the
    // registered one (this test registers none).
    use maquis::env::versus::OpponentKind;
    use maquis::nn::player::NetworkLevels;
    let s = new_game(2, &skirmish()).unwrap();
    let side = s.to_move.unwrap();
    let obs = observation(&s, side, ObservationKind::Full);
    for seed in [7, 8] {
        let mut given = AnyAgent::with_network(OpponentKind::Network, net(seed), 5, 3).unwrap();
        let mut direct = NetworkAgent::new(net(seed));
        assert_eq!(given.act(&obs, &legal_mask(&s)), direct.act(&obs, &legal_mask(&s)));
        let mut searching = AnyAgent::with_network(OpponentKind::NetworkSearch, net(seed), 5, 3).unwrap();
        assert!(legal_mask(&s).get(searching.act(&obs, &legal_mask(&s))));
    }
    let e = AnyAgent::with_network(OpponentKind::Heuristic, net(7), 5, 3).unwrap_err().to_string();
    assert!(e.contains("'heuristic' is not a network level"), "{e}");
}

#[test]
fn maurice_d1_network_levels_are_bundled_levels_once_a_network_is_registered() {
    // Before any is registered (this test binary's only registration is below), a clear error.
    let e = AnyAgent::by_id("network_search", 0, 10).unwrap_err().to_string();
    assert!(e.contains("Maurice Lite network") && e.contains("none is loaded"), "{e}");
    set_network(net(7));
    for id in ["network", "network_search"] {
        let mut agent = AnyAgent::by_id(id, 3, 5).unwrap();
        let s = new_game(2, &skirmish()).unwrap();
        let side = s.to_move.unwrap();
        let a = agent.act(&observation(&s, side, ObservationKind::Full), &legal_mask(&s));
        assert!(legal_mask(&s).get(a));
        // Saved with the network's fingerprint, loaded back with the registered network.
        let json = serde_json::to_string(&agent).unwrap();
        assert!(json.contains(&observation_fingerprint()), "{json}");
        let back: AnyAgent = serde_json::from_str(&json).unwrap();
        assert_eq!(back, agent);
    }
}

#[test]
fn maurice_selfplay_records_both_sides_the_same_for_any_thread_count() {
    let seeds: Vec<u64> = (10..14).collect();
    let scenarios = [ScenarioId::Skirmish, ScenarioId::Standard];
    let teacher = Teacher::NetworkSearch(net(2), 4);
    let one = play_games(&teacher, &Lineup::default(), &scenarios[..1], false, &seeds, 1).unwrap();
    let two = play_games(&teacher, &Lineup::default(), &scenarios[..1], false, &seeds, 2).unwrap();
    assert_eq!((one.action.clone(), one.obs.clone(), one.outcome.clone()), (two.action, two.obs, two.outcome));
    assert_eq!(one.game_outcomes.len(), seeds.len());
    assert!(one.side.contains(&0) && one.side.contains(&1));
    let n = one.action.len();
    assert_eq!(one.obs.len(), n * COMPACT_OBSERVATION_SIZE);
    for i in 0..n {
        let mask = &one.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        assert!(mask[one.action[i] as usize] && mask.iter().filter(|&&m| m).count() > 1);
        // Decided: 1 or 0 for the side; drawn: ½ and a quarter of its final morale margin, the
        // two sides' values of one game summing to 1.
        match (one.game_outcomes[one.game[i] as usize], one.side[i]) {
            (0, _) => {
                assert!((0.25..=0.75).contains(&one.outcome[i]));
                let other = (0..n).find(|&j| one.game[j] == one.game[i] && one.side[j] != one.side[i]).unwrap();
                assert!((one.outcome[i] + one.outcome[other] - 1.0).abs() < 1e-6);
            }
            (1, 0) | (2, 1) => assert_eq!(one.outcome[i], 1.0),
            _ => assert_eq!(one.outcome[i], 0.0),
        }
    }
    // The scenarios are taken in turn.
    let both = play_games(&Teacher::Heuristic, &Lineup::default(), &scenarios, false, &seeds[..2], 1).unwrap();
    let first = play_games(&Teacher::Heuristic, &Lineup::default(), &scenarios[..1], false, &seeds[..1], 1).unwrap();
    assert_eq!(both.action[..first.action.len()], first.action[..]);
    assert_eq!(both.game_outcomes.len(), 2);
}

#[test]
fn maurice_selfplay_against_levels_records_the_teacher_alone() {
    let seeds: Vec<u64> = (20..24).collect();
    let scenarios = [ScenarioId::Skirmish];
    // The heuristic teacher against the heuristic level: the games of self-play, the samples of
    // the teacher's seat only (game k's seat (k / 1) % 2).
    let levels = |ids: &[&str]| Lineup::new::<AnyAgent>(ids.iter().map(|s| s.to_string()).collect(), 4).unwrap();
    let both = play_games(&Teacher::Heuristic, &Lineup::default(), &scenarios, false, &seeds, 1).unwrap();
    let lined = play_games(&Teacher::Heuristic, &levels(&["heuristic"]), &scenarios, false, &seeds, 1).unwrap();
    let keep: Vec<usize> = (0..both.action.len()).filter(|&i| both.side[i] as u32 == both.game[i] % 2).collect();
    assert!(!keep.is_empty() && keep.len() < both.action.len());
    assert_eq!(lined.action, keep.iter().map(|&i| both.action[i]).collect::<Vec<_>>());
    assert_eq!(lined.outcome, keep.iter().map(|&i| both.outcome[i]).collect::<Vec<_>>());
    assert_eq!(lined.game_outcomes, both.game_outcomes);
    // Against two levels in turn: games 0, 1 from seat 0, games 2, 3 from seat 1.
    let mixed = play_games(&Teacher::Search(4), &levels(&["random", "heuristic"]), &scenarios, false, &seeds, 2).unwrap();
    for (g, side) in mixed.game.iter().zip(&mixed.side) {
        assert_eq!(*side as u32, (g / 2) % 2);
    }
    assert_eq!(mixed.game_outcomes.len(), 4);
    // An unknown level and a zero budget are errors.
    let e = Lineup::new::<AnyAgent>(vec!["grandmaster".into()], 4).unwrap_err().to_string();
    assert!(e.contains("grandmaster"), "{e}");
    assert!(Lineup::new::<AnyAgent>(vec!["random".into()], 0).is_err());
}

/// Milliseconds per decision of `network` and `network_search` (a network of the shipped widths)
/// where the search searches, along a heuristic game of the standard scenario.
#[test]
#[ignore]
fn maurice_d1_network_timing() {
    let widths: Vec<usize> =
        std::env::var("MAURICE_NET_HIDDEN").map_or(vec![256, 256], |v| v.split(',').map(|x| x.parse().unwrap()).collect());
    // MAURICE_NET_MAPS="16,32": a stem of those channels (3 × 3, strides 3 then 2) over the planes.
    let maps: Vec<usize> = std::env::var("MAURICE_NET_MAPS")
        .map_or(vec![], |v| v.split(',').filter(|x| !x.is_empty()).map(|x| x.parse().unwrap()).collect());
    let n = Arc::new(match maps.len() {
        0 => Network::random(&widths, 1),
        k => {
            let strides = (0..k).map(|i| if i == 0 { 3 } else { 2 }).collect();
            let padding = (0..k).map(|i| usize::from(i > 0)).collect();
            let convs: Vec<(usize, usize)> = maps.iter().map(|&c| (c, 3)).collect();
            Network::random_with_maps(MauriceInputs::Maps, map_spec(strides, padding), &convs, &widths, 1)
        }
    });
    let mut s = new_game(1, &Setup::default()).unwrap();
    let mut players = [AnyAgent::by_id("heuristic", 1, 1).unwrap(), AnyAgent::by_id("heuristic", 2, 1).unwrap()];
    let mut alone = NetworkAgent::new(n.clone());
    let mut guided = NetworkSearchAgent::new(n, maquis::maurice::agents::search::DEFAULT_BUDGET, 3);
    let (mut t_alone, mut t_guided, mut k) = (0.0, 0.0, 0);
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        if matches!(s.phase, maquis::maurice::Phase::Command | maquis::maurice::Phase::VolleyChoice)
            && mask.count() > 1
            && k < 40
        {
            let t = Instant::now();
            alone.act(&obs, &mask);
            t_alone += t.elapsed().as_secs_f64();
            let t = Instant::now();
            guided.act(&obs, &mask);
            t_guided += t.elapsed().as_secs_f64();
            k += 1;
        }
        let a = players[side.idx()].act(&obs, &mask);
        apply(&mut s, a as i64).unwrap();
    }
    eprintln!(
        "hidden {widths:?}, maps {maps:?}: {k} searched decisions; network {:.2} ms, network_search {:.1} ms each",
        1e3 * t_alone / k as f64,
        1e3 * t_guided / k as f64
    );
}

#[test]
fn maurice_d1_maps_network_reads_the_planes_and_its_file_reads_back() {
    let n = maps_net(5);
    let back = Network::from_bytes(&n.to_bytes()).unwrap();
    assert_eq!(back.metadata["inputs"], "maps");
    assert_eq!(back.metadata["maps"], r#"{"at":1084,"planes":[15,30,45],"strides":[3,2],"padding":[0,1]}"#);
    assert_eq!(back.input_size(), OBSERVATION_SIZE);
    let s = new_game(3, &Setup::default()).unwrap();
    let side = s.to_move.unwrap();
    let mut obs = observation(&s, side, ObservationKind::Full);
    let rows = ndarray::Array2::from_shape_vec((1, OBSERVATION_SIZE), obs.clone()).unwrap();
    let (logits, value) = n.forward(rows.view());
    assert_eq!(back.forward(rows.view()), (logits.clone(), value.clone()), "the same bits after a round trip");
    // The planes reach the outputs: clearing them changes the logits.
    obs[COMPACT_OBSERVATION_SIZE..].iter_mut().for_each(|v| *v = 0.0);
    let cleared = ndarray::Array2::from_shape_vec((1, OBSERVATION_SIZE), obs).unwrap();
    assert_ne!(n.forward(cleared.view()).0, logits);
    // A stem whose planes run past the row is refused naming it: the same file read as a network
    // of the compact observation.
    let mut meta = n.metadata.clone();
    meta.insert("format".into(), "maquis-net-v1".into());
    meta.remove("inputs");
    let e = Network::from_bytes(&rewrite_metadata(&n.to_bytes(), meta)).unwrap_err();
    assert!(e.0.contains("do not fit in an input row of 1084"), "{e}");
}

/// `bytes`' tensors with `meta` as their metadata.
fn rewrite_metadata(bytes: &[u8], meta: std::collections::BTreeMap<String, String>) -> Vec<u8> {
    let st = safetensors::SafeTensors::deserialize(bytes).unwrap();
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> =
        st.tensors().into_iter().map(|(n, t)| (n.to_string(), t)).collect();
    safetensors::serialize(views, Some(meta.into_iter().collect())).unwrap()
}

#[test]
fn maurice_d1_maps_network_levels_play_whole_games_and_selfplay_keeps_their_planes() {
    for seed in 0..2 {
        let (mut b, mut r) = (NetworkAgent::new(maps_net(1)), NetworkSearchAgent::new(maps_net(2), 6, 4));
        let first = play(&skirmish(), seed, &mut [&mut b, &mut r]);
        let (mut b, mut r) = (NetworkAgent::new(maps_net(1)), NetworkSearchAgent::new(maps_net(2), 6, 4));
        assert_eq!(play(&skirmish(), seed, &mut [&mut b, &mut r]), first, "seeded: the same game again");
    }
    // The samples' packed planes are their full observations' planes.
    let seeds = [31u64, 32];
    let d = play_games(&Teacher::Network(maps_net(3)), &Lineup::default(), &[ScenarioId::Skirmish], true, &seeds, 2).unwrap();
    let plain = play_games(&Teacher::Network(maps_net(3)), &Lineup::default(), &[ScenarioId::Skirmish], false, &seeds, 1).unwrap();
    assert_eq!(d.action, plain.action);
    assert!(plain.maps.is_empty());
    let n = d.action.len();
    let per = (OBSERVATION_SIZE - COMPACT_OBSERVATION_SIZE).div_ceil(8);
    assert_eq!(d.maps.len(), n * per);
    // Replay game 0 and compare each recorded decision's planes.
    let mut s = new_game(seeds[0], &skirmish()).unwrap();
    let mut agents = [NetworkAgent::new(maps_net(3)), NetworkAgent::new(maps_net(3))];
    let mut i = 0;
    while let Some(side) = s.to_move {
        let mask = legal_mask(&s);
        let obs = observation(&s, side, ObservationKind::Full);
        let a = agents[side.idx()].act(&obs, &mask);
        if mask.count() > 1 {
            let bits = &d.maps[i * per..(i + 1) * per];
            for (j, &v) in obs[COMPACT_OBSERVATION_SIZE..].iter().enumerate() {
                assert_eq!(bits[j / 8] >> (7 - j % 8) & 1, u8::from(v != 0.0), "sample {i}, plane value {j}");
            }
            assert_eq!(d.obs[i * COMPACT_OBSERVATION_SIZE..(i + 1) * COMPACT_OBSERVATION_SIZE], obs[..COMPACT_OBSERVATION_SIZE]);
            i += 1;
        }
        apply(&mut s, a as i64).unwrap();
    }
    assert_eq!(d.game[i], 1, "game 0's samples come first");
}
