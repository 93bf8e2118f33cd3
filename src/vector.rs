//! The environment layer over the rules: what one step of an *episode* means (rewards per outcome,
//! illegal actions, episode seeds), for one game (`EnvSlot`) and for a batch stepped together on a
//! thread pool (`VecEngine`), writing observations, masks, rewards and flags into caller-owned
//! slices. The Python envs (`maquis.MaquisEnv`, `maquis.MaquisVectorEnv`) are thin wrappers over
//! these two types, so the contract of API.md lives here once (as Pgx's `_step_with_illegal_action`).
//!
//! Seeding. Every environment owns two ChaCha8 streams derived from one 64-bit *stream seed*:
//!
//! ```text
//! stream seed ─┬─ episode stream (stream 0): one u64 per episode → new_game(setup, that u64)
//!              └─ sampling stream (stream 1): sample(), uniform over the legal actions
//! ```
//!
//! A game then carries its own RNG (patrol deck reshuffles). Nothing depends on which thread steps
//! which environment, so trajectories are identical for any number of threads, and env `i` of a
//! vector behaves exactly as an `EnvSlot` given the same stream seed. `stream_seed(seed, i)` is the
//! derivation `VecEngine::seed_all` uses; the Python vector env passes its own per-env stream seeds
//! (those a `MaquisEnv` seeded with `seed + i` would draw).

use crate::maquis::action::{table, ActionMask, NUM_ACTIONS};
use crate::maquis::agents::random;
use crate::error::{Error, Result};
use crate::maquis::ids::{Difficulty, MissionId, Outcome};
use crate::maquis::observation::{obs_size, update_observation_with, write_observation, Written};
use crate::simd::Simd;
use crate::maquis::rules::{apply, apply_legal, legal_mask, new_game, new_game_into, Setup, StartOverrides};
use crate::maquis::save;
use crate::maquis::state::State;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use crate::pool::Pool;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

/// `outcomes[i]` when env `i` did not end this step; otherwise `Outcome::idx()`.
pub const NO_OUTCOME: i8 = -1;

/// The outcome code written into `Outputs::outcomes`.
#[inline]
pub fn outcome_code(o: Option<Outcome>) -> i8 {
    o.map_or(NO_OUTCOME, |o| o.idx() as i8)
}

/// SplitMix64: spreads nearby integers over the whole u64 range.
#[inline]
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The stream seed of env `env` in a vector seeded with `seed` (pure-Rust derivation).
pub fn stream_seed(seed: u64, env: usize) -> u64 {
    splitmix64(seed ^ splitmix64(env as u64))
}

// ---------------------------------------------------------------------------------------------
// Configuration: built once, shared by every episode

/// What an illegal action does (API.md `illegal_action=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalPolicy {
    /// The episode ends with the loss reward, outcome `loss`, and the illegal flag.
    Terminate,
    /// `Error::IllegalAction` (naming the action, the phase and why); the state is unchanged.
    Raise,
}

impl IllegalPolicy {
    pub fn parse(s: &str) -> Result<IllegalPolicy> {
        match s {
            "terminate" => Ok(IllegalPolicy::Terminate),
            "raise" => Ok(IllegalPolicy::Raise),
            _ => Err(Error::BadOption(format!(
                "illegal_action must be 'terminate' or 'raise', got '{s}'"
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            IllegalPolicy::Terminate => "terminate",
            IllegalPolicy::Raise => "raise",
        }
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

/// Everything an environment keeps across episodes: the ruleset of its games, the rewards, the
/// illegal-action policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvConfig {
    pub setup: Setup,
    pub rewards: Rewards,
    pub illegal: IllegalPolicy,
}

impl EnvConfig {
    /// Checks that the setup makes a game (ids, pool, deal and overrides agree).
    pub fn new(setup: Setup, rewards: Rewards, illegal: IllegalPolicy) -> Result<EnvConfig> {
        new_game(&setup, 0)?;
        Ok(EnvConfig {
            setup,
            rewards,
            illegal,
        })
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

// ---------------------------------------------------------------------------------------------
// One environment

/// What one step produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    pub reward: f64,
    pub terminated: bool,
    /// Set on the step that ends the episode.
    pub outcome: Option<Outcome>,
    /// The episode ended on an illegal action (`IllegalPolicy::Terminate`).
    pub illegal: bool,
}

/// One environment: the game, its legal actions, and the two streams that make it reproducible.
#[derive(Clone, Debug, PartialEq)]
pub struct EnvSlot {
    state: State,
    /// The legal actions now; empty once the episode has ended.
    mask: ActionMask,
    episode_rng: ChaCha8Rng,
    sample_rng: ChaCha8Rng,
    /// The episode has ended (game over, or an illegal action): stepping needs a reset first.
    done: bool,
    /// What the observation this slot last wrote into its row was written from (`NOTHING` after
    /// a new game or a loaded state: the next write is whole).
    written: Written,
}

fn streams(seed: u64) -> (ChaCha8Rng, ChaCha8Rng) {
    let episode = ChaCha8Rng::seed_from_u64(seed);
    let mut sample = ChaCha8Rng::seed_from_u64(seed);
    sample.set_stream(1);
    (episode, sample)
}

impl EnvSlot {
    /// An environment waiting for its first reset.
    pub fn new(stream_seed: u64) -> EnvSlot {
        let (episode_rng, sample_rng) = streams(stream_seed);
        let state = new_game(&Setup::default(), 0).expect("the default setup is valid");
        EnvSlot {
            state,
            mask: ActionMask::default(),
            episode_rng,
            sample_rng,
            done: true,
            written: Written::NOTHING,
        }
    }

    /// Restarts both streams from `stream_seed` (the game in progress is kept).
    pub fn seed(&mut self, stream_seed: u64) {
        (self.episode_rng, self.sample_rng) = streams(stream_seed);
    }

    /// A new episode of `setup`, its game seed drawn from the episode stream. On error nothing
    /// changes (not even the stream).
    pub fn reset(&mut self, setup: &Setup) -> Result<()> {
        // Drawn in place, the stream put back on error (a clone of the 320-byte stream to
        // draw from cost two copies per episode); the game straight into its place.
        let at = self.episode_rng.get_word_pos();
        if let Err(e) = new_game_into(setup, self.episode_rng.next_u64(), &mut self.state) {
            self.episode_rng.set_word_pos(at);
            return Err(e);
        }
        self.refresh();
        Ok(())
    }

    /// One decision of the player. Out-of-range actions and steps after the end are errors
    /// whatever the policy; an illegal action terminates the episode or is an error that leaves
    /// the state unchanged.
    pub fn step(&mut self, cfg: &EnvConfig, action: i64) -> Result<Transition> {
        let a = table().decode(action)?;
        if self.done {
            return Err(Error::GameOver);
        }
        if self.mask.get(action as usize) {
            apply_legal(&mut self.state, a);
        } else if cfg.illegal == IllegalPolicy::Terminate {
            self.done = true;
            self.mask = ActionMask::default();
            let loss = Outcome::Loss;
            return Ok(Transition {
                reward: cfg.rewards.of(loss),
                terminated: true,
                outcome: Some(loss),
                illegal: true,
            });
        } else {
            // `apply` refuses it (naming the action, the phase and why) before changing anything.
            apply(&mut self.state, action)?;
        }
        self.mask = legal_mask(&self.state);
        match self.state.outcome {
            Some(o) => {
                self.done = true;
                Ok(Transition {
                    reward: cfg.rewards.of(o),
                    terminated: true,
                    outcome: Some(o),
                    illegal: false,
                })
            }
            None => Ok(Transition {
                reward: 0.0,
                terminated: false,
                outcome: None,
                illegal: false,
            }),
        }
    }

    /// A uniformly random legal action from the sampling stream (None once the episode is over;
    /// the stream is then not advanced).
    #[inline]
    pub fn sample(&mut self) -> Option<usize> {
        random::sample(&self.mask, &mut self.sample_rng)
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// Replaces the game (e.g. a loaded save); the episode is over iff the game is.
    pub fn set_state(&mut self, state: State) {
        self.state = state;
        self.refresh();
    }

    /// The episode flag and the legal actions, from the game.
    fn refresh(&mut self) {
        self.written = Written::NOTHING;
        self.done = self.state.is_over();
        self.mask = if self.done {
            ActionMask::default()
        } else {
            legal_mask(&self.state)
        };
    }

    /// The legal actions now (empty once the episode is over).
    pub fn mask(&self) -> &ActionMask {
        &self.mask
    }

    pub fn done(&self) -> bool {
        self.done
    }

    #[inline]
    pub fn write_observation(&self, out: &mut [f32]) {
        write_observation(&self.state, out);
    }

    /// Writes the observation into this slot's own row: with `kept` (the row holds what this
    /// slot last wrote there), only what may have changed since; else whole.
    #[inline]
    pub fn update_observation(&mut self, simd: Simd, row: &mut [f32], kept: bool) {
        if !kept {
            self.written = Written::NOTHING;
        }
        update_observation_with(simd, &self.state, row, &mut self.written);
    }

    #[inline]
    pub fn write_mask<T: From<bool>>(&self, out: &mut [T]) {
        self.write_mask_with(Simd::detect(), out)
    }

    /// `write_mask` with the instruction sets already detected.
    #[inline]
    pub fn write_mask_with<T: From<bool>>(&self, simd: Simd, out: &mut [T]) {
        // Fast path for one-byte element types whose false and true are the bytes 0 and 1 (bool,
        // i8, u8): `ActionMask::write_bytes`, many actions at a time, instead of one call per
        // action.
        if std::mem::size_of::<T>() == 1 && out.len() == NUM_ACTIONS {
            let (f, t) = (T::from(false), T::from(true));
            // SAFETY: T is one byte; reading the bytes of two initialised values is sound.
            let (fb, tb) = unsafe { (std::mem::transmute_copy::<T, u8>(&f), std::mem::transmute_copy::<T, u8>(&t)) };
            if (fb, tb) == (0, 1) {
                // SAFETY: same size and alignment as u8, and every byte written is 0 or 1, the
                // bytes of T::from(false) and T::from(true): valid values of T.
                let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, out.len()) };
                self.mask.write_bytes_with(simd, bytes);
                return;
            }
        }
        for (i, x) in out.iter_mut().enumerate() {
            *x = T::from(self.mask.get(i));
        }
    }

    /// The whole environment (game, streams, episode flag) as JSON, for pickling.
    pub fn snapshot(&self) -> Value {
        let state: Value = serde_json::from_str(&save::save(&self.state)).expect("a save is JSON");
        json!({
            "state": state,
            "episode_rng": self.episode_rng,
            "sample_rng": self.sample_rng,
            "done": self.done,
        })
    }

    pub fn from_snapshot(v: &Value) -> Result<EnvSlot> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Snap {
            state: Value,
            episode_rng: ChaCha8Rng,
            sample_rng: ChaCha8Rng,
            done: bool,
        }
        let snap: Snap = serde_json::from_value(v.clone()).map_err(|e| Error::BadSave(e.to_string()))?;
        let state = save::load(&snap.state.to_string())?;
        let mut slot = EnvSlot {
            state: state.clone(),
            mask: ActionMask::default(),
            episode_rng: snap.episode_rng,
            sample_rng: snap.sample_rng,
            done: true,
            written: Written::NOTHING,
        };
        slot.set_state(state);
        // An episode ended by an illegal action keeps a live game but is over.
        if snap.done {
            slot.done = true;
            slot.mask = ActionMask::default();
        }
        Ok(slot)
    }
}

/// A single environment's configuration and slot as one versioned JSON document (pickling).
pub fn env_snapshot(cfg: &EnvConfig, slot: &EnvSlot) -> String {
    json!({"format": "maquis-env", "version": 1, "config": cfg, "env": slot.snapshot()}).to_string()
}

pub fn env_from_snapshot(json: &str) -> Result<(EnvConfig, EnvSlot)> {
    let v: Value = serde_json::from_str(json).map_err(|e| Error::BadSave(e.to_string()))?;
    if v["format"] != "maquis-env" || v["version"] != 1 {
        return Err(Error::BadSave(format!(
            "not a maquis-env snapshot of version 1 (format {}, version {})",
            v["format"], v["version"]
        )));
    }
    let cfg: EnvConfig = serde_json::from_value(v["config"].clone()).map_err(|e| Error::BadSave(e.to_string()))?;
    Ok((cfg, EnvSlot::from_snapshot(&v["env"])?))
}

// ---------------------------------------------------------------------------------------------
// A batch of environments

/// When a finished environment starts its next episode (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// On the step after the one that ended it; that step's action is ignored and it returns the
    /// first observation with reward 0 and no flags.
    NextStep,
    /// Within the step that ended it: `obs` holds the new episode's first observation, `final_obs`
    /// the last one of the finished episode.
    SameStep,
    /// Never: stepping a finished environment is an error; reset it with a mask.
    Disabled,
}

impl Autoreset {
    pub fn parse(s: &str) -> Result<Autoreset> {
        match s {
            "next_step" | "NextStep" => Ok(Autoreset::NextStep),
            "same_step" | "SameStep" => Ok(Autoreset::SameStep),
            "disabled" | "Disabled" => Ok(Autoreset::Disabled),
            _ => Err(Error::BadOption(format!(
                "autoreset_mode must be 'next_step', 'same_step' or 'disabled', got '{s}'"
            ))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
            Autoreset::Disabled => "disabled",
        }
    }
}

/// An error of one environment of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvError {
    pub env: usize,
    pub error: Error,
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "env {}: {}", self.env, self.error)
    }
}

