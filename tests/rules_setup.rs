//! Scenario tests for RULES.md §8 (D1–D4): difficulty levels, mission pools, dealing and stars.
//! Each test is named after the rule it checks and fails if the engine breaks it; the dealing
//! tests are statistical, over many seeds (bounds at about 5 standard deviations).

mod common;

use common::*;
use maquis::maquis::ids::{Deal, Difficulty, Location::*, MissionId, MissionId::*, MissionPool, Outcome, Phase, Resource::*};
use maquis::maquis::missions::{info, pool};
use maquis::maquis::{new_game, new_game_into, Setup, StartOverrides, State, WorkerOverride};
use std::collections::{BTreeMap, BTreeSet};

const DECK: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

fn at(d: Difficulty, o: StartOverrides) -> State {
    game(&setup(d, Sabotage, UndergroundNewspaper, DECK).start(o))
}

/// A game at level `d` with a single worker and nobody to recruit.
fn solo(d: Difficulty, o: StartOverrides) -> State {
    at(d, StartOverrides { workers: Some(WorkerOverride { available: 1, recruitable: 0 }), ..o })
}

/// Plays a one-worker game to its end (the worker on the café, never arrested), recording
/// (pass, day, morale) at the start of every day. `top_up` resets morale to 6 each morning.
fn play_out(mut s: State, top_up: bool) -> (Vec<(u8, u8, u8)>, State) {
    let mut days = vec![];
    while !s.is_over() {
        if top_up {
            s.tracks.morale = 6;
        }
        days.push((s.pass, s.day, s.tracks.morale));
        pass_day(&mut s, &[Cafe]);
        assert!(days.len() <= 40);
    }
    (days, s)
}

/// The package dropped by each airdrop option at level `d`: (money, weapon, food).
fn airdrops(d: Difficulty) -> (u8, u8, u8) {
    let mut got = vec![];
    for (opt, r) in [("airdrop_field_w_money", Money), ("airdrop_field_w_weapon", Weapon), ("airdrop_field_w_food", Food)] {
        let mut s = at(d, StartOverrides::default());
        action_phase(&mut s, &[RadioA, Cafe], &[], &[]);
        act(&mut s, &format!("act:radio_a:{opt}"));
        got.push(s.tokens.airdrop[0][r.idx()]);
        assert_eq!(s.tokens.airdrop[0].iter().sum::<u8>(), got[got.len() - 1], "{d} {opt}: one kind only");
    }
    (got[0], got[1], got[2])
}

// =============================================================================================
// D1. Levels.

#[test]
fn d1_level_ids() {
    let ids: Vec<&str> = Difficulty::ALL.iter().map(|d| d.as_str()).collect();
    assert_eq!(ids, ["very_easy", "easy", "normal", "tricky", "hard", "very_hard"]);
}

#[test]
fn d1_airdrop_sizes_per_level() {
    assert_eq!(airdrops(Difficulty::VeryEasy), (2, 2, 4), "very_easy");
    assert_eq!(airdrops(Difficulty::Easy), (2, 1, 4), "easy");
    for d in [Difficulty::Normal, Difficulty::Tricky, Difficulty::Hard, Difficulty::VeryHard] {
        assert_eq!(airdrops(d), (1, 1, 3), "{d}");
    }
}

#[test]
fn d1_very_easy_moving_onto_end_starts_a_second_pass() {
    let mut s = solo(Difficulty::VeryEasy, StartOverrides { day: Some(14), ..Default::default() });
    assert_eq!(s.pass, 1);
    pass_day(&mut s, &[Cafe]);
    assert!(!s.is_over());
    assert_eq!((s.pass, s.day, s.phase), (2, 0, Phase::Placement), "back on START, day numbers restart");
    assert_eq!(maquis::maquis::save::state_dict(&s)["pass"], 2);
    assert_eq!(s.tracks.morale, 6, "END and START cost nothing");
}

#[test]
fn d1_very_easy_ends_when_the_second_pass_moves_onto_end_after_30_days() {
    let (days, s) = play_out(solo(Difficulty::VeryEasy, StartOverrides::default()), true);
    let want: Vec<(u8, u8)> = (1..=2).flat_map(|p| (0..=14).map(move |d| (p, d))).collect();
    assert_eq!(days.iter().map(|&(p, d, _)| (p, d)).collect::<Vec<_>>(), want);
    assert_eq!(days.len(), 30);
    assert_eq!((s.pass, s.day), (2, 15));
    assert_eq!(s.outcome, Some(Outcome::Loss), "no mission done");
}

