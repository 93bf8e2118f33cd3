//! Scenario helpers shared by the rule tests: build a game with fixed missions and patrol deck,
//! then drive it by action name. Positions can be adjusted through `State`'s public fields.
#![allow(dead_code)]

use maquis::ids::{Difficulty, MissionId};
use maquis::{action_table, apply, legal_mask, new_game, Setup, StartOverrides, State};

/// A setup with fixed missions (first on mission_a) and a fixed patrol deck (draw order).
pub fn setup(d: Difficulty, a: MissionId, b: MissionId, deck: [u8; 10]) -> Setup {
    Setup::new(d).missions(a, b).patrol_deck(deck)
}

/// A game at its first decision.
pub fn game(setup: &Setup) -> State {
    new_game(setup, 0).expect("valid setup")
}

/// A normal game with the given missions and deck, started with these overrides.
pub fn game_with(a: MissionId, b: MissionId, deck: [u8; 10], start: StartOverrides) -> State {
    game(&setup(Difficulty::Normal, a, b, deck).start(start))
}

/// The names of the legal actions now.
pub fn legal_names(s: &State) -> Vec<String> {
    legal_mask(s).iter().map(|i| action_table().names[i].clone()).collect()
}

pub fn is_legal(s: &State, name: &str) -> bool {
    let i = action_table().from_name(name).unwrap_or_else(|e| panic!("{e}"));
    legal_mask(s).get(i)
}

/// Applies the named action; panics (with the legal actions) if it is refused.
pub fn act(s: &mut State, name: &str) {
    if let Err(e) = try_act(s, name) {
        panic!("{e}\nlegal now: {:?}", legal_names(s));
    }
}

pub fn try_act(s: &mut State, name: &str) -> maquis::Result<()> {
    let i = action_table().from_name(name)?;
    apply(s, i as i64)
}

/// Applies several named actions in order.
pub fn play(s: &mut State, names: &[&str]) {
    for n in names {
        act(s, n);
    }
}
