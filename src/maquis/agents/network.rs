//! A learned network over the observation: an MLP trunk with a policy head (one logit per action)
//! and a value head (the expected outcome), evaluated in plain Rust — no Python or torch at play
//! time.
//!
//! # The weight file (`maquis-net-v1`, safetensors)
//!
//! One safetensors file, every tensor float32, torch's `nn.Linear` convention (`weight` is
//! `(out, in)`, `y = x @ weight.T + bias`):
//!
//! | tensor | shape | |
//! |---|---|---|
//! | `trunk.{i}.weight`, `trunk.{i}.bias` | `(h_i, h_{i-1})`, `(h_i,)` | `i = 0..L`, `h_{-1} = OBS_SIZE`, ReLU after each |
//! | `policy.weight`, `policy.bias` | `(NUM_ACTIONS, h_{L-1})`, `(NUM_ACTIONS,)` | logits; illegal actions are masked by the user |
//! | `value.weight`, `value.bias` | `(1, h_{L-1})`, `(1,)` | `sigmoid` of it: the expected outcome value, win or major win 1, draw ½, loss 0 |
//!
//! `L` may be 0 (the heads read the observation directly). The header's `__metadata__` must hold
//! `format = "maquis-net-v1"` and `observation = ` [`observation_fingerprint`]`()` (a hash of
//! `observation_layout()`, the observation size and the number of actions), and may hold anything
//! else (how it was trained). A file made for another observation layout is refused with both
//! fingerprints named.
//!
//! # `maquis-net-v2`: inputs beyond the observation
//!
//! A `maquis-net-v2` file also names its `inputs` in the metadata. `"observation"` is the v1
//! network. `"observation+heuristic4"` reads, after the observation, the heuristic's ranking as
//! planes ([`super::planes`]: its 4 best moves one-hot, then their score gaps), so `h_{-1} =
//! OBS_SIZE + 5 * NUM_ACTIONS`, and holds one more tensor, `prior.weight` `(5,)`: each plane times
//! its weight is added to the logits, so that following the heuristic is one weight away and the
//! trunk learns where to depart from it. Networks that read the observation alone are written
//! as v1, which older readers take.
//!
//! The forward pass is row by row (`out += x_i * W_i` over the non-zero inputs: observations are
//! mostly zeros, and ReLU zeroes about half of each hidden layer), so a row's outputs are the same
//! whatever batch it is in: the search that calls it stays a pure function of the observation.

use super::planes::{write_heuristic_planes, HEURISTIC_PLANES};
use crate::action::{ActionMask, NUM_ACTIONS};
use crate::observation::{obs_size, observation_layout, write_observation};
use crate::state::State;
use ndarray::{Array1, Array2, ArrayView2};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::fmt;

/// The `format` of a weight file's metadata (a network that reads the observation alone).
pub const NETWORK_FORMAT: &str = "maquis-net-v1";
/// The `format` of a file that names its `inputs` (written for inputs beyond the observation).
pub const NETWORK_FORMAT_V2: &str = "maquis-net-v2";

/// What a network reads.
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
        match self {
            Inputs::Observation => "observation",
            Inputs::ObservationHeuristic => "observation+heuristic4",
        }
    }

    pub fn parse(name: &str) -> Result<Inputs, NetworkError> {
        Inputs::ALL.into_iter().find(|i| i.name() == name).ok_or_else(|| {
            let known: Vec<&str> = Inputs::ALL.iter().map(|i| i.name()).collect();
            NetworkError(format!("unknown inputs {name:?}: expected one of {known:?}"))
        })
    }

    /// Values per input row.
    pub fn size(self) -> usize {
        obs_size() + self.extra()
    }

    fn extra(self) -> usize {
        match self {
            Inputs::Observation => 0,
            Inputs::ObservationHeuristic => HEURISTIC_PLANES * NUM_ACTIONS,
        }
    }

    /// Weights per plane added to the logits (`prior.weight`).
    fn prior_len(self) -> usize {
        match self {
            Inputs::Observation => 0,
            Inputs::ObservationHeuristic => HEURISTIC_PLANES,
        }
    }

    fn format(self) -> &'static str {
        match self {
            Inputs::Observation => NETWORK_FORMAT,
            Inputs::ObservationHeuristic => NETWORK_FORMAT_V2,
        }
    }
}

