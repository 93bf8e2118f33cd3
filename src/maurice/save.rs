//! API "State, saving": versioned JSON saves of the whole state, RNG streams and dice script
//! included, so that a loaded game continues with the same dice and shuffles. Loading checks
//! every field's range and every invariant the rules keep (`validate`), naming the field that
//! breaks one, so that a bad save is an error here rather than a panic later.

use super::cards::Card;
use super::grid::{footprint, Cell};
use super::ids::{CardMark, Formation, Phase, Side, DECK_SIZE, HEIGHT, MAX_UNITS, WIDTH};
use super::state::{Army, Pending, Resume, Round, State, Unit};
use crate::error::{Error, Result};
use crate::versioned;

pub const FORMAT: &str = "maquis.maurice";
pub const VERSION: u32 = 1;

/// The most rounds a saved game may have played: far more than any game lasts (E4), and far
/// from the counter's end.
pub const MAX_ROUND: u32 = 1 << 24;
/// The largest activation distance (A3, A7): a command distance counts cells of the table.
pub const MAX_DISTANCE: u32 = (WIDTH * HEIGHT) as u32;

/// The state as a versioned JSON string.
pub fn save_state(s: &State) -> String {
    versioned::save(FORMAT, VERSION, s)
}

/// A state from `save_state`'s JSON, validated (`validate`).
pub fn load_state(text: &str) -> Result<State> {
    let value = versioned::open(text, FORMAT, VERSION, "Maurice Lite")?;
    versioned::check_streams(&value, "state")?;
    let s: State = serde_json::from_value(value).map_err(|e| Error::BadSave(format!("state: {e}")))?;
    validate(&s)?;
    Ok(s)
}

fn check(cond: bool, field: &str, msg: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::BadSave(format!("{field}: {}", msg())))
    }
}

fn cell_ok(c: Cell) -> bool {
    c.on_table()
}

/// The unit ids of a bit set.
fn bits(b: u16) -> impl Iterator<Item = usize> {
    (0..MAX_UNITS).filter(move |i| b >> i & 1 == 1)
}

/// Every bit of `b` names a unit of `army` in play.
fn present_bits(army: &Army, b: u16) -> bool {
    bits(b).all(|i| army.units[i].present)
}

/// Every invariant a reachable state keeps, each failure naming its field. A live game must also
/// give the side to move a legal action.
pub fn validate(s: &State) -> Result<()> {
    let over = s.phase == Phase::GameOver;
    check(over == s.to_move.is_none(), "to_move", || format!("set exactly when the game is not over (phase '{}')", s.phase))?;
    check(over == s.outcome.is_some(), "outcome", || format!("set exactly when the game is over (phase '{}')", s.phase))?;
    check((1..=MAX_ROUND).contains(&s.round_no), "round_no", || format!("{} is not in 1 … {MAX_ROUND}", s.round_no))?;
    for &side in Side::ALL.iter() {
        validate_army(s, side)?;
    }
    validate_cards(s)?;
    validate_round(s)?;
    validate_pending(s)?;
    validate_streams(s)?;
    if s.phase == Phase::Force {
        check(force_can_complete(s), "round.force", || {
            format!("{:#06x}: no units the active side may still name make a force (A2, A6)", s.round.force)
        })?;
    }
    if !over {
        check(!super::rules::legal_mask(s).is_empty(), "phase", || {
            format!(
                "no legal action for {} in phase '{}': the round state (command, force, distance, moving \
unit, cards) or the units do not fit it",
                s.to_move.map_or("nobody", |x| x.as_str()),
                s.phase
            )
        })?;
    }
    Ok(())
}

fn validate_unit(u: &Unit, side: Side, i: usize, field: &str) -> Result<()> {
    if !u.present {
        return check(*u == Unit::ABSENT, field, || "a unit not in play must be the empty unit".into());
    }
    check(u.id as usize == i, field, || format!("id {} at index {i}", u.id))?;
    check(u.side == side, field, || format!("side '{}' in {side}'s army", u.side))?;
    check(u.kind.allows(u.formation) && u.kind.allows(u.round_formation), field, || {
        format!("a {} unit cannot be in {} (or {} at the round's start)", u.kind, u.formation, u.round_formation)
    })?;
    check(u.disr <= u.bases(), field, || format!("DISR {} is more than its {} bases", u.disr, u.bases()))?;
    check(cell_ok(u.at), &format!("{field}.at"), || format!("({}, {}) is off the table", u.at.x, u.at.y))?;
    check((1..=4).contains(&u.cells.n), &format!("{field}.cells.n"), || format!("{} is not 1 … 4", u.cells.n))?;
    check(u.cells().iter().all(|&c| cell_ok(c)), &format!("{field}.cells"), || "a cell off the table".into())?;
    Ok(())
}

