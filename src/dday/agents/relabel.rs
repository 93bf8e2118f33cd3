//! The network levels' relabelling of the zones. D-Day's five zones are interchangeable: their
//! numbers only order the observation and the actions (RULES Z1). A network breaks ties between
//! zones that look alike the same way in every game, and a German exploits that by putting what
//! it guards where that Resistance never attacks (a PPO German from scratch won 68–73 % against
//! the network's Resistance at 400,000 learner steps, 41 % once relabelled). So the network levels
//! play each game under a relabelling drawn from their own stream: a mixed strategy over the
//! labels, as AlphaZero evaluates under a random symmetry. Only the Resistance is relabelled
//! (`Relabel::relabels`). `Relabel::uniform` gives the `network` level's Resistance the draws of
//! its sampled policy.

use super::view::View;
use crate::dday::action::{decode, Action, Mask};
use crate::dday::ids::{Phase, Side, Zone};
use crate::dday::observation::observation_layout;
use crate::draw;
use crate::draw::splitmix64;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A relabelling of the zones: the `games`-th drawn from `seed` (each from its own stream, so
/// that a save holds two counters, not a stream's state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, try_from = "Saved")]
pub struct Relabel {
    seed: u64,
    games: u64,
    /// `to[z]`: zone `z`'s label in the network's view this game.
    to: [u8; 5],
}

/// A saved relabelling, checked to be a permutation of the five zones when loaded.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    seed: u64,
    games: u64,
    to: [u8; 5],
}

impl TryFrom<Saved> for Relabel {
    type Error = String;
    fn try_from(s: Saved) -> Result<Relabel, String> {
        let mut seen = [false; 5];
        for &t in &s.to {
            if t > 4 || std::mem::replace(&mut seen[t as usize], true) {
                return Err(format!("relabel.to must be a permutation of 0..5, got {:?}", s.to));
            }
        }
        Ok(Relabel { seed: s.seed, games: s.games, to: s.to })
    }
}

/// Keeps the relabelling streams apart from a search's stream of the same seed.
const STREAM: u64 = 0x7a6f_6e65_735f_7265;

/// The observation's zone-indexed blocks: (offset, values per zone, repeats, stride of a repeat).
fn zone_blocks() -> &'static [(usize, usize, usize, usize)] {
    static BLOCKS: OnceLock<Vec<(usize, usize, usize, usize)>> = OnceLock::new();
    BLOCKS.get_or_init(|| {
        let at = |name: &str| {
            observation_layout().iter().find(|(n, _, _)| *n == name).map(|&(_, o, _)| o).expect("a D-Day observation field")
        };
        vec![
            (at("allocation"), 5, 1, 0),
            (at("allocation_known"), 1, 1, 0),
            // 7 rows of [zone one-hot (5), value, three answers].
            (at("interrogation"), 1, 7, 9),
            (at("zone_open"), 1, 1, 0),
            (at("value_bounds"), 2, 1, 0),
            (at("attacked"), 1, 1, 0),
            // The first zone's one-hot, then the second's.
            (at("play_order"), 1, 2, 5),
        ]
    })
}

impl Relabel {
    /// A relabelling drawn from a stream of `seed`.
    pub fn new(seed: u64) -> Relabel {
        let mut r = Relabel { seed, games: 0, to: [0, 1, 2, 3, 4] };
        r.draw();
        r
    }

