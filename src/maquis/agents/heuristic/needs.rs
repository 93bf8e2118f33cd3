//! Needs and the evaluation: what each open mission still asks for (`Plan`), the value of a
//! token and of a worker-action of effort (`Ctx`), and the evaluation of a position.

use super::*;

/// What one decision is judged against: the needs of the missions at the decision's start.
pub(super) struct Ctx<'w> {
    pub(super) w: &'w Weights,
    /// Value of the k-th token (k = 0..3) of each resource in hand.
    pub(super) unit: [[f64; 4]; NUM_RESOURCES],
    /// Value of the k-th morale point (index k = 1..7).
    pub(super) morale: [f64; 16],
    /// Orange (costly) days still to come at the decision: morale is judged by its margin over
    /// them, so that a state before the night's morale loss compares fairly with one after it.
    pub(super) costly: i32,
    /// Value of the n-th worker in play (not stuck), n = 1..5.
    pub(super) worker: [f64; 6],
    pub(super) stuck_worker: f64,
    pub(super) alive: f64,
    pub(super) tile_value: [[f64; 3]; 9],
}

/// What a mission still asks for: box actions, tokens for the next box and for the later ones,
/// the next box's deadline, a morale condition.
#[derive(Default)]
pub(super) struct Plan {
    pub(super) steps: i32,
    pub(super) next: [i32; NUM_RESOURCES],
    pub(super) later: [i32; NUM_RESOURCES],
    pub(super) deadline: Option<u8>,
    pub(super) morale_target: i32,
    pub(super) effort: f64,
}

impl Plan {
    pub(super) fn req(&self, r: usize) -> i32 {
        self.next[r] + self.later[r]
    }
}

pub(super) fn next_orange(s: &State) -> Option<u8> {
    (s.day..config::final_day(s.difficulty)).find(|&d| is_orange(d))
}

/// Adds `times` × `c` to `need` (the missions' own costs).
pub(super) fn need(need: &mut [i32; NUM_RESOURCES], c: &Cost, times: i32) {
    for (n, &k) in need.iter_mut().zip(c) {
        *n += k as i32 * times;
    }
}

pub(super) fn plan(s: &State, slot: usize, costly: i32) -> Plan {
    use crate::maquis::missions::*;
    let m = &s.missions[slot];
    let b = m.boxes_done as i32;
    let mut p = Plan::default();
    let (next, later) = (&mut p.next, &mut p.later);
    match m.id {
        M::MiliceParadeDay => {
            p.steps = 1;
            need(next, &milice_parade_day::PARADE, 1);
            p.deadline = next_orange(s);
        }
        M::OfficersMansion => p.steps = 4 - (s.marks.tagged & GRAFFITI_LOCATIONS).count_ones() as i32,
        M::Sabotage => {
            p.steps = 3 - b;
            need(if b == 2 { next } else { later }, &sabotage::SABOTAGE, 1);
        }
        M::UndergroundNewspaper => {
            p.steps = 3 - b;
            need(next, &underground_newspaper::DELIVER, 1);
            need(later, &underground_newspaper::DELIVER, 2 - b);
        }
        M::Infiltration => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &infiltration::MOLE, 1);
                need(later, &infiltration::EXTRACT, 1);
            } else {
                need(next, &infiltration::EXTRACT, 1);
            }
        }
        M::GermanShepherds => {
            p.steps = 3 - b;
            need(next, &german_shepherds::DELIVER, 1);
            need(later, &german_shepherds::DELIVER, 2 - b);
        }
        M::DoubleAgent => p.steps = 7 - (s.marks.visited & VISIT_LOCATIONS).count_ones() as i32,
        M::AidTheSpy => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &aid_the_spy::WEAPONS, 1);
                need(later, &aid_the_spy::SUPPLIES, 1);
            } else {
                need(next, &aid_the_spy::SUPPLIES, 1);
            }
        }
        M::Assassination => {
            // Five shots in all (once a day, a Milice on the board), each costing a morale point.
            let n = (5 - s.tracks.soldiers as i32).max(0);
            p.steps = n;
            next[WEAPON] = n.min(1);
            later[WEAPON] = (n - 1).clamp(0, 2);
            p.morale_target = costly + 1 + n;
        }
        M::DestroyTheTrain => {
            p.steps = 1;
            need(next, &destroy_the_train::DELIVER, 1);
            p.deadline = Some(9);
        }
        M::LiberateTheTown => {
            // Its condition: 3 weapons in hand at the final move.
            later[WEAPON] = 3;
            p.morale_target = costly + 4;
        }
        M::CodedMessages => {
            if b == 0 {
                p.steps = 1;
                need(next, &coded_messages::TRAIN, 1);
                p.deadline = Some(6);
            }
        }
        M::TakeOutTheBridges => {
            let done = (s.marks.bridges_chosen | s.marks.bridges_destroyed).count_ones() as i32;
            p.steps = 2 - done;
            need(next, &take_out_the_bridges::BRIDGE, 1);
            need(later, &take_out_the_bridges::BRIDGE, 1 - done);
        }
        M::BombForTheOfficer => {
            p.steps = 1;
            need(next, &bomb_for_the_officer::DELIVER, 1);
            p.morale_target = 5;
        }
        M::MiliceHq => {
            p.steps = 2 - b;
            need(if b == 0 { later } else { next }, &milice_hq::POISON, 1);
        }
        M::BombTheBarracks => {
            p.steps = 3 - b;
            need(if b == 2 { next } else { later }, &bomb_the_barracks::BOMB, 1);
        }
        M::FreeTheResistanceLeader => {
            p.steps = 2 - b;
            if b == 0 {
                need(next, &free_the_resistance_leader::BRIBE, 1);
                need(later, &free_the_resistance_leader::POISON, 1);
                p.deadline = Some(5);
            } else {
                need(next, &free_the_resistance_leader::POISON, 1);
                p.deadline = Some(9);
            }
        }
        M::DestroyAaGuns => {
            // The cheaper option, a weapon per gun.
            let n = (3 - b).max(0);
            p.steps = n;
            need(next, &destroy_aa_guns::AA_WEAPON, n.min(1));
            need(later, &destroy_aa_guns::AA_WEAPON, (n - 1).max(0));
        }
    }
    p
}

