//! S5–S7 and API "Reset options": what decides a new game besides its seed, its checks, and the
//! setup sequence — terrain, armies and CinCs, the deal, the first player.

use super::cards::{playable_cards, Card, CardCounts};
use super::grid::{footprint, Cell};
use super::ids::{ChanceEvent, ScenarioId, Side, DECK_SIZE, HAND_LIMIT, MAX_UNITS};
use super::rules::round;
use super::scenario::{random_terrain, scenario, UnitSpec};
use super::state::{Army, Pending, Round, State, Unit};
use super::streams::{stream, Dice, Shuffler, TERRAIN_STREAM};
use super::terrain::Terrain;
use crate::error::{Error, Result};
use std::sync::Arc;

/// S7 (2): the hand each side is dealt.
pub const OPENING_HAND: usize = 6;

/// The `terrain` reset option.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum TerrainChoice {
    /// The scenario's own terrain.
    #[default]
    Scenario,
    /// S5, from the terrain stream.
    Random,
    /// A given map.
    Map(Box<Terrain>),
}

/// The `hands`, `deck`, `discard` and `removed` reset options, given together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardsSetup {
    pub hands: [Vec<Card>; 2],
    /// Top first.
    pub deck: Vec<Card>,
    /// Oldest first.
    pub discard: Vec<Card>,
    pub removed: Vec<Card>,
}

/// Everything that decides a new game besides its seed (API "Reset options").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub scenario: ScenarioId,
    pub terrain: TerrainChoice,
    /// Both armies instead of the scenario's (blue, red).
    pub units: Option<[Vec<UnitSpec>; 2]>,
    pub cinc: Option<[Cell; 2]>,
    /// Army morale left per side, 1 … ⌈units / 2⌉.
    pub morale: Option<[u8; 2]>,
    /// The first active side; the roll-off is skipped.
    pub first: Option<Side>,
    pub cards: Option<CardsSetup>,
    /// The results of the next shuffles (N3).
    pub shuffles: Vec<Vec<Card>>,
    /// The next dice.
    pub dice: Vec<u8>,
}

fn bad(msg: impl Into<String>) -> Error {
    Error::BadOption(msg.into())
}

/// S6: starting army morale.
pub fn starting_morale(units: usize) -> u8 {
    units.div_ceil(2) as u8
}

/// Checks the armies of the `units` option against the terrain: ids once each, formations the
/// type allows, every cell on the table, not lake and not shared, DISR within the bases.
fn check_units(terrain: &Terrain, units: &[Vec<UnitSpec>; 2]) -> Result<()> {
    let mut taken: Vec<Cell> = Vec::new();
    for (side, list) in Side::ALL.iter().zip(units) {
        if list.is_empty() {
            return Err(bad(format!("units: {side} has no unit")));
        }
        let mut seen = [false; MAX_UNITS];
        for u in list {
            let id = u.id as usize;
            if id >= MAX_UNITS || std::mem::replace(&mut seen[id], true) {
                return Err(bad(format!("units: {side} unit id {} is out of 0–15 or repeated", u.id)));
            }
            if !u.kind.allows(u.formation) {
                return Err(bad(format!("units: {side} unit {} ({}) cannot be in {}", u.id, u.kind, u.formation)));
            }
            if u.disr > u.kind.bases() {
                return Err(bad(format!("units: {side} unit {} has DISR {} above its bases", u.id, u.disr)));
            }
            for &c in footprint(u.formation, u.at, u.facing).as_slice() {
                if !terrain.passable(c) || taken.contains(&c) {
                    return Err(bad(format!(
                        "units: {side} unit {} covers cell ({}, {}), off the table, in a lake or taken",
                        u.id, c.x, c.y
                    )));
                }
                taken.push(c);
            }
        }
    }
    Ok(())
}

fn check_cards(c: &CardsSetup) -> Result<()> {
    let mut all: Vec<Card> = c.hands.iter().flatten().chain(&c.deck).chain(&c.discard).chain(&c.removed).copied().collect();
    all.sort();
    let mut full = playable_cards();
    full.extend([Card::Reshuffle; 2]);
    full.sort();
    if all != full {
        return Err(bad(format!("hands, deck, discard and removed must hold exactly the {DECK_SIZE} cards of K1")));
    }
    for (side, hand) in Side::ALL.iter().zip(&c.hands) {
        if hand.len() > HAND_LIMIT {
            return Err(bad(format!("hands: {side} holds {} cards, more than {HAND_LIMIT}", hand.len())));
        }
    }
    if c.hands.iter().flatten().chain(&c.discard).any(|&x| x == Card::Reshuffle) {
        return Err(bad("reshuffle cannot be in a hand or the discard pile"));
    }
    if c.removed.iter().any(|&x| x != Card::Reshuffle) {
        return Err(bad("only reshuffle cards can be removed from the game"));
    }
    Ok(())
}

