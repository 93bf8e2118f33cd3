//! The shared environment machinery over Maurice Lite (`Versus<MauriceLite>`), what only Maurice
//! Lite has: the deal does not depend on the opponent, an illegal action is refused naming the
//! phase, the morale margin, reset options parse and bad ones are refused by name. The contract
//! every game keeps (episodes, saves, seeding, illegal actions, the vector engine) is
//! tests/conformance.rs.

use maquis::env::IllegalPolicy;
use maquis::maurice::env::{EnvConfig, EnvSlot, Match, Opponent, OpponentKind, Rewards, Setup};
use maquis::maurice::Side;
use serde_json::json;

fn skirmish() -> serde_json::Value {
    json!({"scenario": "skirmish"})
}

fn cfg(side: Side, kind: OpponentKind, budget: u32) -> EnvConfig {
    let setup = Setup { side, opponent: Opponent::bundled(kind, budget), ..Setup::default() };
    let setup = setup.with_options(&skirmish(), false).unwrap();
    EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
}

#[test]
fn the_deal_does_not_depend_on_the_opponent() {
    // Same game seed, different opponents: the deal is the same (the opponent draws from its own stream).
    let a = Match::new(&cfg(Side::Red, OpponentKind::Random, 4).setup, 5).unwrap();
    let b = Match::new(&cfg(Side::Red, OpponentKind::Heuristic, 4).setup, 5).unwrap();
    assert_eq!(a.game.army(Side::Red).hand, b.game.army(Side::Red).hand);
}

#[test]
fn an_illegal_action_is_refused_naming_the_phase() {
    // The rest of the contract on illegal actions is tests/conformance.rs, for every game.
    let mut c = cfg(Side::Blue, OpponentKind::Random, 4);
    c.setup = c.setup.with_options(&json!({"scenario": "skirmish", "first": "blue"}), false).unwrap();
    c.illegal = IllegalPolicy::Raise;
    let mut slot = EnvSlot::new(1);
    slot.reset(&c.setup).unwrap();
    // At blue's volley choice, `pass` (a command) is illegal.
    let e = slot.step(&c, 2).unwrap_err();
    assert!(e.to_string().contains("volley_choice"), "{e}");
}

#[test]
fn reset_options_parse_and_refuse_by_name() {
    let base = Setup::default();
    let s = base
        .with_options(
            &json!({"side": "red", "opponent": "random", "scenario": "skirmish", "dice": [1, 2], "first": "red",
                    "morale": {"blue": 2, "red": 3}, "cinc": {"blue": [22, 1], "red": [22, 28]}, "terrain": "random"}),
            true,
        )
        .unwrap();
    assert_eq!((s.side, s.opponent.kind), (Side::Red, OpponentKind::Random));
    let m = Match::new(&s, 7).unwrap();
    assert_eq!((m.game.army(Side::Blue).morale, m.game.army(Side::Red).morale), (2, 3));
    // Units, hands and deck, shuffles, a terrain map.
    let units = json!({
        "blue": [{"id": 0, "type": "inf", "formation": "line", "x": 10, "y": 7, "facing": "n"},
                 {"id": 1, "type": "cav", "formation": "massed", "x": 20, "y": 7, "facing": "n", "disr": 1}],
        "red": [{"id": 0, "type": "art", "formation": "artillery", "x": 30, "y": 20, "facing": "s", "smoke": true}]});
    let s = base.with_options(&json!({"units": units}), false).unwrap();
    let m = Match::new(&s, 1).unwrap();
    assert_eq!(m.game.army(Side::Blue).morale_start, 1);
    assert!(m.game.unit(Side::Red, 0).smoke);
    let map = maquis::maurice::terrain::TerrainMap::from(&*m.game.terrain);
    assert!(base.with_options(&json!({"terrain": map}), false).is_ok());
    let deal = maquis::maurice::view::state_dict(&m.game);
    let cards = json!({"hands": deal["hands"], "deck": deal["deck"]});
    assert!(base.with_options(&cards, false).is_ok(), "{cards}");
    // Refusals name the key or the value.
    let refused = |opts: serde_json::Value, needle: &str| {
        let e = base.with_options(&opts, true).unwrap_err().to_string();
        assert!(e.contains(needle), "{opts} -> {e}");
    };
    refused(json!({"side": "green"}), "green");
    refused(json!({"opponent": "genius"}), "genius");
    refused(json!({"bogus": 1}), "bogus");
    refused(json!({"scenario": "grand"}), "grand");
    refused(json!({"terrain": "hills"}), "terrain");
    refused(json!({"dice": [7]}), "dice");
    refused(json!({"first": "green"}), "first");
    refused(json!({"morale": {"blue": 9, "red": 1}}), "morale");
    refused(json!({"morale": {"blue": 1}}), "red");
    refused(json!({"cinc": {"blue": [50, 1], "red": [1, 1]}}), "cinc");
    refused(json!({"hands": {"blue": [], "red": []}}), "deck");
    refused(json!({"shuffles": [["ace"]]}), "shuffles");
    refused(json!({"units": {"blue": [{"id": 0, "type": "tank", "formation": "line", "x": 1, "y": 1, "facing": "n"}], "red": []}}), "tank");
    refused(json!({"units": {"blue": [{"id": 0, "type": "inf", "formation": "line", "x": 1, "y": 1, "facing": "n", "colour": 1}], "red": []}}), "colour");
    assert!(base.with_options(&json!({"side": "red"}), false).is_err());
    assert!(base.with_options(&json!([1]), true).is_err());
}

