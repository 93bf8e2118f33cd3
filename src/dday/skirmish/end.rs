//! E1, E2: the end of a skirmish — markers become killed, the record is kept, and the next
//! skirmish or the scoring follows.

use super::setup;
use crate::dday::ids::{FigState, Side};
use crate::dday::scoring;
use crate::dday::state::{Pending, Record, State};

pub fn end_skirmish(s: &mut State, completed: Option<Side>) {
    let sk = &mut s.skirmish;
    for f in sk.figures_mut() {
        if f.state == FigState::Casualty {
            f.state = FigState::Killed;
        }
        f.fresh = false;
    }
    sk.acting = None;
    sk.pools = [0; 6];
    sk.pools_rolled = [false; 6];
    s.pending = None::<Pending>;
    let n = |side: Side, st: FigState| sk.count(side, st) as u8;
    let record = Record {
        zone: sk.zone,
        completed,
        task: sk.task,
        resistance_size: sk.group_size,
        resistance_killed: n(Side::Resistance, FigState::Killed),
        resistance_ran_away: n(Side::Resistance, FigState::RanAway),
        resistance_evacuated: n(Side::Resistance, FigState::Evacuated),
        german_figures: sk.figures().iter().filter(|f| f.side() == Side::German).count() as u8,
        german_killed: n(Side::German, FigState::Killed),
        german_ran_away: n(Side::German, FigState::RanAway),
        german_evacuated: n(Side::German, FigState::Evacuated),
    };
    let slot = s.skirmish_index.unwrap_or(0);
    s.records[slot as usize] = Some(record);
    if slot == 0 {
        s.skirmish_index = Some(1);
        setup::start(s);
    } else {
        s.skirmish_index = None;
        scoring::start(s);
    }
}