/// Tiles that make a resource (Chemist's Lab: explosive, Pharmacist: poison, Forger: Fake ID).
pub(super) fn maker(r: usize) -> Option<Tile> {
    match r {
        EXPL => Some(Tile::ChemistsLab),
        POISON => Some(Tile::Pharmacist),
        FAKE => Some(Tile::Forger),
        _ => None,
    }
}

/// Days whose arrival still costs morale (T1, D1), after the current day.
pub(super) fn costly_days_left(s: &State) -> i32 {
    let fin = config::final_day(s.difficulty);
    let tri = config::triangle_morale(s.difficulty);
    let costly = |d: u8| if tri { is_triangle(d) } else { is_orange(d) };
    let mut n = (s.day + 1..=fin).filter(|&d| costly(d)).count() as i32;
    if s.pass < config::passes(s.difficulty) {
        n += (1..=fin).filter(|&d| costly(d)).count() as i32;
    }
    n
}

pub(super) fn days_left(s: &State) -> i32 {
    let fin = config::final_day(s.difficulty) as i32;
    let mut d = fin - s.day as i32;
    if s.pass < config::passes(s.difficulty) {
        d += fin;
    }
    d.max(0)
}

/// Orange days still to come on which a worker can stand at rue_baradat (Milice Parade Day).
pub(super) fn parade_days_left(s: &State) -> bool {
    let fin = config::final_day(s.difficulty);
    (s.day..fin).any(is_orange) || s.pass < config::passes(s.difficulty)
}

/// Can the mission still be completed (time windows)?
pub(super) fn feasible(s: &State, slot: usize) -> bool {
    let m = &s.missions[slot];
    if !m.open() {
        return false;
    }
    let many_days = s.pass < config::passes(s.difficulty);
    match m.id {
        M::DestroyTheTrain => many_days || s.day <= 9,
        M::CodedMessages => m.boxes_done > 0 || s.day <= 6,
        M::FreeTheResistanceLeader => if m.boxes_done == 0 { s.day <= 5 } else { s.day <= 10 },
        M::MiliceParadeDay => parade_days_left(s),
        _ => true,
    }
}

