//! Scenario tests for RULES.md §2 (T1–T5), §4 (F1–F9) and §7 (E1–E3): tracks and supply, the
//! course of a day, and the end of the game. Each test is named after the rule it checks and
//! fails if the engine breaks it.
//!
//! Handy cut-offs (B3): radio_b and spare_room_ne have no route home when black_market holds a
//! patrol; the whole west bank is cut off by patrols on black_market and pont_leveque.

mod common;

use common::*;
use maquis::maquis::board::bit;
use maquis::maquis::ids::{Difficulty, Location, Location::*, MissionId, MissionId::*, Outcome, Pawn, Phase, Resource, Resource::*};
use maquis::maquis::state::Tier;
use maquis::maquis::tracks::{MIN_PATROLS, ORANGE_DAYS, TRIANGLE_DAYS};
use maquis::maquis::{StartOverrides, State, WorkerOverride};

const DECK: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

fn fresh() -> State {
    game_with(Sabotage, UndergroundNewspaper, DECK, StartOverrides::default())
}

fn start(o: StartOverrides) -> State {
    game_with(Sabotage, UndergroundNewspaper, DECK, o)
}

fn missions(a: MissionId, b: MissionId, o: StartOverrides) -> State {
    game_with(a, b, DECK, o)
}

fn workers(available: u8, recruitable: u8) -> Option<WorkerOverride> {
    Some(WorkerOverride { available, recruitable })
}

/// A game at level `d` with a single worker and nobody to recruit.
fn solo(d: Difficulty, o: StartOverrides) -> State {
    game(&setup(d, Sabotage, UndergroundNewspaper, DECK).start(StartOverrides { workers: workers(1, 0), ..o }))
}

fn name(l: Location) -> &'static str {
    l.as_str()
}

/// Marks the mission on `slot` complete (a position set-up, not play).
fn complete_mission(s: &mut State, slot: usize) {
    let m = &mut s.missions[slot];
    m.boxes_done = m.boxes();
    m.complete = true;
    m.tier = Some(Tier::Success);
}

/// Places every remaining worker on the first legal of `spots`.
fn place_rest(s: &mut State, spots: &[Location]) {
    while s.phase == Phase::Placement {
        let spot = spots.iter().find(|l| is_legal(s, &format!("place:{}", name(**l)))).expect("a legal spot");
        act(s, &format!("place:{}", name(*spot)));
    }
}

const SPOTS: [Location; 5] = [Cafe, SpareRoomNe, SpareRoomW, SpareRoomSe, MissionA];

// =============================================================================================
// T1. Day track.

#[test]
fn t1_day_marker_starts_on_start_day_0() {
    let s = fresh();
    assert_eq!((s.day, s.pass), (0, 1));
    assert_eq!(maquis::maquis::save::state_dict(&s)["day"], 0);
}

#[test]
fn t1_orange_and_triangle_days_are_the_printed_ones() {
    assert_eq!(ORANGE_DAYS, [3, 6, 9, 12, 14]);
    assert_eq!(TRIANGLE_DAYS, [2, 5, 8, 10, 12]);
}

#[test]
fn t1_a_game_lasts_15_days_and_orange_days_cost_morale() {
    let mut s = solo(Difficulty::Normal, StartOverrides::default());
    let mut seen = vec![];
    while !s.is_over() {
        seen.push((s.day, s.tracks.morale));
        pass_day(&mut s, &[Cafe]);
    }
    let days: Vec<u8> = seen.iter().map(|&(d, _)| d).collect();
    assert_eq!(days, (0..=14).collect::<Vec<u8>>(), "days 0–14");
    // Morale drops when the marker moves onto 3, 6, 9, 12, 14.
    let morale: Vec<u8> = seen.iter().map(|&(_, m)| m).collect();
    assert_eq!(morale, [6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 1]);
    assert_eq!((s.day, s.tracks.morale), (15, 1), "END shows as day 15 and costs nothing");
}

// =============================================================================================
// T2. Morale track.

#[test]
fn t2_morale_starts_at_6() {
    assert_eq!(fresh().tracks.morale, 6);
    let s = maquis::maquis::new_game(&maquis::maquis::Setup::new(Difficulty::Hard).missions(AidTheSpy, Sabotage), 1).unwrap();
    assert_eq!(s.tracks.morale, 6);
}

#[test]
fn t2_minimum_patrols_per_morale() {
    assert_eq!(&MIN_PATROLS[1..], &[5, 4, 4, 4, 3, 3, 2]);
    for m in 1..=7u8 {
        let mut s = start(StartOverrides { morale: Some(m), workers: workers(1, 0), ..Default::default() });
        let want = [0, 5, 4, 4, 4, 3, 3, 2][m as usize];
        assert_eq!(s.patrols_today, want, "morale {m}");
        act(&mut s, "place:cafe");
        assert_eq!(patrols_on_board(&s), want as u32, "morale {m}");
    }
}

#[test]
fn t2_morale_never_exceeds_7() {
    let mut s = start(StartOverrides { morale: Some(7), ..Default::default() });
    give(&mut s, Food, 1);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[PoorDistrict, Cafe], &[], &[]);
    act(&mut s, "act:poor_district:morale");
    assert_eq!(s.tracks.morale, 7, "the excess gain is lost");
    assert_eq!((hand(&s, Food), hand(&s, Medicine)), (0, 0), "the cost is still paid");
}

#[test]
fn t2_morale_zero_ends_the_game_at_once_in_a_loss() {
    let mut s = solo(Difficulty::Normal, StartOverrides { morale: Some(1), day: Some(2), ..Default::default() });
    pass_day(&mut s, &[Cafe]);
    assert_eq!(s.tracks.morale, 0);
    assert!(s.is_over());
    assert_eq!(s.outcome, Some(Outcome::Loss));
    assert!(maquis::maquis::legal_mask(&s).is_empty());
}

// =============================================================================================
// T3. Soldier track.

#[test]
fn t3_soldier_track_starts_at_0() {
    assert_eq!(fresh().tracks.soldiers, 0);
}

#[test]
fn t3_each_actual_step_costs_one_morale() {
    let mut s = fresh();
    maquis::maquis::rules::advance_soldiers(&mut s, 2);
    assert_eq!((s.tracks.soldiers, s.tracks.morale), (2, 4));
}

