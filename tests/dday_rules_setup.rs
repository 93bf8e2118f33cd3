//! RULES.md U, Z, G, I, C, S: identifiers, zones and items, the allocation, the interrogation,
//! the choice of zones and the skirmish setup — driven by the reset options.

mod dday_common;
use dday_common::*;
use maquis::dday::allocation::{contents, train, zone_value};
use maquis::dday::{self, observation, state_dict, FigState, Kind, Phase, Scenario, Side, Unit, Zone};
use std::collections::BTreeSet;

fn fresh() -> dday::State {
    dday::new_game(5, &Scenario::default()).unwrap()
}

fn interrogating() -> dday::State {
    start(&Scenario { allocation: Some(standard_allocation()), ..Default::default() })
}

#[test]
fn dday_u1_two_sides_and_gendarmes_are_german() {
    assert_eq!(Side::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>(), ["resistance", "german"]);
    for u in [Unit::Squad, Unit::Gendarme1, Unit::Gendarme2, Unit::Gendarme3] {
        assert_eq!(u.side(), Side::German);
    }
    assert_eq!(Unit::Resistance.side(), Side::Resistance);
    assert_eq!(Side::German.other(), Side::Resistance);
}

#[test]
fn dday_u2_sections_one_to_six_and_moves_only_to_adjacent() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[6, 3, 6, 6]));
    play(&mut s, &["keep", "activate:resistance:1:standing"]);
    assert!(legal(&s, "move:2"));
    assert!(!legal(&s, "move:3"), "distance 2 is not adjacent");
    assert!(!legal(&s, "move:1"), "distance 0");
    play(&mut s, &["move:2"]);
    assert!(legal(&s, "move:1") && legal(&s, "move:3"));
    assert_eq!(dday::action_names().iter().filter(|n| n.starts_with("move:")).count(), 6);
}

#[test]
fn dday_u3_units_and_figure_numbering() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Avranches, &[1, 3, 6, 6]));
    play(&mut s, &["keep"]);
    let d = state_dict(&s);
    let units: Vec<&str> =
        d["skirmish"]["figures"].as_array().unwrap().iter().map(|f| f["unit"].as_str().unwrap()).collect();
    assert_eq!(
        units,
        ["resistance"; 4]
            .iter()
            .chain(["gendarme_1"; 3].iter())
            .chain(["gendarme_2"; 3].iter())
            .chain(["gendarme_3"; 3].iter())
            .copied()
            .collect::<Vec<_>>()
    );
    for (i, f) in d["skirmish"]["figures"].as_array().unwrap().iter().enumerate() {
        assert_eq!(f["id"], i);
    }
}

#[test]
fn dday_u4_only_standing_and_in_cover_are_fighting() {
    let fighting: Vec<&str> = FigState::ALL.iter().filter(|x| x.is_fighting()).map(|x| x.as_str()).collect();
    assert_eq!(fighting, ["standing", "in_cover"]);
    assert_eq!(FigState::ALL.len(), 6);
    // A casualty marker cannot be activated: shoot a squad figure down and check the German turn.
    let mut s = f1_position();
    play(&mut s, &["shoot:5"]); // to hit 6 (≥5), one class: save 1 → casualty
    assert_eq!(s.skirmish.figures[9].state, FigState::Casualty);
    play(&mut s, &["end_turn", "keep"]); // clock
                                         // German morale: 1 casualty − 1 = 0 dice; AP 6,6 and keep.
    play(&mut s, &["keep"]);
    assert!(!legal(&s, "activate:squad:5:standing"), "the casualty at 5 is not a fighting figure");
    assert!(legal(&s, "activate:squad:6:standing"));
}

