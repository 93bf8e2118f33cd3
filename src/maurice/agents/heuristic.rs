//! D1 `heuristic`: fixed rules of thumb read off the observation (`View`), for either side.
//!
//! - Volleys: called when an own shooter (`inf` in line, `art`) is within `SHORT` of an enemy;
//!   `first_fire` played when the enemy calls one.
//! - Command: `pass` with fewer than `MIN_CARDS` cards (while the deck has cards); else charge when the chargers near the
//!   enemy are at least as strong (combat value less DISR) as the units they face; else rally when a unit
//!   holds `RALLY_AT` DISR or more; else march when some unit is not yet in place; else bombard
//!   when it is feasible; else pass.
//! - March: the force seeded by the unit furthest from the enemy (infantry first, the line), every unit it may take; units
//!   step straight ahead (so lines stay straight) until `halt` BW from the enemy.
//! - Spans: the lowest card that reaches, else the highest. Interrupts are kept for the passive
//!   round: `unexpected_delay` against any activation, `rough_going` against a march or charge.
//!   Modifiers are played whenever one is legal.
//! - CinC: moved next to the army's centre when it is more than `CINC_RANGE` BW away and the
//!   hand holds `CINC_CARDS` or more; discards and payments give the lowest span.

use super::view::{SeenUnit, View};
use crate::draw;
use crate::maurice::action::{Action, Lead, Mask, MaskExt, MoveKind, CARD, CELL, UNIT};
use crate::maurice::cards::Card;
use crate::maurice::grid::{footprint, Cell};
use crate::maurice::ids::{CardMark, Command, Formation, Phase, UnitType, HEIGHT, WIDTH};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Volley and charge reach: an enemy this many cells away (Chebyshev) is within 4 BW of fire or
/// of a charge move.
pub const SHORT: i32 = 5;
/// Fewer cards than this in hand: pass to draw.
pub const MIN_CARDS: u32 = 3;
/// A unit with this much DISR is worth a rally.
pub const RALLY_AT: u8 = 2;
/// The CinC's leash around the army's centre, and the hand it needs to move.
pub const CINC_RANGE: i32 = 6;
pub const CINC_CARDS: u32 = 5;

/// How close a unit of this kind advances towards the enemy before it halts.
pub fn halt(kind: UnitType) -> i32 {
    match kind {
        UnitType::Art => 9,
        _ => SHORT,
    }
}

fn idx(a: Action) -> usize {
    a.index().expect("a table action")
}

fn legal(mask: &Mask, a: Action) -> bool {
    mask.contains(a)
}

/// The legal `unit:<id>` of the mask.
fn legal_units(mask: &Mask) -> impl Iterator<Item = u8> + '_ {
    mask.iter().filter(|&i| (UNIT..UNIT + 16).contains(&i)).map(|i| (i - UNIT) as u8)
}

/// The legal `card:<type>` of the mask.
fn legal_cards(mask: &Mask) -> impl Iterator<Item = Card> + '_ {
    mask.iter().filter(|&i| (CARD..CELL).contains(&i)).filter_map(|i| Card::from_idx(i - CARD))
}

/// The legal `cell:<x>:<y>` of the mask.
fn legal_cells(mask: &Mask) -> impl Iterator<Item = Cell> + '_ {
    mask.iter().filter(|&i| i >= CELL).map(|i| Cell::from_index(i - CELL))
}

