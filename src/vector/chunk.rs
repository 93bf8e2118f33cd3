//! One thread's piece of a step: consecutive environments with their rows of every output
//! array, cut from the batch (`shares`) and stepped row by row.

use super::buffers::Outputs;
use super::engine::presample;
use super::prefetch;
use super::scheduler::{Piece, Share};
use crate::env::{Autoreset, Config, Slot, Transition, NO_OUTCOME};
use crate::game::Game;
use crate::obs_value::{ObsValue, Observes};
use crate::simd::Simd;

/// Arrays of fresh rows that a step copies each observation and mask row into once written
/// (`Engine::step_copying`); both empty for none.
pub struct Copies<'a, T> {
    pub obs: &'a mut [T],
    pub masks: &'a mut [bool],
}

impl<T> Copies<'_, T> {
    /// No copies.
    pub fn none() -> Copies<'static, T> {
        Copies { obs: &mut [], masks: &mut [] }
    }
}

/// One thread's share of a step: consecutive environments and their rows.
pub(crate) struct Chunk<'a, G: Game, T = f32> {
    /// The index of the first environment in the batch.
    pub(crate) first: usize,
    pub(crate) slots: &'a mut [Slot<G>],
    pub(crate) actions: &'a [i64],
    pub(crate) obs: &'a mut [T],
    pub(crate) masks: &'a mut [bool],
    pub(crate) rewards: &'a mut [f32],
    pub(crate) terminated: &'a mut [bool],
    pub(crate) truncated: &'a mut [bool],
    pub(crate) outcomes: &'a mut [i8],
    pub(crate) illegal: &'a mut [bool],
    pub(crate) final_obs: &'a mut [T],
    /// The action `sample_actions` will return next (see `Engine::presampled`).
    pub(crate) presampled: &'a mut [i64],
    /// Where each row's observation and mask are copied once written (`Engine::step_copying`),
    /// or empty.
    pub(crate) obs_copy: &'a mut [T],
    pub(crate) masks_copy: &'a mut [bool],
    /// The observation rows hold what their slots last wrote there.
    pub(crate) kept: bool,
    pub(crate) simd: Simd,
}

/// The environments and their rows cut into one share per thread, share `t` holding
/// environments `bounds[t]..bounds[t + 1]` (`Balance::bounds`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn shares<'a, G: Game, T>(
    slots: &'a mut [Slot<G>],
    actions: &'a [i64],
    out: &'a mut Outputs<T>,
    presampled: &'a mut [i64],
    copies: Copies<'a, T>,
    bounds: &[usize],
    kept: bool,
    simd: Simd,
) -> Vec<Share<Chunk<'a, G, T>>> {
    assert_eq!(bounds.last(), Some(&slots.len()), "shares cover the batch");
    let mut whole = Chunk {
        first: 0,
        slots,
        actions,
        obs: &mut *out.obs,
        masks: &mut *out.masks,
        rewards: &mut *out.rewards,
        terminated: &mut *out.terminated,
        truncated: &mut *out.truncated,
        outcomes: &mut *out.outcomes,
        illegal: &mut *out.illegal,
        final_obs: &mut *out.final_obs,
        presampled,
        obs_copy: copies.obs,
        masks_copy: copies.masks,
        kept,
        simd,
    };
    bounds.windows(2).map(|w| Share::new(whole.take(w[1] - w[0], false))).collect()
}

/// The first `n` items of `*s` (the last `n` if `back`), leaving the others in `*s`.
fn take<'a, T>(s: &mut &'a mut [T], n: usize, back: bool) -> &'a mut [T] {
    let len = s.len();
    let (front, rest) = std::mem::take(s).split_at_mut(if back { len - n } else { n });
    let (taken, left) = if back { (rest, front) } else { (front, rest) };
    *s = left;
    taken
}

/// `take` for an array of copies, which is empty when there are none.
fn take_copies<'a, T>(s: &mut &'a mut [T], n: usize, back: bool) -> &'a mut [T] {
    let n = if s.is_empty() { 0 } else { n };
    take(s, n, back)
}

