//! Helpers shared by the Maurice Lite tests: positions built from the reset options, actions by
//! name, card deals.
#![allow(dead_code)]

use maquis::maurice::cards::{playable_cards, Card};
use maquis::maurice::grid::Cell;
use maquis::maurice::scenario::UnitSpec;
use maquis::maurice::setup::{CardsSetup, TerrainChoice};
use maquis::maurice::terrain::Terrain;
use maquis::maurice::{self, action_from_str, Facing, Formation, Setup, Side, State, UnitType};

/// The index of a canonical action name (panics on a typo: a test bug).
pub fn idx(name: &str) -> usize {
    action_from_str(name).unwrap_or_else(|e| panic!("{e}"))
}

pub fn legal(s: &State, name: &str) -> bool {
    maurice::legal_mask(s).get(idx(name))
}

/// The names of the legal actions.
pub fn legal_names(s: &State) -> Vec<&'static str> {
    maurice::legal_mask(s).iter().map(|i| maurice::action_names()[i]).collect()
}

/// Applies named actions in order, panicking with the phase on an illegal one.
pub fn play(s: &mut State, names: &[&str]) {
    for n in names {
        maurice::apply(s, idx(n) as i64).unwrap_or_else(|e| panic!("{n}: {e}\nphase {:?}", s.phase));
    }
}

pub fn start(setup: &Setup) -> State {
    maurice::new_game(1, setup).unwrap_or_else(|e| panic!("{e}"))
}

pub fn c(x: i8, y: i8) -> Cell {
    Cell::new(x, y)
}

/// A unit spec: `inf`/`cav` in `line`/`column`/`massed`, `art` in `artillery`.
pub fn u(id: u8, kind: UnitType, formation: Formation, x: i8, y: i8, facing: Facing) -> UnitSpec {
    UnitSpec { id, kind, formation, at: Cell::new(x, y), facing, disr: 0, smoke: false }
}

pub fn inf(id: u8, x: i8, y: i8, facing: Facing) -> UnitSpec {
    u(id, UnitType::Inf, Formation::Line, x, y, facing)
}
pub fn cav(id: u8, x: i8, y: i8, facing: Facing) -> UnitSpec {
    u(id, UnitType::Cav, Formation::Massed, x, y, facing)
}
pub fn art(id: u8, x: i8, y: i8, facing: Facing) -> UnitSpec {
    u(id, UnitType::Art, Formation::Artillery, x, y, facing)
}

/// The cards: the two hands, the deck top first and the discard pile; every other playable card
/// is added to the discard pile (after those given), every `reshuffle` not in the deck is removed.
pub fn deal(blue: &[Card], red: &[Card], deck: &[Card], discard: &[Card]) -> CardsSetup {
    let mut rest = playable_cards();
    rest.extend([Card::Reshuffle; 2]);
    for card in blue.iter().chain(red).chain(deck).chain(discard) {
        let i = rest.iter().position(|x| x == card).unwrap_or_else(|| panic!("too many {card}"));
        rest.remove(i);
    }
    let (removed, others): (Vec<Card>, Vec<Card>) = rest.into_iter().partition(|&c| c == Card::Reshuffle);
    let mut discard = discard.to_vec();
    discard.extend(others);
    CardsSetup { hands: [blue.to_vec(), red.to_vec()], deck: deck.to_vec(), discard, removed }
}

/// As `deal`, but every card not given goes to the bottom of the deck (K1 order), so that the
/// discard pile holds only the cards given.
pub fn deal_to_deck(blue: &[Card], red: &[Card], deck: &[Card], discard: &[Card]) -> CardsSetup {
    let mut cards = deal(blue, red, deck, discard);
    let rest: Vec<Card> = cards.discard.drain(discard.len()..).collect();
    cards.deck.extend(rest);
    cards
}

/// A position on open ground (or `terrain`): the given armies and CinCs, blue first to act, the
/// given cards.
pub fn position(blue: &[UnitSpec], red: &[UnitSpec], cinc: [Cell; 2], cards: CardsSetup) -> Setup {
    Setup {
        terrain: TerrainChoice::Map(Box::new(Terrain::open())),
        units: Some([blue.to_vec(), red.to_vec()]),
        cinc: Some(cinc),
        first: Some(Side::Blue),
        cards: Some(cards),
        ..Setup::default()
    }
}

/// `position` on a given terrain.
pub fn position_on(terrain: Terrain, blue: &[UnitSpec], red: &[UnitSpec], cinc: [Cell; 2], cards: CardsSetup) -> Setup {
    Setup { terrain: TerrainChoice::Map(Box::new(terrain)), ..position(blue, red, cinc, cards) }
}

/// One infantry line a side, far apart, the CinCs behind them, blue active.
pub fn quiet(cards: CardsSetup) -> Setup {
    position(&[inf(0, 20, 5, Facing::N)], &[inf(0, 23, 24, Facing::S)], [c(22, 2), c(22, 27)], cards)
}