impl std::error::Error for EnvError {}

/// The caller-owned arrays a step or reset writes, row `i` for env `i` (C order).
pub struct Outputs<'a> {
    /// num_envs × obs_size()
    pub obs: &'a mut [f32],
    /// num_envs × NUM_ACTIONS: the legal actions (none for an environment whose episode ended).
    pub masks: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    /// Always false: every game ends by the rules (E1–E2), there is no step limit.
    pub truncated: &'a mut [bool],
    /// The outcome of the episode that ended this step (`Outcome::idx()`), else `NO_OUTCOME`.
    pub outcomes: &'a mut [i8],
    /// The episode ended this step on an illegal action.
    pub illegal: &'a mut [bool],
    /// num_envs × obs_size(); SameStep only: the last observation of each environment that ended
    /// this step (other rows are left as they were).
    pub final_obs: &'a mut [f32],
    /// The caller vouches that the rows of `obs` hold what the engine last wrote into them
    /// (nothing else writes them between calls): a step then rewrites only the parts of each
    /// row that may have changed. The engine also checks that `obs` is the buffer it wrote last
    /// time; if not, or without this, rows are written whole.
    pub obs_kept: bool,
}

impl Outputs<'_> {
    fn check(&self, n: usize) {
        let (o, a) = (obs_size(), NUM_ACTIONS);
        assert_eq!(self.obs.len(), n * o, "obs buffer");
        assert_eq!(self.final_obs.len(), n * o, "final_obs buffer");
        assert_eq!(self.masks.len(), n * a, "masks buffer");
        for (name, len) in [
            ("rewards", self.rewards.len()),
            ("terminated", self.terminated.len()),
            ("truncated", self.truncated.len()),
            ("outcomes", self.outcomes.len()),
            ("illegal", self.illegal.len()),
        ] {
            assert_eq!(len, n, "{name} buffer");
        }
    }
}

/// f32 rows starting on a 64-byte boundary (as `maquis._core` allocates them): with rows of
/// whole cache lines, a misaligned start makes every row straddle one more line. A window into
/// a slightly longer vector (zeroed by the allocator, like `vec![0.0; len]`).
pub struct AlignedRows {
    buf: Vec<f32>,
    start: usize,
    len: usize,
}

impl AlignedRows {
    /// f32 values per cache line: a buffer this much longer than the rows holds them aligned.
    pub const LINE: usize = 64 / std::mem::size_of::<f32>();

    /// `len` zeros.
    pub fn zeros(len: usize) -> AlignedRows {
        let buf = vec![0.0f32; len + Self::LINE - 1];
        let start = Self::skip(buf.as_ptr());
        AlignedRows { buf, start, len }
    }

    /// How many values after `p` the first cache line starts (below `LINE`).
    pub fn skip(p: *const f32) -> usize {
        p.align_offset(64).min(Self::LINE - 1)
    }
}

impl std::ops::Deref for AlignedRows {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl std::ops::DerefMut for AlignedRows {
    fn deref_mut(&mut self) -> &mut [f32] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// Owned arrays for `Outputs`, for callers without numpy (benchmarks, examples, tests).
pub struct OutputBuffers {
    /// Read through `obs()`: only the engine writes the rows (`out()` vouches for them, see
    /// `Outputs::obs_kept`).
    obs: AlignedRows,
    pub masks: Vec<bool>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub outcomes: Vec<i8>,
    pub illegal: Vec<bool>,
    pub final_obs: Vec<f32>,
}

impl OutputBuffers {
    /// Zeroed rows for `n` environments.
    pub fn new(n: usize) -> OutputBuffers {
        OutputBuffers {
            obs: AlignedRows::zeros(n * obs_size()),
            masks: vec![false; n * NUM_ACTIONS],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            outcomes: vec![NO_OUTCOME; n],
            illegal: vec![false; n],
            final_obs: vec![0.0; n * obs_size()],
        }
    }

    /// num_envs × obs_size(): the observations the last reset or step wrote.
    pub fn obs(&self) -> &[f32] {
        &self.obs
    }

