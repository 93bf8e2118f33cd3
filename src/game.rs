//! The small trait every game implements, so that the environment contract (`env/`) and the
//! batch engine (`vector/`) are written once (as Pgx's `Game`, OpenSpiel's `Game`/`State`): a new
//! game from a setup and a seed, the legal actions, apply, observe into a slice, the outcome and
//! its reward, save and load.
//!
//! Every method is an associated function over the game's own types, and the engine is generic
//! over `G: Game` (monomorphised, no `dyn`): the hot path of a step compiles to the same code as
//! a game-specific engine would. A game played against a bundled opponent (D-Day 1944: the
//! learner plays one side) lets the opponent move inside `apply_legal`, so that the state handed
//! back is always one where the learner decides.

use crate::error::{Error, Result};
use crate::simd::Simd;
use rand_chacha::ChaCha8Rng;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// A game as the environment machinery sees it.
/// The implementing type is a marker (`struct Maquis;`): the game is its associated types and
/// functions. It derives the usual traits so that types generic over it can derive them too.
pub trait Game: Copy + Debug + Default + PartialEq + Send + Sync + 'static {
    /// The short name of the game, which also names its environment snapshots (`<name>-env`).
    const NAME: &'static str;
    /// The number of distinct actions (the length of a mask row).
    const NUM_ACTIONS: usize;

    /// Everything that decides a new game besides its seed (the ruleset of an episode).
    type Setup: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// A game in progress. Carries its own randomness, so that it replays from a save.
    type State: Clone + Debug + PartialEq + Send + Sync;
    /// A decoded action index.
    type Action: Copy;
    /// The legal actions of a state, as a bit set.
    type Mask: Clone + Debug + Default + PartialEq + Send + Sync;
    /// How a finished game ended (Maquis: win, major win, draw, loss; D-Day: win, draw, loss).
    type Outcome: Copy + Debug + PartialEq + Send + Sync;
    /// What a finished episode is worth to the learner (an outcome table, a margin, ...).
    type Rewards: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What the observation in a row was last written from, for games that rewrite only what
    /// changed (`update_observation`); `()` for games that always write it whole.
    type Written: Copy + Debug + PartialEq + Send + Sync;

    /// The number of floats of one observation row.
    fn obs_size() -> usize;

    /// Checks that `setup` makes a game (ids, options and overrides agree).
    fn check_setup(setup: &Self::Setup) -> Result<()>;
    /// A new game of `setup` with `seed`, written over `out`; on error `out` is unchanged.
    fn new_game_into(setup: &Self::Setup, seed: u64, out: &mut Self::State) -> Result<()>;
    /// A placeholder state for an environment waiting for its first reset.
    fn placeholder() -> Self::State;

    /// The action with this index, or why there is none (out of range).
    fn decode(action: i64) -> Result<Self::Action>;
    /// The legal actions of `s` (empty once the game is over).
    fn legal_mask(s: &Self::State) -> Self::Mask;
    /// Whether action `i` is in `mask`.
    fn is_legal(mask: &Self::Mask, i: usize) -> bool;
    /// Applies an action the mask allows.
    fn apply_legal(s: &mut Self::State, a: Self::Action);
    /// `apply_legal`, then the legal actions of the state it leaves: a game whose rules work out
    /// that mask on the way may hand it over instead of computing it a second time.
    #[inline]
    fn apply_legal_mask(s: &mut Self::State, a: Self::Action) -> Self::Mask {
        Self::apply_legal(s, a);
        Self::legal_mask(s)
    }
    /// Why `action` cannot be applied to `s` (naming the action, the phase and why); `s` is
    /// unchanged.
    fn refusal(s: &Self::State, action: i64) -> Error;
    /// A uniformly random action of `mask` (None if it is empty).
    fn sample(mask: &Self::Mask, rng: &mut ChaCha8Rng) -> Option<usize>;

    /// Whether the game is over (it then has an outcome).
    fn is_over(s: &Self::State) -> bool;
    /// How the game ended, once it is over.
    fn outcome(s: &Self::State) -> Option<Self::Outcome>;
    /// The outcome an illegal action ends the episode with (`IllegalPolicy::Terminate`).
    fn illegal_outcome() -> Self::Outcome;
    /// The outcome's code in the `outcomes` output (its index in the game's outcome names).
    fn outcome_code(o: Self::Outcome) -> i8;
    /// The reward of the step that ends the episode with `outcome` in state `s` (every other step
    /// gives 0). `illegal`: the episode ended on an illegal action, `s` is the game before it.
    fn terminal_reward(rewards: &Self::Rewards, s: &Self::State, outcome: Self::Outcome, illegal: bool) -> f64;

    /// Writes the whole observation of `s` into `out` (`obs_size()` floats).
    fn write_observation(s: &Self::State, out: &mut [f32]);
    /// `written` for a row that holds nothing this game wrote: the next update writes it whole.
    const NOTHING_WRITTEN: Self::Written;
    /// Writes into `row` what may have changed since it was written from `written` (everything
    /// after `NOTHING_WRITTEN`), and records what it now holds. The default writes it whole.
    #[inline]
    fn update_observation(simd: Simd, s: &Self::State, row: &mut [f32], written: &mut Self::Written) {
        let _ = (simd, written);
        Self::write_observation(s, row);
    }
    /// Writes `mask` as bytes 0 and 1 into `out` (`NUM_ACTIONS` of them).
    fn write_mask_bytes(simd: Simd, mask: &Self::Mask, out: &mut [u8]);

    /// The state as a JSON save, and back (the error names what is wrong).
    fn save(s: &Self::State) -> String;
    fn load(json: &str) -> Result<Self::State>;

    /// The terms of the game's shaping potential (`env::Shaping`), each with its name and its
    /// default weight; empty (the default): the game offers no shaping.
    const POTENTIAL_TERMS: &'static [(&'static str, f64)] = &[];
    /// The value of each of `POTENTIAL_TERMS` in `s`, a game not over, into `out` (one per term).
    #[inline]
    fn potential_terms(s: &Self::State, out: &mut [f64]) {
        let _ = (s, out);
    }
    /// Redraws from `rng` what the player of `s` cannot see (hidden order, the game's own RNG),
    /// consistently with what it has seen, for starting an episode from a saved state
    /// (`env::StartStates`) without replaying that game's future. The default refuses: a game
    /// that cannot do this offers no start-state curricula.
    fn redraw_hidden(s: &mut Self::State, rng: &mut ChaCha8Rng) -> Result<()> {
        let _ = (s, rng);
        Err(Error::BadOption(format!("{} has no start-state curricula", Self::NAME)))
    }
}