#[test]
fn dday_u5_phases_in_spec_order_and_game_flow() {
    let ids: Vec<&str> = Phase::ALL.iter().map(|p| p.as_str()).collect();
    assert_eq!(
        ids,
        [
            "allocation",
            "interrogation",
            "attack",
            "order",
            "group_size",
            "morale",
            "action_points",
            "actions",
            "hit",
            "clock",
            "scoring",
            "game_over"
        ]
    );
    // A random game passes allocation → interrogation → attack → order → skirmish phases → scoring → over.
    let mut firsts = Vec::new();
    let s = random_game(fresh(), 3, |s, _| {
        if !firsts.contains(&s.phase) {
            firsts.push(s.phase);
        }
    });
    assert_eq!(&firsts[..4], &[Phase::Allocation, Phase::Interrogation, Phase::Attack, Phase::Order]);
    assert_eq!(*firsts.last().unwrap(), Phase::Scoring);
    assert_eq!(s.phase, Phase::GameOver);
}

#[test]
fn dday_z1_five_zones_in_number_order() {
    let ids: Vec<&str> = Zone::ALL.iter().map(|z| z.as_str()).collect();
    assert_eq!(ids, ["caen", "bayeux", "lison", "saint_lo", "avranches"]);
    assert_eq!(idx("attack:caen:bayeux"), 76);
    assert_eq!(idx("attack:saint_lo:avranches"), 85);
    assert_eq!(idx("first:avranches"), 90);
}

#[test]
fn dday_z2_eleven_items_with_values_and_quantities() {
    let table: Vec<(&str, u8, u8, bool)> =
        Kind::ALL.iter().map(|k| (k.as_str(), k.value(), k.quantity(), k.is_train())).collect();
    assert_eq!(
        table,
        [
            ("squad", 3, 3, false),
            ("goods", 4, 2, true),
            ("passenger", 5, 1, true),
            ("vip", 6, 1, true),
            ("gendarme", 1, 4, false)
        ]
    );
    assert_eq!(Kind::ALL.iter().map(|k| k.quantity()).sum::<u8>(), 11);
}

#[test]
fn dday_z3_zone_values_are_the_table_and_cover_one_to_ten() {
    let mut cells = BTreeSet::new();
    for seq in dday::valid_sequences() {
        let c = contents(seq, 11);
        for z in c {
            let german = z[Kind::Squad.idx()] * 6 + z[Kind::Gendarme.idx()] * 3;
            cells.insert((train(&z), z[Kind::Squad.idx()], z[Kind::Gendarme.idx()], zone_value(&z), german));
        }
    }
    // 6 guard mixes without a train, 4 with each train: 18 cells of Z3's table.
    assert_eq!(cells.len(), 18);
    let values: BTreeSet<u8> = cells.iter().map(|c| c.3).collect();
    assert_eq!(values, (1..=10).collect());
    for &(t, sq, g, v, german) in &cells {
        let tv = t.map_or(0, |k| k.value());
        assert_eq!(v, tv + 3 * sq + g);
        assert_eq!(german, 6 * sq + 3 * g);
        assert!([3, 6, 9, 12].contains(&german));
    }
    assert!(cells.contains(&(Some(Kind::Vip), 1, 1, 10, 9)));
    // The table's '–' cells: a train never has three guards (that would be four items).
    assert!(!cells.iter().any(|c| c.0.is_some() && c.1 + c.2 >= 3));
}

#[test]
fn dday_g1_every_valid_allocation_keeps_the_constraints() {
    for seq in dday::valid_sequences() {
        let c = contents(seq, 11);
        let no_train = c.iter().filter(|z| train(z).is_none()).count();
        let squads = c.iter().filter(|z| z[Kind::Squad.idx()] == 1).count();
        assert_eq!(no_train, 1);
        assert_eq!(squads, 3);
        for z in &c {
            let n: u8 = z.iter().sum();
            assert!((1..=3).contains(&n));
            assert!(z[Kind::Squad.idx()] == 1 || z[Kind::Gendarme.idx()] >= 1);
        }
    }
    // An allocation with two trains in a zone is refused.
    use Kind::*;
    let bad = Scenario::contents_of(&[
        (Zone::Caen, &[Squad, Vip, Goods]),
        (Zone::Bayeux, &[Squad, Passenger]),
        (Zone::Lison, &[Squad, Gendarme]),
        (Zone::SaintLo, &[Goods, Gendarme]),
        (Zone::Avranches, &[Gendarme, Gendarme]),
    ]);
    let err = dday::new_game(0, &Scenario { allocation: Some(bad), ..Default::default() }).unwrap_err();
    assert!(err.to_string().contains("allocation"), "{err}");
}

