//! The two entry points of the rules: `legal_mask(&State)` and `apply(&mut State, action)`, and
//! the automatic flow between decisions (patrols, route checks, upkeep).

pub mod actions;
pub mod patrols;
pub mod placement;
pub mod routes;
pub mod setup;
pub mod upkeep;

use crate::maquis::action::{table, Action, ActionMask, Opt};
use crate::maquis::board::{bit, PATROL_LOCATIONS};
use crate::maquis::config::arrest_costs_morale;
use crate::error::{Error, Result};
use crate::maquis::ids::{Location, Pawn, Phase, Resource};
use crate::maquis::missions::hooks as mission_rules;
use crate::maquis::state::{Pending, State};

use actions::Disposition;
use routes::Route;

pub use crate::maquis::effects::{advance_soldiers, change_morale};
pub use crate::maquis::end::check_end;
pub use setup::{new_state, Setup, StartOverrides, WorkerOverride};

/// Creates a game and runs it to the first decision.
pub fn new_game(setup: &Setup, seed: u64) -> Result<State> {
    let mut s = new_state(setup, seed)?;
    start_game(&mut s);
    Ok(s)
}

/// `new_game` written over `out` (unchanged on error). The vector environment's resets: a state
/// handed back by value would be copied on its way into the environment.
pub fn new_game_into(setup: &Setup, seed: u64, out: &mut State) -> Result<()> {
    *out = new_state(setup, seed)?;
    start_game(out);
    Ok(())
}

/// Runs a state fresh from setup to the first decision.
fn start_game(s: &mut State) {
    // API.md `start.day`: the deadlines of the days already passed count as missed.
    for d in 0..s.day {
        mission_rules::missed_deadlines(s, d);
    }
    begin_day(s);
    advance(s);
}

// ---------------------------------------------------------------------------------------------
// Legal actions

/// Every legal action now (empty once the game is over).
pub fn legal_mask(s: &State) -> ActionMask {
    let t = table();
    let mut mask = ActionMask::default();
    match s.phase {
        Phase::Placement => {
            // Action indices (action.rs): `place:<loc>` is loc − 1 (the Safe House, location 0,
            // takes no worker), `place:<loc>:fake_id` is 18 + loc − 1.
            let places = (placement::placeable_set(s) >> 1) as u64;
            let fake = s.tokens.hand[Resource::FakeId.idx()] > 0;
            mask.0[0] = places | if fake { places << 18 } else { 0 };
        }
        Phase::Action => {
            let mut workers = s.locs_with(Pawn::Worker);
            while workers != 0 {
                let l = Location::ALL[workers.trailing_zeros() as usize];
                workers &= workers - 1;
                mask.set(t.index(Action::Skip(l)).unwrap());
                worker_options(s, l, &mut mask);
            }
            shots(s, &mut mask);
        }
        Phase::PostAction => {
            mask.set(t.index(Action::Accept).unwrap());
            shots(s, &mut mask);
        }
        Phase::GameOver => {}
    }
    mask
}

/// The legal options of the worker on `l`: `option_legal` of each candidate, with what they share
/// worked out once where a location has many (the nine tiles a bare spare room can build, the six
/// airdrops of a radio), and a board location's mission options skipped while their mission is
/// not open. `tests/mask_reference.rs` holds the result to testing every option.
#[inline]
fn worker_options(s: &State, l: Location, mask: &mut ActionMask) {
    use crate::maquis::board::{field_index, spare_room_index};
    use crate::maquis::config::tile_in_pool;
    let t = table();
    let mut set = |opt: Opt| mask.set(t.index(Action::Act { loc: l, opt }).unwrap());
    if spare_room_index(l).is_some() && s.tile_at(l).is_none() {
        // A5: building, the only options of a bare spare room; 2 money for any tile.
        if s.tokens.hand[Resource::Money.idx()] >= 2 {
            // `State::tile_built` of every tile at once.
            let built = s.marks.tiles.iter().flatten().fold(0u32, |m, t| m | 1 << t.idx());
            for &opt in actions::candidate_options(s, l) {
                let tile = opt.built_tile().expect("a bare spare room's options are builds");
                if built >> tile.idx() & 1 == 0 && tile_in_pool(s.mission_pool, tile) {
                    set(opt);
                }
            }
        }
        return;
    }
    let mut empty = [None; 2];
    // The missions dealt and still open, one bit per id (for `board_option_mission`).
    let open = s.missions.iter().filter(|m| m.open()).fold(0u32, |acc, m| acc | 1 << m.id.idx());
    let on_board = crate::maquis::board::slot_index(l).is_none();
    for &opt in actions::candidate_options(s, l) {
        if on_board && mission_rules::board_option_mission(opt).is_some_and(|m| open & 1 << m.idx() == 0) {
            continue;
        }
        let legal = match actions::airdrop_option(opt) {
            // A1 (radios): one test per field, not per package.
            Some((field, _)) => {
                let fi = field_index(field).unwrap();
                *empty[fi].get_or_insert_with(|| actions::field_is_empty(s, field))
            }
            None => actions::option_legal(s, l, opt),
        };
        if legal {
            set(opt);
        }
    }
}

