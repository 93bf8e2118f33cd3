//! The names the missions are written with: the game's effects (`crate::maquis::effects`) and
//! the tables a card refers to.

pub(super) use crate::maquis::action::Opt;
pub(super) use crate::maquis::board::{bit, field_index, LocSet, SLOTS};
pub(super) use crate::maquis::deck::PATROL_CARDS;
pub(super) use crate::maquis::effects::{
    advance_soldiers, box_done, change_morale, complete, cost, not_today, settle, Cost, Disposition, Performed, FREE,
    HOME,
};
pub(super) use crate::maquis::ids::{Location, Location::*, MissionId::*, Resource::*};
pub(super) use crate::maquis::state::{Reward, State, Tier};
pub(super) use crate::maquis::tracks::is_orange;
