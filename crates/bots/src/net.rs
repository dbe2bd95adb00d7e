//! A small policy network read from a weights file: a stack of dense
//! layers with ReLU between them, run on one observation at a time.
//!
//! Shaped for a learned bot that must decide in well under a millisecond
//! with no Python at run time: the weights are plain `f32` matrices, the
//! forward pass two loops, and the file is the safetensors layout (an
//! 8-byte little-endian header length, a JSON header naming each tensor's
//! dtype, shape and byte range, then the raw little-endian data), which
//! numpy writes with `struct` and `json` alone and which is read here with
//! serde_json, without a crate of its own. A file is checked whole before
//! use: a bad one is an error that says what is wrong, never a panic.
//!
//! Tensors are named `policy.{i}.weight` (shape `[out, in]`, row-major)
//! and `policy.{i}.bias` (shape `[out]`) for layers `i = 0, 1, …`; the
//! header's `__metadata__` carries `format` = [`FORMAT`] and whatever the
//! trainer records (the game, the table size, the training run).

use std::collections::BTreeMap;

/// The `format` a weights file's metadata must name.
pub const FORMAT: &str = "ratrace-mlp/1";

/// The largest header accepted, in bytes.
const MAX_HEADER: u64 = 1 << 20;

/// The most layers and the widest layer accepted (a file is data from
/// outside: its sizes are bounded before anything is allocated for it).
const MAX_LAYERS: usize = 16;
const MAX_WIDTH: usize = 1 << 16;

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// The file ends before what it announces.
    #[error("the weights file is truncated: {0}")]
    Truncated(String),
    /// The header is not the JSON a weights file holds.
    #[error("the weights file's header is not valid: {0}")]
    Header(String),
    /// A tensor is missing, or its shape or data do not fit the network.
    #[error("the weights file's tensor {name}: {why}")]
    Tensor {
        /// The tensor's name.
        name: String,
        /// What is wrong with it.
        why: String,
    },
}

/// One dense layer: `out = w · input + b`.
#[derive(Clone, Debug, PartialEq)]
struct Dense {
    inputs: usize,
    outputs: usize,
    /// `outputs × inputs`, row-major.
    w: Vec<f32>,
    b: Vec<f32>,
}

/// A stack of dense layers with ReLU between them (not after the last),
/// and the metadata its file carried.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    layers: Vec<Dense>,
    metadata: BTreeMap<String, String>,
}

impl Mlp {
    /// A network from its layers' `(weights, biases)`, each weight matrix
    /// `outputs × inputs` row-major; `None` if the sizes do not chain.
    pub fn new(
        inputs: usize,
        layers: Vec<(Vec<f32>, Vec<f32>)>,
        metadata: BTreeMap<String, String>,
    ) -> Option<Mlp> {
        let mut width = inputs;
        let mut dense = Vec::with_capacity(layers.len());
        for (w, b) in layers {
            let outputs = b.len();
            if outputs == 0 || w.len() != outputs.checked_mul(width)? {
                return None;
            }
            dense.push(Dense {
                inputs: width,
                outputs,
                w,
                b,
            });
            width = outputs;
        }
        (!dense.is_empty()).then_some(Mlp {
            layers: dense,
            metadata,
        })
    }

    /// The observation length the network reads.
    pub fn inputs(&self) -> usize {
        self.layers[0].inputs
    }

