//! §6. What each mission adds to the rules. One `match` per hook, one arm per card.

use crate::maquis::action::Opt;
use crate::maquis::board::{bit, slot_index, LocSet, SLOTS};
use crate::maquis::ids::{Location, Location::*, MissionId, MissionId::*, Resource::*};
use crate::maquis::rules::actions::{can_pay, cost, pay, settle, Cost, Disposition, Performed, FREE};
use crate::maquis::rules::{advance_soldiers, change_morale, check_end};
use crate::maquis::state::{Reward, State, Tier};
use crate::maquis::tracks::is_orange;

/// M-officers_mansion: the three locations to tag.
pub const GRAFFITI_LOCATIONS: LocSet = bit(RueBaradat) | bit(PontLeveque) | bit(PontDuNord);
/// M-double_agent: the six locations to visit.
pub const VISIT_LOCATIONS: LocSet =
    bit(RueBaradat) | bit(PontDuNord) | bit(Doctor) | bit(PoorDistrict) | bit(RadioA) | bit(PontLeveque);

/// M-bomb_for_the_officer: locations no worker may use while it is unfinished.
pub fn unusable(s: &State) -> LocSet {
    if s.has_open(BombForTheOfficer) {
        bit(FieldE) | bit(SpareRoomSe)
    } else {
        0
    }
}

/// F8 / M-german_shepherds: no Milice may be shot while it is unfinished.
pub fn shooting_forbidden(s: &State) -> bool {
    s.has_open(GermanShepherds)
}

/// M-bomb_the_barracks: recon done twice, the bomb not yet: empty fields take a distraction.
pub fn distraction_possible(s: &State) -> bool {
    s.open_mission(BombTheBarracks).is_some_and(|m| m.boxes_done == 2)
}

/// "Different days" / "later day": no box of this mission was done today.
fn not_today(s: &State, slot: usize) -> bool {
    s.missions[slot].last_box_day != Some(s.abs_day())
}

/// M0. Is the slot a placeable location today (a box on the card, inside its day window)?
pub fn slot_placeable(s: &State, slot: usize) -> bool {
    let m = &s.missions[slot];
    // Ruling (RULES.md M-destroy_aa_guns, M-tier): the remaining guns, the card's included, can
    // still be destroyed after the mission is complete: the card's work is not done while its gun stands.
    if m.id == DestroyAaGuns {
        return s.marks.aa_guns & bit(SLOTS[slot]) != 0;
    }
    if !m.open() {
        return false;
    }
    match m.id {
        MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges => false,
        DestroyTheTrain => (6..=9).contains(&s.day),
        CodedMessages => m.boxes_done == 0 && s.day <= 6,
        FreeTheResistanceLeader => if m.boxes_done == 0 { s.day <= 5 } else { s.day <= 10 },
        DestroyAaGuns => s.marks.aa_guns & bit(SLOTS[slot]) != 0,
        OfficersMansion | Sabotage | UndergroundNewspaper | Infiltration | GermanShepherds | AidTheSpy
        | BombForTheOfficer | MiliceHq | BombTheBarracks => true,
    }
}