#[test]
fn dday_g2_fixed_item_order_and_identical_items_in_zone_order() {
    let mut s = fresh();
    assert_eq!(s.phase, Phase::Allocation);
    assert!(!legal(&s, "allocate:vip:caen"), "the first item is a squad");
    play(&mut s, &["allocate:squad:bayeux"]);
    assert!(!legal(&s, "allocate:squad:caen"), "a second squad goes to a zone ≥ the first's");
    play(&mut s, &["allocate:squad:lison", "allocate:squad:saint_lo"]);
    assert!(legal(&s, "allocate:goods:caen"));
    assert!(!legal(&s, "allocate:passenger:caen"));
}

#[test]
fn dday_g3_exactly_6600_valid_allocations() {
    let all = dday::valid_sequences();
    assert_eq!(all.len(), 6600);
    assert!(all.windows(2).all(|w| w[0] < w[1]), "lexicographic order, no duplicates");
    assert_eq!(dday::valid_allocations().len(), 6600);
    // Random walks through the mask always finish valid, with 1–5 legal zones per step, and a
    // step is legal exactly when a valid allocation extends it.
    for seed in 0..200 {
        let mut s = dday::new_game(seed, &Scenario::default()).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        while s.phase == Phase::Allocation {
            let m = dday::legal_mask(&s);
            // One legal zone is a step too: Q0's ruling (2026-11-28) asks the German every step.
            assert!((1..=5).contains(&m.count()));
            for z in 0..5u8 {
                let prefix = &s.placement[..s.placed as usize];
                let extends = all.iter().any(|q| q[..prefix.len()] == *prefix && q[prefix.len()] == z);
                let k = s.next_item().unwrap();
                assert_eq!(m.get(k.idx() * 5 + z as usize), extends);
            }
            let a = random_action(&s, &mut rng);
            dday::apply(&mut s, a as i64).unwrap();
        }
        assert!(all.contains(&s.placement));
    }
    // A squad cannot join another squad's zone.
    let mut s = fresh();
    play(&mut s, &["allocate:squad:caen"]);
    assert!(!legal(&s, "allocate:squad:caen"));
}

#[test]
fn dday_g4_allocation_hidden_from_the_resistance() {
    let s = interrogating();
    let r = observation(&s, Side::Resistance);
    let g = observation(&s, Side::German);
    assert!(r[16..46].iter().all(|&x| x == 0.0), "no allocation, nothing known");
    assert!(g[16..41].iter().any(|&x| x > 0.0));
    assert!(g[41..46].iter().all(|&x| x == 1.0));
}

#[test]
fn dday_i1_seven_guesses_in_all() {
    let mut s = interrogating();
    for v in 1..=7 {
        assert_eq!(s.interrogation.guesses_left, 8 - v);
        play(&mut s, &[&format!("guess:lison:{v}")]);
    }
    assert_eq!(s.phase, Phase::Attack);
    assert_eq!(s.interrogation.guesses_left, 0);
}

#[test]
fn dday_i2_answers_are_true_and_any_value_stays_legal() {
    let mut s = interrogating(); // caen: squad + vip = 9
    play(&mut s, &["guess:caen:10", "guess:caen:8", "guess:caen:9"]);
    let answers: Vec<&str> = s.interrogation.guesses().map(|g| g.answer.as_str()).collect();
    assert_eq!(answers, ["too_high", "too_low", "correct"]);
    assert!(legal(&s, "guess:caen:1") && legal(&s, "guess:caen:9"), "legal again after correct");
    assert_eq!(dday::action_names().iter().filter(|n| n.starts_with("guess:caen:")).count(), 10);
}

