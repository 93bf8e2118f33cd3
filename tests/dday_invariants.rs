//! Properties of long random games, determinism, saves, the state dict, and the API's action and
//! observation tables.

mod dday_common;
#[path = "fuzz/mutate.rs"]
mod mutate;
use dday_common::*;
use maquis::dday::{
    self, observation, state_dict, FigState, Phase, Scenario, Side, State, Zone, NUM_ACTIONS, OBSERVATION_SIZE,
};
use maquis::Error;
use serde_json::json;

fn new(seed: u64) -> State {
    dday::new_game(seed, &Scenario::default()).unwrap()
}

#[test]
fn dday_q2_every_masked_action_applies_and_every_other_is_refused() {
    for seed in 0..25 {
        random_game(new(seed), seed, |s, _| {
            let m = dday::legal_mask(s);
            for i in 0..NUM_ACTIONS {
                let mut t = s.clone();
                let r = dday::apply(&mut t, i as i64);
                assert_eq!(r.is_ok(), m.get(i), "{} in {:?}", dday::action_names()[i], s.phase);
                assert_eq!(dday::check(s, dday::decode(i as i64).unwrap()).is_ok(), m.get(i));
                if let Err(e) = r {
                    assert_eq!(&t, s, "a refused action changed the state");
                    assert!(matches!(e, Error::IllegalAction { .. }), "{e}");
                    assert!(e.to_string().contains(dday::action_names()[i]));
                }
            }
        });
    }
}

#[test]
fn dday_property_long_random_games_keep_every_invariant() {
    for seed in 0..400 {
        let mut prev: Option<State> = None;
        let end = random_game(new(seed), seed ^ 77, |s, _| {
            assert!(!dday::legal_mask(s).is_empty(), "the mask is never empty before the end");
            for side in [Side::Resistance, Side::German] {
                let o = observation(s, side);
                assert!(o.iter().all(|x| (0.0..=1.0).contains(x)), "observation out of [0, 1]");
            }
            let (r, g) = s.vp.lines().fold((0, 0), |(r, g), l| {
                if l.line.side() == Side::Resistance {
                    (r + l.points as u16, g)
                } else {
                    (r, g + l.points as u16)
                }
            });
            assert_eq!((r, g), s.vp_totals(), "VP totals are the sums of the lines");
            if s.in_skirmish() && s.skirmish.n_figures > 0 {
                let sk = &s.skirmish;
                let c = s.contents()[sk.zone.idx()];
                let germans = 6 * c[0] as usize + 3 * c[4] as usize;
                assert_eq!(sk.figures().iter().filter(|f| f.side() == Side::German).count(), germans);
                assert_eq!(
                    sk.figures().iter().filter(|f| f.side() == Side::Resistance).count(),
                    sk.group_size as usize
                );
                assert!((4..=9).contains(&sk.group_size));
                for sec in 1..=6 {
                    assert!(sk.fighting_in(Side::Resistance, sec) == 0 || sk.fighting_in(Side::German, sec) == 0);
                }
                assert!(sk.figures().iter().all(|f| f.state != FigState::Killed), "killed only at the end");
                if let Some(p) = prev
                    .as_ref()
                    .filter(|p| p.in_skirmish() && p.skirmish_index == s.skirmish_index && p.skirmish.n_figures > 0)
                {
                    for side in 0..2 {
                        assert_eq!(p.skirmish.task[side] & !s.skirmish.task[side], 0, "task sets only grow");
                    }
                    if s.skirmish.turn_number > p.skirmish.turn_number {
                        assert!(s.skirmish.clock < p.skirmish.clock, "the clock falls every turn");
                    }
                    for (a, b) in p.skirmish.figures().iter().zip(s.skirmish.figures()) {
                        let gone = |x: FigState| matches!(x, FigState::Evacuated | FigState::RanAway);
                        assert!(!gone(a.state) || a.state == b.state, "figures off the table never return");
                    }
                }
            }
            dday::validate(s).unwrap();
            prev = Some(s.clone());
        });
        assert!(dday::legal_mask(&end).is_empty());
        assert!(end.outcome.is_some());
        assert!(end.records.iter().all(|r| r.is_some()));
    }
}

