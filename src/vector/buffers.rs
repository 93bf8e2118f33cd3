//! The arrays a step or reset writes: borrowed from the caller (`Outputs`, numpy arrays from
//! Python), or owned (`OutputBuffers`, `ByteBuffers`) for callers without numpy.

use crate::env::NO_OUTCOME;
use crate::game::Game;
use crate::obs_value::ObsValue;

/// The caller-owned arrays a step or reset writes, row `i` for env `i` (C order), the
/// observations as `T` (`f32`, or `u8` for a game that `Observes<u8>`).
pub struct Outputs<'a, T = f32> {
    /// num_envs × the game's observation size
    pub obs: &'a mut [T],
    /// num_envs × the game's number of actions: the legal actions (none for an environment whose episode ended).
    pub masks: &'a mut [bool],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    /// Always false: every game ends by its rules, there is no step limit.
    pub truncated: &'a mut [bool],
    /// The outcome code of the episode that ended this step (`Game::outcome_code`), else
    /// `NO_OUTCOME`.
    pub outcomes: &'a mut [i8],
    /// The episode ended this step on an illegal action.
    pub illegal: &'a mut [bool],
    /// num_envs × the observation size; SameStep only: the last observation of each environment that ended
    /// this step (other rows are left as they were).
    pub final_obs: &'a mut [T],
    /// The caller vouches that the rows of `obs` hold what the engine last wrote into them
    /// (nothing else writes them between calls): a step then rewrites only the parts of each
    /// row that may have changed. The engine also checks that `obs` is the buffer it wrote last
    /// time; if not, or without this, rows are written whole.
    pub obs_kept: bool,
}

impl<T> Outputs<'_, T> {
    /// Panics unless every array has the rows of `n` environments of game `G`.
    pub(crate) fn check<G: Game>(&self, n: usize) {
        let (o, a) = (G::obs_size(), G::NUM_ACTIONS);
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

/// Storage of `RowBuffers`' observation rows: `len` values, zeroed.
pub trait RowStore: std::ops::DerefMut<Target = [Self::Value]> {
    type Value: ObsValue;
    fn zeroed(len: usize) -> Self;
}

impl RowStore for AlignedRows {
    type Value = f32;
    fn zeroed(len: usize) -> AlignedRows {
        AlignedRows::zeros(len)
    }
}

impl<T: ObsValue> RowStore for Vec<T> {
    type Value = T;
    fn zeroed(len: usize) -> Vec<T> {
        vec![T::OFF; len]
    }
}

/// Owned arrays for `Outputs`, for callers without numpy (benchmarks, examples, tests), the rows
/// in `R`: `OutputBuffers` (float32 rows on cache lines) or `ByteBuffers` (uint8 rows).
pub struct RowBuffers<R: RowStore> {
    /// Read through `obs()`: only the engine writes the rows (`out()` vouches for them, see
    /// `Outputs::obs_kept`).
    obs: R,
    pub masks: Vec<bool>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub outcomes: Vec<i8>,
    pub illegal: Vec<bool>,
    pub final_obs: Vec<R::Value>,
}

/// `RowBuffers` of float32 rows, each on a cache line.
pub type OutputBuffers = RowBuffers<AlignedRows>;
/// `RowBuffers` of uint8 rows (a game that `Observes<u8>`).
pub type ByteBuffers = RowBuffers<Vec<u8>>;

impl<R: RowStore> RowBuffers<R> {
    /// Zeroed rows for `n` environments of game `G`.
    pub fn of<G: Game>(n: usize) -> RowBuffers<R> {
        let (o, a) = (G::obs_size(), G::NUM_ACTIONS);
        RowBuffers {
            obs: R::zeroed(n * o),
            masks: vec![false; n * a],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            outcomes: vec![NO_OUTCOME; n],
            illegal: vec![false; n],
            final_obs: vec![R::Value::OFF; n * o],
        }
    }

    /// num_envs × the observation size: the observations the last reset or step wrote.
    pub fn obs(&self) -> &[R::Value] {
        &self.obs
    }

    pub fn out(&mut self) -> Outputs<'_, R::Value> {
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
