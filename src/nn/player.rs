//! What every game's `network` levels share: the network registered once per process for the
//! levels built by id ([`Slot`]), the network as a player over an input row ([`Player`]: logits,
//! value, ranking, best legal action), the network levels built on a given network instead
//! ([`WithNetwork`], [`NetworkLevels`]: a teacher's search, a ladder game between two networks),
//! the weight files read for `network@FILE` opponents ([`Slot::load_file`]), and how a player is
//! saved — the network's fingerprint and training record (and its file, for a file's network),
//! loaded back with the registered network or that file, which must be the one saved with.

use super::{masked_argmax, NetGame, Network, Scratch};
use crate::env::opponents::Bundled;
use crate::env::versus::OpponentKind;
use crate::error::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::{Arc, RwLock};
use std::time::SystemTime;

/// A game's registered network: what its `network` levels play; and the weight files its
/// `network@FILE` opponents play, each read once a process.
pub struct Slot<G: NetGame> {
    net: RwLock<Option<Arc<Network<G>>>>,
    files: RwLock<Vec<LoadedFile<G>>>,
    /// What a level built with none registered is told it needs (e.g. "a trained D-Day network,
    /// and none is loaded (…)").
    missing: &'static str,
}

/// A weight file as it was read: its path as given, its size and modification time then.
struct LoadedFile<G: NetGame> {
    path: String,
    stamp: Option<(u64, SystemTime)>,
    net: Arc<Network<G>>,
}

fn stamp(path: &str) -> Option<(u64, SystemTime)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

impl<G: NetGame> Slot<G> {
    pub const fn new(missing: &'static str) -> Slot<G> {
        Slot { net: RwLock::new(None), files: RwLock::new(Vec::new()), missing }
    }

    /// The index of the weight file at `path` in the files read (a `network@FILE` opponent): read
    /// the first time, and again when the file's size or modification time has changed since (a
    /// training loop that rewrites its opponent's file). An index always names the same network:
    /// environments set up before a file is read again keep the network they had.
    pub fn load_file(&self, path: &str) -> Result<usize> {
        let now = stamp(path);
        match self.cached(path) {
            Some((i, then)) if then == now => Ok(i),
            _ => self.read(path, now),
        }
    }

    /// The index of the network last read from `path`, reading it if this process never did (a
    /// setup or a save restored in another process).
    pub fn file_index(&self, path: &str) -> Result<usize> {
        match self.cached(path) {
            Some((i, _)) => Ok(i),
            None => self.read(path, stamp(path)),
        }
    }

    /// The network of a file's index (`load_file`, `file_index`).
    pub fn file(&self, index: usize) -> Result<Arc<Network<G>>> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.get(index).map(|f| f.net.clone()).ok_or_else(|| Error::BadOption(format!("no network file {index}")))
    }

    /// The path the network was read from by `load_file` or `file_index`, if it was.
    pub fn path_of(&self, net: &Arc<Network<G>>) -> Option<String> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.iter().rev().find(|f| Arc::ptr_eq(&f.net, net)).map(|f| f.path.clone())
    }

    fn cached(&self, path: &str) -> Option<(usize, Option<(u64, SystemTime)>)> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.iter().rposition(|f| f.path == path).map(|i| (i, files[i].stamp))
    }

    fn read(&self, path: &str, stamp: Option<(u64, SystemTime)>) -> Result<usize> {
        let net = Network::<G>::load(std::path::Path::new(path)).map_err(|e| Error::BadOption(format!("network file {e}")))?;
        let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
        files.push(LoadedFile { path: path.to_string(), stamp, net: Arc::new(net) });
        Ok(files.len() - 1)
    }

    /// Makes `net` the network of the levels (agents built before keep theirs).
    pub fn set(&self, net: Arc<Network<G>>) {
        *self.net.write().unwrap_or_else(|e| e.into_inner()) = Some(net);
    }

    /// The registered network, if any.
    pub fn get(&self) -> Option<Arc<Network<G>>> {
        self.net.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The registered network, or a clear error naming `level`.
    pub fn registered(&self, level: &str) -> Result<Arc<Network<G>>> {
        self.get().ok_or_else(|| Error::BadOption(format!("opponent '{level}' needs {}", self.missing)))
    }
}