/// The cost of a mission option on a slot, or None when the card offers no such option now.
fn slot_option(s: &State, slot: usize, opt: Opt) -> Option<Cost> {
    let m = &s.missions[slot];
    if !m.open() && m.id != DestroyAaGuns {
        return None;
    }
    let b = m.boxes_done;
    let c = match (m.id, opt) {
        (OfficersMansion, Opt::Complete) if s.marks.tagged & GRAFFITI_LOCATIONS == GRAFFITI_LOCATIONS => FREE,
        (Sabotage, Opt::Infiltrate) if b < 2 && not_today(s, slot) => FREE,
        (Sabotage, Opt::Sabotage) if b == 2 && not_today(s, slot) => cost(&[(Explosive, 1)]),
        (UndergroundNewspaper, Opt::Deliver) if not_today(s, slot) => cost(&[(Intel, 2)]),
        (Infiltration, Opt::Mole) if b == 0 => cost(&[(Intel, 2)]),
        (Infiltration, Opt::Extract) if b == 1 => cost(&[(Weapon, 1), (Explosive, 1)]),
        (GermanShepherds, Opt::Deliver) if not_today(s, slot) => cost(&[(Medicine, 1), (Food, 1)]),
        (AidTheSpy, Opt::Weapons) if b == 0 => cost(&[(Weapon, 2)]),
        (AidTheSpy, Opt::Supplies) if b == 1 && not_today(s, slot) => cost(&[(Money, 1), (Food, 2)]),
        (DestroyTheTrain, Opt::Deliver) if (6..=9).contains(&s.day) => cost(&[(Explosive, 3)]),
        (CodedMessages, Opt::Train) if b == 0 && s.day <= 6 => cost(&[(Money, 1), (Food, 1), (Weapon, 1)]),
        (BombForTheOfficer, Opt::Deliver) if s.tracks.morale >= 5 => cost(&[(Weapon, 1), (Explosive, 1)]),
        (MiliceHq, Opt::Poison) if b == 1 => cost(&[(Poison, 2)]),
        (BombTheBarracks, Opt::Recon) if b < 2 && not_today(s, slot) => FREE,
        (BombTheBarracks, Opt::Bomb) if b == 2 => cost(&[(FakeId, 1), (Explosive, 2)]),
        (FreeTheResistanceLeader, Opt::Bribe) if b == 0 && s.day <= 5 => cost(&[(Intel, 1), (Money, 1)]),
        (FreeTheResistanceLeader, Opt::Poison) if b == 1 && s.day <= 9 => cost(&[(Poison, 1)]),
        (FreeTheResistanceLeader, Opt::Rescue) if b == 1 && s.day == 10 => {
            cost(&[(FakeId, 1), (Weapon, 2), (Medicine, 1)])
        }
        (DestroyAaGuns, Opt::AaExplosive) if s.marks.aa_guns & bit(SLOTS[slot]) != 0 => cost(&[(Explosive, 1)]),
        (DestroyAaGuns, Opt::AaWeapon) if s.marks.aa_guns & bit(SLOTS[slot]) != 0 => cost(&[(Weapon, 1)]),
        _ => return None,
    };
    Some(c)
}

