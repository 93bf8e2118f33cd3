//! RULES.md M: the march — allowances, move actions, cells passed, legality, difficult terrain,
//! interpenetration, ending and cancelling, formation changes, about-face, smoke.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::action::{FormKind, MoveKind};
use maquis::maurice::cards::Card::{self, *};
use maquis::maurice::grid::Cell;
use maquis::maurice::rules::movement::allowance::basic;
use maquis::maurice::rules::movement::geometry::{form_step, move_step};
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::state::{State, Unit};
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{Facing, Formation, Phase, Side, TerrainType, UnitType};

const FAR_RED: [UnitSpec; 1] = [UnitSpec {
    id: 0,
    kind: UnitType::Inf,
    formation: Formation::Line,
    at: Cell::new(40, 28),
    facing: Facing::S,
    disr: 0,
    smoke: false,
}];

/// Plays up to the march's `move` phase: blue names `force` (in order), pays with orders_16,
/// plays `modifier` (blue) / `red_modifier` in the march window.
fn marching_on(t: Terrain, blue: &[UnitSpec], red: &[UnitSpec], force: &[u8], modifier: Option<Card>, red_modifier: Option<Card>) -> State {
    let mut hand = vec![Orders16, Orders12];
    hand.extend(modifier);
    let red_hand: Vec<Card> = red_modifier.into_iter().collect();
    let mut s = start(&position_on(t, blue, red, [c(22, 0), c(22, 29)], deal_to_deck(&hand, &red_hand, &[Volley4], &[])));
    play(&mut s, &["no_volley", "march"]);
    let mut named = 0;
    for _ in 0..40 {
        match s.phase {
            Phase::Force => {
                if named < force.len() && legal(&s, &format!("unit:{}", force[named])) {
                    play(&mut s, &[&format!("unit:{}", force[named])]);
                    named += 1;
                } else {
                    play(&mut s, &["confirm_force"]);
                }
            }
            Phase::Span => play(&mut s, &["card:orders_16"]),
            Phase::ActivationInterrupt => play(&mut s, &["decline"]),
            Phase::ActionModifier => {
                let card = if s.to_move == Some(Side::Blue) { modifier } else { red_modifier };
                match card {
                    Some(c) => play(&mut s, &[&format!("card:{c}")]),
                    None => play(&mut s, &["decline"]),
                }
            }
            _ => break,
        }
    }
    s
}

fn marching(blue: &[UnitSpec], red: &[UnitSpec], force: &[u8]) -> State {
    marching_on(Terrain::open(), blue, red, force, None, None)
}

/// Starts unit `id`'s move.
fn moving(blue: &[UnitSpec], red: &[UnitSpec], id: u8) -> State {
    let mut s = marching(blue, red, &[id]);
    assert_eq!(s.phase, Phase::Move);
    play(&mut s, &[&format!("unit:{id}")]);
    s
}

fn moving_on(t: Terrain, blue: &[UnitSpec], red: &[UnitSpec], id: u8) -> State {
    let mut s = marching_on(t, blue, red, &[id], None, None);
    play(&mut s, &[&format!("unit:{id}")]);
    s
}

/// How many times `action` can be repeated.
fn repeat(s: &mut State, action: &str) -> usize {
    let mut n = 0;
    while legal(s, action) {
        play(s, &[action]);
        n += 1;
    }
    n
}

fn col(id: u8, kind: UnitType, x: i8, y: i8, facing: Facing) -> UnitSpec {
    u(id, kind, Formation::Column, x, y, facing)
}

#[test]
fn maurice_m1_allowances_by_type_and_formation() {
    let unit = |kind, formation| {
        let mut u = Unit::placed(0, Side::Blue, kind, formation, c(10, 10), Facing::N);
        u.round_formation = formation;
        basic(&u)
    };
    assert_eq!(unit(UnitType::Inf, Formation::Column), 12);
    assert_eq!(unit(UnitType::Inf, Formation::Line), 4);
    assert_eq!(unit(UnitType::Cav, Formation::Column), 16);
    assert_eq!(unit(UnitType::Cav, Formation::Line), 8);
    assert_eq!(unit(UnitType::Cav, Formation::Massed), 8);
    assert_eq!(unit(UnitType::Art, Formation::Artillery), 8);
    // Played out: an infantry column far from the enemy marches 12 cells.
    let mut s = moving(&[col(0, UnitType::Inf, 10, 5, Facing::N)], &FAR_RED, 0);
    assert_eq!(repeat(&mut s, "move:forward"), 12);
    // Cavalry massed: 8.
    let mut s = moving(&[cav(0, 10, 3, Facing::N)], &FAR_RED, 0);
    assert_eq!(repeat(&mut s, "move:forward"), 8);
}