/// The legal card of lowest span (interrupts last: they are worth keeping).
fn cheapest(mask: &Mask) -> Option<Card> {
    legal_cards(mask).min_by_key(|c| (c.mark() == Some(CardMark::Interrupt), c.span(), c.idx()))
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeuristicAgent {
    rng: ChaCha8Rng,
}

impl HeuristicAgent {
    pub fn new(seed: u64) -> HeuristicAgent {
        HeuristicAgent { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        self.act_view(&View::decode(obs), mask)
    }

    /// The same decision from an already decoded view.
    pub fn act_view(&mut self, v: &View, mask: &Mask) -> usize {
        decide(v, mask).filter(|&a| mask.get(a)).unwrap_or_else(|| self.fallback(mask))
    }

    /// With no rule for the situation: any legal action but a cancel.
    fn fallback(&mut self, mask: &Mask) -> usize {
        let options: Vec<usize> = mask.iter().filter(|&a| a != idx(Action::UnitCancel)).collect();
        if options.is_empty() {
            return mask.nth(0).unwrap_or(0);
        }
        options[draw::below(&mut self.rng, options.len() as u32) as usize]
    }
}

/// Whether `u` is not yet where it should stand: farther than its halt from the enemy.
fn to_advance(v: &View, u: &SeenUnit) -> bool {
    let g = v.enemy_gap(u.cells.as_slice(), None);
    g != i32::MAX && g > halt(u.kind)
}

fn shooter(u: &SeenUnit) -> bool {
    (u.kind == UnitType::Inf && u.formation == Formation::Line) || u.kind == UnitType::Art
}

/// Whether a charge now is worth it: the units able to charge near the enemy are at least as strong as
/// the enemies nearest to them.
fn charge_pays(v: &View) -> bool {
    let chargers: Vec<&SeenUnit> = v
        .own()
        .iter()
        .filter(|u| u.kind != UnitType::Art && u.formation != Formation::Column && u.disr <= 3)
        .filter(|u| v.enemy_gap(u.cells.as_slice(), None) <= SHORT)
        .collect();
    if chargers.is_empty() {
        return false;
    }
    let own: i32 = chargers.iter().map(|u| u.strength()).sum();
    let theirs: i32 = chargers.iter().filter_map(|u| v.nearest_enemy(u.cells.as_slice())).map(|e| e.strength()).sum();
    own > theirs
}

/// The rules of thumb; None where none applies.
fn decide(v: &View, mask: &Mask) -> Option<usize> {
    if mask.count() == 1 {
        return mask.nth(0);
    }
    let card = |c: Card| Some(idx(Action::Card(c)));
    Some(match v.phase {
        Phase::VolleyChoice => {
            let targets = v.own().iter().filter(|u| shooter(u)).any(|u| v.enemy_gap(u.cells.as_slice(), None) <= SHORT);
            idx(if targets { Action::Volley } else { Action::NoVolley })
        }
        Phase::VolleyInterrupt => {
            let shooters = v.own().iter().filter(|u| shooter(u)).any(|u| v.enemy_gap(u.cells.as_slice(), None) <= SHORT);
            if shooters && legal(mask, Action::Card(Card::FirstFire)) {
                return card(Card::FirstFire);
            }
            idx(Action::Decline)
        }
        Phase::VolleyModifier | Phase::ActionModifier => match cheapest(mask) {
            Some(c) => idx(Action::Card(c)),
            None => idx(Action::Decline),
        },
        Phase::Fire => match legal_units(mask).next() {
            Some(u) => idx(Action::Unit(u)),
            None => idx(Action::EndFire),
        },
        Phase::Command => return command(v, mask),
        Phase::Force => return force(v, mask),
        Phase::Span => return span(v, mask),
        Phase::ActivationInterrupt => {
            if legal(mask, Action::Card(Card::UnexpectedDelay)) {
                return card(Card::UnexpectedDelay);
            }
            if matches!(v.command, Some(Command::March | Command::Charge)) && legal(mask, Action::Card(Card::RoughGoing)) {
                return card(Card::RoughGoing);
            }
            idx(Action::Decline)
        }
        Phase::Move => {
            let next = legal_units(mask)
                .filter_map(|id| v.own().iter().find(|u| u.id == id))
                .filter(|u| to_advance(v, u))
                .max_by_key(|u| v.enemy_gap(u.cells.as_slice(), None));
            match next {
                Some(u) => idx(Action::Unit(u.id)),
                None => idx(Action::EndMoves),
            }
        }
        Phase::UnitMove => return unit_move(v, mask),
        Phase::Charge => match legal_units(mask).next() {
            Some(u) => idx(Action::Unit(u)),
            None => idx(Action::EndCharges),
        },
        Phase::ChargeLead => {
            if legal(mask, Action::ChargeLead(Lead::Straight)) {
                idx(Action::ChargeLead(Lead::Straight))
            } else {
                mask.nth(0)?
            }
        }
        Phase::CincMove => {
            let centre = v.centre();
            if v.hand_total() < CINC_CARDS || v.cinc[0].chebyshev(centre) <= CINC_RANGE {
                return Some(idx(Action::Decline));
            }
            match legal_cells(mask).min_by_key(|c| (c.chebyshev(centre), c.index())) {
                Some(c) if c.chebyshev(centre) < v.cinc[0].chebyshev(centre) => idx(Action::Cell(c)),
                _ => idx(Action::Decline),
            }
        }
        Phase::Displace => {
            let centre = v.centre();
            idx(Action::Cell(legal_cells(mask).min_by_key(|c| (c.chebyshev(centre), c.index()))?))
        }
        Phase::CincPay | Phase::PenaltyDiscard | Phase::HandLimit => idx(Action::Card(cheapest(mask)?)),
        Phase::Aim | Phase::KingTarget | Phase::GameOver => mask.nth(0)?,
    })
}

/// R4 by the rules of thumb above.
fn command(v: &View, mask: &Mask) -> Option<usize> {
    let pick = |a: Action| legal(mask, a).then(|| idx(a));
    // With the deck empty a pass draws nothing and brings nightfall closer.
    if v.hand_total() < MIN_CARDS && v.deck_size > 0 {
        return pick(Action::Pass);
    }
    if charge_pays(v) {
        if let Some(a) = pick(Action::Charge) {
            return Some(a);
        }
    }
    if v.own().iter().any(|u| u.disr >= RALLY_AT) {
        if let Some(a) = pick(Action::Rally) {
            return Some(a);
        }
    }
    if v.own().iter().any(|u| to_advance(v, u)) {
        if let Some(a) = pick(Action::March) {
            return Some(a);
        }
    }
    if let Some(a) = pick(Action::Bombard) {
        return Some(a);
    }
    pick(Action::Pass)
}

/// A6: a seed by the command, then every unit the mask allows, then `confirm_force`.
fn force(v: &View, mask: &Mask) -> Option<usize> {
    let named = v.own().iter().any(|u| u.in_force);
    let candidates: Vec<&SeenUnit> = legal_units(mask).filter_map(|id| v.own().iter().find(|u| u.id == id)).collect();
    let best = if named {
        // Extend: for a march only units that still have ground to cover.
        candidates.iter().find(|u| v.command != Some(Command::March) || to_advance(v, u)).copied()
    } else {
        match v.command {
            Some(Command::March) => candidates
                .iter()
                .filter(|u| to_advance(v, u))
                .max_by_key(|u| (u.kind == UnitType::Inf, v.enemy_gap(u.cells.as_slice(), None), u.id))
                .or(candidates.first())
                .copied(),
            Some(Command::Rally) => candidates.iter().max_by_key(|u| (u.disr, u.id)).copied(),
            _ => candidates.first().copied(),
        }
    };
    match best {
        Some(u) => Some(idx(Action::Unit(u.id))),
        None if legal(mask, Action::ConfirmForce) => Some(idx(Action::ConfirmForce)),
        None => candidates.first().map(|u| idx(Action::Unit(u.id))),
    }
}

/// A7, A8: the lowest card that reaches the distance, else the highest.
fn span(v: &View, mask: &Mask) -> Option<usize> {
    let need = v.distance.saturating_sub(v.span_played).max(1);
    let cards: Vec<Card> = legal_cards(mask).collect();
    let keep = |c: &Card| c.mark() == Some(CardMark::Interrupt);
    let reach = cards.iter().filter(|c| c.span() >= need).min_by_key(|c| (keep(c), c.span(), c.idx()));
    let card = reach.or_else(|| cards.iter().max_by_key(|c| (!keep(c), c.span(), c.idx())));
    match card {
        Some(&c) => Some(idx(Action::Card(c))),
        None => Some(idx(Action::GiveUp)),
    }
}

/// M3: straight ahead while that brings the unit closer to the enemy and it is short of its
/// halt; then done.
fn unit_move(v: &View, mask: &Mask) -> Option<usize> {
    let done = if legal(mask, Action::UnitDone) { idx(Action::UnitDone) } else { idx(Action::UnitCancel) };
    let Some(u) = v.own().iter().find(|u| u.moving) else { return Some(done) };
    let now = v.enemy_gap(u.cells.as_slice(), None);
    if now == i32::MAX || now <= halt(u.kind) || !legal(mask, Action::Move(MoveKind::Forward)) {
        return Some(done);
    }
    let ahead = footprint(u.formation, u.at.plus(u.facing.vec()), u.facing);
    let after = v.enemy_gap(ahead.as_slice(), None);
    let on_table = ahead.as_slice().iter().all(|c| (0..WIDTH as i8).contains(&c.x) && (0..HEIGHT as i8).contains(&c.y));
    if after < now && on_table {
        Some(idx(Action::Move(MoveKind::Forward)))
    } else {
        Some(done)
    }
}
