//! Fuzzing Maurice Lite's `load_state` and its match saves: saves taken along random games of both
//! scenarios (scenario and random terrain), each mutated by one to three edits
//! (tests/fuzz/mutate.rs). Every mutant is refused with `Error::BadSave`, or loads a state that
//! passes `validate`, round-trips exactly and plays random legal steps on (to the end, or a cap)
//! without a panic, with `validate` and valid observations along the way. `cargo test` runs a
//! short run; a long one: `MAQUIS_FUZZ_CASES=1000000 nice cargo test --release --test
//! maurice_fuzz -- --nocapture` (docs/reliability.md).

#[path = "fuzz/match_saves.rs"]
mod match_saves;
#[path = "fuzz/mutate.rs"]
mod mutate;

use maquis::env::versus::{load_match, save_match};
use maquis::env::IllegalPolicy;
use maquis::error::Error;
use maquis::maurice::env::{EnvConfig, EnvSlot, Opponent, OpponentKind, Rewards, Setup as EnvSetup};
use maquis::maurice::observation::ObservationKind;
use maquis::maurice::save::validate;
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::{self, load_state, save_state, ScenarioId, Setup, Side, State};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

fn setup(g: u64) -> Setup {
    Setup {
        scenario: if g.is_multiple_of(2) { ScenarioId::Skirmish } else { ScenarioId::Standard },
        terrain: if g.is_multiple_of(3) { TerrainChoice::Random } else { TerrainChoice::Scenario },
        ..Default::default()
    }
}

fn random_step(s: &mut State, rng: &mut ChaCha8Rng) -> bool {
    let legal: Vec<usize> = maurice::legal_mask(s).iter().collect();
    assert!(!legal.is_empty(), "a live game has a legal action (phase {})", s.phase);
    match maurice::apply(s, legal[rng.gen_range(0..legal.len())] as i64) {
        Ok(()) => true,
        // A scripted shuffle that is no permutation of the cards shuffled (N3): refused, the
        // state unchanged; the script cannot be checked before the shuffle comes.
        Err(Error::BadOption(m)) if m.starts_with("shuffles:") => false,
        Err(e) => panic!("a masked action failed: {e}"),
    }
}

/// Saves along random games (every position passes `validate`: the checks refuse no reachable
/// state), about one in `every`, and each game's end.
fn saved_positions(games: u64, every: u32) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    for g in 0..games {
        let mut s = maurice::new_game(g, &setup(g)).unwrap();
        while !s.is_over() {
            validate(&s).unwrap_or_else(|e| panic!("game {g}: a reachable state is refused: {e}"));
            if rng.gen_range(0..every) == 0 {
                out.push(serde_json::from_str(&save_state(&s)).unwrap());
            }
            random_step(&mut s, &mut rng);
        }
        validate(&s).unwrap();
        out.push(serde_json::from_str(&save_state(&s)).unwrap());
    }
    out
}

/// No reachable state is refused: `validate` after every step of random games of both scenarios
/// and terrains, and after every step of env episodes against the heuristic opponent.
#[test]
fn maurice_every_reachable_position_passes_validate() {
    let positions = saved_positions(24, 1_000_000);
    assert!(positions.len() >= 24);
    for (k, kind) in [OpponentKind::Heuristic, OpponentKind::Random].into_iter().enumerate() {
        let cfg = env_cfg(kind, if k == 0 { Side::Red } else { Side::Blue }, if k == 0 { "standard" } else { "skirmish" });
        let mut slot = EnvSlot::new(40 + k as u64);
        slot.reset(&cfg.setup).unwrap();
        while !slot.done() {
            validate(&slot.state().game).unwrap_or_else(|e| panic!("a reachable state is refused: {e}"));
            let a = slot.sample().unwrap();
            slot.step(&cfg, a as i64).unwrap();
        }
        validate(&slot.state().game).unwrap();
    }
}

fn observe_ok(s: &State) {
    for &side in Side::ALL.iter() {
        let o = maurice::observation(s, side, ObservationKind::Full);
        assert!(o.iter().all(|v| (0.0..=1.0).contains(v)), "an observation outside [0, 1]");
    }
    let _ = maurice::state_dict(s);
}