    pub fn out(&mut self) -> Outputs<'_> {
        Outputs {
            obs: &mut self.obs,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            outcomes: &mut self.outcomes,
            illegal: &mut self.illegal,
            final_obs: &mut self.final_obs,
            obs_kept: true,
        }
    }
}

/// One thread's share of a step: consecutive environments and their rows.
struct Chunk<'a> {
    /// The index of the first environment in the batch.
    first: usize,
    slots: &'a mut [EnvSlot],
    actions: &'a [i64],
    obs: &'a mut [f32],
    masks: &'a mut [bool],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    outcomes: &'a mut [i8],
    illegal: &'a mut [bool],
    final_obs: &'a mut [f32],
    /// The action `sample_actions` will return next (see `VecEngine::presampled`).
    presampled: &'a mut [i64],
    /// The observation rows hold what their slots last wrote there.
    kept: bool,
    simd: Simd,
}

/// A thread's share of a step (see `VecEngine::step`), on cache lines of its own.
#[repr(align(128))]
struct Share<'a> {
    chunk: Mutex<Chunk<'a>>,
    /// The environments not taken yet, as last set under the lock: read without it by a thread
    /// waiting to see whether the owner gets through its last block (`work_shares`).
    left: AtomicUsize,
}

/// How long a thread done with its work waits for another's last block before it helps with it.
/// About the shares' usual difference (a few µs, at random), and short of most of the times the
/// machine stops a core (a median of 9–48 µs, 500–950 times a second on the VM measured:
/// `examples/clock_gaps.rs`, `docs/performance.md`).
const PATIENCE: Duration = Duration::from_micros(5);

/// The environments a thread takes at a time from a late owner's last block.
const LATE_PIECE: usize = 8;

impl<'a> Share<'a> {
    fn new(chunk: Chunk<'a>) -> Share<'a> {
        let left = AtomicUsize::new(chunk.len());
        Share { chunk: Mutex::new(chunk), left }
    }

    /// Up to `n` environments from the front (`back` false: the owner) or the back (`back`
    /// true), leaving `keep` untaken.
    fn take(&self, n: usize, back: bool, keep: usize) -> Option<Chunk<'a>> {
        let mut c = self.chunk.lock().unwrap_or_else(|e| e.into_inner());
        let left = c.len();
        if left <= keep {
            return None;
        }
        let taken = c.take(n.min(left - keep), back);
        self.left.store(c.len(), Ordering::Relaxed);
        Some(taken)
    }

    /// The next `block` environments to step: from the front for the share's own thread, from
    /// the back for another, which leaves the last block to the owner.
    fn next(&self, block: usize, back: bool) -> Option<Chunk<'a>> {
        self.take(block, back, if back { block } else { 0 })
    }

    /// Up to `n` environments from the back, the owner's last block included: for a thread
    /// that waited `PATIENCE` for it.
    fn next_late(&self, n: usize) -> Option<Chunk<'a>> {
        self.take(n, true, 0)
    }

    /// Whether every environment has been taken (possibly not stepped yet).
    fn all_taken(&self) -> bool {
        self.left.load(Ordering::Relaxed) == 0
    }
}

/// Thread `t`'s part of a step: its own share in blocks from the front (a lock taken once per
/// block, on its own cache line), then blocks from the back of the others' while they have more
/// than one left. Only a whole block behind (descheduled by the machine, say), not for the few
/// microseconds by which the shares' work differs at random: the environments taken move to
/// another core's cache and back, which costs more than the wait (measured:
/// docs/performance.md). The owner's last block too, but only once the owner is `PATIENCE` late.
fn work_shares<'a>(t: usize, shares: &[Share<'a>], block: usize, mut step: impl FnMut(Chunk<'a>)) {
    if let Some(own) = shares.get(t) {
        while let Some(c) = own.next(block, false) {
            step(c);
        }
    }
    for other in shares.iter().skip(t + 1).chain(shares.iter().take(t)) {
        while let Some(c) = other.next(block, true) {
            step(c);
        }
        if other.all_taken() {
            continue;
        }
        // A step of 1 024 environments on 2 threads ran 0.3–2.9 % faster with this wait than
        // without, the more on the machine's noisier minutes.
        let since = Instant::now();
        while !other.all_taken() {
            if since.elapsed() < PATIENCE {
                std::hint::spin_loop();
            } else if let Some(c) = other.next_late(LATE_PIECE) {
                step(c);
            }
        }
    }
}

/// The environments and their rows cut into shares of `per`, one per thread.
fn shares<'a>(
    slots: &'a mut [EnvSlot],
    actions: &'a [i64],
    out: &'a mut Outputs,
    presampled: &'a mut [i64],
    per: usize,
    kept: bool,
    simd: Simd,
) -> Vec<Share<'a>> {
    let (o, a) = (obs_size(), NUM_ACTIONS);
    let mut v = Vec::with_capacity(slots.len().div_ceil(per));
    let cols = slots
        .chunks_mut(per)
        .zip(actions.chunks(per))
        .zip(out.obs.chunks_mut(per * o))
        .zip(out.masks.chunks_mut(per * a))
        .zip(out.rewards.chunks_mut(per))
        .zip(out.terminated.chunks_mut(per))
        .zip(out.truncated.chunks_mut(per))
        .zip(out.outcomes.chunks_mut(per))
        .zip(out.illegal.chunks_mut(per))
        .zip(out.final_obs.chunks_mut(per * o))
        .zip(presampled.chunks_mut(per));
    for (
        k,
        (
            (((((((((slots, actions), obs), masks), rewards), terminated), truncated), outcomes), illegal), final_obs),
            presampled,
        ),
    ) in cols.enumerate()
    {
        v.push(Share::new(Chunk {
            first: k * per,
            slots,
            actions,
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            outcomes,
            illegal,
            final_obs,
            presampled,
            kept,
            simd,
        }));
    }
    v
}

/// The first `n` items of `*s` (the last `n` if `back`), leaving the others in `*s`.
fn take<'a, T>(s: &mut &'a mut [T], n: usize, back: bool) -> &'a mut [T] {
    let len = s.len();
    let (front, rest) = std::mem::take(s).split_at_mut(if back { len - n } else { n });
    let (taken, left) = if back { (rest, front) } else { (front, rest) };
    *s = left;
    taken
}

impl<'a> Chunk<'a> {
    fn len(&self) -> usize {
        self.slots.len()
    }

    /// The first `n` environments (the last `n` if `back`) as a chunk of their own, this one
    /// keeping the others.
    fn take(&mut self, n: usize, back: bool) -> Chunk<'a> {
        let (o, a) = (obs_size(), NUM_ACTIONS);
        let (front, rest) = self.actions.split_at(if back { self.len() - n } else { n });
        let actions;
        (actions, self.actions) = if back { (rest, front) } else { (front, rest) };
        let first = if back { self.first + self.len() - n } else { self.first };
        if !back {
            self.first += n;
        }
        Chunk {
            first,
            slots: take(&mut self.slots, n, back),
            actions,
            obs: take(&mut self.obs, n * o, back),
            masks: take(&mut self.masks, n * a, back),
            rewards: take(&mut self.rewards, n, back),
            terminated: take(&mut self.terminated, n, back),
            truncated: take(&mut self.truncated, n, back),
            outcomes: take(&mut self.outcomes, n, back),
            illegal: take(&mut self.illegal, n, back),
            final_obs: take(&mut self.final_obs, n * o, back),
            presampled: take(&mut self.presampled, n, back),
            kept: self.kept,
            simd: self.simd,
        }
    }

    /// Steps the chunk's environments, adding those whose episode ended to `ends`.
    fn step(&mut self, cfg: &EnvConfig, autoreset: Autoreset, ends: &mut Ends) {
        let (o, a) = (obs_size(), NUM_ACTIONS);
        let (simd, kept, n) = (self.simd, self.kept, self.slots.len());
        // One row of each array per environment, as `shares` and `take` cut them (a shorter
        // array would end the zip below early, leaving environments unstepped).
        assert!(self.actions.len() == n && self.presampled.len() == n);
        assert!(self.obs.len() == n * o && self.final_obs.len() == n * o && self.masks.len() == n * a);
        assert!([self.terminated.len(), self.truncated.len(), self.illegal.len()] == [n; 3]);
        assert!(self.rewards.len() == n && self.outcomes.len() == n);
        // Row by row through iterators: no index arithmetic, no bounds checks.
        let rows = self
            .slots
            .iter_mut()
            .zip(self.actions)
            .zip(self.obs.chunks_exact_mut(o))
            .zip(self.masks.chunks_exact_mut(a))
            .zip(self.final_obs.chunks_exact_mut(o))
            .zip(self.rewards.iter_mut())
            .zip(self.terminated.iter_mut())
            .zip(self.truncated.iter_mut())
            .zip(self.outcomes.iter_mut())
            .zip(self.illegal.iter_mut())
            .zip(self.presampled.iter_mut());
        for (
            k,
            (
                (((((((((slot, &action), obs), mask), final_obs), reward), terminated), truncated), outcome), illegal),
                presampled,
            ),
        ) in rows.enumerate()
        {
            let t = if slot.done() {
                // Validated by VecEngine::step: only NextStep lets a finished environment
                // through; it starts a new episode (reward 0, no flags) and ignores the action.
                slot.reset(&cfg.setup).expect("the constructor's setup is valid");
                Transition { reward: 0.0, terminated: false, outcome: None, illegal: false }
            } else {
                let t = slot.step(cfg, action).expect("actions are validated before stepping");
                if t.terminated && autoreset == Autoreset::SameStep {
                    slot.write_observation(final_obs);
                    slot.reset(&cfg.setup).expect("the constructor's setup is valid");
                }
                t
            };
            let code = outcome_code(t.outcome);
            if t.terminated {
                // One step in sixteen of random play; the list spares the caller a pass over
                // every environment's flags (`VecEngine::ended`).
                // `VecEngine::new` caps the batch at `u32::MAX` environments.
                ends.envs.push(((self.first + k) as u32, code));
                ends.illegal += t.illegal as usize;
            }
            *reward = t.reward as f32;
            *terminated = t.terminated;
            *truncated = false;
            *outcome = code;
            *illegal = t.illegal;
            slot.update_observation(simd, obs, kept);
            slot.write_mask_with(simd, mask);
            *presampled = presample(slot);
        }
    }
}