#[test]
fn maurice_m2_each_unit_of_the_force_moves_once() {
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 16, 5, Facing::N)];
    let mut s = marching(&blue, &FAR_RED, &[0, 1]);
    assert_eq!(s.phase, Phase::Move);
    assert_eq!(legal_names(&s), ["end_moves", "unit:0", "unit:1"]);
    play(&mut s, &["unit:0", "move:forward", "unit_done"]);
    assert_eq!(legal_names(&s), ["end_moves", "unit:1"]);
    play(&mut s, &["end_moves"]);
    assert_eq!(s.phase, Phase::CincMove, "the march ends; the CinC may move");
    assert_eq!(s.unit(Side::Blue, 1).at, c(16, 5), "the rest did not move");
}

#[test]
fn maurice_m3_move_actions() {
    let t = Terrain::open();
    let line = Unit::placed(0, Side::Blue, UnitType::Inf, Formation::Line, c(10, 10), Facing::N);
    let go = |u: &Unit, m| {
        let st = move_step(&t, u, m).unwrap();
        (st.at, st.facing, st.cost, st.cells.as_slice().to_vec())
    };
    let (at, f, cost, _) = go(&line, MoveKind::WheelFrontLeft);
    assert_eq!((at, f, cost), (c(10, 11), Facing::W, 4));
    let (at, f, _, cl) = go(&line, MoveKind::WheelFrontRight);
    assert_eq!((at, f), (c(13, 14), Facing::E));
    assert_eq!(cl, [c(13, 14), c(13, 13), c(13, 12), c(13, 11)]);
    let (at, f, _, _) = go(&line, MoveKind::WheelRearLeft);
    assert_eq!((at, f), (c(10, 9), Facing::E));
    let (at, f, _, _) = go(&line, MoveKind::WheelRearRight);
    assert_eq!((at, f), (c(13, 6), Facing::W));
    assert_eq!(go(&line, MoveKind::ObliqueLeft).0, c(9, 11));
    assert_eq!(go(&line, MoveKind::ObliqueLeft).2, 4, "an oblique costs the frontage");
    assert!(move_step(&t, &line, MoveKind::Left).is_none() && move_step(&t, &line, MoveKind::PivotLeft).is_none());
    // A column snakes: its cells are the last four cells of its head.
    let column = Unit::placed(0, Side::Blue, UnitType::Inf, Formation::Column, c(10, 10), Facing::N);
    let st = move_step(&t, &column, MoveKind::Right).unwrap();
    assert_eq!((st.at, st.facing), (c(11, 10), Facing::E));
    assert_eq!(st.cells.as_slice(), [c(11, 10), c(10, 10), c(10, 9), c(10, 8)]);
    assert!(move_step(&t, &column, MoveKind::WheelFrontLeft).is_none());
    // Artillery pivots in place for 1; only cavalry about-faces, in place, for 0.
    let gun = Unit::placed(0, Side::Blue, UnitType::Art, Formation::Artillery, c(10, 10), Facing::N);
    assert_eq!(go(&gun, MoveKind::PivotRight), (c(10, 10), Facing::E, 1, vec![c(10, 10)]));
    let horse = Unit::placed(0, Side::Blue, UnitType::Cav, Formation::Massed, c(10, 10), Facing::N);
    let (at, f, cost, mut cl) = go(&horse, MoveKind::AboutFace);
    cl.sort();
    let mut old = horse.cells().to_vec();
    old.sort();
    assert_eq!((at, f, cost, cl), (c(11, 9), Facing::S, 0, old));
    assert!(move_step(&t, &line, MoveKind::AboutFace).is_none());
}