/// The learner's random legal action in `m` from `rng`.
fn random_action(m: &Match, rng: &mut u64) -> i64 {
    let mask = maquis::maurice::legal_mask(&m.game);
    *rng = maquis::draw::splitmix64(*rng);
    mask.nth((*rng % mask.count() as u64) as u32).unwrap() as i64
}

#[test]
fn the_bundled_opponents_decide_as_from_their_whole_observation() {
    // `TwoPlayer::decide` gives the random agent no observation and the heuristic only what it
    // reads: the same decisions as the agent given its whole observation, position by position.
    use maquis::game::Game;
    use maquis::maurice::agents::{Agent, AnyAgent};
    use maquis::maurice::env::Maurice;
    use maquis::maurice::{apply, decode, legal_mask, new_game, write_observation, OBSERVATION_SIZE};
    for (kind, id, games) in [(OpponentKind::Random, "random", 6), (OpponentKind::Heuristic, "heuristic", 3)] {
        for g in 0..games {
            let side = if g % 2 == 0 { Side::Blue } else { Side::Red };
            let c = cfg(side, kind, 4);
            let mut fast = Match::new(&c.setup, 100 + g).unwrap();
            // The reference: the opponent reads its whole observation at each decision.
            let setup = c.setup.scenario.setup().unwrap();
            let opponent = AnyAgent::by_id(id, maquis::maurice::env::opponent_seed(100 + g), 4).unwrap();
            let mut reference = Match { game: new_game(100 + g, &setup).unwrap(), learner: side, opponent: Some(opponent) };
            let mut obs = vec![0f32; OBSERVATION_SIZE];
            let mut rng = g;
            loop {
                while let Some(s) = reference.game.to_move.filter(|&s| s != side) {
                    let mask = legal_mask(&reference.game);
                    write_observation(&reference.game, s, &mut obs[..]);
                    let a = reference.opponent.as_mut().unwrap().act(&obs, &mask);
                    apply(&mut reference.game, a as i64).unwrap();
                }
                assert_eq!(fast, reference, "{id} opponent, game {g}");
                if fast.game.to_move.is_none() {
                    break;
                }
                let a = random_action(&fast, &mut rng);
                <Maurice as Game>::apply_legal(&mut fast, decode(a).unwrap());
                apply(&mut reference.game, a).unwrap();
            }
        }
    }
}

