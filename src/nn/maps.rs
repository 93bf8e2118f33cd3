//! A convolution stem over map planes held in an input row: a network whose file names `maps`
//! reads the planes `row[at .. at + C·H·W]` (torch's `(C, H, W)` order) through 2-d convolutions
//! with ReLU, and its trunk reads the row's other values with the stem's output between them:
//! `row[..at] ++ stem(planes) ++ row[at + C·H·W..]`, the stem's output flattened in `(H, W, C)`
//! order (torch: `x.permute(0, 2, 3, 1).flatten(1)`).
//!
//! The metadata's `maps` is JSON, `{"at": 1084, "planes": [15, 30, 45], "strides": [3, 2],
//! "padding": [0, 1]}`, and the file holds `maps.{i}.weight` `(out, in, k, k)` and `maps.{i}.bias`
//! `(out,)` per layer (torch's `nn.Conv2d`). Each layer scatters its non-zero inputs into the
//! outputs they reach: map planes are mostly zeros (a unit covers a few of 1,350 cells), so a
//! first layer whose stride equals its kernel costs about `non-zeros × out` multiply-adds.

use super::NetworkError;
use serde::{Deserialize, Serialize};

/// The stem's shape as the metadata's `maps` holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Where the planes start in an input row.
    pub at: usize,
    /// `[C, H, W]`.
    pub planes: [usize; 3],
    /// Each layer's stride.
    pub strides: Vec<usize>,
    /// Each layer's zero padding (on every side).
    pub padding: Vec<usize>,
}

/// One convolution, its weights stored `(in, ky, kx, out)` for the scatter.
#[derive(Clone, Debug)]
struct Conv {
    inp: usize,
    out: usize,
    k: usize,
    stride: usize,
    pad: usize,
    /// Input and output `(height, width)`.
    ih: usize,
    iw: usize,
    oh: usize,
    ow: usize,
    w: Vec<f32>,
    b: Vec<f32>,
}

impl Conv {
    /// `out` `(oh, ow, out)` = bias + the scatter of every non-zero input, then ReLU. The input is
    /// `(C, H, W)` when `chw` (the row's planes), else `(H, W, C)` (the last layer's output).
    fn apply(&self, x: &[f32], chw: bool, out: &mut Vec<f32>) {
        let o = self.out;
        out.clear();
        for _ in 0..self.oh * self.ow {
            out.extend_from_slice(&self.b);
        }
        for c in 0..self.inp {
            for y in 0..self.ih {
                for xx in 0..self.iw {
                    let v = if chw { x[(c * self.ih + y) * self.iw + xx] } else { x[(y * self.iw + xx) * self.inp + c] };
                    if v == 0.0 {
                        continue;
                    }
                    for ky in 0..self.k {
                        let Some(oy) = self.reach(y, ky, self.oh) else { continue };
                        for kx in 0..self.k {
                            let Some(ox) = self.reach(xx, kx, self.ow) else { continue };
                            let w = &self.w[((c * self.k + ky) * self.k + kx) * o..][..o];
                            for (a, &wi) in out[(oy * self.ow + ox) * o..][..o].iter_mut().zip(w) {
                                *a += v * wi;
                            }
                        }
                    }
                }
            }
        }
        for a in out.iter_mut() {
            *a = a.max(0.0);
        }
    }

    /// The output index that input index `i` reaches through kernel offset `k` (`i = o·stride −
    /// pad + k`), if any.
    fn reach(&self, i: usize, k: usize, n: usize) -> Option<usize> {
        let t = (i + self.pad).checked_sub(k)?;
        (t % self.stride == 0 && t / self.stride < n).then_some(t / self.stride)
    }
}

/// The convolution stem of a network (see the module's doc).
#[derive(Clone, Debug)]
pub struct MapStem {
    pub spec: MapSpec,
    layers: Vec<Conv>,
}

fn err<T>(msg: impl Into<String>) -> Result<T, NetworkError> {
    Err(NetworkError(msg.into()))
}