#[test]
fn t3_steps_beyond_5_neither_advance_nor_cost_morale() {
    let mut s = start(StartOverrides { soldiers: Some(4), ..Default::default() });
    maquis::maquis::rules::advance_soldiers(&mut s, 3);
    assert_eq!((s.tracks.soldiers, s.tracks.morale), (5, 5), "only one step was taken");
    maquis::maquis::rules::advance_soldiers(&mut s, 1);
    assert_eq!((s.tracks.soldiers, s.tracks.morale), (5, 5));

    // In play: Milice HQ's poison (morale +2, then soldier track +3) at soldier track 4.
    let mut s = missions(MiliceHq, Sabotage, StartOverrides { soldiers: Some(4), morale: Some(3), ..Default::default() });
    s.missions[0].boxes_done = 1;
    give(&mut s, Poison, 2);
    action_phase(&mut s, &[MissionA, Cafe], &[], &[]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!((s.tracks.soldiers, s.tracks.morale), (5, 4), "3 + 2 − 1");
}

#[test]
fn t3_milice_in_the_game_are_five_minus_the_soldier_track() {
    // Morale 1: five patrols; soldier track 3: two Milice, three soldiers.
    let mut s = start(StartOverrides { morale: Some(1), soldiers: Some(3), workers: workers(1, 0), ..Default::default() });
    act(&mut s, "place:cafe");
    assert_eq!(patrols_on_board(&s), 5);
    assert_eq!(s.locs_with(Pawn::Milice).count_ones(), 2);
    assert_eq!(s.locs_with(Pawn::Soldier).count_ones(), 3);
}

// =============================================================================================
// T4. Supply.

#[test]
fn t4_four_tokens_of_each_of_eight_resources() {
    let s = fresh();
    assert_eq!(Resource::ALL.len(), 8);
    let ids: Vec<&str> = Resource::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(ids, ["intel", "food", "medicine", "money", "weapon", "explosive", "poison", "fake_id"]);
    assert_eq!(s.tokens.supply, [4; 8]);
    assert_eq!(s.tokens.hand, [0; 8]);
}

#[test]
fn t4_a_gain_gives_what_the_supply_has_and_the_rest_is_lost() {
    // Grocer with the four food already in hand: nothing more.
    let mut s = fresh();
    give(&mut s, Food, 4);
    action_phase(&mut s, &[Grocer, Cafe], &[], &[]);
    act(&mut s, "act:grocer:food");
    assert_eq!((hand(&s, Food), supply(&s, Food)), (4, 0));

    // Smuggler (+3 food) with one food in the supply: +1.
    let mut s = fresh();
    s.marks.tiles[1] = Some(maquis::maquis::Tile::Smuggler);
    give(&mut s, Food, 3);
    action_phase(&mut s, &[SpareRoomW, Cafe], &[], &[]);
    act(&mut s, "act:spare_room_w:food");
    assert_eq!((hand(&s, Food), supply(&s, Food)), (4, 0));
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn t4_spent_tokens_return_to_the_supply() {
    let mut s = fresh();
    give(&mut s, Food, 2);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[PoorDistrict, Cafe], &[], &[]);
    act(&mut s, "act:poor_district:morale");
    assert_eq!((supply(&s, Food), supply(&s, Medicine)), (3, 4));
    assert_eq!((hand(&s, Food), hand(&s, Medicine)), (1, 0));
}

#[test]
fn t4_tokens_are_in_supply_hand_field_or_with_a_worker() {
    let mut s = fresh();
    give(&mut s, FakeId, 2);
    act(&mut s, "place:radio_a:fake_id");
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (1, 2), "one Fake ID travels with the worker");
    maquis::maquis::save::validate(&s).unwrap();
    place_rest(&mut s, &[Cafe, SpareRoomNe]);
    // Soldiers only, so that no shot prompt interrupts.
    s.pawns.iter_mut().filter(|p| p.is_patrol()).for_each(|p| *p = Pawn::Soldier);
    act(&mut s, "act:radio_a:airdrop_field_w_food");
    let on_field = s.tokens.airdrop[0][Food.idx()];
    assert_eq!(on_field + supply(&s, Food) + hand(&s, Food), 4);
    maquis::maquis::save::validate(&s).unwrap();
}

// =============================================================================================
// T5. Workers.

#[test]
fn t5_five_workers_three_home_two_at_the_cafe() {
    let s = fresh();
    assert_eq!((s.level_workers, s.home, s.recruitable, s.gone), (5, 3, 2, 0));
    let w = &maquis::maquis::save::state_dict(&s)["workers"];
    assert_eq!(w, &serde_json::json!({"available": 3, "placed": 0, "stuck": 0, "recruitable": 2, "gone": 0}));
}

#[test]
fn t5_fifth_worker_does_not_exist_in_tricky_and_harder() {
    for d in [Difficulty::Tricky, Difficulty::Hard, Difficulty::VeryHard] {
        let s = game(&setup(d, Sabotage, UndergroundNewspaper, DECK));
        assert_eq!((s.level_workers, s.home, s.recruitable, s.gone), (4, 2, 2, 0), "{d}");
    }
}

#[test]
fn t5_worker_states_always_add_up() {
    let mut s = missions(CodedMessages, Sabotage, StartOverrides::default());
    for r in [Money, Food, Weapon] {
        give(&mut s, r, 1);
    }
    give(&mut s, Food, 1);
    action_phase(&mut s, &[MissionA, Cafe, RadioB], &[], &[BlackMarket]);
    act(&mut s, "act:mission_a:train");
    act(&mut s, "act:cafe:recruit");
    let w = &maquis::maquis::save::state_dict(&s)["workers"];
    assert_eq!(w, &serde_json::json!({"available": 2, "placed": 1, "stuck": 1, "recruitable": 1, "gone": 0}));
    act(&mut s, "skip:radio_b"); // cut off by the soldier on black_market
    assert_eq!(s.day, 1);
    let w = &maquis::maquis::save::state_dict(&s)["workers"];
    assert_eq!(w, &serde_json::json!({"available": 2, "placed": 0, "stuck": 1, "recruitable": 1, "gone": 1}));
}

#[test]
fn t5_a_worker_that_becomes_stuck_gives_its_fake_id_back_to_the_hand() {
    let mut s = missions(CodedMessages, Sabotage, StartOverrides::default());
    for r in [Money, Food, Weapon] {
        give(&mut s, r, 1);
    }
    action_phase(&mut s, &[MissionA, Cafe], &[], &[]);
    fake_id_on(&mut s, MissionA);
    act(&mut s, "act:mission_a:train");
    assert_eq!(s.marks.stuck, bit(MissionA));
    assert_eq!(s.marks.fake_ids, 0);
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (1, 3));
}

#[test]
fn t5_gone_is_permanent() {
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe, SpareRoomW], &[], &[BlackMarket]);
    act(&mut s, "skip:radio_b");
    skip_rest_of_day(&mut s);
    assert_eq!((s.day, s.home, s.gone), (1, 2, 1));
    pass_day(&mut s, &[PontLeveque, Cafe]);
    assert_eq!((s.day, s.home, s.gone, s.recruitable), (2, 2, 1, 2));
}