#[test]
fn a_vector_envs_rows_written_in_place_are_the_whole_observation() {
    // The rows of a vector env are updated in place (the maps' terrain left, the units' and
    // CinCs' cells cleared and set): after every step each is the observation written whole,
    // and its mask, handed over by the rules' settling, the state's legal mask.
    use maquis::env::Autoreset;
    use maquis::maurice::env::VecEngine;
    use maquis::maurice::{write_observation, OBSERVATION_SIZE};
    use maquis::obs_value::ObsValue;
    use maquis::vector::RowBuffers;
    fn check<T: ObsValue>(terrain: &str, opponent: OpponentKind, n: usize, steps: usize)
    where
        maquis::maurice::env::Maurice: maquis::obs_value::Observes<T>,
    {
        let mut c = cfg(Side::Blue, opponent, 4);
        c.setup = c.setup.with_options(&json!({"scenario": "standard", "terrain": terrain}), false).unwrap();
        let mut engine = VecEngine::new(c, n, 1, Autoreset::NextStep).unwrap();
        let o = OBSERVATION_SIZE;
        let mut rows = RowBuffers::<Vec<T>>::of::<maquis::maurice::env::Maurice>(n);
        let mut whole = vec![T::OFF; o];
        let mut actions = vec![0i64; n];
        engine.seed_all(3);
        for step in 0..=steps {
            if step == 0 {
                engine.reset(None, None, None, &mut rows.out()).unwrap();
            } else {
                engine.sample_actions(&mut actions);
                engine.step(&actions, &mut rows.out()).unwrap();
            }
            let obs = rows.obs();
            for i in 0..n {
                let m = engine.slot(i).state();
                write_observation(&m.game, m.learner, &mut whole[..]);
                assert!(obs[i * o..(i + 1) * o] == whole[..], "env {i}, step {step}, {terrain} terrain");
                // The mask settling handed over (`apply_allowed_mask`) is the state's legal mask.
                if !m.game.is_over() {
                    let legal = maquis::maurice::legal_mask(&m.game);
                    assert_eq!(engine.slot(i).mask(), &legal, "env {i}, step {step}: the kept mask");
                    let a = maquis::maurice::NUM_ACTIONS;
                    assert!((0..a).all(|k| rows.masks[i * a + k] == legal.get(k)), "env {i}, step {step}: the mask row");
                }
            }
        }
    }
    check::<u8>("scenario", OpponentKind::Random, 6, 900);
    check::<f32>("random", OpponentKind::Random, 4, 600);
    check::<u8>("random", OpponentKind::Heuristic, 3, 300);
}

#[test]
fn the_shaping_terms_are_the_learners_ground_covered_morale_and_wear_margins() {
    use maquis::env::Shaping;
    use maquis::game::Game;
    use maquis::maurice::env::{morale_margin, wear, Maurice};
    let terms = |m: &Match| {
        let mut out = [0.0; 3];
        <Maurice as Game>::potential_terms(m, &mut out);
        out
    };
    assert_eq!(<Maurice as Game>::POTENTIAL_TERMS.iter().map(|t| t.0).collect::<Vec<_>>(), ["advance", "morale", "wear"]);
    // Blue's one unit is two rows from an enemy: no ground left; red's far unit has ground to cover.
    let opts = json!({"scenario": "skirmish", "units": {
        "blue": [{"id": 0, "type": "inf", "formation": "line", "x": 10, "y": 7, "facing": "n"}],
        "red": [{"id": 0, "type": "inf", "formation": "line", "x": 10, "y": 9, "facing": "s"},
                {"id": 1, "type": "inf", "formation": "line", "x": 40, "y": 27, "facing": "s"}]}});
    let setup = Setup::default().with_options(&opts, false).unwrap();
    let mut m = Match::new(&setup, 3).unwrap();
    assert_eq!(terms(&m)[0], 1.0);
    m.learner = Side::Red;
    let red = terms(&m)[0];
    assert!(red > 0.0 && red < 1.0, "{red}");
    // Into a random game until morale is lost: the morale term is the learner's margin, from
    // either seat.
    let c = cfg(Side::Blue, OpponentKind::Heuristic, 4);
    let mut rng = 11;
    let mut m = (0..20)
        .find_map(|seed| {
            let mut slot = EnvSlot::new(seed);
            slot.reset(&c.setup).unwrap();
            while !slot.done() && morale_margin(&slot.state().game, Side::Blue) == 0.0 {
                slot.step(&c, random_action(slot.state(), &mut rng)).unwrap();
            }
            (!slot.done()).then(|| slot.state().clone())
        })
        .expect("a morale point fell before the end in one of 20 games");
    let blue = terms(&m);
    assert_eq!(blue[1], morale_margin(&m.game, Side::Blue));
    assert_ne!(blue[1], 0.0);
    // A broken unit wears its army most: the side ahead on morale has worn the enemy more.
    assert_eq!(blue[2], wear(&m.game, Side::Red) - wear(&m.game, Side::Blue));
    assert!(blue[2] * blue[1] > 0.0, "{blue:?}");
    m.learner = Side::Red;
    assert_eq!(terms(&m)[1], -blue[1]);
    assert_eq!(terms(&m)[2], -blue[2]);
    // The weighted potential is what the shaping reads (0 once the game is over).
    m.learner = Side::Blue;
    let sh = Shaping::default_for::<Maurice>().unwrap();
    assert_eq!(sh.potential::<Maurice>(&m, false), 0.5 * blue[0] + blue[1] + 0.5 * blue[2]);
    assert_eq!(sh.potential::<Maurice>(&m, true), 0.0);
}
