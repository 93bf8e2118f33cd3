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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Config, IllegalPolicy, Slot};
    use crate::maquis::env::{Maquis, Rewards};
    use crate::maquis::rules::{new_game, Setup};

    /// A game in progress: `steps` random decisions into the game of `seed`.
    fn midgame(seed: u64, steps: usize) -> <Maquis as Game>::State {
        let c = Config::<Maquis>::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap();
        let mut s = Slot::<Maquis>::new(seed);
        s.reset(&c.setup).unwrap();
        for _ in 0..steps {
            let a = s.sample().unwrap() as i64;
            s.step(&c, a).unwrap();
            if s.done() {
                s.reset(&c.setup).unwrap();
            }
        }
        s.state().clone()
    }

    #[test]
    fn draws_depend_on_the_seed_only_and_redraw_the_deck() {
        let saved = midgame(1, 12);
        let pool = StartStates::<Maquis>::new(vec![saved.clone()], None, 1.0).unwrap();
        let (a, b) = (pool.draw(5).unwrap(), pool.draw(5).unwrap());
        assert_eq!(a, b);
        let orders: std::collections::HashSet<_> = (0..20).map(|k| pool.draw(k).unwrap().deck.deck().to_vec()).collect();
        assert!(orders.len() > 1 || saved.deck.deck().len() <= 1);
        // what the player sees is kept
        let (mut x, mut y) = (vec![0.0; Maquis::obs_size()], vec![0.0; Maquis::obs_size()]);
        Maquis::write_observation(&a, &mut x);
        Maquis::write_observation(&saved, &mut y);
        assert_eq!(x, y);
    }

    #[test]
    fn probability_zero_never_draws_and_weights_pick() {
        let states = vec![midgame(1, 5), midgame(2, 9)];
        let mut pool = StartStates::<Maquis>::new(states.clone(), Some(vec![0.0, 1.0]), 0.0).unwrap();
        assert!((0..100).all(|k| pool.draw(k).is_none()));
        pool.set_probability(1.0).unwrap();
        // weight 0: never the first state (told apart by the pawns on the board and the discard)
        let seen = |s: &<Maquis as Game>::State| (s.pawns, s.deck.discard().to_vec());
        assert_ne!(seen(&states[0]), seen(&states[1]));
        assert!((0..100).all(|k| seen(&pool.draw(k).unwrap()) == seen(&states[1])));
        assert!(pool.set_probability(-0.1).is_err());
    }

    #[test]
    fn bad_pools_name_the_state() {
        let mut over = new_game(&Setup::default(), 0).unwrap();
        over.phase = crate::maquis::ids::Phase::GameOver;
        let e = StartStates::<Maquis>::new(vec![midgame(1, 3), over], None, 0.5).unwrap_err().to_string();
        assert!(e.contains("state 1 is a finished game"), "{e}");
        let e = StartStates::<Maquis>::new(vec![midgame(1, 3)], Some(vec![f64::NAN]), 0.5).unwrap_err().to_string();
        assert!(e.contains("weight 0"), "{e}");
        assert!(StartStates::<Maquis>::new(vec![], None, 0.5).is_err());
        // a game that cannot redraw its hidden information has no curricula
        let d = <crate::dday::env::DDay as Game>::placeholder();
        let e = StartStates::<crate::dday::env::DDay>::new(vec![d], None, 0.5).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("no start-state curricula"), "{e}");
    }
}