/// The options `slot_option` can offer for each card: the mask tests only these. Keep in step
/// with the arms above (`tests/mask_reference.rs` fails when an option is missing here).
pub fn slot_options(id: MissionId) -> &'static [Opt] {
    match id {
        MiliceParadeDay | DoubleAgent | Assassination | LiberateTheTown | TakeOutTheBridges => &[],
        OfficersMansion => &[Opt::Complete],
        Sabotage => &[Opt::Infiltrate, Opt::Sabotage],
        UndergroundNewspaper | GermanShepherds | DestroyTheTrain | BombForTheOfficer => &[Opt::Deliver],
        Infiltration => &[Opt::Mole, Opt::Extract],
        AidTheSpy => &[Opt::Weapons, Opt::Supplies],
        CodedMessages => &[Opt::Train],
        MiliceHq => &[Opt::Poison],
        BombTheBarracks => &[Opt::Recon, Opt::Bomb],
        FreeTheResistanceLeader => &[Opt::Bribe, Opt::Poison, Opt::Rescue],
        DestroyAaGuns => &[Opt::AaExplosive, Opt::AaWeapon],
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
    let c = match opt {
        Opt::Graffiti if s.has_open(OfficersMansion) && GRAFFITI_LOCATIONS & bit(loc) & !s.marks.tagged != 0 => FREE,
        Opt::Parade if loc == RueBaradat && s.has_open(MiliceParadeDay) && is_orange(s.day) => cost(&[(Weapon, 1)]),
        Opt::Records if loc == RueBaradat && s.open_mission(MiliceHq).is_some_and(|m| m.boxes_done == 0) => FREE,
        Opt::DarkLady if s.has_open(DoubleAgent) && s.marks.dark_lady == Some(loc) => FREE,
        Opt::BridgeNorth | Opt::BridgeSouth if loc == BlackMarket && s.has_open(TakeOutTheBridges) => {
            let b = if opt == Opt::BridgeNorth { 1 } else { 2 };
            if (s.marks.bridges_chosen | s.marks.bridges_destroyed) & b != 0 {
                return None;
            }
            cost(&[(Explosive, 2)])
        }
        // M-destroy_aa_guns: wherever a gun stands (guns exist only when the mission is dealt).
        Opt::AaExplosive if s.marks.aa_guns & bit(loc) != 0 => cost(&[(Explosive, 1)]),
        Opt::AaWeapon if s.marks.aa_guns & bit(loc) != 0 => cost(&[(Weapon, 1)]),
        Opt::Distract if matches!(loc, FieldW | FieldE) && distraction_possible(s) => {
            let fi = crate::maquis::board::field_index(loc).unwrap();
            if s.field_has_tokens(fi) || s.marks.aa_guns & bit(loc) != 0 {
                return None;
            }
            cost(&[(Weapon, 1)])
        }
        _ => return None,
    };
    Some(c)
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
    let home = Disposition::GoHome { with_mole: false };
    let done = Performed { unsafe_reward: None, disposition: home };
    let slot_of = |s: &State, id: MissionId| s.mission_slot(id).unwrap();
    match opt {
        Opt::Graffiti => {
            s.marks.tagged |= bit(loc);
            let slot = slot_of(s, OfficersMansion);
            box_done(s, slot);
            done
        }
        Opt::Parade => {
            // M-milice_parade_day: morale +1, complete, and the worker is arrested.
            change_morale(s, 1);
            let slot = slot_of(s, MiliceParadeDay);
            box_done(s, slot);
            Performed { unsafe_reward: None, disposition: Disposition::Arrested }
        }
        Opt::Records => {
            let slot = slot_of(s, MiliceHq) as u8;
            settle(s, Reward { mission_box: Some(slot), ..Reward::default() }, false, home)
        }
        Opt::DarkLady => {
            let slot = slot_of(s, DoubleAgent);
            box_done(s, slot);
            Performed { unsafe_reward: None, disposition: Disposition::Removed }
        }
        Opt::BridgeNorth => {
            s.marks.bridges_chosen |= 1;
            done
        }
        Opt::BridgeSouth => {
            s.marks.bridges_chosen |= 2;
            done
        }
        Opt::AaExplosive | Opt::AaWeapon => {
            s.marks.aa_guns &= !bit(loc);
            let slot = slot_of(s, DestroyAaGuns);
            box_done(s, slot);
            done
        }
        Opt::Distract => settle(s, Reward { distract: true, ..Reward::default() }, false, home),
        _ => {
            let slot = slot_index(loc).unwrap();
            match (s.missions[slot].id, opt) {
                (Infiltration, Opt::Mole) | (CodedMessages, Opt::Train) => {
                    box_done(s, slot);
                    Performed { unsafe_reward: None, disposition: Disposition::Stuck }
                }
                (Infiltration, Opt::Extract) => {
                    box_done(s, slot);
                    Performed { unsafe_reward: None, disposition: Disposition::GoHome { with_mole: true } }
                }
                // 3★ objectives that are not marked safe.
                (BombTheBarracks, Opt::Recon) | (FreeTheResistanceLeader, Opt::Bribe) => {
                    settle(s, Reward { mission_box: Some(slot as u8), ..Reward::default() }, false, home)
                }
                (MiliceHq, Opt::Poison) => {
                    // Success if the soldier track was ≥ 3 before, otherwise major.
                    let tier = if s.tracks.soldiers >= 3 { Tier::Success } else { Tier::Major };
                    change_morale(s, 2);
                    advance_soldiers(s, 3);
                    box_done(s, slot);
                    complete(s, slot, tier);
                    done
                }
                (BombTheBarracks, Opt::Bomb) => {
                    let tier = if s.today.distracted_today { Tier::Major } else { Tier::Success };
                    box_done(s, slot);
                    complete(s, slot, tier);
                    done
                }
                (FreeTheResistanceLeader, Opt::Poison) => {
                    box_done(s, slot);
                    complete(s, slot, Tier::Success);
                    done
                }
                (FreeTheResistanceLeader, Opt::Rescue) => {
                    advance_soldiers(s, 2);
                    box_done(s, slot);
                    complete(s, slot, Tier::Major);
                    done
                }
                _ => {
                    // Shielded cards: the box is done at once.
                    box_done(s, slot);
                    done
                }
            }
        }
    }
}

/// M0: the next box of the mission on `slot` is done (in order); completes it when all are.
pub fn box_done(s: &mut State, slot: usize) {
    let day = s.abs_day();
    let m = &mut s.missions[slot];
    m.boxes_done += 1;
    m.last_box_day = Some(day);
    let (id, b) = (m.id, m.boxes_done);
    match id {
        DestroyAaGuns => {
            if b >= 5 {
                complete(s, slot, Tier::Major);
            } else if b >= 3 && !s.missions[slot].complete {
                complete(s, slot, Tier::Success);
            }
        }
        // Their last box is done by `perform` with a tier; the earlier ones never complete.
        MiliceHq | BombTheBarracks | FreeTheResistanceLeader => {}
        // Completed at the end of day 10 (`end_of_day`).
        CodedMessages if b < 2 => {}
        // Six visits, then the Dark Lady.
        DoubleAgent if b < 7 => {}
        _ => {
            if b >= s.missions[slot].boxes() {
                complete(s, slot, Tier::Success);
            }
        }
    }
}