#[test]
fn dday_determinism_same_seed_same_game() {
    for seed in 0..20 {
        let a = random_game(new(seed), 5, |_, _| {});
        let b = random_game(new(seed), 5, |_, _| {});
        assert_eq!(a, b);
        assert_eq!(dday::save_state(&a), dday::save_state(&b));
    }
    let a = random_game(new(1), 5, |_, _| {});
    let b = random_game(new(2), 5, |_, _| {});
    assert_ne!(a.dice.log, b.dice.log);
}

#[test]
fn dday_save_load_round_trip_at_every_step() {
    for seed in 0..25 {
        random_game(new(seed), seed, |s, a| {
            let text = dday::save_state(s);
            let loaded = dday::load_state(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&loaded, s);
            // The same future: apply the same action to both.
            let (mut x, mut y) = (s.clone(), loaded);
            dday::apply(&mut x, a as i64).unwrap();
            dday::apply(&mut y, a as i64).unwrap();
            assert_eq!(x, y);
        });
    }
}

#[test]
fn dday_bad_saves_are_errors_naming_the_field() {
    let s = f1_position();
    let text = dday::save_state(&s);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    type Edit = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, Edit)> = vec![
        ("version", Box::new(|v| v["version"] = json!(99))),
        ("format", Box::new(|v| v["format"] = json!("maquis"))),
        ("skirmish.figures[3]", Box::new(|v| v["state"]["skirmish"]["figures"][3]["section"] = json!(9))),
        ("state.phase", Box::new(|v| v["state"]["phase"] = json!("lunch"))),
        ("placement", Box::new(|v| v["state"]["placement"][1] = json!(0))),
        ("pending", Box::new(|v| v["state"]["pending"] = json!({"Clock": {"die": 3}}))),
        ("state.skirmish", Box::new(|v| v["state"]["skirmish"]["clock"] = json!("late"))),
        ("vp", Box::new(|v| v["state"]["vp"]["german"] = json!(5))),
        ("dice.script", Box::new(|v| v["state"]["dice"]["script"] = json!([7]))),
        (
            "records",
            Box::new(|v| {
                v["state"]["records"][0] = json!({"zone": "caen", "completed": null, "task": [0, 0],
            "resistance_size": 9, "resistance_killed": 0, "resistance_ran_away": 0, "resistance_evacuated": 0,
            "german_figures": 6, "german_killed": 0, "german_ran_away": 0, "german_evacuated": 0})
            }),
        ),
        (
            "phase: no legal action",
            Box::new(|v| {
                v["state"]["phase"] = json!("hit");
                v["state"]["pending"] = json!({"Hit": {"from": 3, "to": 4}}); // nobody at 4 to hit
            }),
        ),
    ];
    for (field, edit) in cases {
        let orig = v.clone();
        edit(&mut v);
        let err = dday::load_state(&v.to_string()).unwrap_err();
        assert!(matches!(err, Error::BadSave(_)));
        assert!(err.to_string().contains(field), "{field}: {err}");
        v = orig;
    }
    // A finished game whose records were dropped cannot be loaded into scoring.
    let end = random_game(new(6), 6, |_, _| {});
    let mut v: serde_json::Value = serde_json::from_str(&dday::save_state(&end)).unwrap();
    v["state"]["records"][1] = serde_json::Value::Null;
    assert!(dday::load_state(&v.to_string()).unwrap_err().to_string().contains("records"));
    assert!(dday::load_state("{").is_err());
    assert!(dday::load_state("[]").is_err());
}

