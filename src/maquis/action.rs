//! The flat action space of API.md. Every canonical name has a fixed index, the same for every
//! ruleset; the table is generated once from the per-location option lists below.
//!
//! Index order: `place:<loc>` ×18, `place:<loc>:fake_id` ×18, `act:<loc>:<option>` (locations in
//! B1 order, options in the order listed here), `skip:<loc>` ×18, `shoot:<loc>` ×10 (B6), `accept`.

use crate::maquis::board::PATROL_LOCATIONS;
use crate::error::{Error, Result};
use crate::maquis::ids::{Location, Location::*, Tile};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

macro_rules! options {
    ($($variant:ident = $s:literal),+ $(,)?) => {
        /// An option of a location's action (`<option>` in `act:<loc>:<option>`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[repr(u8)]
        pub enum Opt { $($variant),+ }
        impl Opt {
            pub const ALL: &'static [Opt] = &[$(Opt::$variant),+];
            pub const fn as_str(self) -> &'static str { match self { $(Opt::$variant => $s),+ } }
        }
    };
}

options!(
    Weapon = "weapon", Medicine = "medicine", Food = "food", Morale = "morale", Recruit = "recruit",
    Intel = "intel",
    AirdropWMoney = "airdrop_field_w_money", AirdropWWeapon = "airdrop_field_w_weapon",
    AirdropWFood = "airdrop_field_w_food", AirdropEMoney = "airdrop_field_e_money",
    AirdropEWeapon = "airdrop_field_e_weapon", AirdropEFood = "airdrop_field_e_food",
    SellFood = "sell_food", SellMedicine = "sell_medicine", BridgeNorth = "bridge_north",
    BridgeSouth = "bridge_south", AaExplosive = "aa_explosive", AaWeapon = "aa_weapon",
    Pickup = "pickup", Distract = "distract",
    BuildInformant = "build_informant", BuildCounterfeiter = "build_counterfeiter",
    BuildSafeHouse = "build_safe_house", BuildChemistsLab = "build_chemists_lab",
    BuildSmuggler = "build_smuggler", BuildPropagandist = "build_propagandist",
    BuildFixer = "build_fixer", BuildPharmacist = "build_pharmacist", BuildForger = "build_forger",
    Money = "money", Explosive = "explosive", Poison = "poison", FakeId = "fake_id",
    FixerInformant = "fixer_informant", FixerCounterfeiter = "fixer_counterfeiter",
    FixerChemistsLab = "fixer_chemists_lab", FixerSmugglerFood = "fixer_smuggler_food",
    FixerSmugglerMedicine = "fixer_smuggler_medicine", FixerPropagandist = "fixer_propagandist",
    FixerPharmacist = "fixer_pharmacist", FixerForger = "fixer_forger",
    Graffiti = "graffiti", Parade = "parade", Records = "records", DarkLady = "dark_lady",
    Complete = "complete", Infiltrate = "infiltrate", Sabotage = "sabotage", Deliver = "deliver",
    Mole = "mole", Extract = "extract", Weapons = "weapons", Supplies = "supplies", Train = "train",
    Recon = "recon", Bomb = "bomb", Bribe = "bribe", Rescue = "rescue",
);

impl Opt {
    /// `build_<tile>` → the tile.
    pub fn built_tile(self) -> Option<Tile> {
        Some(match self {
            Opt::BuildInformant => Tile::Informant,
            Opt::BuildCounterfeiter => Tile::Counterfeiter,
            Opt::BuildSafeHouse => Tile::SafeHouse,
            Opt::BuildChemistsLab => Tile::ChemistsLab,
            Opt::BuildSmuggler => Tile::Smuggler,
            Opt::BuildPropagandist => Tile::Propagandist,
            Opt::BuildFixer => Tile::Fixer,
            Opt::BuildPharmacist => Tile::Pharmacist,
            Opt::BuildForger => Tile::Forger,
            _ => return None,
        })
    }
}

const RADIO: &[Opt] = &[
    Opt::Intel, Opt::AirdropWMoney, Opt::AirdropWWeapon, Opt::AirdropWFood, Opt::AirdropEMoney,
    Opt::AirdropEWeapon, Opt::AirdropEFood, Opt::DarkLady,
];
const SPARE_ROOM: &[Opt] = &[
    Opt::BuildInformant, Opt::BuildCounterfeiter, Opt::BuildSafeHouse, Opt::BuildChemistsLab,
    Opt::BuildSmuggler, Opt::BuildPropagandist, Opt::BuildFixer, Opt::BuildPharmacist,
    Opt::BuildForger, Opt::Intel, Opt::Money, Opt::Explosive, Opt::Food, Opt::Medicine, Opt::Morale,
    Opt::Poison, Opt::FakeId, Opt::FixerInformant, Opt::FixerCounterfeiter, Opt::FixerChemistsLab,
    Opt::FixerSmugglerFood, Opt::FixerSmugglerMedicine, Opt::FixerPropagandist,
    Opt::FixerPharmacist, Opt::FixerForger,
];
const FIELD: &[Opt] = &[Opt::Pickup, Opt::Distract, Opt::AaExplosive, Opt::AaWeapon];
const SLOT: &[Opt] = &[
    Opt::Complete, Opt::Infiltrate, Opt::Sabotage, Opt::Deliver, Opt::Mole, Opt::Extract,
    Opt::Weapons, Opt::Supplies, Opt::Train, Opt::Recon, Opt::Bomb, Opt::Poison, Opt::Bribe,
    Opt::Rescue, Opt::AaExplosive, Opt::AaWeapon,
];

