//! The shared environment machinery over Maurice Lite (`Versus<MauriceLite>`): a slot plays whole
//! episodes against each bundled opponent from both seats with the learner always to move; the
//! vector engine is deterministic across thread counts and agrees with lone slots; a match save
//! round-trips with the opponent's stream; illegal actions are refused or lose; reset options
//! parse and bad ones are refused by name.

use maquis::env::versus::load_match;
use maquis::maurice::env::MauriceLite;
use maquis::env::IllegalPolicy;
use maquis::error::Error;
use maquis::game::Game;
use maquis::maurice::env::{
    morale_margin, EnvConfig, EnvSlot, LearnerOutcome, Match, Maurice, Opponent, OpponentKind, Rewards,
    Setup,
};
use maquis::maurice::Side;
use maquis::vector;
use serde_json::json;

fn skirmish() -> serde_json::Value {
    json!({"scenario": "skirmish"})
}

fn cfg(side: Side, kind: OpponentKind, budget: u32) -> EnvConfig {
    let setup = Setup { side, opponent: Opponent { kind, budget }, ..Setup::default() };
    let setup = setup.with_options(&skirmish(), false).unwrap();
    EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
}

/// Plays a whole episode with the slot's sampler; the actions, the final save and the last reward.
fn episode(cfg: &EnvConfig, stream: u64) -> (Vec<usize>, String, f64) {
    let mut slot = EnvSlot::new(stream);
    slot.reset(&cfg.setup).unwrap();
    let mut actions = Vec::new();
    let mut reward = 0.0;
    while !slot.done() {
        assert_eq!(slot.state().to_move(), Some(cfg.setup.side), "the learner decides");
        let a = slot.sample().unwrap();
        actions.push(a);
        reward = slot.step(cfg, a as i64).unwrap().reward;
    }
    (actions, Maurice::save(slot.state()), reward)
}

#[test]
fn the_learner_always_decides_and_games_end_for_both_sides_and_opponents() {
    for side in [Side::Blue, Side::Red] {
        for kind in [OpponentKind::Random, OpponentKind::Heuristic, OpponentKind::Search] {
            let (actions, save, reward) = episode(&cfg(side, kind, 4), 3);
            assert!(!actions.is_empty());
            let m = load_match::<MauriceLite>(&save).unwrap();
            assert!(m.game.is_over());
            let expected = match m.outcome().unwrap() {
                LearnerOutcome::Win => 1.0,
                LearnerOutcome::Draw => 0.0,
                LearnerOutcome::Loss => -1.0,
            };
            assert_eq!(reward, expected, "{side} against {kind:?}");
        }
    }
}

#[test]
fn same_stream_same_episode() {
    let c = cfg(Side::Red, OpponentKind::Heuristic, 4);
    assert_eq!(episode(&c, 11), episode(&c, 11));
    // Same game seed, different opponents: the deal is the same (the opponent draws from its own stream).
    let a = Match::new(&cfg(Side::Red, OpponentKind::Random, 4).setup, 5).unwrap();
    let b = Match::new(&cfg(Side::Red, OpponentKind::Heuristic, 4).setup, 5).unwrap();
    assert_eq!(a.game.army(Side::Red).hand, b.game.army(Side::Red).hand);
}

#[test]
fn match_save_round_trips_with_the_opponent_stream() {
    for kind in [OpponentKind::Random, OpponentKind::Heuristic, OpponentKind::Search] {
        let c = cfg(Side::Red, kind, 4);
        let mut slot = EnvSlot::new(9);
        slot.reset(&c.setup).unwrap();
        for _ in 0..5 {
            if slot.done() {
                break;
            }
            let a = slot.sample().unwrap();
            slot.step(&c, a as i64).unwrap();
        }
        let save = Maurice::save(slot.state());
        let loaded = load_match::<MauriceLite>(&save).unwrap();
        assert_eq!(&loaded, slot.state());
        // The loaded match goes on exactly as the original (same opponent play, same dice).
        let mut other = EnvSlot::new(9);
        other.reset(&c.setup).unwrap();
        other.set_state(loaded);
        for _ in 0..20 {
            if slot.done() {
                break;
            }
            let a = slot.sample().unwrap();
            slot.step(&c, a as i64).unwrap();
            other.step(&c, a as i64).unwrap();
            assert_eq!(slot.state(), other.state());
        }
    }
    assert!(load_match::<MauriceLite>("{}").is_err());
    let c = cfg(Side::Blue, OpponentKind::Random, 4);
    let mut slot = EnvSlot::new(1);
    slot.reset(&c.setup).unwrap();
    assert!(load_match::<MauriceLite>(&Maurice::save(slot.state()).replace("\"version\":1", "\"version\":2")).is_err());
}

#[test]
fn illegal_actions_refused_with_the_phase_or_terminate_with_a_loss() {
    let mut c = cfg(Side::Blue, OpponentKind::Random, 4);
    c.setup = c.setup.with_options(&json!({"scenario": "skirmish", "first": "blue"}), false).unwrap();
    let mut slot = EnvSlot::new(1);
    slot.reset(&c.setup).unwrap();
    // At blue's volley choice, `pass` (a command) is illegal.
    let t = slot.step(&c, 2).unwrap();
    assert!(t.terminated && t.illegal && t.outcome == Some(LearnerOutcome::Loss) && t.reward == -1.0);
    c.illegal = IllegalPolicy::Raise;
    slot.reset(&c.setup).unwrap();
    let before = slot.state().clone();
    let e = slot.step(&c, 2).unwrap_err();
    assert!(e.to_string().contains("volley_choice"), "{e}");
    assert_eq!(slot.state(), &before);
    assert!(matches!(slot.step(&c, 1447), Err(Error::ActionOutOfRange { .. })));
}

#[test]
fn morale_margin_is_the_learner_margin() {
    let mut c = cfg(Side::Red, OpponentKind::Heuristic, 4);
    c.rewards = Rewards::Margin;
    let mut slot = EnvSlot::new(4);
    slot.reset(&c.setup).unwrap();
    let mut r = 0.0;
    while !slot.done() {
        let a = slot.sample().unwrap();
        r = slot.step(&c, a as i64).unwrap().reward;
    }
    assert!((r - morale_margin(&slot.state().game, Side::Red)).abs() < 1e-9);
    assert!((-1.0..=1.0).contains(&r));
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

/// The batch engine over `Maurice`: the same trajectories for any number of threads, and env `i`
/// the same as a lone slot with env `i`'s stream seed.
#[test]
fn vector_engine_same_for_any_thread_count_and_as_single_slots() {
    let c = cfg(Side::Red, OpponentKind::Heuristic, 4);
    vector::conformance::same_for_any_thread_count_and_as_single_slots(&c, 3, 150).unwrap();
}
