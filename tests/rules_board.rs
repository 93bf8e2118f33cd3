//! Scenario tests for RULES.md §1 (B1–B6), §3 (P1–P4) and §5 (A1–A6): the board, the patrol deck
//! and the location actions. Each test is named after the rule it checks and fails if the engine
//! breaks it.
//!
//! Positions are built by `common::action_phase` (workers and patrols put straight on the board)
//! or played from a fixed patrol deck (P1 card ids).
//!
//! Handy cut-offs (B3): a worker on radio_b or spare_room_ne has no route home when black_market
//! holds a patrol; every west-bank worker (B4) is cut off when black_market and pont_leveque hold
//! patrols.

mod common;

use common::*;
use maquis::maquis::board::{bit, BRIDGE_NORTH, BRIDGE_SOUTH, PATROL_LOCATIONS, ROADS, SAFE_LOCATIONS, WEST_BANK};
use maquis::maquis::deck::{PatrolDeck, PATROL_CARDS};
use maquis::maquis::ids::{Difficulty, Location, Location::*, MissionId, MissionId::*, Pawn, Phase, Resource, Resource::*, Tile};
use maquis::maquis::{StartOverrides, State};
use std::collections::BTreeSet;

const DECK: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/// A normal game whose missions add nothing to the board locations.
fn fresh() -> State {
    game_with(Sabotage, UndergroundNewspaper, DECK, StartOverrides::default())
}

fn fresh_missions(a: MissionId, b: MissionId) -> State {
    game_with(a, b, DECK, StartOverrides::default())
}

fn with_deck(deck: [u8; 10], start: StartOverrides) -> State {
    game_with(Sabotage, UndergroundNewspaper, deck, start)
}


fn name(l: Location) -> &'static str {
    l.as_str()
}

/// The `act:<loc>:…` options legal now for the worker on `l`.
fn options_at(s: &State, l: Location) -> Vec<String> {
    let prefix = format!("act:{}:", name(l));
    legal_names(s).into_iter().filter(|n| n.starts_with(&prefix)).map(|n| n[prefix.len()..].to_string()).collect()
}

/// A parking spot that is never cut off (cafe–safe_house) unless it is the location under test.
fn park(l: Location) -> Location {
    if l == Cafe {
        PontLeveque
    } else {
        Cafe
    }
}

fn start_morale(m: u8) -> StartOverrides {
    StartOverrides { morale: Some(m), ..Default::default() }
}

// =============================================================================================
// B1. Locations.

#[test]
fn b1_location_ids_are_the_spec_ids_in_order() {
    let ids: Vec<&str> = Location::ALL.iter().map(|l| l.as_str()).collect();
    assert_eq!(
        ids,
        [
            "safe_house", "rue_baradat", "fence", "pont_du_nord", "radio_b", "doctor", "poor_district",
            "black_market", "spare_room_ne", "radio_a", "spare_room_w", "pont_leveque", "grocer",
            "spare_room_se", "field_w", "cafe", "field_e", "mission_a", "mission_b"
        ]
    );
}

#[test]
fn b1_safe_house_is_never_a_placement_target() {
    // There is not even an action for it.
    assert!(maquis::maquis::action_table().from_name("place:safe_house").is_err());
    assert!(maquis::maquis::action_table().from_name("place:safe_house:fake_id").is_err());
    let mut s = fresh();
    give(&mut s, FakeId, 1);
    assert!(legal_names(&s).iter().all(|n| !n.starts_with("place:safe_house")));
    act(&mut s, "place:cafe");
    assert!(legal_names(&s).iter().all(|n| !n.starts_with("place:safe_house")));
}

#[test]
fn b1_every_board_location_but_safe_house_and_empty_fields_is_placeable_on_day_0() {
    let s = fresh();
    for l in [
        RueBaradat, Fence, PontDuNord, RadioB, Doctor, PoorDistrict, BlackMarket, SpareRoomNe, RadioA,
        SpareRoomW, PontLeveque, Grocer, SpareRoomSe, Cafe,
    ] {
        assert!(is_legal(&s, &format!("place:{}", name(l))), "{l} should be placeable");
    }
    for l in [FieldW, FieldE] {
        assert!(!is_legal(&s, &format!("place:{}", name(l))), "{l} should not be placeable");
    }
}

