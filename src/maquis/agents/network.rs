//! Maquis's learned network: the shared MLP and weight file of [`crate::nn`] over Maquis's
//! observation, with the fingerprint of its `observation_layout()` and, for `inputs =
//! "observation+heuristic4"` (`maquis-net-v2`), the heuristic's ranking as planes after the
//! observation ([`super::planes`]: its 4 best moves one-hot, then their score gaps, so `h_{-1} =
//! OBS_SIZE + 5 * NUM_ACTIONS`, with `prior.weight` `(5,)` adding each plane to the logits, so
//! that following the heuristic is one weight away and the trunk learns where to depart from it).
//! The file format is described in `crate::nn`.

use super::planes::{write_heuristic_planes, HEURISTIC_PLANES};
use crate::maquis::action::{ActionMask, NUM_ACTIONS};
use crate::nn::NetGame;
use crate::maquis::observation::{obs_size, observation_layout, write_observation};
use crate::maquis::state::State;

pub use crate::nn::{NetworkError, Scratch, NETWORK_FORMAT, NETWORK_FORMAT_V2};

/// What a Maquis network reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// The observation alone.
    Observation,
    /// The observation, then the heuristic's ranking as planes (`super::planes`).
    ObservationHeuristic,
}

impl Inputs {
    pub const ALL: [Inputs; 2] = [Inputs::Observation, Inputs::ObservationHeuristic];

    /// The name in a file's metadata (`inputs`).
    pub fn name(self) -> &'static str {
        crate::nn::Inputs::name(self)
    }

    pub fn parse(name: &str) -> Result<Inputs, NetworkError> {
        crate::nn::parse_inputs::<MaquisNet>(name)
    }

    /// Values per input row.
    pub fn size(self) -> usize {
        crate::nn::input_size::<MaquisNet>(self)
    }
}

impl crate::nn::Inputs for Inputs {
    fn all() -> &'static [Inputs] {
        &Inputs::ALL
    }
    fn name(self) -> &'static str {
        match self {
            Inputs::Observation => "observation",
            Inputs::ObservationHeuristic => "observation+heuristic4",
        }
    }
    fn extra(self) -> usize {
        match self {
            Inputs::Observation => 0,
            Inputs::ObservationHeuristic => HEURISTIC_PLANES * NUM_ACTIONS,
        }
    }
    fn prior_len(self) -> usize {
        match self {
            Inputs::Observation => 0,
            Inputs::ObservationHeuristic => HEURISTIC_PLANES,
        }
    }
}

/// Maquis for the shared network: its sizes, fingerprint and heuristic planes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaquisNet;

impl NetGame for MaquisNet {
    type Inputs = Inputs;
    fn obs_size() -> usize {
        obs_size()
    }
    fn num_actions() -> usize {
        NUM_ACTIONS
    }
    fn fingerprint() -> String {
        observation_fingerprint()
    }
    fn write_extra(inputs: Inputs, obs: &[f32], extra: &mut [f32]) -> crate::Result<()> {
        match inputs {
            Inputs::Observation => Ok(()),
            Inputs::ObservationHeuristic => write_heuristic_planes(obs, extra),
        }
    }
}

/// A Maquis network read from (or to be written to) a `maquis-net-v1` or `-v2` file.
pub type Network = crate::nn::Network<MaquisNet>;

/// The observation version a network is tied to: `obs<OBS_SIZE>-a<NUM_ACTIONS>-<hash>`, the
/// hash over every `(name, offset, length)` of `observation_layout()` (`nn::layout_fingerprint`).
pub fn observation_fingerprint() -> String {
    crate::nn::layout_fingerprint("", observation_layout(), obs_size(), NUM_ACTIONS)
}

impl Network {
    /// The input row of a state: its observation and what the network reads beside it.
    pub fn write_state_input(&self, s: &State, input: &mut Vec<f32>) {
        input.resize(self.input_size(), 0.0);
        write_observation(s, &mut input[..obs_size()]);
        self.write_extra(input).expect("a state's own observation decodes");
    }
}

/// The legal action with the highest logit (ties: the lowest index); None if nothing is legal.
pub fn masked_argmax(logits: &[f32], mask: &ActionMask) -> Option<usize> {
    crate::nn::masked_argmax(logits, mask.iter())
}

/// The network alone as a player: the legal action with the highest logit.
#[derive(Clone, Debug)]
pub struct NetworkAgent {
    pub net: std::sync::Arc<Network>,
    scratch: Scratch,
    logits: Vec<f32>,
    input: Vec<f32>,
}

impl NetworkAgent {
    pub fn new(net: std::sync::Arc<Network>) -> NetworkAgent {
        NetworkAgent { net, scratch: Scratch::default(), logits: vec![0.0; NUM_ACTIONS], input: Vec::new() }
    }

    /// The greedy legal action for a state (panics if the game is over).
    pub fn act(&mut self, s: &State) -> usize {
        self.net.write_state_input(s, &mut self.input);
        self.net.forward_into(&self.input, &mut self.logits, &mut self.scratch);
        masked_argmax(&self.logits, &crate::maquis::rules::legal_mask(s)).expect("act() called on a finished game")
    }
}