impl<'w> Ctx<'w> {
    pub(super) fn new(s: &State, w: &'w Weights) -> Ctx<'w> {
        let costly = costly_days_left(s);
        let dl = days_left(s);
        // Per mission: remaining value per worker-action of effort.
        let mut slots: Vec<(f64, f64, Plan)> = Vec::with_capacity(2);
        let mut morale_target = 0;
        let mut target_slot: Option<usize> = None;
        for slot in 0..2 {
            if !feasible(s, slot) {
                continue;
            }
            let mut p = plan(s, slot, costly);
            if p.morale_target > morale_target {
                morale_target = p.morale_target;
                target_slot = Some(slots.len());
            }
            let mut effort = p.steps as f64;
            let mut effort_next = 1.0;
            for r in 0..NUM_RESOURCES {
                effort += p.req(r) as f64 * w.embodied[r];
                effort_next += p.next[r] as f64 * w.embodied[r];
                if p.req(r) > s.tokens.hand[r] as i32 {
                    if let Some(t) = maker(r) {
                        if !s.tile_built(t) {
                            effort += 5.0;
                            if p.next[r] > 0 {
                                effort_next += 5.0;
                            }
                        }
                    }
                }
            }
            let remaining = w.mission * (1.0 - progress(s, slot));
            let e = w.effort_share * remaining / effort.max(1.0);
            p.effort = effort.max(1.0);
            // A deadline close for the next box makes its tokens urgent.
            let urgency = match p.deadline {
                Some(d) if d >= s.day => (w.urgency * effort_next / (d - s.day + 1) as f64).clamp(1.0, 3.0),
                _ => 1.0,
            };

            // Liberate the Town: the morale condition is part of the job.
            if p.morale_target > 0 {
                p.morale_target = p.morale_target.min(7);
            }
            slots.push((e, urgency, p));
        }
        // A mission's morale condition is part of its work: a point costs food, medicine and a visit.
        let target_e = target_slot.map_or(0.0, |i| slots[i].0);
        slots.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());

        // Need slots per resource: (value per token, tokens), best first.
        let mut wants: [Vec<(f64, i32)>; NUM_RESOURCES] = Default::default();
        let mut tiles_wanted: [f64; 9] = [0.0; 9];
        let mut left = s.tokens.hand; // tokens not yet allocated
        for (e, urgency, p) in &slots {
            // Tokens for the next box never outweigh what the box brings.
            let tokens_next: f64 = (0..NUM_RESOURCES).map(|r| p.next[r] as f64 * w.embodied[r]).sum();
            let mut e_next = e * w.next_box * urgency;
            if tokens_next > 0.0 {
                e_next = e_next.min(w.box_cap * e / w.effort_share * p.effort / p.steps.max(1) as f64 / tokens_next);
            }
            let mut raw = [0i32; NUM_RESOURCES];
            let mut raw_next = [0i32; NUM_RESOURCES];
            for r in 0..NUM_RESOURCES {
                if p.req(r) == 0 {
                    continue;
                }
                if p.next[r] > 0 {
                    wants[r].push((e_next * w.embodied[r], p.next[r]));
                }
                if p.later[r] > 0 {
                    wants[r].push((e * w.embodied[r], p.later[r]));
                }
                let have = (left[r] as i32).min(p.req(r));
                left[r] -= have as u8;
                let short = p.req(r) - have;
                let short_next = (p.next[r] - have).max(0);
                let raw = if short_next > 0 { &mut raw_next } else { &mut raw };
                if short > 0 {
                    match r {
                        EXPL => raw[MED] += short,
                        POISON => raw[MED] += 2 * short,
                        FAKE => {
                            raw[INTEL] += short;
                            raw[MONEY] += 2 * short;
                        }
                        WEAPON => raw[MONEY] += short,
                        _ => {}
                    }
                    if let Some(t) = maker(r) {
                        if !s.tile_built(t) {
                            let et = if short_next > 0 { e_next } else { *e };
                            tiles_wanted[t as usize] = tiles_wanted[t as usize].max(5.0 * et);
                            raw[MONEY] += 2;
                        }
                    }
                }
            }
            for r in 0..NUM_RESOURCES {
                if raw[r] > 0 {
                    wants[r].push((e * w.embodied[r], raw[r]));
                }
                if raw_next[r] > 0 {
                    wants[r].push((e_next * w.embodied[r], raw_next[r]));
                }
            }
        }
        // Morale: survive the remaining orange days with a buffer, and meet mission conditions.
        let survive = costly + 1;
        let target = morale_target.max(survive + 1);
        let morale_short = (target - s.tracks.morale as i32).clamp(0, 3);
        if morale_short > 0 {
            let v = w.support_unit.max(target_e.min(w.morale_point_cap / 3.0));
            wants[FOOD].push((v, morale_short));
            wants[MED].push((v, morale_short));
        }
        if s.recruitable > 0 && dl > 6 {
            wants[FOOD].push((w.support_unit, 1));
        }
        // Money for a generally useful tile while a spare room is free.
        if dl > 6 && s.marks.tiles.iter().any(|t| t.is_none()) {
            wants[MONEY].push((w.support_unit, 2));
        }
        let mut need = [0i32; NUM_RESOURCES];
        let mut unit = [[0.0; 4]; NUM_RESOURCES];
        for r in 0..NUM_RESOURCES {
            wants[r].sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
            let mut k = 0;
            for &(v, n) in &wants[r] {
                need[r] += n;
                for _ in 0..n {
                    if k < 4 {
                        unit[r][k] = v.max(w.surplus[r]);
                        k += 1;
                    }
                }
            }
            while k < 4 {
                unit[r][k] = w.surplus[r];
                k += 1;
            }
        }
        let mut morale = [0.0; 16];
        for k in 1..16 {
            let ki = k as i32;
            morale[k] = if ki <= survive {
                w.morale_critical
            } else if ki <= survive + 2 {
                w.morale_buffer[(ki - survive - 1) as usize]
            } else if ki <= target {
                w.morale_buffer[1].max((3.0 * target_e).min(w.morale_point_cap))
            } else if k < 8 && MIN_PATROLS[k] < MIN_PATROLS[k - 1] {
                w.morale_patrol
            } else {
                w.morale_other
            };
        }
        let per = w.worker_base + w.worker_per_day * dl.min(10) as f64;
        let mut worker = [0.0; 6];
        for n in 1..6 {
            worker[n] = worker[n - 1] + per * w.worker_marginal[n - 1];
        }
        // Tiles: value by use and by room (index: spare_room_ne, spare_room_w, spare_room_se).
        let mut tile_value = [[0.0; 3]; 9];
        let room_factor = [0.75, 0.85, 1.0];
        let dlf = dl as f64;
        for t in Tile::ALL {
            let ti = *t as usize;
            let general = match t {
                Tile::Counterfeiter => 12.0 + w.counterfeiter_per_day * dlf,
                Tile::Informant if need[INTEL] > s.tokens.hand[INTEL] as i32 + 1 => 10.0 + 3.0 * dlf,
                Tile::SafeHouse => 10.0 + 2.5 * dlf,
                Tile::Propagandist => 5.0 + 2.0 * dlf,
                Tile::Smuggler if need[FOOD] + need[MED] > (s.tokens.hand[FOOD] + s.tokens.hand[MED]) as i32 + 2 => {
                    10.0 + 2.0 * dlf
                }
                Tile::Smuggler => 3.0,
                _ => 2.0,
            };
            let base = general.max(tiles_wanted[ti]);
            for room in 0..3 {
                let f = if *t == Tile::SafeHouse { [0.5, 1.0, 0.2][room] } else { room_factor[room] };
                tile_value[ti][room] = base * f;
            }
        }
        Ctx { w, unit, morale, costly, worker, stuck_worker: 0.5 * per, alive: w.alive_per_day * dlf, tile_value }
    }
}

