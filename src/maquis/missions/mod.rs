//! §6. The 18 missions as a table (stars, shield, boxes, pools), and one file per mission named
//! after its RULES.md id (`M-sabotage` is `sabotage.rs`) holding everything its card does. The
//! rules reach them through `hooks` (one dispatch per hook); the missions act on the game through
//! `crate::maquis::effects`, never through the rules.

mod prelude;
pub mod hooks;
/// The hooks under the name the rules have always used.
pub use hooks as rules;

pub mod aid_the_spy;
pub mod assassination;
pub mod bomb_for_the_officer;
pub mod bomb_the_barracks;
pub mod coded_messages;
pub mod destroy_aa_guns;
pub mod destroy_the_train;
pub mod double_agent;
pub mod free_the_resistance_leader;
pub mod german_shepherds;
pub mod infiltration;
pub mod liberate_the_town;
pub mod milice_hq;
pub mod milice_parade_day;
pub mod officers_mansion;
pub mod sabotage;
pub mod take_out_the_bridges;
pub mod underground_newspaper;

use crate::maquis::ids::{MissionId, MissionId::*, MissionPool};

pub struct MissionInfo {
    pub id: MissionId,
    pub stars: u8,
    /// The card has a shield: all its actions are safe wherever they are taken (M0).
    pub shield: bool,
    /// Boxes on the card (`boxes_done` counts up to this; Destroy AA Guns counts guns, 5).
    pub boxes: u8,
}

const fn m(id: MissionId, stars: u8, shield: bool, boxes: u8) -> MissionInfo {
    MissionInfo { id, stars, shield, boxes }
}

/// In `MissionId` order.
pub const MISSIONS: [MissionInfo; 18] = [
    m(MiliceParadeDay, 0, true, 1),
    m(OfficersMansion, 0, true, 4), // three tags + `complete`
    m(Sabotage, 1, true, 3),
    m(UndergroundNewspaper, 1, true, 3),
    m(Infiltration, 1, true, 2),
    m(GermanShepherds, 1, true, 3),
    m(DoubleAgent, 1, true, 7), // six visits + the Dark Lady
    m(AidTheSpy, 2, true, 2),
    m(Assassination, 2, false, 1),
    m(DestroyTheTrain, 2, true, 1),
    m(LiberateTheTown, 2, false, 1),
    m(CodedMessages, 2, false, 2), // training + the end of day 10
    m(TakeOutTheBridges, 2, true, 2),
    m(BombForTheOfficer, 2, true, 1),
    m(MiliceHq, 3, false, 2),
    m(BombTheBarracks, 3, false, 3),
    m(FreeTheResistanceLeader, 3, false, 2),
    m(DestroyAaGuns, 3, true, 5), // guns destroyed; complete at 3, major at 5
];

pub fn info(id: MissionId) -> &'static MissionInfo {
    &MISSIONS[id.idx()]
}

/// D2. The missions of each pool.
pub fn pool(p: MissionPool) -> &'static [MissionId] {
    // Built once: a new game deals from it (no allocation per game).
    static POOLS: std::sync::OnceLock<[Vec<MissionId>; MissionPool::COUNT]> = std::sync::OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        std::array::from_fn(|i| match MissionPool::from_idx(i).expect("an index below COUNT") {
            MissionPool::SecondEdition => MissionId::ALL.to_vec(),
            MissionPool::FirstEdition => MissionId::ALL.iter().copied().filter(|&m| info(m).stars < 3).collect(),
            MissionPool::Pnp2013 => PNP_2013_GROUPS.iter().flat_map(|g| g.iter().copied()).collect(),
        })
    });
    &pools[p.idx()]
}

/// D3. The optional distribution: one mission from each group.
pub const PNP_2013_GROUPS: [&[MissionId]; 2] =
    [&[UndergroundNewspaper, DestroyTheTrain, Sabotage], &[AidTheSpy, Assassination, LiberateTheTown]];
pub const GROUPS_2019: [&[MissionId]; 2] = [
    &[UndergroundNewspaper, DestroyTheTrain, Sabotage, Infiltration, GermanShepherds],
    &[AidTheSpy, Assassination, LiberateTheTown, CodedMessages, TakeOutTheBridges, BombForTheOfficer],
];
