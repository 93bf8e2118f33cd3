//! RULES.md T, A, M, P, F, H, K, R, L, E: the skirmish turn, scripted with the `dice` option.

mod dday_common;
use dday_common::*;
use maquis::dday::skirmish::morale::furthest_forward;
use maquis::dday::{self, state_dict, FigState, Outcome, Phase, Side, Zone};
use serde_json::json;

/// Avranches (three gendarme units, no squad) first; the Resistance (9) at its first actions.
fn avranches(tail: &[u8]) -> dday::State {
    let mut dice = vec![6, 3, 6, 6];
    dice.extend_from_slice(tail);
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Avranches, &dice));
    play(&mut s, &["keep"]);
    s
}

fn pools(s: &dday::State) -> serde_json::Value {
    state_dict(s)["skirmish"]["pools"].clone()
}

#[test]
fn dday_t1_morale_ap_actions_clock_and_the_opponent_only_assigns_hits() {
    let s = f1_position();
    assert_eq!(
        events(&s),
        ["group_size", "task_section", "action_points", "clock", "action_points", "clock", "action_points"]
    );
    // The German decides during the Resistance's turn only which figure a hit strikes.
    let mut s = avranches(&[6, 6]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3", "shoot:6"]);
    assert_eq!(s.phase, Phase::Hit);
    assert_eq!(s.to_move(), Some(Side::German));
    play(&mut s, &["hit:gendarme_2:standing"]);
    assert_eq!(s.to_move(), Some(Side::Resistance));
    assert_eq!(s.phase, Phase::Actions);
}

#[test]
fn dday_t2_fresh_figures_and_counters_reset_each_turn() {
    let s = f1_position();
    let f = s.skirmish.figures[0];
    assert_eq!((f.section, f.moves, f.shots), (3, 0, 0), "moved twice last turn, counters back to 0");
    assert!(legal(&s, "move:4"));
    assert!(s.skirmish.figures[1..9].iter().all(|f| f.fresh));
    assert!(s.skirmish.figures[9..].iter().all(|f| !f.fresh), "the German's figures are not fresh in this turn");
}

#[test]
fn dday_t3_one_figure_at_a_time() {
    let mut s = avranches(&[]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "activate:resistance:1:standing"]);
    assert_eq!(s.skirmish.acting, Some(1));
    assert!(!legal(&s, "activate:resistance:2:standing"), "figure 0 is spent");
    play(&mut s, &["move:2"]);
    assert_eq!((s.skirmish.figures[1].section, s.skirmish.figures[0].moves), (2, 1));
    assert!(legal(&s, "end_turn"));
}

#[test]
fn dday_t4_end_turn_taken_when_it_is_the_only_action() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Avranches, &[6, 3, 1, 1]));
    play(&mut s, &["keep"]);
    assert!(legal(&s, "end_turn"));
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3"]);
    // 0 AP left: nothing but end_turn.
    assert_eq!(s.phase, Phase::Clock, "the forced end_turn was taken (Q0)");
    assert_eq!(pools(&s), json!({}), "AP left over are lost");
}

#[test]
fn dday_a1_pools_by_side_and_fighting_figures() {
    // Resistance with 9: 2D6; German gendarmes only: one die per gendarme unit, no squad pool.
    let mut s = avranches(&[1, 2, 3, 4]);
    assert_eq!(pools(&s), json!({"resistance": 12}));
    play(&mut s, &["end_turn", "keep"]);
    assert_eq!(s.phase, Phase::Actions);
    assert_eq!(pools(&s), json!({"gendarme_1": 2, "gendarme_2": 3, "gendarme_3": 4}));
    // A German force with 2 fighting figures left rolls one shared die.
    let dice = [6, 3, 6, 6, /* hit */ 6, /* save */ 1, /* clock */ 1, /* shared */ 4];
    let mut s = start(&skirmish([Zone::Caen, Zone::SaintLo], Zone::SaintLo, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "move:3", "shoot:6"]);
    play(&mut s, &["end_turn", "keep"]);
    assert_eq!(pools(&s), json!({"shared": 4}));
    assert!(legal(&s, "activate:gendarme_1:6:standing"), "the shared pool pays gendarme actions");
    assert_eq!(s.dice.log.last().unwrap().dice(), &[4]);
}

