//! The batch engine: many environments of one game sharing one configuration, stepped together
//! on a persistent thread pool, writing observations, masks, rewards and flags into caller-owned
//! arrays. Generic over the game (`Engine<G: Game>`), monomorphised: each game gets its own
//! compiled step.

use super::buffers::Outputs;
use crate::obs_value::{ObsValue, Observes};
use super::chunk::{shares, Copies, Ends};
use super::pool::Pool;
use super::prefetch::Prefetching;
use super::range::all_in_range;
use super::scheduler::{on_threads, work_shares, Balance};
use crate::env::{stream_seed, Autoreset, Config, EnvError, IllegalPolicy, Shaping, Slot, StartStates, NO_OUTCOME};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::simd::Simd;
use std::sync::{Arc, Mutex};

/// `Engine::presampled` of an environment with no action drawn yet.
pub(crate) const UNSAMPLED: i64 = -1;

/// What `Engine::presampled` holds.
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
pub(crate) fn presample<G: Game>(slot: &mut Slot<G>) -> i64 {
    slot.sample().map_or(0, |x| x as i64)
}

/// A thread's part of `check_actions`: the index of its share, its slots and their actions.
type CheckPart<'a, G> = (usize, &'a [Slot<G>], &'a [i64]);
/// A thread's part of `sample_actions`: its slots, their presampled actions, their outputs.
type SamplePart<'a, G> = (&'a mut [Slot<G>], &'a mut [i64], &'a mut [i64]);

/// A batch of environments sharing one configuration, stepped on a persistent thread pool.
pub struct Engine<G: Game> {
    cfg: Config<G>,
    slots: Vec<Slot<G>>,
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
    /// environments (see `balance`), and helps with the others' once its own is done if they are
    /// far behind (`step`) or always (`on_threads`: resets, checks, fresh samples). Shared with
    /// other batches after `use_pool`.
    pool: Arc<Pool>,
    /// The address of the observation buffer whose rows the slots wrote last (0: none), for
    /// `Outputs::obs_kept`.
    rows: usize,
    /// Per thread, the environments whose episode ended on the last step (see `ended`).
    ends: Vec<Mutex<Ends>>,
    /// Each thread's share of the environments: consecutive, the same from one call to the next
    /// (so that an environment stays in the cache of the core that steps it), sized by the
    /// threads' measured speeds.
    balance: Balance,
    /// Whether each thread asks for the next environment's lines while stepping one: measured.
    prefetching: Prefetching,
}

impl<G: Game> Engine<G> {
    /// `num_envs` environments waiting for their first reset, seeded with `stream_seed(0, i)`.
    /// `num_threads` 0 means one per available core.
    pub fn new(cfg: Config<G>, num_envs: usize, num_threads: usize, autoreset: Autoreset) -> Result<Engine<G>> {
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
        let slots = (0..num_envs).map(|i| Slot::new(stream_seed(0, i))).collect();
        let ends = Self::ends_lists(num_envs, pool.threads());
        let balance = Balance::new(num_envs, pool.threads());
        let prefetching = Prefetching::new(pool.threads());
        Ok(Engine {
            cfg,
            slots,
            presampled: vec![UNSAMPLED; num_envs],
            presampled_are: Presampled::Marked,
            autoreset,
            pool: Arc::new(pool),
            rows: 0,
            ends,
            balance,
            prefetching,
        })
    }

    /// Per thread, the list of ended environments, with room for every environment: no
    /// allocation in the step.
    fn ends_lists(num_envs: usize, threads: usize) -> Vec<Mutex<Ends>> {
        (0..threads)
            .map(|_| Mutex::new(Ends { envs: Vec::with_capacity(num_envs), illegal: 0, own: Default::default() }))
            .collect()
    }

    /// The threads this batch steps on (to share them with another batch: `use_pool`).
    pub fn pool(&self) -> &Arc<Pool> {
        &self.pool
    }

    /// Steps this batch on `pool` from now on (its own pool's threads stop unless another batch
    /// shares them): the shares start equal again, on `pool`'s thread count. Trajectories do not
    /// depend on it. A pool of more threads than environments is refused.
    pub fn use_pool(&mut self, pool: Arc<Pool>) -> Result<()> {
        let (n, threads) = (self.slots.len(), pool.threads());
        if threads > n {
            return Err(Error::BadOption(format!("a pool of {threads} threads cannot step a batch of {n} environments")));
        }
        self.ends = Self::ends_lists(n, threads);
        self.balance = Balance::new(n, threads);
        self.prefetching = Prefetching::new(threads);
        self.pool = pool;
        Ok(())
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }
    pub fn num_threads(&self) -> usize {
        self.pool.threads()
    }
    pub fn autoreset(&self) -> Autoreset {
        self.autoreset
    }
    pub fn config(&self) -> &Config<G> {
        &self.cfg
    }
    pub fn slot(&self, i: usize) -> &Slot<G> {
        &self.slots[i]
    }
    pub fn slots(&self) -> &[Slot<G>] {
        &self.slots
    }