#[test]
fn d1_very_easy_orange_days_come_round_again_in_the_second_pass() {
    // Without help, 6 morale cannot survive 6 orange days: pass 1 costs 5, pass 2 day 3 the sixth.
    let (days, s) = play_out(solo(Difficulty::VeryEasy, StartOverrides::default()), false);
    assert_eq!(days.last().map(|&(p, d, _)| (p, d)), Some((2, 2)));
    assert_eq!((s.pass, s.day, s.tracks.morale), (2, 3, 0));
    assert_eq!(s.outcome, Some(Outcome::Loss));
}

#[test]
fn d1_easy_and_normal_have_five_workers_and_fifteen_days() {
    for d in [Difficulty::VeryEasy, Difficulty::Easy, Difficulty::Normal] {
        let s = at(d, StartOverrides::default());
        assert_eq!((s.level_workers, s.home, s.recruitable), (5, 3, 2), "{d}");
    }
    for d in [Difficulty::Easy, Difficulty::Normal] {
        let (days, s) = play_out(solo(d, StartOverrides::default()), false);
        assert_eq!(days.len(), 15, "{d}");
        assert_eq!((s.day, s.tracks.morale), (15, 1), "{d}: five orange days");
    }
}

#[test]
fn d1_tricky_has_four_workers_two_recruitable() {
    let mut s = at(Difficulty::Tricky, StartOverrides::default());
    assert_eq!((s.level_workers, s.home, s.recruitable, s.gone), (4, 2, 2, 0));
    give(&mut s, Food, 2);
    action_phase(&mut s, &[Cafe, PontLeveque], &[], &[]);
    act(&mut s, "act:cafe:recruit");
    skip_rest_of_day(&mut s);
    assert_eq!((s.home, s.recruitable), (3, 1));
    // Day 1: recruit the last one.
    act(&mut s, "place:cafe");
    while s.phase == Phase::Placement {
        let spot = [PontLeveque, PontDuNord, MissionA].into_iter().find(|l| is_legal(&s, &format!("place:{}", l.as_str()))).unwrap();
        act(&mut s, &format!("place:{}", spot.as_str()));
    }
    act(&mut s, "act:cafe:recruit");
    assert_eq!((s.recruitable, s.workers_in_play()), (0, 4));
    skip_rest_of_day(&mut s);
    // No fifth worker: nobody left to recruit, four to place.
    assert_eq!(s.home + s.gone, 4);
    assert_eq!(s.recruitable, 0);
    let w = &maquis::maquis::save::state_dict(&s)["workers"];
    let total: u64 = ["available", "placed", "stuck", "recruitable", "gone"].iter().map(|k| w[k].as_u64().unwrap()).sum();
    assert_eq!(total, 4, "the fifth worker is counted nowhere");
}

#[test]
fn d1_tricky_ends_when_the_marker_moves_onto_12() {
    let (days, s) = play_out(solo(Difficulty::Tricky, StartOverrides::default()), false);
    assert_eq!(days.iter().map(|&(_, d, _)| d).collect::<Vec<_>>(), (0..12).collect::<Vec<u8>>());
    assert_eq!(s.day, 12);
    // Orange days 3, 6, 9 and 12 (the final move) cost morale.
    assert_eq!(days.iter().map(|&(_, _, m)| m).collect::<Vec<_>>(), [6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3]);
    assert_eq!(s.tracks.morale, 2);
}

#[test]
fn d1_hard_triangle_days_instead_of_orange() {
    for d in [Difficulty::Hard, Difficulty::VeryHard] {
        let s = at(d, StartOverrides::default());
        assert_eq!((s.level_workers, s.home, s.recruitable), (4, 2, 2), "{d}: as tricky");
        let (days, s) = play_out(solo(d, StartOverrides::default()), false);
        assert_eq!(days.len(), 12, "{d}: ends on 12 as tricky");
        // Triangle days 2, 5, 8, 10, 12 cost morale; orange 3, 6, 9 do not.
        assert_eq!(days.iter().map(|&(_, _, m)| m).collect::<Vec<_>>(), [6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2], "{d}");
        assert_eq!((s.day, s.tracks.morale), (12, 1), "{d}");
    }
}

