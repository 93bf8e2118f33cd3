//! D1 `heuristic`: fixed rules of thumb read off the observation (`View`), for either side.
//!
//! - Volleys: called when an own shooter (`inf` in line, `art`) is within `SHORT` of an enemy;
//!   `first_fire` played when the enemy calls one.
//! - Command: `pass` with fewer than `MIN_CARDS` cards (while the deck has cards); else charge
//!   when some unit's charge is worth `CHARGE_WORTH` or more (`charge_worth`: the chance of
//!   breaking what it meets, less the chance of breaking itself, plus a share of the DISR each side
//!   expects, from its estimated combat score against each defender's); else rally when a force
//!   holds `RALLY_AT` DISR or more with a unit holding `RALLY_UNIT`; else march when some unit
//!   can still step towards the enemy; else bombard when it is feasible; else pass.
//! - March: the force seeded by the unit furthest from the enemy (infantry first), every unit it
//!   may take that has ground to cover; the units nearest the enemy move first and step straight
//!   ahead (so lines stay straight and never pass through each other) until `halt` BW from the
//!   enemy.
//! - Charge: the seed and every unit whose charge is worth it, each with its best lead-in; the
//!   charges end once the rest are not worth it.
//! - Spans: the lowest card that reaches, else the highest. Interrupts are kept for the passive
//!   round: `unexpected_delay` against any activation, `rough_going` against a march or charge.
//!   Modifiers are played whenever one is legal.
//! - CinC: moved next to the army's centre when it is more than `CINC_RANGE` BW away and the
//!   hand holds `CINC_CARDS` or more; discards and payments give the lowest span.
//!
//! The view has no terrain (the compact observation stops before the maps), so charges and moves
//! are judged as on open ground.

use super::view::{gap, SeenUnit, View};
use crate::draw;
use crate::maurice::action::{Action, Lead, Mask, MaskExt, MoveKind, CARD, CELL, UNIT};
use crate::maurice::cards::Card;
use crate::maurice::grid::{footprint, Cell, Frame};
use crate::maurice::rules::charge::charge_move::{box_gap, cell_box};
use crate::maurice::ids::{CardMark, Command, Formation, Phase, UnitType, HEIGHT, WIDTH};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Volley and charge reach: an enemy this many cells away (Chebyshev) is within 4 BW of fire or
/// of a charge move.
pub const SHORT: i32 = 5;
/// Fewer cards than this in hand: pass to draw.
pub const MIN_CARDS: u32 = 3;
/// A force holding this much DISR is worth a rally, when one of its units holds `RALLY_UNIT`.
pub const RALLY_AT: u32 = 3;
pub const RALLY_UNIT: u8 = 2;
/// A charge worth this much (`charge_worth`) is made.
pub const CHARGE_WORTH: f32 = 0.15;
/// C3: cells a charge may cover.
const CHARGE_REACH: i8 = 4;
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

/// The cells of `u` after one step straight ahead.
fn ahead_cells(u: &SeenUnit) -> crate::maurice::grid::Cells {
    footprint(u.formation, u.at.plus(u.facing.vec()), u.facing)
}

/// Whether a step straight ahead keeps `u` on the table and off every other unit (so that it
/// interpenetrates nobody) and brings it closer to the enemy than `now` (its `enemy_gap`, which
/// every caller has already asked for).
fn can_step(v: &View, u: &SeenUnit, now: i32) -> bool {
    let ahead = ahead_cells(u);
    let cells = ahead.as_slice();
    if !cells.iter().all(|c| (0..WIDTH as i8).contains(&c.x) && (0..HEIGHT as i8).contains(&c.y)) {
        return false;
    }
    // Units whose box does not overlap the step's hold none of its cells.
    let reach = cell_box(cells);
    let clear = v.own().iter().filter(|o| o.id != u.id).chain(v.enemy()).all(|o| {
        o.cells.n == 0
            || box_gap(reach, cell_box(o.cells.as_slice())) > 0
            || !o.cells.as_slice().iter().any(|c| cells.contains(c))
    });
    clear && v.enemy_gap(cells, None) < now
}

/// Whether `u` is not yet where it should stand: farther than its halt from the enemy, with a
/// step ahead open to it.
fn to_advance(v: &View, u: &SeenUnit) -> bool {
    let g = v.enemy_gap(u.cells.as_slice(), None);
    g != i32::MAX && g > halt(u.kind) && can_step(v, u, g)
}