// =============================================================================================
// F1. Order.

#[test]
fn f1_a_day_is_placement_then_actions_then_upkeep() {
    let mut s = fresh();
    assert_eq!(s.phase, Phase::Placement);
    assert!(legal_names(&s).iter().all(|n| n.starts_with("place:")));
    place_rest(&mut s, &SPOTS);
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(s.day, 0);
    assert!(legal_names(&s).iter().all(|n| n.starts_with("act:") || n.starts_with("skip:") || n.starts_with("shoot:")));
    assert_eq!(patrols_on_board(&s), 3, "patrols came out automatically");
    skip_rest_of_day(&mut s);
    // Upkeep ran by itself: patrols gone, marker advanced, next placement.
    assert_eq!((s.day, s.phase), (1, Phase::Placement));
    assert_eq!(patrols_on_board(&s), 0);
}

// =============================================================================================
// F2. Patrol count.

#[test]
fn f2_patrol_count_is_max_of_available_workers_and_morale_minimum() {
    for (available, morale, want) in [(1, 7, 2), (3, 7, 3), (5, 6, 5), (3, 1, 5), (2, 5, 3), (4, 4, 4), (5, 7, 5)] {
        let mut s = start(StartOverrides { morale: Some(morale), workers: workers(available, 5 - available), ..Default::default() });
        assert_eq!(s.patrols_today, want, "{available} workers, morale {morale}");
        place_rest(&mut s, &SPOTS);
        assert_eq!(s.patrols_drawn, want);
        assert_eq!(patrols_on_board(&s), want as u32, "{available} workers, morale {morale}");
    }
}

#[test]
fn f2_stuck_workers_are_not_counted() {
    // Morale 7 (minimum 2). Day 0: three workers, one trains for Coded Messages and stays on the card.
    let mut s = missions(CodedMessages, Sabotage, StartOverrides { morale: Some(7), ..Default::default() });
    for r in [Money, Food, Weapon] {
        give(&mut s, r, 1);
    }
    action_phase(&mut s, &[MissionA, Cafe, SpareRoomW], &[], &[]);
    act(&mut s, "act:mission_a:train");
    skip_rest_of_day(&mut s);
    assert_eq!((s.day, s.home, s.stuck_workers()), (1, 2, 1));
    assert_eq!(s.patrols_today, 2, "max(2 available, 2) — the stuck worker does not count");
}

#[test]
fn f2_a_worker_recruited_today_counts_from_the_next_day() {
    let mut s = fresh();
    give(&mut s, Food, 1);
    action_phase(&mut s, &[Cafe, SpareRoomW, PontLeveque], &[], &[]);
    act(&mut s, "act:cafe:recruit");
    skip_rest_of_day(&mut s);
    assert_eq!((s.home, s.patrols_today), (4, 4));
}

// =============================================================================================
// F3. Placement phase.

#[test]
fn f3_all_available_workers_must_be_placed() {
    let mut s = fresh();
    for (placed, &spot) in SPOTS.iter().take(3).enumerate() {
        assert_eq!(s.phase, Phase::Placement, "{placed} placed");
        let names = legal_names(&s);
        assert!(!names.is_empty() && names.iter().all(|n| n.starts_with("place:")), "no way to stop placing: {names:?}");
        act(&mut s, &format!("place:{}", name(spot)));
    }
    assert_eq!(s.phase, Phase::Action);
    assert_eq!((s.home, s.placed_workers()), (0, 3));
}

#[test]
fn f3_worker_then_patrol_alternating_starting_with_the_player() {
    let mut s = fresh();
    assert_eq!(patrols_on_board(&s), 0, "the player starts");
    act(&mut s, "place:cafe");
    assert_eq!(patrols_on_board(&s), 1);
    act(&mut s, "place:spare_room_ne");
    assert_eq!(patrols_on_board(&s), 2);
    act(&mut s, "place:spare_room_w");
    assert_eq!(patrols_on_board(&s), 3);
}

#[test]
fn f3_remaining_patrols_are_placed_after_the_last_worker() {
    let mut s = start(StartOverrides { morale: Some(1), ..Default::default() });
    act(&mut s, "place:cafe");
    assert_eq!(patrols_on_board(&s), 1);
    act(&mut s, "place:spare_room_ne");
    assert_eq!(patrols_on_board(&s), 2);
    act(&mut s, "place:spare_room_w");
    assert_eq!(patrols_on_board(&s), 5);
    assert_eq!(s.phase, Phase::Action);
}

#[test]
fn f3_patrol_placement_sees_the_workers_placed_so_far() {
    // Card 0 puts its patrol on pont_leveque after the first worker: the next worker cannot go there.
    let mut s = fresh();
    act(&mut s, "place:cafe");
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice);
    assert!(!is_legal(&s, "place:pont_leveque"));
}

// =============================================================================================
// F4. Where a worker may go.

#[test]
fn f4_fields_only_when_they_held_an_airdrop_at_the_start_of_the_day() {
    let mut s = fresh();
    assert!(!is_legal(&s, "place:field_w") && !is_legal(&s, "place:field_e"));
    // Tokens that appear during the day do not count until the next day.
    s.tokens.supply[Money.idx()] -= 1;
    s.tokens.airdrop[1][Money.idx()] = 1;
    assert!(!is_legal(&s, "place:field_e"));
    s.tokens.airdrop_at_day_start[1] = true;
    assert!(is_legal(&s, "place:field_e"));
    assert!(!is_legal(&s, "place:field_w"));
}

#[test]
fn f4_field_with_an_aa_gun_is_placeable() {
    let s = missions(DestroyAaGuns, Sabotage, StartOverrides::default());
    assert!(is_legal(&s, "place:field_w") && is_legal(&s, "place:field_e"));
}

#[test]
fn f4_locations_a_mission_makes_unusable_are_not_placeable() {
    let mut s = missions(BombForTheOfficer, Sabotage, StartOverrides::default());
    s.tokens.supply[Money.idx()] -= 1;
    s.tokens.airdrop[1][Money.idx()] = 1;
    s.tokens.airdrop_at_day_start[1] = true;
    assert!(!is_legal(&s, "place:field_e"), "even with an airdrop");
    assert!(!is_legal(&s, "place:spare_room_se"));
    assert!(is_legal(&s, "place:spare_room_ne"));
}