#[test]
fn dday_state_dict_has_exactly_the_api_keys() {
    let keys = |v: &serde_json::Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let sorted = |v: &[&str]| {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    let d = state_dict(&f1_position());
    assert_eq!(
        keys(&d),
        sorted(&[
            "phase",
            "to_move",
            "allocation",
            "zone_values",
            "interrogation",
            "attacked",
            "order",
            "skirmish_index",
            "skirmish",
            "records",
            "vp",
            "dice_log",
            "outcome"
        ])
    );
    assert_eq!(keys(&d["interrogation"]), sorted(&["log", "guesses_left", "closed", "stopped"]));
    assert_eq!(
        keys(&d["skirmish"]),
        sorted(&[
            "zone",
            "clock",
            "task_section",
            "turn",
            "turn_number",
            "task",
            "task_rolled",
            "pools",
            "acting",
            "figures",
            "pending"
        ])
    );
    assert_eq!(
        keys(&d["skirmish"]["figures"][0]),
        sorted(&["id", "side", "unit", "section", "state", "fresh", "moves", "shots", "cover_changed"])
    );
    assert_eq!(keys(&d["vp"]), sorted(&["resistance", "german", "lines"]));
    assert_eq!(d["attacked"], json!(["caen", "avranches"]));
    assert_eq!(d["allocation"]["avranches"], json!(["gendarme", "gendarme", "gendarme"]));
    assert_eq!(d["zone_values"]["caen"], 9);
    assert_eq!(d["skirmish"]["acting"], 0);
    assert_eq!(d["dice_log"][0], json!({"event": "group_size", "dice": [6]}));
    let end = random_game(new(3), 3, |_, _| {});
    let d = state_dict(&end);
    assert_eq!(keys(&d["records"][0]), sorted(&["zone", "completed", "task", "resistance", "german"]));
    assert_eq!(keys(&d["vp"]["lines"][0]), sorted(&["zone", "side", "line", "points", "dice", "rerolled"]));
    assert_eq!(d["skirmish"], serde_json::Value::Null);
    assert_eq!(d["to_move"], serde_json::Value::Null);
    assert!(d["outcome"].is_string());
    let start = state_dict(&new(0));
    assert_eq!(start["skirmish"], serde_json::Value::Null);
    assert_eq!(start["to_move"], "german");
}

#[test]
fn dday_action_names_exactly_api_order_and_count() {
    let zones = ["caen", "bayeux", "lison", "saint_lo", "avranches"];
    let units = ["resistance", "squad", "gendarme_1", "gendarme_2", "gendarme_3"];
    let states = ["standing", "in_cover"];
    let mut want = Vec::new();
    for k in ["squad", "goods", "passenger", "vip", "gendarme"] {
        for z in zones {
            want.push(format!("allocate:{k}:{z}"));
        }
    }
    for z in zones {
        for v in 1..=10 {
            want.push(format!("guess:{z}:{v}"));
        }
    }
    want.push("stop_interrogation".into());
    for a in 0..5 {
        for b in a + 1..5 {
            want.push(format!("attack:{}:{}", zones[a], zones[b]));
        }
    }
    want.extend(zones.iter().map(|z| format!("first:{z}")));
    want.extend(["reroll".to_string(), "keep".to_string()]);
    for u in units {
        for s in 1..=6 {
            for x in states {
                want.push(format!("activate:{u}:{s}:{x}"));
            }
        }
    }
    want.extend((1..=6).map(|s| format!("move:{s}")));
    want.extend((1..=6).map(|s| format!("shoot:{s}")));
    want.extend(["cover", "rescue", "task:1", "task:2", "task:3", "end_turn"].map(String::from));
    for kind in ["hit", "flee"] {
        for u in units {
            for x in states {
                want.push(format!("{kind}:{u}:{x}"));
            }
        }
    }
    assert_eq!(want.len(), 191);
    assert_eq!(NUM_ACTIONS, 191);
    assert_eq!(dday::action_names(), want.iter().map(|s| s.as_str()).collect::<Vec<_>>());
    for (i, name) in want.iter().enumerate() {
        assert_eq!(dday::action_from_str(name).unwrap(), i);
        assert_eq!(dday::action_to_str(i as i64).unwrap(), name);
        assert_eq!(dday::decode(i as i64).unwrap().index(), Some(i));
    }
    for (i, name) in [
        (0, "allocate:squad:caen"),
        (25, "guess:caen:1"),
        (75, "stop_interrogation"),
        (76, "attack:caen:bayeux"),
        (86, "first:caen"),
        (91, "reroll"),
        (92, "keep"),
        (93, "activate:resistance:1:standing"),
        (153, "move:1"),
        (159, "shoot:1"),
        (165, "cover"),
        (166, "rescue"),
        (167, "task:1"),
        (170, "end_turn"),
        (171, "hit:resistance:standing"),
        (181, "flee:resistance:standing"),
        (190, "flee:gendarme_3:in_cover"),
    ] {
        assert_eq!(dday::action_names()[i], name);
    }
    assert!(matches!(dday::decode(191), Err(Error::ActionOutOfRange { .. })));
    assert!(matches!(dday::decode(-1), Err(Error::ActionOutOfRange { .. })));
    assert!(dday::action_from_str("dance").is_err());
}

#[test]
fn dday_observation_layout_exactly_api() {
    let want = [
        ("self", 0, 2),
        ("phase", 2, 12),
        ("to_move", 14, 2),
        ("allocation", 16, 25),
        ("allocation_known", 41, 5),
        ("next_item", 46, 5),
        ("interrogation", 51, 63),
        ("guesses_left", 114, 1),
        ("zone_open", 115, 5),
        ("value_bounds", 120, 10),
        ("attacked", 130, 5),
        ("play_order", 135, 10),
        ("skirmish", 145, 2),
        ("zone_items", 147, 5),
        ("task_section", 152, 6),
        ("clock", 158, 1),
        ("turn", 159, 2),
        ("figures", 161, 72),
        ("fresh", 233, 60),
        ("acting", 293, 16),
        ("pools", 309, 6),
        ("task_sets", 315, 12),
        ("task_rolled", 327, 1),
        ("holds_task_section", 328, 1),
        ("pending", 329, 14),
        ("shot", 343, 12),
        ("flee", 355, 7),
        ("losses", 362, 4),
        ("records", 366, 12),
        ("vp", 378, 2),
    ];
    assert_eq!(dday::observation_layout().as_slice(), &want);
    assert_eq!(OBSERVATION_SIZE, 380);
    // Spot checks of the contents at a known position (f1: caen, turn 2 of the Resistance).
    let s = f1_position();
    let o = observation(&s, Side::Resistance);
    assert_eq!(o[0], 1.0);
    assert_eq!(o[2 + Phase::Actions.idx()], 1.0);
    assert_eq!(o[145], 1.0, "first skirmish");
    assert_eq!(o[152 + 1], 1.0, "task section 2");
    assert_eq!(o[158], 28.0 / 30.0);
    assert_eq!(o[161], 8.0 / 12.0, "8 Resistance standing at section 1");
    assert_eq!(o[161 + 2 * 12], 1.0 / 12.0, "figure 0 at section 3");
    assert_eq!(o[161 + 4 * 12 + 3], 1.0 / 12.0, "one squad figure at 5");
    assert_eq!(o[161 + 5 * 12 + 3], 5.0 / 12.0);
    assert_eq!(o[293 + 2], 1.0, "acting figure at section 3");
    assert_eq!(o[309], 12.0 / 12.0, "12 AP");
}

#[test]
fn dday_scenario_options_are_validated() {
    let alloc = Some(standard_allocation());
    let cases = [
        (Scenario { attack: Some([Zone::Caen, Zone::Lison]), ..Default::default() }, "attack: needs allocation"),
        (Scenario { allocation: alloc, first: Some(Zone::Caen), ..Default::default() }, "first: needs attack"),
        (
            Scenario {
                allocation: alloc,
                attack: Some([Zone::Caen, Zone::Lison]),
                first: Some(Zone::Bayeux),
                dice: vec![],
            },
            "first",
        ),
        (Scenario { dice: vec![1, 7], ..Default::default() }, "dice[1]"),
    ];
    for (sc, msg) in cases {
        let e = dday::new_game(0, &sc).unwrap_err();
        assert!(matches!(e, Error::BadOption(_)) && e.to_string().contains(msg), "{e}");
    }
    let ok = Scenario::from_json(&json!({"allocation": {"caen": ["squad", "vip"], "bayeux": ["squad", "passenger"],
        "lison": ["goods", "squad"], "saint_lo": ["goods", "gendarme"], "avranches": ["gendarme", "gendarme", "gendarme"]},
        "attack": ["lison", "caen"], "first": "lison", "dice": [2, 3]})).unwrap();
    let s = dday::new_game(0, &ok).unwrap();
    assert_eq!(s.attacked, Some([Zone::Caen, Zone::Lison]));
    assert_eq!(s.order, Some([Zone::Lison, Zone::Caen]));
    assert_eq!(s.phase, Phase::GroupSize);
    assert_eq!(s.interrogation.guesses_left, 0);
    for (bad, msg) in [
        (json!({"allocation": {"caen": ["squad"]}}), "allocation"),
        (json!({"allocation": {"paris": []}}), "paris"),
        (json!({"attack": ["caen"]}), "attack"),
        (json!({"dice": [0]}), "dice[0]"),
        (json!({"colour": 1}), "colour"),
        (json!({"first": "nowhere"}), "nowhere"),
    ] {
        let e = Scenario::from_json(&bad).unwrap_err();
        assert!(e.to_string().contains(msg), "{bad}: {e}");
    }
}

#[test]
fn dday_apply_after_the_end_and_out_of_range_are_errors() {
    let mut s = random_game(new(4), 4, |_, _| {});
    assert!(matches!(dday::apply(&mut s, 92), Err(Error::GameOver)));
    let mut s = new(4);
    let before = s.clone();
    assert!(matches!(dday::apply(&mut s, 500), Err(Error::ActionOutOfRange { .. })));
    assert_eq!(s, before);
}


/// `load_state` fuzzed with the Maquis loader's mutations (tests/fuzz/mutate.rs: one to three
/// edits anywhere in a real save): every mutant is refused with `BadSave` or plays on to the end
/// without a panic. `MAQUIS_FUZZ_CASES` scales it (docs/reliability.md).
#[test]
fn dday_mutated_saves_load_as_errors_or_play_on_without_panics() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut positions = Vec::new();
    for seed in [21, 22, 23] {
        random_game(new(seed), seed, |s, _| {
            positions.push(serde_json::from_str::<serde_json::Value>(&dday::save_state(s)).unwrap())
        });
    }
    let cases = mutate::cases(1_500);
    let mut loaded = 0;
    for trial in 0..cases {
        let mut v = positions[rng.gen_range(0..positions.len())].clone();
        let edits = mutate::mutate(&mut v, "/state", &mut rng);
        let text = v.to_string();
        let result = std::panic::catch_unwind(|| match dday::load_state(&text) {
            Ok(mut t) => {
                let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(trial);
                let mut steps = 0;
                while !t.is_over() && steps < 3000 {
                    let a = random_action(&t, &mut r);
                    dday::apply(&mut t, a as i64).unwrap();
                    let _ = (observation(&t, Side::Resistance), state_dict(&t));
                    steps += 1;
                }
                true
            }
            Err(Error::BadSave(_)) => false,
            Err(e) => panic!("refused with {e:?}, not BadSave"),
        });
        match result {
            Ok(ok) => loaded += ok as u32,
            Err(_) => panic!("trial {trial}: {edits:?} made load_state or the play after it panic"),
        }
    }
    assert!(loaded > 0, "some mutations are harmless and load");
}
