//! RULES.md U, K1, S1–S4, S6 and the API tables: identifiers, the stand-in deck, the scenarios,
//! the sizes, the action table and the observation layout.

use maquis::maurice::cards::{playable_cards, Card, CARDS};
use maquis::maurice::grid::{footprint, Cell};
use maquis::maurice::observation::{ObservationKind, PLANES, UNIT_FEATURES};
use maquis::maurice::scenario::{scenario, turned};
use maquis::maurice::setup::starting_morale;
use maquis::maurice::{
    self, action_names, action_to_str, decode, observation_layout, Action, CardMark, Command, Facing,
    Formation, Phase, ScenarioId, Side, TerrainType, UnitType,
};

fn ids<T: std::fmt::Display>(all: &[T]) -> Vec<String> {
    all.iter().map(|x| x.to_string()).collect()
}

#[test]
fn maurice_api_constants() {
    assert_eq!(maurice::WIDTH, 45);
    assert_eq!(maurice::HEIGHT, 30);
    assert_eq!(maurice::MAX_UNITS, 16);
    assert_eq!(maurice::DECK_SIZE, 40);
    assert_eq!(maurice::NUM_ACTIONS, 1447);
    assert_eq!(maurice::OBSERVATION_SIZE, 21334);
    assert_eq!(maurice::COMPACT_OBSERVATION_SIZE, 1084);
}

#[test]
fn maurice_u1_sides_blue_south_red_north() {
    assert_eq!(ids(Side::ALL), ["blue", "red"]);
    assert_eq!(Side::Blue.other(), Side::Red);
    let s = scenario(ScenarioId::Standard);
    assert!(s.units(Side::Blue).iter().all(|u| u.at.y < 10 && u.facing == Facing::N));
    assert!(s.units(Side::Red).iter().all(|u| u.at.y >= 20 && u.facing == Facing::S));
}

#[test]
fn maurice_u2_unit_types_and_ids() {
    assert_eq!(ids(UnitType::ALL), ["inf", "cav", "art"]);
    let s = scenario(ScenarioId::Standard);
    let got: Vec<u8> = s.units(Side::Blue).iter().map(|u| u.id).collect();
    assert_eq!(got, (0..15).collect::<Vec<u8>>(), "a scenario uses ids 0 … n − 1");
    assert!(maurice::Action::Unit(15).index().is_some() && maurice::Action::Unit(16).index().is_none());
}

#[test]
fn maurice_u3_formations_per_type() {
    assert_eq!(ids(Formation::ALL), ["line", "column", "massed", "artillery"]);
    assert!(UnitType::Cav.allows(Formation::Massed) && !UnitType::Inf.allows(Formation::Massed));
    assert!(UnitType::Art.allows(Formation::Artillery) && !UnitType::Art.allows(Formation::Line));
    assert!(!UnitType::Inf.allows(Formation::Artillery) && !UnitType::Cav.allows(Formation::Artillery));
}

#[test]
fn maurice_u4_facings() {
    assert_eq!(ids(Facing::ALL), ["n", "e", "s", "w"]);
}

#[test]
fn maurice_u5_terrain_types() {
    assert_eq!(ids(TerrainType::ALL), ["open", "woods", "rough", "marsh", "lake"]);
    let symbols: String = TerrainType::ALL.iter().map(|t| t.symbol()).collect();
    assert_eq!(symbols, ".T%~#");
}

#[test]
fn maurice_u6_commands() {
    assert_eq!(ids(Command::ALL), ["pass", "event", "march", "charge", "bombard", "rally"]);
}

#[test]
fn maurice_u7_card_marks() {
    assert_eq!(ids(CardMark::ALL), ["charge", "march", "bombard", "rally", "volley", "interrupt", "event"]);
    assert!(CardMark::Volley.is_symbol() && !CardMark::Interrupt.is_symbol() && !CardMark::Event.is_symbol());
}

#[test]
fn maurice_u8_phases() {
    assert_eq!(
        ids(Phase::ALL),
        [
            "volley_choice", "volley_interrupt", "volley_modifier", "fire", "aim", "command", "force", "span",
            "activation_interrupt", "action_modifier", "move", "unit_move", "charge", "charge_lead", "king_target",
            "cinc_move", "cinc_pay", "displace", "penalty_discard", "hand_limit", "game_over"
        ]
    );
}