/// `VecEngine::presampled` of an environment with no action drawn yet.
const UNSAMPLED: i64 = -1;

/// What `VecEngine::presampled` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Presampled {
    /// A draw for every environment, none returned yet (after a step).
    All,
    /// Every entry was returned by the last `sample_actions`, which leaves marking them
    /// `UNSAMPLED` to whoever reads them next: writing the 8 bytes per environment on every call
    /// took half of them from the other core's cache, and the next step took them back.
    Returned,
    /// Each entry says for itself: a draw, or `UNSAMPLED`.
    Marked,
}

/// Draws the action `sample_actions` will return for `slot` (0, without drawing, once its
/// episode is over).
#[inline]
fn presample(slot: &mut EnvSlot) -> i64 {
    slot.sample().map_or(0, |x| x as i64)
}

/// An environment's index and outcome code in a thread's list of ended episodes (`Ends`).
type Ended = (u32, i8);

/// The bytes per environment of each thread's list of ended episodes (room for all: the step
/// never allocates).
pub const ENDED_BYTES_PER_THREAD: usize = std::mem::size_of::<Ended>();

/// The environments whose episode ended on a step, as one thread found them, on cache lines of
/// its own (each thread writes its own during the step).
#[derive(Debug)]
#[repr(align(128))]
struct Ends {
    /// Each environment's index and outcome code (as in `Outputs::outcomes`): the caller reads
    /// them from here, not from rows written on other cores.
    envs: Vec<Ended>,
    /// How many of them ended on an illegal action.
    illegal: usize,
}

/// A batch of environments sharing one configuration, stepped on a persistent thread pool.
pub struct VecEngine {
    cfg: EnvConfig,
    slots: Vec<EnvSlot>,
    /// Per environment, the random legal action of the next `sample_actions`, drawn from its
    /// sampling stream at the end of the step or reset that produced its position, while its
    /// mask and stream are in the stepping core's cache; `UNSAMPLED` once returned (a second
    /// call draws again; see `presampled_are`) or after its streams were reseeded. The streams
    /// are drawn in the same order as when drawing in `sample_actions`, so trajectories are
    /// unchanged.
    presampled: Vec<i64>,
    presampled_are: Presampled,
    autoreset: Autoreset,
    /// The caller's thread and `num_threads - 1` workers; thread `t` steps share `t` of the
    /// environments (see `share`), and helps with the others' once its own is done if they are
    /// far behind (`step`) or always (`on_threads`: resets, checks, fresh samples).
    pool: Pool,
    /// The address of the observation buffer whose rows the slots wrote last (0: none), for
    /// `Outputs::obs_kept`.
    rows: usize,
    num_threads: usize,
    /// Per thread, the environments whose episode ended on the last step (see `ended`).
    ends: Vec<Mutex<Ends>>,
}