fn validate_army(s: &State, side: Side) -> Result<()> {
    let k = side.idx();
    let army = &s.armies[k];
    let moving = s.round.moving.as_ref().filter(|_| side == s.active).map(|m| m.id as usize);
    let mut present = 0;
    for (i, u) in army.units.iter().enumerate() {
        let field = format!("armies[{k}].units[{i}]");
        validate_unit(u, side, i, &field)?;
        present += u.present as usize;
        if !u.on_table {
            check(u.present || !u.on_table, &field, || "on the table but not in play".into())?;
            continue;
        }
        let fp = footprint(u.formation, u.at, u.facing);
        if Some(i) == moving && u.formation == Formation::Column {
            // M3: a moving column is a snake, its head first, each cell next to the one before.
            let c = u.cells();
            check(
                c.len() == 4 && c[0] == u.at && c.windows(2).all(|w| w[0].shares_edge(w[1])),
                &format!("{field}.cells"),
                || "a moving column's cells must be a snake from its head".into(),
            )?;
        } else {
            check(u.cells == fp, &format!("{field}.cells"), || {
                format!("not the footprint of a {} at ({}, {}) facing {}", u.formation, u.at.x, u.at.y, u.facing)
            })?;
        }
        check(u.cells().iter().all(|&c| s.terrain.passable(c)), &format!("{field}.cells"), || "a cell in a lake".into())?;
    }
    check(present > 0, &format!("armies[{k}].units"), || "no unit in play".into())?;
    let start = super::setup::starting_morale(present);
    check(army.morale_start == start, &format!("armies[{k}].morale_start"), || {
        format!("{} is not ⌈{present} units / 2⌉ = {start} (S6)", army.morale_start)
    })?;
    check(army.morale <= army.morale_start, &format!("armies[{k}].morale"), || {
        format!("{} is more than the starting {}", army.morale, army.morale_start)
    })?;
    check(army.morale > 0 || s.phase == Phase::GameOver, &format!("armies[{k}].morale"), || {
        "0 in a game not over (E1)".into()
    })?;
    check(s.terrain.passable(army.cinc), &format!("armies[{k}].cinc"), || {
        format!("({}, {}) is off the table or in a lake", army.cinc.x, army.cinc.y)
    })?;
    for c in Card::playable() {
        check(army.hand.get(c) <= c.copies(), &format!("armies[{k}].hand"), || format!("more {c} than its copies"))?;
        check(army.drawn.get(c) <= army.hand.get(c), &format!("armies[{k}].drawn"), || {
            format!("more {c} drawn this round than held")
        })?;
    }
    Ok(())
}

fn validate_cards(s: &State) -> Result<()> {
    let mut counts = [0usize; Card::COUNT];
    for &c in s.deck.iter().chain(&s.discard).chain(&s.removed) {
        counts[c.idx()] += 1;
    }
    for army in &s.armies {
        for c in Card::playable() {
            counts[c.idx()] += army.hand.get(c) as usize;
        }
    }
    let total: usize = counts.iter().sum();
    check(total == DECK_SIZE, "deck", || format!("the cards number {total}, not {DECK_SIZE}"))?;
    for c in Card::ALL {
        check(counts[c.idx()] == c.copies() as usize, "deck", || {
            format!("{} copies of {c} in the deck, discard, removed and hands, not {}", counts[c.idx()], c.copies())
        })?;
    }
    check(s.discard.iter().all(|c| c.is_playable()), "discard", || "reshuffle cannot be discarded (K3)".into())?;
    check(s.removed.iter().all(|c| !c.is_playable()), "removed", || "only reshuffle cards leave the game (K3)".into())?;
    Ok(())
}