/// The options named in API.md for each location, in B1 order.
pub fn location_options(l: Location) -> &'static [Opt] {
    match l {
        SafeHouse => &[],
        RueBaradat => &[Opt::Graffiti, Opt::Parade, Opt::Records, Opt::AaExplosive, Opt::AaWeapon],
        Fence => &[Opt::Weapon, Opt::DarkLady],
        PontDuNord => &[Opt::Graffiti],
        RadioB | RadioA => RADIO,
        Doctor => &[Opt::Medicine],
        PoorDistrict => &[Opt::Morale],
        BlackMarket => &[
            Opt::SellFood, Opt::SellMedicine, Opt::BridgeNorth, Opt::BridgeSouth, Opt::AaExplosive,
            Opt::AaWeapon,
        ],
        SpareRoomNe | SpareRoomW | SpareRoomSe => SPARE_ROOM,
        PontLeveque => &[Opt::Graffiti, Opt::DarkLady],
        Grocer => &[Opt::Food, Opt::DarkLady],
        FieldW | FieldE => FIELD,
        Cafe => &[Opt::Recruit],
        MissionA | MissionB => SLOT,
    }
}

/// A decoded action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Place { loc: Location, fake_id: bool },
    Act { loc: Location, opt: Opt },
    Skip(Location),
    Shoot(Location),
    Accept,
}

impl Action {
    pub fn name(&self) -> String {
        match *self {
            Action::Place { loc, fake_id: false } => format!("place:{loc}"),
            Action::Place { loc, fake_id: true } => format!("place:{loc}:fake_id"),
            Action::Act { loc, opt } => format!("act:{loc}:{}", opt.as_str()),
            Action::Skip(loc) => format!("skip:{loc}"),
            Action::Shoot(loc) => format!("shoot:{loc}"),
            Action::Accept => "accept".to_string(),
        }
    }
}

/// The action table: index ↔ action ↔ name.
pub struct ActionTable {
    pub actions: Vec<Action>,
    pub names: Vec<String>,
    place: [u16; 19],
    place_fake: [u16; 19],
    skip: [u16; 19],
    shoot: [u16; 19],
    act: Vec<[u16; 19]>, // act[opt][loc]
    accept: u16,
}

const NONE: u16 = u16::MAX;

/// Locations a worker can stand on (all but the Safe House).
pub fn worker_locations() -> impl Iterator<Item = Location> {
    Location::ALL.iter().copied().filter(|&l| l != SafeHouse)
}

fn build_table() -> ActionTable {
    let mut actions = Vec::new();
    for l in worker_locations() {
        actions.push(Action::Place { loc: l, fake_id: false });
    }
    for l in worker_locations() {
        actions.push(Action::Place { loc: l, fake_id: true });
    }
    for l in worker_locations() {
        for &opt in location_options(l) {
            actions.push(Action::Act { loc: l, opt });
        }
    }
    for l in worker_locations() {
        actions.push(Action::Skip(l));
    }
    for &l in PATROL_LOCATIONS.iter() {
        actions.push(Action::Shoot(l));
    }
    actions.push(Action::Accept);

    let mut t = ActionTable {
        names: actions.iter().map(|a| a.name()).collect(),
        place: [NONE; 19],
        place_fake: [NONE; 19],
        skip: [NONE; 19],
        shoot: [NONE; 19],
        act: vec![[NONE; 19]; Opt::ALL.len()],
        accept: NONE,
        actions,
    };
    for (i, a) in t.actions.iter().enumerate() {
        let i = i as u16;
        match *a {
            Action::Place { loc, fake_id: false } => t.place[loc.idx()] = i,
            Action::Place { loc, fake_id: true } => t.place_fake[loc.idx()] = i,
            Action::Act { loc, opt } => t.act[opt as usize][loc.idx()] = i,
            Action::Skip(loc) => t.skip[loc.idx()] = i,
            Action::Shoot(loc) => t.shoot[loc.idx()] = i,
            Action::Accept => t.accept = i,
        }
    }
    t
}

static TABLE: OnceLock<ActionTable> = OnceLock::new();

#[inline]
pub fn table() -> &'static ActionTable {
    TABLE.get_or_init(build_table)
}

/// The number of actions, N (the same for every ruleset).
pub const NUM_ACTIONS: usize = 217;

impl ActionTable {
    /// The index of an action (None for an action that has no name, e.g. `act:doctor:bomb`).
    #[inline(always)]
    pub fn index(&self, a: Action) -> Option<usize> {
        let i = match a {
            Action::Place { loc, fake_id: false } => self.place[loc.idx()],
            Action::Place { loc, fake_id: true } => self.place_fake[loc.idx()],
            Action::Act { loc, opt } => self.act[opt as usize][loc.idx()],
            Action::Skip(loc) => self.skip[loc.idx()],
            Action::Shoot(loc) => self.shoot[loc.idx()],
            Action::Accept => self.accept,
        };
        (i != NONE).then_some(i as usize)
    }

    pub fn decode(&self, index: i64) -> Result<Action> {
        if index < 0 || index as usize >= self.actions.len() {
            return Err(Error::ActionOutOfRange { action: index, num_actions: self.actions.len() });
        }
        Ok(self.actions[index as usize])
    }

    pub fn from_name(&self, name: &str) -> Result<usize> {
        self.names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| Error::UnknownId { kind: "action", id: name.to_string() })
    }
}

pub use super::mask::ActionMask;