#[test]
fn b1_printed_actions_pay_their_cost_and_give_their_reward() {
    // (location, option, hand before, hand after (only the listed resources), morale change)
    type Row = (Location, &'static str, &'static [(Resource, u8)], &'static [(Resource, u8)], i8);
    let rows: &[Row] = &[
        (Fence, "weapon", &[(Money, 1)], &[(Money, 0), (Weapon, 1)], 0),
        (RadioB, "intel", &[], &[(Intel, 1)], 0),
        (RadioA, "intel", &[], &[(Intel, 1)], 0),
        (Doctor, "medicine", &[], &[(Medicine, 1)], 0),
        (PoorDistrict, "morale", &[(Food, 1), (Medicine, 1)], &[(Food, 0), (Medicine, 0)], 1),
        (BlackMarket, "sell_food", &[(Food, 1), (Medicine, 1)], &[(Food, 0), (Medicine, 1), (Money, 1)], -1),
        (BlackMarket, "sell_medicine", &[(Food, 1), (Medicine, 1)], &[(Food, 1), (Medicine, 0), (Money, 1)], -1),
        (Grocer, "food", &[], &[(Food, 1)], 0),
    ];
    for &(l, opt, before, after, dm) in rows {
        let mut s = with_deck(DECK, start_morale(5));
        for &(r, n) in before {
            give(&mut s, r, n);
        }
        action_phase(&mut s, &[l, park(l)], &[], &[]);
        act(&mut s, &format!("act:{}:{opt}", name(l)));
        for &(r, n) in after {
            assert_eq!(hand(&s, r), n, "{l}:{opt}: hand of {r}");
        }
        assert_eq!(s.tracks.morale as i8, 5 + dm, "{l}:{opt}: morale");
        let total: u32 = s.tokens.hand.iter().map(|&n| n as u32).sum();
        let expected: u32 = after.iter().map(|&(_, n)| n as u32).sum();
        assert_eq!(total, expected, "{l}:{opt}: nothing else enters the hand");
        maquis::maquis::save::validate(&s).unwrap();
    }
}

#[test]
fn b1_cafe_recruits_and_spare_room_builds_and_field_picks_up() {
    // Café: 1 food → recruit.
    let mut s = fresh();
    give(&mut s, Food, 1);
    action_phase(&mut s, &[Cafe, PontLeveque], &[], &[]);
    act(&mut s, "act:cafe:recruit");
    assert_eq!((s.recruitable, s.home, hand(&s, Food)), (1, 3, 0));

    // Spare room: 2 money → a tile.
    let mut s = fresh();
    give(&mut s, Money, 2);
    action_phase(&mut s, &[SpareRoomW, Cafe], &[], &[]);
    act(&mut s, "act:spare_room_w:build_smuggler");
    assert_eq!(s.tile_at(SpareRoomW), Some(Tile::Smuggler));
    assert_eq!(hand(&s, Money), 0);

    // Field: pick up the airdrop lying there.
    let mut s = fresh();
    s.tokens.supply[Weapon.idx()] -= 1;
    s.tokens.airdrop[1][Weapon.idx()] = 1;
    s.tokens.airdrop_at_day_start[1] = true;
    action_phase(&mut s, &[FieldE, Cafe], &[], &[]);
    act(&mut s, "act:field_e:pickup");
    assert_eq!(hand(&s, Weapon), 1);
    assert_eq!(s.tokens.airdrop[1], [0; 8]);
}

#[test]
fn b1_rue_baradat_pont_du_nord_pont_leveque_have_no_printed_action() {
    let mut s = fresh();
    for r in Resource::ALL {
        give(&mut s, *r, 2);
    }
    action_phase(&mut s, &[RueBaradat, PontDuNord, PontLeveque], &[], &[]);
    for l in [RueBaradat, PontDuNord, PontLeveque] {
        assert_eq!(options_at(&s, l), Vec::<String>::new(), "{l} offers no action without missions");
        assert!(is_legal(&s, &format!("skip:{}", name(l))));
    }
}

#[test]
fn b1_slash_means_one_side_only() {
    // Radio: intel or an airdrop, not both.
    let mut s = fresh();
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    act(&mut s, "act:radio_a:intel");
    assert_eq!(hand(&s, Intel), 1);
    assert_eq!(s.tokens.airdrop, [[0; 8]; 2]);
    assert_eq!(s.pawns[RadioA.idx()], Pawn::Empty, "one activation only");
    assert!(!is_legal(&s, "act:radio_a:airdrop_field_w_food"));

    // Black Market: food or medicine, never both.
    let mut s = fresh();
    give(&mut s, Food, 1);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[BlackMarket, Cafe], &[], &[]);
    act(&mut s, "act:black_market:sell_medicine");
    assert_eq!((hand(&s, Food), hand(&s, Medicine), hand(&s, Money)), (1, 0, 1));
}

#[test]
fn b1_mission_slots_offer_the_action_of_their_card() {
    let mut s = fresh();
    give(&mut s, Intel, 2);
    action_phase(&mut s, &[MissionA, MissionB], &[], &[]);
    // Sabotage on mission_a, Underground Newspaper on mission_b.
    assert_eq!(options_at(&s, MissionA), vec!["infiltrate"]);
    assert_eq!(options_at(&s, MissionB), vec!["deliver"]);
}

// =============================================================================================
// B2. Safe.

#[test]
fn b2_safe_locations_are_poor_district_and_the_spare_rooms() {
    let safe: Vec<Location> = Location::ALL.iter().copied().filter(|l| SAFE_LOCATIONS & bit(*l) != 0).collect();
    assert_eq!(safe, vec![PoorDistrict, SpareRoomNe, SpareRoomW, SpareRoomSe]);
}

#[test]
fn b2_unsafe_reward_is_lost_on_arrest_but_the_cost_is_paid() {
    // Fence (unsafe), cut off by soldiers at black_market and pont_leveque (soldiers, so that the
    // pending weapon offers no shot, F8).
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[Fence, Cafe], &[], &[BlackMarket, PontLeveque]);
    act(&mut s, "act:fence:weapon");
    assert_eq!(s.gone, 1, "the worker is arrested");
    assert_eq!(pawn_at(&s, Fence), Pawn::Empty);
    assert_eq!(hand(&s, Money), 0, "the cost is paid");
    assert_eq!(supply(&s, Money), 4, "the paid money is back in the supply");
    assert_eq!(hand(&s, Weapon), 0, "the weapon is lost");
    assert_eq!(supply(&s, Weapon), 4, "the lost weapon is back in the supply");
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn b2_unsafe_reward_is_received_when_the_worker_gets_home() {
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[Fence, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:fence:weapon");
    assert_eq!(s.gone, 0);
    assert_eq!(hand(&s, Weapon), 1);
}

#[test]
fn b2_safe_reward_is_kept_even_if_the_worker_is_arrested() {
    // Poor District (safe): +1 morale kept although the worker is cut off.
    let mut s = with_deck(DECK, start_morale(5));
    give(&mut s, Food, 1);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[PoorDistrict, Cafe], &[BlackMarket, PontLeveque], &[]);
    act(&mut s, "act:poor_district:morale");
    assert_eq!(s.gone, 1, "the worker is arrested");
    assert_eq!(s.tracks.morale, 6, "the safe morale gain is kept");
    assert_eq!((hand(&s, Food), hand(&s, Medicine)), (0, 0));
}

