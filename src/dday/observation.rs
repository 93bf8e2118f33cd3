//! API.md "Observation": 380 floats per side, every one in [0, 1], holding only what that side may
//! see (O1–O4). The layout table is recorded by the code that writes the slices, so the two cannot
//! drift apart.

use super::allocation::zone_value;
use super::ids::{Answer, FigState, Kind, Phase, Pool, Side, Unit, VpLine, Zone, GUESSES};
use super::skirmish::task::faces;
use super::state::{Pending, State};
use std::sync::OnceLock;

pub const OBSERVATION_SIZE: usize = 380;

/// (name, offset, length) of each slice, in order.
pub type Layout = Vec<(&'static str, usize, usize)>;

struct Writer<'a> {
    out: &'a mut [f32],
    pos: usize,
    layout: Option<&'a mut Layout>,
}

impl Writer<'_> {
    /// The next `len` floats as the slice `name`, zeroed.
    fn slice(&mut self, name: &'static str, len: usize) -> &mut [f32] {
        if let Some(l) = self.layout.as_deref_mut() {
            l.push((name, self.pos, len));
        }
        let s = &mut self.out[self.pos..self.pos + len];
        s.fill(0.0);
        self.pos += len;
        s
    }
}

fn frac(x: impl Into<f32>, by: f32) -> f32 {
    (x.into() / by).clamp(0.0, 1.0)
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
    write(s, side, &mut Writer { out, pos: 0, layout: None });
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
        write(&s, Side::German, &mut Writer { out: &mut out, pos: 0, layout: Some(&mut layout) });
        layout
    })
}

fn one_hot(slice: &mut [f32], i: usize) {
    if let Some(x) = slice.get_mut(i) {
        *x = 1.0;
    }
}

