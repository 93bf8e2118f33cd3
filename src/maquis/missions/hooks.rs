//! §6. The hooks the rules call, each dispatching to the mission whose card it is: one file per
//! mission (`sabotage.rs`, `milice_hq.rs`, ...) holds everything its card does.

use super::prelude::*;
use super::{
    aid_the_spy, assassination, bomb_for_the_officer, bomb_the_barracks, coded_messages, destroy_aa_guns,
    destroy_the_train, double_agent, free_the_resistance_leader, german_shepherds, infiltration, liberate_the_town,
    milice_hq, milice_parade_day, officers_mansion, sabotage, take_out_the_bridges, underground_newspaper,
};
use crate::maquis::board::slot_index;
use crate::maquis::ids::MissionId;
use crate::maquis::effects::{can_pay, pay};

pub use super::bomb_for_the_officer::unusable;
pub use super::bomb_the_barracks::distraction_possible;
pub use super::double_agent::{on_activation, VISIT_LOCATIONS};
pub use crate::maquis::effects::{box_done, complete};
pub use super::german_shepherds::shooting_forbidden;
pub use super::officers_mansion::GRAFFITI_LOCATIONS;

/// M0. Is the slot a placeable location today (a box on the card, inside its day window)?
pub fn slot_placeable(s: &State, slot: usize) -> bool {
    let m = &s.missions[slot];
    if m.id == DestroyAaGuns {
        return destroy_aa_guns::placeable(s, slot);
    }
    if !m.open() {
        return false;
    }
    match m.id {
        // No action on these cards.
        MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges => false,
        OfficersMansion => officers_mansion::placeable(s, slot),
        Sabotage => sabotage::placeable(s, slot),
        UndergroundNewspaper => underground_newspaper::placeable(s, slot),
        Infiltration => infiltration::placeable(s, slot),
        GermanShepherds => german_shepherds::placeable(s, slot),
        AidTheSpy => aid_the_spy::placeable(s, slot),
        DestroyTheTrain => destroy_the_train::placeable(s, slot),
        CodedMessages => coded_messages::placeable(s, slot),
        BombForTheOfficer => bomb_for_the_officer::placeable(s, slot),
        MiliceHq => milice_hq::placeable(s, slot),
        BombTheBarracks => bomb_the_barracks::placeable(s, slot),
        FreeTheResistanceLeader => free_the_resistance_leader::placeable(s, slot),
        DestroyAaGuns => destroy_aa_guns::placeable(s, slot),
    }
}

/// The cost of a mission option on a slot, or None when the card offers no such option now.
fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let m = &s.missions[slot];
    if !m.open() && m.id != DestroyAaGuns {
        return None;
    }
    match m.id {
        MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges => None,
        OfficersMansion => officers_mansion::slot_option(s, slot, opt),
        Sabotage => sabotage::slot_option(s, slot, opt),
        UndergroundNewspaper => underground_newspaper::slot_option(s, slot, opt),
        Infiltration => infiltration::slot_option(s, slot, opt),
        GermanShepherds => german_shepherds::slot_option(s, slot, opt),
        AidTheSpy => aid_the_spy::slot_option(s, slot, opt),
        DestroyTheTrain => destroy_the_train::slot_option(s, slot, opt),
        CodedMessages => coded_messages::slot_option(s, slot, opt),
        BombForTheOfficer => bomb_for_the_officer::slot_option(s, slot, opt),
        MiliceHq => milice_hq::slot_option(s, slot, opt),
        BombTheBarracks => bomb_the_barracks::slot_option(s, slot, opt),
        FreeTheResistanceLeader => free_the_resistance_leader::slot_option(s, slot, opt),
        DestroyAaGuns => destroy_aa_guns::cost_at(s, SLOTS[slot], opt),
    }
}

/// The options `slot_option` can offer for each card: the mask tests only these
/// (`tests/mask_reference.rs` fails when an option is missing here).
pub fn slot_options(id: MissionId) -> &'static [Opt] {
    match id {
        MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges => &[],
        OfficersMansion => officers_mansion::SLOT_OPTIONS,
        Sabotage => sabotage::SLOT_OPTIONS,
        UndergroundNewspaper => underground_newspaper::SLOT_OPTIONS,
        Infiltration => infiltration::SLOT_OPTIONS,
        GermanShepherds => german_shepherds::SLOT_OPTIONS,
        AidTheSpy => aid_the_spy::SLOT_OPTIONS,
        DestroyTheTrain => destroy_the_train::SLOT_OPTIONS,
        CodedMessages => coded_messages::SLOT_OPTIONS,
        BombForTheOfficer => bomb_for_the_officer::SLOT_OPTIONS,
        MiliceHq => milice_hq::SLOT_OPTIONS,
        BombTheBarracks => bomb_the_barracks::SLOT_OPTIONS,
        FreeTheResistanceLeader => free_the_resistance_leader::SLOT_OPTIONS,
        DestroyAaGuns => destroy_aa_guns::SLOT_OPTIONS,
    }
}

