//! A learned network over any game's observation: an MLP trunk with a policy head (one logit per
//! action) and a value head (the expected outcome), evaluated in plain Rust — no Python or torch at
//! play time. A game supplies its sizes and observation fingerprint ([`NetGame`]) and, where its
//! networks read more than the observation, its extra inputs ([`Inputs`]); the forward pass and
//! the weight file are written here once.
//!
//! # The weight file (`maquis-net-v1`, safetensors)
//!
//! One safetensors file, every tensor float32 (float16 and bfloat16 are widened on load), torch's
//! `nn.Linear` convention (`weight` is `(out, in)`, `y = x @ weight.T + bias`):
//!
//! | tensor | shape | |
//! |---|---|---|
//! | `trunk.{i}.weight`, `trunk.{i}.bias` | `(h_i, h_{i-1})`, `(h_i,)` | `i = 0..L`, `h_{-1}` = the input size, ReLU after each |
//! | `policy.weight`, `policy.bias` | `(NUM_ACTIONS, h_{L-1})`, `(NUM_ACTIONS,)` | logits; illegal actions are masked by the user |
//! | `value.weight`, `value.bias` | `(1, h_{L-1})`, `(1,)` | `sigmoid` of it: the expected outcome value, win 1, draw ½, loss 0 |
//!
//! `L` may be 0 (the heads read the input directly). The header's `__metadata__` must hold
//! `format = "maquis-net-v1"` and `observation = ` the game's [`NetGame::fingerprint`] (a hash of
//! its observation layout, the observation size and the number of actions), and may hold anything
//! else (how it was trained). A file made for another layout — or another game — is refused with
//! both fingerprints named.
//!
//! # `maquis-net-v2`: inputs beyond the observation
//!
//! A `maquis-net-v2` file also names its `inputs` in the metadata, one of the game's
//! [`Inputs::all`] (the first is the observation alone). Extra inputs follow the observation in
//! the input row (`h_{-1} = OBS_SIZE + extra`), and the file holds one more tensor,
//! `prior.weight` `(planes,)`: each plane of `NUM_ACTIONS` values at the end of the row times its
//! weight is added to the logits. Networks that read the observation alone are written as v1,
//! which older readers take.
//!
//! # A convolution stem over map planes
//!
//! A file whose metadata names `maps` (either format) reads map planes held in the input row
//! through convolutions first, and its trunk reads the stem's output in their place
//! ([`maps`] says the layout and the tensors `maps.{i}.weight`, `maps.{i}.bias`). Readers from
//! before the stem refuse such a file (its tensors are unexpected to them).
//!
//! The forward pass is row by row (`out += x_i * W_i` over the non-zero inputs: observations are
//! mostly zeros, and ReLU zeroes about half of each hidden layer), so a row's outputs are the same
//! whatever batch it is in: a search that calls it stays a pure function of the observation.

pub mod maps;
pub mod player;
pub mod selfplay;

pub use maps::{MapSpec, MapStem};

use ndarray::{Array1, Array2, ArrayView2};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

/// The `format` of a weight file's metadata (a network that reads the observation alone).
pub const NETWORK_FORMAT: &str = "maquis-net-v1";
/// The `format` of a file that names its `inputs` (written for inputs beyond the observation).
pub const NETWORK_FORMAT_V2: &str = "maquis-net-v2";

/// What a game's networks may read: the observation alone (the first of `all()`), or the
/// observation followed by extra values.
pub trait Inputs: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// Every kind, the observation alone first.
    fn all() -> &'static [Self];
    /// The name in a file's metadata (`inputs`).
    fn name(self) -> &'static str;
    /// Values after the observation in an input row.
    fn extra(self) -> usize;
    /// Planes at the end of the row whose weights are added to the logits (`prior.weight`).
    fn prior_len(self) -> usize;
}

/// The inputs of a game whose networks read the observation alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObservationOnly {
    Observation,
}

impl Inputs for ObservationOnly {
    fn all() -> &'static [Self] {
        &[ObservationOnly::Observation]
    }
    fn name(self) -> &'static str {
        "observation"
    }
    fn extra(self) -> usize {
        0
    }
    fn prior_len(self) -> usize {
        0
    }
}

