//! Versioned JSON saves: the whole state with its RNG and dice script, so a loaded game continues
//! with the same dice. Loading checks every invariant and names the field that breaks one, so a
//! bad save is an error here rather than a panic later.

use super::allocation::{is_valid, prefix_is_ordered};
use super::ids::{Phase, Side, Unit, SECTIONS};
use super::skirmish::task::FULL;
use super::state::{Pending, State, MAX_FIGURES, MAX_LINES};
use crate::error::{Error, Result};

pub const FORMAT: &str = "maquis.dday1944";
pub const VERSION: u32 = 1;

/// The state as a versioned JSON string.
pub fn save_state(s: &State) -> String {
    crate::versioned::save(FORMAT, VERSION, s)
}

/// A state from `save_state`'s JSON, validated.
pub fn load_state(text: &str) -> Result<State> {
    let state = crate::versioned::open(text, FORMAT, VERSION, "D-Day")?;
    crate::versioned::check_streams(&state, "state")?;
    let s = state_from_value(&state)?;
    validate(&s)?;
    Ok(s)
}

// Deserializes field by field at the top level so that a type error names its field.
fn state_from_value(v: &serde_json::Value) -> Result<State> {
    let obj = v.as_object().ok_or_else(|| Error::BadSave("state: not an object".into()))?;
    for (k, field) in obj {
        if let Err(e) = check_field(k, field) {
            return Err(Error::BadSave(format!("state.{k}: {e}")));
        }
    }
    serde_json::from_value(v.clone()).map_err(|e| Error::BadSave(format!("state: {e}")))
}

fn check_field(k: &str, v: &serde_json::Value) -> std::result::Result<(), serde_json::Error> {
    use super::dice::Dice;
    use super::state::{Interrogation, Record, Skirmish, Vp};
    use serde_json::from_value as fv;
    let v = v.clone();
    match k {
        "phase" => fv::<Phase>(v).map(drop),
        "placement" => fv::<[u8; 11]>(v).map(drop),
        "placed" => fv::<u8>(v).map(drop),
        "interrogation" => fv::<Interrogation>(v).map(drop),
        "skirmish" => fv::<Skirmish>(v).map(drop),
        "records" => fv::<[Option<Record>; 2]>(v).map(drop),
        "vp" => fv::<Vp>(v).map(drop),
        "pending" => fv::<Option<Pending>>(v).map(drop),
        "dice" => fv::<Dice>(v).map(drop),
        _ => Ok(()),
    }
}

fn check(cond: bool, field: &str, msg: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::BadSave(format!("{field}: {}", msg())))
    }
}

