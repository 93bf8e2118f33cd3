//! The learned network (`agents/network.rs`), the network-guided search (`agents/guided.rs`), the
//! self-play data (`agents/selfplay.rs`) and the clairvoyant ceiling (`agents/clairvoyant.rs`).

use maquis::maquis::agents::clairvoyant::{clairvoyant_outcomes, Clairvoyant};
use maquis::maquis::agents::guided::{GuidedSearch, GuidedSettings, NETWORK_SEARCH_DEFAULTS};
use maquis::maquis::agents::heuristic::HeuristicAgent;
use maquis::maquis::agents::search::worth_searching;
use maquis::maquis::agents::network::{
    masked_argmax, observation_fingerprint, Inputs, Network, NetworkAgent, Scratch, NETWORK_FORMAT, NETWORK_FORMAT_V2,
};
use maquis::maquis::agents::planes::{write_heuristic_planes, GAP_SCALE, HEURISTIC_PLANES, HEURISTIC_RANKS};
use maquis::maquis::agents::selfplay::{play_games, Teacher};
use maquis::maquis::ids::{Difficulty, Outcome};
use maquis::maquis::observation::state_from_observation;
use maquis::maquis::{action_table, apply_legal, legal_mask, new_game, obs_size, observation, Setup, State, NUM_ACTIONS};
use ndarray::{Array1, Array2};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A network small enough to compute by hand: one hidden layer of 2 units.
/// h0 = relu(2·x3 + 0.25), h1 = relu(−x10 + 0.5); logit_a = 0.01·a + (a == 5)·h0 − (a == 7)·h1;
/// value = sigmoid(2·h0 + 3·h1 − 0.5).
fn tiny() -> Network {
    let d = obs_size();
    let mut w0 = Array2::zeros((2, d));
    w0[[0, 3]] = 2.0;
    w0[[1, 10]] = -1.0;
    let b0 = Array1::from(vec![0.25, 0.5]);
    let mut pw = Array2::zeros((NUM_ACTIONS, 2));
    pw[[5, 0]] = 1.0;
    pw[[7, 1]] = -1.0;
    let pb = Array1::from_shape_fn(NUM_ACTIONS, |a| 0.01 * a as f32);
    let vw = Array2::from_shape_vec((1, 2), vec![2.0, 3.0]).unwrap();
    let vb = Array1::from(vec![-0.5]);
    let mut meta = BTreeMap::new();
    meta.insert("note".to_string(), "hand-made".to_string());
    Network::from_layers(vec![(w0, b0)], (pw, pb), (vw, vb), meta).unwrap()
}

fn forward_one(net: &Network, obs: &[f32]) -> (Vec<f32>, f32) {
    let mut logits = vec![0.0; NUM_ACTIONS];
    let v = net.forward_into(obs, &mut logits, &mut Scratch::default());
    (logits, v)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[test]
fn tiny_network_gives_the_hand_computed_outputs() {
    let mut obs = vec![0.0; obs_size()];
    obs[3] = 0.5;
    obs[10] = 1.0;
    // h0 = relu(1.0 + 0.25) = 1.25, h1 = relu(−1 + 0.5) = 0.
    let (logits, v) = forward_one(&tiny(), &obs);
    assert!((logits[5] - (0.05 + 1.25)).abs() < 1e-6, "{}", logits[5]);
    assert!((logits[7] - 0.07).abs() < 1e-6);
    assert!((logits[100] - 1.0).abs() < 1e-6);
    assert!((v - sigmoid(2.0)).abs() < 1e-6, "{v}");
    obs[10] = 0.0;
    // h1 = 0.5 now.
    let (logits, v) = forward_one(&tiny(), &obs);
    assert!((logits[7] - (0.07 - 0.5)).abs() < 1e-6);
    assert!((v - sigmoid(2.5 + 1.5 - 0.5)).abs() < 1e-6);
}

#[test]
fn batched_forward_equals_one_at_a_time() {
    let net = Network::random(&[32, 16], 3);
    let mut s = new_game(&Setup::default(), 5).unwrap();
    let mut rows = Vec::new();
    for _ in 0..12 {
        rows.push(observation(&s));
        let a = legal_mask(&s).iter().next().unwrap();
        apply_legal(&mut s, action_table().actions[a]);
    }
    let batch = Array2::from_shape_vec((rows.len(), obs_size()), rows.concat()).unwrap();
    let (logits, values) = net.forward(batch.view());
    for (i, r) in rows.iter().enumerate() {
        let (l, v) = forward_one(&net, r);
        assert_eq!(logits.row(i).to_vec(), l);
        assert_eq!(values[i], v);
    }
}

#[test]
fn weight_file_round_trips_in_torch_orientation() {
    let net = tiny();
    let bytes = net.to_bytes();
    let st = safetensors::SafeTensors::deserialize(&bytes).unwrap();
    assert_eq!(st.tensor("trunk.0.weight").unwrap().shape(), &[2, obs_size()]);
    assert_eq!(st.tensor("policy.weight").unwrap().shape(), &[NUM_ACTIONS, 2]);
    assert_eq!(st.tensor("value.bias").unwrap().shape(), &[1]);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.metadata["format"], NETWORK_FORMAT);
    assert_eq!(back.metadata["observation"], observation_fingerprint());
    assert_eq!(back.metadata["note"], "hand-made");
    let obs = observation(&new_game(&Setup::default(), 1).unwrap());
    assert_eq!(forward_one(&net, &obs), forward_one(&back, &obs));
}

