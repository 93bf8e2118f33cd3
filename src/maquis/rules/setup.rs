//! M0, D1–D4 and the starting overrides of API.md: deal the missions, shuffle the deck, apply the
//! missions' setup effects, then the caller's `start` overrides.

use crate::maquis::board::{bit, SLOTS};
use crate::maquis::config::{self, starting_workers};
use crate::maquis::deck::{PatrolDeck, NUM_CARDS};
use crate::draw::choose;
use crate::error::{Error, Result};
use crate::maquis::ids::*;
use crate::maquis::missions::{info, pool, GROUPS_2019, PNP_2013_GROUPS};
use crate::maquis::state::{MissionState, State, Tokens, Tracked, Tracks};
use crate::maquis::tracks::{END_DAY, MAX_MORALE, MAX_SOLDIERS, START_MORALE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Starting overrides (API.md `reset(options={"start": …})`), applied after the missions' setup.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartOverrides {
    #[serde(default)]
    pub resources: BTreeMap<Resource, u8>,
    pub morale: Option<u8>,
    pub soldiers: Option<u8>,
    pub day: Option<u8>,
    pub workers: Option<WorkerOverride>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerOverride {
    pub available: u8,
    #[serde(default)]
    pub recruitable: u8,
}

/// Everything that decides a new game besides the seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    #[serde(default = "default_difficulty")]
    pub difficulty: Difficulty,
    #[serde(default = "default_pool")]
    pub mission_pool: MissionPool,
    #[serde(default = "default_deal")]
    pub deal: Deal,
    /// Two mission ids: the first goes on mission_a.
    #[serde(default)]
    pub missions: Option<Vec<MissionId>>,
    /// The deck's draw order, a permutation of 0–9.
    #[serde(default)]
    pub patrol_deck: Option<Vec<u8>>,
    #[serde(default)]
    pub start: Option<StartOverrides>,
}

fn default_difficulty() -> Difficulty {
    Difficulty::Normal
}
fn default_pool() -> MissionPool {
    MissionPool::SecondEdition
}
fn default_deal() -> Deal {
    Deal::Uniform
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            difficulty: Difficulty::Normal,
            mission_pool: MissionPool::SecondEdition,
            deal: Deal::Uniform,
            missions: None,
            patrol_deck: None,
            start: None,
        }
    }
}

impl Setup {
    pub fn new(difficulty: Difficulty) -> Setup {
        Setup { difficulty, ..Setup::default() }
    }
    pub fn missions(mut self, a: MissionId, b: MissionId) -> Setup {
        self.missions = Some(vec![a, b]);
        self
    }
    pub fn patrol_deck(mut self, order: [u8; 10]) -> Setup {
        self.patrol_deck = Some(order.to_vec());
        self
    }
    pub fn start(mut self, start: StartOverrides) -> Setup {
        self.start = Some(start);
        self
    }

    /// Reads a setup from JSON (unknown keys and ids are errors).
    pub fn from_json(json: &str) -> Result<Setup> {
        serde_json::from_str(json).map_err(|e| Error::BadOption(e.to_string()))
    }

    /// Checks everything that does not depend on the seed.
    pub fn validate(&self) -> Result<()> {
        if let Some(ms) = &self.missions {
            if ms.len() != 2 {
                return Err(Error::BadOption(format!("missions must name exactly two missions, got {}", ms.len())));
            }
            if ms[0] == ms[1] {
                return Err(Error::BadOption(format!("the two missions must differ, got '{}' twice", ms[0])));
            }
            let p = pool(self.mission_pool);
            for m in ms {
                if !p.contains(m) {
                    return Err(Error::BadOption(format!(
                        "mission '{m}' is not in the mission pool '{}'",
                        self.mission_pool
                    )));
                }
            }
        }
        if let Some(order) = &self.patrol_deck {
            let mut seen = [false; NUM_CARDS];
            let ok = order.len() == NUM_CARDS
                && order.iter().all(|&c| (c as usize) < NUM_CARDS && !std::mem::replace(&mut seen[c as usize], true));
            if !ok {
                return Err(Error::BadOption(format!("patrol_deck must be a permutation of 0-9, got {order:?}")));
            }
        }
        Ok(())
    }
}

