//! D1–D3. What changes with the difficulty level and the mission pool.

use crate::maquis::ids::{Difficulty, MissionPool, Resource, Tile};
use crate::maquis::tracks::{END_DAY, SHORT_END_DAY, TOKENS_PER_RESOURCE};

/// T5, D1. Workers in the Safe House and at the Café at the start.
pub fn starting_workers(d: Difficulty) -> (u8, u8) {
    match d {
        Difficulty::Tricky | Difficulty::Hard | Difficulty::VeryHard => (2, 2),
        _ => (3, 2),
    }
}

/// E2. The space whose reaching ends the game (Very Easy: in the second pass).
pub fn final_day(d: Difficulty) -> u8 {
    match d {
        Difficulty::Tricky | Difficulty::Hard | Difficulty::VeryHard => SHORT_END_DAY,
        _ => END_DAY,
    }
}

/// D1. Very Easy plays the day track twice.
pub fn passes(d: Difficulty) -> u8 {
    if d == Difficulty::VeryEasy { 2 } else { 1 }
}

/// T1, D1. Hard and Very Hard lose morale on triangle days instead of orange days.
pub fn triangle_morale(d: Difficulty) -> bool {
    matches!(d, Difficulty::Hard | Difficulty::VeryHard)
}

/// D1. Very Hard: each arrest costs 1 morale.
pub fn arrest_costs_morale(d: Difficulty) -> bool {
    d == Difficulty::VeryHard
}

/// A1, D1. Airdrop packages (money, weapon, food) per level.
pub fn airdrop_amount(d: Difficulty, r: Resource) -> u8 {
    let (money, weapon, food) = match d {
        Difficulty::VeryEasy => (2, 2, 4),
        Difficulty::Easy => (2, 1, 4),
        _ => (1, 1, 3),
    };
    match r {
        Resource::Money => money,
        Resource::Weapon => weapon,
        Resource::Food => food,
        _ => 0,
    }
}

/// D2. The first-edition pools have no poison or fake_id.
pub fn tokens_in_game(p: MissionPool, r: Resource) -> u8 {
    match (p, r) {
        (MissionPool::SecondEdition, _) => TOKENS_PER_RESOURCE,
        (_, Resource::Poison | Resource::FakeId) => 0,
        _ => TOKENS_PER_RESOURCE,
    }
}

/// D2. The tiles of each pool.
pub fn tile_in_pool(p: MissionPool, t: Tile) -> bool {
    match p {
        MissionPool::SecondEdition => true,
        _ => matches!(
            t,
            Tile::Informant | Tile::Counterfeiter | Tile::SafeHouse | Tile::ChemistsLab | Tile::Smuggler | Tile::Propagandist
        ),
    }
}
