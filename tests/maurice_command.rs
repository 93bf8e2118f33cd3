//! RULES.md A1, A3, A4 and what the command choice needs of F2–F4 and C2–C4: forces and groups,
//! the command distance, feasible actions, who can bombard, lanes and targets, the charge move.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::action::Lead;
use maquis::maurice::cards::Card;
use maquis::maurice::grid::Vec2;
use maquis::maurice::rules::charge::{can_charge, charge_move};
use maquis::maurice::rules::command_distance::command_distance;
use maquis::maurice::rules::fire::targets::firing_bases;
use maquis::maurice::rules::fire::{can_bombard, lane_target, LaneTarget, Range};
use maquis::maurice::rules::force::{feasible, group};
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{Command, Facing, Formation, Side, State, TerrainType, UnitType};

const CINCS: [maquis::maurice::grid::Cell; 2] = [maquis::maurice::grid::Cell::new(22, 0), maquis::maurice::grid::Cell::new(22, 29)];

fn at(blue: &[UnitSpec], red: &[UnitSpec]) -> State {
    start(&position(blue, red, CINCS, deal(&[Card::Orders12], &[], &[], &[])))
}

fn at_on(t: Terrain, blue: &[UnitSpec], red: &[UnitSpec]) -> State {
    start(&position_on(t, blue, red, CINCS, deal(&[Card::Orders12], &[], &[], &[])))
}

fn far_red() -> Vec<UnitSpec> {
    vec![inf(0, 40, 28, Facing::S)]
}

fn bits(ids: &[u8]) -> u16 {
    ids.iter().map(|i| 1u16 << i).sum()
}

#[test]
fn maurice_a1_forces_share_type_formation_and_terrain_and_are_linked() {
    let mut t = Terrain::open();
    t.set_kind(c(11, 9), TerrainType::Woods);
    let blue = [
        inf(0, 10, 5, Facing::N),
        inf(1, 16, 5, Facing::N), // 2 BW from 0: linked
        inf(2, 23, 5, Facing::N), // 3 BW from 1: not linked
        u(3, UnitType::Inf, Formation::Column, 15, 3, Facing::N), // another formation
        inf(4, 10, 7, Facing::N), // 1 BW from 0
        inf(5, 10, 9, Facing::N), // in woods: another terrain class
        cav(6, 14, 7, Facing::N), // another type
    ];
    let mut s = at_on(t, &blue, &far_red());
    assert_eq!(group(&s, Side::Blue, 0), bits(&[0, 1, 4]));
    assert_eq!(group(&s, Side::Blue, 2), bits(&[2]));
    assert_eq!(group(&s, Side::Blue, 5), bits(&[5]));
    // An art unit that fired this round is in no force.
    let mut s2 = at(&[art(0, 10, 5, Facing::N), art(1, 12, 5, Facing::N)], &far_red());
    assert_eq!(group(&s2, Side::Blue, 0), bits(&[0, 1]));
    s2.unit_mut(Side::Blue, 1).fired = true;
    assert_eq!(group(&s2, Side::Blue, 0), bits(&[0]));
    assert_eq!(group(&s2, Side::Blue, 1), 0);
    s.unit_mut(Side::Blue, 4).on_table = false;
    assert_eq!(group(&s, Side::Blue, 0), bits(&[0, 1]));
}