    fn draw(&mut self) {
        let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(self.seed ^ STREAM).wrapping_add(self.games));
        self.games += 1;
        let mut to = [0u8, 1, 2, 3, 4];
        draw::shuffle(&mut rng, &mut to);
        self.to = to;
    }

    /// Whether the decision of `obs` is played under the relabelling: the Resistance's are (a new
    /// relabelling drawn at its untouched interrogation; a game set up past it goes on with the
    /// one drawn last). The German's are not: the network enters his allocation in the zones'
    /// order (G2), which a relabelling scrambles (relabelled, its German won 45.5 % of 2,000
    /// games against the heuristic Resistance instead of 51.5 %).
    pub fn relabels(&mut self, obs: &[f32]) -> bool {
        let (me, phase) = View::seat_and_phase(obs);
        if me != Side::Resistance {
            return false;
        }
        if phase == Phase::Interrogation && View::no_guess_yet(obs) {
            self.draw();
        }
        true
    }

    /// A uniform draw in [0, 1) for the decision of `obs`: a hash of this game's relabelling
    /// stream and the observation, so that the level stays a pure function of its seed and what
    /// it sees, and a save needs nothing more than the relabelling's counters.
    pub fn uniform(&self, obs: &[f32]) -> f64 {
        let mut h = crate::digest::Fnv::new();
        h.bytes(&self.games.to_le_bytes());
        for x in obs {
            h.bytes(&x.to_le_bytes());
        }
        (splitmix64(h.0 ^ splitmix64(self.seed ^ STREAM)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The observation as the network sees it: every zone-indexed value under its label.
    pub fn observation(&self, obs: &[f32]) -> Vec<f32> {
        let mut out = obs.to_vec();
        for &(offset, width, repeats, stride) in zone_blocks() {
            for r in 0..repeats {
                let base = offset + r * stride;
                for z in 0..5 {
                    let (from, to) = (base + z * width, base + self.to[z] as usize * width);
                    out[to..to + width].copy_from_slice(&obs[from..from + width]);
                }
            }
        }
        out
    }

    /// The legal actions under their labels.
    pub fn mask(&self, mask: &Mask) -> Mask {
        let mut out = Mask::default();
        for a in mask.iter() {
            out.set(self.action(a, &self.to));
        }
        out
    }

    /// The action a network chose under the labels, in the game's zones.
    pub fn unlabel(&self, a: usize) -> usize {
        let mut from = [0u8; 5];
        for (z, &t) in self.to.iter().enumerate() {
            from[t as usize] = z as u8;
        }
        self.action(a, &from)
    }

    /// `a` with each zone `z` it names replaced by `map[z]` (an attack's pair in zone order).
    fn action(&self, a: usize, map: &[u8; 5]) -> usize {
        let m = |z: Zone| Zone::ALL[map[z.idx()] as usize];
        let mapped = match decode(a as i64).expect("a legal action") {
            Action::Allocate(k, z) => Action::Allocate(k, m(z)),
            Action::Guess(z, v) => Action::Guess(m(z), v),
            Action::Attack(x, y) => {
                let (x, y) = (m(x), m(y));
                if x.idx() < y.idx() {
                    Action::Attack(x, y)
                } else {
                    Action::Attack(y, x)
                }
            }
            Action::First(z) => Action::First(m(z)),
            other => other,
        };
        mapped.index().expect("a relabelled action is in the action space")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dday::action::NUM_ACTIONS;

    #[test]
    fn relabelled_actions_come_back_and_masks_keep_their_size() {
        let r = Relabel::new(3);
        let mut all = Mask::default();
        for a in 0..NUM_ACTIONS {
            all.set(a);
        }
        for a in 0..NUM_ACTIONS {
            assert_eq!(r.unlabel(r.action(a, &r.to)), a);
        }
        assert_eq!(r.mask(&all).count() as usize, NUM_ACTIONS);
    }

    #[test]
    fn a_saved_relabelling_must_be_a_permutation() {
        let r = Relabel::new(9);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<Relabel>(&json).unwrap(), r);
        for bad in [r#"{"seed":1,"games":0,"to":[0,1,2,3,5]}"#, r#"{"seed":1,"games":0,"to":[0,1,2,3,3]}"#] {
            let e = serde_json::from_str::<Relabel>(bad).unwrap_err().to_string();
            assert!(e.contains("permutation"), "{e}");
        }
    }
}