/// A new game of `setup` with `seed` (S7), waiting for the first active side's volley decision.
pub fn new_game(seed: u64, setup: &Setup) -> Result<State> {
    if let Some(d) = setup.dice.iter().find(|d| !(1..=6).contains(*d)) {
        return Err(bad(format!("dice: {d} is not a die (1–6)")));
    }
    // (1) Terrain, armies and CinCs.
    let base = scenario(setup.scenario);
    let terrain = match &setup.terrain {
        TerrainChoice::Scenario => base.terrain.clone(),
        TerrainChoice::Random => random_terrain(&mut stream(seed, TERRAIN_STREAM)),
        TerrainChoice::Map(t) => (**t).clone(),
    };
    let specs = setup.units.clone().unwrap_or_else(|| base.units.clone());
    check_units(&terrain, &specs)?;
    let cinc = setup.cinc.unwrap_or(base.cinc);
    for (side, &c) in Side::ALL.iter().zip(&cinc) {
        let covered = specs.iter().flatten().any(|u| footprint(u.formation, u.at, u.facing).contains(c));
        if !terrain.passable(c) || covered {
            return Err(bad(format!("cinc: {side}'s cell ({}, {}) is off the table, in a lake or under a unit", c.x, c.y)));
        }
    }
    let mut armies = [Side::Blue, Side::Red].map(|side| {
        let list = &specs[side.idx()];
        let mut units = [Unit::ABSENT; MAX_UNITS];
        for u in list {
            let mut unit = Unit::placed(u.id, side, u.kind, u.formation, u.at, u.facing);
            unit.disr = u.disr;
            unit.smoke = u.smoke;
            units[u.id as usize] = unit;
        }
        let start = starting_morale(list.len());
        Army {
            units,
            cinc: cinc[side.idx()],
            morale: start,
            morale_start: start,
            hand: CardCounts::default(),
            drawn: CardCounts::default(),
            displaced: false,
        }
    });
    if let Some(morale) = setup.morale {
        for (army, &m) in armies.iter_mut().zip(&morale) {
            if !(1..=army.morale_start).contains(&m) {
                return Err(bad(format!("morale: {m} is not in 1 … {}", army.morale_start)));
            }
            army.morale = m;
        }
    }
    // (2) The deck.
    let mut shuffler = Shuffler::new(seed, setup.shuffles.clone());
    let (deck, discard, removed) = match &setup.cards {
        Some(c) => {
            check_cards(c)?;
            for (army, hand) in armies.iter_mut().zip(&c.hands) {
                hand.iter().for_each(|&x| army.hand.add(x));
            }
            (c.deck.clone(), c.discard.clone(), c.removed.clone())
        }
        None => {
            let mut cards = playable_cards();
            shuffler.shuffle(&mut cards)?;
            let mut rest = cards.into_iter();
            for _ in 0..OPENING_HAND {
                for army in armies.iter_mut() {
                    army.hand.add(rest.next().expect("38 cards deal two hands of 6"));
                }
            }
            let mut deck: Vec<Card> = rest.collect();
            deck.extend([Card::Reshuffle; 2]);
            shuffler.shuffle(&mut deck)?;
            (deck, Vec::new(), Vec::new())
        }
    };
    // (3) The first active side.
    let mut dice = Dice::new(seed, setup.dice.clone());
    let first = match setup.first {
        Some(side) => side,
        None => loop {
            let d = dice.roll(ChanceEvent::FirstPlayer, 2);
            if d[0] != d[1] {
                break if d[0] > d[1] { Side::Blue } else { Side::Red };
            }
        },
    };
    let mut s = State {
        scenario: setup.scenario,
        terrain: Arc::new(terrain),
        armies,
        deck,
        discard,
        removed,
        round_no: 0,
        active: first,
        round: Round::default(),
        night_pass_last_round: false,
        phase: super::ids::Phase::VolleyChoice,
        to_move: Some(first),
        pending: Pending::None,
        outcome: None,
        dice,
        shuffler,
    };
    round::start_round(&mut s, first);
    Ok(s)
}