/// What can be wrong with a weight file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

fn err<T>(msg: impl Into<String>) -> Result<T, NetworkError> {
    Err(NetworkError(msg.into()))
}

/// The observation version a network is tied to: `obs<OBS_SIZE>-a<NUM_ACTIONS>-<hash>`, the
/// hash (FNV-1a, 64 bits) over every `(name, offset, length)` of `observation_layout()`. Any change
/// to the observation's meaning that moves or renames a slice changes it.
pub fn observation_fingerprint() -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    for (name, off, len) in observation_layout() {
        eat(format!("{name}:{off}:{len};").as_bytes());
    }
    format!("obs{}-a{}-{:016x}", obs_size(), NUM_ACTIONS, h)
}

/// One dense layer, stored `(in, out)` row-major for the row-by-row forward pass.
#[derive(Clone, Debug)]
struct Dense {
    w: Array2<f32>,
    b: Array1<f32>,
}

impl Dense {
    /// `out = b + sum_i x_i * w[i, :]`, skipping zero inputs.
    fn apply(&self, x: &[f32], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(self.b.as_slice().expect("contiguous bias"));
        let w = self.w.as_slice().expect("contiguous weights");
        #[cfg(target_arch = "x86_64")]
        if crate::simd::Simd::detect().avx2 {
            // SAFETY: the CPU has AVX2 (detected above).
            unsafe { accumulate_avx2(x, w, out) };
            return;
        }
        accumulate(x, w, out);
    }
}

