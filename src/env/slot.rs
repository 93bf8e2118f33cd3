//! One environment: a game, its legal actions, and the two streams that make it reproducible.

use super::seeding::streams;
use super::{Config, IllegalPolicy};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::obs_value::{ObsValue, Observes};
use crate::simd::Simd;
use rand::RngCore;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::{json, Value};

/// What one step produced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition<O> {
    pub reward: f64,
    pub terminated: bool,
    /// Set on the step that ends the episode.
    pub outcome: Option<O>,
    /// The episode ended on an illegal action (`IllegalPolicy::Terminate`).
    pub illegal: bool,
    /// The shaping term `γ·Φ(s') − Φ(s)` included in `reward` (0 without shaping).
    pub shaping: f64,
}

impl<O> Transition<O> {
    /// A step that did not end the episode.
    pub const NOTHING: Transition<O> =
        Transition { reward: 0.0, terminated: false, outcome: None, illegal: false, shaping: 0.0 };
}

/// One environment: the game, its legal actions, and the two streams that make it reproducible.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot<G: Game> {
    state: G::State,
    /// The legal actions now; empty once the episode has ended.
    mask: G::Mask,
    episode_rng: ChaCha8Rng,
    sample_rng: ChaCha8Rng,
    /// The episode has ended (game over, or an illegal action): stepping needs a reset first.
    done: bool,
    /// What the observation this slot last wrote into its row was written from
    /// (`NOTHING_WRITTEN` after a new game or a loaded state: the next write is whole).
    written: G::Written,
}

impl<G: Game> Slot<G> {
    /// An environment waiting for its first reset.
    pub fn new(stream_seed: u64) -> Slot<G> {
        let (episode_rng, sample_rng) = streams(stream_seed);
        Slot {
            state: G::placeholder(),
            mask: G::Mask::default(),
            episode_rng,
            sample_rng,
            done: true,
            written: G::NOTHING_WRITTEN,
        }
    }

    /// Restarts both streams from `stream_seed` (the game in progress is kept).
    pub fn seed(&mut self, stream_seed: u64) {
        (self.episode_rng, self.sample_rng) = streams(stream_seed);
    }

    /// A new episode of `setup`, its game seed drawn from the episode stream. On error nothing
    /// changes (not even the stream).
    pub fn reset(&mut self, setup: &G::Setup) -> Result<()> {
        // Drawn in place and the stream put back on error, rather than drawn from a clone of the
        // 320-byte stream; the game written straight into its place.
        let at = self.episode_rng.get_word_pos();
        if let Err(e) = G::new_game_into(setup, self.episode_rng.next_u64(), &mut self.state) {
            self.episode_rng.set_word_pos(at);
            return Err(e);
        }
        self.refresh();
        Ok(())
    }

    /// The next episode of `cfg`: from its start states if it has a pool and the episode's draw
    /// says so (`StartStates::draw`), else a new game of its setup. Either way one seed is drawn
    /// from the episode stream, so without a pool (or with probability 0) this is `reset`.
    #[inline]
    pub fn start_episode(&mut self, cfg: &Config<G>) -> Result<()> {
        let Some(pool) = &cfg.start else { return self.reset(&cfg.setup) };
        let at = self.episode_rng.get_word_pos();
        let seed = self.episode_rng.next_u64();
        match pool.draw(seed) {
            Some(state) => self.state = state,
            None => {
                if let Err(e) = G::new_game_into(&cfg.setup, seed, &mut self.state) {
                    self.episode_rng.set_word_pos(at);
                    return Err(e);
                }
            }
        }
        self.refresh();
        Ok(())
    }

    /// One decision of the player. Out-of-range actions and steps after the end are errors
    /// whatever the policy; an illegal action terminates the episode or is an error that leaves
    /// the state unchanged. With `cfg.shaping`, the reward includes `γ·Φ(s') − Φ(s)`.
    #[inline]
    pub fn step(&mut self, cfg: &Config<G>, action: i64) -> Result<Transition<G::Outcome>> {
        let Some(shaping) = &cfg.shaping else { return self.step_outcome(cfg, action) };
        let before = shaping.potential::<G>(&self.state, self.done);
        let mut t = self.step_outcome(cfg, action)?;
        // Φ = 0 once the episode is over (an illegal action ends it on the game before it).
        t.shaping = shaping.gamma * shaping.potential::<G>(&self.state, self.done) - before;
        t.reward += t.shaping;
        Ok(t)
    }

