//! RULES.md V (victory points), N (randomness), Q (decisions), O (information).

mod dday_common;
use dday_common::*;
use maquis::dday::dice::Dice;
use maquis::dday::scoring::{dice_of, fixed_lines, DICE_LINES};
use maquis::dday::{self, observation, state_dict, ChanceEvent, Kind, Outcome, Phase, Scenario, Side, VpLine, Zone};
use serde_json::json;

/// saint_lo (goods + gendarme) first: the Resistance completes its task in its second turn; caen
/// (squad + vip) second: five turns of clock 6, nobody completes. Scoring then asks for
/// `resistance_task` (saint_lo), `train` (goods, saint_lo), `squad_present` (caen).
fn scoring_position(vp_dice: &[u8]) -> dday::State {
    let mut dice = vec![
        6, 3, 6, 6, /* task */ 1, 2, 3, /* clock */ 1, /* gendarme_1 AP */ 1, /* clock */ 1,
        /* AP */ 6, 6, /* task */ 4, 5, 6, /* caen: group, section */ 1, 3,
    ];
    for _ in 0..5 {
        dice.extend_from_slice(&[1, 1, 6]); // AP (Resistance 2 dice; squad 2 dice), clock 6
    }
    dice.extend_from_slice(vp_dice);
    let mut s = start(&skirmish([Zone::SaintLo, Zone::Caen], Zone::SaintLo, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "task:3", "end_turn", "keep"]);
    play(&mut s, &["end_turn", "keep", "activate:resistance:2:standing", "task:3"]);
    assert_eq!(s.records[0].unwrap().completed, Some(Side::Resistance));
    play(&mut s, &["keep"]);
    for turn in 0..5 {
        if turn % 2 == 1 {
            play(&mut s, &["keep"]); // the squad's AP
        }
        play(&mut s, &["end_turn", "keep"]);
    }
    assert_eq!(s.phase, Phase::Scoring);
    s
}

fn lines(s: &dday::State) -> Vec<(Option<&str>, &'static str, u8)> {
    s.vp.lines().map(|l| (s.played_zone(l.slot).map(|z| z.as_str()), l.line.as_str(), l.points)).collect()
}

#[test]
fn dday_v1_every_criterion_per_zone() {
    // In random games, each zone's lines follow from its own record and contents only.
    for seed in 0..200 {
        let s = random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |_, _| {});
        for slot in 0..2u8 {
            let got: Vec<(VpLine, u8)> =
                s.vp.lines().filter(|l| l.slot == slot && l.n_dice == 0).map(|l| (l.line, l.points)).collect();
            assert_eq!(got, fixed_lines(&s, slot));
            let dice_lines: Vec<VpLine> =
                s.vp.lines().filter(|l| l.slot == slot && l.n_dice > 0).map(|l| l.line).collect();
            let want: Vec<VpLine> = DICE_LINES.iter().copied().filter(|&l| dice_of(&s, slot, l).is_some()).collect();
            assert_eq!(dice_lines, want);
            let r = s.records[slot as usize].unwrap();
            let killed =
                s.vp.lines().find(|l| l.slot == slot && l.line == VpLine::GermansKilled).map_or(0, |l| l.points);
            assert_eq!(killed, 2 * r.german_killed.min(3), "max 3 dead Germans per zone");
        }
    }
}

#[test]
fn dday_v2_german_schedule() {
    let s = scoring_position(&[2, 2, 2, 5, 5, 1, 4]);
    let mut s = s;
    play(&mut s, &["keep", "keep", "reroll"]);
    let l = lines(&s);
    assert!(l.contains(&(Some("caen"), "missing_digits", 18)), "3 × 6 missing faces: {l:?}");
    assert!(l.contains(&(Some("caen"), "squad_present", 4)));
    assert!(!l.iter().any(|x| x.1 == "no_train"), "both zones hold a train");
    assert!(!l.iter().any(|x| x.0 == Some("saint_lo") && x.1 == "missing_digits"), "completed there");
    assert_eq!(s.vp.german, 22);
    // resistance_lost: 2 per killed or ran-away figure (random games against the records).
    for seed in 0..100 {
        let s = random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |_, _| {});
        for slot in 0..2u8 {
            let r = s.records[slot as usize].unwrap();
            let lost =
                s.vp.lines().find(|l| l.slot == slot && l.line == VpLine::ResistanceLost).map_or(0, |l| l.points);
            assert_eq!(lost, 2 * (r.resistance_killed + r.resistance_ran_away));
            let no_train = s.vp.lines().any(|l| l.slot == slot && l.line == VpLine::NoTrain);
            assert_eq!(no_train, dday::allocation::train(&s.contents()[r.zone.idx()]).is_none());
        }
    }
}