#[test]
fn fingerprint_names_sizes_and_layout_hash() {
    let f = observation_fingerprint();
    let prefix = format!("obs{}-a{}-", obs_size(), NUM_ACTIONS);
    assert!(f.starts_with(&prefix), "{f}");
    assert_eq!(f.len(), prefix.len() + 16);
    assert!(f[prefix.len()..].chars().all(|c| c.is_ascii_hexdigit()));
}

/// A weight file built from raw parts (tensor name, shape, f32 data), with the given metadata.
fn file(tensors: &[(&str, Vec<usize>, Vec<f32>)], meta: &[(&str, &str)], dtype: safetensors::Dtype) -> Vec<u8> {
    let data: Vec<Vec<u8>> = tensors
        .iter()
        .map(|(_, _, v)| match dtype {
            safetensors::Dtype::F64 => v.iter().flat_map(|x| (*x as f64).to_le_bytes()).collect(),
            safetensors::Dtype::F16 => v.iter().flat_map(|x| half::f16::from_f32(*x).to_le_bytes()).collect(),
            safetensors::Dtype::BF16 => v.iter().flat_map(|x| half::bf16::from_f32(*x).to_le_bytes()).collect(),
            _ => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        })
        .collect();
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> = tensors
        .iter()
        .zip(&data)
        .map(|((n, s, _), d)| (n.to_string(), safetensors::tensor::TensorView::new(dtype, s.clone(), d).unwrap()))
        .collect();
    let meta: std::collections::HashMap<String, String> = meta.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    safetensors::serialize(views, Some(meta)).unwrap()
}

fn heads_only(width_in: usize) -> Vec<(&'static str, Vec<usize>, Vec<f32>)> {
    vec![
        ("policy.weight", vec![NUM_ACTIONS, width_in], vec![0.0; NUM_ACTIONS * width_in]),
        ("policy.bias", vec![NUM_ACTIONS], vec![0.0; NUM_ACTIONS]),
        ("value.weight", vec![1, width_in], vec![0.0; width_in]),
        ("value.bias", vec![1], vec![0.0]),
    ]
}

