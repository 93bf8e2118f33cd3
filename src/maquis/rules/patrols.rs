//! F2, P3, P4. How many patrols come out, where each goes, and which are soldiers.

use crate::maquis::deck::PATROL_CARDS;
use crate::maquis::ids::{Location, Pawn};
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

/// Where P3 puts the patrol of a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// On this location, which held no pawn.
    On(Location),
    /// On this location, arresting the worker there.
    Arrest(Location),
    /// Not placed: all three locations hold patrols.
    Nowhere,
}

/// P3. The patrol of `card` goes to its first location without a pawn (`empty`); failing that it
/// arrests the first Resistance worker listed (`worker`); if all three hold patrols it is not
/// placed. Pure, so that a simulation of the day can use the rule itself.
#[inline(always)]
pub fn landing(card: u8, empty: impl Fn(Location) -> bool, worker: impl Fn(Location) -> bool) -> Landing {
    let locs = PATROL_CARDS[card as usize];
    if let Some(&l) = locs.iter().find(|&&l| empty(l)) {
        Landing::On(l)
    } else if let Some(&l) = locs.iter().find(|&&l| worker(l)) {
        Landing::Arrest(l)
    } else {
        Landing::Nowhere
    }
}

/// P3. Draw a card and place its patrol (`landing`).
pub fn place_patrol(s: &mut State) {
    let pawn = if is_soldier(s, s.patrols_drawn) { Pawn::Soldier } else { Pawn::Milice };
    s.patrols_drawn += 1;
    let card = s.deck.draw(&mut s.rng);
    match landing(card, |l| s.pawns[l.idx()] == Pawn::Empty, |l| s.pawns[l.idx()] == Pawn::Worker) {
        Landing::On(l) => s.pawns[l.idx()] = pawn,
        Landing::Arrest(l) => {
            super::arrest_worker_at(s, l);
            s.pawns[l.idx()] = pawn;
        }
        Landing::Nowhere => {}
    }
}