#[test]
fn maurice_k1_deck_has_forty_cards() {
    assert_eq!(CARDS.len(), 30);
    assert_eq!(CARDS.iter().map(|c| c.copies as usize).sum::<usize>(), 40);
    assert_eq!(playable_cards().len(), 38);
    let row = |c: Card| {
        let i = c.info();
        (i.name, i.span, i.symbol, i.mark, i.copies)
    };
    use CardMark as M;
    assert_eq!(row(Card::UnexpectedDelay), ("Unexpected Delay", Some(4), None, Some(M::Interrupt), 2));
    assert_eq!(row(Card::FirstFire), ("First Fire", Some(6), None, Some(M::Interrupt), 2));
    assert_eq!(row(Card::RoughGoing), ("Rough Going", Some(6), None, Some(M::Interrupt), 2));
    assert_eq!(row(Card::ThickSmoke), ("Thick Smoke", Some(8), Some(M::Volley), None, 2));
    assert_eq!(row(Card::Thunderous), ("Thunderous", Some(8), Some(M::Charge), None, 2));
    assert_eq!(row(Card::ForTheKing), ("For the King", Some(10), Some(M::Charge), None, 2));
    assert_eq!(row(Card::ValeurEtDiscipline), ("Valeur et Discipline", Some(12), None, Some(M::Event), 2));
    for (first, name, symbol) in [
        (Card::Charge4, "Charge", M::Charge),
        (Card::March4, "March", M::March),
        (Card::Bombard4, "Bombard", M::Bombard),
        (Card::Rally4, "Rally", M::Rally),
        (Card::Volley4, "Volley", M::Volley),
    ] {
        for (k, span) in [4, 6, 8, 10].into_iter().enumerate() {
            let card = Card::from_idx(first.idx() + k).unwrap();
            assert_eq!(card.as_str(), format!("{}_{span}", name.to_lowercase()));
            assert_eq!(row(card), (name, Some(span), Some(symbol), None, 1));
        }
    }
    assert_eq!(row(Card::Orders12), ("Orders", Some(12), None, None, 2));
    assert_eq!(row(Card::Orders16), ("Orders", Some(16), None, None, 2));
    assert_eq!(row(Card::Reshuffle), ("Reshuffle", None, None, None, 2));
    assert!(Card::ALL.iter().all(|c| c.is_playable() != (*c == Card::Reshuffle)));
    assert_eq!(Card::ALL.iter().position(|&c| c == Card::Orders16), Some(28));
    assert!(CARDS.iter().all(|c| !c.effect.is_empty()));
}

#[test]
fn maurice_s1_unit_type_table() {
    let row = |t: UnitType| (t.bases(), t.combat_value(), t.rally_on(), t.broken_at());
    assert_eq!(row(UnitType::Inf), (4, 6, 4, 5));
    assert_eq!(row(UnitType::Cav), (4, 6, 5, 5));
    assert_eq!(row(UnitType::Art), (1, 1, 5, 2));
}

#[test]
fn maurice_s2_red_is_blue_turned() {
    for id in ScenarioId::ALL {
        let s = scenario(*id);
        for (b, r) in s.units(Side::Blue).iter().zip(s.units(Side::Red)) {
            assert_eq!((r.id, r.kind, r.formation), (b.id, b.kind, b.formation));
            assert_eq!(r.at, Cell::new(44 - b.at.x, 29 - b.at.y));
            assert_eq!(r.facing, Facing::S);
            let mut bc: Vec<Cell> = footprint(b.formation, b.at, b.facing).as_slice().iter().map(|&c| turned(c)).collect();
            let mut rc = footprint(r.formation, r.at, r.facing).as_slice().to_vec();
            bc.sort();
            rc.sort();
            assert_eq!(bc, rc, "the turned unit covers the turned cells");
            assert!(rc.iter().all(|c| c.y >= 20) && b.at.y <= 9);
        }
        assert_eq!(s.cinc[1], turned(s.cinc[0]));
        for c in Cell::all() {
            let t = turned(c);
            assert_eq!(s.terrain.kind(c), s.terrain.kind(t));
            assert_eq!(s.terrain.level(c), s.terrain.level(t));
        }
    }
}