fn shooter(u: &SeenUnit) -> bool {
    (u.kind == UnitType::Inf && u.formation == Formation::Line) || u.kind == UnitType::Art
}

/// The enemy units a charge of `u` with lead-in `lead` would meet, as on open ground: one cell
/// ahead and aside for an oblique lead-in, then straight ahead until an enemy cell is directly in
/// front, `CHARGE_REACH` cells in all; none when another unit is in the way.
fn charge_targets<'a>(v: &'a View, u: &SeenUnit, lead: Lead) -> Vec<&'a SeenUnit> {
    let (w, _) = u.formation.size();
    // The front cells a charge looks at lie within 5 cells of the unit's front-left cell (at most
    // 4 moves ahead, one aside, a front of at most 4): with no enemy cell that near, it meets none.
    if v.enemy_gap(&[u.at], None) > CHARGE_REACH as i32 + 1 {
        return Vec::new();
    }
    // The cells of every other unit, and of the enemy's, as bit rows (a cell off the table is
    // nobody's): each step of the charge then reads a few bits.
    let mut others = [0u64; HEIGHT];
    let mut enemy = [0u64; HEIGHT];
    let mut off_table = false;
    let mut mark = |rows: &mut [u64; HEIGHT], o: &SeenUnit| {
        for &c in o.cells.as_slice() {
            if on_table(c) {
                rows[c.y as usize] |= 1 << c.x;
            } else {
                off_table = true;
            }
        }
    };
    for o in v.own().iter().filter(|o| o.id != u.id) {
        mark(&mut others, o);
    }
    for e in v.enemy() {
        mark(&mut others, e);
        mark(&mut enemy, e);
    }
    let has = |rows: &[u64; HEIGHT], c: Cell| on_table(c) && rows[c.y as usize] >> c.x & 1 == 1;
    let blocked = |frame: Frame| {
        let cells = footprint(u.formation, frame.origin, frame.facing);
        if off_table {
            // An observation no game gives (a unit off the table): the cells one by one.
            let mut all = v.own().iter().filter(|o| o.id != u.id).chain(v.enemy());
            return all.any(|o| cells.as_slice().iter().any(|c| o.cells.contains(*c)));
        }
        cells.as_slice().iter().any(|&c| has(&others, c))
    };
    let mut frame = Frame::new(u.at, u.facing);
    let mut spent = 0;
    let da = match lead {
        Lead::Straight => 0,
        Lead::ObliqueLeft => -1,
        Lead::ObliqueRight => 1,
    };
    if da != 0 {
        frame = Frame::new(frame.cell(da, 1), frame.facing);
        spent = 1;
        if blocked(frame) {
            return Vec::new();
        }
    }
    loop {
        let mut front = [Cell::new(0, 0); 4];
        for (a, f) in front.iter_mut().enumerate().take(w as usize) {
            *f = frame.cell(a as i8, 1);
        }
        let front = &front[..w as usize];
        if off_table || front.iter().any(|&c| has(&enemy, c)) {
            let met: Vec<&SeenUnit> = v.enemy().iter().filter(|e| front.iter().any(|&c| e.cells.contains(c))).collect();
            if !met.is_empty() {
                return met;
            }
        }
        if spent == CHARGE_REACH {
            return Vec::new();
        }
        frame = Frame::new(frame.cell(0, 1), frame.facing);
        spent += 1;
        if blocked(frame) {
            return Vec::new();
        }
    }
}

fn on_table(c: Cell) -> bool {
    (0..WIDTH as i8).contains(&c.x) && (0..HEIGHT as i8).contains(&c.y)
}

/// The chances, over the two dice, that a combat score of `att` + a die reaches twice `def` + a
/// die, and that it beats it (C11, C12; negative scores are raised to 0).
fn odds(att: i32, def: i32) -> (f32, f32) {
    let (a, d) = (att.max(0), def.max(0));
    let (mut twice, mut beats) = (0, 0);
    for x in 1..=6 {
        for y in 1..=6 {
            twice += i32::from(a + x >= 2 * (d + y));
            beats += i32::from(a + x > d + y);
        }
    }
    (twice as f32 / 36.0, beats as f32 / 36.0)
}