/// `out += sum_i x_i * w[i, :]` over the non-zero `x_i`. Every output is the same sequence of
/// multiplies and adds (no fused multiply-add) whatever the vector width, so the AVX2 build gives
/// the same bits as the portable one.
#[inline(always)]
fn accumulate(x: &[f32], w: &[f32], out: &mut [f32]) {
    let n = out.len();
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            for (o, &wi) in out.iter_mut().zip(&w[i * n..(i + 1) * n]) {
                *o += xi * wi;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn accumulate_avx2(x: &[f32], w: &[f32], out: &mut [f32]) {
    accumulate(x, w, out)
}

/// A network read from (or to be written to) a `maquis-net-v1` or `-v2` file.
#[derive(Clone, Debug)]
pub struct Network {
    inputs: Inputs,
    trunk: Vec<Dense>,
    /// Policy and value heads together: `NUM_ACTIONS` logit columns, then the value's.
    heads: Dense,
    /// Per extra input plane, its weight in the logits (`prior.weight`; empty for the observation).
    prior: Vec<f32>,
    /// The file's `__metadata__` (format and fingerprint included).
    pub metadata: BTreeMap<String, String>,
}

/// Scratch buffers of a forward pass (reused between calls).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Network {
    /// A network over the observation from torch-convention tensors (`weight` `(out, in)`),
    /// checked for shapes. `trunk` lists `(weight, bias)` per hidden layer.
    pub fn from_layers(
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        metadata: BTreeMap<String, String>,
    ) -> Result<Network, NetworkError> {
        Network::with_inputs(Inputs::Observation, trunk, policy, value, Array1::zeros(0), metadata)
    }

    /// As `from_layers` for any inputs; `prior` holds the extra planes' weights in the logits.
    pub fn with_inputs(
        inputs: Inputs,
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        prior: Array1<f32>,
        metadata: BTreeMap<String, String>,
    ) -> Result<Network, NetworkError> {
        if prior.len() != inputs.prior_len() {
            return err(format!(
                "prior.weight has shape {:?}: inputs {:?} take shape ({},)",
                prior.shape(),
                inputs.name(),
                inputs.prior_len()
            ));
        }
        let mut width = inputs.size();
        let mut layers = Vec::new();
        let check = |what: &str, w: &Array2<f32>, b: &Array1<f32>, width: usize, out: Option<usize>| {
            let (o, i) = w.dim();
            if i != width || out.is_some_and(|n| n != o) || b.len() != o || o == 0 {
                return err(format!(
                    "{what}: weight {:?} and bias {:?} do not fit: expected weight ({o_}, {width}) and bias ({o_},)",
                    w.shape(),
                    b.shape(),
                    o_ = out.map_or("h".to_string(), |n| n.to_string())
                ));
            }
            Ok(o)
        };
        for (k, (w, b)) in trunk.into_iter().enumerate() {
            width = check(&format!("trunk.{k}"), &w, &b, width, None)?;
            layers.push(Dense { w: w.t().as_standard_layout().to_owned(), b });
        }
        check("policy", &policy.0, &policy.1, width, Some(NUM_ACTIONS))?;
        check("value", &value.0, &value.1, width, Some(1))?;
        let w = ndarray::concatenate(ndarray::Axis(0), &[policy.0.view(), value.0.view()]).expect("same width");
        let b = ndarray::concatenate(ndarray::Axis(0), &[policy.1.view(), value.1.view()]).expect("1-d");
        let heads = Dense { w: w.t().as_standard_layout().to_owned(), b };
        let mut metadata = metadata;
        metadata.insert("format".into(), inputs.format().into());
        metadata.insert("observation".into(), observation_fingerprint());
        match inputs {
            Inputs::Observation => metadata.remove("inputs"),
            _ => metadata.insert("inputs".into(), inputs.name().into()),
        };
        Ok(Network { inputs, trunk: layers, heads, prior: prior.to_vec(), metadata })
    }

    /// A freshly initialized network (uniform ±1/sqrt(fan-in), like torch's default), for tests and
    /// as a starting point. `hidden` lists the trunk's widths.
    pub fn random(hidden: &[usize], seed: u64) -> Network {
        Network::random_with_inputs(Inputs::Observation, hidden, seed)
    }

    /// As `random`, reading `inputs` (the planes' weights drawn in ±1).
    pub fn random_with_inputs(inputs: Inputs, hidden: &[usize], seed: u64) -> Network {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut layer = |o: usize, i: usize| {
            let k = 1.0 / (i as f32).sqrt();
            let w = Array2::from_shape_fn((o, i), |_| rng.gen_range(-k..k));
            let b = Array1::from_shape_fn(o, |_| rng.gen_range(-k..k));
            (w, b)
        };
        let mut width = inputs.size();
        let mut trunk = Vec::new();
        for &h in hidden {
            trunk.push(layer(h, width));
            width = h;
        }
        let policy = layer(NUM_ACTIONS, width);
        let value = layer(1, width);
        let prior = Array1::from_shape_fn(inputs.prior_len(), |_| rng.gen_range(-1.0..1.0));
        Network::with_inputs(inputs, trunk, policy, value, prior, BTreeMap::new()).expect("shapes built to fit")
    }

    /// Reads a `maquis-net-v1` safetensors file.
    pub fn load(path: &std::path::Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError(format!("{}: {e}", path.display())))?;
        Network::from_bytes(&bytes).map_err(|e| NetworkError(format!("{}: {e}", path.display())))
    }

    /// Parses the bytes of a `maquis-net-v1` safetensors file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        use safetensors::{Dtype, SafeTensors};
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file ({e:?})")))?;
        let meta: BTreeMap<String, String> =
            header.metadata().as_ref().map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).unwrap_or_default();
        let inputs = match meta.get("format").map(String::as_str) {
            Some(NETWORK_FORMAT) => match meta.get("inputs") {
                None => Inputs::Observation,
                Some(i) => return err(format!("a {NETWORK_FORMAT} file reads the observation alone, but names inputs {i:?}")),
            },
            Some(NETWORK_FORMAT_V2) => match meta.get("inputs") {
                Some(i) => Inputs::parse(i)?,
                None => return err(format!("no \"inputs\" in the metadata of a {NETWORK_FORMAT_V2} file")),
            },
            Some(other) => return err(format!("format {other:?}, expected {NETWORK_FORMAT:?} or {NETWORK_FORMAT_V2:?}")),
            None => return err(format!("no \"format\" in the metadata: not a {NETWORK_FORMAT} network")),
        };
        let expected = observation_fingerprint();
        match meta.get("observation") {
            Some(found) if *found == expected => {}
            Some(found) => {
                return err(format!(
                    "made for observation layout {found}, but this maquis has {expected}: the network must be trained again for this build"
                ))
            }
            None => return err(format!("no \"observation\" in the metadata (this maquis has {expected})")),
        }
        let st = SafeTensors::deserialize(bytes).map_err(|e| NetworkError(format!("not a safetensors file ({e:?})")))?;
        let get = |name: &str, dims: usize| -> Result<(Vec<usize>, Vec<f32>), NetworkError> {
            let t = st.tensor(name).map_err(|_| NetworkError(format!("tensor {name:?} is missing")))?;
            if t.shape().len() != dims {
                return err(format!("tensor {name:?} has shape {:?}, expected {dims} dimensions", t.shape()));
            }
            let bytes = t.data();
            let data = match t.dtype() {
                Dtype::F32 => bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
                Dtype::F16 => bytes.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
                Dtype::BF16 => bytes.chunks_exact(2).map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32()).collect(),
                other => return err(format!("tensor {name:?} is {other:?}, expected F32, F16 or BF16")),
            };
            Ok((t.shape().to_vec(), data))
        };
        let pair = |prefix: &str| -> Result<(Array2<f32>, Array1<f32>), NetworkError> {
            let (ws, w) = get(&format!("{prefix}.weight"), 2)?;
            let (_, b) = get(&format!("{prefix}.bias"), 1)?;
            let w = Array2::from_shape_vec((ws[0], ws[1]), w).expect("safetensors checked the size");
            Ok((w, Array1::from(b)))
        };
        let mut trunk = Vec::new();
        while st.tensor(&format!("trunk.{}.weight", trunk.len())).is_ok() {
            trunk.push(pair(&format!("trunk.{}", trunk.len()))?);
        }
        let (policy, value) = (pair("policy")?, pair("value")?);
        let prior = match inputs.prior_len() {
            0 => Array1::zeros(0),
            _ => Array1::from(get("prior.weight", 1)?.1),
        };
        let known = |n: &str| {
            ["policy.weight", "policy.bias", "value.weight", "value.bias"].contains(&n)
                || (n == "prior.weight" && inputs.prior_len() > 0)
                || (0..trunk.len()).any(|k| n == format!("trunk.{k}.weight") || n == format!("trunk.{k}.bias"))
        };
        let mut stray: Vec<&str> = st.names().into_iter().filter(|n| !known(n)).collect();
        if !stray.is_empty() {
            stray.sort();
            return err(format!(
                "unexpected tensors {stray:?}: a network with inputs {:?} holds trunk.<i>.weight/bias for i = 0, 1, ..., policy.weight/bias and value.weight/bias{}",
                inputs.name(),
                if inputs.prior_len() > 0 { ", prior.weight" } else { "" }
            ));
        }
        Network::with_inputs(inputs, trunk, policy, value, prior, meta)
    }

    /// The file's bytes (safetensors, `maquis-net-v1`).
    pub fn to_bytes(&self) -> Vec<u8> {
        use safetensors::tensor::TensorView;
        use safetensors::Dtype;
        let mut owned: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
        let mut push = |name: String, shape: Vec<usize>, data: Vec<f32>| {
            owned.push((name, shape, data.iter().flat_map(|x| x.to_le_bytes()).collect()));
        };
        // Stored (in, out); the file holds torch's (out, in).
        for (k, l) in self.trunk.iter().enumerate() {
            let wt = l.w.t();
            push(format!("trunk.{k}.weight"), wt.shape().to_vec(), wt.iter().copied().collect());
            push(format!("trunk.{k}.bias"), vec![l.b.len()], l.b.to_vec());
        }
        let wt = self.heads.w.t();
        let h = wt.shape()[1];
        push("policy.weight".into(), vec![NUM_ACTIONS, h], wt.rows().into_iter().take(NUM_ACTIONS).flatten().copied().collect());
        push("policy.bias".into(), vec![NUM_ACTIONS], self.heads.b.iter().take(NUM_ACTIONS).copied().collect());
        push("value.weight".into(), vec![1, h], wt.row(NUM_ACTIONS).to_vec());
        push("value.bias".into(), vec![1], vec![self.heads.b[NUM_ACTIONS]]);
        if !self.prior.is_empty() {
            push("prior.weight".into(), vec![self.prior.len()], self.prior.clone());
        }
        let views: Vec<(String, TensorView<'_>)> = owned
            .iter()
            .map(|(n, s, d)| (n.clone(), TensorView::new(Dtype::F32, s.clone(), d).expect("sizes match")))
            .collect();
        let meta: std::collections::HashMap<String, String> = self.metadata.clone().into_iter().collect();
        safetensors::serialize(views, Some(meta)).expect("serializable")
    }

    /// Widths of the hidden layers.
    pub fn hidden(&self) -> Vec<usize> {
        self.trunk.iter().map(|l| l.b.len()).collect()
    }

    /// What the network reads.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The input row of an observation (`inputs().size()` values written to `input`); an error
    /// if the observation does not decode and the network needs the state behind it.
    pub fn write_input(&self, obs: &[f32], input: &mut Vec<f32>) -> crate::Result<()> {
        input.clear();
        input.extend_from_slice(obs);
        input.resize(self.inputs.size(), 0.0);
        self.write_extra(input)
    }

    /// The input row of a state: its observation and what the network reads beside it.
    pub fn write_state_input(&self, s: &State, input: &mut Vec<f32>) {
        input.resize(self.inputs.size(), 0.0);
        write_observation(s, &mut input[..obs_size()]);
        self.write_extra(input).expect("a state's own observation decodes");
    }

    /// Fills what follows the observation in an input row from the observation before it.
    fn write_extra(&self, input: &mut [f32]) -> crate::Result<()> {
        let (obs, extra) = input.split_at_mut(obs_size());
        match self.inputs {
            Inputs::Observation => Ok(()),
            Inputs::ObservationHeuristic => write_heuristic_planes(obs, extra),
        }
    }

    /// Logits (`NUM_ACTIONS`, written to `logits`) and value of one input row (`write_input`).
    pub fn forward_into(&self, input: &[f32], logits: &mut [f32], scratch: &mut Scratch) -> f32 {
        assert_eq!(input.len(), self.inputs.size(), "an input row has {} values", self.inputs.size());
        let Scratch { a, b } = scratch;
        let mut x: &[f32] = input;
        for l in &self.trunk {
            l.apply(x, a);
            for v in a.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(a, b);
            x = b;
        }
        self.heads.apply(x, a);
        logits.copy_from_slice(&a[..NUM_ACTIONS]);
        for (c, &w) in self.prior.iter().enumerate() {
            let plane = &input[obs_size() + c * NUM_ACTIONS..obs_size() + (c + 1) * NUM_ACTIONS];
            for (l, &p) in logits.iter_mut().zip(plane) {
                if p != 0.0 {
                    *l += w * p;
                }
            }
        }
        sigmoid(a[NUM_ACTIONS])
    }

    /// Logits `(n, NUM_ACTIONS)` and values `(n,)` of a batch of input rows `(n, inputs().size())`.
    pub fn forward(&self, rows: ArrayView2<'_, f32>) -> (Array2<f32>, Array1<f32>) {
        let n = rows.nrows();
        let mut logits = Array2::zeros((n, NUM_ACTIONS));
        let mut values = Array1::zeros(n);
        let mut scratch = Scratch::default();
        let mut row = vec![0.0f32; self.inputs.size()];
        for i in 0..n {
            row.iter_mut().zip(rows.row(i)).for_each(|(r, &x)| *r = x);
            let out = logits.row_mut(i).into_slice().expect("a standard-layout row");
            values[i] = self.forward_into(&row, out, &mut scratch);
        }
        (logits, values)
    }
}