/// The mission that must be dealt and open for `board_option` to offer `opt` anywhere (None: the
/// option needs no particular one, or is not a board mission option). A cheap first test for
/// `legal_mask`: most games deal neither of them.
pub fn board_option_mission(opt: Opt) -> Option<MissionId> {
    Some(match opt {
        Opt::Graffiti => OfficersMansion,
        Opt::Parade => MiliceParadeDay,
        Opt::Records => MiliceHq,
        Opt::DarkLady => DoubleAgent,
        Opt::BridgeNorth | Opt::BridgeSouth => TakeOutTheBridges,
        Opt::Distract => BombTheBarracks,
        _ => return None,
    })
}

/// The cost of a mission option on a board location, or None when no mission offers it now.
fn board_option(s: &State, loc: Location, opt: Opt) -> Option<Cost> {
    match opt {
        Opt::Graffiti => officers_mansion::board_cost(s, loc),
        Opt::Parade => milice_parade_day::board_cost(s, loc),
        Opt::Records => milice_hq::board_cost(s, loc),
        Opt::DarkLady => double_agent::board_cost(s, loc),
        Opt::BridgeNorth | Opt::BridgeSouth => take_out_the_bridges::board_cost(s, loc, opt),
        Opt::AaExplosive | Opt::AaWeapon => destroy_aa_guns::cost_at(s, loc, opt),
        Opt::Distract => bomb_the_barracks::board_cost(s, loc),
        _ => None,
    }
}

fn option_cost(s: &State, loc: Location, opt: Opt) -> Option<Cost> {
    match slot_index(loc) {
        Some(slot) => slot_option(s, slot, opt),
        None => board_option(s, loc, opt),
    }
}

pub fn option_legal(s: &State, loc: Location, opt: Opt) -> bool {
    option_cost(s, loc, opt).is_some_and(|c| can_pay(s, &c))
}

/// Performs a legal mission option (cost paid here).
pub fn perform(s: &mut State, loc: Location, opt: Opt) -> Performed {
    let c = option_cost(s, loc, opt).expect("perform is only called on legal options");
    pay(s, &c);
    match opt {
        Opt::Graffiti => officers_mansion::graffiti(s, loc),
        Opt::Parade => milice_parade_day::parade(s),
        Opt::Records => milice_hq::records(s),
        Opt::DarkLady => double_agent::dark_lady(s),
        Opt::BridgeNorth | Opt::BridgeSouth => take_out_the_bridges::choose(s, opt),
        // On the card or on the board alike.
        Opt::AaExplosive | Opt::AaWeapon => destroy_aa_guns::destroy(s, loc),
        Opt::Distract => bomb_the_barracks::distract(s),
        _ => {
            let slot = slot_index(loc).unwrap();
            match s.missions[slot].id {
                OfficersMansion => officers_mansion::perform(s, slot, opt),
                Sabotage => sabotage::perform(s, slot, opt),
                UndergroundNewspaper => underground_newspaper::perform(s, slot, opt),
                Infiltration => infiltration::perform(s, slot, opt),
                GermanShepherds => german_shepherds::perform(s, slot, opt),
                AidTheSpy => aid_the_spy::perform(s, slot, opt),
                DestroyTheTrain => destroy_the_train::perform(s, slot, opt),
                CodedMessages => coded_messages::perform(s, slot, opt),
                BombForTheOfficer => bomb_for_the_officer::perform(s, slot, opt),
                MiliceHq => milice_hq::perform(s, slot, opt),
                BombTheBarracks => bomb_the_barracks::perform(s, slot, opt),
                FreeTheResistanceLeader => free_the_resistance_leader::perform(s, slot, opt),
                MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges
                | DestroyAaGuns => unreachable!("no such option on this card (the mask allowed it)"),
            }
        }
    }
}

/// F9 step 1: end-of-day mission effects, then the deadlines of the day that ends.
pub fn end_of_day(s: &mut State) {
    take_out_the_bridges::end_of_day(s);
    coded_messages::end_of_day(s);
    missed_deadlines(s, s.day);
}

/// Deadlines of `day` (its end has passed): the mission can no longer be completed.
pub fn missed_deadlines(s: &mut State, day: u8) {
    for slot in 0..2 {
        let m = &s.missions[slot];
        let missed = m.open()
            && match m.id {
                CodedMessages => coded_messages::missed(day, m.boxes_done),
                FreeTheResistanceLeader => free_the_resistance_leader::missed(day, m.boxes_done),
                _ => false,
            };
        if missed {
            s.missions.assign(|m| &mut m[slot].failed, true);
        }
    }
}

/// M-assassination, checked with E1.
pub fn check_assassination(s: &mut State) {
    assassination::check(s)
}

/// M-liberate_the_town, at the final move of the day marker.
pub fn check_liberation(s: &mut State) {
    liberate_the_town::check(s)
}