/// A game whose network levels play the network of its [`Slot`].
pub trait Registered: NetGame {
    fn slot() -> &'static Slot<Self>;
}

/// A network level (`network` or `network_search`) built on a given network, not the registered
/// one: a teacher's search, or one side of a game between two networks.
pub trait WithNetwork<G: NetGame> {
    /// `budget` and `seed` are the search's (the network alone has neither).
    fn with_network(net: Arc<Network<G>>, budget: u32, seed: u64) -> Self;
}

/// A game's agent type whose network levels can be built on a given network (the ladder
/// runner's `network@FILE` and `network_search@FILE` agents).
pub trait NetworkLevels<G: NetGame>: Sized {
    /// `kind` is `Network` or `NetworkSearch`; any other kind is an error.
    fn with_network(kind: OpponentKind, net: Arc<Network<G>>, budget: u32, seed: u64) -> Result<Self>;
}

impl<G: NetGame, H, S, N: WithNetwork<G>, NS: WithNetwork<G>, R> NetworkLevels<G> for Bundled<H, S, N, NS, R> {
    fn with_network(kind: OpponentKind, net: Arc<Network<G>>, budget: u32, seed: u64) -> Result<Self> {
        match kind {
            OpponentKind::Network => Ok(Bundled::Network(N::with_network(net, budget, seed))),
            OpponentKind::NetworkSearch => Ok(Bundled::NetworkSearch(NS::with_network(net, budget, seed))),
            other => Err(Error::BadOption(format!("'{}' is not a network level", other.as_str()))),
        }
    }
}

/// A saved player: the network's fingerprint and training record, and the weight file it was
/// read from when it is a `network@FILE` opponent's.
#[derive(Serialize, Deserialize)]
pub struct SavedNetwork {
    observation: String,
    training: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

impl SavedNetwork {
    pub fn of<G: Registered>(net: &Arc<Network<G>>) -> SavedNetwork {
        SavedNetwork {
            observation: G::fingerprint(),
            training: net.metadata.get("training").cloned(),
            file: G::slot().path_of(net),
        }
    }

    /// The registered network (or the saved file's), if it is the one saved with.
    pub fn network<G: Registered, E: serde::de::Error>(self, level: &str) -> std::result::Result<Arc<Network<G>>, E> {
        let net = match &self.file {
            Some(path) => G::slot().file_index(path).and_then(|i| G::slot().file(i)),
            None => G::slot().registered(level),
        }
        .map_err(E::custom)?;
        if self.observation != G::fingerprint() || self.training != net.metadata.get("training").cloned() {
            let loaded = match &self.file {
                Some(path) => format!("the file {path} holds now"),
                None => "the one loaded".to_string(),
            };
            return Err(E::custom(format!(
                "the saved '{level}' opponent played another network than {loaded} ({} vs {})",
                self.observation,
                G::fingerprint()
            )));
        }
        Ok(net)
    }
}

/// The index of the weight file at `path` among those read for `network@FILE` opponents;
/// `fresh`: read it again if it has changed since this process read it (`Slot::load_file`), else
/// the one last read from it (`Slot::file_index`).
pub fn file_index<G: Registered>(path: &str, fresh: bool) -> Result<usize> {
    if fresh {
        G::slot().load_file(path)
    } else {
        G::slot().file_index(path)
    }
}

/// The network level `kind` on the weight file of index `index` (`file_index`), seeded.
pub fn level_on_file<G: Registered, A: NetworkLevels<G>>(kind: OpponentKind, index: usize, budget: u32, seed: u64) -> Result<A> {
    A::with_network(kind, G::slot().file(index)?, budget, seed)
}

/// A network as a player over input rows (`Network::write_input`'s). It has no stream: the same
/// row always gets the same logits, value and action.
#[derive(Clone, Debug)]
pub struct Player<G: NetGame> {
    net: Arc<Network<G>>,
    scratch: Scratch,
    logits: Vec<f32>,
}

impl<G: NetGame> Player<G> {
    pub fn new(net: Arc<Network<G>>) -> Player<G> {
        Player { net, scratch: Scratch::default(), logits: vec![0.0; G::num_actions()] }
    }