#[test]
fn b2_unsafe_airdrop_is_lost_on_arrest() {
    let mut s = fresh();
    action_phase(&mut s, &[RadioB, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:radio_b:airdrop_field_w_food");
    assert_eq!(s.gone, 1);
    assert_eq!(s.tokens.airdrop[0], [0; 8], "nothing falls on the field");
    assert_eq!(supply(&s, Food), 4);
}

#[test]
fn b2_unsafe_morale_change_is_lost_on_arrest() {
    // Black Market's −1 morale is on the reward side (A6): an arrested seller keeps the morale.
    let mut s = fresh();
    give(&mut s, Food, 1);
    action_phase(&mut s, &[BlackMarket, Cafe], &[Grocer, PontLeveque], &[]);
    act(&mut s, "act:black_market:sell_food");
    assert_eq!(s.gone, 1);
    assert_eq!(s.tracks.morale, 6);
    assert_eq!((hand(&s, Food), hand(&s, Money)), (0, 0));
}

// =============================================================================================
// B3. Roads.

fn pair(a: &str, b: &str) -> (String, String) {
    if a < b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}

#[test]
fn b3_roads_are_exactly_the_23_of_the_spec() {
    let spec = [
        ("rue_baradat", "fence"), ("rue_baradat", "doctor"), ("fence", "poor_district"),
        ("pont_du_nord", "poor_district"), ("pont_du_nord", "black_market"), ("poor_district", "black_market"),
        ("poor_district", "pont_leveque"), ("doctor", "radio_a"), ("doctor", "spare_room_w"),
        ("doctor", "pont_leveque"), ("radio_a", "spare_room_w"), ("radio_b", "black_market"),
        ("radio_b", "spare_room_ne"), ("black_market", "spare_room_ne"), ("black_market", "grocer"),
        ("grocer", "spare_room_se"), ("grocer", "safe_house"), ("pont_leveque", "safe_house"),
        ("cafe", "safe_house"), ("field_w", "cafe"), ("safe_house", "field_e"), ("mission_a", "fence"),
        ("mission_b", "pont_du_nord"),
    ];
    let want: BTreeSet<_> = spec.iter().map(|(a, b)| pair(a, b)).collect();
    let have: BTreeSet<_> = ROADS.iter().map(|(a, b)| pair(a.as_str(), b.as_str())).collect();
    assert_eq!(ROADS.len(), 23, "no road listed twice");
    assert_eq!(have, want);
    for (a, b) in [
        ("rue_baradat", "radio_a"),
        ("spare_room_ne", "spare_room_se"),
        ("grocer", "pont_leveque"),
        ("doctor", "poor_district"),
    ] {
        assert!(!have.contains(&pair(a, b)), "no road {a}–{b}");
    }
}

#[test]
fn b3_no_road_between_rue_baradat_and_radio_a() {
    // radio_a's only ways out are doctor and spare_room_w (a dead end): a patrol on doctor cuts it off.
    let mut s = fresh();
    action_phase(&mut s, &[RadioA, Cafe], &[Doctor], &[]);
    act(&mut s, "skip:radio_a");
    assert_eq!(s.gone, 1);
}

#[test]
fn b3_no_road_between_the_eastern_spare_rooms() {
    let mut s = fresh();
    action_phase(&mut s, &[SpareRoomSe, Cafe], &[Grocer], &[]);
    act(&mut s, "skip:spare_room_se");
    assert_eq!(s.gone, 1, "spare_room_se only reaches grocer");
}

#[test]
fn b3_no_road_between_doctor_and_poor_district() {
    let mut s = fresh();
    action_phase(&mut s, &[Doctor, Cafe], &[RueBaradat, PontLeveque], &[]);
    act(&mut s, "skip:doctor");
    assert_eq!(s.gone, 1, "doctor, radio_a and spare_room_w are closed in");
}

#[test]
fn b3_routes_follow_the_roads() {
    // A few routes that exist only through particular roads.
    let cases: &[(Location, &[Location], bool)] = &[
        // fence–poor_district–pont_leveque–safe_house
        (Fence, &[RueBaradat], true),
        // fence–rue_baradat–doctor–pont_leveque
        (Fence, &[PoorDistrict], true),
        (Fence, &[PoorDistrict, RueBaradat], false),
        // radio_a–doctor–pont_leveque
        (RadioA, &[RueBaradat], true),
        // radio_b: black_market is its only way out (spare_room_ne leads back to it)
        (RadioB, &[BlackMarket], false),
        (SpareRoomNe, &[RadioB], true),
        // pont_du_nord–black_market–grocer–safe_house
        (PontDuNord, &[PoorDistrict], true),
        (PontDuNord, &[PoorDistrict, BlackMarket], false),
        // mission slots: mission_a–fence, mission_b–pont_du_nord
        (MissionA, &[], true),
        (MissionA, &[Fence], false),
        (MissionB, &[], true),
        (MissionB, &[PontDuNord], false),
        // the fields and the café hang off the safe house
        // (at most five patrols come out in a day, F2)
        (Cafe, &[PontLeveque, Grocer, BlackMarket, PoorDistrict, Doctor], true),
    ];
    for &(w, patrols, home) in cases {
        let mut s = fresh();
        action_phase(&mut s, &[w, if w == SpareRoomW { Cafe } else { SpareRoomW }], patrols, &[]);
        act(&mut s, &format!("skip:{}", name(w)));
        assert_eq!(s.gone == 0, home, "worker on {w} with patrols on {patrols:?}");
    }
}

// =============================================================================================
// B4. River.

#[test]
fn b4_west_bank_and_bridges_are_the_spec_ones() {
    let west: BTreeSet<&str> = WEST_BANK.iter().map(|l| l.as_str()).collect();
    let want: BTreeSet<&str> =
        ["rue_baradat", "fence", "pont_du_nord", "doctor", "poor_district", "radio_a", "spare_room_w", "pont_leveque"]
            .into_iter()
            .collect();
    assert_eq!(west, want);
    assert_eq!(pair(ROADS[BRIDGE_NORTH].0.as_str(), ROADS[BRIDGE_NORTH].1.as_str()), pair("black_market", "pont_du_nord"));
    assert_eq!(pair(ROADS[BRIDGE_SOUTH].0.as_str(), ROADS[BRIDGE_SOUTH].1.as_str()), pair("black_market", "poor_district"));
}

#[test]
fn b4_the_river_is_crossed_only_at_pont_leveque_and_the_two_bridges() {
    // With both bridges destroyed and a patrol on pont_leveque, the west bank has no way home;
    // the east bank is unaffected.
    for &w in WEST_BANK.iter().filter(|&&l| l != PontLeveque) {
        let mut s = fresh_missions(TakeOutTheBridges, Sabotage);
        s.marks.bridges_destroyed = 3;
        action_phase(&mut s, &[w, Cafe], &[PontLeveque], &[]);
        act(&mut s, &format!("skip:{}", name(w)));
        assert_eq!(s.gone, 1, "west bank {w} is cut off");
    }
    for w in [RadioB, BlackMarket, SpareRoomNe, Grocer, SpareRoomSe] {
        let mut s = fresh_missions(TakeOutTheBridges, Sabotage);
        s.marks.bridges_destroyed = 3;
        action_phase(&mut s, &[w, Cafe], &[PontLeveque], &[]);
        act(&mut s, &format!("skip:{}", name(w)));
        assert_eq!(s.gone, 0, "east bank {w} gets home");
    }
}

#[test]
fn b4_north_bridge_joins_black_market_and_pont_du_nord() {
    for destroyed in [0u8, 1, 2] {
        let mut s = fresh_missions(TakeOutTheBridges, Sabotage);
        s.marks.bridges_destroyed = destroyed;
        action_phase(&mut s, &[PontDuNord, Cafe], &[PoorDistrict], &[]);
        act(&mut s, "skip:pont_du_nord");
        // Only the north bridge (bit 0) matters to pont_du_nord.
        assert_eq!(s.gone, u8::from(destroyed & 1 != 0), "bridges destroyed: {destroyed:#b}");
    }
}

#[test]
fn b4_south_bridge_joins_black_market_and_poor_district() {
    for destroyed in [0u8, 1, 2] {
        let mut s = fresh_missions(TakeOutTheBridges, Sabotage);
        s.marks.bridges_destroyed = destroyed;
        action_phase(&mut s, &[PoorDistrict, Cafe], &[PontDuNord, PontLeveque], &[]);
        act(&mut s, "skip:poor_district");
        assert_eq!(s.gone, u8::from(destroyed & 2 != 0), "bridges destroyed: {destroyed:#b}");
    }
}

// =============================================================================================
// B5. One pawn per location.

#[test]
fn b5_no_placement_on_a_location_holding_a_worker_or_a_patrol() {
    let mut s = fresh();
    act(&mut s, "place:radio_a"); // then card 0 puts a patrol on pont_leveque
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice);
    assert!(!is_legal(&s, "place:radio_a"), "a worker stands there");
    assert!(!is_legal(&s, "place:pont_leveque"), "a patrol stands there");
    assert!(!is_legal(&s, "place:radio_a:fake_id"));
}

#[test]
fn b5_a_patrol_never_joins_another_pawn() {
    // Card 0 lists pont_leveque first: with a worker there the patrol goes to the next location.
    let mut s = fresh();
    act(&mut s, "place:pont_leveque");
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Worker);
    assert_eq!(pawn_at(&s, PontDuNord), Pawn::Milice);
    // Card 1 (radio_b first) with a worker on radio_b.
    act(&mut s, "place:radio_b");
    assert_eq!(pawn_at(&s, RadioB), Pawn::Worker);
    assert_eq!(pawn_at(&s, Grocer), Pawn::Milice);
    // Card 2 (grocer, poor_district, doctor): grocer holds a patrol now.
    act(&mut s, "place:cafe");
    assert_eq!(pawn_at(&s, Grocer), Pawn::Milice);
    assert_eq!(pawn_at(&s, PoorDistrict), Pawn::Milice);
    assert_eq!(patrols_on_board(&s), 3);
}