#[test]
fn dday_a2_only_the_german_squad_pool_may_be_rerolled() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &[6, 3, 6, 6, 1, 2, 2, 5, 6]));
    play(&mut s, &["keep"]);
    assert_eq!(s.phase, Phase::Actions, "no re-roll decision for the Resistance");
    play(&mut s, &["end_turn", "keep"]);
    assert_eq!(s.phase, Phase::ActionPoints);
    assert_eq!(state_dict(&s)["skirmish"]["pending"], json!({"kind": "action_points", "dice": [2, 2]}));
    play(&mut s, &["reroll"]);
    assert_eq!(pools(&s), json!({"squad": 11}), "the second roll stands");
}

#[test]
fn dday_a3_figure_actions_pay_their_pool_and_task_pays_in_order() {
    let mut s = avranches(&[1, 2, 3, 4, 1, 2, 3]);
    play(&mut s, &["end_turn", "keep"]);
    play(&mut s, &["activate:gendarme_3:6:standing", "move:5"]);
    assert_eq!(pools(&s), json!({"gendarme_1": 2, "gendarme_2": 3, "gendarme_3": 3}));
    play(&mut s, &["task:3"]);
    assert_eq!(
        pools(&s),
        json!({"gendarme_1": 0, "gendarme_2": 2, "gendarme_3": 3}),
        "gendarme_1 first, then gendarme_2"
    );
    assert!(!legal(&s, "activate:gendarme_1:6:standing"), "an empty pool activates nobody");
}

#[test]
fn dday_a4_pools_exist_only_in_their_owners_actions_step() {
    let mut s = avranches(&[1, 2, 3, 4]);
    play(&mut s, &["end_turn"]);
    assert_eq!(s.phase, Phase::Clock);
    assert_eq!(pools(&s), json!({}));
    play(&mut s, &["keep"]);
    assert_eq!(s.skirmish.pools[0], 0, "no Resistance pool in the German's turn");
}

#[test]
fn dday_m1_move_rules() {
    let mut s = avranches(&[]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3"]);
    assert!(!legal(&s, "move:4"), "two moves a turn");
    // Into an enemy section: never; into a section with only enemy markers: yes.
    let mut s = f1_with(&[6, 1]);
    play(&mut s, &["move:4"]);
    assert!(!legal(&s, "move:5"), "a German fighting figure is at 5");
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::Casualty);
    assert!(legal(&s, "move:5"), "a casualty marker does not block");
    play(&mut s, &["move:5"]);
    assert!(!legal(&s, "move:6"));
}

#[test]
fn dday_p1_cover_once_a_turn_no_moving_in_cover_shooting_allowed() {
    let mut s = avranches(&[]);
    play(&mut s, &["activate:resistance:1:standing", "cover"]);
    assert_eq!(s.skirmish.figures[0].state, FigState::InCover);
    assert!(!legal(&s, "move:2"), "in cover: no move");
    assert!(!legal(&s, "cover"), "one cover change a turn");
    let mut s = f1_with(&[5]);
    play(&mut s, &["cover"]);
    assert!(legal(&s, "shoot:5"), "a figure in cover may shoot");
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.phase, Phase::Actions, "hit on 5+ at distance 2 in cover too; one class: the save follows at once");
    assert_eq!(s.dice.log.last().unwrap().event.as_str(), "save");
}

