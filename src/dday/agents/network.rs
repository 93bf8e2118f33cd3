//! D1 `network` and `network_search`: a trained network over a side's observation (the shared
//! MLP and weight file of `crate::nn`, tied to D-Day's observation layout by its fingerprint),
//! alone or guiding the search. Both read only the observation and the mask (D3), for either
//! side (the observation says which side it is).
//!
//! The network the levels play is registered once per process ([`set_network`]; the Python
//! package registers its shipped `dday/networks/dday.safetensors`), so that environments, saves and
//! agents built by id all find it; building a level with none registered is a clear error.

use super::search::SearchAgent;
use crate::dday::action::{Mask, NUM_ACTIONS};
use crate::dday::observation::{observation_layout, OBSERVATION_SIZE};
use std::sync::Arc;

/// A D-Day network (`maquis-net-v1`, `observation` = [`observation_fingerprint`]).
pub type Network = crate::nn::Network<DDayNet>;

/// `dday1944-obs380-a191-<hash of observation_layout()>`: the game's name first, so that a
/// Maquis network offered to D-Day (or the reverse) is refused naming both games' fingerprints.
pub fn observation_fingerprint() -> String {
    crate::nn::layout_fingerprint("dday1944-", observation_layout(), OBSERVATION_SIZE, NUM_ACTIONS)
}

crate::registered_network!(
    /// D-Day for the shared network: its sizes and the fingerprint of its observation layout.
    DDayNet,
    obs: OBSERVATION_SIZE,
    actions: NUM_ACTIONS,
    fingerprint: observation_fingerprint,
    missing: "a trained D-Day network, and none is loaded (maquis.dday ships dday/networks/dday.safetensors; \
              maquis.dday.agents.load_network(path) loads another)",
    mask: Mask,
    /// Network-guided search: D1 `search` with the network in the heuristic's place as the player:
    /// the network's choice is played where the search does not search (the German's allocation
    /// included: the search's plans hold only the heuristic's contents; and the Resistance's guesses
    /// and attack: `intel` weighs every allocation alike) and is the default a candidate must beat
    /// where it does; its next best legal actions and the heuristic's choice are compared first
    /// (before candidates drawn at random). The playouts stay the heuristic's. A pure function of the
    /// observation and its stream, as `search` is.
    search: SearchAgent
);

impl NetworkAgent {
    pub fn network(&self) -> &Arc<Network> {
        self.0.network()
    }

    /// The logits (`NUM_ACTIONS`) and value (win 1, draw ½, loss 0) of an observation.
    pub fn evaluate(&mut self, obs: &[f32]) -> (&[f32], f32) {
        self.0.evaluate(obs)
    }

    /// The legal actions by logit, best first (ties: the lower index).
    pub fn ranked(&mut self, obs: &[f32], mask: &Mask) -> Vec<usize> {
        self.0.ranked(obs, mask.iter())
    }

    /// The legal action with the highest logit (the only one, without evaluating, when one is
    /// legal); `mask` must not be empty.
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        self.0.best(obs, mask.iter())
    }
}

/// The network's candidates per searched decision (of `search::MAX_ARMS`).
pub const NETWORK_CANDIDATES: usize = 4;

impl NetworkSearchAgent {
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        let mut first = self.net.ranked(obs, mask);
        first.truncate(NETWORK_CANDIDATES);
        self.search.act_with_candidates(obs, mask, &first)
    }
}
