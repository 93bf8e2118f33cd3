//! API.md "Observation": what one side may see (O1–O3), 21334 values in [0, 1] (1084 compact).
//! The layout table is recorded by the code that writes the slices, so the two cannot drift apart.
//! Every value is a count over a fixed divisor (`ObsValue::ratio`), so the same code writes the
//! float32 row and the uint8 row.

use super::cards::{Card, PLAYABLE};
use super::ids::{
    Command, Phase, Side, TerrainType, COMPACT_OBSERVATION_SIZE, HEIGHT, MAX_UNITS, OBSERVATION_SIZE, WIDTH,
};
use super::rules::movement::allowance;
use super::state::{Mode, Pending, State};
use crate::obs_value::{one_hot, ObsValue, SliceWriter as Writer};
pub use crate::obs_value::Layout;
use std::sync::OnceLock;

/// The full observation, or the compact one that stops before the maps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ObservationKind {
    #[default]
    Full,
    Compact,
}

impl ObservationKind {
    pub const fn size(self) -> usize {
        match self {
            ObservationKind::Full => OBSERVATION_SIZE,
            ObservationKind::Compact => COMPACT_OBSERVATION_SIZE,
        }
    }
}

/// `UNIT_FEATURES` of API.md, in order.
pub const UNIT_FEATURES: [&str; 25] = [
    "present", "inf", "cav", "art", "line", "column", "massed", "artillery", "n", "e", "s", "w", "x", "y", "disr",
    "smoke", "fired", "in_force", "done", "charged", "engaged", "near", "difficult", "command_distance", "moving",
];

/// `PLANES` of API.md, in order.
pub const PLANES: [&str; 15] = [
    "woods", "rough", "marsh", "lake", "hill", "wall_n", "wall_e", "own_inf", "own_cav", "own_art", "enemy_inf",
    "enemy_cav", "enemy_art", "own_cinc", "enemy_cinc",
];

fn ratio<T: ObsValue>(n: usize, d: u8) -> T {
    T::ratio(n.min(d as usize) as u8, d)
}

/// Writes `side`'s observation of `s` into `out` (its length picks the kind: 21334 or 1084).
pub fn write_observation<T: ObsValue>(s: &State, side: Side, out: &mut [T]) {
    write(s, side, &mut Writer::new(out, None));
}

/// `side`'s observation of `s`, as floats.
pub fn observation(s: &State, side: Side, kind: ObservationKind) -> Vec<f32> {
    let mut out = vec![0.0; kind.size()];
    write_observation(s, side, &mut out);
    out
}

/// `OBSERVATION_LAYOUT` (full) or `COMPACT_OBSERVATION_LAYOUT` of API.md.
pub fn observation_layout(kind: ObservationKind) -> &'static [(&'static str, usize, usize)] {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    let full = LAYOUT.get_or_init(|| {
        let s = super::setup::new_game(0, &Default::default()).expect("the standard game starts");
        let mut layout = Layout::new();
        let mut out = vec![0.0f32; OBSERVATION_SIZE];
        write(&s, Side::Blue, &mut Writer::new(&mut out, Some(&mut layout)));
        layout
    });
    match kind {
        ObservationKind::Full => full,
        ObservationKind::Compact => &full[..full.len() - 1],
    }
}

fn card_counts<T: ObsValue>(slice: &mut [T], count: impl Fn(Card) -> u8) {
    for c in Card::playable() {
        slice[c.idx()] = ratio(count(c) as usize, 2);
    }
}

/// `s.near_enemy(side, u.cells())`, from `side`'s zone (`near_zone`: G5 exactly on the table).
fn near(zone: &[u64; HEIGHT], u: &crate::maurice::state::Unit) -> bool {
    crate::maurice::rules::command_distance::has_any(zone, u.cells())
}

