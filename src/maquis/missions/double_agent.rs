//! M-double_agent. Double Agent (1★, shield).
//! Activations at six locations mark them visited; the sixth reveals the Dark Lady (first location of the top patrol card, discarded); `dark_lady` there completes it, the worker removed.

use super::prelude::*;

/// The six locations to visit.
pub const VISIT_LOCATIONS: LocSet =
    bit(RueBaradat) | bit(PontDuNord) | bit(Doctor) | bit(PoorDistrict) | bit(RadioA) | bit(PontLeveque);

/// An activation at one of the six locations marks it visited; the sixth reveals the Dark Lady.
pub fn on_activation(s: &mut State, loc: Location) {
    if !s.has_open(DoubleAgent) || VISIT_LOCATIONS & bit(loc) & !s.marks.visited == 0 {
        return;
    }
    s.marks.visited |= bit(loc);
    let slot = s.mission_slot(DoubleAgent).unwrap();
    box_done(s, slot);
    if s.marks.visited & VISIT_LOCATIONS == VISIT_LOCATIONS && s.marks.dark_lady.is_none() {
        let card = s.deck.draw(&mut s.rng);
        s.marks.dark_lady = Some(PATROL_CARDS[card as usize][0]);
    }
}

/// `dark_lady`: where she is.
#[inline]
pub(super) fn board_cost(s: &State, loc: Location) -> Option<Cost> {
    (s.has_open(DoubleAgent) && s.marks.dark_lady == Some(loc)).then_some(FREE)
}

pub(super) fn dark_lady(s: &mut State) -> Performed {
    let slot = s.mission_slot(DoubleAgent).unwrap();
    box_done(s, slot);
    Performed { unsafe_reward: None, disposition: Disposition::Removed }
}