#[test]
fn dday_f1_shot_blocked_by_fighting_figure_between() {
    let mut s = f1_with(&[6, 1]);
    assert!(!legal(&s, "shoot:6"), "the squad figure at 5 blocks the line to 6");
    assert!(legal(&s, "shoot:5"));
    assert!(!legal(&s, "shoot:4") && !legal(&s, "shoot:2"), "no enemy there");
    play(&mut s, &["shoot:5"]);
    assert!(legal(&s, "shoot:6"), "a casualty marker does not block");
    play(&mut s, &["shoot:6"]);
    assert!(!legal(&s, "shoot:6"), "two shots a turn");
    // Own fighting figures block too: a Resistance figure at 2 cannot shoot past figure 0 at 3.
    let mut s = f1_with(&[]);
    play(&mut s, &["activate:resistance:1:standing", "move:2"]);
    assert!(!legal(&s, "shoot:5"));
}

#[test]
fn dday_f2_to_hit_by_distance() {
    // d = 2 needs 5: a 4 misses.
    let mut s = f1_with(&[4]);
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::Standing);
    assert_eq!(events(&s).last(), Some(&"to_hit"));
    // d = 1 hits on 4.
    let mut s = f1_with(&[4, 1]);
    play(&mut s, &["move:4", "shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::Casualty);
    // d = 1: a 3 misses.
    let mut s = f1_with(&[3]);
    play(&mut s, &["move:4", "shoot:5"]);
    assert_eq!(events(&s).last(), Some(&"to_hit"));
    // d = 3 needs a 6: a 5 misses, a 6 hits.
    let mut s = avranches(&[5]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3", "shoot:6"]);
    assert_eq!(s.phase, Phase::Actions);
    let mut s = avranches(&[6]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3", "shoot:6"]);
    assert_eq!(s.phase, Phase::Hit);
    assert_eq!(maquis::dday::skirmish::fire::TO_HIT, [4, 5, 6]);
}

#[test]
fn dday_f3_the_target_owner_picks_the_figure() {
    let mut s = avranches(&[6, 1]);
    play(&mut s, &["activate:resistance:1:standing", "move:2", "move:3", "shoot:6"]);
    let legal_hits: Vec<&str> = dday::legal_actions(&s).iter().map(|&i| dday::action_names()[i]).collect();
    assert_eq!(legal_hits, ["hit:gendarme_1:standing", "hit:gendarme_2:standing", "hit:gendarme_3:standing"]);
    play(&mut s, &["hit:gendarme_2:standing"]);
    let hit: Vec<usize> =
        (0..s.skirmish.n_figures as usize).filter(|&i| s.skirmish.figures[i].state == FigState::Casualty).collect();
    assert_eq!(hit, vec![12], "the lowest id of gendarme_2");
    // One class present: the engine takes it (Q0).
    let mut s = f1_with(&[6, 1]);
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.phase, Phase::Actions);
}

#[test]
fn dday_f4_saves_four_plus_standing_three_plus_in_cover() {
    let mut s = f1_with(&[6, 4]);
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::Standing, "4 saves a standing figure");
    let mut s = f1_with(&[6, 3]);
    play(&mut s, &["shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::Casualty, "3 does not");
    // The squad figure takes cover at 5: then 3 saves.
    let dice = [6, 3, 6, 6, 1, 6, 6, 1, 6, 6, 6, 3];
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "move:3", "end_turn", "keep"]);
    play(&mut s, &["keep", "activate:squad:6:standing", "move:5", "cover", "end_turn", "keep"]);
    play(&mut s, &["activate:resistance:3:standing", "shoot:5"]);
    assert_eq!(s.skirmish.figures[9].state, FigState::InCover);
}

#[test]
fn dday_h1_rescue_own_marker_on_five_or_six() {
    for (die, state) in [(5, FigState::Evacuated), (4, FigState::Casualty)] {
        let mut s = f1_with(&[6, 1, 1, 6, 6, die]);
        play(&mut s, &["shoot:5", "end_turn", "keep", "keep", "activate:squad:6:standing"]);
        assert!(!legal(&s, "rescue"), "no own marker at 6");
        play(&mut s, &["move:5"]);
        assert!(legal(&s, "rescue"));
        play(&mut s, &["rescue"]);
        assert_eq!(s.skirmish.figures[9].state, state, "die {die}");
    }
    // The Resistance may not remove a German marker.
    let mut s = f1_with(&[6, 1]);
    play(&mut s, &["shoot:5", "move:4", "move:5"]);
    assert!(!legal(&s, "rescue"));
}

fn task_turn(tail: &[u8]) -> dday::State {
    // Task section 2 (die 3); figure 0 steps into it.
    let mut s = avranches(tail);
    play(&mut s, &["activate:resistance:1:standing"]);
    s
}

#[test]
fn dday_k1_task_sets_only_accumulate() {
    let mut s = task_turn(&[
        1, 2, 3, /* clock */ 1, /* German AP */ 1, 1, 1, /* clock */ 1, /* AP */ 6, 6, 3, 3, 4,
    ]);
    play(&mut s, &["move:2", "task:3", "end_turn", "keep", "end_turn", "keep"]);
    assert_eq!(state_dict(&s)["skirmish"]["task"]["resistance"], json!([1, 2, 3]));
    play(&mut s, &["activate:resistance:2:standing", "task:3"]);
    assert_eq!(state_dict(&s)["skirmish"]["task"]["resistance"], json!([1, 2, 3, 4]));
    // Leaving the task section does not reduce the set.
    play(&mut s, &["move:3"]);
    assert_eq!(state_dict(&s)["skirmish"]["task"]["resistance"], json!([1, 2, 3, 4]));
}

#[test]
fn dday_k2_one_task_roll_a_turn_of_at_most_three_dice_within_ap() {
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Avranches, &[6, 3, 1, 2, 5]));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2"]);
    assert!(legal(&s, "task:2") && !legal(&s, "task:3"), "2 AP left");
    play(&mut s, &["task:1"]);
    assert!(!legal(&s, "task:1"), "one roll a turn");
    assert_eq!(state_dict(&s)["skirmish"]["task_rolled"], true);
    assert_eq!(dday::action_names().iter().filter(|n| n.starts_with("task:")).count(), 3);
}

