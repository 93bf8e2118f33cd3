//! M-take_out_the_bridges. Take out the Bridges (2★, shield, no slot).
//! At black_market, `bridge_north` or `bridge_south` (not chosen yet), pay 2 explosives; the chosen bridge is destroyed at the end of the day; both destroyed completes it.

use super::prelude::*;

/// The cost of `bridge_north` or `bridge_south`.
pub const BRIDGE: Cost = cost(&[(Explosive, 2)]);

/// The bit of each bridge in `marks.bridges_chosen` / `bridges_destroyed`.
#[inline]
fn bridge_bit(opt: Opt) -> u8 {
    if opt == Opt::BridgeNorth {
        1
    } else {
        2
    }
}

#[inline]
pub(super) fn board_cost(s: &State, loc: Location, opt: Opt) -> Option<Cost> {
    if loc != BlackMarket || !s.has_open(TakeOutTheBridges) {
        return None;
    }
    if (s.marks.bridges_chosen | s.marks.bridges_destroyed) & bridge_bit(opt) != 0 {
        return None;
    }
    Some(BRIDGE)
}

pub(super) fn choose(s: &mut State, opt: Opt) -> Performed {
    s.marks.bridges_chosen |= bridge_bit(opt);
    Performed::HOME
}

/// F9 step 1: chosen bridges are destroyed tonight.
pub(super) fn end_of_day(s: &mut State) {
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
}
