//! D1 `network` and `network_search`: a trained network over a side's observation (the shared
//! MLP and weight file of `crate::nn`, tied to Maurice's compact observation layout by its
//! fingerprint), alone or guiding the search. Both read only the observation and the mask (D3),
//! for either side. The network reads the compact observation — the state and the unit table,
//! the leading 1084 values of the full one — not the 15 map planes: an MLP over the planes'
//! 20,250 values would cost a search leaf ~20 times as much, and the unit table already holds
//! every unit's cell, facing, terrain and distances (docs/maurice_training.md has the numbers).
//!
//! The network the levels play is registered once per process ([`set_network`]; the Python
//! package registers its shipped `maurice/networks/maurice.safetensors`).

use super::search::{Guide, SearchAgent};
use crate::maurice::action::Mask;
use crate::maurice::ids::{Side, COMPACT_OBSERVATION_SIZE, NUM_ACTIONS};
use crate::maurice::observation::{observation_layout, write_observation, ObservationKind};
use crate::maurice::state::State;
use crate::nn::player::Player;

/// A Maurice network (`maquis-net-v1`, `observation` = [`observation_fingerprint`]).
pub type Network = crate::nn::Network<MauriceNet>;

/// `maurice-obs1084-a1447-<hash of the compact observation layout>`.
pub fn observation_fingerprint() -> String {
    crate::nn::layout_fingerprint(
        "maurice-",
        observation_layout(ObservationKind::Compact),
        COMPACT_OBSERVATION_SIZE,
        NUM_ACTIONS,
    )
}

crate::registered_network!(
    /// Maurice Lite for the shared network: the compact observation's size and fingerprint.
    MauriceNet,
    obs: COMPACT_OBSERVATION_SIZE,
    actions: NUM_ACTIONS,
    fingerprint: observation_fingerprint,
    missing: "a trained Maurice Lite network, and none is loaded (maquis.maurice ships \
              maurice/networks/maurice.safetensors; maquis.maurice.agents.load_network(path) loads another)",
    mask: Mask,
    /// Network-guided search: D1 `search` with the network in the heuristic's place where it
    /// searches — its choice the default a candidate must beat, its next best legal actions and
    /// the heuristic's choice compared first — and the network's value of the position a playout
    /// ends in (from the searching side's compact observation) mixed into the playout's score
    /// (`LEAF_NETWORK`): the learned value has seen games run down to nightfall, which a
    /// one-round playout cannot. The heuristic plays the other decisions, as in `search`. A pure
    /// function of the observation and its stream, as `search` is.
    search: SearchAgent
);

/// The network's input row of an observation, full or compact: its leading compact part.
fn input(obs: &[f32]) -> &[f32] {
    &obs[..COMPACT_OBSERVATION_SIZE.min(obs.len())]
}

impl NetworkAgent {
    /// The legal action with the highest logit, from the full or the compact observation (the
    /// only one, without evaluating, when one is legal).
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if mask.count() == 1 {
            return mask.iter().next().unwrap_or(0);
        }
        self.0.best(input(obs), mask.iter())
    }
}

/// The share of the network's value in the score of a playout that ends before the game does;
/// the rest is the search's own `value` (morale, DISR, ground to cover).
pub const LEAF_NETWORK: f32 = 0.5;
/// The network's candidates per searched decision (of `search::MAX_ARMS`).
pub const NETWORK_CANDIDATES: usize = 4;

/// The network as the search's guide, with a buffer for the leaves' observations.
struct NetworkGuide<'a> {
    player: &'a mut Player<MauriceNet>,
    leaf_obs: Vec<f32>,
}

impl Guide for NetworkGuide<'_> {
    fn ranked(&mut self, obs: &[f32], mask: &Mask) -> Vec<usize> {
        let mut first = self.player.ranked(input(obs), mask.iter());
        first.truncate(NETWORK_CANDIDATES);
        first
    }

    fn leaf(&mut self, s: &State, me: Side, searched: f32) -> f32 {
        self.leaf_obs.resize(COMPACT_OBSERVATION_SIZE, 0.0);
        write_observation(s, me, &mut self.leaf_obs);
        let (_, v) = self.player.evaluate(&self.leaf_obs);
        LEAF_NETWORK * v + (1.0 - LEAF_NETWORK) * searched
    }
}

impl NetworkSearchAgent {
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        let mut guide = NetworkGuide { player: &mut self.net.0, leaf_obs: Vec::new() };
        self.search.act_guided(obs, mask, &mut guide)
    }
}
