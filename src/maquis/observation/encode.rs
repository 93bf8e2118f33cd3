//! The encoder: each section of the observation written in order by `encode`, which also records
//! the layout (`Writer::layout`) so that names and contents cannot drift apart.

use super::incremental::Parts;
use super::OBS_SIZE;
use crate::maquis::board::{LocSet, NUM_ROADS, SPARE_ROOMS};
use crate::maquis::deck::NUM_CARDS;
use crate::maquis::ids::*;
use crate::maquis::rules::routes::closed_roads;
use crate::maquis::state::{State, Tier};
use crate::maquis::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS, TOKENS_PER_RESOURCE};
use crate::obs_value::ObsValue;

pub(super) struct Writer<'a, T: ObsValue> {
    // A fixed-size array: with the offsets constant, no slice needs a bounds check.
    pub(super) buf: &'a mut [T; OBS_SIZE],
    pub(super) at: usize,
    /// The end of the current section: padded writes stop there (the next section may be skipped).
    pub(super) end: usize,
    pub(super) layout: Option<&'a mut Vec<(&'static str, usize, usize)>>,
}

// Every writer sets every value of its slice: nothing is cleared first (clearing the 1.7 KB and
// then setting the few non-zero values costs more). Some write whole 8-value vectors past the
// end of their slice, into the next one of the same section, which its own writer then
// overwrites (the slices are written in order).
impl<T: ObsValue> Writer<'_, T> {
    /// Starts a section of the next `len` values: true if it is to be written (`write`, or the
    /// layout is being recorded; then `close` ends it), else it is skipped, left as it is.
    #[inline(always)]
    fn open(&mut self, write: bool, len: usize) -> bool {
        self.end = self.at + len;
        if !(write || self.layout.is_some()) {
            self.at = self.end;
            return false;
        }
        true
    }
    #[inline(always)]
    fn close(&mut self) {
        // The offsets are constants here: this folds away, or fails at once in every test.
        assert_eq!(self.at, self.end, "a section's length is the sum of its slices");
    }
    /// The next `len` values, named `name`.
    #[inline(always)]
    fn slice(&mut self, name: &'static str, len: usize) -> &mut [T] {
        if let Some(l) = self.layout.as_mut() {
            l.push((name, self.at, len));
        }
        let out = &mut self.buf[self.at..self.at + len];
        self.at += len;
        out
    }
    /// The slice `name` of `len` values, and with it as many of the values after it as round
    /// the length up to whole vectors of 8 (while the section lasts).
    #[inline(always)]
    fn padded(&mut self, name: &'static str, len: usize) -> &mut [T] {
        let at = self.at;
        self.slice(name, len);
        let padded = len.next_multiple_of(8);
        &mut self.buf[at..at + if at + padded <= self.end { padded } else { len }]
    }
    #[inline(always)]
    fn one_hot(&mut self, name: &'static str, len: usize, index: Option<usize>) {
        let v = self.padded(name, len);
        v.fill(T::OFF);
        if let Some(i) = index {
            v[i] = T::ON;
        }
    }
    #[inline(always)]
    fn flag(&mut self, name: &'static str, on: bool) {
        self.slice(name, 1)[0] = T::bit(on as u32);
    }
    /// Value `i` is bit `i` of `bits`.
    #[inline(always)]
    fn bits(&mut self, name: &'static str, len: usize, bits: u32) {
        for (i, x) in self.padded(name, len).iter_mut().enumerate() {
            *x = T::bit(bits >> (i & 31) & 1);
        }
    }
    #[inline(always)]
    fn locs(&mut self, name: &'static str, set: LocSet) {
        self.bits(name, NUM_LOCATIONS, set);
    }
    /// `pawn_worker`, `pawn_milice`, `pawn_soldier`: the three planes as one run of 57 bits,
    /// in whole vectors of 8 (the last one overlapping the one before, to end with the planes).
    /// Written plane by plane, the padded vectors overlapped across planes and the compiler
    /// merged them with shuffles, at half again the instructions.
    #[inline(always)]
    fn pawn_planes(&mut self, planes: [LocSet; 3]) {
        const N: usize = 3 * NUM_LOCATIONS;
        let at = self.at;
        self.slice("pawn_worker", NUM_LOCATIONS);
        self.slice("pawn_milice", NUM_LOCATIONS);
        self.slice("pawn_soldier", NUM_LOCATIONS);
        let v: &mut [T; N] = (&mut self.buf[at..at + N]).try_into().unwrap();
        let all = planes[0] as u64 | (planes[1] as u64) << NUM_LOCATIONS | (planes[2] as u64) << (2 * NUM_LOCATIONS);
        // Each vector of 8 takes its bits from one 32-bit half (8 divides 32; the last vector,
        // 49..57, lies in the upper half).
        let eight = |out: &mut [T], first: usize| {
            let word = (all >> (first & 32)) as u32;
            for (i, x) in out.iter_mut().enumerate() {
                *x = T::bit(word >> ((first + i) & 31) & 1);
            }
        };
        const _: () = assert!(N > 8 && N <= 64 && (N - 8) / 32 == (N - 1) / 32);
        for k in 0..N / 8 {
            eight(&mut v[8 * k..8 * k + 8], 8 * k);
        }
        eight(&mut v[N - 8..], N - 8);
    }
    #[inline(always)]
    fn counts(&mut self, name: &'static str, n: &[u8; NUM_RESOURCES]) {
        // Fixed-size arrays: the eight conversions compile to a few vector instructions.
        let v: &mut [T; NUM_RESOURCES] = self.slice(name, NUM_RESOURCES).try_into().unwrap();
        // By reference, not `n.map(..)`: converting a copy of the array went byte by byte.
        for (x, &c) in v.iter_mut().zip(n) {
            *x = T::ratio(c, TOKENS_PER_RESOURCE);
        }
    }
}

