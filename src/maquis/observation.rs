//! The fixed-shape f32 observation. Everything the player may see, nothing hidden: never the deck
//! order (only its size, and the top card while an Infiltration mole is in place).
//!
//! The layout is recorded by the same code that writes the slices, so names and contents cannot
//! drift apart: `observation_layout()` is `[(name, offset, length)]` covering the vector exactly.

use crate::maquis::board::{LocSet, NUM_ROADS, SPARE_ROOMS};
use crate::maquis::deck::NUM_CARDS;
use crate::maquis::ids::*;
use crate::maquis::rules::routes::closed_roads;
use crate::simd::Simd;
use crate::maquis::state::{State, Tier};
use crate::maquis::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS, TOKENS_PER_RESOURCE};
use std::sync::OnceLock;

/// The length of the observation vector (checked against the layout when it is first built).
pub const OBS_SIZE: usize = 416;

struct Writer<'a> {
    // A fixed-size array: with the offsets constant, no slice needs a bounds check.
    buf: &'a mut [f32; OBS_SIZE],
    at: usize,
    /// The end of the current section: padded writes stop there (the next section may be skipped).
    end: usize,
    layout: Option<&'a mut Vec<(&'static str, usize, usize)>>,
}

// Every writer sets every value of its slice: nothing is cleared first (clearing the 1.7 KB and
// then setting the few non-zero values costs more). Some write whole 8-value vectors past the
// end of their slice, into the next one of the same section, which its own writer then
// overwrites (the slices are written in order).
impl Writer<'_> {
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
    fn slice(&mut self, name: &'static str, len: usize) -> &mut [f32] {
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
    fn padded(&mut self, name: &'static str, len: usize) -> &mut [f32] {
        let at = self.at;
        self.slice(name, len);
        let padded = len.next_multiple_of(8);
        &mut self.buf[at..at + if at + padded <= self.end { padded } else { len }]
    }
    #[inline(always)]
    fn one_hot(&mut self, name: &'static str, len: usize, index: Option<usize>) {
        let v = self.padded(name, len);
        v.fill(0.0);
        if let Some(i) = index {
            v[i] = 1.0;
        }
    }
    #[inline(always)]
    fn flag(&mut self, name: &'static str, on: bool) {
        self.slice(name, 1)[0] = on as u8 as f32;
    }
    /// Value `i` is bit `i` of `bits`.
    #[inline(always)]
    fn bits(&mut self, name: &'static str, len: usize, bits: u32) {
        for (i, x) in self.padded(name, len).iter_mut().enumerate() {
            *x = (bits >> (i & 31) & 1) as f32;
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
        let v: &mut [f32; N] = (&mut self.buf[at..at + N]).try_into().unwrap();
        let all = planes[0] as u64 | (planes[1] as u64) << NUM_LOCATIONS | (planes[2] as u64) << (2 * NUM_LOCATIONS);
        // Each vector of 8 takes its bits from one 32-bit half (8 divides 32; the last vector,
        // 49..57, lies in the upper half).
        let eight = |out: &mut [f32], first: usize| {
            let word = (all >> (first & 32)) as u32;
            for (i, x) in out.iter_mut().enumerate() {
                *x = (word >> ((first + i) & 31) & 1) as f32;
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
        let v: &mut [f32; NUM_RESOURCES] = self.slice(name, NUM_RESOURCES).try_into().unwrap();
        // By reference, not `n.map(..)`: converting a copy of the array went byte by byte.
        for (x, &c) in v.iter_mut().zip(n) {
            *x = c as f32 / TOKENS_PER_RESOURCE as f32;
        }
    }
}

const MISSION_A_NAMES: [&str; 2] = ["mission_a_id", "mission_b_id"];
const MISSION_STATE_NAMES: [&str; 2] = ["mission_a_state", "mission_b_state"];
const TILE_NAMES: [&str; 3] = ["tile_spare_room_ne", "tile_spare_room_w", "tile_spare_room_se"];

/// The parts of an observation to write: one bit per lane of `Written`. Each tracked group of
/// `State` (see `Tracked`) feeds its own sections; the other sections are written every time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    lanes: u32,
}

impl Parts {
    const SETUP: u32 = 1 << 0;
    const DAY: u32 = 1 << 1;
    const TRACKS: u32 = 1 << 2;
    const TOKENS: u32 = 1 << 3;
    const MARKS: u32 = 1 << 4;
    const MISSIONS: u32 = 1 << 5;
    const TODAY: u32 = 1 << 6;
    const ALL: Parts = Parts { lanes: u32::MAX };

    /// Any of `bits`.
    #[inline(always)]
    fn any(self, bits: u32) -> bool {
        self.lanes & bits != 0
    }
}

/// What an observation was written from, beyond the sections written every time: one lane per
/// bit of `Parts` (the setup, i.e. the game; the day and pass; the change counts of the tracked
/// groups; a spare lane, 0). Two vector compares find what changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct Written {
    lanes: [u32; 8],
}

/// Bit `i` set when lane `i` of `a` and `b` differs.
#[inline(always)]
fn differing(a: &[u32; 8], b: &[u32; 8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SSE2 (always there on x86_64): four lanes per compare (a loop is not vectorised, and
        // costs several times as much).
        // SAFETY: two unaligned 16-byte loads from each 32-byte array.
        unsafe {
            let (a, b) = (a.as_ptr() as *const __m128i, b.as_ptr() as *const __m128i);
            let eq = |k: usize| {
                let (x, y) = (_mm_loadu_si128(a.add(k)), _mm_loadu_si128(b.add(k)));
                _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, y))) as u32
            };
            !(eq(0) | eq(1) << 4) & 0xff
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..8).fold(0, |bits, i| bits | ((a[i] != b[i]) as u32) << i)
    }
}