/// What a game tells the network: its sizes, the fingerprint its files carry, its inputs.
pub trait NetGame: Clone + Copy + fmt::Debug + Send + Sync + 'static {
    type Inputs: Inputs;
    fn obs_size() -> usize;
    fn num_actions() -> usize;
    /// The observation version a network is tied to (see [`layout_fingerprint`]).
    fn fingerprint() -> String;
    /// Fills the extra values of an input row from the observation before them.
    fn write_extra(inputs: Self::Inputs, obs: &[f32], extra: &mut [f32]) -> crate::Result<()>;
}

/// `<prefix>obs<OBS_SIZE>-a<NUM_ACTIONS>-<hash>`, the hash (FNV-1a, 64 bits) over every `(name,
/// offset, length)` of a layout: any change to the observation's meaning that moves or renames a
/// slice changes it. The prefix tells games apart whose layouts could collide.
pub fn layout_fingerprint<'a>(
    prefix: &str,
    layout: impl IntoIterator<Item = &'a (&'static str, usize, usize)>,
    obs_size: usize,
    num_actions: usize,
) -> String {
    let mut h = crate::digest::Fnv::new();
    for (name, off, len) in layout {
        h.bytes(format!("{name}:{off}:{len};").as_bytes());
    }
    format!("{prefix}obs{obs_size}-a{num_actions}-{:016x}", h.0)
}

/// Values per input row of `inputs` for game `G`.
pub fn input_size<G: NetGame>(inputs: G::Inputs) -> usize {
    G::obs_size() + inputs.extra()
}

/// Parses an `inputs` name of game `G`.
pub fn parse_inputs<G: NetGame>(name: &str) -> Result<G::Inputs, NetworkError> {
    G::Inputs::all().iter().copied().find(|i| i.name() == name).ok_or_else(|| {
        let known: Vec<&str> = G::Inputs::all().iter().map(|i| i.name()).collect();
        NetworkError(format!("unknown inputs {name:?}: expected one of {known:?}"))
    })
}