    /// The number of outputs (one logit per action id).
    pub fn outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].outputs
    }

    /// The metadata the file carried (`format` among them).
    pub fn metadata(&self) -> &BTreeMap<String, String> {
        &self.metadata
    }

    /// The output logits for `obs` (of length [`Mlp::inputs`]), computed
    /// in `scratch` (kept between calls so a decision allocates nothing
    /// once warm); the returned slice has [`Mlp::outputs`] values.
    pub fn forward<'a>(&self, obs: &[f32], scratch: &'a mut Scratch) -> &'a [f32] {
        let Scratch { a, b } = scratch;
        a.clear();
        a.extend_from_slice(&obs[..self.inputs().min(obs.len())]);
        a.resize(self.inputs(), 0.0);
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate() {
            b.clear();
            b.extend(
                layer
                    .w
                    .chunks_exact(layer.inputs)
                    .zip(&layer.b)
                    .map(|(row, bias)| {
                        let sum = dot(row, a) + bias;
                        if k < last {
                            sum.max(0.0)
                        } else {
                            sum
                        }
                    }),
            );
            std::mem::swap(a, b);
        }
        a
    }

    /// The file form: the safetensors layout described in the module doc.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut header = serde_json::Map::new();
        let mut data = Vec::new();
        let mut put = |name: String, shape: Vec<usize>, values: &[f32]| {
            let start = data.len();
            data.extend(values.iter().flat_map(|v| v.to_le_bytes()));
            header.insert(
                name,
                serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
            );
        };
        for (i, l) in self.layers.iter().enumerate() {
            put(
                format!("policy.{i}.weight"),
                vec![l.outputs, l.inputs],
                &l.w,
            );
            put(format!("policy.{i}.bias"), vec![l.outputs], &l.b);
        }
        let mut metadata = self.metadata.clone();
        metadata.insert("format".to_string(), FORMAT.to_string());
        header.insert("__metadata__".to_string(), serde_json::json!(metadata));
        let text = serde_json::Value::Object(header).to_string();
        let mut out = Vec::with_capacity(8 + text.len() + data.len());
        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(&data);
        out
    }

    /// Reads a weights file, checking all of it (see [`NetError`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Mlp, NetError> {
        let (header, data) = split(bytes)?;
        let metadata: BTreeMap<String, String> = match header.get("__metadata__") {
            Some(m) => serde_json::from_value(m.clone())
                .map_err(|e| NetError::Header(format!("__metadata__: {e}")))?,
            None => BTreeMap::new(),
        };
        if metadata.get("format").map(String::as_str) != Some(FORMAT) {
            return Err(NetError::Header(format!(
                "its format is {:?}, not {FORMAT}",
                metadata.get("format")
            )));
        }
        let mut layers: Vec<(Vec<f32>, Vec<f32>)> = Vec::new();
        let mut inputs = 0;
        for i in 0..=MAX_LAYERS {
            let name = format!("policy.{i}.weight");
            if !header.contains_key(&name) {
                break;
            }
            if i == MAX_LAYERS {
                return Err(NetError::Header(format!("more than {MAX_LAYERS} layers")));
            }
            let (w, shape) = tensor(&header, data, &name)?;
            let [outputs, width] = shape[..] else {
                return Err(bad(&name, format!("shape {shape:?} is not [out, in]")));
            };
            match layers.last() {
                None => inputs = width,
                Some((_, b)) if b.len() != width => {
                    let given = b.len();
                    return Err(bad(
                        &name,
                        format!("reads {width} values, the layer before gives {given}"),
                    ));
                }
                Some(_) => {}
            }
            let bias_name = format!("policy.{i}.bias");
            let (b, bias_shape) = tensor(&header, data, &bias_name)?;
            if bias_shape != [outputs] {
                return Err(bad(
                    &bias_name,
                    format!("shape {bias_shape:?} is not [{outputs}]"),
                ));
            }
            layers.push((w, b));
        }
        if layers.is_empty() {
            return Err(bad("policy.0.weight", "missing".to_string()));
        }
        Mlp::new(inputs, layers, metadata)
            .ok_or_else(|| NetError::Header("the layers' sizes do not chain".to_string()))
    }
}

/// Buffers for [`Mlp::forward`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    a: Vec<f32>,
    b: Vec<f32>,
}

