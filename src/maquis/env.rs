//! Maquis as a `Game` of the shared environment machinery, and the parts of the environment
//! contract that are its own: the reward table over its four outcomes (E3) and the options of
//! one reset (API.md `reset(options=…)`).

use crate::error::{Error, Result};
use crate::game::Game;
use crate::maquis::action::{table, Action, ActionMask, NUM_ACTIONS};
use crate::maquis::agents::random;
use crate::maquis::ids::{Difficulty, MissionId, Outcome};
use crate::maquis::observation::{obs_size, update_observation_with, write_observation, write_observation_as, Written};
use crate::obs_value::Observes;
use crate::maquis::rules::{apply, apply_legal, legal_mask, new_game, new_game_into, Setup, StartOverrides};
use crate::maquis::save;
use crate::maquis::state::State;
use crate::maquis::tracks::{MAX_MORALE, TOKENS_PER_RESOURCE};
use crate::simd::Simd;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Maquis also writes its rows as bytes: every feature is a flag or a small count.
impl Observes<u8> for Maquis {
    #[inline]
    fn write_observation_as(s: &State, out: &mut [u8]) {
        write_observation_as(s, out)
    }
    #[inline]
    fn update_observation_as(simd: Simd, s: &State, row: &mut [u8], written: &mut Written) {
        update_observation_with(simd, s, row, written)
    }
}

/// The game *Maquis*, for `env::Slot<Maquis>` and `vector::VecEngine<Maquis>`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Maquis;

impl Game for Maquis {
    const NAME: &'static str = "maquis";
    const NUM_ACTIONS: usize = NUM_ACTIONS;
    type Setup = Setup;
    type State = State;
    type Action = Action;
    type Mask = ActionMask;
    type Outcome = Outcome;
    type Rewards = Rewards;
    type Written = Written;

    #[inline]
    fn obs_size() -> usize {
        obs_size()
    }
    fn check_setup(setup: &Setup) -> Result<()> {
        new_game(setup, 0).map(|_| ())
    }
    #[inline]
    fn new_game_into(setup: &Setup, seed: u64, out: &mut State) -> Result<()> {
        new_game_into(setup, seed, out)
    }
    fn placeholder() -> State {
        new_game(&Setup::default(), 0).expect("the default setup is valid")
    }
    #[inline]
    fn decode(action: i64) -> Result<Action> {
        table().decode(action)
    }
    #[inline]
    fn legal_mask(s: &State) -> ActionMask {
        legal_mask(s)
    }
    #[inline]
    fn is_legal(mask: &ActionMask, i: usize) -> bool {
        mask.get(i)
    }
    #[inline]
    fn apply_legal(s: &mut State, a: Action) {
        apply_legal(s, a)
    }
    fn refusal(s: &State, action: i64) -> Error {
        // `apply` refuses before changing anything; on a copy all the same.
        let mut probe = s.clone();
        match apply(&mut probe, action) {
            Err(e) => e,
            Ok(()) => Error::BadOption(format!("action {action} is legal here")),
        }
    }
    #[inline]
    fn sample(mask: &ActionMask, rng: &mut ChaCha8Rng) -> Option<usize> {
        random::sample(mask, rng)
    }
    #[inline]
    fn is_over(s: &State) -> bool {
        s.is_over()
    }
    #[inline]
    fn outcome(s: &State) -> Option<Outcome> {
        s.outcome
    }
    #[inline]
    fn illegal_outcome() -> Outcome {
        Outcome::Loss
    }
    #[inline]
    fn outcome_code(o: Outcome) -> i8 {
        o.idx() as i8
    }
    #[inline]
    fn terminal_reward(rewards: &Rewards, _: &State, outcome: Outcome, _: bool) -> f64 {
        rewards.of(outcome)
    }
    #[inline]
    fn write_observation(s: &State, out: &mut [f32]) {
        write_observation(s, out)
    }
    const NOTHING_WRITTEN: Written = Written::NOTHING;
    #[inline]
    fn update_observation(simd: Simd, s: &State, row: &mut [f32], written: &mut Written) {
        update_observation_with(simd, s, row, written)
    }
    #[inline]
    fn write_mask_bytes(simd: Simd, mask: &ActionMask, out: &mut [u8]) {
        mask.write_bytes_with(simd, out)
    }
    fn save(s: &State) -> String {
        save::save(s)
    }
    fn load(json: &str) -> Result<State> {
        save::load(json)
    }

