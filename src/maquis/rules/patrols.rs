//! F2, P3, P4. How many patrols come out, where each goes, and which are soldiers.

use crate::maquis::deck::PATROL_CARDS;
use crate::maquis::ids::Pawn;
use crate::maquis::state::State;
use crate::maquis::tracks::MIN_PATROLS;

/// F2. n = max(available workers, minimum patrols for the current morale); stuck workers do not count.
pub fn patrol_count(s: &State) -> u8 {
    s.home.max(MIN_PATROLS[s.tracks.morale as usize])
}

/// P4. The last min(s, n) patrols of the day (in draw order, unplaced ones counted) are soldiers.
pub fn is_soldier(s: &State, patrol_index: u8) -> bool {
    let soldiers = s.tracks.soldiers.min(s.patrols_today);
    patrol_index >= s.patrols_today - soldiers
}

/// P3. Draw a card; the patrol goes to its first location without a pawn; failing that it arrests
/// the first Resistance worker listed; if all three hold patrols it is not placed.
pub fn place_patrol(s: &mut State) {
    let pawn = if is_soldier(s, s.patrols_drawn) { Pawn::Soldier } else { Pawn::Milice };
    s.patrols_drawn += 1;
    let card = s.deck.draw(&mut s.rng);
    let locs = PATROL_CARDS[card as usize];
    if let Some(&l) = locs.iter().find(|&&l| s.pawns[l.idx()] == Pawn::Empty) {
        s.pawns[l.idx()] = pawn;
    } else if let Some(&l) = locs.iter().find(|&&l| s.pawns[l.idx()] == Pawn::Worker) {
        super::arrest_worker_at(s, l);
        s.pawns[l.idx()] = pawn;
    }
}