impl<'a, G: Game, T> Piece for Chunk<'a, G, T> {
    fn len(&self) -> usize {
        self.slots.len()
    }

    fn take(&mut self, n: usize, back: bool) -> Chunk<'a, G, T> {
        let (o, a) = (G::obs_size(), G::NUM_ACTIONS);
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
            obs_copy: take_copies(&mut self.obs_copy, n * o, back),
            masks_copy: take_copies(&mut self.masks_copy, n * a, back),
            kept: self.kept,
            simd: self.simd,
        }
    }
}

impl<G: Observes<T>, T: ObsValue> Chunk<'_, G, T> {
    /// Steps the chunk's environments, adding those whose episode ended to `ends`; with
    /// `prefetch`, asking for each next environment's slot and rows while stepping one.
    pub(crate) fn step(&mut self, cfg: &Config<G>, autoreset: Autoreset, prefetch: bool, ends: &mut Ends) {
        let (o, a) = (G::obs_size(), G::NUM_ACTIONS);
        let (simd, kept, n) = (self.simd, self.kept, self.slots.len());
        let (slots_at, obs_at, masks_at) = (self.slots.as_ptr(), self.obs.as_ptr(), self.masks.as_ptr());
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
            if prefetch && k + 1 < n {
                // Addresses only (a prefetch reads nothing): no pointer is dereferenced.
                prefetch::lines(slots_at.wrapping_add(k + 1), std::mem::size_of::<Slot<G>>());
                prefetch::lines(obs_at.wrapping_add((k + 1) * o), o * std::mem::size_of::<T>());
                prefetch::lines(masks_at.wrapping_add((k + 1) * a), a);
            }
            let t = if slot.done() {
                // Validated by Engine::step: only NextStep lets a finished environment
                // through; it starts a new episode (reward 0, no flags) and ignores the action.
                // New episodes may start from the configuration's start states.
                slot.start_episode(cfg).expect("the constructor's setup is valid");
                Transition::NOTHING
            } else {
                let t = slot.step(cfg, action).expect("actions are validated before stepping");
                if t.terminated && autoreset == Autoreset::SameStep {
                    slot.write_observation(final_obs);
                    slot.start_episode(cfg).expect("the constructor's setup is valid");
                }
                t
            };
            let code = t.outcome.map_or(NO_OUTCOME, G::outcome_code);
            if t.terminated {
                // Episodes end on few steps: the list spares the caller a pass over every
                // environment's flags (`Engine::ended`). `Engine::new` caps the batch at
                // `u32::MAX` environments.
                ends.envs.push(((self.first + k) as u32, code));
                ends.illegal += t.illegal as usize;
            }
            *reward = t.reward as f32;
            *terminated = t.terminated;
            *truncated = false;
            *outcome = code;
            *illegal = t.illegal;
            slot.update_observation(simd, obs, kept);
            slot.write_mask_row(simd, mask, autoreset == Autoreset::NextStep);
            *presampled = presample(slot);
            // The copies from the rows just written (in this core's cache): no second pass over
            // the batch, and shared by the threads.
            if !self.obs_copy.is_empty() {
                self.obs_copy[k * o..(k + 1) * o].copy_from_slice(obs);
                self.masks_copy[k * a..(k + 1) * a].copy_from_slice(mask);
            }
        }
    }
}

/// An environment's index and outcome code in a thread's list of ended episodes (`Ends`).
pub(crate) type Ended = (u32, i8);

/// The bytes per environment of each thread's list of ended episodes (room for all: the step
/// never allocates).
pub const ENDED_BYTES_PER_THREAD: usize = std::mem::size_of::<Ended>();

/// The environments whose episode ended on a step, as one thread found them, on cache lines of
/// its own (each thread writes its own during the step).
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Ends {
    /// Each environment's index and outcome code (as in `Outputs::outcomes`): the caller reads
    /// them from here, not from rows written on other cores.
    pub(crate) envs: Vec<Ended>,
    /// How many of them ended on an illegal action.
    pub(crate) illegal: usize,
    /// How many environments of its own share the thread stepped, and in how long
    /// (`Balance::measured`).
    pub(crate) own: (usize, std::time::Duration),
}
