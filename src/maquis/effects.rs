//! What the rules and the missions do to the game, below both: pay a cost, gain a reward (at once
//! or after the route check: `settle`), move morale (T2) and the soldier track (T3), do a mission
//! box (M0) and complete a mission (M-tier). Each effect that can end the game runs the end check
//! (E1) where it happens, so that it ends at that very moment.

use crate::maquis::board::FIELDS;
use crate::maquis::end::check_end;
use crate::maquis::ids::{MissionId::*, Resource, NUM_RESOURCES};
use crate::maquis::state::{Reward, State, Tier};
use crate::maquis::tracks::{MAX_MORALE, MAX_SOLDIERS};

pub type Cost = [u8; NUM_RESOURCES];

pub const fn cost(pairs: &[(Resource, u8)]) -> Cost {
    let mut c = [0u8; NUM_RESOURCES];
    let mut i = 0;
    while i < pairs.len() {
        c[pairs[i].0 as usize] += pairs[i].1;
        i += 1;
    }
    c
}

pub const FREE: Cost = [0; NUM_RESOURCES];

#[inline]
pub fn can_pay(s: &State, c: &Cost) -> bool {
    (0..NUM_RESOURCES).all(|i| s.tokens.hand[i] >= c[i])
}

pub fn pay(s: &mut State, c: &Cost) {
    if *c == [0; NUM_RESOURCES] {
        return; // (leaves the tracked tokens untouched)
    }
    let t = &mut *s.tokens;
    for ((hand, supply), &n) in t.hand.iter_mut().zip(t.supply.iter_mut()).zip(c) {
        *hand -= n;
        *supply += n;
    }
}

/// What happens to the worker after its action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// The usual: route home (F7), with the mole too after an extraction.
    GoHome { with_mole: bool },
    /// Stays on the mission card (M-infiltration mole, M-coded_messages).
    Stuck,
    /// Arrested on the spot (M-milice_parade_day).
    Arrested,
    /// Removed from the game, not an arrest (M-double_agent).
    Removed,
}

/// The result of performing an option: the cost is paid; a safe reward is already applied, an
/// unsafe one is returned to be applied after the route check.
pub struct Performed {
    pub unsafe_reward: Option<Reward>,
    pub disposition: Disposition,
}

impl Performed {
    /// Done, nothing pending, and the worker routes home (F7).
    pub const HOME: Performed = Performed { unsafe_reward: None, disposition: HOME };
}

/// The usual disposition: route home (F7), without a mole.
pub const HOME: Disposition = Disposition::GoHome { with_mole: false };

/// B2: a safe reward is the player's now; an unsafe one waits for the route check.
pub fn settle(s: &mut State, r: Reward, safe: bool, disposition: Disposition) -> Performed {
    if safe {
        grant(s, &r);
        Performed { unsafe_reward: None, disposition }
    } else {
        Performed { unsafe_reward: Some(r), disposition }
    }
}

/// Applies a reward: tokens to the hand (or onto a field), morale, recruit, mission box, distraction.
pub fn grant(s: &mut State, r: &Reward) {
    match r.airdrop_field {
        _ if r.tokens == [0; NUM_RESOURCES] => {}
        Some(field) => {
            let fi = if field == FIELDS[0] { 0 } else { 1 };
            for i in 0..NUM_RESOURCES {
                s.tokens.airdrop[fi][i] += r.tokens[i];
            }
        }
        None => {
            for i in 0..NUM_RESOURCES {
                s.tokens.hand[i] += r.tokens[i];
            }
        }
    }
    if r.morale != 0 {
        change_morale(s, r.morale);
    }
    if r.recruit && s.recruitable > 0 {
        s.recruitable -= 1;
        s.home += 1;
    }
    if r.distract {
        s.today.distracted_today = true;
    }
    if let Some(slot) = r.mission_box {
        box_done(s, slot as usize);
    }
}

/// T2. Morale moves within 0–7; an excess gain is lost; 0 ends the game (E1, checked by the caller).
pub fn change_morale(s: &mut State, delta: i8) {
    s.tracks.morale = (s.tracks.morale as i16 + delta as i16).clamp(0, MAX_MORALE as i16) as u8;
    check_end(s);
}

/// T3. Each step the soldier track actually advances costs 1 morale; steps beyond 5 do nothing.
pub fn advance_soldiers(s: &mut State, steps: u8) {
    for _ in 0..steps {
        if s.tracks.soldiers < MAX_SOLDIERS {
            s.tracks.soldiers += 1;
            change_morale(s, -1);
        }
    }
}

/// "Different days" / "later day": no box of this mission was done today.
#[inline]
pub fn not_today(s: &State, slot: usize) -> bool {
    s.missions[slot].last_box_day != Some(s.abs_day())
}

/// M0: the next box of the mission on `slot` is done (in order); completes it when all are.
pub fn box_done(s: &mut State, slot: usize) {
    let day = s.abs_day();
    let m = &mut s.missions[slot];
    m.boxes_done += 1;
    m.last_box_day = Some(day);
    let (id, b) = (m.id, m.boxes_done);
    match id {
        // M-destroy_aa_guns: its boxes count guns; complete at 3, major at 5.
        DestroyAaGuns => {
            if b >= 5 {
                complete(s, slot, Tier::Major);
            } else if b >= 3 && !s.missions[slot].complete {
                complete(s, slot, Tier::Success);
            }
        }
        // M-milice_hq, M-bomb_the_barracks, M-free_the_resistance_leader: the last box is done
        // by their `perform` with a tier; the earlier ones never complete.
        MiliceHq | BombTheBarracks | FreeTheResistanceLeader => {}
        // M-coded_messages: completed at the end of day 10 (`end_of_day`).
        CodedMessages if b < 2 => {}
        // M-double_agent: six visits, then the Dark Lady.
        DoubleAgent if b < 7 => {}
        _ => {
            if b >= s.missions[slot].boxes() {
                complete(s, slot, Tier::Success);
            }
        }
    }
}

/// Marks a mission complete at the given tier (M-tier: the best reached so far) and checks E1.
pub fn complete(s: &mut State, slot: usize, tier: Tier) {
    let m = &mut s.missions[slot];
    m.complete = true;
    m.tier = Some(match (m.tier, tier) {
        (Some(Tier::Major), _) | (_, Tier::Major) => Tier::Major,
        _ => Tier::Success,
    });
    check_end(s);
}