#[test]
fn dday_v3_resistance_schedule() {
    let mut s = scoring_position(&[2, 2, 2, 5, 5, 1]);
    assert_eq!(s.to_move(), Some(Side::Resistance));
    play(&mut s, &["keep"]);
    assert_eq!(
        state_dict(&s)["skirmish"]["pending"],
        json!({"kind": "vp", "dice": [5, 5], "line": "train", "zone": "saint_lo"})
    );
    play(&mut s, &["keep"]);
    let l = lines(&s);
    assert!(l.contains(&(Some("saint_lo"), "resistance_task", 6)));
    assert!(l.contains(&(Some("saint_lo"), "train", 10)), "goods: 2D6");
    assert_eq!(s.vp.resistance, 16);
    assert_eq!(dice_of(&s, 0, VpLine::Train), Some(2));
}

#[test]
fn dday_v4_fixed_lines_then_dice_lines_in_order_each_with_one_reroll() {
    let mut s = scoring_position(&[2, 2, 2, 6, 6, 6, 5, 5, 1, 4]);
    assert_eq!(lines(&s), [(Some("caen"), "missing_digits", 18)], "fixed lines first");
    assert_eq!(
        state_dict(&s)["skirmish"]["pending"],
        json!({"kind": "vp", "dice": [2, 2, 2], "line": "resistance_task", "zone": "saint_lo"})
    );
    play(&mut s, &["reroll"]);
    assert_eq!(s.to_move(), Some(Side::Resistance), "train is the Resistance's line too");
    play(&mut s, &["keep"]);
    assert_eq!(s.to_move(), Some(Side::German), "squad_present is the German's");
    play(&mut s, &["reroll"]);
    let got: Vec<_> = s.vp.lines().map(|l| (l.line.as_str(), l.points, l.rerolled)).collect();
    assert_eq!(
        got,
        [
            ("missing_digits", 18, false),
            ("resistance_task", 18, true),
            ("train", 10, false),
            ("squad_present", 4, true)
        ]
    );
    let vp_rolls: Vec<Vec<u8>> =
        s.dice.log.iter().filter(|r| r.event == ChanceEvent::Vp).map(|r| r.dice().to_vec()).collect();
    assert_eq!(vp_rolls, [vec![2, 2, 2], vec![6, 6, 6], vec![5, 5], vec![1], vec![4]]);
    assert_eq!(s.phase, Phase::GameOver);
}

#[test]
fn dday_v5_totals_are_the_sums_of_the_lines() {
    let mut s = scoring_position(&[2, 2, 2, 5, 5, 1]);
    play(&mut s, &["keep", "keep", "keep"]);
    assert_eq!(s.vp_totals(), (16, 19));
    assert_eq!(s.outcome, Some(Outcome::German));
    let d = state_dict(&s);
    assert_eq!(d["vp"]["resistance"], 16);
    assert_eq!(d["vp"]["german"], 19);
    assert_eq!(d["outcome"], "german");
    let sum: u64 = d["vp"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["side"] == "german")
        .map(|l| l["points"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 19);
}

#[test]
fn dday_n1_one_seeded_stream_scripted_dice_first() {
    let mut plain = Dice::new(9, vec![]);
    let mut scripted = Dice::new(9, vec![6, 6, 6]);
    let p: Vec<u8> = (0..5).map(|_| plain.roll1(ChanceEvent::Clock)).collect();
    let q: Vec<u8> = (0..8).map(|_| scripted.roll1(ChanceEvent::Clock)).collect();
    assert_eq!(&q[..3], &[6, 6, 6]);
    assert_eq!(&q[3..], &p[..], "the seeded stream continues untouched by the script");
    // Allocation, interrogation and attack draw no dice; the same seed gives the same dice.
    let mut s = dday::new_game(3, &Default::default()).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3);
    while s.phase != Phase::GroupSize {
        let a = random_action(&s, &mut rng);
        dday::apply(&mut s, a as i64).unwrap();
    }
    assert_eq!(events(&s), ["group_size"]);
    let a = random_game(dday::new_game(8, &Default::default()).unwrap(), 1, |_, _| {});
    let b = random_game(dday::new_game(8, &Default::default()).unwrap(), 1, |_, _| {});
    assert_eq!(a.dice.log, b.dice.log);
}

