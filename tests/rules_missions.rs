//! §6 Missions: scenario tests for M0 and every M-* rule of RULES.md, each named after its rule id.
//!
//! Games are built with fixed missions (the first on mission_a) and a fixed patrol deck, and driven
//! by action name. Each day's patrols are made deterministic by setting the deck's order at the
//! start of the placement phase (P1 card table in the comments).
//!
//! ```text
//! card  1st           2nd           3rd
//!  0    pont_leveque  pont_du_nord  doctor
//!  1    radio_b       grocer        black_market
//!  2    grocer        poor_district doctor
//!  3    radio_a       pont_leveque  black_market
//!  4    radio_a       rue_baradat   grocer
//!  5    pont_leveque  black_market  doctor
//!  6    radio_b       rue_baradat   pont_leveque
//!  7    fence         pont_du_nord  pont_leveque
//!  8    grocer        pont_du_nord  fence
//!  9    fence         rue_baradat   poor_district
//! ```

mod common;

use common::{act, game, game_with, is_legal, legal_names, setup};
use maquis::maquis::board::bit;
use maquis::maquis::deck::PatrolDeck;
use maquis::maquis::ids::{
    Difficulty, Location, Location::*, MissionId, MissionId::*, Outcome, Pawn, Phase, Resource, Resource::*,
};
use maquis::maquis::save::{state_dict, validate};
use maquis::maquis::state::{State, Tier};
use maquis::maquis::{legal_mask, observation, observation_layout, StartOverrides, WorkerOverride};

// ---------------------------------------------------------------------------------------------
// Helpers

/// Patrols on radio_b, radio_a, rue_baradat, then pont_leveque, then fence (when those are free):
/// the cafe, the two eastern spare rooms, the grocer and the black market always have a way home,
/// and so do the mission slots with up to four patrols.
const QUIET: [u8; 10] = [1, 4, 6, 3, 9, 0, 2, 5, 7, 8];
/// Where `idle_day` puts workers, in order of preference.
const IDLE: [&str; 7] = ["cafe", "spare_room_se", "spare_room_ne", "grocer", "black_market", "spare_room_w", "doctor"];

fn opts() -> StartOverrides {
    StartOverrides::default()
}

/// Starting overrides with these tokens in hand.
fn hand(res: &[(Resource, u8)]) -> StartOverrides {
    let mut o = opts();
    for &(r, n) in res {
        o.resources.insert(r, n);
    }
    o
}

fn at_day(day: u8) -> StartOverrides {
    StartOverrides { day: Some(day), ..opts() }
}

fn workers(available: u8, recruitable: u8) -> Option<WorkerOverride> {
    Some(WorkerOverride { available, recruitable })
}

/// A normal game with these missions (a on mission_a), starting overrides, and the QUIET deck.
fn new(a: MissionId, b: MissionId, o: StartOverrides) -> State {
    let s = game_with(a, b, QUIET, o);
    validate(&s).unwrap();
    s
}

fn new_at(d: Difficulty, a: MissionId, b: MissionId, o: StartOverrides) -> State {
    let s = game(&setup(d, a, b, QUIET).start(o));
    validate(&s).unwrap();
    s
}

/// Sets the patrol deck's draw order (the cards not named are in the discard) at the start of a
/// placement phase, and redoes the start of the day (F2-F4) so that what the player sees before
/// placing (Infiltration's peek) matches the new deck.
fn set_deck(s: &mut State, order: &[u8]) {
    assert_eq!(s.phase, Phase::Placement);
    assert_eq!(s.patrols_drawn, 0, "set the deck before any patrol of the day is drawn");
    s.deck = PatrolDeck::from_order(order);
    maquis::maquis::rules::begin_day(s);
}

/// Places workers on the named locations, one after another (patrols come out in between).
fn place(s: &mut State, locs: &[&str]) {
    for l in locs {
        act(s, &format!("place:{l}"));
    }
}

/// Starts a day with the QUIET deck and places workers on `locs`.
fn begin(s: &mut State, locs: &[&str]) {
    set_deck(s, &QUIET);
    place(s, locs);
}

/// Starts a day with the given deck and places workers on `locs`.
fn begin_with(s: &mut State, deck: &[u8], locs: &[&str]) {
    set_deck(s, deck);
    place(s, locs);
}

fn worker_locs(s: &State) -> Vec<Location> {
    Location::ALL.iter().copied().filter(|&l| s.pawns[l.idx()] == Pawn::Worker).collect()
}

/// Activates every remaining worker without an action (accepting shot decisions) until the day
/// ends or the game is over (nothing to do if the day already ended).
fn skip_rest(s: &mut State) {
    if s.phase == Phase::Placement {
        return;
    }
    let day = (s.pass, s.day);
    let mut guard = 0;
    while !s.is_over() && (s.pass, s.day) == day {
        match s.phase {
            Phase::PostAction => act(s, "accept"),
            Phase::Action => {
                let l = worker_locs(s)[0];
                act(s, &format!("skip:{l}"));
            }
            p => panic!("skip_rest in phase {p}"),
        }
        guard += 1;
        assert!(guard < 50);
    }
    validate(s).unwrap();
}

/// Plays a whole day with the QUIET deck: every worker on an idle spot, none acting.
fn idle_day(s: &mut State) {
    assert_eq!(s.phase, Phase::Placement);
    set_deck(s, &QUIET);
    let day = (s.pass, s.day);
    while s.phase == Phase::Placement && (s.pass, s.day) == day {
        let spot = IDLE
            .iter()
            .find(|l| is_legal(s, &format!("place:{l}")))
            .unwrap_or_else(|| panic!("no idle spot; legal: {:?}", legal_names(s)));
        act(s, &format!("place:{spot}"));
    }
    if (s.pass, s.day) == day {
        skip_rest(s);
    }
}

/// Idle days until the marker reaches `day`.
fn idle_until(s: &mut State, day: u8) {
    while s.day < day && !s.is_over() {
        idle_day(s);
    }
    assert_eq!(s.day, day);
}

fn give(s: &mut State, r: Resource, n: u8) {
    s.tokens.supply[r.idx()] -= n;
    s.tokens.hand[r.idx()] += n;
}

fn h(s: &State, r: Resource) -> u8 {
    s.tokens.hand[r.idx()]
}

/// Boxes already done on a mission (the last one on absolute day `last`).
fn prefill(s: &mut State, slot: usize, boxes: u8, last: Option<u8>) {
    s.missions[slot].boxes_done = boxes;
    s.missions[slot].last_box_day = last;
}

fn closed_roads(s: &State) -> serde_json::Value {
    state_dict(s)["closed_roads"].clone()
}

fn shots_legal(s: &State) -> Vec<String> {
    legal_names(s).into_iter().filter(|n| n.starts_with("shoot:")).collect()
}

fn slice<'a>(obs: &'a [f32], name: &str) -> &'a [f32] {
    let &(_, off, len) = observation_layout().iter().find(|(n, _, _)| *n == name).expect("slice name");
    &obs[off..off + len]
}

// ---------------------------------------------------------------------------------------------
// M0. Cards and slots.

#[test]
fn m0_every_card_lies_on_a_slot_first_on_mission_a() {
    for (a, b) in [(Sabotage, Assassination), (LiberateTheTown, DestroyAaGuns)] {
        let s = new(a, b, opts());
        let d = state_dict(&s);
        assert_eq!(d["missions"][0]["id"], a.as_str());
        assert_eq!(d["missions"][0]["slot"], "mission_a");
        assert_eq!(d["missions"][1]["id"], b.as_str());
        assert_eq!(d["missions"][1]["slot"], "mission_b");
    }
}

#[test]
fn m0_slot_not_placeable_outside_day_window() {
    // Destroy the Train: days 6–9 only.
    for (day, ok) in [(5, false), (6, true), (9, true), (10, false)] {
        let s = new(DestroyTheTrain, Sabotage, at_day(day));
        assert_eq!(is_legal(&s, "place:mission_a"), ok, "destroy_the_train, day {day}");
        assert!(is_legal(&s, "place:mission_b"));
    }
    // Coded Messages: training on day ≤ 6.
    for (day, ok) in [(0, true), (6, true), (7, false)] {
        let s = new(Sabotage, CodedMessages, at_day(day));
        assert_eq!(is_legal(&s, "place:mission_b"), ok, "coded_messages, day {day}");
    }
    // Free the Resistance Leader: the bribe on day ≤ 5.
    for (day, ok) in [(5, true), (6, false)] {
        let s = new(FreeTheResistanceLeader, Sabotage, at_day(day));
        assert_eq!(is_legal(&s, "place:mission_a"), ok, "free_the_resistance_leader, day {day}");
    }
}

#[test]
fn m0_slot_never_placeable_for_cards_without_an_action_on_the_card() {
    for m in [MiliceParadeDay, DoubleAgent, Assassination, LiberateTheTown, TakeOutTheBridges] {
        for day in [0, 3, 6] {
            let s = new(m, Sabotage, at_day(day));
            assert!(!is_legal(&s, "place:mission_a"), "{m} on mission_a, day {day}");
            assert!(!is_legal(&s, "place:mission_a:fake_id"));
            assert!(is_legal(&s, "place:mission_b"));
            let s = new(Sabotage, m, at_day(day));
            assert!(!is_legal(&s, "place:mission_b"), "{m} on mission_b, day {day}");
            assert!(is_legal(&s, "place:mission_a"));
        }
    }
}