const STANDARD_MAP: &str = "29  .............................................
28  .............................................
27  ......................R......................
26  .............................................
25  ................iiii.....iiii................
24  .............................................
23  .cc.cc................................cc.cc..
22  .cc.cc.iiiiaiiii.iiiiaiiii.iiiiaiiii..cc.cc..
21  .............................................
20  .............................................
19  ....TTTTT.....~~~~...........................
18  ....TTTTT.....~~~~................^^^^^^.....
17  ....TTTTT...................%%%%..^^^^^^.....
16  ##..................TTTTT...%%%%..^^^^^^.....
             =====
15  ##..................TTTTT.........^^^^^^.....
14  .....^^^^^^.........TTTTT..................##
                                   =====
13  .....^^^^^^..%%%%...TTTTT..................##
12  .....^^^^^^..%%%%...................TTTTT....
11  .....^^^^^^................~~~~.....TTTTT....
10  ...........................~~~~.....TTTTT....
 9  .............................................
 8  .............................................
 7  ..CC.CC..IIIIAIIII.IIIIAIIII.IIIIAIIII.CC.CC.
 6  ..CC.CC................................CC.CC.
 5  .............................................
 4  ................IIII.....IIII................
 3  .............................................
 2  ......................B......................
 1  .............................................
 0  .............................................
    000000000011111111112222222222333333333344444
    012345678901234567890123456789012345678901234";

#[test]
fn maurice_s3_standard_matches_the_map() {
    let s = scenario(ScenarioId::Standard);
    assert_eq!(s.units(Side::Blue).len(), 15);
    let lines: Vec<&str> = STANDARD_MAP.lines().collect();
    let mut seen_rows = 0;
    let mut units = [[None::<char>; 45]; 30];
    for (i, line) in lines.iter().enumerate() {
        let head = &line[..4];
        let Ok(y) = head.trim().parse::<usize>() else { continue };
        if line.len() < 49 || lines.get(i + 1).is_none() {
            continue;
        }
        seen_rows += 1;
        for (x, ch) in line[4..].chars().enumerate() {
            let c = Cell::new(x as i8, y as i8);
            let (kind, hill) = match ch {
                'T' => (TerrainType::Woods, 0),
                '%' => (TerrainType::Rough, 0),
                '~' => (TerrainType::Marsh, 0),
                '#' => (TerrainType::Lake, 0),
                '^' => (TerrainType::Open, 1),
                _ => (TerrainType::Open, 0),
            };
            assert_eq!((s.terrain.kind(c), s.terrain.level(c)), (kind, hill), "cell ({x}, {y})");
            if ch.is_ascii_alphabetic() && ch != 'T' {
                units[y][x] = Some(ch);
            }
        }
        // A wall line under row y lies on the north edges of row y − 1.
        let below = lines[i + 1];
        for x in 0..45 {
            let marked = below.as_bytes().get(x + 4) == Some(&b'=');
            if y > 0 {
                assert_eq!(s.terrain.wall_n[Cell::new(x as i8, y as i8 - 1).index()], marked, "wall under ({x}, {y})");
            }
        }
    }
    assert_eq!(seen_rows, 30);
    for y in 0..30 {
        for x in 0..45 {
            assert!(!s.terrain.wall_e[Cell::new(x, y).index()]);
        }
    }
    let mut want = [[None::<char>; 45]; 30];
    for side in Side::ALL {
        for u in s.units(*side) {
            let letter = match u.kind {
                UnitType::Inf => 'I',
                UnitType::Cav => 'C',
                UnitType::Art => 'A',
            };
            let letter = if *side == Side::Red { letter.to_ascii_lowercase() } else { letter };
            for c in footprint(u.formation, u.at, u.facing).as_slice() {
                want[c.y as usize][c.x as usize] = Some(letter);
            }
        }
    }
    want[2][22] = Some('B');
    want[27][22] = Some('R');
    assert_eq!(units, want);
    assert_eq!(s.cinc, [Cell::new(22, 2), Cell::new(22, 27)]);
}