impl Written {
    /// Nothing written yet: the next update writes everything (no game has this setup lane).
    pub const NOTHING: Written = Written { lanes: [u32::MAX, 0, 0, 0, 0, 0, 0, 0] };

    #[inline(always)]
    fn of(s: &State) -> Written {
        Written {
            lanes: [
                s.difficulty as u32 | (s.mission_pool as u32) << 8,
                s.day as u32 | (s.pass as u32) << 8,
                s.tracks.changes(),
                s.tokens.changes(),
                s.marks.changes(),
                s.missions.changes(),
                s.today.changes(),
                // Spare (the deck's section is written every time).
                0,
            ],
        }
    }

    /// The parts that may differ between the observations of `self` and `now`. Another setup
    /// is another game (or nothing written): everything.
    #[inline(always)]
    fn changed(&self, now: &Written) -> Parts {
        let lanes = differing(&self.lanes, &now.lanes);
        if lanes & Parts::SETUP != 0 {
            return Parts::ALL;
        }
        Parts { lanes }
    }
}

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
fn encode(s: &State, w: &mut Writer, p: Parts) {
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
            *x = c as f32 / 5.0;
        }
        let patrols = w.slice("patrols", 2);
        patrols[0] = s.patrols_today as f32 / 5.0;
        patrols[1] = s.patrols_drawn as f32 / 5.0;
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
        start[0] = s.tokens.airdrop_at_day_start[0] as u8 as f32;
        start[1] = s.tokens.airdrop_at_day_start[1] as u8 as f32;
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
            v[0] = m.boxes_done as f32 / m.boxes() as f32;
            v[1] = m.boxes_done as f32 / 7.0;
            v[2] = m.complete as u8 as f32;
            v[3] = m.failed as u8 as f32;
            v[4] = (m.tier == Some(Tier::Success)) as u8 as f32;
            v[5] = (m.tier == Some(Tier::Major)) as u8 as f32;
            v[6] = (m.last_box_day == Some(s.abs_day())) as u8 as f32;
        }
    });
    if p.any(P::DAY) && !p.any(P::MISSIONS) {
        for (slot, m) in s.missions.iter().enumerate() {
            let today = missions_at + slot * (NUM_MISSIONS + 7) + NUM_MISSIONS + 6;
            w.buf[today] = (m.last_box_day == Some(s.abs_day())) as u8 as f32;
        }
    }
    // Every time: a patrol card is drawn after most placements, so a change test for the deck
    // would mispredict.
    section!(w, true, NUM_CARDS + 1, {
        w.bits("patrol_discard", NUM_CARDS, s.deck.discard_set());
        w.slice("deck_size", 1)[0] = s.deck.deck().len() as f32 / NUM_CARDS as f32;
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
            *x = f as u8 as f32;
        }
    });
}