// =============================================================================================
// B6. Patrolled locations.

#[test]
fn b6_patrol_cards_name_exactly_the_ten_patrolled_locations() {
    let named: BTreeSet<&str> = PATROL_CARDS.iter().flatten().map(|l| l.as_str()).collect();
    let want: BTreeSet<&str> = [
        "rue_baradat", "fence", "pont_du_nord", "radio_b", "doctor", "poor_district", "black_market", "radio_a",
        "pont_leveque", "grocer",
    ]
    .into_iter()
    .collect();
    assert_eq!(named, want);
    let listed: BTreeSet<&str> = PATROL_LOCATIONS.iter().map(|l| l.as_str()).collect();
    assert_eq!(listed, want);
}

#[test]
fn b6_patrols_are_never_anywhere_else_in_random_play() {
    use rand::SeedableRng;
    let allowed = PATROL_LOCATIONS.iter().fold(0u32, |acc, &l| acc | bit(l));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    for seed in 0..200 {
        let mut s = maquis::maquis::new_game(&maquis::maquis::Setup::new(Difficulty::ALL[seed as usize % 6]), seed).unwrap();
        while !s.is_over() {
            assert_eq!(s.patrol_set() & !allowed, 0, "patrol outside B6: {:?}", s.pawns);
            let a = maquis::maquis::agents::random::sample(&maquis::maquis::legal_mask(&s), &mut rng).unwrap();
            maquis::maquis::apply(&mut s, a as i64).unwrap();
        }
    }
}

// =============================================================================================
// P1. Cards.

#[test]
fn p1_card_table_is_the_printed_one() {
    let spec: [[&str; 3]; 10] = [
        ["pont_leveque", "pont_du_nord", "doctor"],
        ["radio_b", "grocer", "black_market"],
        ["grocer", "poor_district", "doctor"],
        ["radio_a", "pont_leveque", "black_market"],
        ["radio_a", "rue_baradat", "grocer"],
        ["pont_leveque", "black_market", "doctor"],
        ["radio_b", "rue_baradat", "pont_leveque"],
        ["fence", "pont_du_nord", "pont_leveque"],
        ["grocer", "pont_du_nord", "fence"],
        ["fence", "rue_baradat", "poor_district"],
    ];
    for (id, card) in spec.iter().enumerate() {
        let got: Vec<&str> = PATROL_CARDS[id].iter().map(|l| l.as_str()).collect();
        assert_eq!(got, card, "card {id}");
    }
}

/// A deck with `first` on top, then the others in id order.
fn deck_starting(first: &[u8]) -> [u8; 10] {
    let mut d = [0u8; 10];
    let rest: Vec<u8> = (0..10).filter(|c| !first.contains(c)).collect();
    for (slot, &c) in d.iter_mut().zip(first.iter().chain(&rest)) {
        *slot = c;
    }
    d
}

#[test]
fn p1_each_card_sends_its_patrol_to_its_listed_locations_in_order() {
    for c in 0..10u8 {
        let locs = PATROL_CARDS[c as usize];
        // Empty board: the first location.
        let mut s = with_deck(deck_starting(&[c]), StartOverrides::default());
        act(&mut s, "place:cafe");
        assert_eq!(pawn_at(&s, locs[0]), Pawn::Milice, "card {c}");
        assert_eq!(patrols_on_board(&s), 1);
        // First location taken by a worker: the second.
        let mut s = with_deck(deck_starting(&[c]), StartOverrides::default());
        act(&mut s, &format!("place:{}", name(locs[0])));
        assert_eq!(pawn_at(&s, locs[1]), Pawn::Milice, "card {c}, second location");
        // First two taken: the third.
        let mut s = with_deck(deck_starting(&[c]), StartOverrides::default());
        s.pawns[locs[1].idx()] = Pawn::Worker;
        s.home -= 1;
        act(&mut s, &format!("place:{}", name(locs[0])));
        assert_eq!(pawn_at(&s, locs[2]), Pawn::Milice, "card {c}, third location");
        assert_eq!(s.gone, 0);
    }
}

// =============================================================================================
// P2. Deck.

#[test]
fn p2_cards_are_drawn_from_the_top_and_discarded_face_up() {
    let deck = [5, 3, 8, 0, 1, 2, 4, 6, 7, 9];
    let mut s = with_deck(deck, StartOverrides::default());
    assert_eq!(s.deck.deck(), &deck);
    assert!(s.deck.discard().is_empty());
    pass_day(&mut s, &[Cafe, SpareRoomNe, SpareRoomW, SpareRoomSe]);
    assert_eq!(s.deck.discard(), &[5, 3, 8], "three patrols on day 0, in draw order");
    assert_eq!(s.deck.deck(), &deck[3..]);
    // The deck is not reshuffled between days: day 1 goes on with the next cards.
    act(&mut s, "place:cafe");
    assert_eq!(s.deck.discard()[..4], [5, 3, 8, 0]);
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice, "card 0 was drawn");
}