fn write<T: ObsValue>(s: &State, me: Side, w: &mut Writer<T>) {
    let you = me.other();
    let sides = [me, you];
    let (mine, theirs) = (s.army(me), s.army(you));

    one_hot(w.slice("self", 2), me.idx());
    one_hot(w.slice("phase", Phase::COUNT), s.phase.idx());
    let to_move = w.slice("to_move", 2);
    if let Some(side) = s.to_move {
        one_hot(to_move, side.idx());
    }
    one_hot(w.slice("active", 2), s.active.idx());
    w.slice("round", 1)[0] = ratio(s.round_no as usize, 255);
    let morale = w.slice("morale", 4);
    for (i, a) in [mine, theirs].iter().enumerate() {
        morale[i] = ratio(a.morale as usize, 8);
        morale[2 + i] = ratio(a.morale_start as usize, 8);
    }
    card_counts(w.slice("hand", PLAYABLE), |c| mine.hand.get(c));
    card_counts(w.slice("hand_new", PLAYABLE), |c| mine.drawn.get(c));
    let sizes = w.slice("hand_sizes", 2);
    sizes[0] = ratio(mine.hand.total(), 40);
    sizes[1] = ratio(theirs.hand.total(), 40);
    w.slice("deck_size", 1)[0] = ratio(s.deck.len(), 40);
    // One pass over the pile rather than one per card type.
    let mut discard = [0u8; PLAYABLE];
    for d in &s.discard {
        if let Some(n) = discard.get_mut(d.idx()) {
            *n = n.saturating_add(1);
        }
    }
    card_counts(w.slice("discard", PLAYABLE), |c| discard[c.idx()]);
    w.slice("removed", 1)[0] = ratio(s.removed.len(), 2);
    let command = w.slice("command", Command::COUNT);
    if let Some(c) = s.round.command {
        one_hot(command, c.idx());
    }
    let r = &s.round;
    let activation = w.slice("activation", 4);
    activation[0] = ratio(r.span_played.iter().map(|c| c.span() as usize).sum(), 40);
    let distance = r.distance.map(|d| d + if r.delayed { super::rules::activation::DELAY } else { 0 });
    activation[1] = ratio(distance.map_or(0, |d| d.min(64) as usize), 64);
    activation[2] = T::bit(r.delayed as u32);
    activation[3] = T::bit(r.activated as u32);
    let interrupt = w.slice("interrupt", 3);
    match r.interrupt {
        Some(Card::UnexpectedDelay) => interrupt[0] = T::ON,
        Some(Card::FirstFire) => interrupt[1] = T::ON,
        Some(Card::RoughGoing) => interrupt[2] = T::ON,
        _ => {}
    }
    let modifiers = w.slice("modifiers", 4 * PLAYABLE);
    for (block, (side, which)) in [(me, 0), (you, 0), (me, 1), (you, 1)].into_iter().enumerate() {
        if let Some(c) = r.modifiers[side.idx()][which] {
            modifiers[block * PLAYABLE + c.idx()] = T::ON;
        }
    }
    let volley = w.slice("volley", 3);
    volley[0] = T::bit(r.volley as u32);
    if let Some(f) = r.fire.as_ref().filter(|f| !f.bombard) {
        volley[if f.side == me { 1 } else { 2 }] = T::ON;
    }
    w.slice("night", 1)[0] = T::bit(s.night_pass_last_round as u32);
    let cinc = w.slice("cinc", 4);
    for (i, a) in [mine, theirs].iter().enumerate() {
        cinc[2 * i] = ratio(a.cinc.x as usize, 44);
        cinc[2 * i + 1] = ratio(a.cinc.y as usize, 29);
    }
    let displaced = w.slice("displaced", 2);
    displaced[0] = T::bit(mine.displaced as u32);
    displaced[1] = T::bit(theirs.displaced as u32);
    let owed = w.slice("owed", 2);
    match s.pending {
        Pending::HandLimit { side, count } if side == me => owed[0] = ratio(count as usize, 10),
        Pending::Penalty { side } if side == me => owed[1] = T::ON,
        _ => {}
    }
    let aim = w.slice("aim", 8);
    if s.phase == Phase::Aim {
        if let Some((a, left, right)) = super::rules::fire::volley::aim_options(s) {
            one_hot(&mut aim[..4], a);
            aim[4] = ratio(left.target.x as usize, 44);
            aim[5] = ratio(left.target.y as usize, 29);
            aim[6] = ratio(right.target.x as usize, 44);
            aim[7] = ratio(right.target.y as usize, 29);
        }
    }
    let moving = w.slice("moving", 12);
    if let Some(mv) = &r.moving {
        let u = s.unit(s.active, mv.id);
        let limit = if u.kind == crate::maurice::ids::UnitType::Art {
            allowance::basic(u) + allowance::march_modifier(s)
        } else {
            allowance::allowance(s, u, mv.near, mv.mode)
        };
        moving[0] = ratio(mv.spent as usize, 20);
        moving[1] = ratio(limit.max(0) as usize, 20);
        moving[2] = T::bit((mv.mode == Some(Mode::Retrograde)) as u32);
        moving[3] = T::bit(mv.near as u32);
        moving[4] = T::bit(mv.difficult as u32);
        moving[5] = T::bit(mv.about_faced as u32);
        moving[6] = T::bit(mv.formed as u32);
        moving[7] = T::bit(mv.over as u32);
        moving[8] = ratio(mv.interpenetrated.count_ones() as usize, 4);
        moving[9] = ratio(mv.start.at.x as usize, 44);
        moving[10] = ratio(mv.start.at.y as usize, 29);
        moving[11] = T::bit(mv.supporting as u32);
    }
    let units = w.slice("units", 2 * MAX_UNITS * UNIT_FEATURES.len());
    for (block, &side) in sides.iter().enumerate() {
        let (map, zone, difficult) = super::rules::command_distance::observed(s, side);
        for u in s.units(side) {
            let row = &mut units[(block * MAX_UNITS + u.id as usize) * UNIT_FEATURES.len()..][..UNIT_FEATURES.len()];
            row[0] = T::ON;
            row[1 + u.kind.idx()] = T::ON;
            row[4 + u.formation.idx()] = T::ON;
            row[8 + u.facing.idx()] = T::ON;
            row[12] = ratio(u.at.x as usize, 44);
            row[13] = ratio(u.at.y as usize, 29);
            row[14] = ratio(u.disr as usize, 4);
            row[15] = T::bit(u.smoke as u32);
            row[16] = T::bit(u.fired as u32);
            let own_round = side == s.active;
            row[17] = T::bit((own_round && r.force >> u.id & 1 == 1) as u32);
            row[18] = T::bit((own_round && r.done >> u.id & 1 == 1) as u32);
            row[19] = T::bit((own_round && r.charged >> u.id & 1 == 1) as u32);
            row[20] = T::bit((r.engaged[side.idx()][u.id as usize] != 0) as u32);
            row[21] = T::bit(near(&zone, u) as u32);
            row[22] = T::bit(difficult.unit_in(&s.terrain, u.cells()) as u32);
            row[23] = ratio(map.to_unit(u).map_or(64, |d| d.min(64) as usize), 64);
            row[24] = T::bit((own_round && r.moving.as_ref().is_some_and(|m| m.id == u.id)) as u32);
        }
    }
    if w.out.len() < OBSERVATION_SIZE {
        return;
    }
    let planes = w.slice("planes", PLANES.len() * CELLS);
    write_terrain_planes(&s.terrain, planes);
    set_unit_planes(s, sides, planes);
}

