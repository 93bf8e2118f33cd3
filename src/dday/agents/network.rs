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
use crate::error::{Error, Result};
use crate::nn::{NetGame, ObservationOnly, Scratch};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::{Arc, RwLock};

/// D-Day for the shared network: its sizes and the fingerprint of its observation layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DDayNet;

impl NetGame for DDayNet {
    type Inputs = ObservationOnly;
    fn obs_size() -> usize {
        OBSERVATION_SIZE
    }
    fn num_actions() -> usize {
        NUM_ACTIONS
    }
    fn fingerprint() -> String {
        observation_fingerprint()
    }
    fn write_extra(_: ObservationOnly, _: &[f32], _: &mut [f32]) -> Result<()> {
        Ok(())
    }
}

/// A D-Day network (`maquis-net-v1`, `observation` = [`observation_fingerprint`]).
pub type Network = crate::nn::Network<DDayNet>;

/// `dday1944-obs380-a191-<hash of observation_layout()>`: the game's name first, so that a
/// Maquis network offered to D-Day (or the reverse) is refused naming both games' fingerprints.
pub fn observation_fingerprint() -> String {
    crate::nn::layout_fingerprint("dday1944-", observation_layout(), OBSERVATION_SIZE, NUM_ACTIONS)
}

static NETWORK: RwLock<Option<Arc<Network>>> = RwLock::new(None);

/// Makes `net` the network of the `network` and `network_search` levels (agents built before
/// keep theirs).
pub fn set_network(net: Arc<Network>) {
    *NETWORK.write().unwrap_or_else(|e| e.into_inner()) = Some(net);
}

/// The registered network, if any.
pub fn network() -> Option<Arc<Network>> {
    NETWORK.read().unwrap_or_else(|e| e.into_inner()).clone()
}

fn registered(level: &str) -> Result<Arc<Network>> {
    network().ok_or_else(|| {
        Error::BadOption(format!(
            "opponent '{level}' needs a trained D-Day network, and none is loaded (maquis.dday ships \
             dday/networks/dday.safetensors; maquis.dday.agents.load_network(path) loads another)"
        ))
    })
}

/// The network alone: the legal action with the highest logit. It has no stream: the same
/// observation always gets the same action.
#[derive(Clone, Debug)]
pub struct NetworkAgent {
    net: Arc<Network>,
    scratch: Scratch,
    logits: Vec<f32>,
}

impl NetworkAgent {
    pub fn new(net: Arc<Network>) -> NetworkAgent {
        NetworkAgent { net, scratch: Scratch::default(), logits: vec![0.0; NUM_ACTIONS] }
    }

    /// The registered network as a player.
    pub fn registered() -> Result<NetworkAgent> {
        Ok(NetworkAgent::new(registered("network")?))
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The logits (`NUM_ACTIONS`) and value (win 1, draw ½, loss 0) of an observation.
    pub fn evaluate(&mut self, obs: &[f32]) -> (&[f32], f32) {
        let v = self.net.forward_into(obs, &mut self.logits, &mut self.scratch);
        (&self.logits, v)
    }

    /// The legal actions by logit, best first (ties: the lower index).
    pub fn ranked(&mut self, obs: &[f32], mask: &Mask) -> Vec<usize> {
        self.evaluate(obs);
        let mut legal: Vec<usize> = mask.iter().collect();
        legal.sort_by(|&a, &b| self.logits[b].total_cmp(&self.logits[a]).then(a.cmp(&b)));
        legal
    }

    /// The legal action with the highest logit (the only one, without evaluating, when one is
    /// legal); `mask` must not be empty.
    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        self.evaluate(obs);
        crate::nn::masked_argmax(&self.logits, mask.iter()).unwrap_or(0)
    }
}