#[test]
fn f4_mission_slot_only_while_its_card_offers_an_action() {
    let s = missions(MiliceParadeDay, Sabotage, StartOverrides::default());
    assert!(!is_legal(&s, "place:mission_a"), "Milice Parade Day has no action on the card");
    assert!(is_legal(&s, "place:mission_b"), "Sabotage offers infiltrate");
    // Placeable whether or not the cost can be paid (Underground Newspaper needs 2 intel).
    let s = missions(UndergroundNewspaper, DoubleAgent, StartOverrides::default());
    assert!(is_legal(&s, "place:mission_a"));
    assert!(!is_legal(&s, "place:mission_b"));
}

#[test]
fn f4_a_route_home_does_not_matter_at_placement() {
    // Card 5: pont_leveque, black_market, doctor. With a worker on pont_leveque the patrol goes to
    // black_market, which cuts radio_b off — radio_b is still placeable.
    let mut s = game_with(Sabotage, UndergroundNewspaper, [5, 0, 1, 2, 3, 4, 6, 7, 8, 9], StartOverrides::default());
    act(&mut s, "place:pont_leveque");
    assert!(pawn_at(&s, BlackMarket).is_patrol());
    assert!(is_legal(&s, "place:radio_b"));
    assert!(is_legal(&s, "place:spare_room_ne"));
}

// =============================================================================================
// F5. Fake ID at placement.

#[test]
fn f5_a_worker_may_be_placed_with_one_fake_id_from_the_hand() {
    let mut s = fresh();
    assert!(!is_legal(&s, "place:fence:fake_id"), "no Fake ID in hand");
    give(&mut s, FakeId, 2);
    assert!(is_legal(&s, "place:fence:fake_id"));
    act(&mut s, "place:fence:fake_id");
    assert_eq!(s.marks.fake_ids, bit(Fence));
    assert_eq!(hand(&s, FakeId), 1);
    act(&mut s, "place:cafe");
    assert_eq!(s.marks.fake_ids, bit(Fence), "placing without one keeps the hand");
    assert_eq!(hand(&s, FakeId), 1);
    act(&mut s, "place:radio_a:fake_id");
    assert_eq!(s.marks.fake_ids, bit(Fence) | bit(RadioA));
    assert_eq!(hand(&s, FakeId), 0);
    maquis::maquis::save::validate(&s).unwrap();
}

// =============================================================================================
// F6. Action phase.

#[test]
fn f6_workers_are_activated_one_at_a_time_in_any_order() {
    let mut s = fresh();
    action_phase(&mut s, &[Grocer, Doctor, RadioA], &[], &[]);
    for l in [Grocer, Doctor, RadioA] {
        assert!(is_legal(&s, &format!("skip:{}", name(l))));
    }
    // Last placed first.
    act(&mut s, "act:radio_a:intel");
    assert_eq!(pawn_at(&s, RadioA), Pawn::Empty);
    assert!(!is_legal(&s, "skip:radio_a"), "each worker is activated once");
    assert!(!is_legal(&s, "act:radio_a:intel"));
    assert_eq!(s.home, 1, "the activated worker went home");
    act(&mut s, "skip:grocer");
    assert_eq!(hand(&s, Food), 0, "without an action nothing is gained");
    assert_eq!(s.home, 2);
    act(&mut s, "act:doctor:medicine");
    assert_eq!((hand(&s, Intel), hand(&s, Medicine)), (1, 1));
}

#[test]
fn f6_an_option_is_legal_only_when_its_cost_can_be_paid() {
    let mut s = fresh();
    action_phase(&mut s, &[Fence, PoorDistrict, Cafe], &[], &[]);
    assert!(!is_legal(&s, "act:fence:weapon"));
    assert!(!is_legal(&s, "act:poor_district:morale"));
    assert!(!is_legal(&s, "act:cafe:recruit"));
    assert!(is_legal(&s, "skip:fence"));
}

#[test]
fn f6_rewards_pay_for_later_activations_the_same_day() {
    let mut s = fresh();
    action_phase(&mut s, &[Grocer, Doctor, PoorDistrict], &[], &[]);
    s.tracks.morale = 5;
    assert!(!is_legal(&s, "act:poor_district:morale"));
    act(&mut s, "act:grocer:food");
    assert!(!is_legal(&s, "act:poor_district:morale"));
    act(&mut s, "act:doctor:medicine");
    assert!(is_legal(&s, "act:poor_district:morale"));
    act(&mut s, "act:poor_district:morale");
    assert_eq!(s.tracks.morale, 6);
    assert_eq!(s.tokens.hand, [0; 8]);
}

// =============================================================================================
// F7. Route home.

#[test]
fn f7_a_patrol_blocks_the_route_and_the_worker_is_arrested() {
    for pawn in [Pawn::Milice, Pawn::Soldier] {
        let mut s = fresh();
        action_phase(&mut s, &[RadioB, Cafe], &[], &[]);
        s.pawns[BlackMarket.idx()] = pawn;
        s.patrols_today = 1;
        s.patrols_drawn = 1;
        act(&mut s, "act:radio_b:intel");
        assert_eq!((s.gone, hand(&s, Intel), supply(&s, Intel)), (1, 0, 4), "{pawn:?}");
        assert_eq!(pawn_at(&s, RadioB), Pawn::Empty);
    }
}

#[test]
fn f7_other_workers_never_block() {
    // radio_b's only way is black_market, then grocer: both hold workers.
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, BlackMarket, Grocer], &[PontLeveque], &[]);
    act(&mut s, "act:radio_b:intel");
    assert_eq!((s.gone, hand(&s, Intel)), (0, 1));
}

#[test]
fn f7_closed_roads_cannot_be_used() {
    // Milice Parade Day closes rue_baradat–fence on orange days; with doctor patrolled,
    // rue_baradat's other way, the worker is cut off on day 3 but not on day 4.
    for (day, gone) in [(3, 1), (4, 0)] {
        let mut s = missions(MiliceParadeDay, Sabotage, StartOverrides { day: Some(day), ..Default::default() });
        action_phase(&mut s, &[RueBaradat, Cafe], &[], &[Doctor]);
        act(&mut s, "skip:rue_baradat");
        assert_eq!(s.gone, gone, "day {day}");
    }
    // Once the mission is done, the road stays open.
    let mut s = missions(MiliceParadeDay, Sabotage, StartOverrides { day: Some(3), ..Default::default() });
    complete_mission(&mut s, 0);
    action_phase(&mut s, &[RueBaradat, Cafe], &[], &[Doctor]);
    act(&mut s, "skip:rue_baradat");
    assert_eq!(s.gone, 0);
    // A destroyed bridge: pont_du_nord with poor_district patrolled needs the north bridge.
    let mut s = missions(TakeOutTheBridges, Sabotage, StartOverrides::default());
    s.marks.bridges_destroyed = 1;
    action_phase(&mut s, &[PontDuNord, Cafe], &[], &[PoorDistrict]);
    act(&mut s, "skip:pont_du_nord");
    assert_eq!(s.gone, 1);
}