#[test]
fn p2_an_empty_deck_is_refilled_by_shuffling_the_discard() {
    // Only card 7 left in the deck; the nine others are in the discard.
    let mut s = fresh();
    s.deck = PatrolDeck::from_order(&[7]);
    assert_eq!(s.deck.discard().len(), 9);
    act(&mut s, "place:cafe");
    assert_eq!(s.deck.deck().len(), 0);
    assert_eq!(s.deck.discard().len(), 10);
    assert_eq!(pawn_at(&s, Fence), Pawn::Milice, "card 7 came first");
    act(&mut s, "place:spare_room_ne");
    // The draw found the deck empty: the whole discard (10 cards) became the deck, one was drawn.
    assert_eq!(s.deck.deck().len(), 9);
    assert_eq!(s.deck.discard().len(), 1);
    assert!(s.deck.is_complete());
    assert_eq!(patrols_on_board(&s), 2);
}

#[test]
fn p2_reshuffle_uses_all_ten_cards_in_random_order() {
    use rand::SeedableRng;
    let mut firsts = [0u32; 10];
    for seed in 0..2000u64 {
        let mut d = PatrolDeck::from_order(&[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let c = d.draw(&mut rng);
        firsts[c as usize] += 1;
        assert!(d.is_complete());
        assert_eq!(d.deck().len(), 9);
    }
    // Each card ~200 times; 5 sigma ≈ 67.
    for (c, &n) in firsts.iter().enumerate() {
        assert!((133..=267).contains(&n), "card {c} first {n} times out of 2000");
    }
}

#[test]
fn p2_the_deck_is_shuffled_once_at_setup_by_the_seed() {
    let mut orders = BTreeSet::new();
    let mut first = [0u32; 10];
    for seed in 0..2000 {
        let s = maquis::maquis::new_game(&maquis::maquis::Setup::new(Difficulty::Normal).missions(Sabotage, AidTheSpy), seed).unwrap();
        assert!(s.deck.is_complete());
        assert_eq!(s.deck.deck().len(), 10, "nothing drawn before the first placement");
        let again = maquis::maquis::new_game(&maquis::maquis::Setup::new(Difficulty::Normal).missions(Sabotage, AidTheSpy), seed).unwrap();
        assert_eq!(s.deck, again.deck, "same seed, same deck");
        orders.insert(s.deck.deck().to_vec());
        first[s.deck.deck()[0] as usize] += 1;
    }
    assert!(orders.len() > 1990, "the order depends on the seed");
    for (c, &n) in first.iter().enumerate() {
        assert!((133..=267).contains(&n), "card {c} on top {n} times out of 2000");
    }
}

#[test]
fn p2_discard_is_open_in_the_state_dict() {
    let mut s = with_deck([4, 2, 0, 1, 3, 5, 6, 7, 8, 9], StartOverrides::default());
    act(&mut s, "place:cafe");
    let d = maquis::maquis::save::state_dict(&s);
    assert_eq!(d["patrol_discard"], serde_json::json!([4]));
}

// =============================================================================================
// P3. Placing a patrol.

#[test]
fn p3_patrol_goes_to_first_location_holding_no_pawn() {
    // Card 7: fence, pont_du_nord, pont_leveque. A worker on fence → pont_du_nord.
    let mut s = with_deck(deck_starting(&[7]), StartOverrides::default());
    act(&mut s, "place:fence");
    assert_eq!(pawn_at(&s, PontDuNord), Pawn::Milice);
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Empty);
    assert_eq!(s.deck.discard(), &[7]);
}

#[test]
fn p3_arrests_first_worker_when_all_three_occupied() {
    // Cards 1 (→ radio_b) and 4 (→ radio_a), then card 0: pont_leveque, pont_du_nord and doctor
    // all hold workers → the first, on pont_leveque, is arrested and the patrol takes its place.
    let mut s = with_deck(deck_starting(&[1, 4, 0]), StartOverrides::default());
    give(&mut s, FakeId, 1);
    play(&mut s, &["place:pont_leveque:fake_id", "place:doctor", "place:pont_du_nord"]);
    assert_eq!(s.gone, 1);
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice, "the patrol takes the arrested worker's place");
    assert_eq!(pawn_at(&s, PontDuNord), Pawn::Worker);
    assert_eq!(pawn_at(&s, Doctor), Pawn::Worker);
    assert_eq!(s.marks.fake_ids, 0);
    assert_eq!((hand(&s, FakeId), supply(&s, FakeId)), (0, 4), "the Fake ID returns to the supply");
    assert_eq!(s.deck.discard(), &[1, 4, 0]);
    maquis::maquis::save::validate(&s).unwrap();
}

#[test]
fn p3_arrest_scan_skips_locations_holding_patrols() {
    // Card 5 → pont_leveque; card 0: pont_leveque (patrol), pont_du_nord (worker), doctor (worker)
    // → the worker on pont_du_nord is arrested, not the one on doctor.
    let mut s = with_deck(deck_starting(&[5, 0]), StartOverrides::default());
    play(&mut s, &["place:pont_du_nord", "place:doctor"]);
    assert_eq!(s.gone, 1);
    assert_eq!(pawn_at(&s, PontDuNord), Pawn::Milice);
    assert_eq!(pawn_at(&s, Doctor), Pawn::Worker);
}

#[test]
fn p3_no_patrol_placed_when_all_three_hold_patrols() {
    // Morale 1: five patrols. Cards 2 → grocer, 0 → pont_leveque, 9 → fence, 8 → pont_du_nord
    // (grocer taken), 7: fence, pont_du_nord, pont_leveque all patrolled → not placed, no redraw.
    let mut s = with_deck(deck_starting(&[2, 0, 9, 8, 7]), start_morale(1));
    assert_eq!(s.patrols_today, 5);
    play(&mut s, &["place:radio_a", "place:radio_b", "place:cafe"]);
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(patrols_on_board(&s), 4);
    for l in [Grocer, PontLeveque, Fence, PontDuNord] {
        assert!(pawn_at(&s, l).is_patrol(), "{l}");
    }
    assert_eq!(s.deck.discard(), &[2, 0, 9, 8, 7], "the card is discarded, nothing redrawn");
    assert_eq!(s.deck.deck(), &[1, 3, 4, 5, 6]);
    assert_eq!(s.gone, 0);
}

// =============================================================================================
// P4. Milice or soldier.