#[test]
fn dday_n2_chance_events_and_their_dice() {
    let ids: Vec<&str> = ChanceEvent::ALL.iter().map(|e| e.as_str()).collect();
    assert_eq!(
        ids,
        ["group_size", "task_section", "morale", "action_points", "to_hit", "save", "rescue", "task", "clock", "vp"]
    );
    let mut seen = [false; 10];
    for seed in 0..200 {
        let s = random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |_, _| {});
        for r in &s.dice.log {
            seen[r.event.idx()] = true;
            let n = r.dice().len();
            let ok = match r.event {
                ChanceEvent::GroupSize
                | ChanceEvent::TaskSection
                | ChanceEvent::ToHit
                | ChanceEvent::Save
                | ChanceEvent::Rescue
                | ChanceEvent::Clock => n == 1,
                ChanceEvent::Task => (1..=3).contains(&n),
                ChanceEvent::Vp => (1..=4).contains(&n),
                ChanceEvent::ActionPoints => (1..=5).contains(&n),
                ChanceEvent::Morale => n >= 1,
            };
            assert!(ok, "{:?}", r);
            assert!(r.dice().iter().all(|d| (1..=6).contains(d)));
        }
    }
    // Random play rarely rescues: that event is checked on a scripted rescue.
    let mut s = f1_with(&[6, 1, 1, 6, 6, 5]);
    play(&mut s, &["shoot:5", "end_turn", "keep", "keep", "activate:squad:6:standing", "move:5", "rescue"]);
    assert_eq!(events(&s).last(), Some(&"rescue"));
    seen[ChanceEvent::Rescue.idx()] = true;
    assert!(seen.iter().all(|&x| x), "every event occurs: {seen:?}");
}

#[test]
fn dday_q0_single_option_steps_are_automatic() {
    // Outside the allocation (Q0's ruling below), nobody is asked a decision with one option.
    for seed in 0..150 {
        random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |s, _| {
            if s.phase != Phase::Allocation {
                assert!(dday::legal_mask(s).count() >= 2, "a decision with one option was asked: {:?}", s.phase);
            }
        });
    }
}

/// The German's allocation from a new game, one `allocate` per step: for each step, the side
/// asked and the number of legal actions; then the phase reached.
fn allocation_steps(seed: u64, sequence: &[u8; 11]) -> (Vec<(Option<Side>, u32)>, Phase) {
    let mut s = dday::new_game(seed, &Default::default()).unwrap();
    let mut steps = Vec::new();
    for (k, &z) in sequence.iter().enumerate() {
        assert_eq!(s.phase, Phase::Allocation, "step {k} of {sequence:?}: the allocation ended early");
        steps.push((s.to_move(), dday::legal_mask(&s).count()));
        let item = dday::ids::ITEM_ORDER[k];
        dday::apply_action(&mut s, dday::Action::Allocate(item, Zone::ALL[z as usize])).unwrap();
    }
    (steps, s.phase)
}

#[test]
fn dday_q0_allocation_every_step_is_the_germans_decision() {
    // Q0's ruling (2026-11-28): the German is asked all 11 steps, one legal zone or not, so that
    // what the Resistance sees of the allocation's decisions is the same for every allocation.
    let sequences = dday::valid_sequences();
    assert_eq!(sequences.len(), 6_600);
    let mut forced = [0usize; 12];
    for (i, seq) in sequences.iter().enumerate() {
        let (steps, phase) = allocation_steps(i as u64, seq);
        assert_eq!(steps.len(), 11);
        assert!(steps.iter().all(|&(side, _)| side == Some(Side::German)), "{seq:?}: {steps:?}");
        assert_eq!(phase, Phase::Interrogation, "{seq:?}: the 11th step ends the allocation");
        forced[steps.iter().filter(|&&(_, n)| n == 1).count()] += 1;
        // The first step always has a choice (the bundled agents draw their plan there).
        assert!(steps[0].1 >= 2, "{seq:?}");
    }
    // Allocations with one-zone steps exist (up to 5 of them: the old count was 6 to 11
    // decisions); they are asked all the same.
    assert!(forced[0] > 0 && forced[5] > 0 && forced[6..].iter().all(|&n| n == 0), "{forced:?}");
    // The last gendarme has one legal zone: the German is still asked for it.
    let mut s = dday::new_game(0, &Default::default()).unwrap();
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
    for _ in 0..2 {
        assert_eq!((s.phase, s.to_move()), (Phase::Allocation, Some(Side::German)));
        assert_eq!(dday::legal_actions(&s), vec![idx("allocate:gendarme:avranches")]);
        play(&mut s, &["allocate:gendarme:avranches"]);
    }
    assert_eq!(s.phase, Phase::Interrogation);
    assert_eq!(s.placement[9..], [Zone::Avranches.idx() as u8; 2]);
}