impl VecEngine {
    /// `num_envs` environments waiting for their first reset, seeded with `stream_seed(0, i)`.
    /// `num_threads` 0 means one per available core.
    pub fn new(cfg: EnvConfig, num_envs: usize, num_threads: usize, autoreset: Autoreset) -> Result<VecEngine> {
        if num_envs == 0 || u32::try_from(num_envs).is_err() {
            return Err(Error::BadOption(format!("num_envs must be from 1 to {}, got {num_envs}", u32::MAX)));
        }
        let num_threads = match num_threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .min(num_envs);
        let pool =
            Pool::new(num_threads).map_err(|e| Error::BadOption(format!("cannot start {num_threads} threads: {e}")))?;
        let slots = (0..num_envs).map(|i| EnvSlot::new(stream_seed(0, i))).collect();
        // Room for every environment in each list: no allocation in the step.
        let ends = (0..pool.threads())
            .map(|_| Mutex::new(Ends { envs: Vec::with_capacity(num_envs), illegal: 0 }))
            .collect();
        Ok(VecEngine {
            cfg,
            slots,
            presampled: vec![UNSAMPLED; num_envs],
            presampled_are: Presampled::Marked,
            autoreset,
            pool,
            rows: 0,
            num_threads,
            ends,
        })
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }
    pub fn num_threads(&self) -> usize {
        self.num_threads
    }
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }
    pub fn config(&self) -> &EnvConfig {
        &self.cfg
    }
    pub fn slot(&self, i: usize) -> &EnvSlot {
        &self.slots[i]
    }
    pub fn slots(&self) -> &[EnvSlot] {
        &self.slots
    }

    /// Restarts every environment's streams from `stream_seed(seed, i)`.
    pub fn seed_all(&mut self, seed: u64) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            s.seed(stream_seed(seed, i));
        }
        self.presampled.fill(UNSAMPLED);
        self.presampled_are = Presampled::Marked;
    }

    /// Marks the entries of `presampled` that the last `sample_actions` returned.
    fn mark_returned(&mut self) {
        if self.presampled_are == Presampled::Returned {
            self.presampled.fill(UNSAMPLED);
            self.presampled_are = Presampled::Marked;
        }
    }

    /// Environments per thread: one consecutive share each, the same at every call, so that an
    /// environment stays in the cache of the core that steps it.
    fn share(&self) -> usize {
        self.slots.len().div_ceil(self.num_threads)
    }

    /// Runs `f` on every one of `parts`, which come in `pool.threads()` consecutive shares:
    /// thread `t` takes the parts of share `t` first, in order, then helps with what is left of
    /// the others. Each thread usually steps just its own share (which stays in its core's
    /// cache), but a thread that the machine deschedules for a while does not hold up the step.
    /// With at most one part per thread, thread `t` takes part `t` first.
    fn on_threads<T: Send>(pool: &Pool, parts: Vec<T>, f: impl Fn(T) + Sync) {
        let (n, threads) = (parts.len(), pool.threads());
        if n <= 1 || threads == 1 {
            return parts.into_iter().for_each(f);
        }
        let per = n.div_ceil(threads);
        let parts: Vec<Mutex<Option<T>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
        // The next part of each share to take; a share is done once its cursor passes its end.
        let next: Vec<AtomicUsize> = (0..threads).map(|t| AtomicUsize::new(t * per)).collect();
        pool.run(&|t| {
            for share in (t..threads).chain(0..t) {
                let end = ((share + 1) * per).min(n);
                loop {
                    let i = next[share].fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    if let Some(p) = parts[i].lock().unwrap_or_else(|e| e.into_inner()).take() {
                        f(p)
                    }
                }
            }
        });
    }

    /// Starts new episodes for the environments in `mask` (all if None), first restarting the
    /// streams of those given a seed in `seeds`, with `setup` for this reset (the constructor's if
    /// None). Writes their rows; other rows are untouched. On error nothing changes.
    pub fn reset(
        &mut self,
        seeds: Option<&[Option<u64>]>,
        mask: Option<&[bool]>,
        setup: Option<&Setup>,
        out: &mut Outputs,
    ) -> std::result::Result<(), EnvError> {
        let n = self.slots.len();
        out.check(n);
        if let Some(s) = seeds {
            assert_eq!(s.len(), n, "one seed (or None) per environment");
        }
        if let Some(m) = mask {
            assert_eq!(m.len(), n, "one mask entry per environment");
        }
        let setup = setup.unwrap_or(&self.cfg.setup);
        let targets: Vec<usize> = (0..n).filter(|&i| mask.is_none_or(|m| m[i])).collect();
        let make = |&i: &usize| -> std::result::Result<(usize, EnvSlot), EnvError> {
            let mut slot = self.slots[i].clone();
            if let Some(seed) = seeds.and_then(|s| s[i]) {
                slot.seed(seed);
            }
            slot.reset(setup).map_err(|error| EnvError { env: i, error })?;
            Ok((i, slot))
        };
        let per = targets.len().div_ceil(self.num_threads).max(1);
        type Made = std::result::Result<(usize, EnvSlot), EnvError>;
        let results: Vec<Mutex<Vec<Made>>> = targets.chunks(per).map(|_| Mutex::new(Vec::new())).collect();
        let parts: Vec<(&[usize], &Mutex<_>)> = targets.chunks(per).zip(&results).collect();
        Self::on_threads(&self.pool, parts, |(ts, res)| {
            let made = ts.iter().map(make).collect();
            *res.lock().unwrap_or_else(|e| e.into_inner()) = made;
        });
        let fresh: Vec<(usize, EnvSlot)> = results
            .into_iter()
            .flat_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect::<std::result::Result<_, _>>()?;
        let (o, a) = (obs_size(), NUM_ACTIONS);
        // The other rows are still the slots' own only if this is the buffer they wrote.
        let at = out.obs.as_ptr() as usize;
        self.rows = if out.obs_kept && (fresh.len() == n || self.rows == at) { at } else { 0 };
        let simd = Simd::detect();
        self.mark_returned();
        if fresh.len() == n {
            self.presampled_are = Presampled::All;
        }
        for (i, mut slot) in fresh {
            slot.update_observation(simd, &mut out.obs[i * o..(i + 1) * o], false);
            slot.write_mask_with(simd, &mut out.masks[i * a..(i + 1) * a]);
            out.rewards[i] = 0.0;
            out.terminated[i] = false;
            out.truncated[i] = false;
            out.outcomes[i] = NO_OUTCOME;
            out.illegal[i] = false;
            self.slots[i] = slot;
            self.presampled[i] = presample(&mut self.slots[i]);
        }
        Ok(())
    }

    /// Steps every environment with its action (ignored for an environment being autoreset).
    /// All actions are checked first: on an error (an action out of range; an illegal action under
    /// `IllegalPolicy::Raise`; a finished environment without NextStep autoreset) nothing changes
    /// and the error names the environment.
    pub fn step(&mut self, actions: &[i64], out: &mut Outputs) -> std::result::Result<(), EnvError> {
        let n = self.slots.len();
        out.check(n);
        assert_eq!(actions.len(), n, "one action per environment");
        let per = self.share();
        let (cfg, autoreset) = (&self.cfg, self.autoreset);
        // With illegal actions ending their episode and finished environments reset by the step,
        // the only possible error is an action out of range: when the actions are all in range
        // (one pass over them here), the checks below could only pass.
        // The CPU's instruction sets, read once for the step's range check and writers.
        let simd = Simd::detect();
        let in_range = all_in_range(simd, actions);
        if !(in_range && cfg.illegal == IllegalPolicy::Terminate && autoreset == Autoreset::NextStep) {
            Self::check_actions(&self.pool, &self.slots, actions, cfg, autoreset, per)?;
        }
        let at = out.obs.as_ptr() as usize;
        let kept = out.obs_kept && self.rows == at;
        let VecEngine {
            slots,
            presampled,
            pool,
            ends,
            ..
        } = self;
        let block = (per / 8).clamp(8, 64);
        let shares = shares(slots, actions, out, presampled, per, kept, simd);
        pool.run(&|t| {
            let mut ended = ends[t].lock().unwrap_or_else(|e| e.into_inner());
            ended.envs.clear();
            ended.illegal = 0;
            work_shares(t, &shares, block, |mut c| c.step(cfg, autoreset, &mut ended));
        });
        self.presampled_are = Presampled::All;
        self.rows = if out.obs_kept { at } else { 0 };
        Ok(())
    }

    /// The environments whose episode ended on the last `step` that succeeded, with their outcome
    /// codes (`outcome_code`), in no particular order: those whose `terminated` flag that step set
    /// (a later reset does not change this).
    pub fn ended(&mut self) -> impl Iterator<Item = (usize, i8)> + '_ {
        self.ends.iter_mut().flat_map(|e| {
            let e = e.get_mut().unwrap_or_else(|e| e.into_inner());
            e.envs.iter().map(|&(i, code)| (i as usize, code))
        })
    }

    /// How many episodes ended on the last `step` that succeeded, and how many of those on an
    /// illegal action (`ended`, counted).
    pub fn ended_counts(&mut self) -> (usize, usize) {
        self.ends.iter_mut().fold((0, 0), |(n, illegal), e| {
            let e = e.get_mut().unwrap_or_else(|e| e.into_inner());
            (n + e.envs.len(), illegal + e.illegal)
        })
    }

    /// Why `step` would refuse `actions`: the first error of all, checked on the threads that
    /// step the environments (their slots are in those cores' caches).
    fn check_actions(
        pool: &Pool,
        slots: &[EnvSlot],
        actions: &[i64],
        cfg: &EnvConfig,
        autoreset: Autoreset,
        per: usize,
    ) -> std::result::Result<(), EnvError> {
        let n = slots.len();
        let errors: Vec<Mutex<Option<EnvError>>> = (0..n.div_ceil(per)).map(|_| Mutex::new(None)).collect();
        let parts: Vec<(usize, &[EnvSlot], &[i64])> =
            slots.chunks(per).zip(actions.chunks(per)).enumerate().map(|(t, (s, a))| (t, s, a)).collect();
        Self::on_threads(pool, parts, |(t, slots, acts)| {
            let first = slots.iter().zip(acts).enumerate().find_map(|(k, (slot, &a))| {
                check_action(cfg, autoreset, slot, a).err().map(|error| EnvError { env: t * per + k, error })
            });
            *errors[t].lock().unwrap_or_else(|e| e.into_inner()) = first;
        });
        match errors.into_iter().find_map(|e| e.into_inner().unwrap_or_else(|e| e.into_inner())) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// One uniformly random legal action per environment, from its sampling stream (0 for a
    /// finished environment, whose action is ignored or refused, without advancing its stream).
    pub fn sample_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.slots.len(), "one action per environment");
        // Usually every action is drawn already (by the last step or reset): copy them.
        if self.presampled_are == Presampled::All {
            out.copy_from_slice(&self.presampled);
            self.presampled_are = Presampled::Returned;
            return;
        }
        self.mark_returned();
        let sample = |(slots, presampled, out): (&mut [EnvSlot], &mut [i64], &mut [i64])| {
            for (i, a) in out.iter_mut().enumerate() {
                let drawn = std::mem::replace(&mut presampled[i], UNSAMPLED);
                *a = if drawn != UNSAMPLED { drawn } else { presample(&mut slots[i]) };
            }
        };
        // Each environment draws from its own stream: the same actions for any thread count;
        // and on the thread that steps it, where its stream is in cache.
        let per = self.share();
        let parts: Vec<(&mut [EnvSlot], &mut [i64], &mut [i64])> = self
            .slots
            .chunks_mut(per)
            .zip(self.presampled.chunks_mut(per))
            .zip(out.chunks_mut(per))
            .map(|((s, p), o)| (s, p, o))
            .collect();
        Self::on_threads(&self.pool, parts, sample);
    }
}

/// Every action is in `0..NUM_ACTIONS`: `a - NUM_ACTIONS` negative and `a` not, i.e. the sign
/// bit of `(a - NUM_ACTIONS) & !a` set, for all. One AND over the batch, which vectorises (an
/// early exit does not; a max needs a 64-bit compare the baseline x86-64 target lacks): serial
/// work in every step of a batch, so compiled for AVX2 and AVX-512 too (3 instructions per
/// action on the baseline target, under 1 with AVX2).
fn all_in_range(simd: Simd, actions: &[i64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if simd.avx512 {
            // SAFETY: the CPU has AVX-512 F (`Simd::detect`).
            return unsafe { all_in_range_avx512(actions) };
        }
        if simd.avx2 {
            // SAFETY: the CPU has AVX2.
            return unsafe { all_in_range_avx2(actions) };
        }
    }
    all_in_range_generic(actions)
}