#[test]
fn maurice_s4_skirmish() {
    let s = scenario(ScenarioId::Skirmish);
    let blue: Vec<(u8, UnitType, Formation, i8, i8)> =
        s.units(Side::Blue).iter().map(|u| (u.id, u.kind, u.formation, u.at.x, u.at.y)).collect();
    use Formation::*;
    use UnitType::*;
    assert_eq!(
        blue,
        [
            (0, Inf, Line, 14, 7),
            (1, Inf, Line, 19, 7),
            (2, Inf, Line, 24, 7),
            (3, Inf, Line, 29, 7),
            (4, Cav, Massed, 9, 7),
            (5, Cav, Massed, 34, 7),
            (6, Art, Artillery, 23, 7)
        ]
    );
    assert_eq!(s.cinc, [Cell::new(22, 4), Cell::new(22, 25)]);
    assert_eq!(s.terrain, scenario(ScenarioId::Standard).terrain);
}

#[test]
fn maurice_s6_army_morale_is_half_the_units_rounded_up() {
    assert_eq!(starting_morale(15), 8);
    assert_eq!(starting_morale(7), 4);
    assert_eq!(starting_morale(8), 4);
    for (id, m) in [(ScenarioId::Standard, 8), (ScenarioId::Skirmish, 4)] {
        let st = maurice::new_game(3, &maurice::Setup { scenario: id, ..Default::default() }).unwrap();
        assert_eq!(st.armies.iter().map(|a| (a.morale, a.morale_start)).collect::<Vec<_>>(), [(m, m), (m, m)]);
    }
}

#[test]
fn maurice_action_table_matches_the_api() {
    let names = action_names();
    assert_eq!(names.len(), 1447);
    let expect = [
        (0, "volley"),
        (1, "no_volley"),
        (2, "pass"),
        (6, "rally"),
        (7, "confirm_force"),
        (8, "give_up"),
        (9, "decline"),
        (10, "end_fire"),
        (11, "unit_done"),
        (12, "unit_cancel"),
        (13, "end_moves"),
        (14, "end_charges"),
        (15, "aim:left"),
        (16, "aim:right"),
        (17, "charge:straight"),
        (19, "charge:oblique_right"),
        (20, "move:forward"),
        (24, "move:wheel_front_left"),
        (32, "move:about_face"),
        (33, "form:line_left"),
        (43, "form:massed_centre"),
        (51, "form:line_rear_both"),
        (52, "unit:0"),
        (67, "unit:15"),
        (68, "card:unexpected_delay"),
        (74, "card:valeur_et_discipline"),
        (96, "card:orders_16"),
        (97, "cell:0:0"),
        (98, "cell:1:0"),
        (142, "cell:0:1"),
        (97 + 45 * 2 + 22, "cell:22:2"),
        (1446, "cell:44:29"),
    ];
    for (i, name) in expect {
        assert_eq!(names[i], name, "index {i}");
        assert_eq!(maurice::action_from_str(name).unwrap(), i);
        assert_eq!(action_to_str(i as i64).unwrap(), name);
        assert_eq!(decode(i as i64).unwrap().name(), name);
        assert_eq!(decode(i as i64).unwrap().index(), Some(i));
    }
    let unique: std::collections::HashSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), 1447);
    for (i, n) in names.iter().enumerate() {
        assert_eq!(maurice::action_from_str(n).unwrap(), i);
    }
    assert!(decode(1447).is_err() && decode(-1).is_err());
    assert!(maurice::action_from_str("card:reshuffle").is_err());
    assert_eq!(Action::Cell(Cell::new(45, 0)).index(), None);
    let count = |p: &str| names.iter().filter(|n| n.starts_with(p)).count();
    assert_eq!((count("move:"), count("form:"), count("unit:"), count("card:"), count("cell:")), (13, 19, 16, 29, 1350));
}

