//! M-milice_parade_day. Milice Parade Day (0★, shield).
//! While unfinished, rue_baradat–fence is closed on orange days; `parade` at rue_baradat on one of them, pay 1 weapon: morale +1, complete, the worker arrested.

use super::prelude::*;

/// The cost of `parade`.
pub const PARADE: Cost = cost(&[(Weapon, 1)]);

/// `parade`: only at rue_baradat, on an orange day (the road closure itself is B4's).
#[inline]
pub(super) fn board_cost(s: &State, loc: Location) -> Option<Cost> {
    (loc == RueBaradat && s.has_open(MiliceParadeDay) && is_orange(s.day)).then_some(PARADE)
}

pub(super) fn parade(s: &mut State) -> Performed {
    change_morale(s, 1);
    let slot = s.mission_slot(MiliceParadeDay).unwrap();
    box_done(s, slot);
    Performed { unsafe_reward: None, disposition: Disposition::Arrested }
}