#[test]
fn p4_last_patrols_of_the_day_are_soldiers() {
    // Soldier track 2, three patrols: Milice, soldier, soldier (cards 0, 1, 2).
    let mut s = with_deck(DECK, StartOverrides { soldiers: Some(2), ..Default::default() });
    play(&mut s, &["place:cafe", "place:spare_room_ne", "place:spare_room_w"]);
    assert_eq!(pawn_at(&s, PontLeveque), Pawn::Milice);
    assert_eq!(pawn_at(&s, RadioB), Pawn::Soldier);
    assert_eq!(pawn_at(&s, Grocer), Pawn::Soldier);
}

#[test]
fn p4_no_soldiers_at_track_zero() {
    let mut s = fresh();
    play(&mut s, &["place:cafe", "place:spare_room_ne", "place:spare_room_w"]);
    assert_eq!(s.locs_with(Pawn::Milice).count_ones(), 3);
    assert_eq!(s.locs_with(Pawn::Soldier), 0);
}

#[test]
fn p4_soldier_count_is_capped_by_the_number_of_patrols() {
    let mut s = with_deck(DECK, StartOverrides { soldiers: Some(5), ..Default::default() });
    play(&mut s, &["place:cafe", "place:spare_room_ne", "place:spare_room_w"]);
    assert_eq!(s.locs_with(Pawn::Soldier).count_ones(), 3);
    assert_eq!(s.locs_with(Pawn::Milice), 0);
}

#[test]
fn p4_unplaced_patrols_count_in_the_draw_order() {
    // As in p3_no_patrol_placed…: the fifth patrol is not placed. With soldier track 1 that fifth
    // patrol was the soldier, so the four on the board are all Milice.
    let mut s = with_deck(deck_starting(&[2, 0, 9, 8, 7]), StartOverrides { morale: Some(1), soldiers: Some(1), ..Default::default() });
    play(&mut s, &["place:radio_a", "place:radio_b", "place:cafe"]);
    assert_eq!(patrols_on_board(&s), 4);
    assert_eq!(s.locs_with(Pawn::Soldier), 0);
    // Soldier track 2: the fourth (pont_du_nord) is a soldier too.
    let mut s = with_deck(deck_starting(&[2, 0, 9, 8, 7]), StartOverrides { morale: Some(1), soldiers: Some(2), ..Default::default() });
    play(&mut s, &["place:radio_a", "place:radio_b", "place:cafe"]);
    assert_eq!(s.locs_with(Pawn::Soldier), bit(PontDuNord));
}

// =============================================================================================
// A1. Airdrop.

#[test]
fn a1_airdrop_puts_the_package_on_the_chosen_empty_field() {
    for (opt, fi, r, n) in [
        ("airdrop_field_w_money", 0, Money, 1),
        ("airdrop_field_w_weapon", 0, Weapon, 1),
        ("airdrop_field_w_food", 0, Food, 3),
        ("airdrop_field_e_money", 1, Money, 1),
        ("airdrop_field_e_weapon", 1, Weapon, 1),
        ("airdrop_field_e_food", 1, Food, 3),
    ] {
        let mut s = fresh();
        action_phase(&mut s, &[RadioB, Cafe], &[], &[]);
        act(&mut s, &format!("act:radio_b:{opt}"));
        let mut want = [0u8; 8];
        want[r.idx()] = n;
        assert_eq!(s.tokens.airdrop[fi], want, "{opt}");
        assert_eq!(s.tokens.airdrop[1 - fi], [0; 8], "{opt}: the other field");
        assert_eq!(supply(&s, r), 4 - n, "{opt}: taken from the supply");
        assert_eq!(s.tokens.hand, [0; 8], "{opt}: nothing in the hand");
    }
}

#[test]
fn a1_airdrop_only_onto_an_empty_field() {
    let mut s = fresh();
    s.tokens.supply[Money.idx()] -= 1;
    s.tokens.airdrop[1][Money.idx()] = 1;
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    let opts = options_at(&s, RadioA);
    assert!(opts.iter().all(|o| !o.starts_with("airdrop_field_e")), "{opts:?}");
    assert!(opts.contains(&"airdrop_field_w_food".to_string()));
}

#[test]
fn a1_airdrop_not_legal_when_no_field_is_empty() {
    let mut s = fresh();
    s.tokens.supply[Money.idx()] -= 2;
    s.tokens.airdrop[0][Money.idx()] = 1;
    s.tokens.airdrop[1][Money.idx()] = 1;
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    assert_eq!(options_at(&s, RadioA), vec!["intel"]);
}

#[test]
fn a1_no_airdrop_onto_an_aa_gun_or_an_unusable_field() {
    // Destroy AA Guns: guns on both fields.
    let mut s = fresh_missions(DestroyAaGuns, Sabotage);
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    assert_eq!(options_at(&s, RadioA), vec!["intel"]);
    // Bomb for the Officer: field_e unusable.
    let mut s = fresh_missions(BombForTheOfficer, Sabotage);
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    let opts = options_at(&s, RadioA);
    assert!(opts.iter().all(|o| !o.starts_with("airdrop_field_e")), "{opts:?}");
    assert!(opts.iter().any(|o| o.starts_with("airdrop_field_w")));
}

#[test]
fn a1_airdrop_gives_what_the_supply_has() {
    let mut s = fresh();
    give(&mut s, Food, 3);
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    act(&mut s, "act:radio_a:airdrop_field_e_food");
    assert_eq!(s.tokens.airdrop[1][Food.idx()], 1, "only one food was left in the supply");
    assert_eq!(supply(&s, Food), 0);
    maquis::maquis::save::validate(&s).unwrap();
}

// =============================================================================================
// A2. Pick up.

#[test]
fn a2_pickup_takes_all_tokens_on_the_field_into_the_hand() {
    let mut s = fresh();
    s.tokens.supply[Food.idx()] -= 3;
    s.tokens.airdrop[0][Food.idx()] = 3;
    s.tokens.airdrop_at_day_start[0] = true;
    assert!(is_legal(&s, "place:field_w"));
    action_phase(&mut s, &[FieldW, Cafe], &[], &[]);
    act(&mut s, "act:field_w:pickup");
    assert_eq!(hand(&s, Food), 3);
    assert_eq!(s.tokens.airdrop[0], [0; 8]);
}

