//! V1–V5: victory points, per attacked zone, fixed lines first, then the dice lines in V4's
//! order, each with its side's `reroll`/`keep`; then the outcome (E3).

use super::allocation::train;
use super::ids::{ChanceEvent, Kind, Outcome, Phase, Side, VpLine};
use super::skirmish::task::faces;
use super::state::{LineScore, Pending, Record, State};

/// V4: the dice lines' order within a zone.
pub const DICE_LINES: [VpLine; 5] =
    [VpLine::GermanTask, VpLine::NoTrain, VpLine::SquadPresent, VpLine::ResistanceTask, VpLine::Train];

// Scoring starts after both skirmishes, so both records exist (load_state checks it too).
fn record(s: &State, slot: u8) -> Option<Record> {
    s.records.get(slot as usize).copied().flatten()
}

/// The number of dice of a dice line for the zone in `slot`, or None if it does not apply.
pub fn dice_of(s: &State, slot: u8, line: VpLine) -> Option<u8> {
    let r = record(s, slot)?;
    let items = s.contents()[r.zone.idx()];
    match line {
        VpLine::GermanTask => (r.completed == Some(Side::German)).then_some(3),
        VpLine::NoTrain => train(&items).is_none().then_some(2),
        VpLine::SquadPresent => (items[Kind::Squad.idx()] > 0).then_some(1),
        VpLine::ResistanceTask => (r.completed == Some(Side::Resistance)).then_some(3),
        VpLine::Train if r.completed == Some(Side::Resistance) => match train(&items) {
            Some(Kind::Goods) => Some(2),
            Some(Kind::Passenger) => Some(3),
            Some(Kind::Vip) => Some(4),
            _ => None,
        },
        _ => None,
    }
}

/// The fixed lines of the zone in `slot` that apply, with their points (V2, V3).
pub fn fixed_lines(s: &State, slot: u8) -> Vec<(VpLine, u8)> {
    let mut out = Vec::new();
    let Some(r) = record(s, slot) else { return out };
    let lost = r.resistance_killed + r.resistance_ran_away;
    if lost > 0 {
        out.push((VpLine::ResistanceLost, 2 * lost));
    }
    if r.completed != Some(Side::Resistance) {
        out.push((VpLine::MissingDigits, 3 * (6 - faces(r.task[0]).count() as u8)));
    }
    if r.german_killed > 0 {
        out.push((VpLine::GermansKilled, 2 * r.german_killed.min(3)));
    }
    out
}

fn add(s: &mut State, score: LineScore) {
    match score.line.side() {
        Side::Resistance => s.vp.resistance += score.points as u16,
        Side::German => s.vp.german += score.points as u16,
    }
    s.vp.lines[s.vp.n_lines as usize] = Some(score);
    s.vp.n_lines += 1;
}

/// V4: the fixed lines of both zones, then the first dice line.
pub fn start(s: &mut State) {
    s.phase = Phase::Scoring;
    for slot in 0..2 {
        for (line, points) in fixed_lines(s, slot) {
            add(s, LineScore { slot, line, points, n_dice: 0, dice: [0; 4], rerolled: false });
        }
    }
    next_dice_line(s, 0);
}

/// Rolls the first dice line at or after position `from` (slot × 5 + line) that applies, or ends
/// the game when none is left.
fn next_dice_line(s: &mut State, from: usize) {
    for k in from..10 {
        let (slot, line) = ((k / 5) as u8, DICE_LINES[k % 5]);
        if let Some(n) = dice_of(s, slot, line) {
            let roll = s.dice.roll(ChanceEvent::Vp, n as usize);
            let mut dice = [0; 4];
            dice[..n as usize].copy_from_slice(roll.dice());
            s.pending = Some(Pending::Vp { slot, line, n, dice });
            return;
        }
    }
    s.pending = None;
    s.phase = Phase::GameOver;
    // E3, V5.
    s.outcome = Some(match s.vp.resistance.cmp(&s.vp.german) {
        std::cmp::Ordering::Greater => Outcome::Resistance,
        std::cmp::Ordering::Less => Outcome::German,
        std::cmp::Ordering::Equal => Outcome::Draw,
    });
}

/// V4: keep the line's dice or roll them all again (the second result stands).
pub fn decide(s: &mut State, reroll: bool) {
    let Some(Pending::Vp { slot, line, n, mut dice }) = s.pending else { return };
    if reroll {
        let roll = s.dice.roll(ChanceEvent::Vp, n as usize);
        dice[..n as usize].copy_from_slice(roll.dice());
    }
    let points = dice[..n as usize].iter().sum();
    add(s, LineScore { slot, line, points, n_dice: n, dice, rerolled: reroll });
    let k = slot as usize * 5 + DICE_LINES.iter().position(|&l| l == line).unwrap_or(4);
    next_dice_line(s, k + 1);
}