#[test]
fn maurice_a3_command_distance_bends_round_the_enemy() {
    let blue = [inf(0, 10, 5, Facing::N)];
    let setup = |cinc, red: &[UnitSpec]| start(&position(&blue, red, [cinc, c(22, 29)], deal(&[], &[], &[], &[])));
    let s = setup(c(10, 0), &far_red());
    assert_eq!(command_distance(&s, Side::Blue, 0), Some(4), "(10, 1) … (10, 4) lie between");
    let s = setup(c(9, 4), &far_red());
    assert_eq!(command_distance(&s, Side::Blue, 0), Some(0), "diagonally next to the unit");
    // A red gun at (10, 2) closes the cells within 1 of it: the line goes round.
    let s = setup(c(10, 0), &[art(0, 10, 2, Facing::S)]);
    assert_eq!(command_distance(&s, Side::Blue, 0), Some(5));
    // Lakes round the CinC: no path.
    let mut t = Terrain::open();
    for cell in [c(1, 0), c(0, 1), c(1, 1)] {
        t.set_kind(cell, TerrainType::Lake);
    }
    let s = start(&position_on(t, &blue, &far_red(), [c(0, 0), c(22, 29)], deal(&[], &[], &[], &[])));
    assert_eq!(command_distance(&s, Side::Blue, 0), None);
}

#[test]
fn maurice_a4_feasible_actions_need_a_seed_at_finite_distance() {
    // March only, far from the enemy.
    let mut s = at(&[inf(0, 10, 5, Facing::N)], &far_red());
    play(&mut s, &["no_volley"]);
    assert_eq!(legal_names(&s), ["pass", "march"]);
    // Rally with DISR; bombard with a target at 5–16; charge with an enemy 2 cells ahead.
    let mut blue = vec![inf(0, 10, 5, Facing::N), art(1, 30, 5, Facing::N)];
    blue[0].disr = 1;
    let red = [inf(0, 13, 8, Facing::S), inf(1, 33, 15, Facing::S)];
    let mut s = at(&blue, &red);
    assert!(feasible(&s, Command::Rally) && feasible(&s, Command::Bombard) && feasible(&s, Command::Charge));
    play(&mut s, &["no_volley"]);
    assert_eq!(legal_names(&s), ["pass", "march", "charge", "bombard", "rally"]);
    // The same army with its CinC shut in by lakes: nothing but pass.
    let mut t = Terrain::open();
    for cell in [c(1, 0), c(0, 1), c(1, 1)] {
        t.set_kind(cell, TerrainType::Lake);
    }
    let s = start(&position_on(t, &blue, &red, [c(0, 0), c(22, 29)], deal(&[Card::Orders12], &[], &[], &[])));
    assert!(Command::ACTIONS.iter().all(|&cmd| !feasible(&s, cmd)));
}

#[test]
fn maurice_f2_who_can_bombard() {
    let red_at = |y| vec![inf(0, 13, y, Facing::S)];
    // (10, 5) to a target 5–16 BW ahead.
    assert!(can_bombard(&at(&[art(0, 10, 5, Facing::N)], &red_at(12)), Side::Blue, 0));
    assert!(can_bombard(&at(&[art(0, 10, 5, Facing::N)], &red_at(22)), Side::Blue, 0), "distance 16");
    assert!(!can_bombard(&at(&[art(0, 10, 5, Facing::N)], &red_at(23)), Side::Blue, 0), "distance 17");
    // A short-range target in a lane allows only canister.
    let red = [inf(0, 13, 12, Facing::S), art(1, 8, 7, Facing::S)];
    assert!(!can_bombard(&at(&[art(0, 10, 5, Facing::N)], &red), Side::Blue, 0));
    // In woods or marsh, or after firing: no.
    for kind in [TerrainType::Woods, TerrainType::Marsh] {
        let mut t = Terrain::open();
        t.set_kind(c(10, 5), kind);
        assert!(!can_bombard(&at_on(t, &[art(0, 10, 5, Facing::N)], &red_at(12)), Side::Blue, 0));
    }
    let mut s = at(&[art(0, 10, 5, Facing::N)], &red_at(12));
    s.unit_mut(Side::Blue, 0).fired = true;
    assert!(!can_bombard(&s, Side::Blue, 0));
    assert!(!can_bombard(&at(&[inf(0, 10, 5, Facing::N)], &red_at(12)), Side::Blue, 0), "only art bombards");
}