/// D3. Two distinct missions for this pool and deal, in slot order.
fn deal(setup: &Setup, rng: &mut ChaCha8Rng) -> Result<[MissionId; 2]> {
    let pair = match setup.deal {
        Deal::Uniform => {
            let p = pool(setup.mission_pool);
            loop {
                let a = *choose(rng, p).unwrap();
                let b = *choose(rng, p).unwrap();
                if a != b && !(info(a).stars == 3 && info(b).stars == 3) {
                    break [a, b];
                }
            }
        }
        Deal::Grouped2013 | Deal::Grouped2019 => {
            let groups = if setup.deal == Deal::Grouped2013 { PNP_2013_GROUPS } else { GROUPS_2019 };
            let p = pool(setup.mission_pool);
            if !groups.iter().flat_map(|g| g.iter()).all(|m| p.contains(m)) {
                return Err(Error::BadOption(format!(
                    "deal '{}' needs missions outside the pool '{}'",
                    setup.deal, setup.mission_pool
                )));
            }
            let mut pair = [*choose(rng, groups[0]).unwrap(), *choose(rng, groups[1]).unwrap()];
            // M0: each card goes on a random slot.
            if rng.gen_bool(0.5) {
                pair.swap(0, 1);
            }
            pair
        }
    };
    Ok(pair)
}

/// A new game: the state right before the first decision is computed (see `rules::start_game`).
pub fn new_state(setup: &Setup, seed: u64) -> Result<State> {
    setup.validate()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let missions = match &setup.missions {
        Some(ms) => [ms[0], ms[1]],
        None => deal(setup, &mut rng)?,
    };
    let deck = match &setup.patrol_deck {
        Some(order) => PatrolDeck::from_order(order),
        None => PatrolDeck::shuffled(&mut rng),
    };
    let d = setup.difficulty;
    let (home, recruitable) = starting_workers(d);
    let mut supply = [0u8; NUM_RESOURCES];
    for r in Resource::ALL {
        supply[r.idx()] = config::tokens_in_game(setup.mission_pool, *r);
    }
    let mut s = State {
        difficulty: d,
        mission_pool: setup.mission_pool,
        level_workers: home + recruitable,
        day: 0,
        pass: 1,
        phase: Phase::Placement,
        tracks: Tracked::new(Tracks { morale: START_MORALE, soldiers: 0 }),
        tokens: Tracked::new(Tokens { supply, ..Tokens::default() }),
        pawns: [Pawn::Empty; NUM_LOCATIONS],
        marks: Tracked::default(),
        home,
        recruitable,
        gone: 0,
        missions: Tracked::new([MissionState::new(missions[0]), MissionState::new(missions[1])]),
        deck,
        patrols_today: 0,
        patrols_drawn: 0,
        today: Tracked::default(),
        outcome: None,
        rng,
    };
    // The missions' own setup effects.
    for (slot, m) in missions.iter().enumerate() {
        match m {
            MissionId::MiliceHq => s.tracks.morale = 4,
            MissionId::BombTheBarracks => s.tracks.soldiers = 3,
            MissionId::DestroyAaGuns => {
                s.marks.aa_guns = bit(Location::FieldW)
                    | bit(Location::FieldE)
                    | bit(Location::RueBaradat)
                    | bit(Location::BlackMarket)
                    | bit(SLOTS[slot])
            }
            _ => {}
        }
    }
    if let Some(start) = &setup.start {
        apply_overrides(&mut s, start)?;
    }
    Ok(s)
}

fn apply_overrides(s: &mut State, o: &StartOverrides) -> Result<()> {
    for (&r, &n) in &o.resources {
        if n > s.tokens.supply[r.idx()] {
            return Err(Error::BadOption(format!(
                "start.resources asks for {n} {r} but the supply holds {}",
                s.tokens.supply[r.idx()]
            )));
        }
        s.tokens.supply[r.idx()] -= n;
        s.tokens.hand[r.idx()] += n;
    }
    if let Some(m) = o.morale {
        if !(1..=MAX_MORALE).contains(&m) {
            return Err(Error::BadOption(format!("start.morale must be 1-{MAX_MORALE}, got {m}")));
        }
        s.tracks.morale = m;
    }
    if let Some(x) = o.soldiers {
        if x > MAX_SOLDIERS {
            return Err(Error::BadOption(format!("start.soldiers must be 0-{MAX_SOLDIERS}, got {x}")));
        }
        s.tracks.soldiers = x;
    }
    if let Some(day) = o.day {
        let last = config::final_day(s.difficulty).min(END_DAY) - 1;
        if day > last {
            return Err(Error::BadOption(format!("start.day must be 0-{last} at this level, got {day}")));
        }
        s.day = day;
    }
    if let Some(w) = o.workers {
        if w.available < 1 || w.available + w.recruitable > s.level_workers {
            return Err(Error::BadOption(format!(
                "start.workers needs available >= 1 and available + recruitable <= {}, got {} + {}",
                s.level_workers, w.available, w.recruitable
            )));
        }
        s.home = w.available;
        s.recruitable = w.recruitable;
        s.gone = s.level_workers - w.available - w.recruitable;
    }
    Ok(())
}