/// An estimate of a combat score before the die (C11), as the view allows: combat value, less
/// DISR, less 6 for a column (vulnerable); terrain, flanks and cards are not counted.
fn est_score(u: &SeenUnit) -> i32 {
    let vulnerable = u.kind != UnitType::Art && u.formation == Formation::Column;
    u.kind.combat_value() - u.disr as i32 - if vulnerable { 6 } else { 0 }
}

/// What a charge of `u` with `lead` is worth: for each defender it meets, the chance it breaks
/// (C12, X2), less the chance that `u` breaks (C13), plus a quarter of the DISR the defenders
/// are expected to gain over what `u` is. None when it meets nobody it may charge (C4).
fn charge_worth(v: &View, u: &SeenUnit, lead: Lead) -> Option<f32> {
    let met = charge_targets(v, u, lead);
    if met.is_empty() || (u.kind == UnitType::Inf && met.iter().any(|e| e.kind == UnitType::Cav)) {
        return None;
    }
    // C10: outnumbered by the infantry and cavalry it meets, when two or more.
    let foot = met.iter().filter(|e| e.kind != UnitType::Art).count() as i32;
    let att = est_score(u) - if foot >= 2 { foot } else { 0 };
    let mut worth = 0.0;
    // C13: `u` gains 2 DISR when any defender scores as much: the chance none does.
    let mut wins_all = 1.0f32;
    for e in met {
        let (twice, beats) = odds(att, est_score(e));
        let breaks = |gain: u8| if e.disr + gain > e.kind.bases() { 1.0 } else { 0.0 };
        worth += twice + (beats - twice) * breaks(2) + (1.0 - beats) * breaks(1);
        worth += 0.25 * (2.0 * beats + (1.0 - beats));
        wins_all *= beats;
    }
    let lose = 1.0 - wins_all;
    let own_breaks = |gain: u8| if u.disr + gain > u.kind.bases() { 1.0 } else { 0.0 };
    worth -= lose * own_breaks(2) + (1.0 - lose) * own_breaks(1);
    worth -= 0.25 * (2.0 * lose + (1.0 - lose));
    Some(worth)
}

