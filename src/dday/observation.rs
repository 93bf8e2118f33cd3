//! API.md "Observation": 380 floats per side, every one in [0, 1], holding only what that side may
//! see (O1–O4). The layout table is recorded by the code that writes the slices, so the two cannot
//! drift apart.

use super::allocation::zone_value;
use super::ids::{Answer, FigState, Kind, Phase, Pool, Side, Unit, VpLine, Zone, GUESSES};
use super::skirmish::task::faces;
use super::state::{Pending, State};
use crate::obs_value::{one_hot, Divisor, ObsValue, SliceWriter as Writer};
pub use crate::obs_value::Layout;
use std::sync::OnceLock;

pub const OBSERVATION_SIZE: usize = 380;

/// The count `x` out of `by`, capped at `by` (as a float: `x / by` clamped to [0, 1]).
fn frac<T: ObsValue>(x: impl Into<u32>, by: u8) -> T {
    T::ratio(x.into().min(by as u32) as u8, by)
}

/// A count that is not capped (at most 255): `n / by` as a float, `n` as a byte.
fn count<T: ObsValue>(n: u8, by: u8) -> T {
    T::ratio(n, by)
}

/// The 12 figure classes of `figures` per section, in API order; None for non-table states.
fn figure_class(unit: Unit, state: FigState) -> Option<usize> {
    let st = match state {
        FigState::Standing => 0,
        FigState::InCover => 1,
        FigState::Casualty => 2,
        _ => return None,
    };
    Some(match (unit, st) {
        (Unit::Resistance, s) => s,
        (_, 2) => 11,
        (Unit::Squad, s) => 3 + s,
        (Unit::Gendarme1, s) => 5 + s,
        (Unit::Gendarme2, s) => 7 + s,
        (_, s) => 9 + s,
    })
}

/// Writes `side`'s observation of `s` into `out` (length ≥ 380).
pub fn write_observation(s: &State, side: Side, out: &mut [f32]) {
    write_observation_as(s, side, out);
}

/// Writes `side`'s observation of `s` into `out` as `T` (`f32`: as `write_observation`; `u8`:
/// each value's count, the `f32` value times its divisor, see `observation_divisors`).
pub fn write_observation_as<T: ObsValue>(s: &State, side: Side, out: &mut [T]) {
    write(s, side, &mut Writer::new(out, None));
}

/// For each value of the observation, what its `u8` form is divided by to give its `f32` form
/// (1 for flags). Recorded by the encoder itself, as the layout is.
pub fn observation_divisors() -> &'static [u8; OBSERVATION_SIZE] {
    static DIVISORS: OnceLock<[u8; OBSERVATION_SIZE]> = OnceLock::new();
    DIVISORS.get_or_init(|| {
        let s = super::rules::new_game(0, &Default::default()).expect("the default game starts");
        let mut out = [Divisor(u8::MAX); OBSERVATION_SIZE];
        write(&s, Side::German, &mut Writer::new(&mut out, None));
        out.map(|d| d.0)
    })
}

/// `side`'s observation of `s`.
pub fn observation(s: &State, side: Side) -> [f32; OBSERVATION_SIZE] {
    let mut out = [0.0; OBSERVATION_SIZE];
    write_observation(s, side, &mut out);
    out
}

/// `OBSERVATION_LAYOUT` of API.md.
pub fn observation_layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let s = super::rules::new_game(0, &Default::default()).expect("the default game starts");
        let mut layout = Layout::new();
        let mut out = [0.0; OBSERVATION_SIZE];
        write(&s, Side::German, &mut Writer::new(&mut out, Some(&mut layout)));
        layout
    })
}