#[test]
fn a2_a_drop_is_collected_from_the_next_day_on() {
    let mut s = fresh();
    assert!(!is_legal(&s, "place:field_w"), "day 0: nothing on the field");
    action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
    act(&mut s, "act:radio_a:airdrop_field_w_money");
    assert_eq!(s.tokens.airdrop[0][Money.idx()], 1);
    act(&mut s, "skip:cafe");
    // Day 1: the field held tokens at the start of the day.
    assert_eq!((s.day, s.phase), (1, Phase::Placement));
    assert!(is_legal(&s, "place:field_w"));
    assert!(!is_legal(&s, "place:field_e"));
    act(&mut s, "place:field_w");
    while s.phase == Phase::Placement {
        act(&mut s, "place:cafe");
        if s.phase == Phase::Placement {
            act(&mut s, "place:spare_room_ne");
        }
    }
    act(&mut s, "act:field_w:pickup");
    assert_eq!(hand(&s, Money), 1);
    skip_rest_of_day(&mut s);
    assert_eq!(s.day, 2);
    assert!(!is_legal(&s, "place:field_w"), "day 2: the field is empty again");
}

// =============================================================================================
// A3. Recruit.

#[test]
fn a3_recruit_pays_one_food_and_the_worker_is_available_at_once() {
    let mut s = fresh();
    give(&mut s, Food, 1);
    action_phase(&mut s, &[Cafe, PontLeveque, Fence], &[], &[]);
    assert_eq!((s.home, s.recruitable), (0, 2));
    act(&mut s, "act:cafe:recruit");
    assert_eq!(hand(&s, Food), 0);
    assert_eq!((s.home, s.recruitable), (2, 1), "the café worker and the recruit are home");
    assert_eq!(s.workers_in_play(), 4);
    // Placed from the next day on: four workers, so four patrols (F2).
    skip_rest_of_day(&mut s);
    assert_eq!(s.day, 1);
    assert_eq!((s.home, s.patrols_today), (4, 4));
}

#[test]
fn a3_recruit_needs_food_and_a_recruitable_worker() {
    let mut s = fresh();
    action_phase(&mut s, &[Cafe, PontLeveque], &[], &[]);
    assert!(!is_legal(&s, "act:cafe:recruit"), "no food");

    let mut s = game_with(
        Sabotage,
        UndergroundNewspaper,
        DECK,
        StartOverrides { workers: Some(maquis::maquis::WorkerOverride { available: 3, recruitable: 0 }), ..Default::default() },
    );
    give(&mut s, Food, 1);
    action_phase(&mut s, &[Cafe, PontLeveque], &[], &[]);
    assert!(!is_legal(&s, "act:cafe:recruit"), "nobody left to recruit");
}

// =============================================================================================
// A4. Build a spare room.

#[test]
fn a4_build_pays_two_money_and_covers_the_room() {
    let mut s = fresh();
    give(&mut s, Money, 3);
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[], &[]);
    assert_eq!(options_at(&s, SpareRoomNe).len(), 9, "any of the nine tiles");
    act(&mut s, "act:spare_room_ne:build_counterfeiter");
    assert_eq!(s.marks.tiles, [Some(Tile::Counterfeiter), None, None]);
    assert_eq!((hand(&s, Money), supply(&s, Money)), (1, 3));
}

#[test]
fn a4_build_needs_two_money() {
    let mut s = fresh();
    give(&mut s, Money, 1);
    action_phase(&mut s, &[SpareRoomW, Cafe], &[], &[]);
    assert!(options_at(&s, SpareRoomW).is_empty());
}

#[test]
fn a4_each_tile_is_built_once() {
    let mut s = fresh();
    give(&mut s, Money, 4);
    action_phase(&mut s, &[SpareRoomNe, SpareRoomW, Cafe], &[], &[]);
    act(&mut s, "act:spare_room_ne:build_informant");
    let opts = options_at(&s, SpareRoomW);
    assert!(!opts.contains(&"build_informant".to_string()));
    assert_eq!(opts.len(), 8);
}

#[test]
fn a4_build_is_safe() {
    // spare_room_ne is cut off by a patrol on black_market; the tile stays.
    let mut s = fresh();
    give(&mut s, Money, 2);
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:spare_room_ne:build_forger");
    assert_eq!(s.gone, 1);
    assert_eq!(s.tile_at(SpareRoomNe), Some(Tile::Forger));
    assert_eq!(hand(&s, Money), 0);
}

#[test]
fn a4_from_the_next_day_the_room_offers_the_tile_action() {
    let mut s = fresh();
    give(&mut s, Money, 4);
    action_phase(&mut s, &[SpareRoomSe, Cafe], &[], &[]);
    act(&mut s, "act:spare_room_se:build_informant");
    skip_rest_of_day(&mut s);
    act(&mut s, "place:spare_room_se");
    while s.phase == Phase::Placement {
        let spot = [Cafe, SpareRoomW, SpareRoomNe].into_iter().find(|l| is_legal(&s, &format!("place:{}", name(*l)))).unwrap();
        act(&mut s, &format!("place:{}", name(spot)));
    }
    assert_eq!(options_at(&s, SpareRoomSe), vec!["intel"], "no more building here (hand holds 2 money)");
}

// =============================================================================================
// A5. Spare-room tiles.

/// A worker on spare_room_w holding `tile`, another parked on the café.
fn on_tile(tile: Tile, hand_: &[(Resource, u8)], patrols: &[Location]) -> State {
    let mut s = with_deck(DECK, start_morale(5));
    s.marks.tiles[1] = Some(tile);
    for &(r, n) in hand_ {
        give(&mut s, r, n);
    }
    action_phase(&mut s, &[SpareRoomW, Cafe], patrols, &[]);
    s
}