    pub fn network(&self) -> &Arc<Network<G>> {
        &self.net
    }

    /// The logits (`NUM_ACTIONS`) and value (win 1, draw ½, loss 0) of an input row.
    pub fn evaluate(&mut self, input: &[f32]) -> (&[f32], f32) {
        let v = self.net.forward_into(input, &mut self.logits, &mut self.scratch);
        (&self.logits, v)
    }

    /// The `legal` actions by logit, best first (ties: the lower index).
    pub fn ranked(&mut self, input: &[f32], legal: impl IntoIterator<Item = usize>) -> Vec<usize> {
        self.evaluate(input);
        let mut legal: Vec<usize> = legal.into_iter().collect();
        legal.sort_by(|&a, &b| self.logits[b].total_cmp(&self.logits[a]).then(a.cmp(&b)));
        legal
    }

    /// The legal action with the highest logit (0 when none is legal).
    pub fn best(&mut self, input: &[f32], legal: impl IntoIterator<Item = usize>) -> usize {
        self.evaluate(input);
        masked_argmax(&self.logits, legal).unwrap_or(0)
    }

    /// A legal action drawn from the policy, the softmax of the legal logits at `temperature`,
    /// by the uniform `u` in [0, 1): the actions in the order of `legal` take consecutive shares
    /// of [0, 1) (0 when none is legal).
    pub fn sample(&mut self, input: &[f32], legal: impl IntoIterator<Item = usize>, temperature: f32, u: f64) -> usize {
        self.evaluate(input);
        let legal: Vec<usize> = legal.into_iter().collect();
        let top = legal.iter().map(|&a| self.logits[a]).fold(f32::NEG_INFINITY, f32::max);
        let weights: Vec<f64> = legal.iter().map(|&a| f64::from((self.logits[a] - top) / temperature).exp()).collect();
        let mut left = u * weights.iter().sum::<f64>();
        for (&a, w) in legal.iter().zip(&weights) {
            if left < *w {
                return a;
            }
            left -= w;
        }
        legal.last().copied().unwrap_or(0)
    }
}

impl<G: NetGame> PartialEq for Player<G> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.net, &other.net)
    }
}

impl<G: Registered> Serialize for Player<G> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        SavedNetwork::of(&self.net).serialize(s)
    }
}

impl<'de, G: Registered> Deserialize<'de> for Player<G> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(Player::new(SavedNetwork::deserialize(d)?.network("network")?))
    }
}

/// The extra inputs of a network over the observation alone: none.
pub fn no_extra(_: super::ObservationOnly, _: &[f32], _: &mut [f32]) -> Result<()> {
    Ok(())
}