fn validate_round(s: &State) -> Result<()> {
    let r: &Round = &s.round;
    let active = s.army(s.active);
    let playable = |c: &Option<Card>| c.is_none_or(|c| c.is_playable());
    check(r.interrupt.is_none_or(|c| c.is_playable() && c.mark() == Some(CardMark::Interrupt)), "round.interrupt", || {
        format!("{:?} is not an interrupt card (K7)", r.interrupt)
    })?;
    for (k, m) in r.modifiers.iter().enumerate() {
        check(playable(&m[0]) && m[0].is_none_or(|c| c.symbol() == Some(CardMark::Volley)), "round.modifiers", || {
            format!("side {k}'s volley modifier {:?} has no volley symbol (K6)", m[0])
        })?;
        check(
            playable(&m[1]) && m[1].is_none_or(|c| c.symbol().is_some_and(|x| x != CardMark::Volley)),
            "round.modifiers",
            || format!("side {k}'s action modifier {:?} has no action symbol (K6)", m[1]),
        )?;
    }
    check(r.span_played.iter().all(|c| c.is_playable()) && r.span_played.len() <= DECK_SIZE, "round.span_played", || {
        "reshuffle, or more cards than the deck".into()
    })?;
    check(r.distance.is_none_or(|d| d <= MAX_DISTANCE), "round.distance", || {
        format!("{:?} is more than {MAX_DISTANCE}", r.distance)
    })?;
    check(!r.delayed || r.distance.is_some(), "round.delayed", || "a delay before the distance is known".into())?;
    check(present_bits(active, r.force), "round.force", || "names a unit not in play".into())?;
    check(present_bits(active, r.done), "round.done", || "names a unit not in play".into())?;
    check(present_bits(active, r.charged), "round.charged", || "names a unit not in play".into())?;
    for (k, side) in Side::ALL.iter().enumerate() {
        let own = s.army(*side);
        let enemy = s.army(side.other());
        for i in 0..MAX_UNITS {
            let e = r.engaged[k][i];
            check(e == 0 || (own.units[i].present && present_bits(enemy, e)), "round.engaged", || {
                format!("{side} unit {i} engaged with units not in play")
            })?;
            let sc = r.scores[k][i];
            check(sc.is_none_or(|v| own.units[i].present && (-1000..=1000).contains(&v)), "round.scores", || {
                format!("{side} unit {i}: {sc:?}")
            })?;
        }
        check(r.king[k].is_none_or(|i| (i as usize) < MAX_UNITS && own.units[i as usize].present), "round.king", || {
            format!("{side}'s {:?} is not a unit in play", r.king[k])
        })?;
    }
    check(r.charging.is_none_or(|i| (i as usize) < MAX_UNITS && active.units[i as usize].on_table), "round.charging", || {
        format!("{:?} is not an active unit on the table", r.charging)
    })?;
    if let Some(m) = &r.moving {
        let id = m.id as usize;
        check(id < MAX_UNITS && active.units[id].on_table, "round.moving.id", || {
            format!("{} is not an active unit on the table", m.id)
        })?;
        validate_unit(&m.start, s.active, id, "round.moving.start")?;
        check(m.start.present && m.start.on_table, "round.moving.start", || "must be a unit on the table".into())?;
        check(m.start.cells == footprint(m.start.formation, m.start.at, m.start.facing), "round.moving.start.cells", || {
            "not the footprint of the start position".into()
        })?;
        check(m.spent <= 64 && m.actions <= 64, "round.moving", || "spent or actions above 64".into())?;
        check(m.passed.len() <= 1024 && m.passed.iter().all(|&c| cell_ok(c)), "round.moving.passed", || {
            "a cell off the table, or too many".into()
        })?;
        check(present_bits(active, m.interpenetrated), "round.moving.interpenetrated", || "names a unit not in play".into())?;
    }
    if let Some(f) = &r.fire {
        let firing = s.army(f.side);
        let target = s.army(f.side.other());
        check(f.hits.iter().enumerate().all(|(i, &h)| h == 0 || (target.units[i].present && h <= 64)), "round.fire.hits", || {
            "hits on a unit not in play, or above 64".into()
        })?;
        if let Some(u) = f.unit {
            check((u as usize) < MAX_UNITS && firing.units[u as usize].on_table, "round.fire.unit", || {
                format!("{u} is not a unit of the firing side on the table")
            })?;
            check(f.base < firing.units[u as usize].bases(), "round.fire.base", || format!("{} is past the unit's bases", f.base))?;
            // F5: each aim of the unit being aimed is at an enemy unit on the table.
            check(
                f.aims.iter().all(|a| s.unit_at(a.target).is_some_and(|e| e.side != f.side)),
                "round.fire.aims",
                || "an aim at a cell without an enemy unit".into(),
            )?;
        } else {
            check(f.base <= 4, "round.fire.base", || format!("{} is past any unit's bases", f.base))?;
        }
        check(f.aims.len() <= 4, "round.fire.aims", || "more than 4".into())?;
        for a in &f.aims {
            check(
                cell_ok(a.base)
                    && cell_ok(a.target)
                    && (0..=WIDTH as i8).contains(&a.k)
                    && a.lane.0.abs() <= 1
                    && a.lane.1.abs() <= 1,
                "round.fire.aims",
                || format!("{a:?} off the table or out of range"),
            )?;
        }
    }
    if r.command.is_none() {
        // R4: nothing of the activation exists before the command is chosen (a force named
        // before it would carry into the `force` phase).
        let fresh = r.force == 0
            && r.distance.is_none()
            && r.span_played.is_empty()
            && !r.delayed
            && !r.activated
            && !r.interrupt_window
            && r.done == 0
            && r.charged == 0
            && r.moving.is_none()
            && r.charging.is_none();
        check(fresh, "round.force", || {
            "force, distance, cards played or units moved before the command is chosen".into()
        })?;
    }
    let phase_needs = |cond: bool, what: &str| {
        check(cond, "round", || format!("phase '{}' needs {what}", s.phase))
    };
    match s.phase {
        Phase::Fire | Phase::Aim => phase_needs(r.fire.is_some(), "a fire in progress")?,
        Phase::UnitMove => phase_needs(r.moving.is_some(), "a moving unit")?,
        Phase::ChargeLead => phase_needs(r.charging.is_some(), "a charging unit")?,
        Phase::Force | Phase::Span | Phase::ActivationInterrupt | Phase::Move | Phase::Charge | Phase::CincMove => {
            phase_needs(r.command.is_some(), "a command")?
        }
        Phase::ActionModifier => phase_needs(r.command.is_some_and(|c| c.symbol().is_some()), "an action command")?,
        _ => {}
    }
    if s.phase == Phase::Span {
        // A7: cards are played until they pay the distance; without a delay the force was
        // chosen within the hand's span total (A6), so the hand can still pay it.
        let paid: u32 = r.span_played.iter().map(|c| c.span()).sum();
        let distance = super::rules::activation::activation_distance(s);
        check(r.span_played.is_empty() || paid < distance, "round.span_played", || {
            format!("{paid} paid already meets the distance {distance} in phase 'span'")
        })?;
        check(r.delayed || paid + active.hand.span_total() >= distance, "round.distance", || {
            format!("{distance} is more than the active hand can pay ({paid} paid, A6)")
        })?;
    }
    if s.phase == Phase::Aim {
        check(r.fire.as_ref().is_some_and(|f| f.unit.is_some()), "round.fire.unit", || "phase 'aim' needs a unit".into())?;
    }
    if matches!(s.phase, Phase::Span | Phase::ActivationInterrupt) {
        check(r.distance.is_some(), "round.distance", || format!("phase '{}' needs the distance", s.phase))?;
    }
    Ok(())
}