#[test]
fn dday_i3_a_zone_left_is_closed() {
    let mut s = interrogating();
    play(&mut s, &["guess:caen:5", "guess:bayeux:5"]);
    assert!(!legal(&s, "guess:caen:5"), "caen is closed");
    assert!(legal(&s, "guess:bayeux:6") && legal(&s, "guess:lison:1"));
    assert_eq!(state_dict(&s)["interrogation"]["closed"], serde_json::json!(["caen"]));
    let err = dday::apply(&mut s, idx("guess:caen:5") as i64).unwrap_err();
    assert!(err.to_string().contains("guess:caen:5") && err.to_string().contains("interrogation"), "{err}");
}

#[test]
fn dday_i4_stop_at_any_moment_forfeits_the_rest() {
    let mut s = interrogating();
    assert!(legal(&s, "stop_interrogation"), "also before the first guess");
    play(&mut s, &["guess:caen:5", "stop_interrogation"]);
    assert_eq!(s.phase, Phase::Attack);
    assert!(s.interrogation.stopped);
    assert_eq!(s.interrogation.guesses_left, 0);
}

#[test]
fn dday_i5_the_log_is_public() {
    let mut s = interrogating();
    play(&mut s, &["guess:lison:4", "guess:lison:7"]);
    let r = observation(&s, Side::Resistance);
    let g = observation(&s, Side::German);
    assert_eq!(r[51..115], g[51..115]);
    assert_eq!(r[51 + 2], 1.0, "row 0: zone lison");
    assert_eq!(r[51 + 7], 1.0, "row 0: too_low (lison = 7)");
    assert_eq!(r[60 + 8], 1.0, "row 1: correct");
    let d = state_dict(&s);
    assert_eq!(d["interrogation"]["log"][1], serde_json::json!({"zone": "lison", "value": 7, "answer": "correct"}));
}

#[test]
fn dday_c1_attack_any_two_distinct_zones() {
    let mut s = interrogating();
    play(&mut s, &["stop_interrogation"]);
    assert_eq!(dday::legal_actions(&s), (76..86).collect::<Vec<_>>());
    play(&mut s, &["attack:lison:avranches"]);
    assert_eq!(s.attacked, Some([Zone::Lison, Zone::Avranches]));
    let e = dday::new_game(
        0,
        &Scenario {
            allocation: Some(standard_allocation()),
            attack: Some([Zone::Caen, Zone::Caen]),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("attack"));
}

#[test]
fn dday_c2_reveal_shows_exactly_the_attacked_zones() {
    let mut s = interrogating();
    play(&mut s, &["stop_interrogation", "attack:caen:saint_lo"]);
    let r = observation(&s, Side::Resistance);
    assert_eq!(&r[41..46], &[1.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(r[16 + Kind::Vip.idx()], 1.0 / 3.0);
    assert_eq!(r[16 + 3 * 5 + Kind::Goods.idx()], 1.0 / 3.0);
    assert!(r[16 + 5..16 + 15].iter().all(|&x| x == 0.0), "bayeux and lison hidden");
    assert!(r[16 + 20..16 + 25].iter().all(|&x| x == 0.0), "avranches hidden");
    assert_eq!((r[120], r[121]), (0.9, 0.9), "caen's value exact once revealed");
}

#[test]
fn dday_c3_order_chooses_the_first_skirmish() {
    let mut s = interrogating();
    play(&mut s, &["stop_interrogation", "attack:caen:saint_lo"]);
    assert_eq!(dday::legal_actions(&s), vec![idx("first:caen"), idx("first:saint_lo")]);
    play(&mut s, &["first:saint_lo"]);
    assert_eq!(s.order, Some([Zone::SaintLo, Zone::Caen]));
    assert_eq!(s.skirmish.zone, Zone::SaintLo);
    assert_eq!(s.phase, Phase::GroupSize);
}

#[test]
fn dday_c4_each_skirmish_starts_from_scratch() {
    let s0 = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &[]));
    let mut second = None;
    random_game(s0, 11, |s, _| {
        if second.is_none() && s.skirmish_index == Some(1) && s.phase == Phase::GroupSize {
            second = Some(s.clone());
        }
    });
    let s = second.expect("the second skirmish is played");
    let mut s2 = s.clone();
    play(&mut s2, &["keep"]);
    let sk = &s2.skirmish;
    assert_eq!(sk.zone, Zone::Avranches);
    assert_eq!(sk.task, [0, 0]);
    assert!(sk.clock <= 30 && sk.clock > 24, "clock 30 less at most the first turn's die");
    assert_eq!(sk.figures().iter().filter(|f| f.side() == Side::German).count(), 9);
    assert!(sk.figures().iter().filter(|f| f.side() == Side::German).all(|f| f.state.is_fighting()));
    assert!(s.records[0].is_some());
}

#[test]
fn dday_s1_group_size_die_plus_three_with_one_reroll() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[2, 5, 3, 1, 1]));
    assert_eq!(s.phase, Phase::GroupSize);
    play(&mut s, &["reroll"]);
    assert_eq!(s.skirmish.group_size, 8, "the second roll (5) stands");
    let mut k = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[2, 3, 1, 1]));
    play(&mut k, &["keep"]);
    assert_eq!(k.skirmish.group_size, 5);
    assert_eq!(k.skirmish.fighting(Side::Resistance), 5);
}