/// Progress (0–1 each) of the dealt missions that are not complete (for search shaping).
pub fn open_progress(s: &State) -> f64 {
    (0..2).filter(|&i| !s.missions[i].complete).map(|i| progress(s, i)).sum()
}

pub(super) fn w_assassination() -> f64 {
    0.15
}

/// Progress of an open mission toward completion, in [0, 1).
pub(super) fn progress(s: &State, slot: usize) -> f64 {
    let m = &s.missions[slot];
    let b = m.boxes_done as f64;
    match m.id {
        M::MiliceParadeDay | M::DestroyTheTrain | M::BombForTheOfficer | M::LiberateTheTown => 0.0,
        M::OfficersMansion => 0.2 * (s.marks.tagged & GRAFFITI_LOCATIONS).count_ones() as f64,
        M::Sabotage => 0.25 * b,
        M::UndergroundNewspaper => 0.27 * b,
        M::Infiltration => 0.45 * b,
        M::GermanShepherds => 0.27 * b,
        M::DoubleAgent => {
            let v = (s.marks.visited & VISIT_LOCATIONS).count_ones() as f64;
            0.1 * v + if s.marks.dark_lady.is_some() { 0.1 } else { 0.0 }
        }
        M::AidTheSpy => 0.45 * b,
        M::Assassination => w_assassination() * s.tracks.soldiers as f64,
        M::CodedMessages => 0.8 * b,
        M::TakeOutTheBridges => {
            0.42 * (s.marks.bridges_chosen | s.marks.bridges_destroyed).count_ones() as f64
        }
        M::MiliceHq => 0.35 * b,
        M::BombTheBarracks => 0.2 * b,
        M::FreeTheResistanceLeader => 0.4 * b,
        M::DestroyAaGuns => 0.3 * b,
    }
}