#[test]
fn d1_very_hard_route_arrest_costs_one_morale() {
    for (d, morale) in [(Difficulty::Hard, 6), (Difficulty::VeryHard, 5)] {
        let mut s = at(d, StartOverrides::default());
        action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket]);
        act(&mut s, "skip:radio_b");
        assert_eq!((s.gone, s.tracks.morale), (1, morale), "{d}");
    }
}

#[test]
fn d1_very_hard_patrol_arrest_costs_one_morale() {
    // Card 5 → pont_leveque; card 0 then finds pont_leveque, pont_du_nord and doctor taken (P3).
    for (d, morale) in [(Difficulty::Hard, 6), (Difficulty::VeryHard, 5)] {
        let mut s = game(&setup(d, Sabotage, UndergroundNewspaper, [5, 0, 1, 2, 3, 4, 6, 7, 8, 9]));
        play(&mut s, &["place:pont_du_nord", "place:doctor"]);
        assert_eq!((s.gone, s.tracks.morale), (1, morale), "{d}");
    }
}

#[test]
fn d1_very_hard_parade_arrest_costs_one_morale() {
    for (d, morale) in [(Difficulty::Hard, 6), (Difficulty::VeryHard, 5)] {
        let mut s = game(
            &setup(d, MiliceParadeDay, Sabotage, DECK).start(StartOverrides { day: Some(3), morale: Some(5), ..Default::default() }),
        );
        give(&mut s, Weapon, 1);
        action_phase(&mut s, &[RueBaradat, Cafe], &[], &[]);
        act(&mut s, "act:rue_baradat:parade");
        assert_eq!((s.gone, s.tracks.morale), (1, morale), "{d}: +1 from the parade");
    }
}

#[test]
fn d1_very_hard_fake_id_crossing_is_not_an_arrest() {
    let mut s = at(Difficulty::VeryHard, StartOverrides::default());
    action_phase(&mut s, &[RadioB, Cafe], &[], &[BlackMarket]);
    fake_id_on(&mut s, RadioB);
    act(&mut s, "skip:radio_b");
    assert_eq!((s.gone, s.tracks.morale), (0, 6));
}

// =============================================================================================
// D2. Mission pools.

fn with_pool(p: MissionPool) -> Setup {
    Setup { mission_pool: p, ..Setup::new(Difficulty::Normal) }
}

#[test]
fn d2_mission_pools() {
    assert_eq!(pool(MissionPool::SecondEdition), MissionId::ALL.to_vec());
    let first: BTreeSet<MissionId> = pool(MissionPool::FirstEdition).iter().copied().collect();
    assert_eq!(first.len(), 14);
    assert_eq!(first, MissionId::ALL.iter().copied().filter(|m| info(*m).stars < 3).collect());
    let pnp: BTreeSet<MissionId> = pool(MissionPool::Pnp2013).iter().copied().collect();
    assert_eq!(pnp, [UndergroundNewspaper, DestroyTheTrain, Sabotage, AidTheSpy, Assassination, LiberateTheTown].into_iter().collect());
}

#[test]
fn d2_pools_tiles_and_resources() {
    let first_tiles = ["build_informant", "build_counterfeiter", "build_safe_house", "build_chemists_lab", "build_smuggler", "build_propagandist"];
    for (p, a, b) in [
        (MissionPool::SecondEdition, Sabotage, AidTheSpy),
        (MissionPool::FirstEdition, Sabotage, AidTheSpy),
        (MissionPool::Pnp2013, Sabotage, AidTheSpy),
    ] {
        let mut s = game(&with_pool(p).missions(a, b).patrol_deck(DECK));
        let first_ed = p != MissionPool::SecondEdition;
        let want_supply = if first_ed { [4, 4, 4, 4, 4, 4, 0, 0] } else { [4; 8] };
        assert_eq!(s.tokens.supply, want_supply, "{p}: no poison or fake_id in the first-edition pools");
        give(&mut s, Money, 2);
        action_phase(&mut s, &[SpareRoomNe, Cafe], &[], &[]);
        let builds: BTreeSet<String> = legal_names(&s).into_iter().filter(|n| n.starts_with("act:spare_room_ne:build_")).map(|n| n["act:spare_room_ne:".len()..].to_string()).collect();
        if first_ed {
            assert_eq!(builds, first_tiles.iter().map(|t| t.to_string()).collect(), "{p}");
        } else {
            assert_eq!(builds.len(), 9, "{p}");
        }
    }
}