#[test]
fn a5_each_tile_action_pays_and_gives_as_printed() {
    type Row = (Tile, &'static str, &'static [(Resource, u8)], &'static [(Resource, u8)], i8);
    let rows: &[Row] = &[
        (Tile::Informant, "intel", &[], &[(Intel, 1)], 0),
        (Tile::Counterfeiter, "money", &[], &[(Money, 1)], 0),
        (Tile::ChemistsLab, "explosive", &[(Medicine, 1)], &[(Medicine, 0), (Explosive, 1)], 0),
        (Tile::Smuggler, "medicine", &[], &[(Medicine, 3)], 0),
        (Tile::Smuggler, "food", &[], &[(Food, 3)], 0),
        (Tile::Propagandist, "morale", &[], &[], 1),
        (Tile::Pharmacist, "poison", &[(Medicine, 2)], &[(Medicine, 0), (Poison, 1)], 0),
        (Tile::Forger, "fake_id", &[(Intel, 1), (Money, 2)], &[(Intel, 0), (Money, 0), (FakeId, 1)], 0),
    ];
    for &(tile, opt, before, after, dm) in rows {
        let mut s = on_tile(tile, before, &[]);
        act(&mut s, &format!("act:spare_room_w:{opt}"));
        for &(r, n) in after {
            assert_eq!(hand(&s, r), n, "{tile}:{opt}: {r}");
        }
        let total: u32 = s.tokens.hand.iter().map(|&n| n as u32).sum();
        assert_eq!(total, after.iter().map(|&(_, n)| n as u32).sum::<u32>(), "{tile}:{opt}: nothing else");
        assert_eq!(s.tracks.morale as i8, 5 + dm, "{tile}:{opt}: morale");
    }
}

#[test]
fn a5_tile_actions_need_their_cost() {
    for (tile, opt) in [
        (Tile::ChemistsLab, "explosive"),
        (Tile::Pharmacist, "poison"),
        (Tile::Forger, "fake_id"),
    ] {
        let s = on_tile(tile, &[(Medicine, 1), (Money, 1), (Intel, 1)], &[]);
        let legal = is_legal(&s, &format!("act:spare_room_w:{opt}"));
        assert_eq!(legal, tile == Tile::ChemistsLab, "{tile}");
    }
}

#[test]
fn a5_unsafe_tiles_lose_their_reward_on_arrest_propagandist_keeps_it() {
    // spare_room_w is cut off by patrols on black_market and pont_leveque (B4).
    let mut s = on_tile(Tile::Informant, &[], &[BlackMarket, PontLeveque]);
    act(&mut s, "act:spare_room_w:intel");
    assert_eq!((s.gone, hand(&s, Intel)), (1, 0));

    let mut s = on_tile(Tile::Smuggler, &[], &[BlackMarket, PontLeveque]);
    act(&mut s, "act:spare_room_w:food");
    assert_eq!((s.gone, hand(&s, Food), supply(&s, Food)), (1, 0, 4));

    let mut s = on_tile(Tile::Propagandist, &[], &[BlackMarket, PontLeveque]);
    act(&mut s, "act:spare_room_w:morale");
    assert_eq!((s.gone, s.tracks.morale), (1, 6), "propagandist is safe");
}

#[test]
fn a5_safe_house_tile_has_no_action_is_placeable_and_is_a_safe_house() {
    let mut s = fresh();
    s.marks.tiles[1] = Some(Tile::SafeHouse);
    assert!(is_legal(&s, "place:spare_room_w"), "a worker may still be placed there");
    // radio_a is cut off by a patrol on doctor — unless spare_room_w is a Safe House.
    action_phase(&mut s, &[SpareRoomW, RadioA, Cafe], &[Doctor, PontLeveque, BlackMarket], &[]);
    assert!(options_at(&s, SpareRoomW).is_empty(), "no action on the safe_house tile");
    act(&mut s, "skip:radio_a");
    assert_eq!(s.gone, 0, "radio_a reaches the spare-room Safe House");
    act(&mut s, "skip:spare_room_w");
    assert_eq!(s.gone, 0, "a worker on the Safe House tile is home");
}

#[test]
fn a5_safe_house_tile_built_today_shelters_later_workers() {
    // Ruling (engine): the tile covers the room from the moment it is built (A4 "for the rest of the
    // game"); only its action starts the next day.
    let mut s = fresh();
    give(&mut s, Money, 2);
    action_phase(&mut s, &[SpareRoomW, RadioA, Cafe], &[Doctor], &[]);
    act(&mut s, "act:spare_room_w:build_safe_house");
    act(&mut s, "skip:radio_a");
    assert_eq!(s.gone, 0);
}

#[test]
fn a5_fixer_performs_an_unbuilt_tile_action_for_one_more_money() {
    let mut s = fresh();
    s.marks.tiles = [Some(Tile::Fixer), None, Some(Tile::Informant)];
    give(&mut s, Money, 1);
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[], &[]);
    let opts = options_at(&s, SpareRoomNe);
    // Unbuilt, affordable with 1 money + 1 medicine: counterfeiter, chemists_lab, smuggler ×2, propagandist.
    let want: BTreeSet<String> = [
        "fixer_counterfeiter", "fixer_chemists_lab", "fixer_smuggler_food", "fixer_smuggler_medicine", "fixer_propagandist",
    ]
    .iter()
    .map(|o| o.to_string())
    .collect();
    assert_eq!(opts.into_iter().collect::<BTreeSet<_>>(), want, "informant is built; pharmacist/forger unaffordable");
    act(&mut s, "act:spare_room_ne:fixer_chemists_lab");
    assert_eq!((hand(&s, Money), hand(&s, Medicine), hand(&s, Explosive)), (0, 0, 1), "1 money + the tile's cost");
}

#[test]
fn a5_fixer_safety_is_the_performed_tiles() {
    // spare_room_ne is cut off by black_market.
    let mut s = fresh();
    s.marks.tiles[0] = Some(Tile::Fixer);
    give(&mut s, Money, 2);
    s.tracks.morale = 5;
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:spare_room_ne:fixer_propagandist");
    assert_eq!((s.gone, s.tracks.morale, hand(&s, Money)), (1, 6, 1), "propagandist is safe: morale kept");

    let mut s = fresh();
    s.marks.tiles[0] = Some(Tile::Fixer);
    give(&mut s, Money, 2);
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[BlackMarket], &[]);
    act(&mut s, "act:spare_room_ne:fixer_counterfeiter");
    assert_eq!((s.gone, hand(&s, Money)), (1, 1), "counterfeiter is unsafe: the money is lost, the fee paid");
}

// =============================================================================================
// A6. Black Market.

#[test]
fn a6_black_market_morale_loss_happens_only_when_the_worker_gets_home() {
    let mut s = fresh();
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[BlackMarket, Cafe], &[], &[]);
    act(&mut s, "act:black_market:sell_medicine");
    assert_eq!((s.tracks.morale, hand(&s, Money), hand(&s, Medicine)), (5, 1, 0));

    // Cut off (grocer and pont_leveque patrolled): the money and the morale loss are both lost.
    let mut s = fresh();
    give(&mut s, Medicine, 1);
    action_phase(&mut s, &[BlackMarket, Cafe], &[Grocer, PontLeveque], &[]);
    act(&mut s, "act:black_market:sell_medicine");
    assert_eq!((s.gone, s.tracks.morale, hand(&s, Money), hand(&s, Medicine)), (1, 6, 0, 0));
}

#[test]
fn a6_black_market_sale_can_end_the_game_at_morale_one() {
    let mut s = with_deck(DECK, start_morale(1));
    give(&mut s, Food, 1);
    action_phase(&mut s, &[BlackMarket, Cafe], &[], &[]);
    act(&mut s, "act:black_market:sell_food");
    assert_eq!(s.tracks.morale, 0);
    assert_eq!(s.outcome, Some(maquis::maquis::Outcome::Loss));
}