/// `legal_mask` the slow way, testing every option of every worker's location: the reference
/// that `tests/mask_reference.rs` holds the fast mask to.
#[doc(hidden)]
pub fn legal_mask_reference(s: &State) -> ActionMask {
    let t = table();
    let mut mask = ActionMask::default();
    match s.phase {
        Phase::Placement => {
            for &l in Location::ALL {
                if placement::placeable(s, l) {
                    mask.set(t.index(Action::Place { loc: l, fake_id: false }).unwrap());
                    if s.tokens.hand[Resource::FakeId.idx()] > 0 {
                        mask.set(t.index(Action::Place { loc: l, fake_id: true }).unwrap());
                    }
                }
            }
        }
        Phase::Action => {
            for &l in Location::ALL {
                if s.pawns[l.idx()] == Pawn::Worker {
                    mask.set(t.index(Action::Skip(l)).unwrap());
                    for &opt in crate::maquis::action::location_options(l) {
                        if actions::option_legal(s, l, opt) {
                            mask.set(t.index(Action::Act { loc: l, opt }).unwrap());
                        }
                    }
                }
            }
            shots(s, &mut mask);
        }
        Phase::PostAction => {
            mask.set(t.index(Action::Accept).unwrap());
            shots(s, &mut mask);
        }
        Phase::GameOver => {}
    }
    mask
}

fn shots(s: &State, mask: &mut ActionMask) {
    if shot_possible(s) {
        for &l in PATROL_LOCATIONS.iter() {
            if s.pawns[l.idx()] == Pawn::Milice {
                mask.set(table().index(Action::Shoot(l)).unwrap());
            }
        }
    }
}

/// Weapons the player could spend now: the hand, plus the weapon `pending` carries (F8).
fn weapons_at_hand(s: &State, pending: Option<&Pending>) -> u8 {
    let pending = pending
        .and_then(|p| p.reward)
        .filter(|r| r.airdrop_field.is_none())
        .map_or(0, |r| r.tokens[Resource::Weapon.idx()]);
    s.tokens.hand[Resource::Weapon.idx()] + pending
}

/// F8. A weapon at hand, no shot today, a Milice on the board, German Shepherds not unfinished.
pub fn shot_possible(s: &State) -> bool {
    shot_possible_with(s, s.today.pending.as_ref())
}

/// `shot_possible` with `pending` as the activation awaiting its route check.
fn shot_possible_with(s: &State, pending: Option<&Pending>) -> bool {
    !s.today.shot_today
        && weapons_at_hand(s, pending) > 0
        && !mission_rules::shooting_forbidden(s)
        && s.pawns.contains(&Pawn::Milice)
}

fn illegal(s: &State, a: Action, reason: &str) -> Error {
    Error::IllegalAction { action: a.name(), phase: s.phase.as_str(), reason: reason.to_string() }
}

/// Why `a` is not legal now (for the error message).
fn why_illegal(s: &State, a: Action) -> String {
    let expected = match s.phase {
        Phase::Placement => "a place:<loc> action",
        Phase::Action => "an act:, skip: or shoot: action",
        Phase::PostAction => "shoot:<loc> or accept",
        Phase::GameOver => "nothing (the game is over)",
    };
    let wrong_phase = !matches!(
        (a, s.phase),
        (Action::Place { .. }, Phase::Placement)
            | (Action::Act { .. } | Action::Skip(_), Phase::Action)
            | (Action::Shoot(_), Phase::Action | Phase::PostAction)
            | (Action::Accept, Phase::PostAction)
    );
    if wrong_phase {
        return format!("this phase expects {expected}");
    }
    match a {
        Action::Place { loc, fake_id } => {
            if fake_id && s.tokens.hand[Resource::FakeId.idx()] == 0 {
                "no Fake ID in hand".into()
            } else if s.pawns[loc.idx()] != Pawn::Empty {
                format!("{loc} already holds a pawn")
            } else {
                format!("{loc} is not a placeable location now (F4)")
            }
        }
        Action::Act { loc, .. } | Action::Skip(loc) if s.pawns[loc.idx()] != Pawn::Worker => {
            format!("no worker waits for activation on {loc}")
        }
        Action::Act { .. } => "the option is not available here now or its cost cannot be paid".into(),
        Action::Shoot(loc) if s.pawns[loc.idx()] != Pawn::Milice => format!("no Milice on {loc}"),
        Action::Shoot(_) => "no shot is possible (F8: a weapon, once a day, no German Shepherds)".into(),
        _ => "not legal now".into(),
    }
}