#[test]
fn dday_k3_resistance_rolls_only_holding_its_task_section() {
    let mut s = task_turn(&[]);
    assert!(!legal(&s, "task:1"), "nobody in section 2");
    play(&mut s, &["move:2"]);
    assert!(legal(&s, "task:1"));
    play(&mut s, &["move:3"]);
    assert!(!legal(&s, "task:1"));
}

#[test]
fn dday_k4_the_german_rolls_from_anywhere() {
    let mut s = avranches(&[1, 1, 1]);
    play(&mut s, &["end_turn", "keep"]);
    assert!(legal(&s, "task:3"), "gendarmes at 6, task section 2");
    assert_eq!(s.skirmish.turn, Side::German);
    assert!(!s.skirmish.holds_task_section());
}

#[test]
fn dday_k5_a_full_set_ends_the_skirmish_at_once() {
    let tail = [
        1, 2, 3, /* clock */ 1, /* German AP */ 1, 1, 1, /* clock */ 1, /* AP */ 6, 6, 4, 5, 6,
        /* next group */ 2,
    ];
    let mut s = task_turn(&tail);
    play(&mut s, &["move:2", "task:3", "end_turn", "keep", "end_turn", "keep"]);
    play(&mut s, &["activate:resistance:2:standing", "task:3"]);
    assert_eq!(s.records[0].unwrap().completed, Some(Side::Resistance));
    assert_eq!(s.phase, Phase::GroupSize, "the second skirmish's setup follows");
    let ev = events(&s);
    assert_eq!(&ev[ev.len() - 2..], ["task", "group_size"], "no clock roll after the completing task");
}

