//! Start-state curricula: a pool of saved games that episodes may start from instead of a new
//! game. Which episodes do, and which pool state they take, is drawn from the environment's
//! episode stream (the same one draw per episode as a new game's seed), so trajectories stay the
//! same for any thread count; what the player could not see in the saved game (the order of the
//! patrol deck, the game's RNG) is redrawn (`Game::redraw_hidden`), so the episode does not
//! replay that game's future.

use crate::error::{Error, Result};
use crate::game::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The ChaCha stream of an episode seed that decides a start state (stream 0 makes new games).
const START_STREAM: u64 = 7;

/// Validated start states, their weights, and the probability that an episode starts from one.
#[derive(Clone, Debug, PartialEq)]
pub struct StartStates<G: Game> {
    states: Vec<G::State>,
    /// Running sums of the weights (the last one is their total).
    cumulative: Vec<f64>,
    probability: f64,
}

impl<G: Game> StartStates<G> {
    /// A pool of `states` (games not over), drawn in proportion to `weights` (uniformly if None),
    /// used by an episode with `probability`. The errors name the state index at fault.
    pub fn new(states: Vec<G::State>, weights: Option<Vec<f64>>, probability: f64) -> Result<StartStates<G>> {
        let bad = |msg: String| Error::BadOption(format!("start states: {msg}"));
        if states.is_empty() {
            return Err(bad("the pool is empty (pass None to stop the curriculum)".into()));
        }
        check_probability(probability)?;
        let weights = weights.unwrap_or_else(|| vec![1.0; states.len()]);
        if weights.len() != states.len() {
            return Err(bad(format!("{} weights for {} states", weights.len(), states.len())));
        }
        let mut total = 0.0;
        let mut cumulative = Vec::with_capacity(states.len());
        for (i, (s, &w)) in states.iter().zip(&weights).enumerate() {
            if G::is_over(s) {
                return Err(bad(format!("state {i} is a finished game")));
            }
            if !(w.is_finite() && w >= 0.0) {
                return Err(bad(format!("weight {i} must be a finite number ≥ 0, got {w}")));
            }
            // A game that cannot redraw its hidden information has no curricula: refused here.
            G::redraw_hidden(&mut s.clone(), &mut ChaCha8Rng::seed_from_u64(0))
                .map_err(|e| bad(format!("state {i}: {e}")))?;
            total += w;
            cumulative.push(total);
        }
        if total <= 0.0 {
            return Err(bad("the weights sum to 0".into()));
        }
        Ok(StartStates { states, cumulative, probability })
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
    pub fn probability(&self) -> f64 {
        self.probability
    }

    /// The same pool used with another probability.
    pub fn set_probability(&mut self, probability: f64) -> Result<()> {
        check_probability(probability)?;
        self.probability = probability;
        Ok(())
    }

    /// The start of the episode whose seed is `seed`: None (a new game of that seed) with
    /// probability 1 − p, else a pool state with its hidden information redrawn.
    pub fn draw(&self, seed: u64) -> Option<G::State> {
        if self.probability <= 0.0 {
            return None;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(START_STREAM);
        if rng.gen::<f64>() >= self.probability {
            return None;
        }
        let total = *self.cumulative.last().expect("a pool is never empty");
        let x = rng.gen::<f64>() * total;
        // The first state whose running sum exceeds x (zero weights are never drawn).
        let i = self.cumulative.partition_point(|&c| c <= x).min(self.states.len() - 1);
        let mut s = self.states[i].clone();
        G::redraw_hidden(&mut s, &mut rng).expect("checked when the pool was made");
        Some(s)
    }
}

fn check_probability(p: f64) -> Result<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::BadOption(format!("start states: probability must be in [0, 1], got {p}")))
    }
}