fn validate_pending(s: &State) -> Result<()> {
    let ok = match (&s.phase, &s.pending) {
        (Phase::Displace, Pending::Displace { then, .. }) => !matches!(then, Resume::FallBack(n) if *n as usize > MAX_UNITS),
        (Phase::PenaltyDiscard, Pending::Penalty { .. }) => true,
        (Phase::HandLimit, Pending::HandLimit { side, count }) => {
            *count > 0 && (*count as usize) <= s.army(*side).hand.total()
        }
        (Phase::Displace | Phase::PenaltyDiscard | Phase::HandLimit, _) => false,
        (_, Pending::None) => true,
        // A displacement may wait while a fall back goes on.
        _ => false,
    };
    check(ok, "pending", || format!("{:?} does not fit phase '{}'", s.pending, s.phase))
}

fn validate_streams(s: &State) -> Result<()> {
    check(s.dice.script.iter().all(|d| (1..=6).contains(d)), "dice.script", || "dice must be 1-6".into())?;
    check(s.dice.script.len() <= 1 << 20, "dice.script", || "too long".into())?;
    for (k, roll) in s.dice.log.iter().enumerate() {
        check(roll.dice.len() <= 64 && roll.dice.iter().all(|d| (1..=6).contains(d)), "dice.log", || {
            format!("roll {k} has a die outside 1-6 or more than 64 dice")
        })?;
    }
    for (k, shuffle) in s.shuffler.script.iter().enumerate() {
        let mut counts = [0usize; Card::COUNT];
        for &c in shuffle {
            counts[c.idx()] += 1;
        }
        let ok = Card::ALL.iter().all(|&c| counts[c.idx()] <= c.copies() as usize);
        check(ok, "shuffler.script", || format!("shuffle {k} holds more copies of a card than the deck"))?;
    }
    Ok(())
}

/// A6: in `force`, whether naming units (as the rules allow) can reach a force that may be
/// confirmed (A2): a search over the forces reachable from this one, each visited once.
fn force_can_complete(s: &State) -> bool {
    use super::action::{Action, MaskExt};
    let mut probe = s.clone();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![s.round.force];
    while let Some(force) = stack.pop() {
        if !seen.insert(force) {
            continue;
        }
        probe.round.force = force;
        let mask = super::rules::legal_mask(&probe);
        if mask.contains(Action::ConfirmForce) {
            return true;
        }
        for a in mask.iter() {
            if let Ok(Action::Unit(id)) = super::action::decode(a as i64) {
                stack.push(force | 1 << id);
            }
        }
    }
    false
}