fn as_row(out: &mut [f32]) -> &mut [f32; OBS_SIZE] {
    let n = out.len();
    out.try_into().unwrap_or_else(|_| panic!("an observation has {OBS_SIZE} values, the buffer {n}"))
}

/// Writes the observation of `s` into `out` (length `OBS_SIZE`).
#[inline]
pub fn write_observation(s: &State, out: &mut [f32]) {
    let mut nothing = Written::NOTHING;
    update_observation(s, out, &mut nothing)
}

/// Brings `out` up to date with `s`, rewriting only the sections that may have changed since
/// `written`, which says what `out` holds: the observation of an earlier position of the same
/// game, or `Written::NOTHING` (then everything is written). Change counts are only comparable
/// within one game, so after a loaded state too, start from `NOTHING`.
#[inline(always)]
pub fn update_observation(s: &State, out: &mut [f32], written: &mut Written) {
    update_observation_with(Simd::detect(), s, out, written)
}

/// `update_observation` with the instruction sets already detected.
#[inline(always)]
pub fn update_observation_with(simd: Simd, s: &State, out: &mut [f32], written: &mut Written) {
    let out = as_row(out);
    #[cfg(target_arch = "x86_64")]
    if simd.avx2 {
        // SAFETY: the CPU has AVX2 and popcnt (`Simd::detect`).
        return unsafe { update_observation_avx2(s, out, written) };
    }
    update_observation_baseline(s, out, written)
}

/// `update_observation` for the x86-64 baseline and other architectures; kept out of line so
/// that the dispatch above stays small enough to inline.
#[inline(never)]
fn update_observation_baseline(s: &State, out: &mut [f32; OBS_SIZE], written: &mut Written) {
    update_observation_generic(s, out, written)
}

/// `update_observation` compiled for CPUs with AVX2 and popcnt, chosen at run time: the wheels
/// target the x86-64 baseline (SSE2), where the conversions below take twice the instructions
/// and counting bits has no instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn update_observation_avx2(s: &State, out: &mut [f32; OBS_SIZE], written: &mut Written) {
    update_observation_generic(s, out, written)
}

#[inline(always)]
fn update_observation_generic(s: &State, out: &mut [f32; OBS_SIZE], written: &mut Written) {
    let now = Written::of(s);
    let parts = written.changed(&now);
    *written = now;
    let mut w = Writer { buf: out, at: 0, end: OBS_SIZE, layout: None };
    encode(s, &mut w, parts);
    debug_assert_eq!(w.at, OBS_SIZE);
}

pub type Layout = Vec<(&'static str, usize, usize)>;

/// `[(name, offset, length)]` in order, covering the observation exactly.
pub fn observation_layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let s = crate::maquis::rules::new_game(&crate::maquis::rules::Setup::default(), 0).expect("default setup is valid");
        let mut buf = [0.0; OBS_SIZE];
        let mut layout = Vec::new();
        let mut w = Writer { buf: &mut buf, at: 0, end: OBS_SIZE, layout: Some(&mut layout) };
        encode(&s, &mut w, Parts::ALL);
        assert_eq!(w.at, OBS_SIZE, "OBS_SIZE must match the layout");
        layout
    })
}

/// The length of the observation vector.
pub fn obs_size() -> usize {
    OBS_SIZE
}

/// The observation of `s` as a new vector.
pub fn observation(s: &State) -> Vec<f32> {
    let mut v = vec![0.0; obs_size()];
    write_observation(s, &mut v);
    v
}

// ---------------------------------------------------------------------------------------------
// Decoding: a state consistent with an observation

/// The slice called `name` of an observation.
fn part<'a>(obs: &'a [f32], name: &str) -> &'a [f32] {
    let &(_, off, len) = observation_layout().iter().find(|(n, _, _)| *n == name).expect("a layout name");
    &obs[off..off + len]
}

fn hot(v: &[f32]) -> Option<usize> {
    v.iter().position(|&x| x > 0.5)
}

fn set_of(v: &[f32]) -> LocSet {
    v.iter().enumerate().filter(|(_, &x)| x > 0.5).fold(0, |acc, (i, _)| acc | 1 << i)
}