/// The legal action with the highest logit (ties: the lowest index); None if nothing is legal.
pub fn masked_argmax(logits: &[f32], mask: &ActionMask) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for a in mask.iter() {
        if best.is_none_or(|(_, v)| logits[a] > v) {
            best = Some((a, logits[a]));
        }
    }
    best.map(|b| b.0)
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
        masked_argmax(&self.logits, &crate::rules::legal_mask(s)).expect("act() called on a finished game")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_avx2_layer_gives_the_portable_layers_bits() {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::Simd::detect().avx2 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
            // Widths that leave a remainder after 8-wide vectors, and inputs with zeros.
            for (inputs, n) in [(416usize, 256usize), (37, 218), (5, 3)] {
                let x: Vec<f32> = (0..inputs).map(|i| if i % 3 == 0 { 0.0 } else { rng.gen_range(-2.0..2.0) }).collect();
                let w: Vec<f32> = (0..inputs * n).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let b: Vec<f32> = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
                let (mut portable, mut avx2) = (b.clone(), b);
                accumulate(&x, &w, &mut portable);
                // SAFETY: AVX2 detected above.
                unsafe { accumulate_avx2(&x, &w, &mut avx2) };
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
                assert_eq!(bits(&portable), bits(&avx2), "{inputs} inputs, {n} outputs");
            }
        }
    }
}
