//! F6, A1–A6, B2. What a placed worker can do when activated: the printed location actions, the
//! spare-room tiles, and the mission options (delegated to `missions::hooks`).

use crate::maquis::action::Opt;
use crate::maquis::board::{field_index, spare_room_index, SAFE_LOCATIONS, bit};
use crate::maquis::config::{airdrop_amount, tile_in_pool};
use crate::maquis::ids::{Location, Location::*, Resource, Resource::*, Tile, NUM_RESOURCES};
use crate::maquis::missions::hooks as mission_rules;
pub use crate::maquis::effects::{can_pay, cost, grant, pay, settle, Cost, Disposition, Performed, FREE, HOME};
use crate::maquis::state::{Reward, State};




/// An action whose whole effect is: pay `cost`, gain `gain` tokens and `morale`.
#[derive(Clone, Copy)]
pub struct Simple {
    pub cost: Cost,
    pub gain: Cost,
    pub morale: i8,
    pub safe: bool,
}

const fn simple(c: &[(Resource, u8)], g: &[(Resource, u8)], morale: i8, safe: bool) -> Simple {
    Simple { cost: cost(c), gain: cost(g), morale, safe }
}

/// A5. The action of a built tile (`Fixer` and `SafeHouse` have none of their own).
pub fn tile_action(t: Tile, opt: Opt) -> Option<Simple> {
    Some(match (t, opt) {
        (Tile::Informant, Opt::Intel) => simple(&[], &[(Intel, 1)], 0, false),
        (Tile::Counterfeiter, Opt::Money) => simple(&[], &[(Money, 1)], 0, false),
        (Tile::ChemistsLab, Opt::Explosive) => simple(&[(Medicine, 1)], &[(Explosive, 1)], 0, false),
        (Tile::Smuggler, Opt::Medicine) => simple(&[], &[(Medicine, 3)], 0, false),
        (Tile::Smuggler, Opt::Food) => simple(&[], &[(Food, 3)], 0, false),
        (Tile::Propagandist, Opt::Morale) => simple(&[], &[], 1, true),
        (Tile::Pharmacist, Opt::Poison) => simple(&[(Medicine, 2)], &[(Poison, 1)], 0, false),
        (Tile::Forger, Opt::FakeId) => simple(&[(Intel, 1), (Money, 2)], &[(FakeId, 1)], 0, false),
        _ => return None,
    })
}

/// A5 fixer: the tile and option a `fixer_*` option performs.
pub fn fixer_target(opt: Opt) -> Option<(Tile, Opt)> {
    Some(match opt {
        Opt::FixerInformant => (Tile::Informant, Opt::Intel),
        Opt::FixerCounterfeiter => (Tile::Counterfeiter, Opt::Money),
        Opt::FixerChemistsLab => (Tile::ChemistsLab, Opt::Explosive),
        Opt::FixerSmugglerFood => (Tile::Smuggler, Opt::Food),
        Opt::FixerSmugglerMedicine => (Tile::Smuggler, Opt::Medicine),
        Opt::FixerPropagandist => (Tile::Propagandist, Opt::Morale),
        Opt::FixerPharmacist => (Tile::Pharmacist, Opt::Poison),
        Opt::FixerForger => (Tile::Forger, Opt::FakeId),
        _ => return None,
    })
}

/// B1. The printed actions of the board and the built tiles, as simple actions.
fn simple_action(s: &State, loc: Location, opt: Opt) -> Option<Simple> {
    let safe = SAFE_LOCATIONS & bit(loc) != 0;
    Some(match (loc, opt) {
        (Fence, Opt::Weapon) => simple(&[(Money, 1)], &[(Weapon, 1)], 0, safe),
        (Doctor, Opt::Medicine) => simple(&[], &[(Medicine, 1)], 0, safe),
        (Grocer, Opt::Food) => simple(&[], &[(Food, 1)], 0, safe),
        (PoorDistrict, Opt::Morale) => simple(&[(Food, 1), (Medicine, 1)], &[], 1, safe),
        // A6: the −1 morale is on the reward side.
        (BlackMarket, Opt::SellFood) => simple(&[(Food, 1)], &[(Money, 1)], -1, safe),
        (BlackMarket, Opt::SellMedicine) => simple(&[(Medicine, 1)], &[(Money, 1)], -1, safe),
        (RadioA | RadioB, Opt::Intel) => simple(&[], &[(Intel, 1)], 0, safe),
        (SpareRoomNe | SpareRoomW | SpareRoomSe, _) => {
            let tile = s.tile_at(loc)?;
            if tile == Tile::Fixer {
                let (target, target_opt) = fixer_target(opt)?;
                if s.tile_built(target) || !tile_in_pool(s.mission_pool, target) {
                    return None;
                }
                let mut a = tile_action(target, target_opt)?;
                a.cost[Money.idx()] += 1;
                a
            } else {
                tile_action(tile, opt)?
            }
        }
        _ => return None,
    })
}



/// T4: take up to `n` tokens from the supply; a shortfall is lost.
pub fn take(s: &mut State, r: Resource, n: u8) -> u8 {
    let got = n.min(s.tokens.supply[r.idx()]);
    if got > 0 {
        s.tokens.supply[r.idx()] -= got;
    }
    got
}

/// A1. The package an airdrop option drops, and on which field.
pub fn airdrop_option(opt: Opt) -> Option<(Location, Resource)> {
    Some(match opt {
        Opt::AirdropWMoney => (FieldW, Money),
        Opt::AirdropWWeapon => (FieldW, Weapon),
        Opt::AirdropWFood => (FieldW, Food),
        Opt::AirdropEMoney => (FieldE, Money),
        Opt::AirdropEWeapon => (FieldE, Weapon),
        Opt::AirdropEFood => (FieldE, Food),
        _ => return None,
    })
}