    /// `step` with the outcome reward alone. Always inlined: returned from a call, its
    /// `Result<Transition>` went through memory on every step of a vector env.
    #[inline(always)]
    fn step_outcome(&mut self, cfg: &Config<G>, action: i64) -> Result<Transition<G::Outcome>> {
        let a = G::decode(action)?;
        if self.done {
            return Err(Error::GameOver);
        }
        if G::is_legal(&self.mask, action as usize) {
            self.mask = G::apply_legal_mask(&mut self.state, a);
        } else if cfg.illegal == IllegalPolicy::Terminate {
            self.done = true;
            self.mask = G::Mask::default();
            let end = G::illegal_outcome();
            return Ok(Transition {
                reward: G::terminal_reward(&cfg.rewards, &self.state, end, true),
                terminated: true,
                outcome: Some(end),
                illegal: true,
                shaping: 0.0,
            });
        } else {
            // Refused (naming the action, the phase and why) before anything changes.
            return Err(G::refusal(&self.state, action));
        }
        match G::outcome(&self.state) {
            Some(o) => {
                self.done = true;
                Ok(Transition {
                    reward: G::terminal_reward(&cfg.rewards, &self.state, o, false),
                    terminated: true,
                    outcome: Some(o),
                    illegal: false,
                    shaping: 0.0,
                })
            }
            None => Ok(Transition::NOTHING),
        }
    }

    /// A uniformly random legal action from the sampling stream (None once the episode is over;
    /// the stream is then not advanced).
    #[inline]
    pub fn sample(&mut self) -> Option<usize> {
        G::sample(&self.mask, &mut self.sample_rng)
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The episode and sampling streams (saved with the env's `save_state`).
    pub fn streams(&self) -> (&ChaCha8Rng, &ChaCha8Rng) {
        (&self.episode_rng, &self.sample_rng)
    }

    /// Puts back streams of `streams` (a loaded save's).
    pub fn set_streams(&mut self, episode: ChaCha8Rng, sample: ChaCha8Rng) {
        self.episode_rng = episode;
        self.sample_rng = sample;
    }

    /// Replaces the game (e.g. a loaded save); the episode is over iff the game is.
    pub fn set_state(&mut self, state: G::State) {
        self.state = state;
        self.refresh();
    }

    /// The episode flag and the legal actions, from the game.
    fn refresh(&mut self) {
        self.written = G::NOTHING_WRITTEN;
        self.done = G::is_over(&self.state);
        self.mask = if self.done { G::Mask::default() } else { G::legal_mask(&self.state) };
    }

    /// The legal actions now (empty once the episode is over).
    pub fn mask(&self) -> &G::Mask {
        &self.mask
    }

    pub fn done(&self) -> bool {
        self.done
    }

    #[inline]
    pub fn write_observation<T: ObsValue>(&self, out: &mut [T])
    where
        G: Observes<T>,
    {
        G::write_observation_as(&self.state, out);
    }

    /// Writes the observation into this slot's own row: with `kept` (the row holds what this
    /// slot last wrote there), only what may have changed since; else whole.
    #[inline]
    pub fn update_observation<T: ObsValue>(&mut self, simd: Simd, row: &mut [T], kept: bool)
    where
        G: Observes<T>,
    {
        if !kept {
            self.written = G::NOTHING_WRITTEN;
        }
        G::update_observation_as(simd, &self.state, row, &mut self.written);
    }

    /// The mask row of a vector env's environment: its legal actions, or, once its episode is over
    /// and the next step restarts it (`awaits_reset`, NextStep autoreset), every action, since that
    /// step ignores its action (API "Vector env": a safe row for masked softmaxes and samplers).
    #[inline]
    pub fn write_mask_row<T: From<bool>>(&self, simd: Simd, out: &mut [T], awaits_reset: bool) {
        if awaits_reset && self.done {
            out.iter_mut().for_each(|x| *x = T::from(true));
        } else {
            self.write_mask_with(simd, out);
        }
    }

    #[inline]
    pub fn write_mask<T: From<bool>>(&self, out: &mut [T]) {
        self.write_mask_with(Simd::detect(), out)
    }

    /// `write_mask` with the instruction sets already detected.
    #[inline]
    pub fn write_mask_with<T: From<bool>>(&self, simd: Simd, out: &mut [T]) {
        // Fast path for one-byte element types whose false and true are the bytes 0 and 1 (bool,
        // i8, u8): the game's byte writer, many actions at a time, instead of one call per
        // action.
        if std::mem::size_of::<T>() == 1 && out.len() == G::NUM_ACTIONS {
            let (f, t) = (T::from(false), T::from(true));
            // SAFETY: T is one byte; reading the bytes of two initialised values is sound.
            let (fb, tb) = unsafe { (std::mem::transmute_copy::<T, u8>(&f), std::mem::transmute_copy::<T, u8>(&t)) };
            if (fb, tb) == (0, 1) {
                // SAFETY: same size and alignment as u8, and every byte written is 0 or 1, the
                // bytes of T::from(false) and T::from(true): valid values of T.
                let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, out.len()) };
                G::write_mask_bytes(simd, &self.mask, bytes);
                return;
            }
        }
        for (i, x) in out.iter_mut().enumerate() {
            *x = T::from(G::is_legal(&self.mask, i));
        }
    }

