//! S1–S5: setting up a skirmish from scratch (C4).

use super::turn;
use crate::dday::ids::{ChanceEvent, FigState, Kind, Phase, Side, Unit, Zone, CLOCK_START};
use crate::dday::state::{Figure, Pending, Skirmish, State, MAX_FIGURES};

impl Skirmish {
    /// A skirmish with no figures (before the first one and as a blank to fill).
    pub fn empty(zone: Zone) -> Skirmish {
        Skirmish {
            zone,
            clock: CLOCK_START,
            task_section: None,
            turn: Side::Resistance,
            turn_number: 1,
            task: [0, 0],
            task_rolled: false,
            pools: [0; 6],
            pools_rolled: [false; 6],
            acting: None,
            group_size: 0,
            n_figures: 0,
            figures: [Figure::NONE; MAX_FIGURES],
        }
    }

    fn push(&mut self, unit: Unit, section: u8, n: u8) {
        for _ in 0..n {
            self.figures[self.n_figures as usize] = Figure { unit, section, state: FigState::Standing, ..Figure::NONE };
            self.n_figures += 1;
        }
    }
}

/// S1: the group-size die, then the Resistance's `reroll`/`keep`.
pub fn start(s: &mut State) {
    let slot = s.skirmish_index.unwrap_or(0) as usize;
    s.skirmish = Skirmish::empty(s.order.map_or(Zone::Caen, |o| o[slot]));
    let die = s.dice.roll1(ChanceEvent::GroupSize);
    s.pending = Some(Pending::GroupSize { die });
    s.phase = Phase::GroupSize;
}

/// S1's decision, then S2–S5 and the Resistance's first turn.
pub fn decide_group_size(s: &mut State, reroll: bool) {
    let Some(Pending::GroupSize { die }) = s.pending else { return };
    let die = if reroll { s.dice.roll1(ChanceEvent::GroupSize) } else { die };
    s.pending = None;
    let slot = s.skirmish_index.unwrap_or(0) as usize;
    let zone = s.order.map_or(Zone::Caen, |o| o[slot]);
    let items = s.contents()[zone.idx()];
    let mut sk = Skirmish::empty(zone);
    // S2, S3: deployment, ids numbered Resistance, squad, gendarme_1..3.
    sk.group_size = die + 3;
    sk.push(Unit::Resistance, 1, die + 3);
    if items[Kind::Squad.idx()] > 0 {
        sk.push(Unit::Squad, 6, 6);
    }
    for k in 0..items[Kind::Gendarme.idx()] as usize {
        sk.push(Unit::gendarme(k), 6, 3);
    }
    // S4: 1 → section 1; 2–4 → 2; 5–6 → 3.
    sk.task_section = Some(match s.dice.roll1(ChanceEvent::TaskSection) {
        1 => 1,
        2..=4 => 2,
        _ => 3,
    });
    s.skirmish = sk;
    // S5: clock 30, empty task sets, the Resistance first.
    turn::begin_turn(s);
}
