//! Placement: the value of standing on a location (the best thing a worker could do there, on a
//! copy of the position where the workers already placed have done theirs).

use super::*;

#[derive(Clone, Copy, Debug)]
pub(super) struct LocValue {
    pub(super) value: f64,
    /// The best option keeps its reward even if the worker is arrested afterwards.
    pub(super) safe: bool,
}

/// Performs `opt` for the worker on `loc` of a probe position (no patrols) and sends it on.
pub(super) fn probe_do(p: &mut State, loc: Location, opt: Option<Opt>) -> bool {
    on_activation(p, loc);
    let Some(opt) = opt else {
        p.pawns[loc.idx()] = Pawn::Empty;
        p.home += 1;
        return false;
    };
    let perf = actions::perform(p, loc, opt);
    p.pawns[loc.idx()] = Pawn::Empty;
    match perf.disposition {
        actions::Disposition::GoHome { with_mole } => {
            if with_mole {
                p.marks.stuck &= !bit(loc);
                p.home += 1;
            }
            p.home += 1;
            if let Some(r) = perf.unsafe_reward {
                actions::grant(p, &r);
                false
            } else {
                true
            }
        }
        actions::Disposition::Stuck => {
            p.marks.stuck |= bit(loc);
            true
        }
        actions::Disposition::Arrested | actions::Disposition::Removed => {
            p.gone += 1;
            true
        }
    }
}

/// The best option of a worker on `loc` in a probe position (no patrols), valued against the
/// worker going home without an action: (option, value, safe).
pub(super) fn best_option(p: &State, loc: Location, c: &Ctx) -> (Option<Opt>, f64, bool) {
    let mut q = p.clone();
    q.pawns[loc.idx()] = Pawn::Worker;
    let base = eval(&q, c);
    let mut skip = q.clone();
    probe_do(&mut skip, loc, None);
    let mut best = (None, eval(&skip, c) - base, false);
    for &opt in location_options(loc) {
        if !actions::option_legal(&q, loc, opt) {
            continue;
        }
        let mut n = q.clone();
        let safe = probe_do(&mut n, loc, Some(opt));
        let v = eval(&n, c) - base;
        if v > best.1 + 1e-9 {
            best = (Some(opt), v, safe);
        }
    }
    best
}

pub(super) fn loc_value(probe: &State, loc: Location, c: &Ctx) -> LocValue {
    let (_, value, safe) = best_option(probe, loc, c);
    LocValue { value: value.max(0.0), safe }
}

/// The position as it would be after the workers already placed did their best actions, with
/// no patrols on the board: the base for valuing the next placement.
pub(super) fn project(s: &State, c: &Ctx) -> State {
    let mut p = s.clone();
    for x in p.pawns.iter_mut() {
        if x.is_patrol() {
            *x = Pawn::Empty;
        }
    }
    p.phase = Phase::Action;
    p.today.pending = None;
    loop {
        let placed = p.locs_with(Pawn::Worker);
        if placed == 0 || p.is_over() {
            break;
        }
        let mut best: Option<(Location, Option<Opt>, f64)> = None;
        let mut rest = placed;
        while rest != 0 {
            let l = Location::ALL[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            let (opt, v, _) = best_option(&p, l, c);
            if best.is_none_or(|b| v > b.2) {
                best = Some((l, opt, v));
            }
        }
        let (l, opt, _) = best.unwrap();
        probe_do(&mut p, l, opt);
    }
    p.phase = Phase::Placement;
    p
}