fn write<T: ObsValue>(s: &State, me: Side, w: &mut Writer<T>) {
    let contents = s.contents();
    let sk = &s.skirmish;
    let in_sk = s.in_skirmish();

    one_hot(w.slice("self", 2), me.idx());
    one_hot(w.slice("phase", 12), s.phase.idx());
    let to_move = w.slice("to_move", 2);
    if let Some(p) = s.to_move() {
        one_hot(to_move, p.idx());
    }
    // Every count is written, 0 where there is nothing to see, so that `observation_divisors`
    // records each value's divisor from any state.
    let alloc = w.slice("allocation", 25);
    for &z in Zone::ALL {
        let seen = s.sees_zone(me, z);
        for &k in Kind::ALL {
            alloc[z.idx() * 5 + k.idx()] = frac(if seen { contents[z.idx()][k.idx()] } else { 0 }, 3);
        }
    }
    let known = w.slice("allocation_known", 5);
    for &z in Zone::ALL {
        known[z.idx()] = T::bit(s.sees_zone(me, z) as u32);
    }
    let next = w.slice("next_item", 5);
    if s.phase == Phase::Allocation && me == Side::German {
        if let Some(k) = s.next_item() {
            one_hot(next, k.idx());
        }
    }
    let log = w.slice("interrogation", 63);
    for r in log.chunks_mut(9) {
        r[5] = frac(0u8, 10);
    }
    for (row, g) in s.interrogation.guesses().enumerate() {
        let r = &mut log[row * 9..row * 9 + 9];
        r[g.zone.idx()] = T::ON;
        r[5] = frac(g.value, 10);
        r[6 + match g.answer {
            Answer::TooHigh => 0,
            Answer::TooLow => 1,
            Answer::Correct => 2,
        }] = T::ON;
    }
    w.slice("guesses_left", 1)[0] = frac(s.interrogation.guesses_left, GUESSES);
    let open = w.slice("zone_open", 5);
    if s.phase == Phase::Interrogation {
        for &z in Zone::ALL {
            open[z.idx()] = T::bit(s.interrogation.is_open(z) as u32);
        }
    }
    let bounds = w.slice("value_bounds", 10);
    for &z in Zone::ALL {
        let (lo, hi) = if s.sees_zone(me, z) {
            let v = zone_value(&contents[z.idx()]);
            (v, v)
        } else {
            s.interrogation.bounds(z)
        };
        bounds[z.idx() * 2] = frac(lo, 10);
        bounds[z.idx() * 2 + 1] = frac(hi, 10);
    }
    let attacked = w.slice("attacked", 5);
    for z in s.attacked.iter().flatten() {
        attacked[z.idx()] = T::ON;
    }
    let order = w.slice("play_order", 10);
    if let Some([a, b]) = s.order {
        order[a.idx()] = T::ON;
        order[5 + b.idx()] = T::ON;
    }
    let skirmish = w.slice("skirmish", 2);
    if let (true, Some(i)) = (in_sk, s.skirmish_index) {
        one_hot(skirmish, i as usize);
    }
    let items = w.slice("zone_items", 5);
    for &k in Kind::ALL {
        items[k.idx()] = frac(if in_sk { contents[sk.zone.idx()][k.idx()] } else { 0 }, 3);
    }
    let ts = w.slice("task_section", 6);
    if let (true, Some(t)) = (in_sk, sk.task_section) {
        one_hot(ts, t as usize - 1);
    }
    w.slice("clock", 1)[0] = frac(if in_sk { sk.clock.max(0) as u16 } else { 0 }, 30);
    let turn = w.slice("turn", 2);
    if in_sk && sk.n_figures > 0 {
        one_hot(turn, sk.turn.idx());
    }
    // Counted first, then written as counts out of 12 (the most figures of one class).
    let mut n = [0u8; 72];
    if in_sk {
        for f in sk.figures() {
            if let Some(c) = figure_class(f.unit, f.state) {
                n[(f.section as usize - 1) * 12 + c] += 1;
            }
        }
    }
    w.slice("figures", 72).iter_mut().zip(n).for_each(|(x, n)| *x = count(n, 12));
    let mut n = [0u8; 60];
    if matches!(s.phase, Phase::Actions | Phase::Hit) {
        for f in sk.figures().iter().filter(|f| f.fresh && f.side() == sk.turn && f.is_fighting()) {
            let st = (f.state == FigState::InCover) as usize;
            n[(f.section as usize - 1) * 10 + f.unit.idx() * 2 + st] += 1;
        }
    }
    w.slice("fresh", 60).iter_mut().zip(n).for_each(|(x, n)| *x = count(n, 12));
    let acting = w.slice("acting", 16);
    acting[13] = frac(0u8, 2);
    acting[14] = frac(0u8, 2);
    if let (true, Some(i)) = (in_sk, sk.acting) {
        let f = sk.figures[i as usize];
        acting[f.section as usize - 1] = T::ON;
        acting[6 + f.unit.idx()] = T::ON;
        acting[11 + (f.state == FigState::InCover) as usize] = T::ON;
        acting[13] = frac(f.moves, 2);
        acting[14] = frac(f.shots, 2);
        acting[15] = T::bit(f.cover_changed as u32);
    }
    let pools = w.slice("pools", 6);
    for &p in Pool::ALL {
        pools[p.idx()] = frac(if in_sk { sk.pools[p.idx()] } else { 0 }, 12);
    }
    let sets = w.slice("task_sets", 12);
    if in_sk {
        for side in [Side::Resistance, Side::German] {
            for f in faces(sk.task[side.idx()]) {
                sets[side.idx() * 6 + f as usize - 1] = T::ON;
            }
        }
    }
    w.slice("task_rolled", 1)[0] = T::bit((in_sk && sk.task_rolled) as u32);
    w.slice("holds_task_section", 1)[0] = T::bit((in_sk && sk.holds_task_section()) as u32);
    let pending = w.slice("pending", 14);
    for d in &mut pending[8..12] {
        *d = frac(0u8, 6);
    }
    let mut put_dice = |kind: usize, dice: &[u8], slot: Option<u8>| {
        pending[kind] = T::ON;
        for (j, &d) in dice.iter().take(4).enumerate() {
            pending[8 + j] = frac(d, 6);
        }
        if let Some(sl) = slot {
            pending[12 + sl as usize] = T::ON;
        }
    };
    match s.pending {
        Some(Pending::GroupSize { die }) => put_dice(0, &[die], None),
        Some(Pending::ActionPoints { dice }) => put_dice(1, &dice, None),
        Some(Pending::Clock { die }) => put_dice(2, &[die], None),
        Some(Pending::Vp { slot, line, n, dice }) => {
            let kind = match line {
                VpLine::GermanTask => 3,
                VpLine::NoTrain => 4,
                VpLine::SquadPresent => 5,
                VpLine::ResistanceTask => 6,
                _ => 7,
            };
            put_dice(kind, &dice[..n as usize], Some(slot));
        }
        _ => {}
    }
    let shot = w.slice("shot", 12);
    if let Some(Pending::Hit { from, to }) = s.pending {
        shot[from as usize - 1] = T::ON;
        shot[6 + to as usize - 1] = T::ON;
    }
    let flee = w.slice("flee", 7);
    flee[6] = frac(0u8, 12);
    if let Some(Pending::Flee { section, remaining }) = s.pending {
        flee[section as usize - 1] = T::ON;
        flee[6] = frac(remaining, 12);
    }
    let losses = w.slice("losses", 4);
    let n = |side, st| frac(if in_sk { sk.count(side, st) as u8 } else { 0 }, 12);
    losses[0] = n(Side::Resistance, FigState::RanAway);
    losses[1] = n(Side::Resistance, FigState::Evacuated);
    losses[2] = n(Side::German, FigState::RanAway);
    losses[3] = n(Side::German, FigState::Evacuated);
    let records = w.slice("records", 12);
    for row in records.chunks_mut(6) {
        (row[2], row[3], row[4], row[5]) = (frac(0u8, 6), frac(0u8, 6), frac(0u8, 9), frac(0u8, 12));
    }
    for (slot, r) in s.records.iter().enumerate() {
        if let Some(r) = r {
            let row = &mut records[slot * 6..slot * 6 + 6];
            row[0] = T::bit((r.completed == Some(Side::Resistance)) as u32);
            row[1] = T::bit((r.completed == Some(Side::German)) as u32);
            row[2] = frac(faces(r.task[0]).count() as u8, 6);
            row[3] = frac(faces(r.task[1]).count() as u8, 6);
            row[4] = frac(r.resistance_killed + r.resistance_ran_away, 9);
            row[5] = frac(r.german_killed, 12);
        }
    }
    let vp = w.slice("vp", 2);
    vp[0] = frac(s.vp.resistance, 150);
    vp[1] = frac(s.vp.german, 150);
    debug_assert_eq!(w.pos, OBSERVATION_SIZE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dday::action::decode;
    use crate::dday::rules::{apply_action, legal_mask, new_game};

    #[test]
    fn the_byte_row_divided_by_its_divisors_is_the_float_row() {
        let d = observation_divisors();
        assert!(d.iter().all(|&x| x >= 1), "every D-Day value is a flag or a count");
        let mut skirmishes = 0;
        for seed in 0..6u64 {
            let mut s = new_game(seed, &Default::default()).unwrap();
            let mut pick = seed;
            for _ in 0..2000 {
                for side in [Side::Resistance, Side::German] {
                    let mut bytes = [0u8; OBSERVATION_SIZE];
                    write_observation_as(&s, side, &mut bytes);
                    let floats = observation(&s, side);
                    for (i, ((&b, &d), &f)) in bytes.iter().zip(d).zip(&floats).enumerate() {
                        assert_eq!(b as f32 / d as f32, f, "value {i}");
                    }
                }
                skirmishes += s.in_skirmish() as u32;
                let mask = legal_mask(&s);
                if s.is_over() || mask.count() == 0 {
                    break;
                }
                pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let a = mask.nth((pick >> 33) as u32 % mask.count()).unwrap();
                apply_action(&mut s, decode(a as i64).unwrap()).unwrap();
            }
        }
        assert!(skirmishes > 100, "the games reach their skirmishes");
    }
}