    /// How many environments each thread steps as its own share, thread 0 (the caller's) first:
    /// equal at first, then following the threads' measured speeds.
    pub fn thread_shares(&self) -> Vec<usize> {
        self.balance.ranges().map(|r| r.len()).collect()
    }

    /// Whether each thread asks for the next environment's lines while stepping one (chosen by
    /// measuring both ways every few hundred steps; the trajectories do not depend on it).
    pub fn thread_prefetch(&self) -> Vec<bool> {
        self.prefetching.ways()
    }

    /// Every thread prefetching (`Some(true)`) or not (`Some(false)`) from now on, or (`None`,
    /// the default) each choosing by measurement: for benchmarks and tests.
    pub fn set_prefetch(&mut self, way: Option<bool>) {
        self.prefetching.fix(way);
    }

    /// Each thread's share of the environments (tests).
    #[cfg(test)]
    pub(crate) fn balance_mut(&mut self) -> &mut Balance {
        &mut self.balance
    }

    /// Sets (None: removes) the start-state curriculum of the episodes that start from now on.
    pub fn set_start_states(&mut self, start: Option<StartStates<G>>) {
        self.cfg.start = start.map(Arc::new);
    }

    /// Sets the probability of the start-state pool (an error without a pool, or outside [0, 1]).
    pub fn set_start_probability(&mut self, probability: f64) -> Result<()> {
        let Some(pool) = &mut self.cfg.start else {
            return Err(Error::BadOption("start states: no pool set".into()));
        };
        Arc::make_mut(pool).set_probability(probability)
    }

