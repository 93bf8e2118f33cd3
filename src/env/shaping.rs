//! Potential-based reward shaping (Ng, Harada & Russell 1999): each step's reward gains
//! `F = γ·Φ(s') − Φ(s)`, with `Φ(s) = Σ_k w_k · term_k(s)` over the game's potential terms
//! (`Game::POTENTIAL_TERMS`) and `Φ = 0` once the episode is over. Over an episode the terms
//! telescope, `Σ_t γ^t F_t = −Φ(s_0)`, so for a learner discounting by the same γ the optimal
//! policy is unchanged; the shaping only brings the signal earlier.

use crate::error::{Error, Result};
use crate::game::Game;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The most potential terms a game may have (the weights are a fixed array: no allocation per
/// step).
pub const MAX_TERMS: usize = 8;

/// The discount of `shaping=True`: the usual default of PPO/DQN implementations.
pub const DEFAULT_GAMMA: f64 = 0.99;

/// The discount and the weight of each of the game's potential terms (in `POTENTIAL_TERMS`
/// order; unused entries 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shaping {
    pub gamma: f64,
    pub weights: [f64; MAX_TERMS],
}

impl Shaping {
    /// The game's default weights with `DEFAULT_GAMMA`.
    pub fn default_for<G: Game>() -> Result<Shaping> {
        if G::POTENTIAL_TERMS.is_empty() {
            return Err(Error::BadOption(format!("shaping: {} has no shaping potential", G::NAME)));
        }
        assert!(G::POTENTIAL_TERMS.len() <= MAX_TERMS, "at most {MAX_TERMS} potential terms");
        let mut weights = [0.0; MAX_TERMS];
        for (w, &(_, d)) in weights.iter_mut().zip(G::POTENTIAL_TERMS) {
            *w = d;
        }
        Ok(Shaping { gamma: DEFAULT_GAMMA, weights })
    }

    /// From the keyword's JSON: `{"gamma": γ, "weights": {term: w}}`, both optional (terms left
    /// out keep their default weight). γ must be in (0, 1], weights finite; unknown keys and
    /// terms are errors naming the known ones.
    pub fn from_json<G: Game>(json: &str) -> Result<Shaping> {
        let bad = |msg: String| Error::BadOption(format!("shaping: {msg}"));
        let mut sh = Shaping::default_for::<G>()?;
        let names: Vec<&str> = G::POTENTIAL_TERMS.iter().map(|&(n, _)| n).collect();
        let v: Value = serde_json::from_str(json).map_err(|e| bad(e.to_string()))?;
        let Value::Object(map) = v else {
            return Err(bad(format!("expected a dict with 'gamma' and/or 'weights', got {v}")));
        };
        for (key, value) in &map {
            match key.as_str() {
                "gamma" => {
                    let g = value.as_f64().ok_or_else(|| bad(format!("gamma must be a number, got {value}")))?;
                    if !(g > 0.0 && g <= 1.0) {
                        return Err(bad(format!("gamma must be in (0, 1], got {g}")));
                    }
                    sh.gamma = g;
                }
                "weights" => {
                    let Value::Object(ws) = value else {
                        return Err(bad(format!("weights must be a dict term -> float, got {value}")));
                    };
                    sh.set_weights::<G>(ws, &names)?;
                }
                other => return Err(bad(format!("unknown key '{other}' (expected 'gamma' and/or 'weights')"))),
            }
        }
        Ok(sh)
    }

    fn set_weights<G: Game>(&mut self, ws: &Map<String, Value>, names: &[&str]) -> Result<()> {
        for (term, w) in ws {
            let k = names.iter().position(|n| n == term).ok_or_else(|| {
                Error::BadOption(format!(
                    "shaping: unknown potential term '{term}' of {} (expected one of {})",
                    G::NAME,
                    names.join(", ")
                ))
            })?;
            let x = w.as_f64().filter(|x| x.is_finite()).ok_or_else(|| {
                Error::BadOption(format!("shaping: weight of '{term}' must be a finite number, got {w}"))
            })?;
            self.weights[k] = x;
        }
        Ok(())
    }