impl MapStem {
    /// The stem of `spec` with `layers` `(weight (out, in, k, k) row-major, its shape, bias)`;
    /// [`MapStem::fit`] checks it against an input row.
    pub fn new(spec: MapSpec, layers: Vec<(Vec<f32>, [usize; 4], Vec<f32>)>) -> Result<MapStem, NetworkError> {
        let [c, h, w] = spec.planes;
        if layers.is_empty() || spec.strides.len() != layers.len() || spec.padding.len() != layers.len() {
            return err(format!(
                "maps: {} convolution layers, {} strides and {} paddings: one of each per layer, at least one layer",
                layers.len(),
                spec.strides.len(),
                spec.padding.len()
            ));
        }
        if c * h * w == 0 {
            return err(format!("maps: planes {:?} hold no values", spec.planes));
        }
        let (mut inp, mut ih, mut iw) = (c, h, w);
        let mut convs = Vec::new();
        for (i, (weight, shape, bias)) in layers.into_iter().enumerate() {
            let [o, ci, k, k2] = shape;
            let (stride, pad) = (spec.strides[i], spec.padding[i]);
            if ci != inp || k != k2 || k == 0 || o == 0 || bias.len() != o {
                return err(format!(
                    "maps.{i}: weight {shape:?} and bias ({},) do not fit: expected (out, {inp}, k, k) and (out,)",
                    bias.len()
                ));
            }
            if stride == 0 || pad >= k || ih + 2 * pad < k || iw + 2 * pad < k {
                return err(format!(
                    "maps.{i}: stride {stride}, padding {pad} and kernel {k} over {ih} × {iw} cells leave no output"
                ));
            }
            let (oh, ow) = ((ih + 2 * pad - k) / stride + 1, (iw + 2 * pad - k) / stride + 1);
            // (out, in, ky, kx) → (in, ky, kx, out)
            let mut wt = vec![0.0; weight.len()];
            for oo in 0..o {
                for j in 0..ci * k * k {
                    wt[j * o + oo] = weight[oo * ci * k * k + j];
                }
            }
            convs.push(Conv { inp, out: o, k, stride, pad, ih, iw, oh, ow, w: wt, b: bias });
            (inp, ih, iw) = (o, oh, ow);
        }
        Ok(MapStem { spec, layers: convs })
    }

    /// The planes' values in a row.
    pub fn planes_len(&self) -> usize {
        self.spec.planes.iter().product()
    }

    /// The stem's output values.
    pub fn out_len(&self) -> usize {
        let l = self.layers.last().expect("at least one layer");
        l.oh * l.ow * l.out
    }

    /// The trunk's input width for an input row of `row` values, or why the planes do not fit in
    /// such a row.
    pub fn fit(&self, row: usize) -> Result<usize, NetworkError> {
        if self.spec.at + self.planes_len() > row {
            return err(format!(
                "maps: planes {:?} at {} do not fit in an input row of {row} values",
                self.spec.planes, self.spec.at
            ));
        }
        Ok(row - self.planes_len() + self.out_len())
    }

    /// The trunk's input of an input row that the stem fits (`fit`), into `features` (`a`, `b`:
    /// scratch).
    pub fn features(&self, row: &[f32], features: &mut Vec<f32>, a: &mut Vec<f32>, b: &mut Vec<f32>) {
        let (at, n) = (self.spec.at, self.planes_len());
        let mut x: &[f32] = &row[at..at + n];
        for (i, l) in self.layers.iter().enumerate() {
            l.apply(x, i == 0, a);
            std::mem::swap(a, b);
            x = b;
        }
        features.clear();
        features.extend_from_slice(&row[..at]);
        features.extend_from_slice(x);
        features.extend_from_slice(&row[at + n..]);
    }