/// Every invariant a reachable state keeps, each failure naming its field.
pub fn validate(s: &State) -> Result<()> {
    let placed = s.placed as usize;
    check(placed <= 11, "placed", || format!("{placed} is more than 11 items"))?;
    check(prefix_is_ordered(&s.placement[..placed]), "placement", || {
        "zones out of range or identical items out of order (G2)".into()
    })?;
    check(placed == 11 || s.phase == Phase::Allocation, "placed", || {
        format!("{placed} items placed but the phase is '{}'", s.phase)
    })?;
    if placed == 11 {
        check(is_valid(&s.contents()), "placement", || "not a valid allocation (G1)".into())?;
    }
    let i = &s.interrogation;
    check(i.n <= 7 && i.n as u32 + i.guesses_left as u32 <= 7, "interrogation.guesses_left", || {
        format!("{} guesses made and {} left exceed 7", i.n, i.guesses_left)
    })?;
    for (k, g) in i.log.iter().enumerate() {
        check(g.is_some() == (k < i.n as usize), "interrogation.log", || format!("entry {k} does not match n"))?;
        if let Some(g) = g {
            check((1..=10).contains(&g.value), "interrogation.log", || format!("value {} is not 1-10", g.value))?;
        }
    }
    if let Some([a, b]) = s.attacked {
        check(a < b, "attacked", || "two distinct zones in Z1 order are needed".into())?;
    }
    if let Some([a, b]) = s.order {
        check(s.attacked.is_some_and(|t| t.contains(&a) && t.contains(&b) && a != b), "order", || {
            "must be the two attacked zones".into()
        })?;
    }
    check(s.skirmish_index.is_none_or(|k| k < 2 && s.order.is_some()), "skirmish_index", || {
        "must be 0 or 1, with an order set".into()
    })?;
    check(s.in_skirmish() == s.skirmish_index.is_some(), "skirmish_index", || {
        format!("does not match phase '{}'", s.phase)
    })?;
    let sk = &s.skirmish;
    let n = sk.n_figures as usize;
    check(n <= MAX_FIGURES, "skirmish.n_figures", || format!("{n} is more than {MAX_FIGURES}"))?;
    for (k, f) in sk.figures().iter().enumerate() {
        let field = format!("skirmish.figures[{k}]");
        check((1..=SECTIONS).contains(&f.section), &field, || format!("section {} is not 1-6", f.section))?;
        check(f.moves <= 2 && f.shots <= 2, &field, || "more than 2 moves or shots".into())?;
        check(!f.fresh || f.state.is_fighting(), &field, || "a fresh figure must be fighting".into())?;
        check(k == 0 || sk.figures[k - 1].unit <= f.unit, &field, || "figures out of unit order (S3)".into())?;
    }
    check(
        sk.fighting(Side::Resistance) <= 9 && sk.figures().iter().filter(|f| f.unit == Unit::Squad).count() <= 6,
        "skirmish.figures",
        || "too many figures".into(),
    )?;
    for sec in 1..=SECTIONS {
        check(
            sk.fighting_in(Side::Resistance, sec) == 0 || sk.fighting_in(Side::German, sec) == 0,
            "skirmish.figures",
            || format!("section {sec} holds fighting figures of both sides (M1)"),
        )?;
    }
    if let Some(a) = sk.acting {
        check((a as usize) < n && sk.figures[a as usize].state.is_fighting(), "skirmish.acting", || {
            format!("{a} is not a fighting figure")
        })?;
    }
    check(sk.task.iter().all(|t| t & !FULL == 0), "skirmish.task", || "faces outside 1-6".into())?;
    check(sk.task_section.is_none_or(|t| (1..=3).contains(&t)), "skirmish.task_section", || {
        "must be 1, 2 or 3".into()
    })?;
    check(s.vp.n_lines as usize <= MAX_LINES, "vp.n_lines", || "too many lines".into())?;
    // V4: lines are written from the start of scoring on, one after another (a count past the
    // lines written would let scoring write past the last).
    check(matches!(s.phase, Phase::Scoring | Phase::GameOver) || s.vp.n_lines == 0, "vp.n_lines", || {
        format!("{} lines before scoring (phase '{}')", s.vp.n_lines, s.phase)
    })?;
    for (k, l) in s.vp.lines.iter().enumerate() {
        check(l.is_some() == (k < s.vp.n_lines as usize), "vp.lines", || format!("entry {k} does not match n_lines"))?;
        if let Some(l) = l {
            let dice_ok = l.n_dice <= 4 && l.dice[..l.n_dice.min(4) as usize].iter().all(|d| (1..=6).contains(d));
            check(l.slot < 2 && dice_ok, "vp.lines", || format!("entry {k}: slot 0 or 1 and at most 4 dice of 1-6"))?;
        }
    }
    let (mut r, mut g) = (0u16, 0u16);
    for l in s.vp.lines() {
        match l.line.side() {
            Side::Resistance => r += l.points as u16,
            Side::German => g += l.points as u16,
        }
    }
    check(r == s.vp.resistance && g == s.vp.german, "vp", || "totals differ from the sum of the lines (V5)".into())?;
    let pending_ok = match (s.phase, s.pending) {
        (Phase::GroupSize, Some(Pending::GroupSize { die })) => (1..=6).contains(&die),
        (Phase::ActionPoints, Some(Pending::ActionPoints { dice })) => dice.iter().all(|d| (1..=6).contains(d)),
        (Phase::Clock, Some(Pending::Clock { die })) => (1..=6).contains(&die),
        (Phase::Scoring, Some(Pending::Vp { slot, n, .. })) => slot < 2 && (1..=4).contains(&n),
        (Phase::Hit, Some(Pending::Hit { from, to })) => {
            (1..=SECTIONS).contains(&from) && (1..=SECTIONS).contains(&to) && (1..=3).contains(&from.abs_diff(to))
        }
        (Phase::Morale, Some(Pending::Flee { section, remaining })) => {
            (1..=SECTIONS).contains(&section) && remaining > 0
        }
        (
            Phase::Allocation | Phase::Interrogation | Phase::Attack | Phase::Order | Phase::Actions | Phase::GameOver,
            None,
        ) => true,
        _ => false,
    };
    check(pending_ok, "pending", || format!("{:?} does not fit phase '{}'", s.pending, s.phase))?;
    let finished = match s.phase {
        Phase::Scoring | Phase::GameOver => 2,
        _ if s.in_skirmish() => s.skirmish_index.unwrap_or(0) as usize,
        _ => 0,
    };
    for (k, r) in s.records.iter().enumerate() {
        check(r.is_some() == (k < finished), "records", || {
            format!(
                "{finished} finished skirmishes in phase '{}' but record {k} is {}",
                s.phase,
                if r.is_some() { "set" } else { "missing" }
            )
        })?;
        if let (Some(r), Some(order)) = (r, s.order) {
            check(r.zone == order[k], "records", || format!("record {k} is for '{}', not the zone played", r.zone))?;
        }
    }
    check(finished < 2 || s.order.is_some(), "order", || "scoring needs the play order".into())?;
    check((s.phase == Phase::GameOver) == s.outcome.is_some(), "outcome", || {
        "set exactly when the game is over".into()
    })?;
    check(s.dice.rng.get_word_pos() <= crate::versioned::MAX_WORD_POS as u128, "dice.rng.word_pos", || {
        format!("{} is past {}", s.dice.rng.get_word_pos(), crate::versioned::MAX_WORD_POS)
    })?;
    check(s.dice.script_pos <= s.dice.script.len(), "dice.script_pos", || "past the end of the script".into())?;
    check(s.dice.script.iter().all(|d| (1..=6).contains(d)), "dice.script", || "dice must be 1-6".into())?;
    for (k, roll) in s.dice.log.iter().enumerate() {
        check(
            (roll.n as usize) <= roll.dice.len() && roll.dice().iter().all(|d| (1..=6).contains(d)),
            "dice.log",
            || format!("roll {k} has a die outside 1-6"),
        )?;
    }
    check(s.is_over() || !super::rules::legal_mask(s).is_empty(), "phase", || {
        format!("no legal action in phase '{}' (the pending decision does not fit the table)", s.phase)
    })?;
    Ok(())
}