/// The cells of a map plane.
const CELLS: usize = HEIGHT * WIDTH;
/// Where the CinCs' cells and the units' rows start in a row (`observation_layout`).
const CINC_AT: usize = 256;
const UNITS_AT: usize = 284;

/// The terrain's planes (`woods` … `wall_e`) into zeroed planes.
fn write_terrain_planes<T: ObsValue>(t: &super::terrain::Terrain, planes: &mut [T]) {
    for i in 0..CELLS {
        let plane = match t.kind[i] {
            TerrainType::Woods => Some(0),
            TerrainType::Rough => Some(1),
            TerrainType::Marsh => Some(2),
            TerrainType::Lake => Some(3),
            TerrainType::Open => None,
        };
        if let Some(p) = plane {
            planes[p * CELLS + i] = T::ON;
        }
        planes[4 * CELLS + i] = T::bit(t.hill[i] as u32);
        planes[5 * CELLS + i] = T::bit(t.wall_n[i] as u32);
        planes[6 * CELLS + i] = T::bit(t.wall_e[i] as u32);
    }
}

/// Sets the cells of `sides`' units and CinCs on their planes (`own_inf` … `enemy_cinc`).
fn set_unit_planes<T: ObsValue>(s: &State, sides: [Side; 2], planes: &mut [T]) {
    for (block, &side) in sides.iter().enumerate() {
        for u in s.units(side) {
            let p = 7 + 3 * block + u.kind.idx();
            for &c in u.cells() {
                planes[p * CELLS + c.index()] = T::ON;
            }
        }
        planes[(13 + block) * CELLS + s.army(side).cinc.index()] = T::ON;
    }
}