/// The dot product of two equally long slices, in eight running sums so
/// that the compiler can keep them in one vector register (a single
/// running sum must add in order, which it cannot vectorize).
fn dot(w: &[f32], x: &[f32]) -> f32 {
    let mut acc = [0.0_f32; 8];
    let (wc, xc) = (w.chunks_exact(8), x.chunks_exact(8));
    let tail: f32 = wc
        .remainder()
        .iter()
        .zip(xc.remainder())
        .map(|(a, b)| a * b)
        .sum();
    for (a, b) in wc.zip(xc) {
        for k in 0..8 {
            acc[k] += a[k] * b[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// The index of the largest of `logits` whose `mask` entry is not 0 (the
/// first on a tie), or `None` if nothing is allowed.
pub fn masked_argmax(logits: &[f32], mask: &[u8]) -> Option<usize> {
    logits
        .iter()
        .zip(mask)
        .enumerate()
        .filter(|(_, (_, &m))| m != 0)
        .fold(
            None,
            |best: Option<(usize, f32)>, (i, (&v, _))| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((i, v)),
            },
        )
        .map(|(i, _)| i)
}

fn bad(name: &str, why: String) -> NetError {
    NetError::Tensor {
        name: name.to_string(),
        why,
    }
}

/// The header (parsed) and the data part of a file.
fn split(bytes: &[u8]) -> Result<(serde_json::Map<String, serde_json::Value>, &[u8]), NetError> {
    let Some((len, rest)) = bytes.split_first_chunk::<8>() else {
        return Err(NetError::Truncated("no header length".to_string()));
    };
    let len = u64::from_le_bytes(*len);
    if len > MAX_HEADER {
        return Err(NetError::Header(format!(
            "{len} bytes long, over {MAX_HEADER}"
        )));
    }
    let len = len as usize;
    if rest.len() < len {
        return Err(NetError::Truncated(format!(
            "a header of {len} bytes, {} there",
            rest.len()
        )));
    }
    let (text, data) = rest.split_at(len);
    match serde_json::from_slice(text) {
        Ok(serde_json::Value::Object(map)) => Ok((map, data)),
        Ok(_) => Err(NetError::Header("not a JSON object".to_string())),
        Err(e) => Err(NetError::Header(e.to_string())),
    }
}

/// Tensor `name`'s values and shape, checked against the data part.
fn tensor(
    header: &serde_json::Map<String, serde_json::Value>,
    data: &[u8],
    name: &str,
) -> Result<(Vec<f32>, Vec<usize>), NetError> {
    #[derive(serde::Deserialize)]
    struct Entry {
        dtype: String,
        shape: Vec<usize>,
        data_offsets: [usize; 2],
    }
    let entry = header
        .get(name)
        .ok_or_else(|| bad(name, "missing".to_string()))?;
    let e: Entry = serde_json::from_value(entry.clone()).map_err(|x| bad(name, x.to_string()))?;
    if e.dtype != "F32" {
        return Err(bad(name, format!("dtype {}, not F32", e.dtype)));
    }
    if e.shape.iter().any(|&d| d == 0 || d > MAX_WIDTH) {
        return Err(bad(name, format!("shape {:?} out of bounds", e.shape)));
    }
    let count: usize = e.shape.iter().product();
    let [start, end] = e.data_offsets;
    if start > end || end > data.len() {
        return Err(NetError::Truncated(format!(
            "{name} at bytes {start}..{end} of {}",
            data.len()
        )));
    }
    if end - start != count * 4 {
        return Err(bad(
            name,
            format!("{} bytes for {count} values", end - start),
        ));
    }
    let values = data[start..end]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((values, e.shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 3 inputs → 2 hidden (ReLU) → 2 outputs, small enough to check by hand.
    fn small() -> Mlp {
        let meta = BTreeMap::from([("game".to_string(), "dalmuti".to_string())]);
        Mlp::new(
            3,
            vec![
                (vec![1.0, 0.0, -1.0, 0.5, 0.5, 0.5], vec![0.0, -1.0]),
                (vec![1.0, 2.0, -1.0, 1.0], vec![0.5, 0.0]),
            ],
            meta,
        )
        .unwrap()
    }

    #[test]
    fn the_forward_pass_is_the_matrices_with_relu_between() {
        let net = small();
        let mut scratch = Scratch::default();
        // hidden: [1 - 3, 0.5 * 6 - 1] = [-2 → 0, 2]; out: [0 + 4 + 0.5, 0 + 2]
        assert_eq!(net.forward(&[1.0, 2.0, 3.0], &mut scratch), &[4.5, 2.0]);
        assert_eq!((net.inputs(), net.outputs()), (3, 2));
    }

    #[test]
    fn a_file_reads_back_the_same_network() {
        let net = small();
        let back = Mlp::from_bytes(&net.to_bytes()).unwrap();
        assert_eq!(back.layers, net.layers);
        assert_eq!(back.metadata()["format"], FORMAT);
        assert_eq!(back.metadata()["game"], "dalmuti");
    }

    #[test]
    fn the_dot_product_in_eight_sums_is_the_plain_one() {
        for n in [0, 1, 7, 8, 9, 16, 19, 291] {
            let w: Vec<f32> = (0..n).map(|i| (i % 5) as f32 - 2.0).collect();
            let x: Vec<f32> = (0..n).map(|i| (i % 3) as f32 * 0.5).collect();
            let plain: f32 = w.iter().zip(&x).map(|(a, b)| a * b).sum();
            assert!((dot(&w, &x) - plain).abs() < 1e-4, "{n}");
        }
    }

    #[test]
    fn masked_argmax_takes_the_best_allowed() {
        assert_eq!(masked_argmax(&[3.0, 9.0, 5.0], &[1, 0, 1]), Some(2));
        assert_eq!(masked_argmax(&[1.0, 1.0], &[1, 1]), Some(0));
        assert_eq!(masked_argmax(&[1.0], &[0]), None);
    }

    #[test]
    fn a_bad_file_is_an_error_that_says_what_is_wrong() {
        let good = small().to_bytes();
        assert!(matches!(
            Mlp::from_bytes(&good[..5]),
            Err(NetError::Truncated(_))
        ));
        assert!(matches!(
            Mlp::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Truncated(_))
        ));
        let mut huge = good.clone();
        huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(Mlp::from_bytes(&huge), Err(NetError::Header(_))));
        // A header that names the wrong format, or a shape the data does
        // not fit.
        let rewrite = |from: &str, to: &str| {
            let len = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
            let text = std::str::from_utf8(&good[8..8 + len])
                .unwrap()
                .replace(from, to);
            let mut out = (text.len() as u64).to_le_bytes().to_vec();
            out.extend_from_slice(text.as_bytes());
            out.extend_from_slice(&good[8 + len..]);
            out
        };
        let other = rewrite(FORMAT, "ratrace-mlp/9");
        assert!(matches!(Mlp::from_bytes(&other), Err(NetError::Header(_))));
        let reshaped = rewrite("\"shape\":[2,3]", "\"shape\":[3,2]");
        assert!(matches!(
            Mlp::from_bytes(&reshaped),
            Err(NetError::Tensor { .. })
        ));
        let wrong_dtype = rewrite("\"F32\"", "\"F16\"");
        assert!(matches!(
            Mlp::from_bytes(&wrong_dtype),
            Err(NetError::Tensor { .. })
        ));
        assert!(Mlp::from_bytes(b"garbage that is not a file").is_err());
    }

    proptest::proptest! {
        /// Whatever the bytes, reading them answers (an error or a
        /// network), never panics.
        #[test]
        fn any_bytes_are_read_without_a_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..512)) {
            let _ = Mlp::from_bytes(&bytes);
        }

        /// A damaged byte of a good file gives an error or a network of
        /// the same shape, never a panic.
        #[test]
        fn a_damaged_file_is_refused_or_read_whole(at in 0usize..400, to in proptest::prelude::any::<u8>()) {
            let mut bytes = small().to_bytes();
            let at = at % bytes.len();
            bytes[at] = to;
            if let Ok(net) = Mlp::from_bytes(&bytes) {
                let mut scratch = Scratch::default();
                proptest::prop_assert_eq!(net.forward(&[1.0; 3], &mut scratch).len(), net.outputs());
            }
        }
    }
}
