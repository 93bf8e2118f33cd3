//! B1–B6. The board as const tables, in the words and order of RULES.md.
//!
//! ```text
//!            [mission_a]            [mission_b]
//!                 |                      |
//!   rue_baradat--fence            pont_du_nord----(north bridge)----black_market--radio_b
//!        |          \                 |                            /  |    \      |
//!      doctor        poor_district----+---(south bridge)----------+   |   spare_room_ne
//!     /  |   \            |                                          grocer
//! radio_a |  spare_room_w  pont_leveque                             /      \
//!     \__spare_room_w     |                              spare_room_se    safe_house
//!                       safe_house -- cafe -- field_w,  safe_house -- field_e
//! ```
//! (The picture is a memory aid; `ROADS` is the truth.)

use crate::maquis::ids::Location::{self, *};

/// A set of locations as a bitboard: bit `loc as u32`.
pub type LocSet = u32;

#[inline]
pub const fn bit(l: Location) -> LocSet {
    1u32 << (l as u32)
}

/// B3. Roads, in the order of RULES.md (21 on the board, then one from each mission slot).
pub const ROADS: [(Location, Location); 23] = [
    (RueBaradat, Fence),       // 0
    (RueBaradat, Doctor),      // 1
    (Fence, PoorDistrict),     // 2
    (PontDuNord, PoorDistrict), // 3
    (PontDuNord, BlackMarket), // 4  north bridge
    (PoorDistrict, BlackMarket), // 5  south bridge
    (PoorDistrict, PontLeveque), // 6
    (Doctor, RadioA),          // 7
    (Doctor, SpareRoomW),      // 8
    (Doctor, PontLeveque),     // 9
    (RadioA, SpareRoomW),      // 10
    (RadioB, BlackMarket),     // 11
    (RadioB, SpareRoomNe),     // 12
    (BlackMarket, SpareRoomNe), // 13
    (BlackMarket, Grocer),     // 14
    (Grocer, SpareRoomSe),     // 15
    (Grocer, SafeHouse),       // 16
    (PontLeveque, SafeHouse),  // 17
    (Cafe, SafeHouse),         // 18
    (FieldW, Cafe),            // 19
    (SafeHouse, FieldE),       // 20
    (MissionA, Fence),         // 21
    (MissionB, PontDuNord),    // 22
];
pub const NUM_ROADS: usize = ROADS.len();

/// B4. Road indices of the two bridges connected to the Black Market.
pub const BRIDGE_NORTH: usize = 4;
pub const BRIDGE_SOUTH: usize = 5;
/// M-milice_parade_day closes this road on orange days.
pub const ROAD_BARADAT_FENCE: usize = 0;

/// B4. The west bank of the river.
pub const WEST_BANK: [Location; 8] =
    [RueBaradat, Fence, PontDuNord, Doctor, PoorDistrict, RadioA, SpareRoomW, PontLeveque];

/// B6. The only locations a patrol card names.
pub const PATROL_LOCATIONS: [Location; 10] =
    [RueBaradat, Fence, PontDuNord, RadioB, Doctor, PoorDistrict, BlackMarket, RadioA, PontLeveque, Grocer];

pub const SPARE_ROOMS: [Location; 3] = [SpareRoomNe, SpareRoomW, SpareRoomSe];
pub const FIELDS: [Location; 2] = [FieldW, FieldE];
pub const SLOTS: [Location; 2] = [MissionA, MissionB];

/// B2. Locations whose printed action is safe (orange shield with a star).
pub const SAFE_LOCATIONS: LocSet = bit(PoorDistrict) | bit(SpareRoomNe) | bit(SpareRoomW) | bit(SpareRoomSe);

/// Index of a spare room in `SPARE_ROOMS`, of a field in `FIELDS`, of a slot in `SLOTS`.
pub fn spare_room_index(l: Location) -> Option<usize> {
    SPARE_ROOMS.iter().position(|&x| x == l)
}
pub fn field_index(l: Location) -> Option<usize> {
    FIELDS.iter().position(|&x| x == l)
}
pub fn slot_index(l: Location) -> Option<usize> {
    SLOTS.iter().position(|&x| x == l)
}

/// Neighbour bitboards of every location over all roads (closed roads are removed at use).
pub const ADJACENCY: [LocSet; 19] = {
    let mut adj = [0u32; 19];
    let mut i = 0;
    while i < ROADS.len() {
        let (a, b) = ROADS[i];
        adj[a as usize] |= 1 << (b as u32);
        adj[b as usize] |= 1 << (a as u32);
        i += 1;
    }
    adj
};

/// Whether locations `a` and `b` are joined by road `r` (either way round).
pub fn road_index(a: Location, b: Location) -> Option<usize> {
    ROADS.iter().position(|&(x, y)| (x == a && y == b) || (x == b && y == a))
}