#[test]
fn d2_first_edition_fixer_tiles_do_not_exist() {
    // Even placed by hand, a first-edition fixer could not perform pharmacist or forger.
    let mut s = game(&with_pool(MissionPool::FirstEdition).missions(Sabotage, AidTheSpy).patrol_deck(DECK));
    give(&mut s, Money, 4);
    give(&mut s, Medicine, 4);
    give(&mut s, Intel, 4);
    action_phase(&mut s, &[SpareRoomNe, Cafe], &[], &[]);
    // After `action_phase`, which checks `validate`: a save holding it is refused.
    s.marks.tiles[0] = Some(maquis::maquis::Tile::Fixer);
    assert!(maquis::maquis::save::validate(&s).is_err());
    assert!(!is_legal(&s, "act:spare_room_ne:fixer_pharmacist"));
    assert!(!is_legal(&s, "act:spare_room_ne:fixer_forger"));
    assert!(is_legal(&s, "act:spare_room_ne:fixer_informant"));
}

#[test]
fn d2_missions_outside_the_pool_are_refused() {
    assert!(new_game(&with_pool(MissionPool::FirstEdition).missions(MiliceHq, Sabotage), 0).is_err());
    assert!(new_game(&with_pool(MissionPool::Pnp2013).missions(Infiltration, Sabotage), 0).is_err());
    assert!(new_game(&with_pool(MissionPool::Pnp2013).missions(AidTheSpy, Sabotage), 0).is_ok());
    // Nor can a start give tokens that do not exist.
    let mut res = BTreeMap::new();
    res.insert(FakeId, 1);
    let o = StartOverrides { resources: res, ..Default::default() };
    assert!(new_game(&with_pool(MissionPool::FirstEdition).missions(Sabotage, AidTheSpy).start(o), 0).is_err());
}

#[test]
fn d2_a_game_written_over_another_is_new_game_and_a_refused_setup_leaves_it() {
    // `new_game_into` (the vector env's resets) makes exactly `new_game`'s game, whatever was
    // there before, and changes nothing when the setup is refused.
    let mut s = new_game(&Setup::new(Difficulty::Hard), 99).unwrap();
    let setups = [Setup::new(Difficulty::Normal), with_pool(MissionPool::Pnp2013), Setup::new(Difficulty::VeryEasy)];
    for (seed, setup) in setups.into_iter().enumerate() {
        let seed = seed as u64;
        new_game_into(&setup, seed, &mut s).unwrap();
        assert_eq!(s, new_game(&setup, seed).unwrap());
    }
    let before = s.clone();
    let refused = with_pool(MissionPool::FirstEdition).missions(MiliceHq, Sabotage);
    assert!(new_game_into(&refused, 5, &mut s).is_err());
    assert_eq!(s, before);
}

#[test]
fn d2_dealt_missions_come_from_the_pool() {
    for p in [MissionPool::SecondEdition, MissionPool::FirstEdition, MissionPool::Pnp2013] {
        let allowed = pool(p);
        let mut seen = BTreeSet::new();
        for seed in 0..3000 {
            let s = new_game(&with_pool(p), seed).unwrap();
            for m in &s.missions {
                assert!(allowed.contains(&m.id), "{p}: dealt {}", m.id);
                seen.insert(m.id);
            }
        }
        assert_eq!(seen.len(), allowed.len(), "{p}: every mission of the pool is dealt");
    }
}

// =============================================================================================
// D3. Dealing.

fn deal_counts(setup: &Setup, n: u64) -> BTreeMap<(MissionId, MissionId), u32> {
    let mut counts = BTreeMap::new();
    for seed in 0..n {
        let s = new_game(setup, seed).unwrap();
        *counts.entry((s.missions[0].id, s.missions[1].id)).or_insert(0) += 1;
    }
    counts
}