pub(super) fn eval(s: &State, c: &Ctx) -> f64 {
    let w = c.w;
    if let Some(o) = s.outcome {
        let done = s.missions.iter().filter(|m| m.complete).count() as f64;
        return match o {
            Outcome::Loss => -5000.0 + 100.0 * done,
            Outcome::Draw => w.mission,
            Outcome::Win => 5000.0,
            Outcome::MajorWin => 5200.0,
        };
    }
    let mut v = 0.0;
    for slot in 0..2 {
        let m = &s.missions[slot];
        if m.complete {
            v += w.mission;
            if m.id == M::DestroyAaGuns {
                v += 60.0 * (m.boxes_done as f64 - 3.0).max(0.0);
            }
            if m.tier == Some(Tier::Major) {
                v += 50.0;
            }
        } else if feasible(s, slot) {
            v += w.mission * progress(s, slot);
        }
    }
    for r in 0..NUM_RESOURCES {
        let n = (s.tokens.hand[r] as usize).min(4);
        for k in 0..n {
            v += c.unit[r][k];
        }
        // Airdrops lying on the fields, worth a little less (they must be picked up).
        let on_fields = (s.tokens.airdrop[0][r] + s.tokens.airdrop[1][r]) as usize;
        for k in n..(n + on_fields).min(4) {
            v += w.field_share * c.unit[r][k];
        }
    }
    for fi in 0..2 {
        if s.field_has_tokens(fi) {
            v -= w.pickup_cost;
        }
    }
    let effective = (s.tracks.morale as i32 + c.costly - costly_days_left(s)).clamp(0, 15) as usize;
    for k in 1..=effective {
        v += c.morale[k];
    }
    // Workers: home, placed with a route home; stuck ones are worth less.
    let mut workers = s.home as usize;
    let mut placed = s.locs_with(Pawn::Worker);
    let mut fake_spend = 0.0;
    if s.patrol_set() == 0 && routes::closed_roads(s) == 0 {
        // No patrol and no closed road: every placed worker gets home.
        workers += placed.count_ones() as usize;
        placed = 0;
    }
    while placed != 0 {
        let l = Location::ALL[placed.trailing_zeros() as usize];
        placed &= placed - 1;
        let fake = s.marks.fake_ids & bit(l) != 0;
        match routes::route_home(s, l, fake) {
            routes::Route::Clear => workers += 1,
            routes::Route::WithFakeId => {
                workers += 1;
                fake_spend += c.unit[FAKE][s.tokens.hand[FAKE].min(3) as usize];
            }
            routes::Route::None => {}
        }
    }
    let stuck = s.stuck_workers();
    v += c.worker[workers.min(5)] + c.stuck_worker * stuck as f64;
    if workers + stuck as usize > 0 {
        v += c.alive;
    }
    v -= fake_spend;
    for (room, t) in s.marks.tiles.iter().enumerate() {
        if let Some(t) = t {
            v += c.tile_value[*t as usize][room];
        }
    }
    v
}

/// The value of an action of the action phase: applied to a copy, the rest of the day played
/// out with no further actions (the other workers only walk home, nobody shoots), then the
/// evaluation. All candidates are thus judged at the same moment, after the night (morale loss,
/// deadlines, the end of the game).
pub(super) fn action_value(s: &State, i: usize, c: &Ctx) -> f64 {
    let t = table();
    let mut n = s.clone();
    apply_legal(&mut n, t.actions[i]);
    let (day, pass) = (s.day, s.pass);
    while !n.is_over() && n.day == day && n.pass == pass {
        let a = match n.phase {
            Phase::PostAction => Action::Accept,
            Phase::Action => {
                let w = n.locs_with(Pawn::Worker);
                if w == 0 {
                    break;
                }
                Action::Skip(Location::ALL[w.trailing_zeros() as usize])
            }
            _ => break,
        };
        apply_legal(&mut n, a);
    }
    eval(&n, c)
}

/// The best action by one-step lookahead (action phase and post_action: no hidden information
/// matters until the day ends).
pub(super) fn greedy(s: &State, c: &Ctx, mask: &crate::maquis::action::ActionMask) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for i in mask.iter() {
        let v = action_value(s, i, c);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|b| b.0)
}