/// Marks a mission complete at the given tier (M-tier: the best reached so far) and checks E1.
pub fn complete(s: &mut State, slot: usize, tier: Tier) {
    let m = &mut s.missions[slot];
    m.complete = true;
    m.tier = Some(match (m.tier, tier) {
        (Some(Tier::Major), _) | (_, Tier::Major) => Tier::Major,
        _ => Tier::Success,
    });
    check_end(s);
}

/// M-double_agent: an activation at one of the six locations marks it visited; the sixth reveals
/// the Dark Lady (the first location of the top patrol card, which is discarded).
pub fn on_activation(s: &mut State, loc: Location) {
    if !s.has_open(DoubleAgent) || VISIT_LOCATIONS & bit(loc) & !s.marks.visited == 0 {
        return;
    }
    s.marks.visited |= bit(loc);
    let slot = s.mission_slot(DoubleAgent).unwrap();
    box_done(s, slot);
    if s.marks.visited & VISIT_LOCATIONS == VISIT_LOCATIONS && s.marks.dark_lady.is_none() {
        let card = s.deck.draw(&mut s.rng);
        s.marks.dark_lady = Some(crate::maquis::deck::PATROL_CARDS[card as usize][0]);
    }
}

/// F9 step 1: end-of-day mission effects, then the deadlines of the day that ends.
pub fn end_of_day(s: &mut State) {
    // M-take_out_the_bridges: chosen bridges are destroyed tonight.
    if s.marks.bridges_chosen != 0 {
        let chosen = s.marks.bridges_chosen;
        s.marks.bridges_chosen = 0;
        s.marks.bridges_destroyed |= chosen;
        if let Some(slot) = s.mission_slot(TakeOutTheBridges) {
            for _ in 0..chosen.count_ones() {
                if s.missions[slot].open() {
                    box_done(s, slot);
                }
            }
        }
    }
    // M-coded_messages: the cryptographer comes home at the end of day 10, the mission complete.
    if let Some(slot) = s.mission_slot(CodedMessages) {
        if s.day == 10 && s.missions[slot].open() && s.missions[slot].boxes_done == 1 {
            s.marks.stuck &= !bit(SLOTS[slot]);
            s.home += 1;
            box_done(s, slot);
        }
    }
    missed_deadlines(s, s.day);
}

/// Deadlines of `day` (its end has passed): the mission can no longer be completed.
pub fn missed_deadlines(s: &mut State, day: u8) {
    for slot in 0..2 {
        let m = &s.missions[slot];
        let missed = m.open()
            && match m.id {
                CodedMessages => day >= 6 && m.boxes_done == 0,
                FreeTheResistanceLeader => (day >= 5 && m.boxes_done == 0) || (day >= 10 && m.boxes_done < 2),
                _ => false,
            };
        // Mutable access only on a change (the missions are tracked).
        if missed {
            s.missions[slot].failed = true;
        }
    }
}

/// M-assassination: complete at the first moment the soldier track is 5 and the other mission is
/// complete.
pub fn check_assassination(s: &mut State) {
    if let Some(slot) = s.mission_slot(Assassination) {
        let other = &s.missions[1 - slot];
        if s.missions[slot].open() && s.tracks.soldiers == 5 && other.complete {
            let m = &mut s.missions[slot];
            m.complete = true;
            m.boxes_done = 1;
            m.tier = Some(Tier::Success);
        }
    }
}

/// M-liberate_the_town: at the final move of the day marker, ≥ 3 weapons and morale ≥ 4.
pub fn check_liberation(s: &mut State) {
    if let Some(slot) = s.mission_slot(LiberateTheTown) {
        if s.missions[slot].open() && s.tokens.hand[Weapon.idx()] >= 3 && s.tracks.morale >= 4 {
            let m = &mut s.missions[slot];
            m.complete = true;
            m.boxes_done = 1;
            m.tier = Some(Tier::Success);
        }
    }
}