#[test]
fn dday_q1_decision_points_and_their_deciders() {
    for seed in 0..100 {
        random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |s, _| {
            let turn = s.skirmish.turn;
            let want = match s.phase {
                Phase::Allocation | Phase::ActionPoints => Side::German,
                Phase::Interrogation | Phase::Attack | Phase::Order | Phase::GroupSize => Side::Resistance,
                Phase::Morale | Phase::Actions | Phase::Clock => turn,
                Phase::Hit => turn.other(),
                Phase::Scoring => match s.pending {
                    Some(dday::state::Pending::Vp { line, .. }) => line.side(),
                    _ => panic!("scoring without a line"),
                },
                Phase::GameOver => unreachable!(),
            };
            assert_eq!(s.to_move(), Some(want));
            // A Resistance decider never has a German unit legal, and vice versa.
            for i in dday::legal_mask(s).iter() {
                let name = dday::action_names()[i];
                let german_unit = ["squad", "gendarme_"].iter().any(|u| {
                    name.starts_with(&format!("activate:{u}"))
                        || name.starts_with(&format!("hit:{u}"))
                        || name.starts_with(&format!("flee:{u}"))
                });
                let res_unit = name.contains(":resistance:");
                if want == Side::Resistance {
                    assert!(!german_unit, "{name}")
                } else {
                    assert!(!res_unit, "{name}")
                }
            }
        });
    }
}

#[test]
fn dday_o1_public_information_is_the_same_for_both_sides() {
    // Slices that depend on the allocation are the only ones allowed to differ (besides `self`).
    let private = ["self", "allocation", "allocation_known", "next_item", "value_bounds"];
    for seed in 0..60 {
        random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |s, _| {
            let r = observation(s, Side::Resistance);
            let g = observation(s, Side::German);
            for &(name, off, len) in dday::observation_layout() {
                if !private.contains(&name) {
                    assert_eq!(r[off..off + len], g[off..off + len], "{name}");
                }
            }
        });
    }
}

fn swapped_allocation() -> [[u8; 5]; 5] {
    use Kind::*;
    Scenario::contents_of(&[
        (Zone::Caen, &[Squad, Vip]),
        (Zone::Bayeux, &[Squad, Goods]),
        (Zone::Lison, &[Squad, Passenger]),
        (Zone::SaintLo, &[Goods, Gendarme]),
        (Zone::Avranches, &[Gendarme, Gendarme, Gendarme]),
    ])
}

#[test]
fn dday_o2_unrevealed_zones_never_reach_the_resistance() {
    // Two games differing only in the unattacked zones (bayeux and lison swap their trains).
    for seed in 0..40 {
        let mk = |alloc| Scenario {
            allocation: Some(alloc),
            attack: Some([Zone::Caen, Zone::Avranches]),
            ..Default::default()
        };
        let mut a = dday::new_game(seed, &mk(standard_allocation())).unwrap();
        let mut b = dday::new_game(seed, &mk(swapped_allocation())).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        loop {
            assert_eq!(observation(&a, Side::Resistance), observation(&b, Side::Resistance));
            assert_ne!(observation(&a, Side::German), observation(&b, Side::German));
            assert_eq!(dday::legal_mask(&a), dday::legal_mask(&b));
            if a.is_over() {
                break;
            }
            let act = random_action(&a, &mut rng);
            dday::apply(&mut a, act as i64).unwrap();
            dday::apply(&mut b, act as i64).unwrap();
        }
    }
    // During the allocation the placements never show.
    let mut a = dday::new_game(0, &Default::default()).unwrap();
    let mut b = dday::new_game(0, &Default::default()).unwrap();
    play(&mut a, &["allocate:squad:caen"]);
    play(&mut b, &["allocate:squad:lison"]);
    assert_eq!(observation(&a, Side::Resistance), observation(&b, Side::Resistance));
}

#[test]
fn dday_o3_future_dice_are_hidden_from_both() {
    let sc = skirmish([Zone::Caen, Zone::Bayeux], Zone::Caen, &[3]);
    let a = dday::new_game(1, &sc).unwrap();
    let b = dday::new_game(2, &sc).unwrap();
    assert_ne!(a.dice.rng, b.dice.rng);
    for side in [Side::Resistance, Side::German] {
        assert_eq!(observation(&a, side), observation(&b, side));
    }
}

#[test]
fn dday_o4_the_german_sees_the_whole_allocation() {
    let s = start(&Scenario { allocation: Some(standard_allocation()), ..Default::default() });
    let g = observation(&s, Side::German);
    let c = s.contents();
    for z in 0..5 {
        for k in 0..5 {
            assert_eq!(g[16 + z * 5 + k], c[z][k] as f32 / 3.0);
        }
        assert_eq!(g[120 + 2 * z], dday::allocation::zone_value(&c[z]) as f32 / 10.0);
    }
}
