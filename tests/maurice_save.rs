//! API "State, saving": an exact JSON round trip — the same future dice and shuffles — and clear
//! errors for bad saves; the terrain map format both ways.

use maquis::maurice::scenario::standard_terrain;
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::terrain::{Terrain, TerrainMap};
use maquis::maurice::{self, load_state, save_state, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn step(s: &mut maurice::State, rng: &mut ChaCha8Rng) {
    let legal: Vec<usize> = maurice::legal_mask(s).iter().collect();
    maurice::apply(s, legal[rng.gen_range(0..legal.len())] as i64).unwrap();
}

#[test]
fn maurice_save_round_trip_continues_identically() {
    for seed in 0..4 {
        let setup = Setup { terrain: if seed % 2 == 0 { TerrainChoice::Random } else { TerrainChoice::Scenario }, ..Default::default() };
        let mut s = maurice::new_game(seed, &setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..150 {
            if s.is_over() {
                break;
            }
            step(&mut s, &mut rng);
        }
        let text = save_state(&s);
        let mut t = load_state(&text).unwrap();
        assert_eq!(s, t);
        assert_eq!(save_state(&t), text);
        let (mut ra, mut rb) = (rng.clone(), rng);
        for _ in 0..300 {
            if s.is_over() {
                break;
            }
            step(&mut s, &mut ra);
            step(&mut t, &mut rb);
            assert_eq!(s, t);
        }
    }
}

#[test]
fn maurice_save_rejects_bad_saves() {
    let s = maurice::new_game(1, &Setup::default()).unwrap();
    let text = save_state(&s);
    assert!(load_state("{}").is_err());
    assert!(load_state(&text.replace("maquis.maurice", "maquis.dday1944")).is_err());
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["state"]["deck"].as_array_mut().unwrap().pop();
    let e = load_state(&v.to_string()).unwrap_err().to_string();
    assert!(e.contains("cards"), "{e}");
}

#[test]
fn maurice_terrain_map_format_round_trip() {
    let t = standard_terrain();
    let m = TerrainMap::from(&t);
    assert_eq!(m.rows[16], "##..................TTTTT...%%%%..^^^^^^.....".replace('^', "."));
    assert_eq!(&m.hills[16][34..40], "111111");
    assert!(m.walls.contains(&(31, 13, "n".to_string())));
    assert_eq!(Terrain::try_from(&m).unwrap(), t);
    let mut bad = m.clone();
    bad.walls.push((44, 5, "e".to_string()));
    assert!(Terrain::try_from(&bad).is_err(), "an east wall on the last column is off the table");
}

#[test]
fn maurice_state_dict_has_the_api_keys() {
    let s = maurice::new_game(5, &Setup::default()).unwrap();
    let d = maurice::state_dict(&s);
    for key in [
        "phase", "to_move", "round", "active", "scenario", "terrain", "units", "cinc", "morale", "hands",
        "drawn_this_round", "deck", "discard", "removed", "round_state", "night_pass_last_round", "pending",
        "dice_log", "outcome",
    ] {
        assert!(d.get(key).is_some(), "{key}");
    }
    assert_eq!(d["phase"], "volley_choice");
    assert_eq!(d["scenario"], "standard");
    assert_eq!(d["units"]["blue"].as_array().unwrap().len(), 15);
    assert_eq!(d["units"]["red"][0]["facing"], "s");
    assert_eq!(d["units"]["blue"][8]["cells"].as_array().unwrap().len(), 4);
    assert_eq!(d["cinc"]["blue"], serde_json::json!([22, 2]));
    assert_eq!(d["morale"]["red"], serde_json::json!({"left": 8, "start": 8}));
    assert_eq!(d["hands"]["blue"].as_array().unwrap().len(), 6);
    assert_eq!(d["deck"].as_array().unwrap().len(), 28);
    assert_eq!(d["dice_log"][0]["event"], "first_player");
    assert_eq!(d["terrain"]["rows"].as_array().unwrap().len(), 30);
    for key in ["volley", "first_shooter", "command", "interrupt", "modifiers", "force", "distance", "span_played",
        "delayed", "activated", "rough_going", "done", "charged", "moving", "engaged", "scores", "displaced"] {
        assert!(d["round_state"].get(key).is_some(), "round_state.{key}");
    }
    assert!(d["pending"].is_null() && d["outcome"].is_null());
}
