//! RULES.md G and T: the grid, frames and footprints, distance, contact, lanes, walls, hills and
//! difficult terrain.

mod maurice_common;
use maurice_common::*;
use maquis::maurice::grid::{footprint, in_contact, lanes, touching_edge, Cell, Edge, Frame, Vec2};
use maquis::maurice::rules::fire::{lane_target, LaneTarget, Range};
use maquis::maurice::setup::TerrainChoice;
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{self, Facing, Formation, Side, TerrainType};

fn cells(f: Formation, x: i8, y: i8, facing: Facing) -> Vec<(i8, i8)> {
    footprint(f, c(x, y), facing).as_slice().iter().map(|c| (c.x, c.y)).collect()
}

#[test]
fn maurice_g1_table_is_45_by_30() {
    assert!(c(0, 0).on_table() && c(44, 29).on_table());
    assert!(!c(45, 0).on_table() && !c(0, 30).on_table() && !c(-1, 3).on_table());
    assert_eq!(Cell::all().count(), 1350);
    assert_eq!(c(44, 29).index(), 1349);
    // A unit may not hang off the table.
    let setup = position(&[inf(0, 42, 5, Facing::N)], &[inf(0, 20, 24, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[]));
    assert!(maurice::new_game(0, &setup).is_err());
}

#[test]
fn maurice_g2_directions_and_neighbours() {
    assert_eq!([Facing::N, Facing::E, Facing::S, Facing::W].map(|f| f.vec()), [Vec2(0, 1), Vec2(1, 0), Vec2(0, -1), Vec2(-1, 0)]);
    assert_eq!([Facing::N, Facing::E, Facing::S, Facing::W].map(|f| f.right()), [Facing::E, Facing::S, Facing::W, Facing::N]);
    assert_eq!([Facing::N, Facing::E, Facing::S, Facing::W].map(|f| f.left()), [Facing::W, Facing::N, Facing::E, Facing::S]);
    assert_eq!(Facing::E.about(), Facing::W);
    let n: Vec<Cell> = c(5, 5).neighbours().collect();
    assert_eq!(n.len(), 8);
    assert!(n.iter().all(|&x| x.chebyshev(c(5, 5)) == 1));
}

#[test]
fn maurice_g3_footprints_and_frames() {
    assert_eq!(cells(Formation::Line, 9, 7, Facing::N), [(9, 7), (10, 7), (11, 7), (12, 7)]);
    assert_eq!(cells(Formation::Line, 9, 7, Facing::E), [(9, 7), (9, 6), (9, 5), (9, 4)]);
    assert_eq!(cells(Formation::Column, 9, 7, Facing::N), [(9, 7), (9, 6), (9, 5), (9, 4)]);
    assert_eq!(cells(Formation::Column, 9, 7, Facing::W), [(9, 7), (10, 7), (11, 7), (12, 7)]);
    assert_eq!(cells(Formation::Massed, 2, 7, Facing::N), [(2, 7), (3, 7), (2, 6), (3, 6)]);
    assert_eq!(cells(Formation::Massed, 2, 7, Facing::S), [(2, 7), (1, 7), (2, 8), (1, 8)]);
    assert_eq!(cells(Formation::Artillery, 13, 7, Facing::E), [(13, 7)]);
    let f = Frame::new(c(10, 10), Facing::E);
    assert_eq!(f.cell(2, 1), c(11, 8));
    assert_eq!(f.coords(c(11, 8)), (2, 1));
}

#[test]
fn maurice_g4_distance_is_chebyshev_around_lakes() {
    let t = Terrain::open();
    assert_eq!(t.distance(&[c(0, 0)], &[c(1, 1)]), Some(0), "diagonal neighbours are at 0");
    assert_eq!(t.distance(&[c(0, 0)], &[c(5, 2)]), Some(4));
    assert!(t.within(&[c(0, 0)], &[c(5, 2)], 4) && !t.within(&[c(0, 0)], &[c(6, 2)], 4));
    let unit = footprint(Formation::Line, c(10, 10), Facing::N);
    assert_eq!(t.distance(unit.as_slice(), &[c(15, 12)]), Some(1), "the least over the unit's cells");
    // A lake wall between two cells forces a detour …
    let mut lake = Terrain::open();
    for y in 0..10 {
        lake.set_kind(c(5, y), TerrainType::Lake);
    }
    assert_eq!(lake.distance(&[c(3, 0)], &[c(7, 0)]), Some(19), "up to (5, 10), the end of the lake, and back: 20 steps");
    assert_eq!(Terrain::open().distance(&[c(3, 0)], &[c(7, 0)]), Some(3));
    // … and a closed ring of lakes leaves no path at all.
    let mut ring = Terrain::open();
    for x in 0..3 {
        for y in 0..3 {
            if (x, y) != (1, 1) {
                ring.set_kind(c(10 + x, 10 + y), TerrainType::Lake);
            }
        }
    }
    assert_eq!(ring.distance(&[c(11, 11)], &[c(20, 20)]), None);
    assert!(!ring.within(&[c(11, 11)], &[c(20, 20)], 100));
    assert_eq!(ring.distance(&[c(11, 11)], &[c(10, 10)]), Some(0), "the end cells may be lakes");
}

#[test]
fn maurice_g5_near_the_enemy_is_within_4() {
    let red_at = |y| {
        let setup = position(&[inf(0, 10, 5, Facing::N)], &[inf(0, 13, y, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[]));
        start(&setup)
    };
    let near = |s: &maurice::State| s.near_enemy(Side::Blue, s.unit(Side::Blue, 0).cells());
    assert!(near(&red_at(10)), "4 cells between rows 5 and 10");
    assert!(!near(&red_at(11)));
}

#[test]
fn maurice_g6_contact_is_across_edges() {
    let frame = Frame::new(c(10, 10), Facing::N);
    assert_eq!(touching_edge(frame, Formation::Line, c(12, 11)), Some(Edge::Front));
    assert_eq!(touching_edge(frame, Formation::Line, c(9, 10)), Some(Edge::Flank));
    assert_eq!(touching_edge(frame, Formation::Line, c(14, 10)), Some(Edge::Flank));
    assert_eq!(touching_edge(frame, Formation::Line, c(13, 9)), Some(Edge::Rear));
    assert_eq!(touching_edge(frame, Formation::Line, c(9, 11)), None, "a corner is no contact");
    assert_eq!(touching_edge(frame, Formation::Massed, c(10, 8)), Some(Edge::Rear));
    assert_eq!(touching_edge(frame, Formation::Massed, c(12, 9)), Some(Edge::Flank));
    assert!(in_contact(&[c(1, 1)], &[c(1, 2)]) && !in_contact(&[c(1, 1)], &[c(2, 2)]));
}

#[test]
fn maurice_g7_three_lanes() {
    assert_eq!(lanes(Facing::N), [Vec2(0, 1), Vec2(-1, 1), Vec2(1, 1)]);
    assert_eq!(lanes(Facing::E), [Vec2(1, 0), Vec2(1, 1), Vec2(1, -1)]);
    // The lane stops at the table edge: nothing beyond it is found.
    let setup = position(&[art(0, 22, 27, Facing::N)], &[inf(0, 10, 20, Facing::S)], [c(22, 2), c(22, 20)], deal(&[], &[], &[], &[]));
    let s = start(&setup);
    assert_eq!(lane_target(&s, Side::Blue, c(22, 27), Vec2(0, 1), Range::Long), LaneTarget::None);
}

#[test]
fn maurice_g8_walls_on_edges_and_diagonals() {
    let mut t = Terrain::open();
    t.wall_n[c(5, 5).index()] = true;
    assert!(t.crosses_wall(c(5, 5), c(5, 6)) && t.crosses_wall(c(5, 6), c(5, 5)));
    assert!(!t.crosses_wall(c(5, 5), c(6, 5)));
    // A diagonal crosses only when both detours do: past the wall's end it does not.
    assert!(!t.crosses_wall(c(5, 5), c(6, 6)));
    t.wall_n[c(6, 5).index()] = true;
    assert!(t.crosses_wall(c(5, 5), c(6, 6)));
    t.wall_e[c(3, 3).index()] = true;
    assert!(t.crosses_wall(c(4, 3), c(3, 3)) && !t.crosses_wall(c(3, 3), c(3, 4)));
}

#[test]
fn maurice_g9_hills_hide_what_lies_behind() {
    let mut t = Terrain::open();
    t.hill[c(10, 12).index()] = true;
    let v = Vec2(0, 1);
    assert!(!t.lane_hidden(c(10, 10), v, 2), "the hill cell itself is at level 1");
    assert!(t.lane_hidden(c(10, 10), v, 3), "behind the hill, both low");
    t.hill[c(10, 10).index()] = true;
    assert!(!t.lane_hidden(c(10, 10), v, 3), "a viewer on a hill sees over it");
}

#[test]
fn maurice_g10_unit_in_difficult_terrain() {
    let mut t = Terrain::open();
    let line = footprint(Formation::Line, c(10, 10), Facing::N);
    assert!(!t.unit_in_difficult(line.as_slice()));
    t.wall_e[c(11, 10).index()] = true;
    assert!(t.unit_in_difficult(line.as_slice()), "a wall between two of its cells");
    let mut t = Terrain::open();
    t.set_kind(c(13, 10), TerrainType::Rough);
    assert!(t.unit_in_difficult(line.as_slice()));
    t.set_kind(c(13, 10), TerrainType::Open);
    t.hill[c(13, 10).index()] = true;
    assert!(!t.unit_in_difficult(line.as_slice()), "hills are not difficult");
}

#[test]
fn maurice_t1_terrain_effects() {
    // Lakes are impassable (distance), woods obstruct fire, walls give the F4 obstruction; rough
    // and marsh obstruct nothing.
    let mut t = Terrain::open();
    t.set_kind(c(20, 12), TerrainType::Woods);
    let setup = |t: Terrain| {
        position_on(t, &[art(0, 20, 5, Facing::N)], &[inf(0, 21, 14, Facing::S)], [c(22, 2), c(22, 27)], deal(&[], &[], &[], &[]))
    };
    let s = start(&setup(t));
    assert!(matches!(lane_target(&s, Side::Blue, c(20, 5), Vec2(0, 1), Range::Long), LaneTarget::Blocked { hidden_or_obstructed: true, .. }));
    let mut t = Terrain::open();
    t.set_kind(c(20, 12), TerrainType::Rough);
    t.set_kind(c(20, 11), TerrainType::Marsh);
    let s = start(&setup(t));
    assert!(matches!(lane_target(&s, Side::Blue, c(20, 5), Vec2(0, 1), Range::Long), LaneTarget::Target { k: 9, .. }));
    let mut t = Terrain::open();
    t.set_kind(c(20, 12), TerrainType::Lake);
    let s = start(&setup(t));
    assert!(matches!(lane_target(&s, Side::Blue, c(20, 5), Vec2(0, 1), Range::Long), LaneTarget::Target { .. }), "lakes do not obstruct fire");
    assert!(!s.terrain.passable(c(20, 12)));
}

#[test]
fn maurice_t2_difficult_terrain_types() {
    let difficult: Vec<bool> = TerrainType::ALL.iter().map(|t| t.is_difficult()).collect();
    assert_eq!(difficult, [false, true, true, true, false]);
    let s = start(&maurice::Setup { terrain: TerrainChoice::Scenario, ..Default::default() });
    assert!(s.terrain.is_difficult(c(22, 14)) && !s.terrain.is_difficult(c(5, 11)));
}