fn write(s: &State, me: Side, w: &mut Writer) {
    let contents = s.contents();
    let sk = &s.skirmish;
    let in_sk = s.in_skirmish();

    one_hot(w.slice("self", 2), me.idx());
    one_hot(w.slice("phase", 12), s.phase.idx());
    let to_move = w.slice("to_move", 2);
    if let Some(p) = s.to_move() {
        one_hot(to_move, p.idx());
    }
    let alloc = w.slice("allocation", 25);
    for &z in Zone::ALL {
        if s.sees_zone(me, z) {
            for &k in Kind::ALL {
                alloc[z.idx() * 5 + k.idx()] = frac(contents[z.idx()][k.idx()], 3.0);
            }
        }
    }
    let known = w.slice("allocation_known", 5);
    for &z in Zone::ALL {
        known[z.idx()] = s.sees_zone(me, z) as u8 as f32;
    }
    let next = w.slice("next_item", 5);
    if s.phase == Phase::Allocation && me == Side::German {
        if let Some(k) = s.next_item() {
            one_hot(next, k.idx());
        }
    }
    let log = w.slice("interrogation", 63);
    for (row, g) in s.interrogation.guesses().enumerate() {
        let r = &mut log[row * 9..row * 9 + 9];
        r[g.zone.idx()] = 1.0;
        r[5] = frac(g.value, 10.0);
        r[6 + match g.answer {
            Answer::TooHigh => 0,
            Answer::TooLow => 1,
            Answer::Correct => 2,
        }] = 1.0;
    }
    w.slice("guesses_left", 1)[0] = frac(s.interrogation.guesses_left, GUESSES as f32);
    let open = w.slice("zone_open", 5);
    if s.phase == Phase::Interrogation {
        for &z in Zone::ALL {
            open[z.idx()] = s.interrogation.is_open(z) as u8 as f32;
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
        bounds[z.idx() * 2] = frac(lo, 10.0);
        bounds[z.idx() * 2 + 1] = frac(hi, 10.0);
    }
    let attacked = w.slice("attacked", 5);
    for z in s.attacked.iter().flatten() {
        attacked[z.idx()] = 1.0;
    }
    let order = w.slice("play_order", 10);
    if let Some([a, b]) = s.order {
        order[a.idx()] = 1.0;
        order[5 + b.idx()] = 1.0;
    }
    let skirmish = w.slice("skirmish", 2);
    if let (true, Some(i)) = (in_sk, s.skirmish_index) {
        one_hot(skirmish, i as usize);
    }
    let items = w.slice("zone_items", 5);
    if in_sk {
        for &k in Kind::ALL {
            items[k.idx()] = frac(contents[sk.zone.idx()][k.idx()], 3.0);
        }
    }
    let ts = w.slice("task_section", 6);
    if let (true, Some(t)) = (in_sk, sk.task_section) {
        one_hot(ts, t as usize - 1);
    }
    let clock = w.slice("clock", 1);
    if in_sk {
        clock[0] = frac(sk.clock.max(0), 30.0);
    }
    let turn = w.slice("turn", 2);
    if in_sk && sk.n_figures > 0 {
        one_hot(turn, sk.turn.idx());
    }
    let figs = w.slice("figures", 72);
    if in_sk {
        for f in sk.figures() {
            if let Some(c) = figure_class(f.unit, f.state) {
                figs[(f.section as usize - 1) * 12 + c] += 1.0;
            }
        }
        figs.iter_mut().for_each(|x| *x /= 12.0);
    }
    let fresh = w.slice("fresh", 60);
    if matches!(s.phase, Phase::Actions | Phase::Hit) {
        for f in sk.figures().iter().filter(|f| f.fresh && f.side() == sk.turn && f.is_fighting()) {
            let st = (f.state == FigState::InCover) as usize;
            fresh[(f.section as usize - 1) * 10 + f.unit.idx() * 2 + st] += 1.0;
        }
        fresh.iter_mut().for_each(|x| *x /= 12.0);
    }
    let acting = w.slice("acting", 16);
    if let (true, Some(i)) = (in_sk, sk.acting) {
        let f = sk.figures[i as usize];
        acting[f.section as usize - 1] = 1.0;
        acting[6 + f.unit.idx()] = 1.0;
        acting[11 + (f.state == FigState::InCover) as usize] = 1.0;
        acting[13] = frac(f.moves, 2.0);
        acting[14] = frac(f.shots, 2.0);
        acting[15] = f.cover_changed as u8 as f32;
    }
    let pools = w.slice("pools", 6);
    if in_sk {
        for &p in Pool::ALL {
            pools[p.idx()] = frac(sk.pools[p.idx()], 12.0);
        }
    }
    let sets = w.slice("task_sets", 12);
    if in_sk {
        for side in [Side::Resistance, Side::German] {
            for f in faces(sk.task[side.idx()]) {
                sets[side.idx() * 6 + f as usize - 1] = 1.0;
            }
        }
    }
    w.slice("task_rolled", 1)[0] = (in_sk && sk.task_rolled) as u8 as f32;
    w.slice("holds_task_section", 1)[0] = (in_sk && sk.holds_task_section()) as u8 as f32;
    let pending = w.slice("pending", 14);
    let mut put_dice = |kind: usize, dice: &[u8], slot: Option<u8>| {
        pending[kind] = 1.0;
        for (j, &d) in dice.iter().take(4).enumerate() {
            pending[8 + j] = frac(d, 6.0);
        }
        if let Some(sl) = slot {
            pending[12 + sl as usize] = 1.0;
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
        shot[from as usize - 1] = 1.0;
        shot[6 + to as usize - 1] = 1.0;
    }
    let flee = w.slice("flee", 7);
    if let Some(Pending::Flee { section, remaining }) = s.pending {
        flee[section as usize - 1] = 1.0;
        flee[6] = frac(remaining, 12.0);
    }
    let losses = w.slice("losses", 4);
    if in_sk {
        let n = |side, st| frac(sk.count(side, st) as u8, 12.0);
        losses[0] = n(Side::Resistance, FigState::RanAway);
        losses[1] = n(Side::Resistance, FigState::Evacuated);
        losses[2] = n(Side::German, FigState::RanAway);
        losses[3] = n(Side::German, FigState::Evacuated);
    }
    let records = w.slice("records", 12);
    for (slot, r) in s.records.iter().enumerate() {
        if let Some(r) = r {
            let row = &mut records[slot * 6..slot * 6 + 6];
            row[0] = (r.completed == Some(Side::Resistance)) as u8 as f32;
            row[1] = (r.completed == Some(Side::German)) as u8 as f32;
            row[2] = frac(faces(r.task[0]).count() as u8, 6.0);
            row[3] = frac(faces(r.task[1]).count() as u8, 6.0);
            row[4] = frac(r.resistance_killed + r.resistance_ran_away, 9.0);
            row[5] = frac(r.german_killed, 12.0);
        }
    }
    let vp = w.slice("vp", 2);
    vp[0] = frac(s.vp.resistance, 150.0);
    vp[1] = frac(s.vp.german, 150.0);
    debug_assert_eq!(w.pos, OBSERVATION_SIZE);
}