/// Network-guided search: D1 `search` with the network in the heuristic's place as the player:
/// the network's choice is played where the search does not search (the German's allocation
/// included: the search's plans hold only the heuristic's contents; and the Resistance's guesses
/// and attack: `intel` weighs every allocation alike) and is the default a candidate must beat
/// where it does; its next best legal actions and the heuristic's choice are compared first
/// (before candidates drawn at random). The playouts stay the heuristic's. A pure function of the
/// observation and its stream, as `search` is.
#[derive(Clone, Debug)]
pub struct NetworkSearchAgent {
    net: NetworkAgent,
    search: SearchAgent,
}

/// The network's candidates per searched decision (of `search::MAX_ARMS`).
pub const NETWORK_CANDIDATES: usize = 4;

impl NetworkSearchAgent {
    pub fn new(net: Arc<Network>, budget: u32, seed: u64) -> NetworkSearchAgent {
        NetworkSearchAgent { net: NetworkAgent::new(net), search: SearchAgent::new(budget, seed) }
    }

    /// The registered network guiding a search of `budget` simulations per decision.
    pub fn registered(budget: u32, seed: u64) -> Result<NetworkSearchAgent> {
        Ok(NetworkSearchAgent::new(registered("network_search")?, budget, seed))
    }

    pub fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        if let Some(a) = super::only_action(mask) {
            return a;
        }
        let mut first = self.net.ranked(obs, mask);
        first.truncate(NETWORK_CANDIDATES);
        self.search.act_with_candidates(obs, mask, &first)
    }
}

impl PartialEq for NetworkAgent {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.net, &other.net)
    }
}

impl PartialEq for NetworkSearchAgent {
    fn eq(&self, other: &Self) -> bool {
        self.net == other.net && self.search == other.search
    }
}

impl crate::env::opponents::Agent<Mask> for NetworkAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        NetworkAgent::act(self, obs, mask)
    }
}

impl crate::env::opponents::Agent<Mask> for NetworkSearchAgent {
    fn act(&mut self, obs: &[f32], mask: &Mask) -> usize {
        NetworkSearchAgent::act(self, obs, mask)
    }
}

impl crate::env::opponents::NetLevel for NetworkAgent {
    fn with_seed(_budget: u32, _seed: u64) -> Result<NetworkAgent> {
        NetworkAgent::registered()
    }
}

impl crate::env::opponents::NetLevel for NetworkSearchAgent {
    fn with_seed(budget: u32, seed: u64) -> Result<NetworkSearchAgent> {
        NetworkSearchAgent::registered(budget, seed)
    }
}

// Saved (a match's opponent, a pickled agent) as the network's fingerprint and, for the search,
// its stream; loaded with the registered network, which must be the one saved with.
#[derive(Serialize, Deserialize)]
struct SavedNetwork {
    observation: String,
    training: Option<String>,
}

impl SavedNetwork {
    fn of(net: &Network) -> SavedNetwork {
        SavedNetwork { observation: observation_fingerprint(), training: net.metadata.get("training").cloned() }
    }

    fn network<E: serde::de::Error>(self, level: &str) -> std::result::Result<Arc<Network>, E> {
        let net = registered(level).map_err(E::custom)?;
        if self.observation != observation_fingerprint() || self.training != net.metadata.get("training").cloned() {
            return Err(E::custom(format!(
                "the saved '{level}' opponent played another network than the one loaded ({} vs {})",
                self.observation,
                observation_fingerprint()
            )));
        }
        Ok(net)
    }
}

impl Serialize for NetworkAgent {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        SavedNetwork::of(&self.net).serialize(s)
    }
}

impl<'de> Deserialize<'de> for NetworkAgent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(NetworkAgent::new(SavedNetwork::deserialize(d)?.network("network")?))
    }
}

#[derive(Serialize, Deserialize)]
struct SavedSearch {
    network: SavedNetwork,
    search: SearchAgent,
}

impl Serialize for NetworkSearchAgent {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        SavedSearch { network: SavedNetwork::of(&self.net.net), search: self.search.clone() }.serialize(s)
    }
}

impl<'de> Deserialize<'de> for NetworkSearchAgent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let saved = SavedSearch::deserialize(d)?;
        Ok(NetworkSearchAgent { net: NetworkAgent::new(saved.network.network("network_search")?), search: saved.search })
    }
}