/// A1: an empty field has no airdrop, no AA gun, and is not made unusable by a mission.
pub fn field_is_empty(s: &State, field: Location) -> bool {
    let fi = field_index(field).unwrap();
    !s.field_has_tokens(fi) && s.marks.aa_guns & bit(field) == 0 && mission_rules::unusable(s) & bit(field) == 0
}

/// F6: can the worker on `loc` perform `opt` now (the option exists here today and its cost can
/// be paid)?
pub fn option_legal(s: &State, loc: Location, opt: Opt) -> bool {
    if let Some(a) = simple_action(s, loc, opt) {
        return can_pay(s, &a.cost);
    }
    match (loc, opt) {
        (RadioA | RadioB, _) if airdrop_option(opt).is_some() => field_is_empty(s, airdrop_option(opt).unwrap().0),
        (Cafe, Opt::Recruit) => s.recruitable > 0 && s.tokens.hand[Food.idx()] >= 1,
        (FieldW | FieldE, Opt::Pickup) => {
            let fi = field_index(loc).unwrap();
            s.tokens.airdrop_at_day_start[fi] && s.field_has_tokens(fi)
        }
        (SpareRoomNe | SpareRoomW | SpareRoomSe, _) if opt.built_tile().is_some() => {
            let t = opt.built_tile().unwrap();
            s.tile_at(loc).is_none()
                && !s.tile_built(t)
                && tile_in_pool(s.mission_pool, t)
                && s.tokens.hand[Money.idx()] >= 2
        }
        _ => mission_rules::option_legal(s, loc, opt),
    }
}

/// The options of `location_options(loc)` that can be legal at all with what stands there now
/// (the tile of a spare room, the card on a mission slot). `legal_mask` tests only these with
/// `option_legal`; they are a superset of the legal ones (`tests/mask_reference.rs` checks this
/// against testing every option).
pub fn candidate_options(s: &State, loc: Location) -> &'static [Opt] {
    match loc {
        SpareRoomNe | SpareRoomW | SpareRoomSe => {
            let tile = s.tile_at(loc);
            &spare_room_candidates()[tile.map_or(0, |t| t.idx() + 1)]
        }
        MissionA | MissionB => mission_rules::slot_options(s.missions[slot_of(loc)].id),
        _ => crate::maquis::action::location_options(loc),
    }
}

fn slot_of(loc: Location) -> usize {
    usize::from(loc == MissionB)
}

/// Spare-room options that `simple_action` or the building rule can accept, by tile (index 0:
/// no tile; 1 + tile index), derived from `tile_action` and `fixer_target` once.
fn spare_room_candidates() -> &'static [Vec<Opt>; 1 + crate::maquis::ids::NUM_TILES] {
    static TABLE: std::sync::OnceLock<[Vec<Opt>; 1 + crate::maquis::ids::NUM_TILES]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let all = crate::maquis::action::location_options(SpareRoomNe);
        std::array::from_fn(|i| {
            let keep = |o: Opt| match i.checked_sub(1).and_then(Tile::from_idx) {
                None => o.built_tile().is_some(),
                Some(Tile::Fixer) => fixer_target(o).is_some(),
                Some(t) => tile_action(t, o).is_some(),
            };
            all.iter().copied().filter(|&o| keep(o)).collect()
        })
    })
}





/// Performs a legal option: pays the cost and applies or returns the reward (B2).
pub fn perform(s: &mut State, loc: Location, opt: Opt) -> Performed {
    let home = Disposition::GoHome { with_mole: false };
    if let Some(a) = simple_action(s, loc, opt) {
        pay(s, &a.cost);
        let mut r = Reward { morale: a.morale, ..Reward::default() };
        for res in Resource::ALL {
            r.tokens[res.idx()] = take(s, *res, a.gain[res.idx()]);
        }
        return settle(s, r, a.safe, home);
    }
    match (loc, opt) {
        (RadioA | RadioB, _) if airdrop_option(opt).is_some() => {
            let (field, res) = airdrop_option(opt).unwrap();
            let mut r = Reward { airdrop_field: Some(field), ..Reward::default() };
            r.tokens[res.idx()] = take(s, res, airdrop_amount(s.difficulty, res));
            settle(s, r, false, home)
        }
        (Cafe, Opt::Recruit) => {
            pay(s, &cost(&[(Food, 1)]));
            settle(s, Reward { recruit: true, ..Reward::default() }, false, home)
        }
        (FieldW | FieldE, Opt::Pickup) => {
            let fi = field_index(loc).unwrap();
            let r = Reward { tokens: std::mem::take(&mut s.tokens.airdrop[fi]), ..Reward::default() };
            settle(s, r, false, home)
        }
        (SpareRoomNe | SpareRoomW | SpareRoomSe, _) if opt.built_tile().is_some() => {
            // A4: building is safe and immediate.
            pay(s, &cost(&[(Money, 2)]));
            s.marks.tiles[spare_room_index(loc).unwrap()] = opt.built_tile();
            Performed { unsafe_reward: None, disposition: home }
        }
        _ => mission_rules::perform(s, loc, opt),
    }
}



/// B2: a lost reward's tokens go back to the supply.
pub fn forfeit(s: &mut State, r: &Reward) {
    if r.tokens == [0; NUM_RESOURCES] {
        return;
    }
    for i in 0..NUM_RESOURCES {
        s.tokens.supply[i] += r.tokens[i];
    }
}