#[test]
fn f7_closed_roads_are_listed_in_the_state_dict() {
    let s = missions(MiliceParadeDay, Sabotage, StartOverrides { day: Some(3), ..Default::default() });
    assert_eq!(maquis::maquis::save::state_dict(&s)["closed_roads"], serde_json::json!([["rue_baradat", "fence"]]));
    let s = missions(MiliceParadeDay, Sabotage, StartOverrides { day: Some(4), ..Default::default() });
    assert_eq!(maquis::maquis::save::state_dict(&s)["closed_roads"], serde_json::json!([]));
    let mut s = missions(TakeOutTheBridges, Sabotage, StartOverrides::default());
    s.marks.bridges_destroyed = 3;
    assert_eq!(
        maquis::maquis::save::state_dict(&s)["closed_roads"],
        serde_json::json!([["pont_du_nord", "black_market"], ["poor_district", "black_market"]])
    );
}

#[test]
fn f7_fake_id_crosses_one_patrol() {
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket]);
    fake_id_on(&mut s, RadioB);
    act(&mut s, "act:radio_b:intel");
    assert_eq!(s.gone, 0, "the Fake ID takes the worker past black_market");
    assert_eq!(hand(&s, Intel), 1, "and the unsafe reward arrives");
    assert_eq!(s.marks.fake_ids, 0);
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (0, 4), "the Fake ID is spent");
}

#[test]
fn f7_fake_id_crosses_exactly_one_patrol_not_two() {
    // radio_b → black_market (patrol) → … every way on meets a second patrol (grocer, pont_leveque).
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket, Grocer, PontLeveque]);
    fake_id_on(&mut s, RadioB);
    act(&mut s, "act:radio_b:intel");
    assert_eq!(s.gone, 1);
    assert_eq!((hand(&s, Intel), supply(&s, Intel)), (0, 4));
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (0, 4), "arrested: the Fake ID returns to the supply");

    // Two patrols in the way but a path crossing only one of them: black_market, then the west
    // bank round to pont_leveque.
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket, Grocer]);
    fake_id_on(&mut s, RadioB);
    act(&mut s, "skip:radio_b");
    assert_eq!(s.gone, 0);
    assert_eq!(supply(&s, FakeId), 4);
}

#[test]
fn f7_unspent_fake_id_returns_to_the_hand() {
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[], &[Grocer]);
    fake_id_on(&mut s, RadioB);
    act(&mut s, "skip:radio_b");
    assert_eq!(s.gone, 0);
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (1, 3));
}

#[test]
fn f7_arrest_loses_unsafe_reward() {
    // radio_a: doctor and spare_room_w only; patrols on doctor, rue_baradat and pont_leveque.
    let mut s = fresh();
    action_phase(&mut s, &[RadioA, Cafe], &[], &[Doctor, RueBaradat, PontLeveque]);
    fake_id_on(&mut s, RadioA);
    act(&mut s, "act:radio_a:airdrop_field_e_food");
    assert_eq!(s.gone, 1);
    assert_eq!(s.tokens.airdrop[1], [0; 8], "the airdrop is lost");
    assert_eq!(supply(&s, Food), 4);
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (0, 4), "its Fake ID returns to the supply");
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn f7_b2_safe_reward_kept_on_arrest() {
    let mut s = start(StartOverrides { morale: Some(4), ..Default::default() });
    give(&mut s, Food, 1);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[PoorDistrict, Cafe], &[], &[BlackMarket, PontLeveque]);
    act(&mut s, "act:poor_district:morale");
    assert_eq!((s.gone, s.tracks.morale), (1, 5));
}

#[test]
fn f7_a_spare_room_safe_house_is_a_destination() {
    let mut s = fresh();
    s.marks.tiles[1] = Some(maquis::maquis::Tile::SafeHouse);
    action_phase(&mut s, &[RadioA, Cafe], &[], &[Doctor]);
    act(&mut s, "skip:radio_a");
    assert_eq!(s.gone, 0);
}

// =============================================================================================
// F8. Shooting.

/// A worker on radio_b cut off by a Milice on black_market, a second Milice on doctor, one weapon.
fn cut_off_with_weapon() -> State {
    let mut s = fresh();
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket, Doctor], &[]);
    s
}

fn set(v: &[&str]) -> std::collections::BTreeSet<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn f8_a_cut_off_worker_lets_the_player_shoot_first() {
    let mut s = cut_off_with_weapon();
    act(&mut s, "act:radio_b:intel");
    assert_eq!(s.phase, Phase::PostAction);
    assert_eq!(pawn_at(&s, RadioB), Pawn::Worker, "the route is not checked yet");
    assert_eq!(legal_names(&s).into_iter().collect::<std::collections::BTreeSet<_>>(), set(&["accept", "shoot:black_market", "shoot:doctor"]));
}

#[test]
fn f8_shooting_the_blocking_milice_frees_the_route() {
    let mut s = cut_off_with_weapon();
    act(&mut s, "act:radio_b:intel");
    act(&mut s, "shoot:black_market");
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(pawn_at(&s, BlackMarket), Pawn::Empty, "the Milice leaves the board");
    assert_eq!((hand(&s, Weapon), supply(&s, Weapon)), (0, 4), "the weapon is discarded");
    assert_eq!((s.tracks.soldiers, s.tracks.morale), (1, 5), "soldier track +1, morale −1");
    assert!(s.today.shot_today);
    assert_eq!((s.gone, hand(&s, Intel)), (0, 1), "the worker got home with its reward");
}

#[test]
fn f8_accept_then_the_route_is_checked() {
    let mut s = cut_off_with_weapon();
    act(&mut s, "act:radio_b:intel");
    act(&mut s, "accept");
    assert_eq!(s.phase, Phase::Action);
    assert_eq!((s.gone, hand(&s, Intel), hand(&s, Weapon)), (1, 0, 1));
    assert!(!s.today.shot_today);
    assert_eq!(s.tracks.soldiers, 0);
}

#[test]
fn f8_shooting_another_milice_does_not_save_the_worker() {
    let mut s = cut_off_with_weapon();
    act(&mut s, "skip:radio_b");
    act(&mut s, "shoot:doctor");
    assert_eq!((s.gone, s.tracks.soldiers, hand(&s, Weapon)), (1, 1, 0));
    assert_eq!(pawn_at(&s, Doctor), Pawn::Empty);
}

#[test]
fn f8_never_a_soldier() {
    let mut s = fresh();
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioB, Cafe], &[Doctor], &[BlackMarket]);
    assert!(!is_legal(&s, "shoot:black_market"));
    assert!(is_legal(&s, "shoot:doctor"));
    act(&mut s, "skip:radio_b");
    assert_eq!(legal_names(&s).into_iter().collect::<std::collections::BTreeSet<_>>(), set(&["accept", "shoot:doctor"]));
}

