//! Identifiers of RULES.md as `#[repr(u8)]` enums. `as_str()` is the spec id, `parse()` its inverse,
//! and `ALL` lists them in index order (the order used by observations and action names).

use crate::id_enum::id_enum;
use serde::{Deserialize, Serialize};

id_enum!(
    /// B1. The 17 board locations and the two mission slots, in the order of RULES.md B1.
    Location, "location", [
    SafeHouse = "safe_house", RueBaradat = "rue_baradat", Fence = "fence", PontDuNord = "pont_du_nord",
    RadioB = "radio_b", Doctor = "doctor", PoorDistrict = "poor_district", BlackMarket = "black_market",
    SpareRoomNe = "spare_room_ne", RadioA = "radio_a", SpareRoomW = "spare_room_w",
    PontLeveque = "pont_leveque", Grocer = "grocer", SpareRoomSe = "spare_room_se", FieldW = "field_w",
    Cafe = "cafe", FieldE = "field_e", MissionA = "mission_a", MissionB = "mission_b",
]);

id_enum!(
    /// T4. The eight resources, four tokens each.
    Resource, "resource", [
    Intel = "intel", Food = "food", Medicine = "medicine", Money = "money", Weapon = "weapon",
    Explosive = "explosive", Poison = "poison", FakeId = "fake_id",
]);

id_enum!(
    /// A5. The nine spare-room tiles.
    Tile, "tile", [
    Informant = "informant", Counterfeiter = "counterfeiter", SafeHouse = "safe_house",
    ChemistsLab = "chemists_lab", Smuggler = "smuggler", Propagandist = "propagandist", Fixer = "fixer",
    Pharmacist = "pharmacist", Forger = "forger",
]);

id_enum!(
    /// §6. The 18 missions, by stars (0★ … 3★).
    MissionId, "mission", [
    MiliceParadeDay = "milice_parade_day", OfficersMansion = "officers_mansion", Sabotage = "sabotage",
    UndergroundNewspaper = "underground_newspaper", Infiltration = "infiltration",
    GermanShepherds = "german_shepherds", DoubleAgent = "double_agent", AidTheSpy = "aid_the_spy",
    Assassination = "assassination", DestroyTheTrain = "destroy_the_train",
    LiberateTheTown = "liberate_the_town", CodedMessages = "coded_messages",
    TakeOutTheBridges = "take_out_the_bridges", BombForTheOfficer = "bomb_for_the_officer",
    MiliceHq = "milice_hq", BombTheBarracks = "bomb_the_barracks",
    FreeTheResistanceLeader = "free_the_resistance_leader", DestroyAaGuns = "destroy_aa_guns",
]);

id_enum!(
    /// D1. Difficulty levels.
    Difficulty, "difficulty", [
    VeryEasy = "very_easy", Easy = "easy", Normal = "normal", Tricky = "tricky", Hard = "hard",
    VeryHard = "very_hard",
]);

id_enum!(
    /// D2. Mission pools.
    MissionPool, "mission_pool", [
    SecondEdition = "second_edition", FirstEdition = "first_edition", Pnp2013 = "pnp_2013",
]);

id_enum!(
    /// D3. How the two missions are dealt.
    Deal, "deal", [Uniform = "uniform", Grouped2013 = "grouped_2013", Grouped2019 = "grouped_2019"]
);

id_enum!(
    /// E3. Outcome of a finished game.
    Outcome, "outcome", [Win = "win", MajorWin = "major_win", Draw = "draw", Loss = "loss"]
);

id_enum!(
    /// The decision the player faces (API.md `phase`).
    Phase, "phase", [
    Placement = "placement", Action = "action", PostAction = "post_action", GameOver = "game_over",
]);

/// What stands on a location (B5): at most one pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[repr(u8)]
pub enum Pawn {
    #[default]
    Empty,
    Worker,
    Milice,
    Soldier,
}

impl Pawn {
    pub fn as_str(self) -> Option<&'static str> {
        match self {
            Pawn::Empty => None,
            Pawn::Worker => Some("worker"),
            Pawn::Milice => Some("milice"),
            Pawn::Soldier => Some("soldier"),
        }
    }
    #[inline]
    pub fn is_patrol(self) -> bool {
        matches!(self, Pawn::Milice | Pawn::Soldier)
    }
}

pub const NUM_LOCATIONS: usize = Location::COUNT;
pub const NUM_RESOURCES: usize = Resource::COUNT;
pub const NUM_TILES: usize = Tile::COUNT;
pub const NUM_MISSIONS: usize = MissionId::COUNT;
