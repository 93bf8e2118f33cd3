//! D1 `network` and `network_search`: a trained network over a side's observation (the shared
//! MLP and weight file of `crate::nn`, tied to D-Day's observation layout by its fingerprint),
//! alone or guiding the search. Both read only the observation and the mask (D3), for either
//! side (the observation says which side it is).
//!
//! The network the levels play is registered once per process ([`set_network`]; the Python
//! package registers its shipped `dday/networks/dday.safetensors`), so that environments, saves and
//! agents built by id all find it; building a level with none registered is a clear error.

use super::relabel::Relabel;
use super::search::SearchAgent;
use crate::dday::action::{Mask, NUM_ACTIONS};
use serde::{Deserialize, Serialize};
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
        let ranked = self.net.ranked(obs, mask);
        search_from(&mut self.search, obs, mask, ranked)
    }
}

/// The search's action with the network's best `NETWORK_CANDIDATES` of `ranked` (legal actions,
/// best first, in the game's zones) as its default and first candidates.
fn search_from(search: &mut SearchAgent, obs: &[f32], mask: &Mask, mut ranked: Vec<usize>) -> usize {
    ranked.truncate(NETWORK_CANDIDATES);
    search.act_with_candidates(obs, mask, &ranked)
}

/// The `network` level: the network alone, its Resistance playing each game under a relabelling
/// of the zones drawn from its seed (`relabel`) and sampling its policy (`RESISTANCE_TEMPERATURE`;
/// the German plays the best logit). Saved as the network agent plus `relabel`; a save from before the
/// relabelling loads with the relabelling of seed 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelabelledNetwork {
    #[serde(flatten)]
    net: NetworkAgent,
    #[serde(default = "unsaved_relabel")]
    relabel: Relabel,
}

/// The `network_search` level: `NetworkSearchAgent` with its Resistance's candidates ranked under
/// the game's relabelling (the search works in the game's own zones). Saved as
/// `NetworkSearchAgent` plus `relabel`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelabelledNetworkSearch {
    #[serde(rename = "network")]
    net: NetworkAgent,
    search: SearchAgent,
    #[serde(default = "unsaved_relabel")]
    relabel: Relabel,
}

fn unsaved_relabel() -> Relabel {
    Relabel::new(0)
}

impl RelabelledNetwork {
    pub fn new(net: Arc<Network>, seed: u64) -> RelabelledNetwork {
        RelabelledNetwork { net: NetworkAgent::new(net), relabel: Relabel::new(seed) }
    }

    pub fn network(&self) -> &Arc<Network> {
        self.net.network()
    }

    /// The German: the network's legal action with the highest logit. The Resistance: an action
    /// drawn from the network's policy under this game's labels, mapped back to the game's zones.
    /// `mask` must not be empty.
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        if !self.relabel.relabels(obs) {
            return self.net.act(obs, mask);
        }
        let u = self.relabel.uniform(obs);
        let a = self.net.0.sample(&self.relabel.observation(obs), self.relabel.mask(mask).iter(), RESISTANCE_TEMPERATURE, u);
        self.relabel.unlabel(a)
    }
}

/// The temperature of the `network` level's Resistance, which samples its policy instead of
/// playing its best logit: against a deterministic Resistance a learning German finds the reading
/// of the interrogation it always gets wrong. A fresh exploiter (masked PPO from scratch, 400,000
/// steps) wins 49.7 % against it on average over 32 seeds, 53.7–62.3 % against the greedy one
/// (3 seeds), and 49.6 % at temperature 1 (16 seeds); against the heuristic German it wins 61.9 %
/// of 2,000 games, greedy 62.9 %, at temperature 1 61.5 % (docs/dday_training.md).
pub const RESISTANCE_TEMPERATURE: f32 = 0.5;

impl RelabelledNetworkSearch {
    pub fn new(net: Arc<Network>, budget: u32, seed: u64) -> RelabelledNetworkSearch {
        RelabelledNetworkSearch::of(NetworkSearchAgent::new(net, budget, seed), seed)
    }

    fn of(agent: NetworkSearchAgent, seed: u64) -> RelabelledNetworkSearch {
        let NetworkSearchAgent { net, search } = agent;
        RelabelledNetworkSearch { net, search, relabel: Relabel::new(seed) }
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        let ranked = if self.relabel.relabels(obs) {
            let ranked = self.net.ranked(&self.relabel.observation(obs), &self.relabel.mask(mask));
            ranked.into_iter().take(NETWORK_CANDIDATES).map(|a| self.relabel.unlabel(a)).collect()
        } else {
            self.net.ranked(obs, mask)
        };
        search_from(&mut self.search, obs, mask, ranked)
    }
}

impl crate::env::opponents::Agent<Mask> for RelabelledNetwork {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        RelabelledNetwork::act(self, obs, mask)
    }
}

impl crate::env::opponents::Agent<Mask> for RelabelledNetworkSearch {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        RelabelledNetworkSearch::act(self, obs, mask)
    }
}

impl crate::env::opponents::NetLevel for RelabelledNetwork {
    fn with_seed(_budget: u32, seed: u64) -> crate::error::Result<RelabelledNetwork> {
        Ok(RelabelledNetwork { net: NetworkAgent::registered()?, relabel: Relabel::new(seed) })
    }
}

impl crate::env::opponents::NetLevel for RelabelledNetworkSearch {
    fn with_seed(budget: u32, seed: u64) -> crate::error::Result<RelabelledNetworkSearch> {
        Ok(RelabelledNetworkSearch::of(NetworkSearchAgent::registered(budget, seed)?, seed))
    }
}

impl crate::nn::player::WithNetwork<DDayNet> for RelabelledNetwork {
    fn with_network(net: Arc<Network>, _budget: u32, seed: u64) -> RelabelledNetwork {
        RelabelledNetwork::new(net, seed)
    }
}

impl crate::nn::player::WithNetwork<DDayNet> for RelabelledNetworkSearch {
    fn with_network(net: Arc<Network>, budget: u32, seed: u64) -> RelabelledNetworkSearch {
        RelabelledNetworkSearch::new(net, budget, seed)
    }
}