/// Random legal steps from `s` (at most `max_steps`), checking the invariants as it goes.
fn play_on(mut s: State, seed: u64, max_steps: u32) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    observe_ok(&s);
    let mut steps = 0;
    while !s.is_over() && steps < max_steps {
        if !random_step(&mut s, &mut rng) {
            break;
        }
        steps += 1;
        if steps % 16 == 0 || s.is_over() {
            validate(&s).unwrap_or_else(|e| panic!("invariant broken after step {steps}: {e}"));
            observe_ok(&s);
        }
    }
    steps
}

#[test]
fn maurice_mutated_saves_are_refused_or_play_on() {
    let game = mutate::GameSaves {
        name: "maurice_fuzz",
        load: load_state,
        save: save_state,
        validate,
        play_on: |s: State, case| play_on(s, case, 400) as usize,
        _state: std::marker::PhantomData,
    };
    mutate::fuzz_game_saves(&game, &saved_positions(6, 25), 0x3a11, mutate::cases(1_500));
}

fn env_cfg(kind: OpponentKind, side: Side, scenario: &str) -> EnvConfig {
    let setup = EnvSetup { side, opponent: Opponent::bundled(kind, 2), ..EnvSetup::default() };
    let setup = setup.with_options(&json!({ "scenario": scenario }), false).unwrap();
    EnvConfig::new(setup, Rewards::default(), IllegalPolicy::Terminate).unwrap()
}

/// Match saves (the game, the learner, the opponent and its stream) along env episodes against
/// the random and heuristic opponents, mutated anywhere: refused with `BadSave`, or loaded into an
/// env that steps on without a panic and saves again.
#[test]
fn maurice_mutated_match_saves_are_refused_or_play_on() {
    let cfgs = [
        env_cfg(OpponentKind::Random, Side::Blue, "skirmish"),
        env_cfg(OpponentKind::Heuristic, Side::Red, "skirmish"),
        env_cfg(OpponentKind::Heuristic, Side::Blue, "standard"),
    ];
    match_saves::run(&match_saves::MatchFuzz::<maurice::env::MauriceLite> {
        name: "maurice_fuzz",
        cfgs: &cfgs,
        episodes: &[(0, 0), (1, 1), (2, 2)],
        keep_one_in: 10,
        default_cases: 600,
        seed: 0x3a12,
        max_steps: 200,
        validate,
    });
}