// ---------------------------------------------------------------------------------------------
// Applying a decision

/// Applies one decision of the player and runs everything automatic until the next decision.
pub fn apply(s: &mut State, index: i64) -> Result<()> {
    let t = table();
    let a = t.decode(index)?;
    if s.is_over() {
        return Err(Error::GameOver);
    }
    if !legal_mask(s).get(index as usize) {
        return Err(illegal(s, a, &why_illegal(s, a)));
    }
    apply_legal(s, a);
    Ok(())
}

/// Applies an action known to be legal (from the mask): the fast path for agents and vectors.
pub fn apply_legal(s: &mut State, a: Action) {
    match a {
        Action::Place { loc, fake_id } => {
            placement::place_worker(s, loc, fake_id);
            if s.patrols_drawn < s.patrols_today {
                patrols::place_patrol(s);
                check_end(s);
            }
        }
        Action::Act { loc, opt } => activate(s, loc, Some(opt)),
        Action::Skip(loc) => activate(s, loc, None),
        Action::Shoot(loc) => {
            shoot(s, loc);
            if s.phase == Phase::PostAction {
                finish_activation(s);
            }
        }
        Action::Accept => finish_activation(s),
    }
    advance(s);
}

/// Runs the automatic parts of the day until the player has a decision or the game is over.
pub fn advance(s: &mut State) {
    loop {
        match s.phase {
            Phase::Placement if s.home == 0 => {
                // F3: all workers placed; the remaining patrols come out one after another.
                while s.patrols_drawn < s.patrols_today && !s.is_over() {
                    patrols::place_patrol(s);
                    check_end(s);
                }
                if !s.is_over() {
                    s.phase = Phase::Action;
                }
            }
            Phase::Action if s.locs_with(Pawn::Worker) == 0 => upkeep::upkeep(s),
            _ => return,
        }
    }
}

/// F2–F4. The start of a day: patrol count, fields holding an airdrop, Infiltration's peek.
pub fn begin_day(s: &mut State) {
    s.phase = Phase::Placement;
    s.patrols_today = patrols::patrol_count(s);
    s.patrols_drawn = 0;
    let start = [s.field_has_tokens(0), s.field_has_tokens(1)];
    s.tokens.assign(|t| &mut t.airdrop_at_day_start, start);
    // M-infiltration: the player sees the top card (reshuffle first if the deck is empty).
    let peek = mole_in_place(s).then(|| s.deck.peek(&mut s.rng));
    s.today.assign(|t| &mut t.peek, peek);
}

/// M-infiltration: the mole is on the card.
pub fn mole_in_place(s: &State) -> bool {
    s.mission_slot(crate::maquis::ids::MissionId::Infiltration)
        .is_some_and(|slot| s.marks.stuck & bit(crate::maquis::board::SLOTS[slot]) != 0)
}

/// F6. Activates the worker on `loc`, with an option or without.
fn activate(s: &mut State, loc: Location, opt: Option<Opt>) {
    mission_rules::on_activation(s, loc);
    let performed = match opt {
        Some(opt) => actions::perform(s, loc, opt),
        None => actions::Performed { unsafe_reward: None, disposition: Disposition::GoHome { with_mole: false } },
    };
    match performed.disposition {
        Disposition::GoHome { with_mole } => {
            if s.is_over() {
                return;
            }
            let pending = Pending { loc, reward: performed.unsafe_reward, with_mole };
            // F8: a cut-off worker gives the player a chance to shoot before the route check.
            if shot_possible_with(s, Some(&pending)) && routes::route_home(s, loc, false) == Route::None {
                s.today.pending = Some(pending);
                s.phase = Phase::PostAction;
            } else {
                // At once: the pending activation never enters the (tracked) state.
                route_check(s, pending);
            }
        }
        Disposition::Stuck => {
            take_worker_off(s, loc, FakeIdTo::Hand);
            s.marks.stuck |= bit(loc);
        }
        Disposition::Arrested => {
            arrest_worker_at(s, loc);
            // E1: that may have been the last worker in play (the game ends at once, not at upkeep).
            check_end(s);
        }
        Disposition::Removed => {
            take_worker_off(s, loc, FakeIdTo::Hand);
            s.gone += 1;
            check_end(s);
        }
    }
}

