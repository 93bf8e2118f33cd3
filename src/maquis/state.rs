//! The full game state: plain data, arrays indexed by id, `Clone + Eq + serde`, no allocation.
//! It carries its own RNG so that clone, save and load are exact and trajectories never depend on
//! threads.

use crate::maquis::board::{bit, LocSet, FIELDS, SPARE_ROOMS};
use crate::maquis::deck::PatrolDeck;
use crate::maquis::ids::*;
use crate::maquis::missions::info;
use rand_chacha::ChaCha8Rng;
pub use crate::maquis::tracked::Tracked;
use serde::{Deserialize, Serialize};

/// M-tier. The best tier a mission reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tier {
    Success,
    Major,
}

impl Tier {
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Success => "success",
            Tier::Major => "major",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissionState {
    pub id: MissionId,
    pub boxes_done: u8,
    /// Absolute day (`State::abs_day`) of the last box done, for "different days" / "later day".
    pub last_box_day: Option<u8>,
    pub complete: bool,
    pub failed: bool,
    pub tier: Option<Tier>,
}

impl MissionState {
    pub fn new(id: MissionId) -> MissionState {
        MissionState { id, boxes_done: 0, last_box_day: None, complete: false, failed: false, tier: None }
    }
    /// Neither complete nor failed.
    #[inline]
    pub fn open(&self) -> bool {
        !self.complete && !self.failed
    }
    pub fn boxes(&self) -> u8 {
        info(self.id).boxes
    }
}

/// The reward of an activation that is not yet the player's (B2, F8): applied when the worker gets
/// home, lost if it is arrested.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reward {
    /// Tokens already taken from the supply (or a field), held by the worker.
    pub tokens: [u8; NUM_RESOURCES],
    /// Where the tokens go: the hand, or a field (an airdrop, A1).
    pub airdrop_field: Option<Location>,
    pub morale: i8,
    pub recruit: bool,
    /// The next box of the mission on this slot index is done.
    pub mission_box: Option<u8>,
    /// M-bomb_the_barracks: the distraction counts for the major success.
    pub distract: bool,
}

/// A worker whose activation is done but whose route home is not yet checked (phase post_action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub loc: Location,
    /// Unsafe reward awaiting the route check (None when the action was safe or skipped).
    pub reward: Option<Reward>,
    /// M-infiltration: the mole leaves the card with this worker.
    pub with_mole: bool,
}

/// The two tracks (T1, T2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tracks {
    pub morale: u8,
    pub soldiers: u8,
}

/// Where the resource tokens are (T4), but those held by workers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    pub hand: [u8; NUM_RESOURCES],
    pub supply: [u8; NUM_RESOURCES],
    /// Tokens lying on field_w, field_e.
    pub airdrop: [[u8; NUM_RESOURCES]; 2],
    /// Fields that held tokens at the start of the day (F4, A2).
    pub airdrop_at_day_start: [bool; 2],
}

/// What lies on the board besides the pawns: markers, tiles, destroyed bridges.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Marks {
    /// Placed workers carrying a Fake ID (F5).
    pub fake_ids: LocSet,
    /// Slots holding a stuck worker (the mole, the cryptographer).
    pub stuck: LocSet,
    /// Tiles on spare_room_ne, spare_room_w, spare_room_se.
    pub tiles: [Option<Tile>; 3],
    pub tagged: LocSet,
    pub visited: LocSet,
    pub aa_guns: LocSet,
    pub dark_lady: Option<Location>,
    /// Bit 0 north, bit 1 south: chosen (destroyed at the end of the day) / destroyed.
    pub bridges_chosen: u8,
    pub bridges_destroyed: u8,
}

/// What this day and this activation have done so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Today {
    pub distracted_today: bool,
    pub shot_today: bool,
    pub pending: Option<Pending>,
    /// M-infiltration: the card the player saw on top of the deck before this placement phase.
    pub peek: Option<u8>,
}

/// The fields that change on most steps are plain; the others are grouped behind `Tracked`
/// (flattened: the saved JSON has the same keys either way).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub difficulty: Difficulty,
    pub mission_pool: MissionPool,
    /// Workers that exist at this level (5, or 4 in Tricky and harder).
    pub level_workers: u8,
    pub day: u8,
    pub pass: u8,
    pub phase: Phase,
    #[serde(flatten)]
    pub tracks: Tracked<Tracks>,
    #[serde(flatten)]
    pub tokens: Tracked<Tokens>,
    pub pawns: [Pawn; NUM_LOCATIONS],
    #[serde(flatten)]
    pub marks: Tracked<Marks>,
    /// Workers in a Safe House (available; during placement: still to place).
    pub home: u8,
    pub recruitable: u8,
    pub gone: u8,
    /// The missions on mission_a and mission_b.
    pub missions: Tracked<[MissionState; 2]>,
    /// Not tracked: a patrol card is drawn after most placements, so the observation writes the
    /// deck's section every time (a change test for it would mispredict).
    pub deck: PatrolDeck,
    pub patrols_today: u8,
    pub patrols_drawn: u8,
    #[serde(flatten)]
    pub today: Tracked<Today>,
    pub outcome: Option<Outcome>,
    pub rng: ChaCha8Rng,
}