    /// Φ(s): the weighted sum of the game's potential terms, 0 once the episode is `over`.
    #[inline]
    pub fn potential<G: Game>(&self, s: &G::State, over: bool) -> f64 {
        if over {
            return 0.0;
        }
        let n = G::POTENTIAL_TERMS.len();
        let mut terms = [0.0; MAX_TERMS];
        G::potential_terms(s, &mut terms[..n]);
        terms[..n].iter().zip(&self.weights[..n]).map(|(t, w)| t * w).sum()
    }

    /// The keyword's value back as JSON (`{"gamma": γ, "weights": {term: w}}`).
    pub fn to_json<G: Game>(&self) -> Value {
        let weights: Map<String, Value> =
            G::POTENTIAL_TERMS.iter().zip(self.weights).map(|(&(n, _), w)| (n.to_string(), Value::from(w))).collect();
        serde_json::json!({"gamma": self.gamma, "weights": weights})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Config, IllegalPolicy, Slot};
    use crate::maquis::env::{Maquis, Rewards};
    use crate::maquis::rules::Setup;

    fn cfg(shaping: Option<Shaping>) -> Config<Maquis> {
        let mut c = Config::new(Setup::default(), Rewards::default(), IllegalPolicy::Terminate).unwrap();
        c.shaping = shaping;
        c
    }

    #[test]
    fn shaping_terms_telescope_over_random_episodes() {
        for gamma in [0.9, 0.99, 1.0] {
            let sh = Shaping::from_json::<Maquis>(&format!("{{\"gamma\": {gamma}}}")).unwrap();
            let (on, off) = (cfg(Some(sh)), cfg(None));
            for seed in 0..20 {
                let (mut a, mut b) = (Slot::<Maquis>::new(seed), Slot::<Maquis>::new(seed));
                a.reset(&on.setup).unwrap();
                b.reset(&off.setup).unwrap();
                let phi0 = sh.potential::<Maquis>(a.state(), false);
                let (mut sum, mut disc) = (0.0, 1.0);
                while !a.done() {
                    let act = a.sample().unwrap() as i64;
                    assert_eq!(b.sample().unwrap() as i64, act);
                    let (ta, tb) = (a.step(&on, act).unwrap(), b.step(&off, act).unwrap());
                    assert_eq!(tb.shaping, 0.0);
                    assert!((ta.reward - ta.shaping - tb.reward).abs() < 1e-12);
                    sum += disc * ta.shaping;
                    disc *= gamma;
                }
                assert!(phi0 > 0.0 && (sum + phi0).abs() < 1e-9, "gamma {gamma}: {sum} vs -{phi0}");
            }
        }
    }

    #[test]
    fn an_illegal_action_ends_the_episode_with_minus_phi() {
        let sh = Shaping::default_for::<Maquis>().unwrap();
        let c = cfg(Some(sh));
        let mut s = Slot::<Maquis>::new(3);
        s.reset(&c.setup).unwrap();
        let phi = sh.potential::<Maquis>(s.state(), false);
        let illegal = (0..Maquis::NUM_ACTIONS).find(|&i| !s.mask().get(i)).unwrap() as i64;
        let t = s.step(&c, illegal).unwrap();
        assert!(t.illegal && (t.shaping + phi).abs() < 1e-12 && (t.reward - (-1.0 - phi)).abs() < 1e-12);
    }

    #[test]
    fn bad_shaping_is_refused_with_its_reason() {
        for (json, want) in [
            ("{\"gamma\": 0}", "gamma must be in (0, 1]"),
            ("{\"gamma\": 1.01}", "gamma must be in (0, 1]"),
            ("{\"weights\": {\"luck\": 1}}", "unknown potential term 'luck'"),
            ("{\"weights\": {\"hand\": \"x\"}}", "weight of 'hand' must be a finite number"),
            ("{\"other\": 1}", "unknown key 'other'"),
            ("[1]", "expected a dict"),
        ] {
            let e = Shaping::from_json::<Maquis>(json).unwrap_err().to_string();
            assert!(e.contains(want), "{json}: {e}");
        }
        let w = Shaping::from_json::<Maquis>("{\"weights\": {\"hand\": 0.5}}").unwrap();
        assert_eq!(w.gamma, DEFAULT_GAMMA);
        assert_eq!(&w.weights[..4], &[1.0, 0.5, 0.2, 0.2]);
    }
}