fn count(x: f32, scale: f32) -> u8 {
    (x * scale).round() as u8
}

fn tokens(v: &[f32]) -> [u8; NUM_RESOURCES] {
    std::array::from_fn(|i| count(v[i], TOKENS_PER_RESOURCE as f32))
}

/// A state the player cannot tell apart from the real one, built from its observation alone:
/// the hidden deck order is drawn at random (`seed`), keeping the peeked top card, and the state's
/// RNG is fresh. This is how agents act on `(obs, mask)` and how search determinizes: whatever
/// the observation does not show cannot influence them.
pub fn state_from_observation(obs: &[f32], seed: u64) -> crate::Result<State> {
    use crate::maquis::board::{BRIDGE_NORTH, BRIDGE_SOUTH, FIELDS};
    use crate::maquis::deck::PatrolDeck;
    use crate::error::Error;
    use crate::maquis::state::{MissionState, Pending, Reward};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    if obs.len() != obs_size() {
        return Err(Error::BadOption(format!("an observation has {} values, got {}", obs_size(), obs.len())));
    }
    if obs.iter().any(|x| !x.is_finite() || *x < 0.0 || *x > 1.0) {
        return Err(Error::BadOption("observation values must lie in [0, 1]".into()));
    }
    let bad = |what: &str| Error::BadOption(format!("not a maquis observation: no {what}"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let difficulty = Difficulty::from_idx(hot(part(obs, "difficulty")).ok_or_else(|| bad("difficulty"))?).unwrap();
    let mission_pool = MissionPool::from_idx(hot(part(obs, "mission_pool")).ok_or_else(|| bad("mission pool"))?).unwrap();
    let mut s = crate::maquis::rules::new_state(&crate::maquis::rules::Setup { difficulty, mission_pool, ..Default::default() }, seed)?;
    s.day = hot(part(obs, "day")).ok_or_else(|| bad("day"))? as u8;
    s.pass = 1 + (part(obs, "second_pass")[0] > 0.5) as u8;
    s.phase = Phase::from_idx(hot(part(obs, "phase")).ok_or_else(|| bad("phase"))?).unwrap();
    s.tracks.morale = hot(part(obs, "morale")).ok_or_else(|| bad("morale"))? as u8;
    s.tracks.soldiers = hot(part(obs, "soldiers")).ok_or_else(|| bad("soldiers"))? as u8;
    s.tokens.hand = tokens(part(obs, "hand"));
    s.tokens.supply = tokens(part(obs, "supply"));
    let workers = part(obs, "workers");
    (s.home, s.recruitable, s.gone) = (count(workers[0], 5.0), count(workers[3], 5.0), count(workers[4], 5.0));
    let patrols = part(obs, "patrols");
    (s.patrols_today, s.patrols_drawn) = (count(patrols[0], 5.0), count(patrols[1], 5.0));
    s.pawns = [Pawn::Empty; NUM_LOCATIONS];
    for (name, pawn) in [("pawn_worker", Pawn::Worker), ("pawn_milice", Pawn::Milice), ("pawn_soldier", Pawn::Soldier)] {
        for (i, &x) in part(obs, name).iter().enumerate() {
            if x > 0.5 {
                s.pawns[i] = pawn;
            }
        }
    }
    s.marks.stuck = set_of(part(obs, "stuck_worker"));
    s.marks.fake_ids = set_of(part(obs, "fake_id"));
    s.tokens.airdrop = [tokens(part(obs, "airdrop_field_w")), tokens(part(obs, "airdrop_field_e"))];
    let start = part(obs, "airdrop_at_day_start");
    s.tokens.airdrop_at_day_start = [start[0] > 0.5, start[1] > 0.5];
    s.marks.aa_guns = set_of(part(obs, "aa_gun"));
    s.marks.tagged = set_of(part(obs, "tagged"));
    s.marks.visited = set_of(part(obs, "visited"));
    s.marks.dark_lady = hot(part(obs, "dark_lady")).and_then(Location::from_idx);
    for (i, name) in TILE_NAMES.iter().enumerate() {
        s.marks.tiles[i] = hot(part(obs, name)).and_then(Tile::from_idx);
    }
    let closed = part(obs, "closed_roads");
    s.marks.bridges_destroyed = (closed[BRIDGE_NORTH] > 0.5) as u8 | ((closed[BRIDGE_SOUTH] > 0.5) as u8) << 1;
    let chosen = part(obs, "bridges_chosen");
    s.marks.bridges_chosen = (chosen[0] > 0.5) as u8 | ((chosen[1] > 0.5) as u8) << 1;
    for slot in 0..2 {
        let id = MissionId::from_idx(hot(part(obs, MISSION_A_NAMES[slot])).ok_or_else(|| bad("mission"))?).unwrap();
        let v = part(obs, MISSION_STATE_NAMES[slot]);
        let mut m = MissionState::new(id);
        m.boxes_done = count(v[1], 7.0);
        m.complete = v[2] > 0.5;
        m.failed = v[3] > 0.5;
        m.tier = if v[5] > 0.5 { Some(Tier::Major) } else if v[4] > 0.5 { Some(Tier::Success) } else { None };
        // Only "was a box done today" matters to the rules ("different days", "later day").
        let today = s.abs_day();
        m.last_box_day = match (v[6] > 0.5, m.boxes_done) {
            (true, _) => Some(today),
            (false, 0) => None,
            (false, _) => Some(today.wrapping_sub(1)),
        };
        s.missions[slot] = m;
    }
    if s.missions[0].id == s.missions[1].id {
        return Err(bad("two different missions"));
    }
    // The deck: the cards not in the discard, in a random order under the peeked top card.
    let discard = part(obs, "patrol_discard");
    let mut discarded: Vec<u8> = (0..NUM_CARDS as u8).filter(|&c| discard[c as usize] > 0.5).collect();
    discarded.shuffle(&mut rng);
    let mut deck: Vec<u8> = (0..NUM_CARDS as u8).filter(|&c| discard[c as usize] <= 0.5).collect();
    deck.shuffle(&mut rng);
    s.today.peek = hot(part(obs, "peek")).map(|c| c as u8);
    if let Some(p) = s.today.peek {
        if let Some(k) = deck.iter().position(|&c| c == p) {
            deck.swap(0, k);
        }
    }
    let mut d = PatrolDeck::from_order(&deck);
    d.discard[..discarded.len()].copy_from_slice(&discarded);
    s.deck = d;
    s.today.shot_today = part(obs, "shot_today")[0] > 0.5;
    s.today.distracted_today = part(obs, "distracted_today")[0] > 0.5;
    s.today.pending = hot(part(obs, "pending_location")).and_then(Location::from_idx).map(|loc| {
        let f = part(obs, "pending_reward");
        let on = |i: usize| f[i] > 0.5;
        let mut reward = Reward {
            tokens: tokens(part(obs, "pending_tokens")),
            airdrop_field: if on(6) { Some(FIELDS[0]) } else if on(7) { Some(FIELDS[1]) } else { None },
            morale: if on(0) { 1 } else if on(1) { -1 } else { 0 },
            recruit: on(2),
            mission_box: None,
            distract: on(4),
        };
        if on(3) {
            // Unsafe mission boxes: recon and bribe on their card's slot, records at rue_baradat.
            reward.mission_box = crate::maquis::board::slot_index(loc)
                .or_else(|| s.mission_slot(MissionId::MiliceHq))
                .map(|i| i as u8);
        }
        let any = reward != Reward::default();
        Pending { loc, reward: any.then_some(reward), with_mole: on(5) }
    });
    if s.phase == Phase::GameOver {
        s.outcome = Some(crate::maquis::rules::upkeep::outcome(&s));
    }
    crate::maquis::save::validate(&s).map_err(|e| Error::BadOption(format!("observation decodes to an impossible state: {e}")))?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maquis::agents::random::sample;
    use crate::maquis::rules::{apply_legal, legal_mask, new_game, Setup};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_layout_covers_obs_size() {
        let last = observation_layout().last().unwrap();
        assert_eq!(last.1 + last.2, OBS_SIZE);
    }

    #[test]
    fn both_code_paths_write_the_same_observation() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut a, mut b) = ([f32::NAN; OBS_SIZE], [f32::NAN; OBS_SIZE]);
        for seed in 0..200 {
            let mut s = new_game(&Setup::default(), seed).unwrap();
            while !s.is_over() {
                // From NaN: a value left unwritten shows.
                a.fill(f32::NAN);
                update_observation_generic(&s, &mut a, &mut { Written::NOTHING });
                assert!(a.iter().all(|x| x.is_finite()));
                write_observation(&s, &mut b);
                assert_eq!(
                    a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    b.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
                );
                #[cfg(target_arch = "x86_64")]
                if Simd::detect().avx2 {
                    b.fill(f32::NAN);
                    // SAFETY: the CPU has both.
                    unsafe { update_observation_avx2(&s, &mut b, &mut { Written::NOTHING }) };
                    assert_eq!(a, b);
                }
                let m = legal_mask(&s);
                apply_legal(
                    &mut s,
                    crate::maquis::action::table().actions[sample(&m, &mut rng).unwrap()],
                );
            }
        }
    }

    /// Plays `games` games per difficulty and mission pool, random or heuristic, checking after
    /// every step that updating the last observation gives the observation written whole.
    fn check_updates(games: u64, heuristic: bool) -> u64 {
        use crate::maquis::agents::heuristic::HeuristicAgent;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let agent = HeuristicAgent::new(5);
        let (mut kept, mut whole) = ([0.0; OBS_SIZE], [0.0; OBS_SIZE]);
        let mut steps = 0;
        for &difficulty in Difficulty::ALL {
            for &mission_pool in MissionPool::ALL {
                let setup = Setup { difficulty, mission_pool, ..Default::default() };
                for seed in 0..games {
                    let mut s = new_game(&setup, seed).unwrap();
                    let mut was = Written::NOTHING;
                    update_observation(&s, &mut kept, &mut was);
                    while !s.is_over() {
                        let a = if heuristic {
                            agent.act(&s)
                        } else {
                            sample(&legal_mask(&s), &mut rng).unwrap()
                        };
                        apply_legal(&mut s, crate::maquis::action::table().actions[a]);
                        update_observation(&s, &mut kept, &mut was);
                        write_observation(&s, &mut whole);
                        assert_eq!(kept, whole, "{difficulty:?} {mission_pool:?} seed {seed}: {:?}", s.phase);
                        steps += 1;
                    }
                }
            }
        }
        steps
    }

    #[test]
    fn an_updated_observation_equals_the_observation_written_whole() {
        // Random play reaches most effects early; the heuristic agent plays long games and
        // completes missions.
        assert!(check_updates(150, false) > 10_000);
        assert!(check_updates(4, true) > 5_000);
    }

    #[test]
    fn an_update_rewrites_only_what_changed() {
        // The mechanism itself: a value planted in a tracked section stays while its group is
        // unchanged, and is rewritten once the group changes (or the day, or the game).
        let s = new_game(&Setup::default(), 1).unwrap();
        let mut out = [0.0; OBS_SIZE];
        let mut was = Written::NOTHING;
        update_observation(&s, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&s));
        let morale = observation_layout().iter().find(|l| l.0 == "morale").unwrap().1;
        out[morale] = 0.5;
        update_observation(&s, &mut out, &mut was);
        assert_eq!(out[morale], 0.5);
        let mut t = s.clone();
        t.tracks.morale -= 1;
        update_observation(&t, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&t));
        // "A box done today" changes with the day alone.
        t.missions[0].last_box_day = Some(t.abs_day());
        update_observation(&t, &mut out, &mut was);
        t.day += 1;
        update_observation(&t, &mut out, &mut was);
        assert_eq!(out.to_vec(), observation(&t));
        // Another game with the same change counts: everything is rewritten.
        let other = new_game(&Setup { difficulty: Difficulty::Hard, ..Setup::default() }, 2).unwrap();
        let mut u = other.clone();
        u.tracks = t.tracks.clone();
        u.missions = t.missions.clone();
        u.day = t.day;
        let (mut a, mut b) = (Written::NOTHING, Written::NOTHING);
        update_observation(&t, &mut out, &mut a);
        update_observation(&other, &mut out, &mut b);
        update_observation(&u, &mut out, &mut a);
        assert_eq!(out.to_vec(), observation(&u));
    }
}