    /// Mission progress (the aim), tokens in hand (the means), morale and workers (what a loss
    /// takes away), each in [0, 1] per unit (missions: up to 2 each).
    const POTENTIAL_TERMS: &'static [(&'static str, f64)] =
        &[("missions", 1.0), ("hand", 0.3), ("morale", 0.2), ("workers", 0.2)];
    #[inline]
    fn potential_terms(s: &State, out: &mut [f64]) {
        // missions: boxes done / boxes of each mission, +1 for each one completed.
        out[0] = s
            .missions
            .iter()
            .map(|m| f64::from(m.boxes_done) / f64::from(m.boxes().max(1)) + f64::from(u8::from(m.complete)))
            .sum();
        // hand: tokens in hand over a full stock (4) of one resource, summed over resources.
        let hand: u32 = s.tokens.hand.iter().map(|&t| u32::from(t)).sum();
        out[1] = f64::from(hand) / f64::from(TOKENS_PER_RESOURCE);
        out[2] = f64::from(s.tracks.morale) / f64::from(MAX_MORALE);
        // workers: recruited and not arrested, over the level's workers.
        let alive = s.level_workers.saturating_sub(s.gone).saturating_sub(s.recruitable);
        out[3] = f64::from(alive) / f64::from(s.level_workers.max(1));
    }
    fn redraw_hidden(s: &mut State, rng: &mut ChaCha8Rng) -> Result<()> {
        crate::maquis::rules::determinize(s, rng);
        Ok(())
    }
}

/// The reward of a finished episode per outcome (E3), indexed by `Outcome::idx()`. Every other
/// step gives 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rewards(pub [f64; Outcome::COUNT]);

impl Default for Rewards {
    /// win 1, major_win 1, draw 0, loss −1.
    fn default() -> Rewards {
        let mut r = [0.0; Outcome::COUNT];
        r[Outcome::Win.idx()] = 1.0;
        r[Outcome::MajorWin.idx()] = 1.0;
        r[Outcome::Draw.idx()] = 0.0;
        r[Outcome::Loss.idx()] = -1.0;
        Rewards(r)
    }
}

impl Rewards {
    /// These rewards with the one of `outcome` (an outcome id) replaced.
    pub fn with(mut self, outcome: &str, value: f64) -> Result<Rewards> {
        let o = Outcome::parse(outcome)?;
        if !value.is_finite() {
            return Err(Error::BadOption(format!(
                "reward for '{outcome}' must be a finite number, got {value}"
            )));
        }
        self.0[o.idx()] = value;
        Ok(self)
    }
    #[inline]
    pub fn of(&self, o: Outcome) -> f64 {
        self.0[o.idx()]
    }
}

/// The options of one reset (API.md `reset(options=…)`), over the constructor's setup. Unknown
/// keys and ids are errors.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResetOptions {
    #[serde(default)]
    pub difficulty: Option<Difficulty>,
    #[serde(default)]
    pub missions: Option<Vec<MissionId>>,
    #[serde(default)]
    pub patrol_deck: Option<Vec<u8>>,
    #[serde(default)]
    pub start: Option<StartOverrides>,
}

impl ResetOptions {
    pub fn from_json(json: &str) -> Result<ResetOptions> {
        serde_json::from_str(json).map_err(|e| Error::BadOption(format!("reset options: {e}")))
    }

    /// The setup of this reset: `base` with these options applied, validated.
    pub fn setup(&self, base: &Setup) -> Result<Setup> {
        let mut s = base.clone();
        if let Some(d) = self.difficulty {
            s.difficulty = d;
        }
        if let Some(m) = &self.missions {
            s.missions = Some(m.clone());
        }
        if let Some(p) = &self.patrol_deck {
            s.patrol_deck = Some(p.clone());
        }
        if let Some(st) = &self.start {
            s.start = Some(st.clone());
        }
        s.validate()?;
        Ok(s)
    }
}

/// The Maquis environment types under the names callers have always used.
pub type EnvSlot = crate::env::Slot<Maquis>;
pub type EnvConfig = crate::env::Config<Maquis>;
pub type VecEngine = crate::vector::Engine<Maquis>;
pub type Transition = crate::env::Transition<Outcome>;

/// The outcome code written into `Outputs::outcomes` (`NO_OUTCOME` while the episode goes on).
#[inline]
pub fn outcome_code(o: Option<Outcome>) -> i8 {
    o.map_or(crate::env::NO_OUTCOME, Maquis::outcome_code)
}

/// A single environment's configuration and slot as one versioned JSON document (pickling).
pub fn env_snapshot(cfg: &EnvConfig, slot: &EnvSlot) -> String {
    crate::env::snapshot(cfg, slot)
}

/// The configuration and slot of an `env_snapshot`.
pub fn env_from_snapshot(json: &str) -> Result<(EnvConfig, EnvSlot)> {
    crate::env::from_snapshot(json)
}