pub(super) const MISSION_A_NAMES: [&str; 2] = ["mission_a_id", "mission_b_id"];
pub(super) const MISSION_STATE_NAMES: [&str; 2] = ["mission_a_state", "mission_b_state"];
pub(super) const TILE_NAMES: [&str; 3] = ["tile_spare_room_ne", "tile_spare_room_w", "tile_spare_room_se"];

/// The writes of one section (see `Writer::open`). A block, not a closure: closures do not
/// inherit `update_observation_avx2`'s target features.
macro_rules! section {
    ($w:ident, $write:expr, $len:expr, $body:block) => {
        if $w.open($write, $len) {
            $body
            $w.close();
        }
    };
}

// Inlined into `update_observation_generic`, where the writer records no layout: the offsets
// fold into constants.
#[inline(always)]
pub(super) fn encode<T: ObsValue>(s: &State, w: &mut Writer<T>, p: Parts) {
    use Parts as P;
    let placed = s.locs_with(Pawn::Worker);
    section!(w, p.any(P::DAY), END_DAY as usize + 1 + 1, {
        w.one_hot("day", END_DAY as usize + 1, Some(s.day as usize));
        w.flag("second_pass", s.pass == 2);
    });
    section!(w, true, Phase::COUNT, {
        w.one_hot("phase", Phase::COUNT, Some(s.phase.idx()));
    });
    section!(w, p.any(P::SETUP), Difficulty::COUNT + MissionPool::COUNT, {
        w.one_hot("difficulty", Difficulty::COUNT, Some(s.difficulty.idx()));
        w.one_hot("mission_pool", MissionPool::COUNT, Some(s.mission_pool.idx()));
    });
    section!(w, p.any(P::TRACKS), MAX_MORALE as usize + 1 + MAX_SOLDIERS as usize + 1, {
        w.one_hot("morale", MAX_MORALE as usize + 1, Some(s.tracks.morale as usize));
        w.one_hot("soldiers", MAX_SOLDIERS as usize + 1, Some(s.tracks.soldiers as usize));
    });
    section!(w, p.any(P::TOKENS), 2 * NUM_RESOURCES, {
        w.counts("hand", &s.tokens.hand);
        w.counts("supply", &s.tokens.supply);
    });
    section!(w, true, 5 + 2, {
        let workers = w.slice("workers", 5);
        let counts = [s.home, placed.count_ones() as u8, s.stuck_workers(), s.recruitable, s.gone];
        for (x, &c) in workers.iter_mut().zip(counts.iter()) {
            *x = T::ratio(c, 5);
        }
        let patrols = w.slice("patrols", 2);
        patrols[0] = T::ratio(s.patrols_today, 5);
        patrols[1] = T::ratio(s.patrols_drawn, 5);
    });
    // The pawn planes whole, from three bitboards: fixed work and no branches (writing only the
    // locations whose pawn changed needs a loop of unpredictable length).
    section!(w, true, 3 * NUM_LOCATIONS, {
        w.pawn_planes([placed, s.locs_with(Pawn::Milice), s.locs_with(Pawn::Soldier)]);
    });
    section!(w, p.any(P::MARKS), 2 * NUM_LOCATIONS, {
        w.locs("stuck_worker", s.marks.stuck);
        w.locs("fake_id", s.marks.fake_ids);
    });
    section!(w, p.any(P::TOKENS), 2 * NUM_RESOURCES + 2, {
        w.counts("airdrop_field_w", &s.tokens.airdrop[0]);
        w.counts("airdrop_field_e", &s.tokens.airdrop[1]);
        let start = w.slice("airdrop_at_day_start", 2);
        start[0] = T::bit(s.tokens.airdrop_at_day_start[0] as u32);
        start[1] = T::bit(s.tokens.airdrop_at_day_start[1] as u32);
    });
    section!(w, p.any(P::MARKS), 4 * NUM_LOCATIONS + SPARE_ROOMS.len() * NUM_TILES, {
        w.locs("aa_gun", s.marks.aa_guns);
        w.locs("tagged", s.marks.tagged);
        w.locs("visited", s.marks.visited);
        w.one_hot("dark_lady", NUM_LOCATIONS, s.marks.dark_lady.map(|l| l.idx()));
        for (i, _) in SPARE_ROOMS.iter().enumerate() {
            w.one_hot(TILE_NAMES[i], NUM_TILES, s.marks.tiles[i].map(|t| t.idx()));
        }
    });
    // From the bridges, the missions and the day (M-milice_parade_day).
    section!(w, p.any(P::MARKS | P::MISSIONS | P::DAY), NUM_ROADS, {
        w.bits("closed_roads", NUM_ROADS, closed_roads(s));
    });
    section!(w, p.any(P::MARKS), 2, {
        w.bits("bridges_chosen", 2, (s.marks.bridges_chosen & 3) as u32);
    });
    // Whole when the missions changed; when only the day did (a fifth of the steps of random
    // play), just "a box done today", the one value that depends on the day.
    let missions_at = w.at;
    section!(w, p.any(P::MISSIONS), 2 * (NUM_MISSIONS + 7), {
        for (slot, m) in s.missions.iter().enumerate() {
            w.one_hot(MISSION_A_NAMES[slot], NUM_MISSIONS, Some(m.id.idx()));
            let v = w.slice(MISSION_STATE_NAMES[slot], 7);
            // The share of the card's boxes: its denominator varies with the mission, so a
            // byte row holds the card's box count here (the boxes done are the next value).
            v[0] = T::share(m.boxes_done, m.boxes());
            v[1] = T::ratio(m.boxes_done, 7);
            v[2] = T::bit(m.complete as u32);
            v[3] = T::bit(m.failed as u32);
            v[4] = T::bit((m.tier == Some(Tier::Success)) as u32);
            v[5] = T::bit((m.tier == Some(Tier::Major)) as u32);
            v[6] = T::bit((m.last_box_day == Some(s.abs_day())) as u32);
        }
    });
    if p.any(P::DAY) && !p.any(P::MISSIONS) {
        for (slot, m) in s.missions.iter().enumerate() {
            let today = missions_at + slot * (NUM_MISSIONS + 7) + NUM_MISSIONS + 6;
            w.buf[today] = T::bit((m.last_box_day == Some(s.abs_day())) as u32);
        }
    }
    // Every time: a patrol card is drawn after most placements, so a change test for the deck
    // would mispredict.
    section!(w, true, NUM_CARDS + 1, {
        w.bits("patrol_discard", NUM_CARDS, s.deck.discard_set());
        w.slice("deck_size", 1)[0] = T::ratio(s.deck.deck().len() as u8, NUM_CARDS as u8);
    });
    section!(w, p.any(P::TODAY), NUM_CARDS + 2 + NUM_LOCATIONS + NUM_RESOURCES + 8, {
        // M-infiltration: the card seen on top of the deck before this placement phase.
        w.one_hot("peek", NUM_CARDS, s.today.peek.map(|c| c as usize));
        w.flag("shot_today", s.today.shot_today);
        w.flag("distracted_today", s.today.distracted_today);
        w.one_hot("pending_location", NUM_LOCATIONS, s.today.pending.map(|p| p.loc.idx()));
        let pending_tokens = s.today.pending.and_then(|p| p.reward).map(|r| r.tokens).unwrap_or_default();
        w.counts("pending_tokens", &pending_tokens);
        // What else the pending activation will do if its worker gets home (B2, F8).
        let mut flags = [false; 8];
        if let Some(p) = s.today.pending {
            let r = p.reward.unwrap_or_default();
            flags = [
                r.morale > 0,
                r.morale < 0,
                r.recruit,
                r.mission_box.is_some(),
                r.distract,
                p.with_mole,
                r.airdrop_field == Some(Location::FieldW),
                r.airdrop_field == Some(Location::FieldE),
            ];
        }
        for (x, f) in w.slice("pending_reward", 8).iter_mut().zip(flags) {
            *x = T::bit(f as u32);
        }
    });
}