/// f1, then the German shoots figure 0 down from 5; the Resistance's third turn starts with 1
/// morale die.
fn resistance_casualty(tail: &[u8], cover_figure_1: bool) -> dday::State {
    let mut dice = vec![
        6, 3, 6, 6, 1, 6, 6, 1, 6, 6, /* clock */ 1, /* AP */ 6, 6, /* hit, save */ 5, 1,
        /* clock */ 1,
    ];
    dice.extend_from_slice(tail);
    let mut s = start(&skirmish([Zone::Caen, Zone::Avranches], Zone::Caen, &dice));
    play(&mut s, &["keep", "activate:resistance:1:standing", "move:2", "move:3"]);
    if cover_figure_1 {
        play(&mut s, &["activate:resistance:1:standing", "cover"]);
    }
    play(&mut s, &["end_turn", "keep"]);
    play(&mut s, &["keep", "activate:squad:6:standing", "move:5", "end_turn", "keep"]);
    play(&mut s, &["end_turn", "keep", "keep", "activate:squad:5:standing", "shoot:3"]);
    assert_eq!(s.skirmish.figures[0].state, FigState::Casualty);
    play(&mut s, &["end_turn", "keep"]);
    s
}

#[test]
fn dday_r1_one_morale_die_per_own_casualty_german_ignores_one() {
    let s = resistance_casualty(&[2, 6, 6], false);
    let morale: Vec<_> = s.dice.log.iter().filter(|r| r.event.as_str() == "morale").collect();
    assert_eq!(morale.len(), 1);
    assert_eq!(morale[0].dice(), &[2]);
    // The German with one casualty rolls none (f1: one squad figure down).
    let mut s = f1_with(&[6, 1, 1, 6, 6]);
    play(&mut s, &["shoot:5", "end_turn", "keep"]);
    assert!(!events(&s).contains(&"morale"));
}

#[test]
fn dday_r2_each_one_runs_a_figure_away() {
    let s = resistance_casualty(&[1, 6, 6], false);
    assert_eq!(s.skirmish.count(Side::Resistance, FigState::RanAway), 1);
    assert_eq!(s.skirmish.figures[1].state, FigState::RanAway, "lowest id of the only class at section 1");
    assert_eq!(s.skirmish.fighting(Side::Resistance), 7);
    let s = resistance_casualty(&[2, 6, 6], false);
    assert_eq!(s.skirmish.count(Side::Resistance, FigState::RanAway), 0);
}

#[test]
fn dday_r3_runaways_from_the_furthest_forward_section_owner_chooses_the_class() {
    let mut s = resistance_casualty(&[1, 6, 6], true);
    assert_eq!(s.phase, Phase::Morale);
    assert_eq!(s.to_move(), Some(Side::Resistance));
    assert!(legal(&s, "flee:resistance:standing") && legal(&s, "flee:resistance:in_cover"));
    assert!(!legal(&s, "flee:squad:standing"));
    play(&mut s, &["flee:resistance:in_cover"]);
    assert_eq!(s.skirmish.figures[1].state, FigState::RanAway);
    // The German's furthest forward is his lowest section.
    let s = f1_position();
    assert_eq!(furthest_forward(&s, Side::German), Some(5));
    assert_eq!(furthest_forward(&s, Side::Resistance), Some(3));
}

#[test]
fn dday_l1_clock_die_with_one_reroll_ends_at_zero() {
    let mut s = avranches(&[4, 2]);
    play(&mut s, &["end_turn"]);
    assert_eq!(state_dict(&s)["skirmish"]["pending"], json!({"kind": "clock", "dice": [4]}));
    play(&mut s, &["reroll"]);
    assert_eq!(s.skirmish.clock, 28, "the second roll stands");
    // Five turns of 6 take the clock to 0: the skirmish ends, nobody completed.
    let mut s2 = start(&skirmish(
        [Zone::Caen, Zone::Avranches],
        Zone::Avranches,
        &[6, 3, 1, 1, 6, 1, 1, 1, 6, 1, 1, 6, 1, 1, 1, 6, 1, 1, 6, 4],
    ));
    play(&mut s2, &["keep"]);
    for turn in 0..5 {
        assert_eq!(s2.skirmish.turn_number, turn + 1);
        play(&mut s2, &["end_turn", "keep"]);
    }
    assert_eq!(s2.records[0].unwrap().completed, None);
    assert_eq!(s2.skirmish_index, Some(1));
}