/// |observed − expected| within 5 standard deviations of a binomial count.
fn near(observed: u32, n: u64, p: f64) -> bool {
    let mean = n as f64 * p;
    let sd = (n as f64 * p * (1.0 - p)).sqrt();
    (observed as f64 - mean).abs() <= 5.0 * sd
}

#[test]
fn d3_uniform_two_distinct_missions_at_most_one_3_star() {
    let n = 30_000;
    let counts = deal_counts(&Setup::new(Difficulty::Normal), n);
    for &(a, b) in counts.keys() {
        assert_ne!(a, b);
        assert!(!(info(a).stars == 3 && info(b).stars == 3), "{a} and {b} are both 3-star");
    }
    // Every allowed ordered pair occurs: 18·17 − 4·3 = 294.
    assert_eq!(counts.len(), 294);
    // Uniform over those pairs.
    for (&(a, b), &c) in &counts {
        assert!(near(c, n, 1.0 / 294.0), "pair ({a}, {b}) dealt {c} times");
    }
    // Per mission: a non-3-star mission is in 34 of the 294 pairs, a 3-star one in 28; each slot half.
    let mut per = BTreeMap::new();
    let mut on_a = BTreeMap::new();
    for (&(a, b), &c) in &counts {
        *per.entry(a).or_insert(0) += c;
        *per.entry(b).or_insert(0) += c;
        *on_a.entry(a).or_insert(0) += c;
    }
    for m in MissionId::ALL {
        let p = if info(*m).stars == 3 { 28.0 / 294.0 } else { 34.0 / 294.0 };
        assert!(near(per[m], n, p), "{m} dealt {} times", per[m]);
        assert!(near(on_a[m], n, p / 2.0), "{m} on mission_a {} times", on_a[m]);
    }
}

#[test]
fn d3_uniform_from_the_first_edition_pools() {
    let n = 20_000;
    let counts = deal_counts(&with_pool(MissionPool::FirstEdition), n);
    assert_eq!(counts.len(), 14 * 13);
    for &c in counts.values() {
        assert!(near(c, n, 1.0 / 182.0));
    }
    let counts = deal_counts(&with_pool(MissionPool::Pnp2013), n);
    assert_eq!(counts.len(), 30);
    for &c in counts.values() {
        assert!(near(c, n, 1.0 / 30.0));
    }
}

fn check_grouped(deal: Deal, g1: &[MissionId], g2: &[MissionId]) {
    let n = 20_000;
    let setup = Setup { deal, ..Setup::new(Difficulty::Normal) };
    let counts = deal_counts(&setup, n);
    let mut first_on_a = 0;
    for (&(a, b), &c) in &counts {
        let ok = (g1.contains(&a) && g2.contains(&b)) || (g2.contains(&a) && g1.contains(&b));
        assert!(ok, "{deal}: ({a}, {b}) is not one mission from each group");
        if g1.contains(&a) {
            first_on_a += c;
        }
    }
    // Every combination, in both slot orders, uniformly.
    let combos = g1.len() * g2.len();
    assert_eq!(counts.len(), 2 * combos, "{deal}");
    for (&(a, b), &c) in &counts {
        assert!(near(c, n, 0.5 / combos as f64), "{deal}: ({a}, {b}) dealt {c} times");
    }
    assert!(near(first_on_a, n, 0.5), "{deal}: group 1 on mission_a {first_on_a} times");
}

#[test]
fn d3_grouped_2013_one_mission_from_each_group() {
    check_grouped(
        Deal::Grouped2013,
        &[UndergroundNewspaper, DestroyTheTrain, Sabotage],
        &[AidTheSpy, Assassination, LiberateTheTown],
    );
}

#[test]
fn d3_grouped_2019_one_mission_from_each_group() {
    check_grouped(
        Deal::Grouped2019,
        &[UndergroundNewspaper, DestroyTheTrain, Sabotage, Infiltration, GermanShepherds],
        &[AidTheSpy, Assassination, LiberateTheTown, CodedMessages, TakeOutTheBridges, BombForTheOfficer],
    );
}