#[test]
fn f8_shooting_during_the_action_phase_once_per_day() {
    let mut s = fresh();
    give(&mut s, Weapon, 2);
    action_phase(&mut s, &[RadioB, Cafe, SpareRoomW], &[BlackMarket, Doctor], &[]);
    act(&mut s, "shoot:doctor");
    assert_eq!((s.tracks.soldiers, s.tracks.morale, hand(&s, Weapon)), (1, 5, 1));
    assert!(!is_legal(&s, "shoot:black_market"), "once per day");
    // A later cut-off worker gets no second chance.
    act(&mut s, "skip:radio_b");
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(s.gone, 1);
    // Next day the shot is possible again.
    act(&mut s, "skip:cafe");
    act(&mut s, "skip:spare_room_w");
    assert_eq!(s.day, 1);
    assert!(!s.today.shot_today);
}

#[test]
fn f8_no_prompt_without_weapon_milice_or_when_the_route_exists() {
    // No weapon.
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket], &[]);
    act(&mut s, "skip:radio_b");
    assert_eq!((s.phase, s.gone), (Phase::Action, 1));
    // Only soldiers on the board.
    let mut s = fresh();
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket]);
    act(&mut s, "skip:radio_b");
    assert_eq!((s.phase, s.gone), (Phase::Action, 1));
    // A route home.
    let mut s = fresh();
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioA, Cafe], &[BlackMarket], &[]);
    act(&mut s, "skip:radio_a");
    assert_eq!((s.phase, s.gone), (Phase::Action, 0));
}

#[test]
fn f8_no_shooting_while_german_shepherds_is_unfinished() {
    let mut s = missions(GermanShepherds, Sabotage, StartOverrides::default());
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket, Doctor], &[]);
    assert!(!is_legal(&s, "shoot:doctor"));
    act(&mut s, "skip:radio_b");
    assert_eq!((s.phase, s.gone), (Phase::Action, 1), "no prompt");
    // Finished: shooting is allowed again.
    let mut s = missions(GermanShepherds, Sabotage, StartOverrides::default());
    complete_mission(&mut s, 0);
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket, Doctor], &[]);
    assert!(is_legal(&s, "shoot:doctor"));
}

#[test]
fn f8_a_pending_weapon_may_pay_for_the_shot() {
    // Fence, cut off by Milice on poor_district and rue_baradat, buys a weapon with its last money.
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[Fence, Cafe], &[PoorDistrict, RueBaradat], &[]);
    act(&mut s, "act:fence:weapon");
    assert_eq!(s.phase, Phase::PostAction, "the pending weapon makes a shot possible");
    act(&mut s, "shoot:poor_district");
    assert_eq!(s.gone, 0, "fence → poor_district → pont_leveque → home");
    assert_eq!((hand(&s, Weapon), supply(&s, Weapon)), (0, 4), "the bought weapon was the one shot");
    assert_eq!((hand(&s, Money), s.tracks.soldiers), (0, 1));
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn f8_pending_reward_left_over_is_lost_if_the_worker_is_still_arrested() {
    // The shot removes an unrelated Milice: the pending weapon is spent, the worker is still cut
    // off and arrested, and nothing of the reward is left.
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[Fence, Cafe], &[PoorDistrict, RueBaradat, Grocer], &[]);
    act(&mut s, "act:fence:weapon");
    act(&mut s, "shoot:grocer");
    assert_eq!(s.gone, 1);
    assert_eq!((hand(&s, Weapon), supply(&s, Weapon), supply(&s, Money)), (0, 4, 4));
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn f8_the_pending_weapon_is_spent_before_the_hands() {
    // Ruling (engine, F8): the shot uses the pending weapon first, as it would otherwise be lost.
    let mut s = fresh();
    give(&mut s, Money, 1);
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[Fence, Cafe], &[PoorDistrict, RueBaradat, Grocer], &[]);
    act(&mut s, "act:fence:weapon");
    act(&mut s, "shoot:grocer");
    assert_eq!(s.gone, 1);
    assert_eq!(hand(&s, Weapon), 1, "the hand's weapon is kept");
}

#[test]
fn f8_an_airdropped_weapon_is_not_at_hand() {
    // A pending airdrop puts its weapon on a field, not in the hand: no shot is possible with it.
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:radio_b:airdrop_field_w_weapon");
    assert_eq!((s.phase, s.gone), (Phase::Action, 1));
    assert_eq!((s.tokens.airdrop[0][Weapon.idx()], supply(&s, Weapon)), (0, 4));
}

#[test]
fn f8_cut_off_is_judged_before_any_fake_id_is_spent() {
    let mut s = cut_off_with_weapon();
    fake_id_on(&mut s, RadioB);
    act(&mut s, "skip:radio_b");
    assert_eq!(s.phase, Phase::PostAction, "a Fake ID route does not count as a path home here");
    act(&mut s, "accept");
    assert_eq!(s.gone, 0, "then the Fake ID gets the worker home");
    assert_eq!(supply(&s, FakeId), 4);
}

#[test]
fn f8_a_weapon_gained_this_day_can_be_used() {
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[Fence, Cafe], &[Doctor], &[]);
    assert!(!is_legal(&s, "shoot:doctor"));
    act(&mut s, "act:fence:weapon");
    assert!(is_legal(&s, "shoot:doctor"));
    act(&mut s, "shoot:doctor");
    assert_eq!((s.tracks.soldiers, hand(&s, Weapon)), (1, 0));
}

#[test]
fn f8_the_shot_milice_leaves_the_game() {
    // After the shot the soldier track is 1: the last patrol of every later day is a soldier.
    let mut s = fresh();
    give(&mut s, Weapon, 1);
    action_phase(&mut s, &[Cafe], &[Doctor], &[]);
    act(&mut s, "shoot:doctor");
    act(&mut s, "skip:cafe");
    assert_eq!(s.day, 1);
    place_rest(&mut s, &SPOTS);
    // Cards 0, 1, 2 (nothing was drawn on day 0): pont_leveque, radio_b, grocer.
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice);
    assert_eq!(pawn_at(&s, RadioB), Pawn::Milice);
    assert_eq!(pawn_at(&s, Grocer), Pawn::Soldier);
}

// =============================================================================================
// F9. Upkeep.

#[test]
fn f9_upkeep_removes_patrols_and_advances_the_day() {
    let mut s = fresh();
    place_rest(&mut s, &SPOTS);
    assert_eq!(patrols_on_board(&s), 3);
    skip_rest_of_day(&mut s);
    assert_eq!(s.day, 1);
    assert_eq!(patrols_on_board(&s), 0);
    assert!(s.pawns.iter().all(|&p| p == Pawn::Empty));
    assert!(!s.today.shot_today);
}