/// A game's network type `$g` over its observation (`$obs` values, `$actions` actions,
/// fingerprint `$fingerprint()`; with `inputs: $inputs, write_extra: $write_extra`, the game's
/// [`Inputs`](super::Inputs) and the function that fills their extra values), its registered network (`set_network`, `network`; `$missing`
/// says what a level built with none lacks) and its `network` level's player `NetworkAgent`
/// (`new`, `registered`) and its `network_search` level `NetworkSearchAgent` (the network and
/// the game's search `$search`: `new`, `registered`), both bundled levels over the game's `$mask`
/// (`network_levels!`); the game writes their `act`.
#[macro_export]
macro_rules! registered_network {
    ($(#[$doc:meta])* $g:ident, obs: $obs:expr, actions: $actions:expr, fingerprint: $fingerprint:path,
     missing: $missing:expr, mask: $mask:ty, $(#[$search_doc:meta])* search: $search:ty) => {
        $crate::registered_network!(
            $(#[$doc])* $g, obs: $obs, actions: $actions, fingerprint: $fingerprint,
            inputs: $crate::nn::ObservationOnly, write_extra: $crate::nn::player::no_extra,
            missing: $missing, mask: $mask, $(#[$search_doc])* search: $search
        );
    };
    ($(#[$doc:meta])* $g:ident, obs: $obs:expr, actions: $actions:expr, fingerprint: $fingerprint:path,
     inputs: $inputs:ty, write_extra: $write_extra:path,
     missing: $missing:expr, mask: $mask:ty, $(#[$search_doc:meta])* search: $search:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $g;

        impl $crate::nn::NetGame for $g {
            type Inputs = $inputs;
            fn obs_size() -> usize {
                $obs
            }
            fn num_actions() -> usize {
                $actions
            }
            fn fingerprint() -> String {
                $fingerprint()
            }
            fn write_extra(inputs: $inputs, obs: &[f32], extra: &mut [f32]) -> $crate::error::Result<()> {
                $write_extra(inputs, obs, extra)
            }
        }

        static NETWORK: $crate::nn::player::Slot<$g> = $crate::nn::player::Slot::new($missing);

        impl $crate::nn::player::Registered for $g {
            fn slot() -> &'static $crate::nn::player::Slot<$g> {
                &NETWORK
            }
        }

        /// Makes `net` the network of the `network` and `network_search` levels (agents built
        /// before keep theirs).
        pub fn set_network(net: std::sync::Arc<$crate::nn::Network<$g>>) {
            NETWORK.set(net)
        }

        /// The registered network, if any.
        pub fn network() -> Option<std::sync::Arc<$crate::nn::Network<$g>>> {
            NETWORK.get()
        }

        /// The network alone: the legal action with the highest logit. It has no stream: the
        /// same observation always gets the same action.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct NetworkAgent($crate::nn::player::Player<$g>);

        impl NetworkAgent {
            pub fn new(net: std::sync::Arc<$crate::nn::Network<$g>>) -> NetworkAgent {
                NetworkAgent($crate::nn::player::Player::new(net))
            }

            /// The registered network as a player.
            pub fn registered() -> $crate::error::Result<NetworkAgent> {
                Ok(NetworkAgent::new(NETWORK.registered("network")?))
            }
        }

        $(#[$search_doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub struct NetworkSearchAgent {
            #[serde(rename = "network")]
            net: NetworkAgent,
            search: $search,
        }

        impl NetworkSearchAgent {
            pub fn new(net: std::sync::Arc<$crate::nn::Network<$g>>, budget: u32, seed: u64) -> NetworkSearchAgent {
                NetworkSearchAgent { net: NetworkAgent::new(net), search: <$search>::new(budget, seed) }
            }

            /// The registered network guiding a search of `budget` simulations per decision.
            pub fn registered(budget: u32, seed: u64) -> $crate::error::Result<NetworkSearchAgent> {
                Ok(NetworkSearchAgent::new(NETWORK.registered("network_search")?, budget, seed))
            }
        }

        impl $crate::nn::player::WithNetwork<$g> for NetworkAgent {
            fn with_network(net: std::sync::Arc<$crate::nn::Network<$g>>, _budget: u32, _seed: u64) -> NetworkAgent {
                NetworkAgent::new(net)
            }
        }

        impl $crate::nn::player::WithNetwork<$g> for NetworkSearchAgent {
            fn with_network(net: std::sync::Arc<$crate::nn::Network<$g>>, budget: u32, seed: u64) -> NetworkSearchAgent {
                NetworkSearchAgent::new(net, budget, seed)
            }
        }

        $crate::network_levels!(NetworkAgent, NetworkSearchAgent, $mask);
    };
}