#[test]
fn m0_slot_placeable_whatever_the_cost_then_the_worker_may_only_skip() {
    // Aid the Spy with an empty hand: the slot takes a worker, who cannot pay.
    let mut s = new(AidTheSpy, Sabotage, opts());
    assert!(is_legal(&s, "place:mission_a"));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:weapons"));
    assert!(!is_legal(&s, "act:mission_a:supplies"));
    assert!(is_legal(&s, "skip:mission_a"));
    act(&mut s, "skip:mission_a");
    assert_eq!(s.missions[0].boxes_done, 0);

    // Milice HQ: the poison box's earlier box (records) is not done: placeable, not performable.
    let mut s = new(MiliceHq, Sabotage, hand(&[(Poison, 2)]));
    assert!(is_legal(&s, "place:mission_a"));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:poison"));
    assert!(is_legal(&s, "skip:mission_a"));
}

#[test]
fn m0_slot_not_placeable_once_the_card_is_done() {
    let mut s = new(AidTheSpy, Sabotage, hand(&[(Weapon, 2), (Money, 1), (Food, 2)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:weapons");
    skip_rest(&mut s);
    assert!(is_legal(&s, "place:mission_a"), "box 2 is still to do");
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:supplies");
    assert!(s.missions[0].complete);
    skip_rest(&mut s);
    assert!(!s.is_over());
    assert!(!is_legal(&s, "place:mission_a"), "the card's work is done");
    assert!(is_legal(&s, "place:mission_b"));
}

#[test]
fn m0_slot_not_placeable_once_the_mission_failed() {
    // Free the Resistance Leader without a bribe by the end of day 5.
    let mut s = new(FreeTheResistanceLeader, Sabotage, at_day(5));
    assert!(is_legal(&s, "place:mission_a"));
    idle_day(&mut s);
    assert!(s.missions[0].failed);
    assert!(!is_legal(&s, "place:mission_a"));
}

#[test]
fn m0_boxes_are_done_in_order() {
    let mut s = new(Sabotage, AidTheSpy, hand(&[(Explosive, 1), (Money, 1), (Food, 2)]));
    begin(&mut s, &["mission_a", "mission_b", "cafe"]);
    assert!(!is_legal(&s, "act:mission_a:sabotage"), "box 3 before boxes 1-2");
    assert!(is_legal(&s, "act:mission_a:infiltrate"));
    assert!(!is_legal(&s, "act:mission_b:supplies"), "box 2 before box 1");

    let mut s = new(FreeTheResistanceLeader, Sabotage, hand(&[(Poison, 1), (Intel, 1), (Money, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:poison"), "objective 2 before objective 1");
    assert!(is_legal(&s, "act:mission_a:bribe"));
}

#[test]
fn m0_boxes_done_by_different_workers_the_same_day_count_in_order() {
    // Milice HQ: records at rue_baradat, then poison on the card, the same day.
    let mut o = hand(&[(Poison, 2)]);
    o.morale = Some(6);
    let mut s = new(MiliceHq, Sabotage, o);
    // radio_b, radio_a, grocer: rue_baradat goes home by doctor and pont_leveque.
    begin_with(&mut s, &[1, 4, 2], &["rue_baradat", "mission_a", "cafe"]);
    assert!(!is_legal(&s, "act:mission_a:poison"));
    act(&mut s, "act:rue_baradat:records");
    assert_eq!(s.missions[0].boxes_done, 1);
    assert!(is_legal(&s, "act:mission_a:poison"));
    act(&mut s, "act:mission_a:poison");
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
}

#[test]
fn m0_shield_keeps_a_missions_reward_when_its_worker_is_arrested() {
    // Officers' Mansion (shield): a tag made by a worker who is then arrested still counts.
    let mut o = opts();
    o.morale = Some(4);
    o.workers = workers(2, 2);
    let mut s = new(OfficersMansion, Sabotage, o);
    // grocer, poor_district, pont_leveque, black_market: pont_du_nord is cut off.
    begin_with(&mut s, &[8, 2, 0, 5, 1, 3, 4, 6, 7, 9], &["pont_du_nord", "cafe"]);
    assert_eq!(s.pawns[PoorDistrict.idx()], Pawn::Milice);
    assert_eq!(s.pawns[BlackMarket.idx()], Pawn::Milice);
    act(&mut s, "act:pont_du_nord:graffiti");
    assert_eq!(s.gone, 2, "the tagger was arrested");
    assert_eq!(s.pawns[PontDuNord.idx()], Pawn::Empty);
    assert_ne!(s.marks.tagged & bit(PontDuNord), 0);
    assert_eq!(s.missions[0].boxes_done, 1);

    // Sabotage (shield): an infiltration on the card counts even though fence's patrol cuts the
    // slot off.
    let mut s = new(Sabotage, AidTheSpy, opts());
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    assert_eq!(s.pawns[Fence.idx()], Pawn::Milice);
    act(&mut s, "act:mission_a:infiltrate");
    assert_eq!(s.gone, 1);
    assert_eq!(s.missions[0].boxes_done, 1);
}

#[test]
fn m0_unsafe_three_star_objectives_lose_their_reward_on_arrest() {
    // Free the Resistance Leader's bribe: the cost is paid, the box lost.
    let mut s = new(FreeTheResistanceLeader, Sabotage, hand(&[(Intel, 1), (Money, 1)]));
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:bribe");
    assert_eq!(s.gone, 1);
    assert_eq!(s.missions[0].boxes_done, 0);
    assert_eq!((h(&s, Intel), h(&s, Money)), (0, 0));
    assert_eq!((s.tokens.supply[Intel.idx()], s.tokens.supply[Money.idx()]), (4, 4));

    // Bomb the Barracks' recon.
    let mut s = new(BombTheBarracks, Sabotage, opts());
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:recon");
    assert_eq!(s.gone, 1);
    assert_eq!(s.missions[0].boxes_done, 0);
    assert_eq!(s.missions[0].last_box_day, None);

    // Milice HQ's records: fence, pont_leveque, pont_du_nord, doctor cut rue_baradat off.
    let mut s = new(MiliceHq, Sabotage, opts());
    assert_eq!(s.patrols_today, 4);
    begin_with(&mut s, &[9, 5, 7, 0, 1, 2, 3, 4, 6, 8], &["rue_baradat", "cafe", "grocer"]);
    assert_eq!(s.pawns[Doctor.idx()], Pawn::Milice);
    act(&mut s, "act:rue_baradat:records");
    assert_eq!(s.gone, 1);
    assert_eq!(s.missions[0].boxes_done, 0);
}

// ---------------------------------------------------------------------------------------------
// M-milice_parade_day

#[test]
fn m_milice_parade_day_closes_rue_baradat_fence_on_orange_days() {
    for (day, closed) in [(0, false), (3, true), (4, false), (6, true), (9, true), (12, true), (13, false), (14, true)] {
        let mut s = new(MiliceParadeDay, Sabotage, at_day(day));
        // radio_b, radio_a, doctor: rue_baradat's only way home is through fence.
        begin_with(&mut s, &[1, 4, 2, 0, 3, 5, 6, 7, 8, 9], &["rue_baradat", "grocer", "poor_district"]);
        assert_eq!(s.pawns[Doctor.idx()], Pawn::Milice);
        let expected = if closed { serde_json::json!([["rue_baradat", "fence"]]) } else { serde_json::json!([]) };
        assert_eq!(closed_roads(&s), expected, "day {day}");
        act(&mut s, "skip:rue_baradat");
        assert_eq!(s.gone, closed as u8, "day {day}: arrested iff the road is closed");
    }
}

#[test]
fn m_milice_parade_day_parade_costs_a_weapon_raises_morale_completes_and_arrests() {
    let mut o = hand(&[(Weapon, 1)]);
    o.day = Some(3);
    o.morale = Some(5);
    o.resources.insert(FakeId, 1);
    let mut s = new(MiliceParadeDay, Sabotage, o);
    set_deck(&mut s, &QUIET);
    act(&mut s, "place:rue_baradat:fake_id");
    place(&mut s, &["cafe", "spare_room_se"]);
    assert_eq!(closed_roads(&s), serde_json::json!([["rue_baradat", "fence"]]));
    act(&mut s, "act:rue_baradat:parade");
    let fake_ids = (h(&s, FakeId), s.tokens.supply[FakeId.idx()]);
    assert_eq!(fake_ids, (0, 4), "an arrest: the Fake ID goes back to the supply");
    assert_eq!(s.tracks.morale, 6);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.gone, 1, "the parading worker is arrested");
    assert_eq!(s.pawns[RueBaradat.idx()], Pawn::Empty);
    assert_eq!((h(&s, Weapon), s.tokens.supply[Weapon.idx()]), (0, 4));
    // Finished: the road is open again, even on this orange day.
    assert_eq!(closed_roads(&s), serde_json::json!([]));
    assert!(!s.is_over());
}

#[test]
fn m_milice_parade_day_parade_only_on_orange_days_with_a_weapon() {
    let mut o = hand(&[(Weapon, 1)]);
    o.day = Some(4);
    let mut s = new(MiliceParadeDay, Sabotage, o);
    begin(&mut s, &["rue_baradat", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:rue_baradat:parade"), "day 4 is not orange");
    assert!(is_legal(&s, "skip:rue_baradat"));

    let mut s = new(MiliceParadeDay, Sabotage, at_day(3));
    begin(&mut s, &["rue_baradat", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:rue_baradat:parade"), "no weapon");

    // Not elsewhere either.
    let mut o = hand(&[(Weapon, 1)]);
    o.day = Some(3);
    let mut s = new(MiliceParadeDay, Sabotage, o);
    begin(&mut s, &["rue_baradat", "cafe", "spare_room_se"]);
    assert!(is_legal(&s, "act:rue_baradat:parade"));
    let parades = legal_names(&s).into_iter().filter(|n| n.ends_with(":parade")).count();
    assert_eq!(parades, 1);
}

#[test]
fn m_milice_parade_day_arrest_of_the_last_worker_ends_the_game_at_once() {
    // E1: the parading worker was the last one in play: the game ends at once, before the day
    // marker moves. On day 14 that matters: Liberate the Town (3 weapons left, morale 6) would
    // complete at the final move.
    for day in [3, 14] {
        let mut o = hand(&[(Weapon, 4)]);
        o.day = Some(day);
        o.morale = Some(5);
        o.workers = workers(1, 0);
        let mut s = new(MiliceParadeDay, LiberateTheTown, o);
        begin(&mut s, &["rue_baradat"]);
        act(&mut s, "act:rue_baradat:parade");
        assert!(s.missions[0].complete);
        assert!(s.is_over(), "no worker left in play: the game ends at once");
        assert_eq!(s.day, day);
        assert!(!s.missions[1].complete);
        assert_eq!(s.outcome, Some(Outcome::Draw));
    }
}

#[test]
fn m_milice_parade_day_arrest_costs_morale_in_very_hard() {
    let mut o = hand(&[(Weapon, 1)]);
    o.day = Some(3);
    o.morale = Some(5);
    let mut s = new_at(Difficulty::VeryHard, MiliceParadeDay, Sabotage, o);
    begin(&mut s, &["rue_baradat", "cafe"]);
    act(&mut s, "act:rue_baradat:parade");
    assert!(s.missions[0].complete);
    assert_eq!(s.tracks.morale, 5, "+1 for the parade, −1 for the arrest");
    assert_eq!(s.gone, 1, "the parading worker is arrested");
}

// ---------------------------------------------------------------------------------------------
// M-officers_mansion

#[test]
fn m_officers_mansion_complete_needs_all_three_tags_made_earlier_the_same_day() {
    let mut o = opts();
    o.workers = workers(4, 1);
    let mut s = new(OfficersMansion, Sabotage, o);
    assert!(is_legal(&s, "place:mission_a"), "the `complete` box is on the card");
    // radio_b, radio_a, grocer, black_market.
    begin_with(&mut s, &[1, 4, 2, 3, 0, 5, 6, 7, 8, 9], &["rue_baradat", "pont_leveque", "pont_du_nord", "mission_a"]);
    assert!(!is_legal(&s, "act:mission_a:complete"));
    act(&mut s, "act:rue_baradat:graffiti");
    act(&mut s, "act:pont_leveque:graffiti");
    assert!(!is_legal(&s, "act:mission_a:complete"), "two tags are not enough");
    act(&mut s, "act:pont_du_nord:graffiti");
    assert_eq!(s.marks.tagged, bit(RueBaradat) | bit(PontLeveque) | bit(PontDuNord));
    assert_eq!(s.missions[0].boxes_done, 3);
    assert!(!s.missions[0].complete);
    act(&mut s, "act:mission_a:complete");
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].boxes_done, 4);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
}

#[test]
fn m_officers_mansion_each_location_is_tagged_once() {
    let mut s = new(OfficersMansion, Sabotage, opts());
    begin(&mut s, &["rue_baradat", "cafe", "spare_room_se"]);
    act(&mut s, "act:rue_baradat:graffiti");
    assert_eq!(s.marks.tagged, bit(RueBaradat));
    skip_rest(&mut s);
    begin(&mut s, &["rue_baradat", "pont_du_nord", "cafe"]);
    assert!(!is_legal(&s, "act:rue_baradat:graffiti"), "already tagged");
    assert!(is_legal(&s, "act:pont_du_nord:graffiti"));
    // Only the three locations can be tagged.
    let graffiti: Vec<String> = legal_names(&s).into_iter().filter(|n| n.ends_with(":graffiti")).collect();
    assert_eq!(graffiti, vec!["act:pont_du_nord:graffiti".to_string()]);
}

// ---------------------------------------------------------------------------------------------
// M-sabotage

#[test]
fn m_sabotage_box3_pays_one_explosive_on_a_later_day() {
    let mut s = new(Sabotage, AidTheSpy, hand(&[(Explosive, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:sabotage"));
    act(&mut s, "act:mission_a:infiltrate");
    assert_eq!(s.missions[0].boxes_done, 1);
    skip_rest(&mut s);

    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:sabotage"));
    act(&mut s, "act:mission_a:infiltrate");
    assert_eq!(s.missions[0].boxes_done, 2);
    skip_rest(&mut s);

    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:infiltrate"), "only two infiltrations");
    act(&mut s, "act:mission_a:sabotage");
    assert_eq!((h(&s, Explosive), s.tokens.supply[Explosive.idx()]), (0, 4));
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
}

#[test]
fn m_sabotage_infiltrations_on_different_days_and_sabotage_on_a_later_day() {
    let mut o = hand(&[(Explosive, 1)]);
    o.day = Some(4);
    let mut s = new(Sabotage, AidTheSpy, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    // Box 1 done earlier today (as if by another worker): box 2 must wait for another day.
    prefill(&mut s, 0, 1, Some(4));
    assert!(!is_legal(&s, "act:mission_a:infiltrate"));
    prefill(&mut s, 0, 1, Some(3));
    assert!(is_legal(&s, "act:mission_a:infiltrate"));
    // Box 2 done today: box 3 only on a later day.
    prefill(&mut s, 0, 2, Some(4));
    assert!(!is_legal(&s, "act:mission_a:sabotage"));
    prefill(&mut s, 0, 2, Some(3));
    assert!(is_legal(&s, "act:mission_a:sabotage"));
    // Box 3 pays one explosive: none, no sabotage.
    s.tokens.hand[Explosive.idx()] = 0;
    s.tokens.supply[Explosive.idx()] = 4;
    assert!(!is_legal(&s, "act:mission_a:sabotage"));
}

// ---------------------------------------------------------------------------------------------
// M-underground_newspaper

#[test]
fn m_underground_newspaper_three_deliveries_of_two_intel_on_different_days() {
    let mut s = new(UndergroundNewspaper, AidTheSpy, hand(&[(Intel, 4)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:deliver");
    assert_eq!((h(&s, Intel), s.missions[0].boxes_done), (2, 1));
    skip_rest(&mut s);

    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:deliver");
    assert_eq!((h(&s, Intel), s.missions[0].boxes_done), (0, 2));
    skip_rest(&mut s);

    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:deliver"), "no intel");
    give(&mut s, Intel, 1);
    assert!(!is_legal(&s, "act:mission_a:deliver"), "one intel is not enough");
    give(&mut s, Intel, 1);
    // A delivery already made today (as if by another worker): not again today.
    let last = s.missions[0].last_box_day;
    s.missions[0].last_box_day = Some(s.abs_day());
    assert!(!is_legal(&s, "act:mission_a:deliver"));
    s.missions[0].last_box_day = last;
    act(&mut s, "act:mission_a:deliver");
    assert_eq!(h(&s, Intel), 0);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].boxes_done, 3);
}

#[test]
fn m_underground_newspaper_different_days_count_across_very_easy_passes() {
    let mut o = hand(&[(Intel, 2)]);
    o.day = Some(3);
    let mut s = new_at(Difficulty::VeryEasy, UndergroundNewspaper, Sabotage, o);
    s.pass = 2; // day 3 of the second pass
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    prefill(&mut s, 0, 1, Some(3)); // day 3 of the first pass
    assert!(is_legal(&s, "act:mission_a:deliver"), "the same printed day of another pass is another day");
    let today = s.abs_day();
    prefill(&mut s, 0, 1, Some(today));
    assert!(!is_legal(&s, "act:mission_a:deliver"));
}

// ---------------------------------------------------------------------------------------------
// M-infiltration

#[test]
fn m_infiltration_mole_pays_two_intel_stays_stuck_and_returns_its_fake_id() {
    let mut o = hand(&[(Intel, 2), (FakeId, 1)]);
    o.morale = Some(7);
    let mut s = new(Infiltration, Sabotage, o);
    assert!(is_legal(&s, "place:mission_a"));
    set_deck(&mut s, &QUIET);
    act(&mut s, "place:mission_a:fake_id");
    assert!(!is_legal(&s, "place:mission_a"), "one worker on the card before the mole");
    place(&mut s, &["cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:extract"), "box 1 first");
    act(&mut s, "act:mission_a:mole");
    assert_eq!(h(&s, Intel), 0);
    assert_eq!(h(&s, FakeId), 1, "a worker that becomes stuck gives its Fake ID back to the hand");
    assert_eq!(s.marks.fake_ids, 0);
    assert_ne!(s.marks.stuck & bit(MissionA), 0);
    assert_eq!(s.pawns[MissionA.idx()], Pawn::Empty);
    assert_eq!(s.missions[0].boxes_done, 1);
    assert!(!s.missions[0].complete);
    skip_rest(&mut s);

    // Next day: the mole is still there, not available, not counted for patrols (F2).
    assert_eq!(s.day, 1);
    assert_eq!(s.home, 2);
    assert_eq!(s.stuck_workers(), 1);
    assert_eq!(state_dict(&s)["workers"]["stuck"], 1);
    assert_eq!(s.patrols_today, 2, "morale 7: max(2 available, 2) patrols");
    assert_eq!(s.workers_in_play(), 3);
}

#[test]
fn m_infiltration_slot_takes_one_more_worker_who_extracts_with_the_mole() {
    let mut s = new(Infiltration, Sabotage, hand(&[(Intel, 2), (Weapon, 1), (Explosive, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:mole");
    skip_rest(&mut s);

    assert!(is_legal(&s, "place:mission_a"), "the slot accepts one more worker while the mole is there");
    begin(&mut s, &["mission_a"]);
    assert!(!is_legal(&s, "place:mission_a"), "only one more");
    place(&mut s, &["cafe"]);
    assert!(!is_legal(&s, "act:mission_a:mole"));
    act(&mut s, "act:mission_a:extract");
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!((h(&s, Weapon), h(&s, Explosive)), (0, 0));
    assert_eq!(s.marks.stuck, 0);
    assert_eq!(s.home, 2, "the mole and the extractor both went home");
    skip_rest(&mut s);
    assert_eq!(s.home, 3);
    assert!(!is_legal(&s, "place:mission_a"));
}

#[test]
fn m_infiltration_extraction_completes_even_if_both_are_arrested() {
    let mut s = new(Infiltration, Sabotage, hand(&[(Intel, 2), (Weapon, 1), (Explosive, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:mole");
    skip_rest(&mut s);
    // Fence's patrol cuts the slot off.
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe"]);
    assert_eq!(s.pawns[Fence.idx()], Pawn::Milice);
    act(&mut s, "act:mission_a:extract");
    assert!(s.missions[0].complete, "arrest does not undo the mission");
    assert_eq!(s.gone, 2, "the mole and the extractor are both arrested");
    assert_eq!(s.marks.stuck, 0);
    assert_eq!(s.pawns[MissionA.idx()], Pawn::Empty);
}

#[test]
fn m_infiltration_peek_shows_the_top_card_before_each_placement_reshuffling_an_empty_deck() {
    let mut s = new(Infiltration, Sabotage, hand(&[(Intel, 2)]));
    assert!(slice(&observation(&s), "peek").iter().all(|&x| x == 0.0), "no mole, no peek");
    // Exactly the day's three cards: the deck is empty at the end of the day.
    begin_with(&mut s, &[1, 4, 6], &["mission_a", "cafe", "spare_room_se"]);
    assert!(s.deck.deck().is_empty());
    act(&mut s, "act:mission_a:mole");
    skip_rest(&mut s);

    assert_eq!(s.phase, Phase::Placement);
    assert_eq!(s.deck.deck().len(), 10, "the discard was shuffled into a new deck for the peek");
    assert_eq!(s.deck.discard().len(), 0);
    let top = s.deck.deck()[0] as usize;
    let peek = slice(&observation(&s), "peek").to_vec();
    assert_eq!(peek[top], 1.0);
    assert_eq!(peek.iter().sum::<f32>(), 1.0);
    assert_eq!(state_dict(&s)["peek"], top as u64);

    // The next day shows the new top card.
    idle_day(&mut s);
    let top = s.deck.deck()[0] as usize;
    let peek = slice(&observation(&s), "peek").to_vec();
    assert_eq!(peek[top], 1.0);
    assert_eq!(peek.iter().sum::<f32>(), 1.0);
}

#[test]
fn m_infiltration_observation_hides_the_deck_order_but_shows_the_peeked_card() {
    // Without the mole the whole deck order is hidden.
    let s = new(Infiltration, Sabotage, hand(&[(Intel, 2)]));
    let mut t = s.clone();
    t.deck.cards.reverse();
    assert_ne!(s.deck, t.deck);
    assert_eq!(observation(&s), observation(&t));

    // With the mole the top card is shown; the order below it stays hidden.
    let mut s = s;
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:mole");
    skip_rest(&mut s);
    let top = s.deck.top as usize;
    assert!(s.deck.deck().len() >= 3);
    let mut t = s.clone();
    t.deck.cards[top + 1..].reverse();
    assert_ne!(s.deck, t.deck);
    assert_eq!(observation(&s), observation(&t));
    let peek = slice(&observation(&s), "peek").to_vec();
    assert_eq!(peek[s.deck.deck()[0] as usize], 1.0);
    assert_eq!(peek.iter().sum::<f32>(), 1.0);
}

// ---------------------------------------------------------------------------------------------
// M-german_shepherds

#[test]
fn m_german_shepherds_three_deliveries_on_different_days_cost_medicine_and_food() {
    let mut s = new(GermanShepherds, Sabotage, hand(&[(Medicine, 3), (Food, 3)]));
    for day in 0..3u8 {
        begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
        if day == 2 {
            let last = s.missions[0].last_box_day;
            s.missions[0].last_box_day = Some(s.abs_day());
            assert!(!is_legal(&s, "act:mission_a:deliver"), "not twice the same day");
            s.missions[0].last_box_day = last;
        }
        act(&mut s, "act:mission_a:deliver");
        assert_eq!((h(&s, Medicine), h(&s, Food)), (2 - day, 2 - day));
        assert_eq!(s.missions[0].boxes_done, day + 1);
        assert_eq!(s.missions[0].complete, day == 2);
        skip_rest(&mut s);
    }
    // One medicine and one food are both needed.
    let mut s = new(GermanShepherds, Sabotage, hand(&[(Medicine, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:deliver"));
}

#[test]
fn m_german_shepherds_forbids_shooting_while_unfinished() {
    let mut s = new(GermanShepherds, Sabotage, hand(&[(Medicine, 3), (Food, 3), (Weapon, 1)]));
    for _ in 0..2 {
        begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
        assert_eq!(s.pawns[RadioB.idx()], Pawn::Milice);
        assert!(shots_legal(&s).is_empty(), "a weapon and Milice, but German Shepherds is unfinished");
        act(&mut s, "act:mission_a:deliver");
        assert!(shots_legal(&s).is_empty());
        skip_rest(&mut s);
    }
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:deliver");
    assert!(s.missions[0].complete);
    assert!(is_legal(&s, "shoot:radio_b"), "finished: shooting is allowed again");
    act(&mut s, "shoot:radio_b");
    assert_eq!(s.tracks.soldiers, 1);

    // A worker cut off while German Shepherds is unfinished gets no shot decision (F8).
    let mut s = new(GermanShepherds, Sabotage, hand(&[(Medicine, 1), (Food, 1), (Weapon, 1)]));
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:deliver");
    assert_eq!(s.phase, Phase::Action);
    assert_eq!(s.gone, 1);
    assert_eq!(h(&s, Weapon), 1);
    // The same position without German Shepherds offers the shot.
    let mut s = new(Sabotage, AidTheSpy, hand(&[(Weapon, 1)]));
    begin_with(&mut s, &[9, 1, 4, 0, 2, 3, 5, 6, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:infiltrate");
    assert_eq!(s.phase, Phase::PostAction);
    assert!(is_legal(&s, "shoot:fence"));
}

// ---------------------------------------------------------------------------------------------
// M-double_agent

#[test]
fn m_double_agent_six_visits_reveal_the_dark_lady_and_her_visitor_leaves_the_game() {
    let mut o = opts();
    o.workers = workers(4, 1);
    let mut s = new(DoubleAgent, Sabotage, o);
    // radio_b, radio_a, grocer, fence.
    begin_with(&mut s, &[1, 4, 2, 9, 0, 3, 5, 6, 7, 8], &["rue_baradat", "pont_du_nord", "doctor", "cafe"]);
    act(&mut s, "skip:rue_baradat");
    act(&mut s, "skip:pont_du_nord");
    act(&mut s, "act:doctor:medicine");
    act(&mut s, "skip:cafe");
    let expected = bit(RueBaradat) | bit(PontDuNord) | bit(Doctor);
    assert_eq!(s.marks.visited, expected, "activations with or without an action");
    assert_eq!(s.missions[0].boxes_done, 3);
    assert_eq!(s.gone, 0);

    // radio_b, grocer, rue_baradat, black_market; card 7 (fence first) is then on top.
    begin_with(&mut s, &[1, 8, 6, 3, 7, 0, 2, 4, 5, 9], &["poor_district", "radio_a", "pont_leveque", "fence"]);
    assert_eq!(s.deck.deck()[0], 7);
    act(&mut s, "skip:poor_district");
    act(&mut s, "skip:radio_a");
    assert_eq!(s.marks.dark_lady, None);
    assert!(!is_legal(&s, "act:fence:dark_lady"));
    assert!(!is_legal(&s, "act:pont_leveque:dark_lady"), "the revealing activation cannot meet her");
    act(&mut s, "skip:pont_leveque");
    assert_eq!(s.marks.visited.count_ones(), 6);
    assert_eq!(s.marks.dark_lady, Some(Fence), "the first location of the revealed card");
    assert_eq!(*s.deck.discard().last().unwrap(), 7, "the revealed card is discarded");
    assert_eq!(s.deck.deck()[0], 0);
    assert!(!s.missions[0].complete);
    assert_eq!(s.home, 3);

    act(&mut s, "act:fence:dark_lady");
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.gone, 1, "her visitor is removed from the game");
    assert_eq!(s.pawns[Fence.idx()], Pawn::Empty);
    assert_eq!(s.home, 3, "removed, not sent home");
}

#[test]
fn m_double_agent_removal_is_not_an_arrest() {
    let mut s = new_at(Difficulty::VeryHard, DoubleAgent, Sabotage, opts());
    s.marks.visited =
        bit(RueBaradat) | bit(PontDuNord) | bit(Doctor) | bit(PoorDistrict) | bit(RadioA) | bit(PontLeveque);
    prefill(&mut s, 0, 6, Some(0));
    s.marks.dark_lady = Some(Grocer);
    let morale = s.tracks.morale;
    begin(&mut s, &["grocer", "cafe"]);
    act(&mut s, "act:grocer:dark_lady");
    assert!(s.missions[0].complete);
    assert_eq!(s.gone, 1, "her visitor is gone");
    assert_eq!(s.tracks.morale, morale, "very hard: an arrest would cost 1 morale, a removal does not");
}

#[test]
fn m_double_agent_reveal_reshuffles_an_empty_deck() {
    let mut s = new(DoubleAgent, Sabotage, opts());
    s.marks.visited = bit(RueBaradat) | bit(PontDuNord) | bit(Doctor) | bit(PoorDistrict) | bit(RadioA);
    prefill(&mut s, 0, 5, Some(0));
    begin(&mut s, &["pont_leveque", "cafe", "spare_room_se"]);
    s.deck = PatrolDeck::from_order(&[]); // every card in the discard
    act(&mut s, "skip:pont_leveque");
    assert_eq!(s.deck.deck().len(), 9);
    assert_eq!(s.deck.discard().len(), 1);
    let card = s.deck.discard()[0] as usize;
    assert_eq!(s.marks.dark_lady, Some(maquis::maquis::deck::PATROL_CARDS[card][0]));
    validate(&s).unwrap();
}

// ---------------------------------------------------------------------------------------------
// M-aid_the_spy

#[test]
fn m_aid_the_spy_weapons_then_supplies_on_a_later_day() {
    let mut s = new(AidTheSpy, Sabotage, hand(&[(Weapon, 2), (Money, 1), (Food, 2)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:supplies"));
    act(&mut s, "act:mission_a:weapons");
    assert_eq!((h(&s, Weapon), s.missions[0].boxes_done), (0, 1));
    skip_rest(&mut s);

    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:weapons"));
    let last = s.missions[0].last_box_day;
    s.missions[0].last_box_day = Some(s.abs_day());
    assert!(!is_legal(&s, "act:mission_a:supplies"), "box 2 on a later day than box 1");
    s.missions[0].last_box_day = last;
    act(&mut s, "act:mission_a:supplies");
    assert_eq!((h(&s, Money), h(&s, Food)), (0, 0));
    assert!(s.missions[0].complete);

    // Costs: 2 weapons; 1 money + 2 food.
    let mut s = new(AidTheSpy, Sabotage, hand(&[(Weapon, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:weapons"));
    let mut s = new(AidTheSpy, Sabotage, hand(&[(Money, 1), (Food, 1)]));
    prefill(&mut s, 0, 1, None);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:supplies"));
}

// ---------------------------------------------------------------------------------------------
// M-assassination

#[test]
fn m_assassination_completes_last_when_the_final_milice_is_shot() {
    let mut o = hand(&[(Explosive, 1), (Weapon, 1)]);
    o.soldiers = Some(4);
    o.day = Some(2);
    o.workers = workers(5, 0);
    let mut s = new(Assassination, Sabotage, o);
    prefill(&mut s, 1, 2, Some(1));
    assert_eq!(s.patrols_today, 5);
    begin(&mut s, &["mission_b", "cafe", "spare_room_se", "spare_room_ne", "grocer"]);
    assert_eq!(s.pawns[RadioB.idx()], Pawn::Milice, "the first of five patrols is the last Milice");
    act(&mut s, "act:mission_b:sabotage");
    assert!(s.missions[1].complete);
    assert!(!s.missions[0].complete, "soldier track 4");
    assert!(!s.is_over());
    act(&mut s, "shoot:radio_b");
    assert_eq!(s.tracks.soldiers, 5);
    assert!(s.missions[0].complete);
    assert_eq!(s.outcome, Some(Outcome::Win));
}

#[test]
fn m_assassination_needs_the_other_mission_even_with_every_milice_gone() {
    let mut o = hand(&[(Explosive, 1)]);
    o.soldiers = Some(5);
    o.day = Some(2);
    let mut s = new(Assassination, Sabotage, o);
    prefill(&mut s, 1, 2, Some(1));
    begin(&mut s, &["mission_b", "cafe", "spare_room_se"]);
    assert!(!s.missions[0].complete, "it must be completed last");
    act(&mut s, "skip:cafe");
    assert!(!s.missions[0].complete);
    act(&mut s, "act:mission_b:sabotage");
    assert!(s.missions[0].complete);
    assert!(s.missions[1].complete);
    assert_eq!(s.outcome, Some(Outcome::Win));
}

// ---------------------------------------------------------------------------------------------
// M-destroy_the_train

#[test]
fn m_destroy_the_train_three_explosives_only_on_days_6_to_9() {
    for day in [6, 9] {
        let mut o = hand(&[(Explosive, 3)]);
        o.day = Some(day);
        let mut s = new(DestroyTheTrain, Sabotage, o);
        begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
        act(&mut s, "act:mission_a:deliver");
        assert_eq!(h(&s, Explosive), 0);
        assert!(s.missions[0].complete, "day {day}");
        assert_eq!(s.missions[0].tier, Some(Tier::Success));
    }
    let mut o = hand(&[(Explosive, 2)]);
    o.day = Some(7);
    let mut s = new(DestroyTheTrain, Sabotage, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:deliver"), "two explosives are not enough");
    for day in [5, 10] {
        let mut o = hand(&[(Explosive, 3)]);
        o.day = Some(day);
        let s = new(DestroyTheTrain, Sabotage, o);
        assert!(!is_legal(&s, "place:mission_a"), "day {day}");
    }
    // Day 9 ends: day 10 is outside the window.
    let mut s = new(DestroyTheTrain, Sabotage, at_day(9));
    idle_day(&mut s);
    assert!(!is_legal(&s, "place:mission_a"));
}

// ---------------------------------------------------------------------------------------------
// M-liberate_the_town

fn liberate(d: Difficulty, day: u8, morale: u8, weapons: u8) -> State {
    let mut o = hand(&[(Weapon, weapons)]);
    o.day = Some(day);
    o.morale = Some(morale);
    new_at(d, LiberateTheTown, Sabotage, o)
}

#[test]
fn m_liberate_the_town_at_the_final_move_with_three_weapons_and_morale_four() {
    let mut s = liberate(Difficulty::Normal, 14, 4, 3);
    idle_day(&mut s);
    assert_eq!(s.day, 15);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.outcome, Some(Outcome::Draw), "only one mission complete");

    let mut s = liberate(Difficulty::Normal, 14, 6, 2);
    idle_day(&mut s);
    assert!(!s.missions[0].complete, "two weapons");
    assert_eq!(s.outcome, Some(Outcome::Loss));

    let mut s = liberate(Difficulty::Normal, 14, 3, 4);
    idle_day(&mut s);
    assert!(!s.missions[0].complete, "morale 3");
    assert_eq!(s.outcome, Some(Outcome::Loss));
}

#[test]
fn m_liberate_the_town_only_at_the_final_move() {
    let mut s = liberate(Difficulty::Normal, 12, 7, 4);
    idle_day(&mut s);
    idle_day(&mut s);
    assert_eq!(s.day, 14);
    assert!(!s.missions[0].complete);
    assert!(!s.is_over());
}

#[test]
fn m_liberate_the_town_morale_is_taken_after_the_final_moves_change() {
    // Tricky: the final move is onto 12, an orange day (−1 morale).
    let mut s = liberate(Difficulty::Tricky, 11, 4, 3);
    idle_day(&mut s);
    assert_eq!((s.day, s.tracks.morale), (12, 3));
    assert!(s.is_over());
    assert!(!s.missions[0].complete);

    let mut s = liberate(Difficulty::Tricky, 11, 5, 3);
    idle_day(&mut s);
    assert_eq!((s.day, s.tracks.morale), (12, 4));
    assert!(s.missions[0].complete);
    assert_eq!(s.outcome, Some(Outcome::Draw));

    // Hard: 12 is a triangle day.
    let mut s = liberate(Difficulty::Hard, 11, 4, 3);
    idle_day(&mut s);
    assert_eq!((s.day, s.tracks.morale), (12, 3));
    assert!(!s.missions[0].complete);
}

#[test]
fn m_liberate_the_town_at_the_end_of_the_last_pass_in_very_easy() {
    let mut s = liberate(Difficulty::VeryEasy, 14, 6, 3);
    idle_day(&mut s);
    assert_eq!((s.pass, s.day), (2, 0));
    assert!(!s.missions[0].complete, "the first pass's END is not the final move");
    assert!(!s.is_over());

    let mut s = liberate(Difficulty::VeryEasy, 14, 6, 3);
    s.pass = 2;
    idle_day(&mut s);
    assert!(s.is_over());
    assert!(s.missions[0].complete);
}

#[test]
fn m_liberate_the_town_with_the_other_mission_complete_is_a_win() {
    let mut s = liberate(Difficulty::Normal, 14, 5, 3);
    give(&mut s, Explosive, 1);
    prefill(&mut s, 1, 2, Some(13));
    begin(&mut s, &["mission_b", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_b:sabotage");
    assert!(s.missions[1].complete);
    assert!(!s.is_over());
    skip_rest(&mut s);
    assert!(s.missions[0].complete);
    assert_eq!(s.outcome, Some(Outcome::Win));
}

// ---------------------------------------------------------------------------------------------
// M-coded_messages

#[test]
fn m_coded_messages_train_by_day_6_and_the_cryptographer_is_stuck_until_the_end_of_day_10() {
    let mut o = hand(&[(Money, 1), (Food, 1), (Weapon, 1), (FakeId, 1)]);
    o.day = Some(6);
    o.morale = Some(7);
    let mut s = new(CodedMessages, Sabotage, o);
    set_deck(&mut s, &QUIET);
    act(&mut s, "place:mission_a:fake_id");
    place(&mut s, &["cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:train");
    assert_eq!((h(&s, Money), h(&s, Food), h(&s, Weapon)), (0, 0, 0));
    assert_eq!(h(&s, FakeId), 1, "the stuck worker's Fake ID goes back to the hand");
    assert_ne!(s.marks.stuck & bit(MissionA), 0);
    assert_eq!(s.missions[0].boxes_done, 1);
    assert!(!s.missions[0].complete);
    skip_rest(&mut s);

    assert_eq!(s.day, 7);
    assert_eq!(s.home, 2);
    assert_eq!(s.patrols_today, 2, "morale 7: the stuck worker is not counted for patrols");
    assert!(!is_legal(&s, "place:mission_a"), "trained: nothing left to do on the card");
    idle_until(&mut s, 10);
    assert_eq!(s.stuck_workers(), 1, "still stuck during day 10");
    assert_eq!(s.home, 2);
    assert!(!s.missions[0].complete);
    idle_day(&mut s);
    assert_eq!(s.day, 11);
    assert!(s.missions[0].complete, "complete at the end of day 10");
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.marks.stuck, 0);
    assert_eq!(s.home, 3, "the cryptographer is available again");
}

#[test]
fn m_coded_messages_train_costs_money_food_and_weapon() {
    let mut s = new(CodedMessages, Sabotage, hand(&[(Money, 1), (Food, 1)]));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:train"));
    give(&mut s, Weapon, 1);
    assert!(is_legal(&s, "act:mission_a:train"));
}

#[test]
fn m_coded_messages_fails_if_nobody_trained_by_the_end_of_day_6() {
    let mut s = new(CodedMessages, Sabotage, at_day(6));
    assert!(is_legal(&s, "place:mission_a"));
    idle_day(&mut s);
    assert!(s.missions[0].failed);
    assert!(!s.missions[0].complete);
    assert!(!is_legal(&s, "place:mission_a"));

    let s = new(CodedMessages, Sabotage, at_day(7));
    assert!(s.missions[0].failed, "start.day 7: the deadline has passed");
}

// ---------------------------------------------------------------------------------------------
// M-take_out_the_bridges

#[test]
fn m_take_out_the_bridges_chosen_bridge_is_destroyed_at_the_end_of_the_day() {
    let mut s = new(TakeOutTheBridges, Sabotage, hand(&[(Explosive, 4)]));
    begin(&mut s, &["black_market", "cafe", "spare_room_se"]);
    assert!(is_legal(&s, "act:black_market:bridge_north"));
    assert!(is_legal(&s, "act:black_market:bridge_south"));
    act(&mut s, "act:black_market:bridge_north");
    assert_eq!(h(&s, Explosive), 2);
    assert_eq!(s.marks.bridges_destroyed, 0);
    assert_eq!(closed_roads(&s), serde_json::json!([]), "the bridge stands until the end of the day");
    assert_eq!(s.missions[0].boxes_done, 0);
    skip_rest(&mut s);

    assert_eq!(s.marks.bridges_destroyed, 1);
    assert_eq!(closed_roads(&s), serde_json::json!([["pont_du_nord", "black_market"]]));
    assert_eq!(s.missions[0].boxes_done, 1);
    assert!(!s.missions[0].complete);
    begin(&mut s, &["black_market", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:black_market:bridge_north"), "already destroyed");
    act(&mut s, "act:black_market:bridge_south");
    assert_eq!(h(&s, Explosive), 0);
    assert!(!s.missions[0].complete);
    skip_rest(&mut s);

    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(
        closed_roads(&s),
        serde_json::json!([["pont_du_nord", "black_market"], ["poor_district", "black_market"]])
    );
    // The bridges stay destroyed after the mission is complete.
    idle_day(&mut s);
    assert_eq!(s.marks.bridges_destroyed, 3);

    // Two explosives are needed.
    let mut s = new(TakeOutTheBridges, Sabotage, hand(&[(Explosive, 1)]));
    begin(&mut s, &["black_market", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:black_market:bridge_north"));
    assert!(!is_legal(&s, "act:black_market:bridge_south"));
}

#[test]
fn m_take_out_the_bridges_choice_is_safe() {
    // Shield: the bridge is destroyed tonight even though its worker is arrested.
    let mut o = hand(&[(Explosive, 2)]);
    o.workers = workers(4, 1);
    let mut s = new(TakeOutTheBridges, Sabotage, o);
    // radio_b, grocer, pont_du_nord, poor_district: the black market is cut off.
    begin_with(&mut s, &[1, 2, 8, 9, 0, 3, 4, 5, 6, 7], &["black_market", "fence", "rue_baradat", "cafe"]);
    assert_eq!(s.pawns[PoorDistrict.idx()], Pawn::Milice);
    assert_eq!(s.pawns[PontDuNord.idx()], Pawn::Milice);
    act(&mut s, "act:black_market:bridge_south");
    assert_eq!(s.gone, 1);
    assert_eq!(s.marks.bridges_chosen, 2);
    skip_rest(&mut s);
    assert_eq!(s.marks.bridges_destroyed, 2);
    assert_eq!(s.missions[0].boxes_done, 1);
}

#[test]
fn m_take_out_the_bridges_destroyed_bridge_cuts_the_way_home() {
    for destroyed in [false, true] {
        let mut s = new(TakeOutTheBridges, Sabotage, hand(&[(Explosive, 2)]));
        begin(&mut s, &["black_market", "cafe", "spare_room_se"]);
        if destroyed {
            act(&mut s, "act:black_market:bridge_north");
        }
        skip_rest(&mut s);
        assert_eq!(s.marks.bridges_destroyed, destroyed as u8);
        // radio_b, radio_a, poor_district: pont_du_nord's way home is the north bridge.
        begin_with(&mut s, &[1, 4, 9, 0, 2, 3, 5, 6, 7, 8], &["fence", "rue_baradat", "pont_du_nord"]);
        assert_eq!(s.pawns[PoorDistrict.idx()], Pawn::Milice);
        act(&mut s, "skip:pont_du_nord");
        assert_eq!(s.gone, destroyed as u8, "destroyed: {destroyed}");
    }
}

// ---------------------------------------------------------------------------------------------
// M-bomb_for_the_officer

#[test]
fn m_bomb_for_the_officer_field_e_and_spare_room_se_unusable_while_unfinished() {
    let mut s = new(BombForTheOfficer, Sabotage, opts());
    // An airdrop lies on both fields since the start of the day.
    for fi in 0..2 {
        s.tokens.supply[Food.idx()] -= 1;
        s.tokens.airdrop[fi][Food.idx()] = 1;
        s.tokens.airdrop_at_day_start[fi] = true;
    }
    assert!(is_legal(&s, "place:field_w"));
    assert!(!is_legal(&s, "place:field_e"));
    assert!(!is_legal(&s, "place:spare_room_se"));
    assert!(is_legal(&s, "place:spare_room_ne"));

    // No airdrop onto field_e.
    let mut s = new(BombForTheOfficer, Sabotage, opts());
    begin(&mut s, &["radio_a", "cafe", "spare_room_ne"]);
    assert!(is_legal(&s, "act:radio_a:airdrop_field_w_food"));
    for p in ["money", "weapon", "food"] {
        assert!(!is_legal(&s, &format!("act:radio_a:airdrop_field_e_{p}")));
    }
}

#[test]
fn m_bomb_for_the_officer_deliver_needs_morale_five_and_frees_the_locations() {
    let mut o = hand(&[(Weapon, 1), (Explosive, 1)]);
    o.morale = Some(4);
    let mut s = new(BombForTheOfficer, Sabotage, o);
    assert!(is_legal(&s, "place:mission_a"), "placement does not look at morale");
    begin(&mut s, &["mission_a", "cafe", "spare_room_ne"]);
    assert!(!is_legal(&s, "act:mission_a:deliver"), "morale 4");

    let mut o = hand(&[(Weapon, 1)]);
    o.morale = Some(5);
    let mut s = new(BombForTheOfficer, Sabotage, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_ne"]);
    assert!(!is_legal(&s, "act:mission_a:deliver"), "no explosive");

    let mut o = hand(&[(Weapon, 1), (Explosive, 1)]);
    o.morale = Some(5);
    let mut s = new(BombForTheOfficer, Sabotage, o);
    begin(&mut s, &["mission_a", "radio_a", "spare_room_ne"]);
    assert!(!is_legal(&s, "act:radio_a:airdrop_field_e_food"));
    act(&mut s, "act:mission_a:deliver");
    assert_eq!((h(&s, Weapon), h(&s, Explosive)), (0, 0));
    assert!(s.missions[0].complete);
    assert!(is_legal(&s, "act:radio_a:airdrop_field_e_food"), "finished: field_e is usable again");
    skip_rest(&mut s);
    assert!(is_legal(&s, "place:spare_room_se"));
}

// ---------------------------------------------------------------------------------------------
// M-milice_hq

#[test]
fn m_milice_hq_setup_morale_starts_at_4() {
    for (a, b) in [(MiliceHq, Sabotage), (Sabotage, MiliceHq)] {
        let s = new(a, b, opts());
        assert_eq!(s.tracks.morale, 4);
        assert_eq!(s.patrols_today, 4, "T2: morale 4 → 4 patrols");
    }
    let s = new(Sabotage, AidTheSpy, opts());
    assert_eq!(s.tracks.morale, 6);
}

#[test]
fn m_milice_hq_records_then_poison_is_major_with_soldiers_below_3() {
    let mut s = new(MiliceHq, Sabotage, hand(&[(Poison, 2)]));
    // Morale 4: radio_b, radio_a, grocer, fence (rue_baradat goes home by doctor and pont_leveque).
    begin_with(&mut s, &[1, 4, 2, 9, 0, 3, 5, 6, 7, 8], &["rue_baradat", "cafe", "spare_room_ne"]);
    act(&mut s, "act:rue_baradat:records");
    assert_eq!(s.missions[0].boxes_done, 1);
    skip_rest(&mut s);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!(h(&s, Poison), 0);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
    assert_eq!(s.tracks.soldiers, 3);
    assert_eq!(s.tracks.morale, 3, "4 + 2 − 3");
}

#[test]
fn m_milice_hq_poison_is_only_a_success_with_soldiers_at_3() {
    let mut o = hand(&[(Poison, 2)]);
    o.morale = Some(6);
    o.soldiers = Some(3);
    let mut s = new(MiliceHq, Sabotage, o);
    prefill(&mut s, 0, 1, None);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:poison");
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert_eq!(s.tracks.soldiers, 5);
    assert_eq!(s.tracks.morale, 5, "6 + 2 capped at 7, then two real soldier steps");

    // One poison is not enough.
    let mut s = new(MiliceHq, Sabotage, hand(&[(Poison, 1)]));
    prefill(&mut s, 0, 1, None);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:poison"));
}

#[test]
fn m_milice_hq_poison_objective_is_safe() {
    let mut s = new(MiliceHq, Sabotage, hand(&[(Poison, 2)]));
    prefill(&mut s, 0, 1, None);
    // fence, radio_b, radio_a, rue_baradat: the slot is cut off.
    begin_with(&mut s, &[9, 1, 4, 6, 0, 2, 3, 5, 7, 8], &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:poison");
    assert_eq!(s.gone, 1);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
}

#[test]
fn m_milice_hq_major_success_and_a_second_mission_is_a_major_win() {
    for (soldiers, outcome) in [(0, Outcome::MajorWin), (3, Outcome::Win)] {
        let mut o = hand(&[(Poison, 2), (Explosive, 1)]);
        o.morale = Some(6);
        o.soldiers = Some(soldiers);
        o.day = Some(1);
        let mut s = new(MiliceHq, Sabotage, o);
        prefill(&mut s, 1, 2, Some(0));
        begin_with(&mut s, &[1, 4, 2, 0, 3, 5, 6, 7, 8, 9], &["rue_baradat", "mission_a", "mission_b"]);
        act(&mut s, "act:rue_baradat:records");
        act(&mut s, "act:mission_a:poison");
        assert!(!s.is_over());
        act(&mut s, "act:mission_b:sabotage");
        assert_eq!(s.outcome, Some(outcome), "soldiers {soldiers}");
    }
}

// ---------------------------------------------------------------------------------------------
// M-bomb_the_barracks

#[test]
fn m_bomb_the_barracks_setup_soldier_track_starts_at_3() {
    for (a, b) in [(BombTheBarracks, Sabotage), (Sabotage, BombTheBarracks)] {
        let s = new(a, b, opts());
        assert_eq!(s.tracks.soldiers, 3);
        assert_eq!(s.tracks.morale, 6);
    }
}

/// Bomb the Barracks on mission_a with both recons done (days 0 and 1); day 2 is beginning.
fn barracks_ready(res: &[(Resource, u8)]) -> State {
    let mut s = new(BombTheBarracks, Sabotage, hand(res));
    assert!(!is_legal(&s, "place:field_w"), "no airdrop, no distraction yet");
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:bomb"));
    act(&mut s, "act:mission_a:recon");
    assert_eq!(s.missions[0].boxes_done, 1);
    skip_rest(&mut s);
    assert!(!is_legal(&s, "place:field_w"));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:bomb"));
    act(&mut s, "act:mission_a:recon");
    assert_eq!(s.missions[0].boxes_done, 2);
    skip_rest(&mut s);
    s
}

#[test]
fn m_bomb_the_barracks_recon_on_two_different_days() {
    let mut s = new(BombTheBarracks, Sabotage, at_day(4));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    prefill(&mut s, 0, 1, Some(4));
    assert!(!is_legal(&s, "act:mission_a:recon"), "the first recon was today");
    prefill(&mut s, 0, 1, Some(3));
    assert!(is_legal(&s, "act:mission_a:recon"));
}

#[test]
fn m_bomb_the_barracks_bomb_after_a_distraction_the_same_day_is_a_major_success() {
    let mut s = barracks_ready(&[(FakeId, 1), (Explosive, 2), (Weapon, 1)]);
    assert!(is_legal(&s, "place:field_w"), "recon done twice: empty fields take a distraction");
    assert!(is_legal(&s, "place:field_e"));
    begin(&mut s, &["field_w", "mission_a", "cafe"]);
    act(&mut s, "act:field_w:distract");
    assert_eq!(h(&s, Weapon), 0);
    act(&mut s, "act:mission_a:bomb");
    assert_eq!((h(&s, FakeId), h(&s, Explosive)), (0, 0));
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
    skip_rest(&mut s);
    assert!(!is_legal(&s, "place:field_w"), "the bomb is done: no more distraction");
}

#[test]
fn m_bomb_the_barracks_bomb_without_an_earlier_distraction_is_a_success() {
    // The distraction after the bomb does not count.
    let mut s = barracks_ready(&[(FakeId, 1), (Explosive, 2), (Weapon, 1)]);
    begin(&mut s, &["field_w", "mission_a", "cafe"]);
    act(&mut s, "act:mission_a:bomb");
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert!(!is_legal(&s, "act:field_w:distract"));

    // A distraction on an earlier day does not count either.
    let mut s = barracks_ready(&[(FakeId, 1), (Explosive, 2), (Weapon, 1)]);
    begin(&mut s, &["field_w", "cafe", "spare_room_se"]);
    act(&mut s, "act:field_w:distract");
    skip_rest(&mut s);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:bomb");
    assert_eq!(s.missions[0].tier, Some(Tier::Success));

    // The bomb needs a Fake ID in hand and two explosives.
    let mut s = barracks_ready(&[(Explosive, 2)]);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:bomb"));
    let mut s = barracks_ready(&[(FakeId, 1), (Explosive, 1)]);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:bomb"));
}

#[test]
fn m_bomb_the_barracks_distraction_only_on_a_field_with_no_airdrop() {
    let mut s = barracks_ready(&[(Weapon, 1)]);
    s.tokens.supply[Food.idx()] -= 1;
    s.tokens.airdrop[1][Food.idx()] = 1;
    s.tokens.airdrop_at_day_start[1] = true;
    begin(&mut s, &["field_e", "field_w", "cafe"]);
    assert!(!is_legal(&s, "act:field_e:distract"), "an airdrop lies there");
    assert!(is_legal(&s, "act:field_e:pickup"));
    assert!(is_legal(&s, "act:field_w:distract"));
}

#[test]
fn m_bomb_the_barracks_major_success_and_a_second_mission_is_a_major_win() {
    let mut s = barracks_ready(&[(FakeId, 1), (Explosive, 3), (Weapon, 1)]);
    prefill(&mut s, 1, 2, Some(0));
    begin(&mut s, &["field_w", "mission_a", "mission_b"]);
    act(&mut s, "act:mission_b:sabotage");
    assert!(!s.is_over());
    act(&mut s, "act:field_w:distract");
    act(&mut s, "act:mission_a:bomb");
    assert_eq!(s.outcome, Some(Outcome::MajorWin));
}

// ---------------------------------------------------------------------------------------------
// M-free_the_resistance_leader

#[test]
fn m_free_the_resistance_leader_bribe_by_day_5_then_poison_by_day_9_is_a_success() {
    let mut o = hand(&[(Intel, 1), (Money, 1), (Poison, 1)]);
    o.day = Some(5);
    let mut s = new(FreeTheResistanceLeader, Sabotage, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:bribe");
    assert_eq!((h(&s, Intel), h(&s, Money)), (0, 0));
    assert_eq!(s.missions[0].boxes_done, 1);
    skip_rest(&mut s);
    assert!(!s.missions[0].failed);
    idle_until(&mut s, 9);
    assert!(is_legal(&s, "place:mission_a"));
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:rescue"));
    act(&mut s, "act:mission_a:poison");
    assert_eq!(h(&s, Poison), 0);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
}

#[test]
fn m_free_the_resistance_leader_rescue_on_day_10_exactly_is_a_major_success() {
    let res = [(Intel, 1), (Money, 1), (Poison, 1), (FakeId, 1), (Weapon, 2), (Medicine, 1)];
    let mut o = hand(&res);
    o.day = Some(5);
    let mut s = new(FreeTheResistanceLeader, Sabotage, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:bribe");
    skip_rest(&mut s);
    idle_until(&mut s, 9);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:rescue"), "day 9");
    skip_rest(&mut s);
    assert!(is_legal(&s, "place:mission_a"), "objective 2 is open until the end of day 10");
    let (morale, soldiers) = (s.tracks.morale, s.tracks.soldiers);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    assert!(!is_legal(&s, "act:mission_a:poison"), "poison only until day 9");
    act(&mut s, "act:mission_a:rescue");
    assert_eq!((h(&s, FakeId), h(&s, Weapon), h(&s, Medicine)), (0, 0, 0));
    assert_eq!(s.tracks.soldiers, soldiers + 2);
    assert_eq!(s.tracks.morale, morale - 2);
    assert!(s.missions[0].complete);
    assert_eq!(s.missions[0].tier, Some(Tier::Major));
}

#[test]
fn m_free_the_resistance_leader_fails_without_a_bribe_by_the_end_of_day_5() {
    let mut s = new(FreeTheResistanceLeader, Sabotage, at_day(4));
    idle_day(&mut s);
    assert!(!s.missions[0].failed);
    idle_day(&mut s);
    assert!(s.missions[0].failed);
    assert!(!s.missions[0].complete);
}

#[test]
fn m_free_the_resistance_leader_fails_without_objective_2_by_the_end_of_day_10() {
    let mut o = hand(&[(Intel, 1), (Money, 1)]);
    o.day = Some(5);
    let mut s = new(FreeTheResistanceLeader, Sabotage, o);
    begin(&mut s, &["mission_a", "cafe", "spare_room_se"]);
    act(&mut s, "act:mission_a:bribe");
    skip_rest(&mut s);
    idle_until(&mut s, 10);
    assert!(!s.missions[0].failed);
    idle_day(&mut s);
    assert!(s.missions[0].failed);
    assert!(!is_legal(&s, "place:mission_a"));
}

// ---------------------------------------------------------------------------------------------
// M-destroy_aa_guns and M-tier

#[test]
fn m_destroy_aa_guns_setup_guns_on_both_fields_rue_baradat_black_market_and_the_card() {
    let board = bit(FieldW) | bit(FieldE) | bit(RueBaradat) | bit(BlackMarket);
    let s = new(DestroyAaGuns, Sabotage, opts());
    assert_eq!(s.marks.aa_guns, board | bit(MissionA));
    let s = new(Sabotage, DestroyAaGuns, opts());
    assert_eq!(s.marks.aa_guns, board | bit(MissionB));
    let s = new(Sabotage, AidTheSpy, opts());
    assert_eq!(s.marks.aa_guns, 0);
    // A worker may be placed on a field holding a gun (no airdrop needed), and on the card.
    let s = new(Sabotage, DestroyAaGuns, opts());
    assert!(is_legal(&s, "place:field_w"));
    assert!(is_legal(&s, "place:field_e"));
    assert!(is_legal(&s, "place:mission_b"));
}

#[test]
fn m_destroy_aa_guns_three_complete_the_rest_can_still_be_destroyed_five_is_major() {
    let mut s = new(Sabotage, DestroyAaGuns, hand(&[(Explosive, 2), (Weapon, 3)]));
    begin(&mut s, &["field_w", "field_e", "rue_baradat"]);
    assert!(!is_legal(&s, "act:field_w:pickup"));
    act(&mut s, "act:field_w:aa_explosive");
    act(&mut s, "act:field_e:aa_weapon");
    assert_eq!(s.missions[1].boxes_done, 2);
    assert!(!s.missions[1].complete);
    act(&mut s, "act:rue_baradat:aa_explosive");
    assert_eq!((h(&s, Explosive), h(&s, Weapon)), (0, 2));
    assert!(s.missions[1].complete);
    assert_eq!(s.missions[1].tier, Some(Tier::Success));
    assert_eq!(s.marks.aa_guns, bit(BlackMarket) | bit(MissionB));
    skip_rest(&mut s);
    assert!(!s.is_over());

    assert!(!is_legal(&s, "place:field_w"), "no gun and no airdrop any more");
    assert!(is_legal(&s, "place:mission_b"), "the card's gun still stands");
    begin(&mut s, &["black_market", "mission_b", "cafe"]);
    act(&mut s, "act:black_market:aa_weapon");
    assert_eq!(s.missions[1].boxes_done, 4);
    assert_eq!(s.missions[1].tier, Some(Tier::Success));
    act(&mut s, "act:mission_b:aa_weapon");
    assert_eq!(s.missions[1].boxes_done, 5);
    assert_eq!(s.missions[1].tier, Some(Tier::Major));
    assert_eq!(s.marks.aa_guns, 0);
    skip_rest(&mut s);
    assert!(!is_legal(&s, "place:mission_b"));
}

#[test]
fn m_destroy_aa_guns_gun_options_at_rue_baradat_and_black_market_instead_of_the_usual() {
    let mut s = new(DestroyAaGuns, Sabotage, hand(&[(Explosive, 1), (Weapon, 1), (Food, 1)]));
    begin(&mut s, &["black_market", "rue_baradat", "cafe"]);
    for loc in ["black_market", "rue_baradat"] {
        assert!(is_legal(&s, &format!("act:{loc}:aa_explosive")));
        assert!(is_legal(&s, &format!("act:{loc}:aa_weapon")));
    }
    assert!(is_legal(&s, "act:black_market:sell_food"));
    act(&mut s, "act:black_market:aa_weapon");
    assert_eq!(h(&s, Food), 1, "one option per activation: the usual one is not taken too");
    assert_eq!(s.marks.aa_guns & bit(BlackMarket), 0);
    // No gun, no option; no weapon left.
    assert!(!is_legal(&s, "act:rue_baradat:aa_weapon"));
    assert!(is_legal(&s, "act:rue_baradat:aa_explosive"));
}

#[test]
fn m_destroy_aa_guns_no_airdrop_onto_a_field_holding_a_gun() {
    let mut s = new(DestroyAaGuns, Sabotage, hand(&[(Weapon, 1)]));
    begin(&mut s, &["field_w", "radio_a", "cafe"]);
    let airdrops = |s: &State| legal_names(s).into_iter().filter(|n| n.contains(":airdrop_")).collect::<Vec<_>>();
    assert!(airdrops(&s).is_empty());
    assert!(is_legal(&s, "act:radio_a:intel"));
    act(&mut s, "act:field_w:aa_weapon");
    let got = airdrops(&s);
    assert_eq!(got.len(), 3);
    assert!(got.iter().all(|n| n.contains("airdrop_field_w_")), "{got:?}");
}

#[test]
fn m_destroy_aa_guns_destroying_is_safe() {
    let mut o = hand(&[(Explosive, 1)]);
    o.morale = Some(4);
    let mut s = new(DestroyAaGuns, Sabotage, o);
    // fence, pont_leveque, pont_du_nord, doctor: rue_baradat is cut off.
    begin_with(&mut s, &[9, 5, 7, 0, 1, 2, 3, 4, 6, 8], &["rue_baradat", "cafe", "grocer"]);
    assert_eq!(s.pawns[Doctor.idx()], Pawn::Milice);
    act(&mut s, "act:rue_baradat:aa_explosive");
    assert_eq!(s.gone, 1);
    assert_eq!(s.marks.aa_guns & bit(RueBaradat), 0);
    assert_eq!(s.missions[0].boxes_done, 1);
}

#[test]
fn m_tier_is_fixed_when_the_game_ends() {
    // Three guns and the second mission: the game ends at once with a plain success.
    let mut o = hand(&[(Explosive, 3), (Weapon, 1)]);
    o.workers = workers(4, 1);
    o.day = Some(1);
    let mut s = new(DestroyAaGuns, Sabotage, o);
    prefill(&mut s, 1, 2, Some(0));
    begin(&mut s, &["field_w", "field_e", "black_market", "mission_b"]);
    act(&mut s, "act:field_w:aa_explosive");
    act(&mut s, "act:field_e:aa_explosive");
    act(&mut s, "act:black_market:aa_weapon");
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert!(!s.is_over());
    act(&mut s, "act:mission_b:sabotage");
    assert!(s.is_over());
    assert_eq!(s.outcome, Some(Outcome::Win));
    assert_eq!(s.missions[0].tier, Some(Tier::Success));
    assert!(legal_mask(&s).is_empty(), "the game is over: the tier can no longer rise");
    assert_ne!(s.marks.aa_guns, 0);
}

#[test]
fn m_tier_rises_with_aa_guns_and_a_major_makes_a_major_win() {
    let mut o = hand(&[(Explosive, 4), (Weapon, 2)]);
    o.workers = workers(4, 1);
    o.day = Some(1);
    let mut s = new(Sabotage, DestroyAaGuns, o);
    prefill(&mut s, 0, 2, Some(0));
    // Three guns on day 1 (success), then two more on day 2 (major), then the sabotage.
    begin(&mut s, &["field_w", "field_e", "black_market", "cafe"]);
    act(&mut s, "act:field_w:aa_explosive");
    act(&mut s, "act:field_e:aa_explosive");
    act(&mut s, "act:black_market:aa_weapon");
    assert_eq!(s.missions[1].tier, Some(Tier::Success));
    skip_rest(&mut s);
    assert_eq!(s.missions[1].tier, Some(Tier::Success));
    // radio_b, radio_a, grocer, fence.
    begin_with(&mut s, &[1, 4, 2, 9, 0, 3, 5, 6, 7, 8], &["rue_baradat", "mission_b", "mission_a", "cafe"]);
    act(&mut s, "act:rue_baradat:aa_explosive");
    act(&mut s, "act:mission_b:aa_weapon");
    assert_eq!(s.missions[1].tier, Some(Tier::Major));
    assert!(!s.is_over());
    act(&mut s, "act:mission_a:sabotage");
    assert_eq!(s.outcome, Some(Outcome::MajorWin));
}