#[test]
fn dday_l2_every_turn_takes_time_at_most_thirty_turns() {
    for seed in 0..150 {
        let s = dday::new_game(seed, &Default::default()).unwrap();
        let mut last: Option<(u8, u16, i16)> = None;
        random_game(s, seed, |s, _| {
            if let (Some(k), true) = (s.skirmish_index, s.in_skirmish()) {
                let now = (k, s.skirmish.turn_number, s.skirmish.clock);
                assert!(now.1 <= 30);
                if let Some(prev) = last {
                    if prev.0 == now.0 && now.1 > prev.1 {
                        assert!(now.2 < prev.2, "the clock fell during turn {}", prev.1);
                    }
                }
                last = Some(now);
            }
        });
    }
}

#[test]
fn dday_e1_markers_become_killed_and_the_record_is_kept() {
    // f1 then a casualty at 5; then every turn ends at once with clock 6 (28 → 22 → … ≤ 0).
    let mut s = f1_with(&[6, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1, 6, 1, 1, 6, 3]);
    play(&mut s, &["shoot:5"]);
    play(&mut s, &["end_turn", "keep", "keep", "end_turn", "keep", "end_turn", "keep", "keep", "end_turn", "keep"]);
    play(&mut s, &["end_turn", "keep"]);
    let r = s.records[0].expect("skirmish 1 ended on the clock");
    assert_eq!(r.completed, None);
    assert_eq!((r.german_figures, r.german_killed, r.german_ran_away, r.german_evacuated), (6, 1, 0, 0));
    assert_eq!((r.resistance_size, r.resistance_killed), (9, 0));
    let d = state_dict(&s);
    assert_eq!(d["records"][0]["german"], json!({"figures": 6, "killed": 1, "ran_away": 0, "evacuated": 0}));
    assert_eq!(d["records"][0]["zone"], "caen");
}

#[test]
fn dday_e2_first_skirmish_second_skirmish_scoring_over() {
    let s = start(&skirmish([Zone::Lison, Zone::Bayeux], Zone::Lison, &[]));
    let mut seen = Vec::new();
    let end = random_game(s, 4, |s, _| {
        let key = (s.skirmish_index, s.phase == Phase::Scoring);
        if seen.last() != Some(&key) {
            seen.push(key);
        }
    });
    assert_eq!(seen, [(Some(0), false), (Some(1), false), (None, true)]);
    assert_eq!(end.phase, Phase::GameOver);
    assert_eq!(end.records.map(|r| r.unwrap().zone), [Zone::Lison, Zone::Bayeux]);
}

#[test]
fn dday_e3_higher_total_wins_equal_is_a_draw() {
    for seed in 0..200 {
        let s = random_game(dday::new_game(seed, &Default::default()).unwrap(), seed, |_, _| {});
        let (r, g) = s.vp_totals();
        let want = if r > g {
            Outcome::Resistance
        } else if g > r {
            Outcome::German
        } else {
            Outcome::Draw
        };
        assert_eq!(s.outcome, Some(want));
        let view = |side| s.outcome_for(side).unwrap();
        match want {
            Outcome::Draw => assert_eq!((view(Side::Resistance), view(Side::German)), ("draw", "draw")),
            Outcome::Resistance => assert_eq!((view(Side::Resistance), view(Side::German)), ("win", "loss")),
            Outcome::German => assert_eq!((view(Side::Resistance), view(Side::German)), ("loss", "win")),
        }
        assert_eq!(s.vp_margin(Side::Resistance), -s.vp_margin(Side::German));
    }
}