#[test]
fn maurice_observation_layout_matches_the_api() {
    let want: [(&str, usize, usize); 25] = [
        ("self", 0, 2),
        ("phase", 2, 21),
        ("to_move", 23, 2),
        ("active", 25, 2),
        ("round", 27, 1),
        ("morale", 28, 4),
        ("hand", 32, 29),
        ("hand_new", 61, 29),
        ("hand_sizes", 90, 2),
        ("deck_size", 92, 1),
        ("discard", 93, 29),
        ("removed", 122, 1),
        ("command", 123, 6),
        ("activation", 129, 4),
        ("interrupt", 133, 3),
        ("modifiers", 136, 116),
        ("volley", 252, 3),
        ("night", 255, 1),
        ("cinc", 256, 4),
        ("displaced", 260, 2),
        ("owed", 262, 2),
        ("aim", 264, 8),
        ("moving", 272, 12),
        ("units", 284, 800),
        ("planes", 1084, 20250),
    ];
    assert_eq!(observation_layout(ObservationKind::Full), &want[..]);
    assert_eq!(observation_layout(ObservationKind::Compact), &want[..24]);
    let (_, o, l) = want[24];
    assert_eq!(o + l, 21334);
    assert_eq!(UNIT_FEATURES.len(), 25);
    assert_eq!(PLANES.len(), 15);
    assert_eq!(UNIT_FEATURES[0], "present");
    assert_eq!(UNIT_FEATURES[24], "moving");
    assert_eq!(PLANES[5], "wall_n");
    assert_eq!(PLANES[14], "enemy_cinc");
}

#[test]
fn maurice_observation_values_are_in_range_and_placed() {
    let s = maurice::new_game(4, &Default::default()).unwrap();
    for side in Side::ALL {
        let full = maurice::observation(&s, *side, ObservationKind::Full);
        let compact = maurice::observation(&s, *side, ObservationKind::Compact);
        assert_eq!(full.len(), 21334);
        assert_eq!(compact.len(), 1084);
        assert_eq!(&full[..1084], &compact[..]);
        assert!(full.iter().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!(full[side.idx()], 1.0);
        assert_eq!(full[2 + Phase::VolleyChoice.idx()], 1.0);
        // The hands are 6 cards each: 6/40.
        assert_eq!(&full[90..92], &[6.0 / 40.0, 6.0 / 40.0]);
        assert_eq!(full[92], 28.0 / 40.0);
        let hand: f32 = full[32..61].iter().sum();
        assert!((hand - 3.0).abs() < 1e-6, "six cards, /2");
    }
    let o = maurice::observation(&s, Side::Blue, ObservationKind::Full);
    // Own unit 0, an inf line facing n at (9, 7).
    let row = &o[284..284 + 25];
    assert_eq!(&row[..12], &[1., 1., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0.]);
    assert_eq!((row[12], row[13]), (9.0 / 44.0, 7.0 / 29.0));
    // Enemy unit 0, in the second block of 16 rows, faces s.
    let row = &o[284 + 16 * 25..284 + 17 * 25];
    assert_eq!(&row[8..12], &[0., 0., 1., 0.]);
    // Rows of ids not in play are zeros.
    assert!(o[284 + 15 * 25..284 + 16 * 25].iter().all(|&v| v == 0.0));
    let plane = |p: usize, x: usize, y: usize| o[1084 + 1350 * p + 45 * y + x];
    assert_eq!(plane(0, 22, 14), 1.0, "woods");
    assert_eq!(plane(3, 0, 15), 1.0, "lake");
    assert_eq!(plane(4, 5, 11), 1.0, "hill");
    assert_eq!(plane(5, 31, 13), 1.0, "wall_n");
    assert_eq!(plane(7, 9, 7), 1.0, "own inf");
    assert_eq!(plane(12, 31, 22), 1.0, "enemy art at (31, 22)");
    assert_eq!(plane(13, 22, 2), 1.0, "own CinC");
    assert_eq!(plane(14, 22, 27), 1.0, "enemy CinC");
    let u8row = {
        let mut out = vec![0u8; 21334];
        maurice::write_observation(&s, Side::Blue, &mut out);
        out
    };
    assert_eq!(u8row[90], 6);
    assert_eq!(u8row[284 + 12], 9);
}