/// `write_observation` into `row`, which holds (if `kept`) `side`'s full observation of an
/// earlier position of the same game: then the terrain's planes stay as they are (a game's terrain
/// never changes), and the units' and CinCs' planes change only if one of them has moved (or
/// left the table, or was moving): their cells then are cleared and every unit's and CinC's cells
/// now set, instead of 20,250 values written anew.
pub fn update_observation<T: ObsValue>(s: &State, side: Side, row: &mut [T], kept: bool) {
    if !kept || row.len() != OBSERVATION_SIZE {
        return write_observation(s, side, row);
    }
    let (head, planes) = row.split_at_mut(COMPACT_OBSERVATION_SIZE);
    let mut now = [T::OFF; COMPACT_OBSERVATION_SIZE];
    write(s, side, &mut Writer::new(&mut now[..], None));
    if clear_moved(head, &now, planes) {
        set_unit_planes(s, [side, side.other()], planes);
    }
    head.copy_from_slice(&now);
}

/// Clears on the planes the cells that the units and CinCs of `old` (the compact part of the
/// row the planes belong to) covered, for those whose cells may differ in `now` (the compact
/// part that replaces it), read back from their rows: a unit's footprint (its cells but for a
/// column on the move, M3), and for a moving unit every cell within 3 of its front-left cell (a
/// column's snake of four cells from its head). Whether any unit or CinC may have other cells
/// now: their cells are then set by `set_unit_planes`, which also sets again a cell cleared
/// here that another unit still covers.
fn clear_moved<T: ObsValue>(old: &[T], now: &[T], planes: &mut [T]) -> bool {
    use super::grid::{footprint, Cell};
    use super::ids::{Facing, Formation};
    let features = UNIT_FEATURES.len();
    let hot = |r: &[T]| r.iter().position(|&v| v != T::OFF).unwrap_or(0);
    let mut clear = |p: usize, c: Cell| {
        if c.on_table() {
            planes[p * CELLS + c.index()] = T::OFF;
        }
    };
    let mut changed = false;
    for block in 0..2 {
        for id in 0..MAX_UNITS {
            let at = UNITS_AT + (block * MAX_UNITS + id) * features;
            let (r, n) = (&old[at..at + features], &now[at..at + features]);
            // Present, type, formation, facing and cell (features 0–13) the same and not moving:
            // the same footprint on the same plane.
            if r[..14] == n[..14] && r[24] == T::OFF && n[24] == T::OFF {
                continue;
            }
            changed = true;
            if r[0] == T::OFF {
                continue;
            }
            let p = 7 + 3 * block + hot(&r[1..4]);
            let at = Cell::new(r[12].count(44) as i8, r[13].count(29) as i8);
            if r[24] != T::OFF {
                for y in at.y - 3..=at.y + 3 {
                    for x in at.x - 3..=at.x + 3 {
                        clear(p, Cell::new(x, y));
                    }
                }
            } else {
                let formation = Formation::from_idx(hot(&r[4..8])).unwrap_or(Formation::Line);
                let facing = Facing::from_idx(hot(&r[8..12])).unwrap_or(Facing::N);
                for &c in footprint(formation, at, facing).as_slice() {
                    clear(p, c);
                }
            }
        }
        let at = CINC_AT + 2 * block;
        if old[at..at + 2] != now[at..at + 2] {
            changed = true;
            clear(13 + block, Cell::new(old[at].count(44) as i8, old[at + 1].count(29) as i8));
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offsets_read_back_are_the_layouts() {
        let layout = observation_layout(ObservationKind::Full);
        let at = |name: &str| layout.iter().find(|r| r.0 == name).unwrap().1;
        assert_eq!((at("cinc"), at("units"), at("planes")), (CINC_AT, UNITS_AT, COMPACT_OBSERVATION_SIZE));
    }
}