/// The best worth of a charge of `u` over the leads `legal_lead` allows, with that lead.
fn best_charge(v: &View, u: &SeenUnit, legal_lead: impl Fn(Lead) -> bool) -> Option<(f32, Lead)> {
    Lead::ALL
        .iter()
        .filter(|&&l| legal_lead(l))
        .filter_map(|&l| charge_worth(v, u, l).map(|w| (w, l)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Whether `u` may charge as far as the view tells (C2).
fn may_charge(u: &SeenUnit) -> bool {
    u.kind != UnitType::Art && u.formation != Formation::Column && u.disr <= 3 && !u.done
}

/// Whether a charge now is worth it: some own unit's charge is worth `CHARGE_WORTH`.
fn charge_pays(v: &View) -> bool {
    v.own().iter().filter(|u| may_charge(u)).any(|u| best_charge(v, u, |_| true).is_some_and(|(w, _)| w >= CHARGE_WORTH))
}

/// The own units linked to `u` (A1: same type and formation, chains within 2 BW), `u` included.
fn group<'a>(v: &'a View, u: &'a SeenUnit) -> Vec<&'a SeenUnit> {
    let mut out = vec![u];
    let mut k = 0;
    while k < out.len() {
        let at = out[k];
        for o in v.own() {
            if o.kind == u.kind && o.formation == u.formation && !out.iter().any(|x| x.id == o.id) && gap(at.cells.as_slice(), o.cells.as_slice()) <= 3 {
                out.push(o);
            }
        }
        k += 1;
    }
    out
}

/// The own unit with the most DISR, holding `RALLY_UNIT` or more, in a group holding `RALLY_AT`
/// or more (a rally for scattered single DISR would cost a round for little).
fn rally_seed(v: &View) -> Option<&SeenUnit> {
    v.own()
        .iter()
        .filter(|u| u.disr >= RALLY_UNIT)
        .filter(|u| group(v, u).iter().map(|x| x.disr as u32).sum::<u32>() >= RALLY_AT)
        .max_by_key(|u| (u.disr, u.id))
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
            // The front first, so that those behind find the way clear.
            let next = legal_units(mask)
                .filter_map(|id| v.own().iter().find(|u| u.id == id))
                .filter(|u| to_advance(v, u))
                .min_by_key(|u| (v.enemy_gap(u.cells.as_slice(), None), u.id));
            match next {
                Some(u) => idx(Action::Unit(u.id)),
                None => idx(Action::EndMoves),
            }
        }
        Phase::UnitMove => return unit_move(v, mask),
        Phase::Charge => {
            let worth = |id: u8| v.own().iter().find(|u| u.id == id).and_then(|u| best_charge(v, u, |_| true)).map_or(f32::MIN, |b| b.0);
            let best = legal_units(mask).map(|id| (worth(id), id)).max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
            match best {
                Some((w, _)) if w < CHARGE_WORTH && legal(mask, Action::EndCharges) => idx(Action::EndCharges),
                Some((_, id)) => idx(Action::Unit(id)),
                None => idx(Action::EndCharges),
            }
        }
        Phase::ChargeLead => {
            let lead_ok = |l: Lead| legal(mask, Action::ChargeLead(l));
            // The unit just named is not shown as such: it is the one `Phase::Charge` picks.
            let charging = v
                .own()
                .iter()
                .filter(|u| u.in_force && may_charge(u))
                .max_by(|a, b| charge_value(v, a).total_cmp(&charge_value(v, b)).then(b.id.cmp(&a.id)));
            match charging.and_then(|u| best_charge(v, u, lead_ok)) {
                Some((_, l)) => idx(Action::ChargeLead(l)),
                None if lead_ok(Lead::Straight) => idx(Action::ChargeLead(Lead::Straight)),
                None => mask.nth(0)?,
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
    if rally_seed(v).is_some() {
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
        // Extend: for a march only units that still have ground to cover, for a charge only
        // units whose charge is worth it.
        candidates
            .iter()
            .find(|u| match v.command {
                Some(Command::March) => to_advance(v, u),
                Some(Command::Charge) => charge_value(v, u) >= CHARGE_WORTH,
                _ => true,
            })
            .copied()
    } else {
        match v.command {
            Some(Command::March) => candidates
                .iter()
                .filter(|u| to_advance(v, u))
                .max_by_key(|u| (u.kind == UnitType::Inf, v.enemy_gap(u.cells.as_slice(), None), u.id))
                .or(candidates.first())
                .copied(),
            Some(Command::Rally) => {
                let seed = rally_seed(v).map(|u| u.id);
                candidates.iter().find(|u| Some(u.id) == seed).or(candidates.iter().max_by_key(|u| (u.disr, u.id))).copied()
            }
            Some(Command::Charge) => candidates
                .iter()
                .max_by(|a, b| charge_value(v, a).total_cmp(&charge_value(v, b)).then(b.id.cmp(&a.id)))
                .copied(),
            _ => candidates.first().copied(),
        }
    };
    match best {
        Some(u) => Some(idx(Action::Unit(u.id))),
        None if legal(mask, Action::ConfirmForce) => Some(idx(Action::ConfirmForce)),
        None => candidates.first().map(|u| idx(Action::Unit(u.id))),
    }
}

/// The worth of `u`'s best charge (far below any threshold when it has none).
fn charge_value(v: &View, u: &SeenUnit) -> f32 {
    if !may_charge(u) {
        return -9.0;
    }
    best_charge(v, u, |_| true).map_or(-9.0, |b| b.0)
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

/// M3: straight ahead while that brings the unit closer to the enemy, onto cells no other unit
/// holds, and it is short of its halt; then done.
fn unit_move(v: &View, mask: &Mask) -> Option<usize> {
    let done = if legal(mask, Action::UnitDone) { idx(Action::UnitDone) } else { idx(Action::UnitCancel) };
    let Some(u) = v.own().iter().find(|u| u.moving) else { return Some(done) };
    let now = v.enemy_gap(u.cells.as_slice(), None);
    if now == i32::MAX || now <= halt(u.kind) || !legal(mask, Action::Move(MoveKind::Forward)) {
        return Some(done);
    }
    if can_step(v, u, now) {
        Some(idx(Action::Move(MoveKind::Forward)))
    } else {
        Some(done)
    }
}

