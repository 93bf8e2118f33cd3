//! Scenario helpers shared by the rule tests: build a game with fixed missions and patrol deck,
//! then drive it by action name. Positions can be adjusted through `State`'s public fields.
#![allow(dead_code)]

use maquis::maquis::ids::{Difficulty, MissionId};
use maquis::maquis::{action_table, apply, legal_mask, new_game, Setup, StartOverrides, State};

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

/// Tokens of `r` in the hand and in the supply.
pub fn hand(s: &State, r: maquis::maquis::Resource) -> u8 {
    s.tokens.hand[r.idx()]
}
pub fn supply(s: &State, r: maquis::maquis::Resource) -> u8 {
    s.tokens.supply[r.idx()]
}

/// Applies several named actions in order.
pub fn play(s: &mut State, names: &[&str]) {
    for n in names {
        act(s, n);
    }
}

// ---------------------------------------------------------------------------------------------
// Position builders (added for the B/T/P/F/A/E/D rule tests).
// In a module of their own so that their imports never clash with the helpers above. Not every
// test crate uses them.
#[allow(unused_imports)]
pub use positions::*;

pub mod positions {
    use super::{act, is_legal, legal_names};
    use maquis::maquis::ids::{Location, Pawn, Phase, Resource};
    use maquis::maquis::State;

    /// Moves `n` tokens of `r` from the supply to the hand (T4 stays balanced).
    pub fn give(s: &mut State, r: Resource, n: u8) {
        assert!(s.tokens.supply[r.idx()] >= n, "the supply holds only {} {r}", s.tokens.supply[r.idx()]);
        s.tokens.supply[r.idx()] -= n;
        s.tokens.hand[r.idx()] += n;
    }

    /// Turns a game in its placement phase with nothing placed yet into an action phase: workers
    /// (taken from the Safe House) on `workers`, Milice on `milice`, soldiers on `soldiers`, every
    /// patrol of the day already drawn. The result passes `maquis::maquis::save::validate`.
    pub fn action_phase(s: &mut State, workers: &[Location], milice: &[Location], soldiers: &[Location]) {
        assert_eq!(s.phase, Phase::Placement, "action_phase starts from a placement phase");
        assert!(s.pawns.iter().all(|&p| p == Pawn::Empty), "action_phase starts from an empty board");
        assert!(workers.len() as u8 <= s.home, "only {} workers are home", s.home);
        for &l in workers {
            s.pawns[l.idx()] = Pawn::Worker;
        }
        for &l in milice {
            s.pawns[l.idx()] = Pawn::Milice;
        }
        for &l in soldiers {
            s.pawns[l.idx()] = Pawn::Soldier;
        }
        s.home -= workers.len() as u8;
        // The day's F2 count, all drawn (patrols whose three places were taken stand nowhere).
        let patrols = (milice.len() + soldiers.len()) as u8;
        s.patrols_today = s.patrols_today.max(patrols);
        s.patrols_drawn = s.patrols_today;
        s.phase = Phase::Action;
        maquis::maquis::save::validate(s).unwrap_or_else(|e| panic!("action_phase built an invalid state: {e}"));
    }

    /// Gives the worker on `l` a Fake ID taken from the supply (F5).
    pub fn fake_id_on(s: &mut State, l: Location) {
        assert_eq!(s.pawns[l.idx()], Pawn::Worker);
        let f = Resource::FakeId.idx();
        assert!(s.tokens.supply[f] > 0);
        s.tokens.supply[f] -= 1;
        s.marks.fake_ids |= maquis::maquis::board::bit(l);
    }

    pub fn pawn_at(s: &State, l: Location) -> Pawn {
        s.pawns[l.idx()]
    }

    /// Number of patrols (Milice and soldiers) on the board.
    pub fn patrols_on_board(s: &State) -> u32 {
        s.patrol_set().count_ones()
    }

    /// Finishes the action phase: accepts any pending shot decision and activates every remaining
    /// worker without an action, until the next placement phase (or the end of the game).
    pub fn skip_rest_of_day(s: &mut State) {
        let mut guard = 0;
        while matches!(s.phase, Phase::Action | Phase::PostAction) {
            if s.phase == Phase::PostAction {
                act(s, "accept");
            } else {
                let l = s.locs_with(Pawn::Worker).trailing_zeros() as usize;
                let name = format!("skip:{}", Location::ALL[l].as_str());
                act(s, &name);
            }
            guard += 1;
            assert!(guard < 50);
        }
    }

    /// Plays one whole day: places every available worker on the first of `spots` that is legal,
    /// then activates them all without an action.
    pub fn pass_day(s: &mut State, spots: &[Location]) {
        let day = (s.pass, s.day);
        while s.phase == Phase::Placement && (s.pass, s.day) == day {
            let spot = spots
                .iter()
                .find(|l| is_legal(s, &format!("place:{}", l.as_str())))
                .unwrap_or_else(|| panic!("no legal spot among {spots:?}; legal: {:?}", legal_names(s)));
            act(s, &format!("place:{}", spot.as_str()));
        }
        skip_rest_of_day(s);
    }
}