#[test]
fn dday_s2_german_forces_from_the_zone_items() {
    for (zone, squad, gendarmes) in
        [(Zone::Caen, 6, vec![]), (Zone::SaintLo, 0, vec![3]), (Zone::Avranches, 0, vec![3, 3, 3])]
    {
        let other = if zone == Zone::Bayeux { Zone::Caen } else { Zone::Bayeux };
        let mut s = start(&skirmish([zone, other], zone, &[1, 3, 6, 6]));
        play(&mut s, &["keep"]);
        let sk = &s.skirmish;
        assert_eq!(sk.figures().iter().filter(|f| f.unit == Unit::Squad).count(), squad);
        for (k, n) in gendarmes.iter().enumerate() {
            assert_eq!(sk.figures().iter().filter(|f| f.unit == Unit::gendarme(k)).count(), *n);
        }
        let g = sk.figures().iter().filter(|f| f.side() == Side::German).count();
        assert_eq!(g, squad + 3 * gendarmes.len());
    }
}

#[test]
fn dday_s3_deployment_at_the_two_ends() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[4, 3, 6, 6]));
    play(&mut s, &["keep"]);
    for f in s.skirmish.figures() {
        assert_eq!(f.state, FigState::Standing);
        assert_eq!(f.section, if f.side() == Side::Resistance { 1 } else { 6 });
    }
    assert_eq!(s.skirmish.n_figures, 7 + 6);
}

#[test]
fn dday_s4_task_section_from_one_die() {
    for (die, section) in [(1, 1), (2, 2), (3, 2), (4, 2), (5, 3), (6, 3)] {
        let mut s = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[3, die, 6, 6]));
        play(&mut s, &["keep"]);
        assert_eq!(s.skirmish.task_section, Some(section), "die {die}");
        let events: Vec<&str> = s.dice.log.iter().map(|r| r.event.as_str()).collect();
        assert_eq!(events[..2], ["group_size", "task_section"]);
    }
}

#[test]
fn dday_s5_clock_thirty_empty_sets_resistance_first() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[3, 3, 6, 6]));
    play(&mut s, &["keep"]);
    let d = state_dict(&s);
    assert_eq!(d["skirmish"]["clock"], 30);
    assert_eq!(d["skirmish"]["turn"], "resistance");
    assert_eq!(d["skirmish"]["turn_number"], 1);
    assert_eq!(d["skirmish"]["task"], serde_json::json!({"resistance": [], "german": []}));
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(s.to_move(), Some(Side::Resistance));
}