/// F7. The route check that ends an activation: home (reward applied) or arrested (reward lost).
pub fn finish_activation(s: &mut State) {
    let Some(p) = s.today.pending else { return };
    s.today.pending = None;
    route_check(s, p);
}

/// F7 for the activation `p`.
fn route_check(s: &mut State, p: Pending) {
    s.phase = Phase::Action;
    let has_fake = s.marks.fake_ids & bit(p.loc) != 0;
    let route = routes::route_home(s, p.loc, has_fake);
    if p.with_mole {
        // M-infiltration: the mole goes home by F7 too (it carries no Fake ID).
        s.marks.stuck &= !bit(p.loc);
        if routes::route_home(s, p.loc, false) == Route::None {
            arrested(s);
        } else {
            s.home += 1;
        }
    }
    match route {
        Route::Clear | Route::WithFakeId => {
            let fake_to = if route == Route::Clear { FakeIdTo::Hand } else { FakeIdTo::Supply };
            take_worker_off(s, p.loc, fake_to);
            s.home += 1;
            if let Some(r) = p.reward {
                actions::grant(s, &r);
            }
        }
        Route::None => {
            if let Some(r) = p.reward {
                actions::forfeit(s, &r);
            }
            arrest_worker_at(s, p.loc);
        }
    }
    check_end(s);
}

enum FakeIdTo {
    Hand,
    Supply,
}

/// Removes the worker pawn from `loc`; its Fake ID goes to the hand or back to the supply.
fn take_worker_off(s: &mut State, loc: Location, fake_to: FakeIdTo) {
    s.pawns[loc.idx()] = Pawn::Empty;
    if s.marks.fake_ids & bit(loc) != 0 {
        s.marks.fake_ids &= !bit(loc);
        let f = Resource::FakeId.idx();
        match fake_to {
            FakeIdTo::Hand => s.tokens.hand[f] += 1,
            FakeIdTo::Supply => s.tokens.supply[f] += 1,
        }
    }
}

/// P3, F7. The worker on `loc` is arrested: gone, its Fake ID back to the supply.
pub fn arrest_worker_at(s: &mut State, loc: Location) {
    take_worker_off(s, loc, FakeIdTo::Supply);
    arrested(s);
}

/// A worker is gone by arrest (D1 Very Hard: −1 morale).
fn arrested(s: &mut State) {
    s.gone += 1;
    if arrest_costs_morale(s.difficulty) {
        change_morale(s, -1);
    }
}

/// F8. Shoot the Milice on `loc`: a weapon (a pending one first) is discarded, soldier track +1.
fn shoot(s: &mut State, loc: Location) {
    let w = Resource::Weapon.idx();
    // Ruling (RULES.md F8): a pending weapon may pay for the shot; we spend it before the hand's,
    // as it would be lost if its carrier were arrested.
    match s.today.pending.as_mut().and_then(|p| p.reward.as_mut()) {
        Some(r) if r.airdrop_field.is_none() && r.tokens[w] > 0 => r.tokens[w] -= 1,
        _ => s.tokens.hand[w] -= 1,
    }
    s.tokens.supply[w] += 1;
    s.pawns[loc.idx()] = Pawn::Empty;
    s.today.shot_today = true;
    advance_soldiers(s, 1);
}




/// Determinization for planning: resample what the player cannot see, consistently with what it
/// has seen: the order of the cards still in the deck (the discard is open; the top card is known
/// while an Infiltration mole is in place) and the game's RNG (future reshuffles).
pub fn determinize<R: rand::Rng>(s: &mut State, rng: &mut R) {
    use rand::SeedableRng;
    let known_top = usize::from(s.today.peek.is_some() && s.deck.deck().first() == s.today.peek.as_ref());
    s.deck.determinize(rng, known_top);
    s.rng = rand_chacha::ChaCha8Rng::seed_from_u64(rng.next_u64());
}