    /// Sets (None: removes) the shaping added to the rewards of the steps from now on.
    pub fn set_shaping(&mut self, shaping: Option<Shaping>) {
        self.cfg.shaping = shaping;
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

    /// Starts new episodes for the environments in `mask` (all if None), first restarting the
    /// streams of those given a seed in `seeds`, with `setup` for this reset (the constructor's if
    /// None). Writes their rows; other rows are untouched. On error nothing changes.
    pub fn reset<T: ObsValue>(
        &mut self,
        seeds: Option<&[Option<u64>]>,
        mask: Option<&[bool]>,
        setup: Option<&G::Setup>,
        out: &mut Outputs<T>,
    ) -> std::result::Result<(), EnvError>
    where
        G: Observes<T>,
    {
        let n = self.slots.len();
        out.check::<G>(n);
        if let Some(s) = seeds {
            assert_eq!(s.len(), n, "one seed (or None) per environment");
        }
        if let Some(m) = mask {
            assert_eq!(m.len(), n, "one mask entry per environment");
        }
        let cfg = &self.cfg;
        let targets: Vec<usize> = (0..n).filter(|&i| mask.is_none_or(|m| m[i])).collect();
        let make = |&i: &usize| -> std::result::Result<(usize, Slot<G>), EnvError> {
            let mut slot = self.slots[i].clone();
            if let Some(seed) = seeds.and_then(|s| s[i]) {
                slot.seed(seed);
            }
            // Reset options make new games of this reset's setup; otherwise the configuration's
            // start states may give the episode its start.
            match setup {
                Some(setup) => slot.reset(setup),
                None => slot.start_episode(cfg),
            }
            .map_err(|error| EnvError { env: i, error })?;
            Ok((i, slot))
        };
        let per = targets.len().div_ceil(self.num_threads()).max(1);
        type Made<G> = std::result::Result<(usize, Slot<G>), EnvError>;
        let results: Vec<Mutex<Vec<Made<G>>>> = targets.chunks(per).map(|_| Mutex::new(Vec::new())).collect();
        let parts: Vec<(&[usize], &Mutex<_>)> = targets.chunks(per).zip(&results).collect();
        on_threads(&self.pool, parts, |(ts, res)| {
            let made = ts.iter().map(make).collect();
            *res.lock().unwrap_or_else(|e| e.into_inner()) = made;
        });
        let fresh: Vec<(usize, Slot<G>)> = results
            .into_iter()
            .flat_map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect::<std::result::Result<_, _>>()?;
        // The other rows are still the slots' own only if this is the buffer they wrote.
        let at = out.obs.as_ptr() as usize;
        self.rows = if out.obs_kept && (fresh.len() == n || self.rows == at) { at } else { 0 };
        let simd = Simd::detect();
        self.mark_returned();
        if fresh.len() == n {
            self.presampled_are = Presampled::All;
        }
        for (i, mut slot) in fresh {
            Self::write_start_rows(&mut slot, i, simd, out, self.autoreset);
            self.slots[i] = slot;
            self.presampled[i] = presample(&mut self.slots[i]);
        }
        Ok(())
    }

    /// The rows of environment `i` at the start of an episode (a reset, a loaded game): its whole
    /// observation and mask (every action for a loaded finished game that NextStep restarts), no
    /// reward, no flags.
    fn write_start_rows<T: ObsValue>(slot: &mut Slot<G>, i: usize, simd: Simd, out: &mut Outputs<T>, autoreset: Autoreset)
    where
        G: Observes<T>,
    {
        let (o, a) = (G::obs_size(), G::NUM_ACTIONS);
        slot.update_observation(simd, &mut out.obs[i * o..(i + 1) * o], false);
        slot.write_mask_row(simd, &mut out.masks[i * a..(i + 1) * a], autoreset == Autoreset::NextStep);
        out.rewards[i] = 0.0;
        out.terminated[i] = false;
        out.truncated[i] = false;
        out.outcomes[i] = NO_OUTCOME;
        out.illegal[i] = false;
    }

    /// Replaces the game of environment `i` by `state` (already validated, e.g. a loaded save) and
    /// writes its rows as a reset does; its streams and the other environments are untouched, and
    /// reloading the game it holds changes nothing that follows.
    /// The episode is over iff the game is (the next step then resets it under NextStep autoreset).
    pub fn load_state<T: ObsValue>(&mut self, i: usize, state: G::State, out: &mut Outputs<T>)
    where
        G: Observes<T>,
    {
        let n = self.slots.len();
        out.check::<G>(n);
        assert!(i < n, "environment {i} of {n}");
        let at = out.obs.as_ptr() as usize;
        self.rows = if out.obs_kept && self.rows == at { at } else { 0 };
        self.mark_returned();
        // The game it already holds (a save and reload): its action for the next
        // `sample_actions` is still the one drawn, so that trajectories do not change.
        let same = self.slots[i].state() == &state;
        let slot = &mut self.slots[i];
        slot.set_state(state);
        Self::write_start_rows(slot, i, Simd::detect(), out, self.autoreset);
        if !same {
            // Its next sample is drawn from its stream when asked for.
            self.presampled[i] = UNSAMPLED;
            if self.presampled_are == Presampled::All {
                self.presampled_are = Presampled::Marked;
            }
        }
    }

    /// Steps every environment with its action (ignored for an environment being autoreset).
    /// All actions are checked first: on an error (an action out of range; an illegal action under
    /// `IllegalPolicy::Raise`; a finished environment without NextStep autoreset) nothing changes
    /// and the error names the environment.
    pub fn step<T: ObsValue>(&mut self, actions: &[i64], out: &mut Outputs<T>) -> std::result::Result<(), EnvError>
    where
        G: Observes<T>,
    {
        self.step_copying(actions, out, Copies::none())
    }

    /// `step`, also copying every observation and mask row into `copies` as soon as it is
    /// written (on the worker threads, from their caches): what a caller that hands out copies
    /// of the rows would otherwise do in a second pass, alone. `copies` hold num_envs rows each.
    pub fn step_copying<T: ObsValue>(
        &mut self,
        actions: &[i64],
        out: &mut Outputs<T>,
        copies: Copies<'_, T>,
    ) -> std::result::Result<(), EnvError>
    where
        G: Observes<T>,
    {
        let n = self.slots.len();
        out.check::<G>(n);
        if !(copies.obs.is_empty() && copies.masks.is_empty()) {
            assert_eq!(copies.obs.len(), out.obs.len(), "obs copies");
            assert_eq!(copies.masks.len(), out.masks.len(), "mask copies");
        }
        assert_eq!(actions.len(), n, "one action per environment");
        let (cfg, autoreset) = (&self.cfg, self.autoreset);
        // With illegal actions ending their episode and finished environments reset by the step,
        // the only possible error is an action out of range: when the actions are all in range
        // (one pass over them here), the checks below could only pass.
        // The CPU's instruction sets, read once for the step's range check and writers.
        let simd = Simd::detect();
        let in_range = all_in_range(simd, actions, G::NUM_ACTIONS);
        if !(in_range && cfg.illegal == IllegalPolicy::Terminate && autoreset == Autoreset::NextStep) {
            Self::check_actions(&self.pool, &self.slots, actions, cfg, autoreset, self.balance.bounds())?;
        }
        let at = out.obs.as_ptr() as usize;
        let kept = out.obs_kept && self.rows == at;
        let Engine { slots, presampled, pool, ends, balance, prefetching, .. } = self;
        let block = (n / pool.threads() / 8).clamp(8, 64);
        let shares = shares(slots, actions, out, presampled, copies, balance.bounds(), kept, simd);
        pool.run(&|t| {
            let mut ended = ends[t].lock().unwrap_or_else(|e| e.into_inner());
            ended.envs.clear();
            ended.illegal = 0;
            let prefetch = prefetching.on(t);
            ended.own = work_shares(t, &shares, block, |mut c| c.step(cfg, autoreset, prefetch, &mut ended));
        });
        drop(shares);
        for (t, e) in ends.iter_mut().enumerate() {
            let (envs, time) = e.get_mut().unwrap_or_else(|e| e.into_inner()).own;
            balance.measured(t, envs, time);
            prefetching.measured(t, envs, time);
        }
        balance.step_done();
        prefetching.step_done();
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
        slots: &[Slot<G>],
        actions: &[i64],
        cfg: &Config<G>,
        autoreset: Autoreset,
        bounds: &[usize],
    ) -> std::result::Result<(), EnvError> {
        let errors: Vec<Mutex<Option<EnvError>>> = bounds[1..].iter().map(|_| Mutex::new(None)).collect();
        let parts: Vec<CheckPart<G>> =
            bounds.windows(2).enumerate().map(|(t, w)| (t, &slots[w[0]..w[1]], &actions[w[0]..w[1]])).collect();
        on_threads(pool, parts, |(t, slots, acts)| {
            let first = slots.iter().zip(acts).enumerate().find_map(|(k, (slot, &a))| {
                check_action(cfg, autoreset, slot, a).err().map(|error| EnvError { env: bounds[t] + k, error })
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
        let sample = |(slots, presampled, out): SamplePart<G>| {
            for (i, a) in out.iter_mut().enumerate() {
                let drawn = std::mem::replace(&mut presampled[i], UNSAMPLED);
                *a = if drawn != UNSAMPLED { drawn } else { presample(&mut slots[i]) };
            }
        };
        // Each environment draws from its own stream: the same actions for any thread count;
        // and on the thread that steps it, where its stream is in cache.
        let (mut slots, mut presampled, mut out) = (&mut self.slots[..], &mut self.presampled[..], out);
        let mut parts: Vec<SamplePart<G>> = Vec::with_capacity(self.pool.threads());
        for r in self.balance.ranges() {
            let (s, p, o);
            ((s, slots), (p, presampled), (o, out)) =
                (slots.split_at_mut(r.len()), presampled.split_at_mut(r.len()), out.split_at_mut(r.len()));
            parts.push((s, p, o));
        }
        on_threads(&self.pool, parts, sample);
    }
}

/// Pickling a batch (`py::common::vector`): each environment with the action its next
/// `sample_actions` returns, which was drawn from its sampling stream already.
impl<G: Game> Engine<G> {
    /// The action the next `sample_actions` returns for environment `i` without drawing, if any.
    pub fn presampled(&self, i: usize) -> Option<i64> {
        match self.presampled_are {
            Presampled::All => Some(self.presampled[i]),
            Presampled::Returned => None,
            Presampled::Marked => Some(self.presampled[i]).filter(|&a| a != UNSAMPLED),
        }
    }

    /// Replaces environment `i` by `slot` (its streams included) and its drawn action by
    /// `presampled` (`Engine::presampled` of the batch it was taken from), writing its rows as a
    /// reset does; the other environments are untouched.
    pub fn restore<T: ObsValue>(&mut self, i: usize, slot: Slot<G>, presampled: Option<i64>, out: &mut Outputs<T>)
    where
        G: Observes<T>,
    {
        let n = self.slots.len();
        out.check::<G>(n);
        assert!(i < n, "environment {i} of {n}");
        let at = out.obs.as_ptr() as usize;
        self.rows = if out.obs_kept && self.rows == at { at } else { 0 };
        self.mark_returned();
        if self.presampled_are == Presampled::All {
            self.presampled_are = Presampled::Marked;
        }
        self.slots[i] = slot;
        Self::write_start_rows(&mut self.slots[i], i, Simd::detect(), out, self.autoreset);
        self.presampled[i] = presampled.unwrap_or(UNSAMPLED);
    }
}

/// Why `Engine::step` refuses `action` for `slot`, if it does.
fn check_action<G: Game>(cfg: &Config<G>, autoreset: Autoreset, slot: &Slot<G>, action: i64) -> Result<()> {
    if slot.done() {
        return if autoreset == Autoreset::NextStep { Ok(()) } else { Err(Error::GameOver) };
    }
    G::decode(action)?;
    if cfg.illegal == IllegalPolicy::Raise && !G::is_legal(slot.mask(), action as usize) {
        return Err(G::refusal(slot.state(), action));
    }
    Ok(())
}