#[test]
fn f9_stuck_workers_stay() {
    let mut s = missions(CodedMessages, Sabotage, StartOverrides::default());
    for r in [Money, Food, Weapon] {
        give(&mut s, r, 1);
    }
    action_phase(&mut s, &[MissionA, Cafe], &[Doctor], &[]);
    act(&mut s, "act:mission_a:train");
    act(&mut s, "skip:cafe");
    assert_eq!(s.day, 1);
    assert_eq!(s.marks.stuck, bit(MissionA));
    assert_eq!((s.home, s.stuck_workers()), (2, 1));
    assert_eq!(pawn_at(&s, Doctor), Pawn::Empty);
}

#[test]
fn f9_moving_onto_an_orange_day_costs_one_morale() {
    for day in 0..14u8 {
        let mut s = solo(Difficulty::Normal, StartOverrides { day: Some(day), ..Default::default() });
        pass_day(&mut s, &[Cafe]);
        let orange = [3, 6, 9, 12, 14].contains(&(day + 1));
        assert_eq!(s.tracks.morale, if orange { 5 } else { 6 }, "moving onto {}", day + 1);
    }
}

#[test]
fn f9_end_of_day_mission_effects_come_before_the_morale_step() {
    // Day 2 at morale 1; Sabotage complete; the second bridge is chosen today. Step 1 destroys it
    // and completes the second mission (a win) before step 3 would take the last morale (day 3).
    let mut s = missions(TakeOutTheBridges, Sabotage, StartOverrides { day: Some(2), morale: Some(1), ..Default::default() });
    s.marks.bridges_destroyed = 1;
    s.missions[0].boxes_done = 1;
    complete_mission(&mut s, 1);
    give(&mut s, Explosive, 2);
    action_phase(&mut s, &[BlackMarket], &[], &[]);
    act(&mut s, "act:black_market:bridge_south");
    assert!(s.is_over());
    assert_eq!(s.outcome, Some(Outcome::Win));
    assert_eq!((s.day, s.tracks.morale), (2, 1));
    assert_eq!(s.marks.bridges_destroyed, 3);
}

#[test]
fn f9_bridge_is_destroyed_at_the_end_of_the_day_not_at_once() {
    let mut s = missions(TakeOutTheBridges, Sabotage, StartOverrides::default());
    give(&mut s, Explosive, 2);
    action_phase(&mut s, &[BlackMarket, PontDuNord], &[], &[PoorDistrict]);
    act(&mut s, "act:black_market:bridge_north");
    assert_eq!(s.marks.bridges_destroyed, 0);
    // The bridge is still usable today: pont_du_nord gets home over it.
    act(&mut s, "skip:pont_du_nord");
    assert_eq!(s.gone, 0);
    assert_eq!((s.day, s.marks.bridges_destroyed), (1, 1));
}

// =============================================================================================
// E1. Immediate ends.

#[test]
fn e1_morale_zero_ends_the_game_at_once() {
    let mut s = start(StartOverrides { morale: Some(1), ..Default::default() });
    give(&mut s, Food, 1);
    action_phase(&mut s, &[BlackMarket, Cafe, Fence], &[], &[]);
    act(&mut s, "act:black_market:sell_food");
    assert!(s.is_over(), "two workers still on the board, but the game is over");
    assert_eq!(s.outcome, Some(Outcome::Loss));
    assert_eq!(s.day, 0);
    assert!(maquis::maquis::legal_mask(&s).is_empty());
}