    /// Each layer's `(weight (out, in, k, k) row-major, its shape, bias)`, as a file holds them.
    pub fn layers(&self) -> Vec<(Vec<f32>, [usize; 4], Vec<f32>)> {
        self.layers
            .iter()
            .map(|l| {
                let per = l.inp * l.k * l.k;
                let mut w = vec![0.0; l.w.len()];
                for oo in 0..l.out {
                    for j in 0..per {
                        w[oo * per + j] = l.w[j * l.out + oo];
                    }
                }
                (w, [l.out, l.inp, l.k, l.k], l.b.clone())
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense direct convolution over `(C, H, W)` input, torch's definition, for reference.
    #[allow(clippy::too_many_arguments)]
    fn direct(x: &[f32], c: usize, h: usize, w: usize, wt: &[f32], o: usize, k: usize, s: usize, p: usize, b: &[f32]) -> Vec<f32> {
        let (oh, ow) = ((h + 2 * p - k) / s + 1, (w + 2 * p - k) / s + 1);
        let mut out = vec![0.0; o * oh * ow];
        for oo in 0..o {
            for y in 0..oh {
                for xx in 0..ow {
                    let mut acc = b[oo] as f64;
                    for cc in 0..c {
                        for ky in 0..k {
                            for kx in 0..k {
                                let (iy, ix) = ((y * s + ky) as isize - p as isize, (xx * s + kx) as isize - p as isize);
                                if iy < 0 || ix < 0 || iy >= h as isize || ix >= w as isize {
                                    continue;
                                }
                                acc += (x[(cc * h + iy as usize) * w + ix as usize] * wt[((oo * c + cc) * k + ky) * k + kx]) as f64;
                            }
                        }
                    }
                    out[(oo * oh + y) * ow + xx] = (acc as f32).max(0.0);
                }
            }
        }
        out
    }

    #[test]
    fn the_scatter_is_torchs_convolution() {
        let (c, h, w) = (3, 7, 10);
        let mut seed = 7u64;
        let mut next = || {
            seed = crate::draw::splitmix64(seed);
            (seed >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let x: Vec<f32> = (0..c * h * w).map(|i| if i % 3 == 0 { next() } else { 0.0 }).collect();
        for (o, k, s, p) in [(4, 3, 3, 0), (5, 3, 2, 1), (2, 3, 1, 1), (3, 2, 2, 0)] {
            let wt: Vec<f32> = (0..o * c * k * k).map(|_| next()).collect();
            let b: Vec<f32> = (0..o).map(|_| next()).collect();
            let spec = MapSpec { at: 2, planes: [c, h, w], strides: vec![s], padding: vec![p] };
            let stem = MapStem::new(spec, vec![(wt.clone(), [o, c, k, k], b.clone())]).unwrap();
            let row: Vec<f32> = [vec![9.0, 8.0], x.clone(), vec![7.0]].concat();
            let (mut f, mut a, mut bb) = (Vec::new(), Vec::new(), Vec::new());
            stem.features(&row, &mut f, &mut a, &mut bb);
            let want = direct(&x, c, h, w, &wt, o, k, s, p, &b);
            let (oh, ow) = ((h + 2 * p - k) / s + 1, (w + 2 * p - k) / s + 1);
            assert_eq!(f.len(), 3 + o * oh * ow);
            assert_eq!(stem.fit(row.len()).unwrap(), f.len());
            assert_eq!((f[0], f[1], *f.last().unwrap()), (9.0, 8.0, 7.0));
            for oo in 0..o {
                for y in 0..oh {
                    for xx in 0..ow {
                        let got = f[2 + (y * ow + xx) * o + oo];
                        let exp = want[(oo * oh + y) * ow + xx];
                        assert!((got - exp).abs() < 1e-5, "k{k} s{s} p{p}: ({oo}, {y}, {xx}) {got} != {exp}");
                    }
                }
            }
            assert_eq!(stem.layers()[0].0, wt, "the file's weights read back");
        }
    }

    #[test]
    fn a_stem_that_does_not_fit_is_refused_naming_why() {
        let spec = |strides: Vec<usize>, padding: Vec<usize>| MapSpec { at: 0, planes: [2, 4, 4], strides, padding };
        let layer = |o: usize, i: usize, k: usize| (vec![0.0; o * i * k * k], [o, i, k, k], vec![0.0; o]);
        let e = MapStem::new(spec(vec![1], vec![0]), vec![layer(3, 5, 3)]).unwrap_err();
        assert!(e.0.contains("maps.0") && e.0.contains("(out, 2, k, k)"), "{e}");
        let e = MapStem::new(spec(vec![1], vec![0]), vec![layer(3, 2, 3)]).unwrap().fit(31).unwrap_err();
        assert!(e.0.contains("do not fit in an input row of 31"), "{e}");
        let e = MapStem::new(spec(vec![1, 1], vec![0]), vec![layer(3, 2, 3)]).unwrap_err();
        assert!(e.0.contains("1 convolution layers, 2 strides and 1 paddings"), "{e}");
        let e = MapStem::new(spec(vec![1], vec![0]), vec![layer(3, 2, 5)]).unwrap_err();
        assert!(e.0.contains("leave no output"), "{e}");
    }
}