#[test]
fn mismatched_and_corrupt_files_are_clear_errors() {
    let fp = observation_fingerprint();
    let good = [("format", NETWORK_FORMAT), ("observation", fp.as_str())];
    // A well-formed file with no hidden layer loads.
    assert!(Network::from_bytes(&file(&heads_only(obs_size()), &good, safetensors::Dtype::F32)).is_ok());

    let e = Network::from_bytes(&file(&heads_only(obs_size()), &[("format", NETWORK_FORMAT), ("observation", "obs405-a217-0123456789abcdef")], safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("obs405-a217-0123456789abcdef") && e.0.contains(&fp), "{e}");
    let e = Network::from_bytes(&file(&heads_only(obs_size()), &[("format", "maquis-mlp-v1"), ("observation", &fp)], safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("maquis-mlp-v1") && e.0.contains(NETWORK_FORMAT), "{e}");
    let e = Network::from_bytes(&file(&heads_only(obs_size()), &[("observation", &fp)], safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("format"), "{e}");
    let e = Network::from_bytes(&file(&heads_only(obs_size()), &[("format", NETWORK_FORMAT)], safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("observation") && e.0.contains(&fp), "{e}");

    // Wrong shapes, a missing tensor, a stray tensor, another dtype.
    let e = Network::from_bytes(&file(&heads_only(100), &good, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("policy") && e.0.contains(&format!("({NUM_ACTIONS}, {})", obs_size())), "{e}");
    let e = Network::from_bytes(&file(&heads_only(obs_size())[..3], &good, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("value.bias") && e.0.contains("missing"), "{e}");
    let mut extra = heads_only(obs_size());
    extra.push(("bogus", vec![1], vec![0.0]));
    let e = Network::from_bytes(&file(&extra, &good, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("bogus"), "{e}");
    let e = Network::from_bytes(&file(&heads_only(obs_size()), &good, safetensors::Dtype::F64)).unwrap_err();
    assert!(e.0.contains("F64") && e.0.contains("F32") && e.0.contains("F16"), "{e}");

    // Not safetensors at all, or cut short.
    let bytes = tiny().to_bytes();
    for bad in [&b"hello"[..], &bytes[..bytes.len() - 3], &[]] {
        let e = Network::from_bytes(bad).unwrap_err();
        assert!(e.0.contains("not a safetensors file"), "{e}");
    }
    let e = Network::load(std::path::Path::new("/nonexistent/net.safetensors")).unwrap_err();
    assert!(e.0.contains("/nonexistent/net.safetensors"), "{e}");
}

/// A mid-game position (after `moves` first-legal moves) of game `seed`.
fn position(seed: u64, moves: usize) -> State {
    let mut s = new_game(&Setup::default(), seed).unwrap();
    let h = HeuristicAgent::fast(seed);
    for _ in 0..moves {
        if s.is_over() {
            break;
        }
        let a = h.act(&s);
        apply_legal(&mut s, action_table().actions[a]);
    }
    s
}

#[test]
fn network_agent_plays_legal_greedy_moves() {
    let net = Arc::new(Network::random(&[16], 1));
    let mut agent = NetworkAgent::new(net.clone());
    let mut s = new_game(&Setup::default(), 9).unwrap();
    while !s.is_over() {
        let a = agent.act(&s);
        let mask = legal_mask(&s);
        assert!(mask.get(a));
        let (logits, _) = forward_one(&net, &observation(&s));
        assert!(mask.iter().all(|b| logits[b] <= logits[a]));
        assert_eq!(masked_argmax(&logits, &mask), Some(a));
        apply_legal(&mut s, action_table().actions[a]);
    }
}

/// A heuristic-input network whose logits are its plane weights alone (trunk-free, zero heads).
fn planes_only(prior: [f32; HEURISTIC_PLANES]) -> Network {
    let d = Inputs::ObservationHeuristic.size();
    let policy = (Array2::zeros((NUM_ACTIONS, d)), Array1::zeros(NUM_ACTIONS));
    let value = (Array2::zeros((1, d)), Array1::zeros(1));
    Network::with_inputs(Inputs::ObservationHeuristic, vec![], policy, value, Array1::from(prior.to_vec()), BTreeMap::new()).unwrap()
}

#[test]
fn heuristic_planes_hold_its_ranking_and_score_gaps() {
    let h = HeuristicAgent::new(0);
    let mut planes = vec![0.0; HEURISTIC_PLANES * NUM_ACTIONS];
    let mut checked = 0;
    for (seed, moves) in [(1, 0), (2, 7), (3, 15), (4, 30), (5, 44)] {
        let s = position(seed, moves);
        if s.is_over() {
            continue;
        }
        let obs = observation(&s);
        write_heuristic_planes(&obs, &mut planes).unwrap();
        let seen = state_from_observation(&obs, 0).unwrap();
        let ranked = h.ranked(&seen, &mut h.rng_for(&seen));
        let best = ranked[0].1 as f32;
        for r in 0..HEURISTIC_RANKS {
            let plane = &planes[r * NUM_ACTIONS..(r + 1) * NUM_ACTIONS];
            match ranked.get(r) {
                Some(&(a, _)) => assert!(plane[a] == 1.0 && plane.iter().sum::<f32>() == 1.0),
                None => assert!(plane.iter().all(|&x| x == 0.0)),
            }
        }
        let gaps = &planes[HEURISTIC_RANKS * NUM_ACTIONS..];
        for (a, g) in gaps.iter().enumerate() {
            let want = match ranked.iter().take(HEURISTIC_RANKS).find(|x| x.0 == a) {
                Some(&(_, score)) => ((best - score as f32) / GAP_SCALE).tanh(),
                None => 0.0,
            };
            assert_eq!(*g, want, "action {a}");
            assert!((0.0..1.0).contains(g));
        }
        checked += 1;
    }
    assert!(checked >= 4);
}

#[test]
fn plane_weights_are_added_to_the_logits() {
    let prior = [3.0, 1.0, 0.5, 0.25, -2.0];
    let net = planes_only(prior);
    let s = position(6, 3);
    let mut input = Vec::new();
    net.write_state_input(&s, &mut input);
    assert_eq!(input.len(), obs_size() + HEURISTIC_PLANES * NUM_ACTIONS);
    assert_eq!(&input[..obs_size()], &observation(&s)[..]);
    let mut logits = vec![0.0; NUM_ACTIONS];
    let v = net.forward_into(&input, &mut logits, &mut Scratch::default());
    assert_eq!(v, 0.5);
    for a in 0..NUM_ACTIONS {
        let want: f32 = (0..HEURISTIC_PLANES).map(|c| prior[c] * input[obs_size() + c * NUM_ACTIONS + a]).sum();
        assert!((logits[a] - want).abs() < 1e-6, "action {a}: {} against {want}", logits[a]);
    }
    // With the heuristic's first choice weighted highest, the network alone plays the heuristic.
    let mut agent = NetworkAgent::new(Arc::new(net));
    let seen = state_from_observation(&observation(&s), 0).unwrap();
    assert_eq!(agent.act(&s), HeuristicAgent::new(0).act(&seen));
}

#[test]
fn heuristic_input_networks_round_trip_and_ignore_the_hidden_deck() {
    let net = Network::random_with_inputs(Inputs::ObservationHeuristic, &[24], 2);
    let bytes = net.to_bytes();
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.inputs(), Inputs::ObservationHeuristic);
    assert_eq!(back.metadata["format"], NETWORK_FORMAT_V2);
    assert_eq!(back.metadata["inputs"], "observation+heuristic4");
    let s = position(8, 10);
    let (mut la, mut lb) = (vec![0.0; NUM_ACTIONS], vec![0.0; NUM_ACTIONS]);
    let mut input = Vec::new();
    net.write_state_input(&s, &mut input);
    let va = net.forward_into(&input, &mut la, &mut Scratch::default());
    let vb = back.forward_into(&input, &mut lb, &mut Scratch::default());
    assert!(la == lb && va == vb, "the file keeps every weight");
    // The same position with another hidden deck order: the same input, the same move.
    let mut other = s.clone();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(99);
    maquis::maquis::determinize(&mut other, &mut rng);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    back.write_state_input(&s, &mut a);
    back.write_state_input(&other, &mut b);
    assert_eq!(a, b);
    let mut agent = NetworkAgent::new(Arc::new(back));
    assert_eq!(agent.act(&s), agent.act(&other));
}

#[test]
fn inputs_in_the_metadata_are_checked() {
    let fp = observation_fingerprint();
    let wide = Inputs::ObservationHeuristic.size();
    let mut with_prior = heads_only(wide);
    with_prior.push(("prior.weight", vec![HEURISTIC_PLANES], vec![1.0; HEURISTIC_PLANES]));
    let v2 = [("format", NETWORK_FORMAT_V2), ("observation", fp.as_str()), ("inputs", "observation+heuristic4")];
    assert_eq!(Network::from_bytes(&file(&with_prior, &v2, safetensors::Dtype::F32)).unwrap().inputs(), Inputs::ObservationHeuristic);
    // v2 naming the observation alone is a v1 network.
    let v2_obs = [("format", NETWORK_FORMAT_V2), ("observation", fp.as_str()), ("inputs", "observation")];
    let net = Network::from_bytes(&file(&heads_only(obs_size()), &v2_obs, safetensors::Dtype::F32)).unwrap();
    assert_eq!((net.inputs(), net.metadata["format"].as_str()), (Inputs::Observation, NETWORK_FORMAT));

    let e = Network::from_bytes(&file(&with_prior, &v2[..2], safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("inputs") && e.0.contains(NETWORK_FORMAT_V2), "{e}");
    let unknown = [("format", NETWORK_FORMAT_V2), ("observation", fp.as_str()), ("inputs", "observation+oracle")];
    let e = Network::from_bytes(&file(&with_prior, &unknown, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("observation+oracle") && e.0.contains("observation+heuristic4"), "{e}");
    let v1_named = [("format", NETWORK_FORMAT), ("observation", fp.as_str()), ("inputs", "observation+heuristic4")];
    let e = Network::from_bytes(&file(&with_prior, &v1_named, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains(NETWORK_FORMAT) && e.0.contains("observation alone"), "{e}");
    // The planes' tensor: missing, mis-shaped, or stray in an observation network.
    let e = Network::from_bytes(&file(&heads_only(wide), &v2, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("prior.weight") && e.0.contains("missing"), "{e}");
    let mut bad = heads_only(wide);
    bad.push(("prior.weight", vec![3], vec![1.0; 3]));
    let e = Network::from_bytes(&file(&bad, &v2, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("prior.weight") && e.0.contains(&format!("({HEURISTIC_PLANES},)")), "{e}");
    let mut narrow = heads_only(obs_size());
    narrow.push(("prior.weight", vec![HEURISTIC_PLANES], vec![1.0; HEURISTIC_PLANES]));
    let e = Network::from_bytes(&file(&narrow, &v2, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("policy") && e.0.contains(&wide.to_string()), "{e}");
    let mut stray = heads_only(obs_size());
    stray.push(("prior.weight", vec![HEURISTIC_PLANES], vec![1.0; HEURISTIC_PLANES]));
    let v1 = [("format", NETWORK_FORMAT), ("observation", fp.as_str())];
    let e = Network::from_bytes(&file(&stray, &v1, safetensors::Dtype::F32)).unwrap_err();
    assert!(e.0.contains("prior.weight"), "{e}");
}

fn guided(sims: u32) -> GuidedSearch {
    GuidedSearch::new(Arc::new(Network::random(&[32], 7)), sims, 11)
}

/// `guided(sims)` with some settings changed by `f`.
fn guided_with(sims: u32, f: impl FnOnce(&mut GuidedSettings)) -> GuidedSearch {
    let mut g = guided(sims);
    f(&mut g.settings);
    g
}

#[test]
fn guided_search_with_settings_takes_every_setting() {
    let o = GuidedSettings { simulations: 7, gumbel_scale: 0.5, ..NETWORK_SEARCH_DEFAULTS };
    let g = GuidedSearch::with_settings(Arc::new(Network::random(&[8], 1)), 3, &o);
    assert_eq!(g.settings, o);
    assert_eq!(g.seed, 3);
    // new()'s own settings differ from the agent's defaults, so the copy is not vacuous
    let plain = guided(7);
    assert!(plain.settings.candidates != o.candidates && plain.settings.progress_bonus != o.progress_bonus);
}

#[test]
fn guided_search_returns_a_legal_action_and_a_proper_improved_policy() {
    for (seed, moves) in [(1, 3), (2, 10), (3, 25)] {
        let s = position(seed, moves);
        if s.is_over() {
            continue;
        }
        for g in [guided(24), guided_with(16, |o| (o.depth, o.rollout_mix, o.gumbel_scale) = (3, 0.5, 1.0))] {
            let r = g.search(&s);
            let mask = legal_mask(&s);
            assert!(mask.get(r.action));
            let total: f32 = r.policy.iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            assert!((0..NUM_ACTIONS).all(|a| mask.get(a) || r.policy[a] == 0.0));
            assert!((0.0..=1.0).contains(&r.value) && (0.0..=1.0).contains(&r.net_value));
            if mask.count() > 1 {
                let visits: u32 = r.candidates.iter().map(|c| c.1).sum();
                assert!(visits >= g.settings.simulations.min(8), "{visits}");
                assert!(r.candidates.iter().all(|c| mask.get(c.0) && (0.0..=1.0).contains(&c.2)));
            }
        }
    }
}

#[test]
fn guided_search_never_sees_the_hidden_deck() {
    // The same observation with other hidden deck orders (and RNGs): the same decision and stats.
    let g = guided_with(32, |o| o.depth = 2);
    for (seed, moves) in [(4, 2), (5, 9), (6, 20)] {
        let s = position(seed, moves);
        if s.is_over() {
            continue;
        }
        let obs = observation(&s);
        let r = g.search(&s);
        for other in [100, 200] {
            let t = state_from_observation(&obs, other).unwrap();
            let q = g.search(&t);
            assert_eq!((q.action, &q.policy, q.value), (r.action, &r.policy, r.value));
        }
    }
}

#[test]
fn guided_search_prefers_the_prior_when_the_values_tie() {
    // A network whose value is constant: the search keeps the prior's best candidate.
    let s = position(8, 4);
    let net = Arc::new(tiny());
    let g = GuidedSearch::new(net.clone(), 32, 0);
    let r = g.search(&s);
    let (logits, _) = forward_one(&net, &observation(&s));
    assert_eq!(Some(r.action), masked_argmax(&logits, &legal_mask(&s)));
}

#[test]
fn guided_search_adds_the_heuristics_best_moves_to_its_candidates() {
    // One network candidate and the heuristic's best three: all four are searched, and with the
    // prior's weight 0 the choice is the survivor with the best mean leaf value.
    let mut checked = 0;
    for (seed, moves) in [(1, 3), (2, 10), (3, 25), (5, 40), (6, 2), (7, 5), (8, 1)] {
        let s = position(seed, moves);
        if s.is_over() || legal_mask(&s).count() < 5 {
            continue;
        }
        let g = guided_with(48, |o| {
            (o.candidates, o.heuristic_candidates, o.prior_weight, o.rollout_mix, o.depth) = (1, 3, 0.0, 1.0, 0)
        });
        let r = g.search(&s);
        let h = HeuristicAgent::new(11);
        let ranked = h.ranked(&s, &mut h.rng_for(&s));
        if !worth_searching(&s, &ranked[..3]) {
            // Left to the heuristic's lookahead, as in the plain search.
            assert_eq!((r.action, r.candidates.len()), (ranked[0].0, 1));
            continue;
        }
        let best3: Vec<usize> = ranked.iter().take(3).map(|c| c.0).collect();
        assert!(best3.iter().all(|a| r.candidates.iter().any(|c| c.0 == *a)), "{best3:?} {:?}", r.candidates);
        assert!((3..=4).contains(&r.candidates.len()));
        assert!(r.candidates.iter().all(|c| c.1 > 0));
        // The survivors of the halving are the most visited; the choice is the best of them.
        let most = r.candidates.iter().map(|c| c.1).max().unwrap();
        let top = r.candidates.iter().filter(|c| c.1 == most).map(|c| c.2).fold(f32::NEG_INFINITY, f32::max);
        let chosen = r.candidates.iter().find(|c| c.0 == r.action).unwrap();
        assert_eq!((chosen.1, chosen.2), (most, top), "{:?}", r.candidates);
        checked += 1;
    }
    assert!(checked >= 2, "too few positions with 5 legal actions");
}

#[test]
fn selfplay_samples_are_consistent_and_thread_independent() {
    let setups = [Setup::default(), Setup { difficulty: Difficulty::VeryHard, ..Setup::default() }];
    let teacher = Teacher::Guided(guided_with(8, |o| o.gumbel_scale = 1.0));
    let a = play_games(&teacher, &setups, &[1, 2, 3], 1).unwrap();
    let b = play_games(&teacher, &setups, &[1, 2, 3], 2).unwrap();
    assert_eq!((&a.obs, &a.policy, &a.game, &a.game_outcomes), (&b.obs, &b.policy, &b.game, &b.game_outcomes));
    let n = a.len();
    assert!(n > 0);
    assert_eq!(a.obs.len(), n * obs_size());
    assert_eq!(a.masks.len(), n * NUM_ACTIONS);
    assert_eq!(a.game_outcomes.len(), 3);
    for i in 0..n {
        let mask = &a.masks[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        let p = &a.policy[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        assert!(mask.iter().filter(|&&m| m).count() > 1, "only decisions are recorded");
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(p.iter().zip(mask).all(|(&x, &m)| m || x == 0.0));
        let o = Outcome::ALL[a.game_outcomes[a.game[i] as usize] as usize];
        assert_eq!(a.outcome[i], maquis::maquis::agents::guided::OUTCOME_VALUES[o.idx()]);
        // The observation decodes to a state whose legal actions are the mask.
        let s = state_from_observation(&a.obs[i * obs_size()..(i + 1) * obs_size()], 0).unwrap();
        let legal = legal_mask(&s);
        assert!((0..NUM_ACTIONS).all(|k| legal.get(k) == mask[k]));
    }
    // Imitation data: one-hot targets of the teacher's move.
    let h = play_games(&Teacher::Heuristic(HeuristicAgent::new(0)), &setups[..1], &[4], 1).unwrap();
    for i in 0..h.len() {
        let p = &h.policy[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        assert_eq!(p.iter().filter(|&&x| x == 1.0).count(), 1);
        assert_eq!(h.root_value[i], h.outcome[i]);
    }
}

#[test]
fn clairvoyant_is_deterministic_and_beats_fair_play_on_the_same_deals() {
    let setup = Setup::default();
    let seeds: Vec<u64> = (0..6).collect();
    let cv = Clairvoyant::new(3, 1, 0);
    let a = clairvoyant_outcomes(&cv, &setup, &seeds, 2).unwrap();
    let b = clairvoyant_outcomes(&cv, &setup, &seeds, 1).unwrap();
    let value = |s: &State| maquis::maquis::agents::guided::outcome_value(s);
    assert_eq!(a.iter().map(|s| s.outcome).collect::<Vec<_>>(), b.iter().map(|s| s.outcome).collect::<Vec<_>>());
    // The heuristic on the same deals, fair play.
    let h = HeuristicAgent::new(0);
    let fair: f32 = seeds
        .iter()
        .map(|&g| {
            let mut s = new_game(&setup, g).unwrap();
            while !s.is_over() {
                let x = h.act(&s);
                apply_legal(&mut s, action_table().actions[x]);
            }
            value(&s)
        })
        .sum();
    let seen: f32 = a.iter().map(value).sum();
    assert!(a.iter().all(|s| s.is_over()));
    assert!(seen > fair, "clairvoyant {seen} vs heuristic {fair} over {} games", seeds.len());
}

/// Half-precision files (the shipped network's storage) load as the same network rounded to f16.
#[test]
fn float16_and_bfloat16_files_load_widened_to_f32() {
    let fp = observation_fingerprint();
    let meta = [("format", NETWORK_FORMAT), ("observation", fp.as_str())];
    let mut heads = heads_only(obs_size());
    // Exactly representable in f16 and bf16: the loaded values must be these, not approximations.
    heads[1].2[5] = 1.5;
    heads[2].2[7] = -0.25;
    heads[3].2[0] = 2.0;
    for dtype in [safetensors::Dtype::F16, safetensors::Dtype::BF16] {
        let net = Network::from_bytes(&file(&heads, &meta, dtype)).unwrap();
        let mut obs = vec![0.0; obs_size()];
        obs[7] = 1.0;
        let (logits, v) = forward_one(&net, &obs);
        assert_eq!(logits[5], 1.5, "{dtype:?}");
        assert_eq!(logits[0], 0.0, "{dtype:?}");
        // value = sigmoid(-0.25 * 1.0 + 2.0)
        assert!((v - 1.0 / (1.0 + (-1.75f32).exp())).abs() < 1e-6, "{dtype:?}: {v}");
    }
}