#[test]
fn e1_morale_zero_is_a_loss_whatever_else_holds() {
    // Milice HQ's poison completes the second mission, but morale +2 then soldier track +3 takes
    // morale from 1 to 0 first.
    let mut s = missions(MiliceHq, Sabotage, StartOverrides { morale: Some(1), ..Default::default() });
    s.missions[0].boxes_done = 1;
    complete_mission(&mut s, 1);
    give(&mut s, Poison, 2);
    action_phase(&mut s, &[MissionA, Cafe], &[], &[]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!(s.tracks.morale, 0);
    assert_eq!(s.outcome, Some(Outcome::Loss));
}

#[test]
fn e1_completing_the_second_mission_wins_at_once() {
    let mut s = fresh();
    s.missions[0].boxes_done = 2;
    complete_mission(&mut s, 1);
    give(&mut s, Explosive, 1);
    action_phase(&mut s, &[MissionA, Cafe, Fence], &[], &[]);
    act(&mut s, "act:mission_a:sabotage");
    assert!(s.is_over());
    assert_eq!(s.outcome, Some(Outcome::Win));
    assert_eq!(s.day, 0);
}

#[test]
fn e1_the_game_ends_when_the_last_worker_in_play_is_gone() {
    // One worker in play, two still recruitable: recruitable workers are not in play.
    let mut s = start(StartOverrides { workers: workers(1, 2), ..Default::default() });
    action_phase(&mut s, &[RadioB], &[], &[BlackMarket]);
    act(&mut s, "skip:radio_b");
    assert!(s.is_over());
    assert_eq!(s.outcome, Some(Outcome::Loss));
    assert_eq!((s.day, s.recruitable), (0, 2));

    // With one mission complete the outcome is a draw (E3).
    let mut s = start(StartOverrides { workers: workers(1, 0), ..Default::default() });
    complete_mission(&mut s, 1);
    action_phase(&mut s, &[RadioB], &[], &[BlackMarket]);
    act(&mut s, "skip:radio_b");
    assert_eq!(s.outcome, Some(Outcome::Draw));
}

#[test]
fn e1_a_patrol_arresting_the_last_worker_ends_the_game() {
    // One worker, placed on pont_leveque; card 5 (pont_leveque, black_market, doctor) finds its
    // three locations taken and arrests it. (`workers(1, 0)`: the four others count as gone.)
    let mut s = game_with(Sabotage, UndergroundNewspaper, [5, 0, 1, 2, 3, 4, 6, 7, 8, 9], StartOverrides { workers: workers(1, 0), ..Default::default() });
    s.pawns[BlackMarket.idx()] = Pawn::Milice;
    s.pawns[Doctor.idx()] = Pawn::Milice;
    s.patrols_drawn = 0;
    s.patrols_today = 5;
    act(&mut s, "place:pont_leveque");
    assert_eq!(s.gone, 5);
    assert!(s.is_over());
    assert_eq!((s.day, s.outcome), (0, Some(Outcome::Loss)));
}

#[test]
fn e1_a_stuck_worker_is_still_in_play() {
    // The only other worker is arrested; the cryptographer on Coded Messages keeps the game going.
    let mut s = missions(CodedMessages, Sabotage, StartOverrides { workers: workers(2, 0), ..Default::default() });
    for r in [Money, Food, Weapon] {
        give(&mut s, r, 1);
    }
    action_phase(&mut s, &[MissionA, RadioB], &[], &[BlackMarket]);
    act(&mut s, "act:mission_a:train");
    act(&mut s, "skip:radio_b");
    assert_eq!(s.gone, 4, "three never in play, one arrested");
    assert!(!s.is_over());
    // Days pass without a decision until the cryptographer returns at the end of day 10.
    assert_eq!((s.day, s.phase, s.home), (11, Phase::Placement, 1));
    assert!(s.missions[0].complete);
}

#[test]
fn e1_parade_arrest_of_the_last_worker_ends_the_game_at_once() {
    // Day 14, one worker: the parade completes Milice Parade Day and the worker is arrested. That
    // was the last worker in play: the game ends there (a draw), before the marker moves onto END
    // (where Liberate the Town, 3 weapons and morale ≥ 4, would have been checked).
    let mut s = missions(
        MiliceParadeDay,
        LiberateTheTown,
        StartOverrides { day: Some(14), morale: Some(5), workers: workers(1, 0), ..Default::default() },
    );
    give(&mut s, Weapon, 4);
    action_phase(&mut s, &[RueBaradat], &[], &[]);
    act(&mut s, "act:rue_baradat:parade");
    assert_eq!(s.workers_in_play(), 0);
    assert!(s.is_over());
    assert_eq!(s.day, 14, "the marker did not move");
    assert!(s.missions[0].complete);
    assert!(!s.missions[1].complete);
    assert_eq!(s.outcome, Some(Outcome::Draw));
}

// =============================================================================================
// E2. Day-track end.

#[test]
fn e2_the_game_ends_when_the_marker_moves_onto_end() {
    let mut s = solo(Difficulty::Normal, StartOverrides { day: Some(13), ..Default::default() });
    pass_day(&mut s, &[Cafe]);
    assert!(!s.is_over());
    assert_eq!(s.day, 14);
    pass_day(&mut s, &[Cafe]);
    assert!(s.is_over());
    assert_eq!(s.day, 15, "the state shows END as day 15");
    assert_eq!(maquis::maquis::save::state_dict(&s)["day"], 15);
    assert_eq!(s.outcome, Some(Outcome::Loss), "no mission complete");
}

#[test]
fn e2_tricky_hard_very_hard_end_on_12() {
    for d in [Difficulty::Tricky, Difficulty::Hard, Difficulty::VeryHard] {
        let mut s = solo(d, StartOverrides { day: Some(10), ..Default::default() });
        pass_day(&mut s, &[Cafe]);
        assert!(!s.is_over(), "{d}");
        pass_day(&mut s, &[Cafe]);
        assert!(s.is_over(), "{d}");
        assert_eq!(s.day, 12, "{d}");
    }
}

#[test]
fn e2_easy_and_normal_play_past_12() {
    for d in [Difficulty::Easy, Difficulty::Normal] {
        let mut s = solo(d, StartOverrides { day: Some(11), ..Default::default() });
        pass_day(&mut s, &[Cafe]);
        assert!(!s.is_over(), "{d}");
        assert_eq!(s.day, 12);
    }
}

// =============================================================================================
// E3. Outcome.

#[test]
fn e3_both_missions_complete_is_a_win() {
    let mut s = fresh();
    complete_mission(&mut s, 1);
    s.missions[0].boxes_done = 2;
    give(&mut s, Explosive, 1);
    action_phase(&mut s, &[MissionA], &[], &[]);
    act(&mut s, "act:mission_a:sabotage");
    assert_eq!(s.outcome, Some(Outcome::Win));
}

#[test]
fn e3_a_3_star_major_success_is_a_major_win() {
    // Milice HQ poison with the soldier track < 3 before: major success.
    let mut s = missions(MiliceHq, Sabotage, StartOverrides { morale: Some(5), ..Default::default() });
    s.missions[0].boxes_done = 1;
    complete_mission(&mut s, 1);
    give(&mut s, Poison, 2);
    action_phase(&mut s, &[MissionA], &[], &[]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
    assert_eq!(s.outcome, Some(Outcome::MajorWin));

    // Soldier track ≥ 3 before: a plain success, a plain win.
    let mut s = missions(MiliceHq, Sabotage, StartOverrides { morale: Some(5), soldiers: Some(3), ..Default::default() });
    s.missions[0].boxes_done = 1;
    complete_mission(&mut s, 1);
    give(&mut s, Poison, 2);
    action_phase(&mut s, &[MissionA], &[], &[]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.outcome, Some(Outcome::Win));
}

#[test]
fn e3_exactly_one_complete_is_a_draw_none_is_a_loss() {
    let mut s = solo(Difficulty::Normal, StartOverrides { day: Some(14), ..Default::default() });
    complete_mission(&mut s, 0);
    pass_day(&mut s, &[Cafe]);
    assert_eq!(s.outcome, Some(Outcome::Draw));

    let mut s = solo(Difficulty::Normal, StartOverrides { day: Some(14), ..Default::default() });
    pass_day(&mut s, &[Cafe]);
    assert_eq!(s.outcome, Some(Outcome::Loss));
}

#[test]
fn e3_outcome_table() {
    use maquis::maquis::rules::upkeep::outcome;
    let base = fresh();
    let mut cases = vec![];
    for morale in [0u8, 3] {
        for done in 0..=2usize {
            for major in [false, true] {
                let mut s = missions(MiliceHq, Sabotage, StartOverrides::default());
                s.tracks.morale = morale;
                for slot in 0..done {
                    complete_mission(&mut s, 1 - slot);
                }
                if major && done == 2 {
                    s.missions[0].tier = Some(Tier::Major);
                }
                let want = match (morale, done, major) {
                    (0, _, _) => Outcome::Loss,
                    (_, 2, true) => Outcome::MajorWin,
                    (_, 2, false) => Outcome::Win,
                    (_, 1, _) => Outcome::Draw,
                    _ => Outcome::Loss,
                };
                cases.push((morale, done, major, outcome(&s), want));
            }
        }
    }
    for (morale, done, major, got, want) in cases {
        assert_eq!(got, want, "morale {morale}, {done} complete, major {major}");
    }
    // A major tier on a mission that is not 3-star does not make a major win.
    let mut s = base;
    complete_mission(&mut s, 0);
    complete_mission(&mut s, 1);
    s.missions[0].tier = Some(Tier::Major);
    assert_eq!(outcome(&s), Outcome::Win);
}