#[test]
fn d3_grouped_deal_needs_its_missions_in_the_pool() {
    let s = Setup { deal: Deal::Grouped2013, mission_pool: MissionPool::Pnp2013, ..Setup::new(Difficulty::Normal) };
    assert!(new_game(&s, 1).is_ok());
    let s = Setup { deal: Deal::Grouped2019, mission_pool: MissionPool::FirstEdition, ..Setup::new(Difficulty::Normal) };
    assert!(new_game(&s, 1).is_ok());
    let s = Setup { deal: Deal::Grouped2019, mission_pool: MissionPool::Pnp2013, ..Setup::new(Difficulty::Normal) };
    assert!(new_game(&s, 1).is_err());
}

#[test]
fn d3_missions_fixed_by_the_caller() {
    for seed in 0..50 {
        let s = new_game(&Setup::new(Difficulty::Normal).missions(LiberateTheTown, Sabotage), seed).unwrap();
        assert_eq!((s.missions[0].id, s.missions[1].id), (LiberateTheTown, Sabotage), "first → mission_a");
    }
    // The deal's "at most one 3-star" does not restrict the caller (engine reading).
    let s = new_game(&Setup::new(Difficulty::Normal).missions(MiliceHq, DestroyAaGuns), 0).unwrap();
    assert_eq!((s.missions[0].id, s.missions[1].id), (MiliceHq, DestroyAaGuns));
    // But the two must differ.
    assert!(new_game(&Setup::new(Difficulty::Normal).missions(Sabotage, Sabotage), 0).is_err());
    // And a grouped deal is ignored when the missions are fixed.
    let s = Setup { deal: Deal::Grouped2013, ..Setup::new(Difficulty::Normal).missions(MiliceHq, Sabotage) };
    let g = new_game(&s, 3).unwrap();
    assert_eq!((g.missions[0].id, g.missions[1].id), (MiliceHq, Sabotage));
}

// =============================================================================================
// D4. Stars.

#[test]
fn d4_stars_of_every_mission() {
    let want: [(MissionId, u8); 18] = [
        (MiliceParadeDay, 0), (OfficersMansion, 0), (Sabotage, 1), (UndergroundNewspaper, 1), (Infiltration, 1),
        (GermanShepherds, 1), (DoubleAgent, 1), (AidTheSpy, 2), (Assassination, 2), (DestroyTheTrain, 2),
        (LiberateTheTown, 2), (CodedMessages, 2), (TakeOutTheBridges, 2), (BombForTheOfficer, 2), (MiliceHq, 3),
        (BombTheBarracks, 3), (FreeTheResistanceLeader, 3), (DestroyAaGuns, 3),
    ];
    for (m, stars) in want {
        assert_eq!(info(m).stars, stars, "{m}");
    }
}

#[test]
fn d4_state_dict_reports_the_stars_of_the_dealt_missions() {
    let s = new_game(&Setup::new(Difficulty::Normal).missions(DestroyAaGuns, OfficersMansion), 0).unwrap();
    let d = maquis::maquis::save::state_dict(&s);
    assert_eq!(d["missions"][0]["stars"], 3);
    assert_eq!(d["missions"][1]["stars"], 0);
}

#[test]
fn d4_star_totals_of_uniform_deals_run_from_0_to_5() {
    let mut totals = BTreeMap::new();
    for seed in 0..20_000 {
        let s = new_game(&Setup::new(Difficulty::Normal), seed).unwrap();
        let t: u8 = s.missions.iter().map(|m| info(m.id).stars).sum();
        *totals.entry(t).or_insert(0u32) += 1;
    }
    assert_eq!(totals.keys().copied().collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5]);
    // Grouped 2013: a 1- or 2-star mission with a 2-star one.
    let s = Setup { deal: Deal::Grouped2013, ..Setup::new(Difficulty::Normal) };
    for seed in 0..500 {
        let g = new_game(&s, seed).unwrap();
        let t: u8 = g.missions.iter().map(|m| info(m.id).stars).sum();
        assert!(t == 3 || t == 4, "grouped 2013 total {t}");
    }
}

#[test]
fn d4_stars_do_not_depend_on_the_level() {
    for d in Difficulty::ALL {
        let s = new_game(&Setup::new(*d).missions(BombTheBarracks, AidTheSpy), 0).unwrap();
        let d_ = maquis::maquis::save::state_dict(&s);
        assert_eq!((d_["missions"][0]["stars"].as_u64(), d_["missions"][1]["stars"].as_u64()), (Some(3), Some(2)));
    }
}