impl State {
    /// Days since the start, across Very Easy's two passes (for "different days").
    #[inline]
    pub fn abs_day(&self) -> u8 {
        (self.pass - 1) * 16 + self.day
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }

    /// Slot index of a dealt mission.
    #[inline]
    pub fn mission_slot(&self, id: MissionId) -> Option<usize> {
        self.missions.iter().position(|m| m.id == id)
    }

    /// The state of a dealt mission that is still open (neither complete nor failed).
    #[inline]
    pub fn open_mission(&self, id: MissionId) -> Option<&MissionState> {
        self.missions.iter().find(|m| m.id == id && m.open())
    }

    #[inline]
    pub fn has_open(&self, id: MissionId) -> bool {
        self.open_mission(id).is_some()
    }

    /// Locations holding `pawn`, as a bitboard.
    #[inline]
    pub fn locs_with(&self, pawn: Pawn) -> LocSet {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // SSE2 (always there on x86_64): compare 16 pawns at once, one bit per pawn. The
            // 19 pawns are the bytes 0..16 and the (overlapping) bytes 3..19.
            const _: () = assert!(NUM_LOCATIONS == 19 && std::mem::size_of::<Pawn>() == 1);
            let p = self.pawns.as_ptr() as *const u8;
            // SAFETY: both 16-byte loads stay inside the 19-byte array (unaligned loads);
            // `Pawn` is `#[repr(u8)]`.
            unsafe {
                let want = _mm_set1_epi8(pawn as i8);
                let lo = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p as *const __m128i), want));
                let hi = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(p.add(3) as *const __m128i), want));
                (lo as u32 | (hi as u32) << 3) as LocSet
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut set = 0;
            for (i, &p) in self.pawns.iter().enumerate() {
                set |= ((p == pawn) as LocSet) << i;
            }
            set
        }
    }

    #[inline]
    pub fn patrol_set(&self) -> LocSet {
        self.locs_with(Pawn::Milice) | self.locs_with(Pawn::Soldier)
    }

    pub fn placed_workers(&self) -> u8 {
        self.locs_with(Pawn::Worker).count_ones() as u8
    }

    pub fn stuck_workers(&self) -> u8 {
        self.marks.stuck.count_ones() as u8
    }

    /// E1: no worker in play, i.e. `workers_in_play() == 0`, without counting.
    #[inline]
    pub fn no_workers_in_play(&self) -> bool {
        self.home == 0 && self.marks.stuck == 0 && self.locs_with(Pawn::Worker) == 0
    }

    /// E1: workers in play (available, placed, stuck).
    pub fn workers_in_play(&self) -> u8 {
        self.home + self.placed_workers() + self.stuck_workers()
    }

    pub fn tile_at(&self, l: Location) -> Option<Tile> {
        SPARE_ROOMS.iter().position(|&r| r == l).and_then(|i| self.marks.tiles[i])
    }

    pub fn tile_built(&self, t: Tile) -> bool {
        self.marks.tiles.contains(&Some(t))
    }

    /// Safe Houses for F7: the board's and any spare room holding the safe_house tile.
    pub fn safe_houses(&self) -> LocSet {
        let mut set = bit(Location::SafeHouse);
        for (i, &r) in SPARE_ROOMS.iter().enumerate() {
            if self.marks.tiles[i] == Some(Tile::SafeHouse) {
                set |= bit(r);
            }
        }
        set
    }

    pub fn field_tokens(&self, field: Location) -> &[u8; NUM_RESOURCES] {
        &self.tokens.airdrop[if field == FIELDS[0] { 0 } else { 1 }]
    }

    pub fn field_has_tokens(&self, fi: usize) -> bool {
        self.tokens.airdrop[fi].iter().any(|&n| n > 0)
    }

    /// Tokens of each resource that exist in this ruleset (4, or 0 for poison/fake_id in the
    /// first-edition pools, D2).
    pub fn tokens_total(&self, r: Resource) -> u8 {
        crate::maquis::config::tokens_in_game(self.mission_pool, r)
    }
}