fn format_of<I: Inputs>(inputs: I) -> &'static str {
    if inputs == I::all()[0] {
        NETWORK_FORMAT
    } else {
        NETWORK_FORMAT_V2
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

/// A network of game `G` read from (or to be written to) a `maquis-net-v1` or `-v2` file.
#[derive(Clone, Debug)]
pub struct Network<G: NetGame> {
    inputs: G::Inputs,
    /// The convolutions over map planes in the row, if the file has them.
    maps: Option<MapStem>,
    trunk: Vec<Dense>,
    /// Policy and value heads together: `NUM_ACTIONS` logit columns, then the value's.
    heads: Dense,
    /// Per extra input plane, its weight in the logits (`prior.weight`; empty for the observation).
    prior: Vec<f32>,
    /// The file's `__metadata__` (format and fingerprint included).
    pub metadata: BTreeMap<String, String>,
    game: PhantomData<G>,
}

/// Scratch buffers of a forward pass (reused between calls).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
    /// The trunk's input when a stem reads map planes.
    features: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl<G: NetGame> Network<G> {
    /// A network over the observation from torch-convention tensors (`weight` `(out, in)`),
    /// checked for shapes. `trunk` lists `(weight, bias)` per hidden layer.
    pub fn from_layers(
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        metadata: BTreeMap<String, String>,
    ) -> Result<Self, NetworkError> {
        Self::with_inputs(G::Inputs::all()[0], trunk, policy, value, Array1::zeros(0), metadata)
    }

    /// As `from_layers` for any inputs; `prior` holds the extra planes' weights in the logits.
    pub fn with_inputs(
        inputs: G::Inputs,
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        prior: Array1<f32>,
        metadata: BTreeMap<String, String>,
    ) -> Result<Self, NetworkError> {
        Self::build(inputs, None, trunk, policy, value, prior, metadata)
    }

    /// As `with_inputs`, the trunk reading `maps`'s output in place of the row's map planes.
    pub fn with_maps(
        inputs: G::Inputs,
        maps: MapStem,
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        metadata: BTreeMap<String, String>,
    ) -> Result<Self, NetworkError> {
        Self::build(inputs, Some(maps), trunk, policy, value, Array1::zeros(inputs.prior_len()), metadata)
    }

    fn build(
        inputs: G::Inputs,
        maps: Option<MapStem>,
        trunk: Vec<(Array2<f32>, Array1<f32>)>,
        policy: (Array2<f32>, Array1<f32>),
        value: (Array2<f32>, Array1<f32>),
        prior: Array1<f32>,
        metadata: BTreeMap<String, String>,
    ) -> Result<Self, NetworkError> {
        if prior.len() != inputs.prior_len() {
            return err(format!(
                "prior.weight has shape {:?}: inputs {:?} take shape ({},)",
                prior.shape(),
                inputs.name(),
                inputs.prior_len()
            ));
        }
        let actions = G::num_actions();
        let row = input_size::<G>(inputs);
        let mut width = match &maps {
            Some(m) => m.fit(row).map_err(|e| NetworkError(format!("{e} (inputs {:?})", inputs.name())))?,
            None => row,
        };
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
        check("policy", &policy.0, &policy.1, width, Some(actions))?;
        check("value", &value.0, &value.1, width, Some(1))?;
        let w = ndarray::concatenate(ndarray::Axis(0), &[policy.0.view(), value.0.view()]).expect("same width");
        let b = ndarray::concatenate(ndarray::Axis(0), &[policy.1.view(), value.1.view()]).expect("1-d");
        let heads = Dense { w: w.t().as_standard_layout().to_owned(), b };
        let mut metadata = metadata;
        metadata.insert("format".into(), format_of(inputs).into());
        metadata.insert("observation".into(), G::fingerprint());
        if inputs == G::Inputs::all()[0] {
            metadata.remove("inputs");
        } else {
            metadata.insert("inputs".into(), inputs.name().into());
        }
        match &maps {
            Some(m) => metadata.insert("maps".into(), serde_json::to_string(&m.spec).expect("a plain struct")),
            None => metadata.remove("maps"),
        };
        Ok(Network { inputs, maps, trunk: layers, heads, prior: prior.to_vec(), metadata, game: PhantomData })
    }

    /// A freshly initialized network (uniform ±1/sqrt(fan-in), like torch's default), for tests and
    /// as a starting point. `hidden` lists the trunk's widths.
    pub fn random(hidden: &[usize], seed: u64) -> Self {
        Self::random_with_inputs(G::Inputs::all()[0], hidden, seed)
    }

    /// As `random`, reading `inputs` (the planes' weights drawn in ±1).
    pub fn random_with_inputs(inputs: G::Inputs, hidden: &[usize], seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut layer = |o: usize, i: usize| {
            let k = 1.0 / (i as f32).sqrt();
            let w = Array2::from_shape_fn((o, i), |_| rng.gen_range(-k..k));
            let b = Array1::from_shape_fn(o, |_| rng.gen_range(-k..k));
            (w, b)
        };
        let mut width = input_size::<G>(inputs);
        let mut trunk = Vec::new();
        for &h in hidden {
            trunk.push(layer(h, width));
            width = h;
        }
        let policy = layer(G::num_actions(), width);
        let value = layer(1, width);
        let prior = Array1::from_shape_fn(inputs.prior_len(), |_| rng.gen_range(-1.0..1.0));
        Self::with_inputs(inputs, trunk, policy, value, prior, BTreeMap::new()).expect("shapes built to fit")
    }

    /// A freshly initialized network whose stem reads the map planes of `spec` through `convs`
    /// (`(out channels, kernel)` per layer), then `hidden`, for tests and as a starting point.
    pub fn random_with_maps(inputs: G::Inputs, spec: MapSpec, convs: &[(usize, usize)], hidden: &[usize], seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut draw = |n: usize, fan_in: usize| -> Vec<f32> {
            let k = 1.0 / (fan_in as f32).sqrt();
            (0..n).map(|_| rng.gen_range(-k..k)).collect()
        };
        let mut inp = spec.planes[0];
        let mut layers = Vec::new();
        for &(o, k) in convs {
            layers.push((draw(o * inp * k * k, inp * k * k), [o, inp, k, k], draw(o, inp * k * k)));
            inp = o;
        }
        let stem = MapStem::new(spec, layers).expect("a stem built to fit");
        let mut width = stem.fit(input_size::<G>(inputs)).expect("a stem built to fit");
        let mut dense = |o: usize, i: usize| {
            (Array2::from_shape_vec((o, i), draw(o * i, i)).expect("sized"), Array1::from(draw(o, i)))
        };
        let mut trunk = Vec::new();
        for &h in hidden {
            trunk.push(dense(h, width));
            width = h;
        }
        let (policy, value) = (dense(G::num_actions(), width), dense(1, width));
        Self::with_maps(inputs, stem, trunk, policy, value, BTreeMap::new()).expect("shapes built to fit")
    }

    /// Reads a weight file.
    pub fn load(path: &std::path::Path) -> Result<Self, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError(format!("{}: {e}", path.display())))?;
        Self::from_bytes(&bytes).map_err(|e| NetworkError(format!("{}: {e}", path.display())))
    }

    /// Parses the bytes of a weight file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, NetworkError> {
        use safetensors::{Dtype, SafeTensors};
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file ({e:?})")))?;
        let meta: BTreeMap<String, String> =
            header.metadata().as_ref().map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).unwrap_or_default();
        let inputs = match meta.get("format").map(String::as_str) {
            Some(NETWORK_FORMAT) => match meta.get("inputs") {
                None => G::Inputs::all()[0],
                Some(i) => return err(format!("a {NETWORK_FORMAT} file reads the observation alone, but names inputs {i:?}")),
            },
            Some(NETWORK_FORMAT_V2) => match meta.get("inputs") {
                Some(i) => parse_inputs::<G>(i)?,
                None => return err(format!("no \"inputs\" in the metadata of a {NETWORK_FORMAT_V2} file")),
            },
            Some(other) => return err(format!("format {other:?}, expected {NETWORK_FORMAT:?} or {NETWORK_FORMAT_V2:?}")),
            None => return err(format!("no \"format\" in the metadata: not a {NETWORK_FORMAT} network")),
        };
        let expected = G::fingerprint();
        match meta.get("observation") {
            Some(found) if *found == expected => {}
            Some(found) => {
                return err(format!(
                    "made for observation layout {found}, but this maquis has {expected}: the network must be trained again for this build (or it belongs to another game)"
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
        let maps = match meta.get("maps") {
            None => None,
            Some(text) => {
                let spec: MapSpec = serde_json::from_str(text)
                    .map_err(|e| NetworkError(format!("metadata \"maps\" is not a map stem's layout ({e}): {text}")))?;
                let mut layers = Vec::new();
                while st.tensor(&format!("maps.{}.weight", layers.len())).is_ok() {
                    let i = layers.len();
                    let (ws, w) = get(&format!("maps.{i}.weight"), 4)?;
                    let (_, b) = get(&format!("maps.{i}.bias"), 1)?;
                    layers.push((w, [ws[0], ws[1], ws[2], ws[3]], b));
                }
                Some(MapStem::new(spec, layers)?)
            }
        };
        let convs = maps.as_ref().map_or(0, |m| m.spec.strides.len());
        let prior = match inputs.prior_len() {
            0 => Array1::zeros(0),
            _ => Array1::from(get("prior.weight", 1)?.1),
        };
        let known = |n: &str| {
            ["policy.weight", "policy.bias", "value.weight", "value.bias"].contains(&n)
                || (n == "prior.weight" && inputs.prior_len() > 0)
                || (0..trunk.len()).any(|k| n == format!("trunk.{k}.weight") || n == format!("trunk.{k}.bias"))
                || (0..convs).any(|k| n == format!("maps.{k}.weight") || n == format!("maps.{k}.bias"))
        };
        let mut stray: Vec<&str> = st.names().into_iter().filter(|n| !known(n)).collect();
        if !stray.is_empty() {
            stray.sort();
            return err(format!(
                "unexpected tensors {stray:?}: a network with inputs {:?} holds trunk.<i>.weight/bias for i = 0, 1, ..., policy.weight/bias and value.weight/bias{}{}",
                inputs.name(),
                if inputs.prior_len() > 0 { ", prior.weight" } else { "" },
                if convs > 0 { ", maps.<i>.weight/bias (one per stride of its metadata's \"maps\")" } else { "" }
            ));
        }
        Self::build(inputs, maps, trunk, policy, value, prior, meta)
    }

    /// The file's bytes (safetensors, float32).
    pub fn to_bytes(&self) -> Vec<u8> {
        use safetensors::tensor::TensorView;
        use safetensors::Dtype;
        let actions = G::num_actions();
        let mut owned: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
        let mut push = |name: String, shape: Vec<usize>, data: Vec<f32>| {
            owned.push((name, shape, data.iter().flat_map(|x| x.to_le_bytes()).collect()));
        };
        for (k, (w, shape, b)) in self.maps.iter().flat_map(MapStem::layers).enumerate() {
            push(format!("maps.{k}.weight"), shape.to_vec(), w);
            push(format!("maps.{k}.bias"), vec![b.len()], b);
        }
        // Stored (in, out); the file holds torch's (out, in).
        for (k, l) in self.trunk.iter().enumerate() {
            let wt = l.w.t();
            push(format!("trunk.{k}.weight"), wt.shape().to_vec(), wt.iter().copied().collect());
            push(format!("trunk.{k}.bias"), vec![l.b.len()], l.b.to_vec());
        }
        let wt = self.heads.w.t();
        let h = wt.shape()[1];
        push("policy.weight".into(), vec![actions, h], wt.rows().into_iter().take(actions).flatten().copied().collect());
        push("policy.bias".into(), vec![actions], self.heads.b.iter().take(actions).copied().collect());
        push("value.weight".into(), vec![1, h], wt.row(actions).to_vec());
        push("value.bias".into(), vec![1], vec![self.heads.b[actions]]);
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

    /// The convolution stem over the row's map planes, if the network has one.
    pub fn maps(&self) -> Option<&MapStem> {
        self.maps.as_ref()
    }

    /// What the network reads.
    pub fn inputs(&self) -> G::Inputs {
        self.inputs
    }

    /// Values per input row.
    pub fn input_size(&self) -> usize {
        input_size::<G>(self.inputs)
    }

    /// The input row of an observation (`input_size()` values written to `input`); an error if
    /// the game cannot compute the extra inputs from it.
    pub fn write_input(&self, obs: &[f32], input: &mut Vec<f32>) -> crate::Result<()> {
        input.clear();
        input.extend_from_slice(obs);
        input.resize(self.input_size(), 0.0);
        self.write_extra(input)
    }

    /// Fills what follows the observation in an input row from the observation before it.
    pub fn write_extra(&self, input: &mut [f32]) -> crate::Result<()> {
        if self.inputs.extra() == 0 {
            return Ok(());
        }
        let (obs, extra) = input.split_at_mut(G::obs_size());
        G::write_extra(self.inputs, obs, extra)
    }

    /// Logits (`NUM_ACTIONS`, written to `logits`) and value of one input row (`write_input`).
    pub fn forward_into(&self, input: &[f32], logits: &mut [f32], scratch: &mut Scratch) -> f32 {
        assert_eq!(input.len(), self.input_size(), "an input row has {} values", self.input_size());
        let actions = G::num_actions();
        let Scratch { a, b, features } = scratch;
        let mut x: &[f32] = input;
        if let Some(m) = &self.maps {
            m.features(input, features, a, b);
            x = features;
        }
        for l in &self.trunk {
            l.apply(x, a);
            for v in a.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(a, b);
            x = b;
        }
        self.heads.apply(x, a);
        logits.copy_from_slice(&a[..actions]);
        // The planes are the last `prior_len` blocks of the row.
        let planes = input.len() - self.prior.len() * actions;
        for (c, &w) in self.prior.iter().enumerate() {
            let plane = &input[planes + c * actions..planes + (c + 1) * actions];
            for (l, &p) in logits.iter_mut().zip(plane) {
                if p != 0.0 {
                    *l += w * p;
                }
            }
        }
        sigmoid(a[actions])
    }

    /// Logits `(n, NUM_ACTIONS)` and values `(n,)` of a batch of input rows `(n, input_size())`.
    pub fn forward(&self, rows: ArrayView2<'_, f32>) -> (Array2<f32>, Array1<f32>) {
        let n = rows.nrows();
        let mut logits = Array2::zeros((n, G::num_actions()));
        let mut values = Array1::zeros(n);
        let mut scratch = Scratch::default();
        let mut row = vec![0.0f32; self.input_size()];
        for i in 0..n {
            row.iter_mut().zip(rows.row(i)).for_each(|(r, &x)| *r = x);
            let out = logits.row_mut(i).into_slice().expect("a standard-layout row");
            values[i] = self.forward_into(&row, out, &mut scratch);
        }
        (logits, values)
    }
}

/// The legal action with the highest logit (ties: the lowest index); None if nothing is legal.
pub fn masked_argmax(logits: &[f32], legal: impl IntoIterator<Item = usize>) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    for a in legal {
        if best.is_none_or(|(_, v)| logits[a] > v) {
            best = Some((a, logits[a]));
        }
    }
    best.map(|b| b.0)
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

    #[test]
    fn masked_argmax_takes_the_best_legal_lowest_on_ties() {
        let logits = [0.5, 2.0, 2.0, 9.0];
        assert_eq!(masked_argmax(&logits, [0, 1, 2]), Some(1));
        assert_eq!(masked_argmax(&logits, [2, 0]), Some(2));
        assert_eq!(masked_argmax(&logits, []), None);
    }
}