#[inline(always)]
fn all_in_range_generic(actions: &[i64]) -> bool {
    actions.iter().fold(-1i64, |m, &a| m & (a.wrapping_sub(NUM_ACTIONS as i64) & !a)) < 0
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn all_in_range_avx2(actions: &[i64]) -> bool {
    all_in_range_generic(actions)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn all_in_range_avx512(actions: &[i64]) -> bool {
    all_in_range_generic(actions)
}

/// Why `VecEngine::step` refuses `action` for `slot`, if it does.
fn check_action(cfg: &EnvConfig, autoreset: Autoreset, slot: &EnvSlot, action: i64) -> Result<()> {
    if slot.done() {
        return if autoreset == Autoreset::NextStep { Ok(()) } else { Err(Error::GameOver) };
    }
    table().decode(action)?;
    if cfg.illegal == IllegalPolicy::Raise && !slot.mask().get(action as usize) {
        let mut probe = slot.state().clone();
        return Err(apply(&mut probe, action).expect_err("the mask says this action is illegal"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maquis::ids::Phase;

    fn cfg(illegal: IllegalPolicy) -> EnvConfig {
        EnvConfig::new(Setup::default(), Rewards::default(), illegal).unwrap()
    }

    /// obs, masks, rewards, terminated, outcomes, final_obs after one step.
    type Record = (Vec<f32>, Vec<bool>, Vec<f32>, Vec<bool>, Vec<i8>, Vec<f32>);

    /// Every output of `steps` random steps, as one comparable record.
    fn trajectory(threads: usize, autoreset: Autoreset, n: usize, steps: usize) -> Vec<Record> {
        let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, threads, autoreset).unwrap();
        v.seed_all(42);
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let mut actions = vec![0i64; n];
        let mut rec = Vec::new();
        for t in 0..steps {
            v.sample_actions(&mut actions);
            if t % 37 == 5 {
                actions[t % n] = 0; // now and then an illegal action (place:rue_baradat is rarely legal)
            }
            v.step(&actions, &mut b.out()).unwrap();
            rec.push((
                b.obs.to_vec(),
                b.masks.clone(),
                b.rewards.clone(),
                b.terminated.clone(),
                b.outcomes.clone(),
                b.final_obs.clone(),
            ));
        }
        rec
    }

    #[test]
    fn output_observation_rows_start_on_cache_lines() {
        for n in [1, 3, 1024] {
            let mut b = OutputBuffers::new(n);
            assert_eq!(b.obs().as_ptr() as usize % 64, 0);
            assert_eq!(b.obs().len(), n * obs_size());
            assert!(b.out().obs.iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn same_seed_same_trajectories_for_any_thread_count() {
        for mode in [Autoreset::NextStep, Autoreset::SameStep] {
            let one = trajectory(1, mode, 7, 300);
            assert_eq!(one, trajectory(2, mode, 7, 300));
            assert_eq!(one, trajectory(4, mode, 7, 300));
            assert!(one.iter().any(|r| r.3.iter().any(|&t| t)), "some episode ended");
        }
    }

    /// `n` environments on two threads, streams from `seed`, reset, with their buffers.
    fn started(c: &EnvConfig, n: usize, seed: u64) -> (VecEngine, OutputBuffers) {
        let mut v = VecEngine::new(c.clone(), n, 2, Autoreset::NextStep).unwrap();
        v.seed_all(seed);
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        (v, b)
    }

    #[test]
    fn vector_env_i_matches_a_single_slot_with_its_stream_seed() {
        let c = cfg(IllegalPolicy::Terminate);
        let n = 5;
        let (mut v, mut b) = started(&c, n, 9);
        let mut singles: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(stream_seed(9, i))).collect();
        for s in &mut singles {
            s.reset(&c.setup).unwrap();
        }
        let mut actions = vec![0i64; n];
        let mut ended = 0;
        for _ in 0..600 {
            v.sample_actions(&mut actions);
            v.step(&actions, &mut b.out()).unwrap();
            for (i, s) in singles.iter_mut().enumerate() {
                let (reward, term) = if s.done() {
                    s.reset(&c.setup).unwrap();
                    (0.0, false)
                } else {
                    let a = s.sample().unwrap() as i64;
                    assert_eq!(a, actions[i]);
                    let t = s.step(&c, a).unwrap();
                    ended += t.terminated as u32;
                    (t.reward as f32, t.terminated)
                };
                assert_eq!(b.rewards[i], reward);
                assert_eq!(b.terminated[i], term);
                let mut obs = vec![0.0; obs_size()];
                s.write_observation(&mut obs);
                assert_eq!(&b.obs[i * obs_size()..(i + 1) * obs_size()], &obs[..]);
                assert_eq!(s.state(), v.slot(i).state());
            }
        }
        assert!(ended > 0);
    }

    #[test]
    fn ended_lists_the_environments_whose_episode_the_step_ended() {
        for (threads, n) in [(1, 1), (1, 9), (2, 7), (3, 130), (2, 300)] {
            for mode in [Autoreset::NextStep, Autoreset::SameStep] {
                let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, threads, mode).unwrap();
                v.seed_all(3);
                let mut b = OutputBuffers::new(n);
                v.reset(None, None, None, &mut b.out()).unwrap();
                let mut actions = vec![0i64; n];
                let (mut ends, mut illegals) = (0, 0);
                for t in 0..400 {
                    v.sample_actions(&mut actions);
                    if t % 7 == 3 {
                        actions[t % n] = 0; // an illegal action now and then (rarely legal)
                    }
                    if mode == Autoreset::SameStep {
                        // Without next-step autoreset a finished environment must be reset first.
                        let done: Vec<bool> = (0..n).map(|i| v.slot(i).done()).collect();
                        if done.iter().any(|&d| d) {
                            v.reset(None, Some(&done), None, &mut b.out()).unwrap();
                        }
                    }
                    v.step(&actions, &mut b.out()).unwrap();
                    let mut listed: Vec<(usize, i8)> = v.ended().collect();
                    listed.sort();
                    let flagged: Vec<(usize, i8)> =
                        (0..n).filter(|&i| b.terminated[i]).map(|i| (i, b.outcomes[i])).collect();
                    assert_eq!(listed, flagged, "{threads} threads, {n} envs, step {t}");
                    let illegal = b.illegal.iter().filter(|&&x| x).count();
                    assert_eq!(v.ended_counts(), (flagged.len(), illegal));
                    ends += flagged.len();
                    illegals += illegal;
                }
                assert!(ends > 0 && illegals > 0, "{threads} threads, {n} envs: ends {ends}, illegal {illegals}");
                // A refused step changes nothing, the list neither (an environment whose episode
                // is over ignores its action under next-step autoreset: not that one).
                let before: Vec<(usize, i8)> = v.ended().collect();
                if let Some(i) = (0..n).find(|&i| !v.slot(i).done()) {
                    actions[i] = NUM_ACTIONS as i64;
                    assert!(v.step(&actions, &mut b.out()).is_err());
                    assert_eq!(v.ended().collect::<Vec<_>>(), before);
                }
            }
        }
    }

    #[test]
    fn a_failed_reset_changes_nothing_not_even_the_stream() {
        let mut s = EnvSlot::new(5);
        s.reset(&Setup::default()).unwrap();
        let before = s.clone();
        let start = crate::maquis::rules::StartOverrides { morale: Some(99), ..Default::default() };
        let bad = Setup { start: Some(start), ..Setup::default() };
        assert!(s.reset(&bad).is_err());
        assert_eq!(s, before);
        // The next reset draws the seed the failed one would have drawn.
        let mut twin = before.clone();
        s.reset(&Setup::default()).unwrap();
        twin.reset(&Setup::default()).unwrap();
        assert_eq!(s, twin);
        assert_ne!(s.state(), before.state());
    }

    #[test]
    fn illegal_action_terminates_with_loss_or_raises_leaving_state_unchanged() {
        let mut s = EnvSlot::new(1);
        let c = cfg(IllegalPolicy::Terminate);
        s.reset(&c.setup).unwrap();
        let illegal = (0..NUM_ACTIONS).find(|&i| !s.mask().get(i)).unwrap() as i64;
        let t = s.step(&c, illegal).unwrap();
        assert_eq!(
            t,
            Transition {
                reward: -1.0,
                terminated: true,
                outcome: Some(Outcome::Loss),
                illegal: true
            }
        );
        assert!(s.done() && s.mask().is_empty());
        assert_eq!(s.step(&c, 0), Err(Error::GameOver));

        let c = cfg(IllegalPolicy::Raise);
        s.reset(&c.setup).unwrap();
        let before = s.clone();
        match s.step(&c, illegal) {
            Err(Error::IllegalAction { action, phase, .. }) => {
                assert_eq!(action, table().names[illegal as usize]);
                assert_eq!(phase, "placement");
            }
            other => panic!("expected an illegal action error, got {other:?}"),
        }
        assert_eq!(s, before);
        assert!(matches!(
            s.step(&c, NUM_ACTIONS as i64),
            Err(Error::ActionOutOfRange { .. })
        ));
        assert!(matches!(s.step(&c, -1), Err(Error::ActionOutOfRange { .. })));
        assert_eq!(s, before);
    }

    #[test]
    fn vector_raise_names_the_env_and_changes_nothing() {
        let n = 4;
        let mut v = VecEngine::new(cfg(IllegalPolicy::Raise), n, 2, Autoreset::NextStep).unwrap();
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let mut actions = vec![0i64; n];
        v.sample_actions(&mut actions);
        let before: Vec<EnvSlot> = v.slots().to_vec();
        let obs = b.obs.to_vec();
        let illegal = (0..NUM_ACTIONS).find(|&i| !v.slot(2).mask().get(i)).unwrap() as i64;
        actions[2] = illegal;
        let e = v.step(&actions, &mut b.out()).unwrap_err();
        assert_eq!(e.env, 2);
        assert!(matches!(e.error, Error::IllegalAction { .. }));
        assert!(e.to_string().starts_with("env 2: illegal action"));
        actions[2] = 999;
        assert!(matches!(
            v.step(&actions, &mut b.out()).unwrap_err(),
            EnvError {
                env: 2,
                error: Error::ActionOutOfRange { .. }
            }
        ));
        assert_eq!(v.slots(), &before[..]);
        assert_eq!(b.obs.to_vec(), obs);
    }

    #[test]
    fn next_step_autoreset_ignores_the_action_and_returns_a_fresh_episode() {
        let n = 2;
        let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 1, Autoreset::NextStep).unwrap();
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let illegal = (0..NUM_ACTIONS).find(|&i| !v.slot(0).mask().get(i)).unwrap() as i64;
        let mut actions = vec![0i64; n];
        v.sample_actions(&mut actions);
        actions[0] = illegal;
        v.step(&actions, &mut b.out()).unwrap();
        assert!(b.terminated[0] && b.illegal[0]);
        assert_eq!(b.outcomes[0], Outcome::Loss.idx() as i8);
        assert_eq!(b.rewards[0], -1.0);
        assert!(
            b.masks[..NUM_ACTIONS].iter().all(|&m| !m),
            "no legal action after the end"
        );
        v.sample_actions(&mut actions);
        assert_eq!(actions[0], 0);
        actions[0] = 999; // ignored: env 0 is being reset
        v.step(&actions, &mut b.out()).unwrap();
        assert!(!b.terminated[0] && !b.illegal[0] && b.rewards[0] == 0.0 && b.outcomes[0] == NO_OUTCOME);
        assert_eq!(v.slot(0).state().phase, Phase::Placement);
        assert!(b.masks[..NUM_ACTIONS].iter().any(|&m| m));
    }

    #[test]
    fn same_step_autoreset_keeps_the_final_observation() {
        let n = 1;
        let c = cfg(IllegalPolicy::Terminate);
        let mut v = VecEngine::new(c.clone(), n, 1, Autoreset::SameStep).unwrap();
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let mut actions = vec![0i64; n];
        loop {
            let last = v.slot(0).clone();
            v.sample_actions(&mut actions);
            v.step(&actions, &mut b.out()).unwrap();
            if b.terminated[0] {
                let mut finished = last;
                let t = finished.step(&c, actions[0]).unwrap();
                assert!(t.terminated);
                let mut obs = vec![0.0; obs_size()];
                finished.write_observation(&mut obs);
                assert_eq!(b.final_obs, obs);
                assert_eq!(v.slot(0).state().phase, Phase::Placement, "already reset");
                assert!(!v.slot(0).done());
                break;
            }
        }
    }

    #[test]
    fn disabled_autoreset_refuses_finished_envs_until_reset_by_mask() {
        let n = 2;
        let mut v = VecEngine::new(cfg(IllegalPolicy::Terminate), n, 1, Autoreset::Disabled).unwrap();
        let mut b = OutputBuffers::new(n);
        v.reset(None, None, None, &mut b.out()).unwrap();
        let mut actions = vec![0i64; n];
        v.sample_actions(&mut actions);
        actions[1] = (0..NUM_ACTIONS).find(|&i| !v.slot(1).mask().get(i)).unwrap() as i64;
        v.step(&actions, &mut b.out()).unwrap();
        v.sample_actions(&mut actions);
        assert_eq!(
            v.step(&actions, &mut b.out()).unwrap_err(),
            EnvError {
                env: 1,
                error: Error::GameOver
            }
        );
        let keep = v.slot(0).clone();
        v.reset(None, Some(&[false, true]), None, &mut b.out()).unwrap();
        assert_eq!(v.slot(0), &keep, "env 0 not reset");
        v.step(&actions, &mut b.out()).unwrap();
    }

    #[test]
    fn reset_options_override_one_reset_and_reject_unknown_keys() {
        let base = Setup::default();
        let o = ResetOptions::from_json(r#"{"difficulty": "hard", "missions": ["sabotage", "aid_the_spy"], "patrol_deck": [9,8,7,6,5,4,3,2,1,0], "start": {"morale": 3, "resources": {"weapon": 2}}}"#).unwrap();
        let s = o.setup(&base).unwrap();
        let mut slot = EnvSlot::new(0);
        slot.reset(&s).unwrap();
        assert_eq!(slot.state().difficulty, Difficulty::Hard);
        assert_eq!(slot.state().tracks.morale, 3);
        assert_eq!(slot.state().missions[0].id, MissionId::Sabotage);
        for bad in [
            r#"{"dificulty": "hard"}"#,
            r#"{"difficulty": "impossible"}"#,
            r#"{"start": {"moral": 3}}"#,
            r#"{"missions": ["sabotage", "nope"]}"#,
        ] {
            assert!(
                matches!(ResetOptions::from_json(bad), Err(Error::BadOption(_))),
                "{bad}"
            );
        }
        let twice = ResetOptions::from_json(r#"{"missions": ["sabotage", "sabotage"]}"#).unwrap();
        assert!(twice.setup(&base).is_err());
        // A failing reset changes nothing, not even the episode stream.
        let before = slot.clone();
        let too_many = ResetOptions::from_json(r#"{"start": {"resources": {"weapon": 9}}}"#)
            .unwrap()
            .setup(&base)
            .unwrap();
        assert!(slot.reset(&too_many).is_err());
        assert_eq!(slot, before);
    }

    #[test]
    fn balanced_threads_run_every_part_once_and_take_over_a_stalled_share() {
        use std::sync::atomic::AtomicUsize;
        use std::time::{Duration, Instant};
        for threads in 1..=3 {
            let pool = Pool::new(threads).unwrap();
            for n in [0, 1, 2, 5, 16, 37] {
                let hits: Vec<AtomicUsize> = (0..n).map(|_| AtomicUsize::new(0)).collect();
                VecEngine::on_threads(&pool, (0..n).collect(), |i: usize| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                });
                assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "{threads} threads, {n} parts");
            }
        }
        // Part 0 (the caller's share) waits until every other part is done: only if the worker
        // takes over the rest of the caller's share does it finish.
        let pool = Pool::new(2).unwrap();
        let (n, done) = (16, AtomicUsize::new(0));
        let start = Instant::now();
        VecEngine::on_threads(&pool, (0..n).collect(), |i: usize| {
            if i == 0 {
                while done.load(Ordering::Acquire) < n - 1 && start.elapsed() < Duration::from_secs(20) {
                    std::thread::yield_now();
                }
            }
            done.fetch_add(1, Ordering::Release);
        });
        assert_eq!(done.load(Ordering::Relaxed), n);
        assert!(start.elapsed() < Duration::from_secs(20), "the stalled share was not taken over");
    }

    #[test]
    fn a_late_owner_s_last_block_is_taken_over_by_another_thread() {
        use std::time::Duration;
        let (n, per) = (16, 8);
        let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
        let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
        let mut b = OutputBuffers::new(n);
        let mut out = b.out();
        let shares = shares(&mut slots, &actions, &mut out, &mut presampled, per, true, Simd::detect());
        let by: Vec<Mutex<Vec<usize>>> = (0..n).map(|_| Mutex::new(Vec::new())).collect();
        let started = AtomicUsize::new(0);
        let pool = Pool::new(2).unwrap();
        pool.run(&|t| {
            if t == 0 {
                // Until the worker holds the first block of its share.
                while started.load(Ordering::Acquire) == 0 {
                    std::hint::spin_loop();
                }
            }
            work_shares(t, &shares, 4, |c| {
                for i in c.first..c.first + c.len() {
                    by[i].lock().unwrap().push(t);
                }
                if t == 1 && c.first == per {
                    started.store(1, Ordering::Release);
                    // Stopped by the machine with its last block untaken.
                    std::thread::sleep(Duration::from_millis(200));
                }
            });
        });
        let by: Vec<Vec<usize>> = by.into_iter().map(|m| m.into_inner().unwrap()).collect();
        let expected: Vec<Vec<usize>> = (0..n).map(|i| vec![if (8..12).contains(&i) { 1 } else { 0 }]).collect();
        assert_eq!(by, expected, "each environment once; the late worker's last block by the caller");
    }

    #[test]
    fn all_in_range_is_every_action_in_0_to_num_actions() {
        // Each compiled variant this CPU runs, and the dispatch.
        let mut variants: Vec<(&str, fn(&[i64]) -> bool)> =
            vec![("dispatch", |a| all_in_range(Simd::detect(), a)), ("generic", |a| all_in_range_generic(a))];
        #[cfg(target_arch = "x86_64")]
        {
            let simd = Simd::detect();
            if simd.avx2 {
                // SAFETY: the CPU has AVX2.
                variants.push(("avx2", |a| unsafe { all_in_range_avx2(a) }));
            }
            if simd.avx512 {
                // SAFETY: the CPU has AVX-512 F.
                variants.push(("avx512", |a| unsafe { all_in_range_avx512(a) }));
            }
        }
        let n = NUM_ACTIONS as i64;
        for (name, all_in_range) in variants {
            for bad in [-1, n, n + 1, 255, 256, i64::MIN, i64::MAX, i64::MIN + n - 1] {
                // Lengths around the vector widths, the bad action first, in the middle, last.
                for len in [1, 2, 3, 5, 7, 9, 17, 33, 1023, 1024] {
                    for at in [0, len / 2, len - 1] {
                        let mut a: Vec<i64> = (0..len as i64).map(|i| (i * 37) % n).collect();
                        assert!(all_in_range(&a), "{name}");
                        a[at] = bad;
                        assert!(!all_in_range(&a), "{name}: {bad} at {at} of {len}");
                    }
                }
            }
            assert!(all_in_range(&[0, n - 1]) && all_in_range(&[]), "{name}");
        }
    }

    /// `$share`: the one share of `$n` new environments and their rows (the locals it borrows
    /// are declared beside it, out of the caller's sight).
    macro_rules! one_share {
        ($share:ident, $n:expr) => {
            let mut slots: Vec<EnvSlot> = (0..$n).map(|i| EnvSlot::new(i as u64)).collect();
            let (actions, mut presampled, mut b) = (vec![0i64; $n], vec![UNSAMPLED; $n], OutputBuffers::new($n));
            let mut out = b.out();
            let $share = shares(&mut slots, &actions, &mut out, &mut presampled, $n, true, Simd::detect()).remove(0);
        };
    }

    #[test]
    fn a_share_goes_to_its_thread_from_the_front_and_to_others_from_the_back_but_its_last_block_unless_late() {
        let n = 20;
        let mut slots: Vec<EnvSlot> = (0..n).map(|i| EnvSlot::new(i as u64)).collect();
        let (actions, mut presampled) = (vec![0i64; n], vec![UNSAMPLED; n]);
        let mut b = OutputBuffers::new(n);
        let mut out = b.out();
        let first_obs = out.obs.as_ptr();
        let share = shares(&mut slots, &actions, &mut out, &mut presampled, n, true, Simd::detect()).remove(0);
        // Rows of a chunk: where its observation rows start, and how many; the index it gives its
        // first environment (`Ends`) is where its rows start.
        let rows = |c: &Chunk| {
            let start = (c.obs.as_ptr() as usize - first_obs as usize) / (4 * obs_size());
            assert_eq!(c.first, start);
            (start, c.len())
        };
        let mine = share.next(4, false).unwrap();
        assert_eq!(rows(&mine), (0, 4));
        assert_eq!(mine.masks.len(), 4 * NUM_ACTIONS);
        let taken = share.next(4, true).unwrap();
        assert_eq!(rows(&taken), (16, 4));
        assert_eq!((taken.actions.len(), taken.presampled.len(), taken.final_obs.len()), (4, 4, 4 * obs_size()));
        for (start, len) in [(4, 4), (8, 4)] {
            assert_eq!(rows(&share.next(4, false).unwrap()), (start, len));
        }
        // Four left, one block: the owner's, unless it is late; then others take it from the
        // back too, a piece at a time.
        assert!(share.next(4, true).is_none());
        assert!(!share.all_taken());
        assert_eq!(rows(&share.next_late(3).unwrap()), (13, 3));
        assert_eq!(rows(&share.next(4, false).unwrap()), (12, 1));
        assert!(share.all_taken());
        assert!(share.next(4, false).is_none() && share.next_late(3).is_none());
        // With more than a block left, another thread leaves the owner a whole block.
        one_share!(share, 10);
        assert_eq!(share.next(4, true).unwrap().len(), 4);
        assert_eq!(share.next(4, true).unwrap().len(), 2);
        assert!(share.next(4, true).is_none());
        assert_eq!(share.next(8, false).unwrap().len(), 4);
        // A short last block.
        one_share!(share, 3);
        assert_eq!(share.next(2, false).unwrap().len(), 2);
        assert_eq!(share.next(2, false).unwrap().len(), 1);
        assert!(share.next(2, false).is_none());
    }

    #[test]
    fn sample_actions_returns_each_draw_once_then_draws_afresh() {
        // A model of each environment: a single slot and the draw made for it but not returned
        // yet. Steps and resets draw; `sample_actions` returns the draw, or draws.
        let c = cfg(IllegalPolicy::Terminate);
        let n = 5;
        let (mut v, mut b) = started(&c, n, 3);
        let mut model: Vec<(EnvSlot, Option<i64>)> = (0..n)
            .map(|i| {
                let mut s = EnvSlot::new(stream_seed(3, i));
                s.reset(&c.setup).unwrap();
                let drawn = presample(&mut s);
                (s, Some(drawn))
            })
            .collect();
        let mut actions = vec![0i64; n];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut counts = [0; 3];
        for _ in 0..600 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let op = [0, 0, 0, 1, 2][(x % 5) as usize];
            counts[op] += 1;
            match op {
                // sample_actions then step (a second call now and then, a reset between).
                0 => {
                    v.sample_actions(&mut actions);
                    for (i, (s, drawn)) in model.iter_mut().enumerate() {
                        assert_eq!(actions[i], drawn.take().unwrap_or_else(|| presample(s)), "env {i}");
                    }
                    if x & 8 == 0 {
                        continue;
                    }
                    v.step(&actions, &mut b.out()).unwrap();
                    for (i, (s, drawn)) in model.iter_mut().enumerate() {
                        if s.done() {
                            s.reset(&c.setup).unwrap();
                        } else {
                            s.step(&c, actions[i]).unwrap();
                        }
                        *drawn = Some(presample(s));
                    }
                }
                // A second sample_actions: drawn afresh where the last call returned the draw.
                1 => {
                    v.sample_actions(&mut actions);
                    for (i, (s, drawn)) in model.iter_mut().enumerate() {
                        assert_eq!(actions[i], drawn.take().unwrap_or_else(|| presample(s)), "env {i}");
                    }
                }
                // A reset of some environments (all of them now and then).
                _ => {
                    let mask: Vec<bool> = (0..n).map(|i| x >> (20 + i) & 1 == 1 || x & 16 == 0).collect();
                    v.reset(None, Some(&mask), None, &mut b.out()).unwrap();
                    for (i, (s, drawn)) in model.iter_mut().enumerate() {
                        if mask[i] {
                            s.reset(&c.setup).unwrap();
                            *drawn = Some(presample(s));
                        }
                    }
                }
            }
            for (i, (s, _)) in model.iter().enumerate() {
                assert_eq!(s.state(), v.slot(i).state());
            }
        }
        assert!(counts.iter().all(|&k| k > 50), "{counts:?}");
    }

    #[test]
    fn rewards_and_policies_parse_spec_ids_only() {
        let r = Rewards::default().with("draw", -0.5).unwrap();
        assert_eq!(r.of(Outcome::Draw), -0.5);
        assert_eq!(r.of(Outcome::Win), 1.0);
        assert!(Rewards::default().with("victory", 1.0).is_err());
        assert!(Rewards::default().with("win", f64::NAN).is_err());
        assert!(IllegalPolicy::parse("ignore").is_err());
        assert!(Autoreset::parse("sometimes").is_err());
    }

    #[test]
    fn snapshot_round_trip_is_exact_and_continues_identically() {
        let c = cfg(IllegalPolicy::Terminate);
        let mut s = EnvSlot::new(77);
        s.reset(&c.setup).unwrap();
        for _ in 0..25 {
            if let Some(a) = s.sample() {
                s.step(&c, a as i64).unwrap();
            }
        }
        let (c2, mut t) = env_from_snapshot(&env_snapshot(&c, &s)).unwrap();
        assert_eq!(c2, c);
        assert_eq!(t, s);
        while !s.done() {
            let (a, b) = (s.sample().unwrap(), t.sample().unwrap());
            assert_eq!(a, b);
            assert_eq!(s.step(&c, a as i64).unwrap(), t.step(&c, b as i64).unwrap());
        }
        s.reset(&c.setup).unwrap();
        t.reset(&c.setup).unwrap();
        assert_eq!(s, t);
        assert!(env_from_snapshot("{}").is_err());
        assert!(env_from_snapshot("not json").is_err());
    }

    #[test]
    fn observations_stay_in_unit_interval_in_random_play() {
        let c = cfg(IllegalPolicy::Terminate);
        let mut obs = vec![0.0; obs_size()];
        for &d in Difficulty::ALL {
            let setup = Setup::new(d);
            let mut s = EnvSlot::new(d as u64);
            for _ in 0..40 {
                s.reset(&setup).unwrap();
                while !s.done() {
                    s.write_observation(&mut obs);
                    assert!(obs.iter().all(|&x| (0.0..=1.0).contains(&x)), "{obs:?}");
                    let a = s.sample().unwrap() as i64;
                    s.step(&c, a).unwrap();
                }
                s.write_observation(&mut obs);
                assert!(obs.iter().all(|&x| (0.0..=1.0).contains(&x)));
            }
        }
    }
}