/// The fuzzer's findings reported against `load_state`: each was accepted and then panicked in
/// `observe` or `step`, or in `load_state` itself, or gave a live position without a legal action.
#[test]
fn maurice_reported_bad_saves_are_refused_by_name() {
    let positions = saved_positions(6, 3);
    assert!(positions.iter().any(|v| v["state"]["phase"] == "force"), "a position in 'force'");
    let find = |pred: &dyn Fn(&Value) -> bool| positions.iter().find(|v| pred(v)).cloned();
    let refused = |doc: &Value, what: &str, named: &str| match load_state(&doc.to_string()) {
        Err(Error::BadSave(why)) => assert!(why.contains(named), "{what}: {why}"),
        other => panic!("{what} not refused: {:?}", other.map(|s| s.phase)),
    };
    let first = positions[0].clone();
    for (value, named) in [(json!({"x": 3, "y": 64}), "cinc"), (json!({"x": 3, "y": -1}), "cinc"), (json!({"x": 99, "y": 99}), "cinc")]
    {
        let mut d = first.clone();
        d["state"]["armies"][0]["cinc"] = value.clone();
        refused(&d, &format!("cinc {value}"), named);
    }
    for (field, value) in [("y", 31), ("y", 32), ("y", -1), ("x", 45), ("x", 60)] {
        let mut d = first.clone();
        let u = d["state"]["armies"][1]["units"].as_array().unwrap().iter().position(|u| u["present"] == true).unwrap();
        d["state"]["armies"][1]["units"][u]["at"][field] = value.into();
        refused(&d, &format!("at.{field} = {value}"), "at");
    }
    for n in [0, 5, 6, 17, 255] {
        let mut d = first.clone();
        d["state"]["armies"][0]["units"][0]["cells"]["n"] = n.into();
        refused(&d, &format!("cells.n = {n}"), "cells");
    }
    let moving = find(&|v| !v["state"]["round"]["moving"].is_null()).expect("a position with a moving unit");
    for id in [16, 19, 255] {
        let mut d = moving.clone();
        d["state"]["round"]["moving"]["id"] = id.into();
        refused(&d, &format!("moving.id = {id}"), "round.moving.id");
        let mut d = moving.clone();
        d["state"]["round"]["moving"]["start"]["id"] = id.into();
        refused(&d, &format!("moving.start.id = {id}"), "round.moving.start");
    }
    for k in 0..2 {
        for slot in 0..2 {
            let mut d = first.clone();
            d["state"]["round"]["modifiers"][k][slot] = "reshuffle".into();
            refused(&d, "a reshuffle modifier", "round.modifiers");
        }
    }
    // A force named before the command (found by the fuzzer: force 0 -> 1 in `volley_interrupt`
    // reached a `force` phase where no unit could be named or confirmed).
    let before_command = find(&|v| v["state"]["round"]["command"].is_null() && v["state"]["phase"] != "game_over")
        .expect("a position before the command");
    for bit in [0, 3, 15] {
        let mut d = before_command.clone();
        d["state"]["round"]["force"] = (1u32 << bit).into();
        refused(&d, &format!("force bit {bit} before the command"), "round.force");
    }
    let with_distance = find(&|v| !v["state"]["round"]["distance"].is_null() && v["state"]["phase"] != "game_over")
        .expect("a position with a distance");
    for (d_value, named) in [(65535u32, "round.distance"), (u32::MAX, "round.distance")] {
        let mut d = with_distance.clone();
        d["state"]["round"]["distance"] = d_value.into();
        refused(&d, &format!("distance {d_value}"), named);
    }
    // Whatever is accepted has a legal action and plays on.
    let live: Vec<&Value> = positions.iter().filter(|v| v["state"]["phase"] != "game_over").collect();
    for (i, v) in live.iter().enumerate().take(40) {
        let mut edits: Vec<Value> = Vec::new();
        for d_value in [0, 1, 8, 64, 191] {
            let mut d = (*v).clone();
            d["state"]["round"]["distance"] = d_value.into();
            edits.push(d);
        }
        let mut d = (*v).clone();
        d["state"]["round"]["command"] = Value::Null;
        edits.push(d);
        // A force that no naming can complete (found by the fuzzer: force 0 -> 1 in `force`).
        if v["state"]["phase"] == "force" {
            for bit in 0..16 {
                let mut d = (*v).clone();
                d["state"]["round"]["force"] = (1u32 << bit).into();
                edits.push(d);
            }
        }
        for side in 0..2 {
            for u in 0..16 {
                if v["state"]["armies"][side]["units"][u]["on_table"] == true {
                    let mut d = (*v).clone();
                    d["state"]["armies"][side]["units"][u]["on_table"] = false.into();
                    edits.push(d);
                }
            }
        }
        for d in edits {
            if let Ok(s) = load_state(&d.to_string()) {
                assert!(!maurice::legal_mask(&s).is_empty(), "position {i}: a loaded live game without a legal action");
                play_on(s, i as u64, 60);
            }
        }
    }
}

/// Streams past what a save can hold again are refused, in the game and in a match's opponent.
#[test]
fn maurice_stream_positions_past_the_saveable_are_refused() {
    let s = maurice::new_game(3, &Setup::default()).unwrap();
    let doc: Value = serde_json::from_str(&save_state(&s)).unwrap();
    for path in ["/state/dice/rng/word_pos", "/state/shuffler/rng/word_pos"] {
        let mut d = doc.clone();
        *d.pointer_mut(path).unwrap() = json!(u64::MAX);
        assert!(matches!(load_state(&d.to_string()), Err(Error::BadSave(w)) if w.contains("word_pos")), "{path}");
    }
    let cfg = env_cfg(OpponentKind::Heuristic, Side::Blue, "skirmish");
    let mut slot = EnvSlot::new(1);
    slot.reset(&cfg.setup).unwrap();
    let text = save_match(slot.state());
    let opponent = text.find("\"opponent\"").unwrap();
    let pos = opponent + text[opponent..].find("\"word_pos\":").unwrap();
    let end = pos + text[pos..].find(['}', ',']).unwrap();
    let bad = format!("{}\"word_pos\":18446744073709551616{}", &text[..pos], &text[end..]);
    match load_match::<maurice::env::MauriceLite>(&bad) {
        Err(Error::BadSave(w)) => assert!(w.contains("word_pos"), "{w}"),
        other => panic!("not refused: {:?}", other.is_ok()),
    }
}
