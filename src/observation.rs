//! The fixed-shape f32 observation. Everything the player may see, nothing hidden: never the deck
//! order (only its size, and the top card while an Infiltration mole is in place).
//!
//! The layout is recorded by the same code that writes the slices, so names and contents cannot
//! drift apart: `observation_layout()` is `[(name, offset, length)]` covering the vector exactly.

use crate::board::{LocSet, NUM_ROADS, SPARE_ROOMS};
use crate::deck::NUM_CARDS;
use crate::ids::*;
use crate::rules::routes::closed_roads;
use crate::state::{State, Tier};
use crate::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS, TOKENS_PER_RESOURCE};
use std::sync::OnceLock;

struct Writer<'a> {
    buf: &'a mut [f32],
    at: usize,
    layout: Option<&'a mut Vec<(&'static str, usize, usize)>>,
}

impl Writer<'_> {
    /// The next `len` values, named `name`, zeroed.
    #[inline]
    fn slice(&mut self, name: &'static str, len: usize) -> &mut [f32] {
        if let Some(l) = self.layout.as_mut() {
            l.push((name, self.at, len));
        }
        let out = &mut self.buf[self.at..self.at + len];
        out.fill(0.0);
        self.at += len;
        out
    }
    fn one_hot(&mut self, name: &'static str, len: usize, index: Option<usize>) {
        let v = self.slice(name, len);
        if let Some(i) = index {
            v[i] = 1.0;
        }
    }
    fn flag(&mut self, name: &'static str, on: bool) {
        self.slice(name, 1)[0] = on as u8 as f32;
    }
    fn locs(&mut self, name: &'static str, set: LocSet) {
        let v = self.slice(name, NUM_LOCATIONS);
        for (i, x) in v.iter_mut().enumerate() {
            *x = (set >> i & 1) as f32;
        }
    }
    fn counts(&mut self, name: &'static str, n: &[u8; NUM_RESOURCES]) {
        let v = self.slice(name, NUM_RESOURCES);
        for (x, &c) in v.iter_mut().zip(n.iter()) {
            *x = c as f32 / TOKENS_PER_RESOURCE as f32;
        }
    }
}

const MISSION_A_NAMES: [&str; 2] = ["mission_a_id", "mission_b_id"];
const MISSION_STATE_NAMES: [&str; 2] = ["mission_a_state", "mission_b_state"];
const TILE_NAMES: [&str; 3] = ["tile_spare_room_ne", "tile_spare_room_w", "tile_spare_room_se"];

fn encode(s: &State, w: &mut Writer) {
    w.one_hot("day", END_DAY as usize + 1, Some(s.day as usize));
    w.flag("second_pass", s.pass == 2);
    w.one_hot("phase", Phase::COUNT, Some(s.phase.idx()));
    w.one_hot("difficulty", Difficulty::COUNT, Some(s.difficulty.idx()));
    w.one_hot("morale", MAX_MORALE as usize + 1, Some(s.morale as usize));
    w.one_hot("soldiers", MAX_SOLDIERS as usize + 1, Some(s.soldiers as usize));
    w.counts("hand", &s.hand);
    w.counts("supply", &s.supply);
    let workers = w.slice("workers", 5);
    let counts = [s.home, s.placed_workers(), s.stuck_workers(), s.recruitable, s.gone];
    for (x, &c) in workers.iter_mut().zip(counts.iter()) {
        *x = c as f32 / 5.0;
    }
    let patrols = w.slice("patrols", 2);
    patrols[0] = s.patrols_today as f32 / 5.0;
    patrols[1] = s.patrols_drawn as f32 / 5.0;
    w.locs("pawn_worker", s.locs_with(Pawn::Worker));
    w.locs("pawn_milice", s.locs_with(Pawn::Milice));
    w.locs("pawn_soldier", s.locs_with(Pawn::Soldier));
    w.locs("stuck_worker", s.stuck);
    w.locs("fake_id", s.fake_ids);
    w.counts("airdrop_field_w", &s.airdrop[0]);
    w.counts("airdrop_field_e", &s.airdrop[1]);
    let start = w.slice("airdrop_at_day_start", 2);
    start[0] = s.airdrop_at_day_start[0] as u8 as f32;
    start[1] = s.airdrop_at_day_start[1] as u8 as f32;
    w.locs("aa_gun", s.aa_guns);
    w.locs("tagged", s.tagged);
    w.locs("visited", s.visited);
    w.one_hot("dark_lady", NUM_LOCATIONS, s.dark_lady.map(|l| l.idx()));
    for (i, _) in SPARE_ROOMS.iter().enumerate() {
        w.one_hot(TILE_NAMES[i], NUM_TILES, s.tiles[i].map(|t| t.idx()));
    }
    let closed = closed_roads(s);
    let roads = w.slice("closed_roads", NUM_ROADS);
    for (i, x) in roads.iter_mut().enumerate() {
        *x = (closed >> i & 1) as f32;
    }
    let bridges = w.slice("bridges_chosen", 2);
    bridges[0] = (s.bridges_chosen & 1) as f32;
    bridges[1] = (s.bridges_chosen >> 1 & 1) as f32;
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
    let discard = w.slice("patrol_discard", NUM_CARDS);
    for &c in s.deck.discard() {
        discard[c as usize] = 1.0;
    }
    w.slice("deck_size", 1)[0] = s.deck.deck().len() as f32 / NUM_CARDS as f32;
    // M-infiltration: the card seen on top of the deck before this placement phase.
    w.one_hot("peek", NUM_CARDS, s.peek.map(|c| c as usize));
    w.flag("shot_today", s.shot_today);
    w.flag("distracted_today", s.distracted_today);
    w.one_hot("pending_location", NUM_LOCATIONS, s.pending.map(|p| p.loc.idx()));
    let pending_tokens = s.pending.and_then(|p| p.reward).map(|r| r.tokens).unwrap_or_default();
    w.counts("pending_tokens", &pending_tokens);
}

/// Writes the observation of `s` into `out` (length `obs_size()`).
#[inline]
pub fn write_observation(s: &State, out: &mut [f32]) {
    let mut w = Writer { buf: out, at: 0, layout: None };
    encode(s, &mut w);
    debug_assert_eq!(w.at, w.buf.len());
}

pub type Layout = Vec<(&'static str, usize, usize)>;

/// `[(name, offset, length)]` in order, covering the observation exactly.
pub fn observation_layout() -> &'static Layout {
    static LAYOUT: OnceLock<Layout> = OnceLock::new();
    LAYOUT.get_or_init(|| {
        let s = crate::rules::new_game(&crate::rules::Setup::default(), 0).expect("default setup is valid");
        let mut buf = vec![0.0; 4096];
        let mut layout = Vec::new();
        let mut w = Writer { buf: &mut buf, at: 0, layout: Some(&mut layout) };
        encode(&s, &mut w);
        layout
    })
}

/// The length of the observation vector.
pub fn obs_size() -> usize {
    observation_layout().last().map_or(0, |&(_, off, len)| off + len)
}

/// The observation of `s` as a new vector.
pub fn observation(s: &State) -> Vec<f32> {
    let mut v = vec![0.0; obs_size()];
    write_observation(s, &mut v);
    v
}