    /// The whole environment (game, streams, episode flag) as JSON, for pickling.
    pub fn snapshot(&self) -> Value {
        let state: Value = serde_json::from_str(&G::save(&self.state)).expect("a save is JSON");
        json!({
            "state": state,
            "episode_rng": self.episode_rng,
            "sample_rng": self.sample_rng,
            "done": self.done,
        })
    }

    pub fn from_snapshot(v: &Value) -> Result<Slot<G>> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Snap {
            state: Value,
            episode_rng: ChaCha8Rng,
            sample_rng: ChaCha8Rng,
            done: bool,
        }
        crate::versioned::check_streams(v, "env")?;
        let snap: Snap = serde_json::from_value(v.clone()).map_err(|e| Error::BadSave(e.to_string()))?;
        let state = G::load(&snap.state.to_string())?;
        let mut slot = Slot {
            state: state.clone(),
            mask: G::Mask::default(),
            episode_rng: snap.episode_rng,
            sample_rng: snap.sample_rng,
            done: true,
            written: G::NOTHING_WRITTEN,
        };
        slot.set_state(state);
        // An episode ended by an illegal action keeps a live game but is over.
        if snap.done {
            slot.done = true;
            slot.mask = G::Mask::default();
        }
        Ok(slot)
    }
}

/// The name of a game's environment snapshots.
fn format_of<G: Game>() -> String {
    format!("{}-env", G::NAME)
}

/// A single environment's configuration and slot as one versioned JSON document (pickling).
pub fn snapshot<G: Game>(cfg: &Config<G>, slot: &Slot<G>) -> String {
    json!({"format": format_of::<G>(), "version": 1, "config": cfg, "env": slot.snapshot()}).to_string()
}

/// The configuration and slot of a `snapshot`.
pub fn from_snapshot<G: Game>(json: &str) -> Result<(Config<G>, Slot<G>)> {
    let v: Value = serde_json::from_str(json).map_err(|e| Error::BadSave(e.to_string()))?;
    let format = format_of::<G>();
    if v["format"] != format.as_str() || v["version"] != 1 {
        return Err(Error::BadSave(format!(
            "not a {format} snapshot of version 1 (format {}, version {})",
            v["format"], v["version"]
        )));
    }
    let cfg: Config<G> =
        serde_json::from_value(v["config"].clone()).map_err(|e| Error::BadSave(e.to_string()))?;
    Ok((cfg, Slot::from_snapshot(&v["env"])?))
}