#[test]
fn maurice_m4_cells_passed_and_walls() {
    let mut t = Terrain::open();
    let line = Unit::placed(0, Side::Blue, UnitType::Inf, Formation::Line, c(10, 10), Facing::N);
    let st = move_step(&t, &line, MoveKind::ObliqueRight).unwrap();
    assert_eq!(st.passed.len(), 8, "the old cells moved ahead, then the new cells");
    assert!(st.passed.contains(&c(10, 11)) && st.passed.contains(&c(14, 11)));
    let st = move_step(&t, &line, MoveKind::WheelFrontLeft).unwrap();
    assert_eq!(st.passed.len(), 16, "the 4 × 4 square");
    assert!(st.passed.contains(&c(13, 14)));
    t.wall_n[c(12, 12).index()] = true;
    assert!(move_step(&t, &line, MoveKind::WheelFrontLeft).unwrap().walls, "a wall inside the square");
    assert!(!move_step(&t, &line, MoveKind::Forward).unwrap().walls);
    t.wall_n[c(11, 10).index()] = true;
    assert!(move_step(&t, &line, MoveKind::Forward).unwrap().walls);
    // Crossing a wall is difficult: +1 DISR at the end of the move.
    let mut t = Terrain::open();
    t.wall_n[c(11, 5).index()] = true;
    let mut s = moving_on(t, &[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:forward", "unit_done"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 1);
}

#[test]
fn maurice_m5_legal_move_actions() {
    // No enemy cell, no lake, no new contact.
    let red = [inf(0, 13, 8, Facing::S)];
    let mut s = moving(&[inf(0, 10, 5, Facing::N)], &red, 0);
    play(&mut s, &["move:forward"]);
    assert!(!legal(&s, "move:forward"), "row 7 would touch the enemy at row 8");
    let mut t = Terrain::open();
    t.set_kind(c(12, 6), TerrainType::Lake);
    let s = moving_on(t, &[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    assert!(!legal(&s, "move:forward") && legal(&s, "move:back"));
    // A column may not turn its head back onto itself.
    let mut s = moving(&[col(0, UnitType::Cav, 10, 10, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:right", "move:right"]);
    assert!(!legal(&s, "move:right"), "(10, 9) is still under the column");
    // Rough going: no new difficult cell.
    let mut t = Terrain::open();
    t.set_kind(c(11, 6), TerrainType::Woods);
    let mut s = moving_on(t, &[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    assert!(legal(&s, "move:forward"));
    s.round.rough_going = true;
    assert!(!legal(&s, "move:forward"));
}

#[test]
fn maurice_m6_allowance_accounting() {
    // Retrograde halves: a line backs 2.
    let mut s = moving(&[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    assert_eq!(repeat(&mut s, "move:back"), 2);
    assert!(!legal(&s, "move:forward"), "the mode is set by the first action");
    // Near the enemy: 4, even for cavalry.
    let mut s = moving(&[cav(0, 10, 5, Facing::N)], &[inf(0, 13, 14, Facing::S)], 0);
    assert_eq!(repeat(&mut s, "move:forward"), 4);
    // A march card: +2 for the active side, −2 for the passive's.
    let mut s = marching_on(Terrain::open(), &[inf(0, 10, 5, Facing::N)], &FAR_RED, &[0], Some(March4), None);
    play(&mut s, &["unit:0"]);
    assert_eq!(repeat(&mut s, "move:forward"), 6);
    let mut s = marching_on(Terrain::open(), &[inf(0, 10, 5, Facing::N)], &FAR_RED, &[0], None, Some(March6));
    play(&mut s, &["unit:0"]);
    assert_eq!(repeat(&mut s, "move:forward"), 2);
}

#[test]
fn maurice_m7_difficult_terrain() {
    let mut t = Terrain::open();
    t.set_kind(c(10, 7), TerrainType::Rough);
    let mut s = moving_on(t.clone(), &[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:forward", "move:forward"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 0, "applied when the move ends");
    play(&mut s, &["move:forward", "unit_done"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 1, "once per move");
    // No unit breaks by moving.
    let mut tired = inf(0, 10, 5, Facing::N);
    tired.disr = 4;
    let s = moving_on(t.clone(), &[tired], &FAR_RED, 0);
    assert!(legal(&s, "move:forward"));
    let mut s2 = s.clone();
    play(&mut s2, &["move:forward"]);
    assert!(!legal(&s2, "move:forward"), "into the rough would break it");
    // Artillery: no DISR, but its allowance falls to 2.
    let mut s = moving_on(t, &[art(0, 10, 5, Facing::N)], &FAR_RED, 0);
    assert_eq!(repeat(&mut s, "move:forward"), 2);
    play(&mut s, &["unit_done"]);
    assert_eq!(s.unit(Side::Blue, 0).disr, 0);
}

#[test]
fn maurice_m8_interpenetration() {
    // A line passes through a friendly line: both gain 1.
    let blue = [inf(0, 10, 5, Facing::N), inf(1, 10, 6, Facing::N)];
    let mut s = marching(&blue, &FAR_RED, &[0]);
    play(&mut s, &["unit:0", "move:forward"]);
    assert!(!legal(&s, "unit_done"), "it may not end on another unit");
    play(&mut s, &["move:forward", "unit_done"]);
    assert_eq!((s.unit(Side::Blue, 0).disr, s.unit(Side::Blue, 1).disr), (1, 1));
    // A column mover takes none but causes it; artillery passed takes none.
    let blue = [col(0, UnitType::Inf, 11, 4, Facing::N), inf(1, 10, 6, Facing::N), art(2, 11, 8, Facing::N)];
    let mut s = marching(&blue, &FAR_RED, &[0]);
    play(&mut s, &["unit:0"]);
    for _ in 0..8 {
        play(&mut s, &["move:forward"]);
    }
    play(&mut s, &["unit_done"]);
    assert_eq!((s.unit(Side::Blue, 0).disr, s.unit(Side::Blue, 1).disr, s.unit(Side::Blue, 2).disr), (0, 1, 0));
}

#[test]
fn maurice_m9_ending_a_move() {
    // A column must stop straight.
    let mut s = moving(&[col(0, UnitType::Inf, 10, 10, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:right"]);
    assert!(!legal(&s, "unit_done"));
    play(&mut s, &["move:forward", "move:forward", "move:forward"]);
    assert!(legal(&s, "unit_done"), "four cells in a row behind the head");
    // Artillery ending near the enemy has spent at most 2.
    let red = [inf(0, 13, 12, Facing::S)];
    let mut s = moving(&[art(0, 10, 5, Facing::N)], &red, 0);
    play(&mut s, &["move:forward", "move:forward"]);
    assert!(legal(&s, "unit_done"), "at row 7, 4 BW from the enemy, spent 2");
    play(&mut s, &["move:forward"]);
    assert!(!legal(&s, "unit_done"), "near the enemy after spending 3");
    // Passing the enemy CinC displaces it.
    let mut s = start(&position(&[inf(0, 10, 5, Facing::N)], &FAR_RED, [c(22, 0), c(11, 7)], deal_to_deck(&[Orders16, Orders12], &[], &[Volley4], &[])));
    play(&mut s, &["no_volley", "march", "card:orders_16", "decline", "unit:0", "move:forward", "move:forward", "unit_done"]);
    assert_eq!((s.phase, s.to_move), (Phase::Displace, Some(Side::Red)));
}

#[test]
fn maurice_m10_cancel_restores_the_unit() {
    let mut s = moving(&[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:forward", "move:forward"]);
    assert_ne!(s.unit(Side::Blue, 0).at, c(10, 5));
    play(&mut s, &["unit_cancel"]);
    assert_eq!((s.unit(Side::Blue, 0).at, s.unit(Side::Blue, 0).facing), (c(10, 5), Facing::N));
    assert!(!legal(&s, "unit:0"), "it counts as moved");
}

#[test]
fn maurice_m11_formation_changes() {
    let column = Unit::placed(0, Side::Blue, UnitType::Inf, Formation::Column, c(10, 10), Facing::N);
    let st = form_step(&column, FormKind::LineLeft).unwrap();
    assert_eq!((st.formation, st.at, st.facing), (Formation::Line, c(10, 7), Facing::W));
    let mut a: Vec<Cell> = st.cells.as_slice().to_vec();
    a.sort();
    let mut b = column.cells().to_vec();
    b.sort();
    assert_eq!(a, b, "on the same cells");
    assert!(form_step(&column, FormKind::MassedUpLeft).is_none(), "infantry never masses");
    let line = Unit::placed(0, Side::Blue, UnitType::Cav, Formation::Line, c(10, 10), Facing::N);
    let st = form_step(&line, FormKind::MassedCentre).unwrap();
    assert_eq!(st.cells.as_slice(), [c(11, 10), c(12, 10), c(11, 9), c(12, 9)]);
    // Played: from column the unit goes on moving; into a column, its move is over.
    let mut s = moving(&[col(0, UnitType::Inf, 10, 10, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["form:line_right"]);
    assert!(legal(&s, "move:forward"));
    assert!(!legal(&s, "form:column_left"), "only as the first action");
    let mut s = moving(&[inf(0, 10, 10, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["form:column_left"]);
    assert_eq!(legal_names(&s), ["unit_done", "unit_cancel"]);
}

#[test]
fn maurice_m12_about_face() {
    let mut s = moving(&[cav(0, 10, 5, Facing::N)], &FAR_RED, 0);
    play(&mut s, &["move:about_face"]);
    assert_eq!(s.unit(Side::Blue, 0).facing, Facing::S);
    assert!(!legal(&s, "move:about_face") && !legal(&s, "form:column_file_left"));
    let s = moving(&[inf(0, 10, 5, Facing::N)], &FAR_RED, 0);
    assert!(!legal(&s, "move:about_face"), "infantry never about-faces");
    // It must end not near the enemy.
    let mut s = moving(&[cav(0, 10, 10, Facing::N)], &[inf(0, 13, 14, Facing::S)], 0);
    play(&mut s, &["move:about_face"]);
    assert!(!legal(&s, "unit_done"));
    // Two cells south, rows 7–8: 5 BW from the enemy's row 14, no longer near.
    play(&mut s, &["move:forward", "move:forward"]);
    assert!(legal(&s, "unit_done"));
}

#[test]
fn maurice_m13_smoke_stops_artillery() {
    let mut gun = art(0, 10, 5, Facing::N);
    gun.smoke = true;
    let s = marching(&[gun, art(1, 12, 5, Facing::N)], &FAR_RED, &[0, 1]);
    assert_eq!(s.phase, Phase::CincMove, "the march only clears the smoke");
    assert!(!s.unit(Side::Blue, 0).smoke && s.unit(Side::Blue, 1).at == c(12, 5));
}