#[test]
fn maurice_f3_firing_bases() {
    let mut t = Terrain::open();
    t.set_kind(c(11, 5), TerrainType::Marsh);
    t.set_kind(c(30, 5), TerrainType::Woods);
    t.set_kind(c(32, 5), TerrainType::Woods);
    let blue = [
        inf(0, 10, 5, Facing::N),
        u(1, UnitType::Inf, Formation::Column, 20, 5, Facing::N),
        cav(2, 24, 5, Facing::N),
        art(3, 30, 5, Facing::N),
        art(4, 34, 5, Facing::N),
        inf(5, 31, 7, Facing::N),
    ];
    let s = at_on(t, &blue, &far_red());
    let n = |id| firing_bases(&s, s.unit(Side::Blue, id)).len();
    assert_eq!((n(0), n(1), n(2), n(3), n(4)), (3, 0, 0, 0, 1), "marsh base, column, cav, art in woods, art");
    // An inf base in woods may fire.
    let mut t = Terrain::open();
    t.set_kind(c(10, 5), TerrainType::Woods);
    let s = at_on(t, &blue[..1], &far_red());
    assert_eq!(firing_bases(&s, s.unit(Side::Blue, 0)).len(), 4);
}

#[test]
fn maurice_f4_first_base_hidden_obstructed_in_range() {
    let up = Vec2(0, 1);
    let lane = |s: &State| lane_target(s, Side::Blue, c(10, 5), up, Range::Short);
    // Target 3 BW away.
    let s = at(&[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert_eq!(lane(&s), LaneTarget::Target { cell: c(10, 9), k: 4 });
    assert_eq!(lane_target(&s, Side::Blue, c(10, 5), up, Range::Long), LaneTarget::Blocked { cell: c(10, 9), k: 4, hidden_or_obstructed: false });
    // A friendly base first: no target.
    let s = at(&[art(0, 10, 5, Facing::N), art(1, 10, 7, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert_eq!(lane(&s), LaneTarget::None);
    // Short range searches R + 1 = 5 cells: distance 5 is beyond it; a bombard finds it.
    let s = at(&[art(0, 10, 5, Facing::N)], &[inf(0, 13, 11, Facing::S)]);
    assert_eq!(lane(&s), LaneTarget::None);
    assert_eq!(lane_target(&s, Side::Blue, c(10, 5), up, Range::Long), LaneTarget::Target { cell: c(10, 11), k: 6 });
    // Woods strictly between obstruct; woods under the target do not.
    let mut t = Terrain::open();
    t.set_kind(c(10, 7), TerrainType::Woods);
    let s = at_on(t.clone(), &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(matches!(lane(&s), LaneTarget::Blocked { hidden_or_obstructed: true, .. }));
    let mut t = Terrain::open();
    t.set_kind(c(10, 9), TerrainType::Woods);
    let s = at_on(t, &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(matches!(lane(&s), LaneTarget::Target { .. }));
    // Woods at level 0 are ignored when the target stands on a hill.
    let mut t = Terrain::open();
    t.set_kind(c(10, 7), TerrainType::Woods);
    for x in 10..=13 {
        t.hill[c(x, 9).index()] = true;
    }
    let s = at_on(t, &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(matches!(lane(&s), LaneTarget::Target { .. }));
    // Walls: one crossed by c_1 → c_2 obstructs; the one on the base's front edge and the one
    // crossed into the target do not.
    for (wall_row, obstructs) in [(5, false), (6, true), (8, false)] {
        let mut t = Terrain::open();
        t.wall_n[c(10, wall_row).index()] = true;
        let s = at_on(t, &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
        assert_eq!(matches!(lane(&s), LaneTarget::Blocked { hidden_or_obstructed: true, .. }), obstructs, "wall north of row {wall_row}");
    }
    // Hidden behind a hill.
    let mut t = Terrain::open();
    t.hill[c(10, 7).index()] = true;
    let s = at_on(t, &[art(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(matches!(lane(&s), LaneTarget::Blocked { hidden_or_obstructed: true, .. }));
}

#[test]
fn maurice_c2_who_can_charge() {
    let red = [inf(0, 13, 9, Facing::S)];
    assert!(can_charge(&at(&[inf(0, 10, 5, Facing::N)], &red), Side::Blue, 0));
    let column = u(0, UnitType::Inf, Formation::Column, 10, 5, Facing::N);
    assert!(!can_charge(&at(&[column], &red), Side::Blue, 0), "columns never charge");
    let mut tired = inf(0, 10, 5, Facing::N);
    tired.disr = 4;
    assert!(!can_charge(&at(&[tired], &red), Side::Blue, 0), "at most 3 DISR");
    assert!(!can_charge(&at(&[art(0, 10, 5, Facing::N)], &red), Side::Blue, 0));
    let mut s = at(&[inf(0, 10, 5, Facing::N)], &red);
    s.round.done = 1;
    assert!(!can_charge(&s, Side::Blue, 0), "not after moving this action");
    assert!(!can_charge(&at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 11, Facing::S)]), Side::Blue, 0), "5 cells: out of reach");
}

#[test]
fn maurice_c3_the_charge_move() {
    // Straight: 3 cells forward, then in contact with the line at row 9.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    let m = charge_move(&s, Side::Blue, 0, Lead::Straight).unwrap();
    assert_eq!((m.at, m.spent, m.contacts), (c(10, 8), 3, 1));
    // An oblique lead-in steps one ahead and one aside first (cost 1).
    let m = charge_move(&s, Side::Blue, 0, Lead::ObliqueRight).unwrap();
    assert_eq!((m.at, m.spent), (c(11, 8), 3));
    // Already touching across the front edge: charges without moving.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 6, Facing::S)]);
    assert_eq!(charge_move(&s, Side::Blue, 0, Lead::Straight).unwrap().spent, 0);
    // More than 4 BW: illegal.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 10, Facing::S)]);
    assert_eq!(charge_move(&s, Side::Blue, 0, Lead::Straight).unwrap().spent, 4);
    let s = at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 11, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    // No interpenetration: a friendly unit in the way.
    let s = at(&[inf(0, 10, 5, Facing::N), art(1, 12, 7, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    // An enemy touching a flank stops the charge being legal.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S), art(1, 9, 6, Facing::E)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    // The oblique lead-in may not end in contact.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[art(0, 15, 6, Facing::W)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::ObliqueRight).is_none());
    // Under rough_going, no new difficult cell.
    let mut t = Terrain::open();
    t.set_kind(c(11, 7), TerrainType::Rough);
    let mut s = at_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_some());
    s.round.rough_going = true;
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
}

#[test]
fn maurice_c4_legal_contact() {
    // Infantry never contacts cavalry.
    let s = at(&[inf(0, 10, 5, Facing::N)], &[cav(0, 11, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    // Cavalry contacts no cell in woods.
    let mut t = Terrain::open();
    t.set_kind(c(10, 9), TerrainType::Woods);
    let s = at_on(t.clone(), &[cav(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    let s = at_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_some(), "infantry may");
    // A target hidden behind a hill from the starting position is not visible.
    let mut t = Terrain::open();
    for x in 10..=13 {
        t.hill[c(x, 7).index()] = true;
    }
    let s = at_on(t, &[inf(0, 10, 5, Facing::N)], &[inf(0, 13, 9, Facing::S)]);
    assert!(charge_move(&s, Side::Blue, 0, Lead::Straight).is_none());
    // Cavalry charging infantry is fine.
    let s = at(&[cav(0, 10, 5, Facing::N)], &[inf(0, 13, 8, Facing::S)]);
    assert_eq!(charge_move(&s, Side::Blue, 0, Lead::Straight).unwrap().contacts, 1);
}
