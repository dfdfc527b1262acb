//! Keras models as networks: the JSON of `model.to_json()` or the
//! `config.json` inside a `.keras` file (Keras 2 and 3, Sequential and
//! functional), channels last as Keras stores them. Contract, section 10.
//!
//! Layers are read in the order the file lists them (Keras writes them in
//! topological order); a layer's inputs are its inbound nodes. An error
//! names the layer and sits at the line and column of its `"name"` in the
//! file; a JSON syntax error at serde_json's.

use std::collections::HashMap;

use serde_json::Value;

use super::padded;
use super::sizes::{self, Padding};
use crate::oracle::model::errors::{OracleError, ParseError, ParseProblem};
use crate::oracle::model::layer::{Function, LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

/// Whether a JSON text is a Keras model (rather than this tool's network
/// form): it has a top-level `class_name` and `config`.
pub fn looks_like_keras(text: &str) -> bool {
    serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text))
        .map(|v| v.get("class_name").is_some() && v.get("config").is_some())
        .unwrap_or(false)
}

/// A tensor: channels then spatial sizes (no batch), and its shape before
/// a flatten.
#[derive(Debug, Clone)]
struct Tensor {
    dims: Vec<u64>,
    unflat: Option<Vec<u64>>,
    /// The layer that wrote it (`None`: the model's input).
    producer: Option<usize>,
}

struct Walk<'t> {
    text: &'t str,
    rank: usize,
    tensors: HashMap<String, Tensor>,
    layers: Vec<LayerSpec>,
    /// The sample's shape (channels first), from the first input.
    sample: Vec<u64>,
    /// How deep in nested models the walk is.
    depth: usize,
    /// The sample's shape (channels first) for an input of unknown sizes.
    hint: Option<Vec<u64>>,
    /// The tensors the next layer pushed reads (a Keras layer's inputs);
    /// `None`: the previous layer's output.
    reading: Option<Vec<Option<usize>>>,
    /// The nested models the walk is in, by name: a layer's weights are
    /// the Keras layer of that path, whichever call of it runs.
    scope: Vec<String>,
    /// The Keras layer being read, as its path through the nested models
    /// (`outer/inner/conv`): whichever call runs, its weights.
    keras_layer: String,
    /// The weights each layer with weights computes with (its index, the
    /// Keras layer's path): the calls of a shared layer share them
    /// (section 10).
    weights: Vec<(usize, String)>,
}

/// The position of a layer's `"name": "..."` in the text (1, 1 if absent).
fn position(text: &str, name: &str) -> (usize, usize) {
    let needle = format!("\"{name}\"");
    let at = text
        .match_indices(&needle)
        .map(|(i, _)| i)
        .find(|&i| {
            text[..i].trim_end().ends_with(':')
                && text[..i]
                    .trim_end()
                    .trim_end_matches(':')
                    .trim_end()
                    .ends_with("\"name\"")
        })
        .or_else(|| text.find(&needle));
    at.map_or((1, 1), |i| {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    })
}

/// Largest count a setting may hold (filters, units, kernels, pads):
/// 2^40, beyond which no network is meant.
const MAX_SETTING: u64 = 1 << 40;

/// A count of the layer's config: absent, or a whole number from `min` to
/// [`MAX_SETTING`].
fn count(config: &Value, key: &str, min: u64) -> Result<Option<u64>, String> {
    match config.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|&n| (min..=MAX_SETTING).contains(&n))
            .map(Some)
            .ok_or_else(|| format!("its {key} is {v}: a whole number from {min} to 2^40 is needed")),
    }
}

/// A per-dimension setting: a number or a list of `n`, each from `min` to
/// [`MAX_SETTING`].
fn per_dim(config: &Value, key: &str, n: usize, default: u64, min: u64) -> Result<Vec<u64>, String> {
    let check = |v: &Value| {
        v.as_u64()
            .filter(|&x| (min..=MAX_SETTING).contains(&x))
            .ok_or_else(|| format!("its {key} holds {v}: each must be a whole number from {min} to 2^40"))
    };
    match config.get(key) {
        Some(Value::Array(list)) if list.len() == n => list.iter().map(check).collect(),
        Some(Value::Array(list)) => Err(format!("its {key} has {} values for {n} dimensions", list.len())),
        Some(Value::Null) | None => Ok(vec![default; n]),
        Some(v) => Ok(vec![check(v)?; n]),
    }
}

/// The product of `dims`, `None` where it would wrap.
fn product(dims: &[u64]) -> Option<u64> {
    dims.iter().try_fold(1u64, |a, &b| a.checked_mul(b))
}

/// Items of a tensor of sizes `dims`, when at most 2^53 (exact in an f64),
/// without wrapping.
fn items_of(dims: &[u64]) -> Option<u64> {
    product(dims).filter(|&n| n <= MAX_ITEMS)
}

/// The most items a tensor may hold (2^53, exact in an f64).
const MAX_ITEMS: u64 = 1 << 53;

fn text_of<'v>(config: &'v Value, key: &str) -> Option<&'v str> {
    config.get(key).and_then(Value::as_str)
}

/// The output sizes of a window (`same`: padded to keep `ceil(in/stride)`,
/// else unpadded), as [`sizes::spatial`] computes them for ONNX.
fn window(input: &[u64], kernel: &[u64], strides: &[u64], dilation: &[u64], same: bool) -> Option<Vec<u64>> {
    let padding = if same { Padding::Same } else { Padding::Valid };
    sizes::spatial(input, kernel, strides, dilation, &padding, false)
}

impl Walk<'_> {
    fn error(&self, name: &str, problem: String) -> ParseError {
        // a later call of a shared layer (`name#call`) sits at the layer's name
        let (line, column) = match position(self.text, name) {
            (1, 1) => position(self.text, name.rsplit_once('#').map_or(name, |(n, _)| n)),
            found => found,
        };
        ParseError::at(
            line,
            column,
            ParseProblem::Unexpected {
                found: problem,
                expected: format!("a layer the model knows, with shapes that fit (layer '{name}')"),
            },
        )
    }

    /// A count the layer needs (filters, units).
    fn needed(&self, name: &str, config: &Value, key: &str) -> Result<u64, ParseError> {
        count(config, key, 1)
            .map_err(|p| self.error(name, p))?
            .ok_or_else(|| self.error(name, format!("no {key}")))
    }

    /// `C·m`: a depthwise convolution's outputs, its depth multiplier `m`.
    fn multiplied(&self, name: &str, config: &Value, channels: u64) -> Result<u64, ParseError> {
        let m = count(config, "depth_multiplier", 1)
            .map_err(|p| self.error(name, p))?
            .unwrap_or(1);
        channels.checked_mul(m).filter(|&n| n <= MAX_SETTING).ok_or_else(|| {
            self.error(
                name,
                format!("{channels} channels times a depth multiplier of {m} overflow"),
            )
        })
    }

    /// A padding or cropping: a number, a pair per dimension, or one number
    /// per dimension (`default` when absent).
    fn pairs(
        &self,
        name: &str,
        config: &Value,
        key: &str,
        n: usize,
        default: u64,
    ) -> Result<Vec<(u64, u64)>, ParseError> {
        let one = |v: &Value| {
            v.as_u64().filter(|&x| x <= MAX_SETTING).ok_or_else(|| {
                self.error(
                    name,
                    format!("its {key} holds {v}: a whole number from 0 to 2^40 is needed"),
                )
            })
        };
        match config.get(key) {
            Some(Value::Array(list)) if list.len() == n => list
                .iter()
                .map(|p| match p {
                    Value::Array(pair) if pair.len() == 2 => Ok((one(&pair[0])?, one(&pair[1])?)),
                    Value::Array(_) => Err(self.error(name, format!("its {key} holds {p}: pairs are needed"))),
                    v => Ok((one(v)?, one(v)?)),
                })
                .collect(),
            Some(Value::Array(list)) => {
                Err(self.error(name, format!("its {key} has {} values for {n} dimensions", list.len())))
            }
            Some(v) => Ok(vec![(one(v)?, one(v)?); n]),
            None => Ok(vec![(default, default); n]),
        }
    }

    fn push(&mut self, name: &str, kind: LayerKind, x: &[u64], w: Vec<u64>, y: Vec<u64>) -> Tensor {
        let index = self.layers.len();
        let mut layer = LayerSpec::plain(
            name,
            kind,
            Shape::new(padded(x, self.rank)),
            Shape::new(w),
            Shape::new(padded(&y, self.rank)),
        );
        if let Some(reads) = self.reading.take() {
            let reads: Vec<i64> = reads.iter().map(|r| r.map_or(-1, |p| p as i64)).collect();
            layer.set_reads(index, self.layers.last(), reads);
        }
        if layer.w.items() > 0.0 {
            self.weights.push((index, self.keras_layer.clone()));
        }
        self.layers.push(layer);
        Tensor {
            dims: y,
            unflat: None,
            producer: Some(index),
        }
    }

    /// Sets the function of the activation layer just added.
    fn function(&mut self, name: Option<&str>) {
        if let Some(layer) = self.layers.last_mut().filter(|l| l.kind == LayerKind::Act) {
            layer.function = Some(function_of(name.unwrap_or_default()));
        }
    }

    /// The activation a layer's config names, as its own layer.
    fn activation(&mut self, name: &str, config: &Value, y: Tensor) -> Tensor {
        match text_of(config, "activation") {
            None | Some("linear") => y,
            Some("relu") => self.push(
                &format!("{name}.relu"),
                LayerKind::Relu,
                &y.dims.clone(),
                Vec::new(),
                y.dims,
            ),
            Some(function) => {
                let t = self.push(
                    &format!("{name}.act"),
                    LayerKind::Act,
                    &y.dims.clone(),
                    Vec::new(),
                    y.dims,
                );
                self.function(Some(function));
                t
            }
        }
    }

    fn conv(
        &mut self,
        name: &str,
        config: &Value,
        x: &Tensor,
        filters: u64,
        groups: u64,
        depthwise: bool,
    ) -> Result<Tensor, ParseError> {
        let n = x.dims.len().saturating_sub(1);
        let kernel = per_dim(config, "kernel_size", n, 1, 1).map_err(|p| self.error(name, p))?;
        let strides = per_dim(config, "strides", n, 1, 1).map_err(|p| self.error(name, p))?;
        let dilation = per_dim(config, "dilation_rate", n, 1, 1).map_err(|p| self.error(name, p))?;
        let same = text_of(config, "padding") == Some("same");
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        let out = window(spatial, &kernel, &strides, &dilation, same).ok_or_else(|| {
            self.error(
                name,
                format!("its window {kernel:?} does not fit its input {spatial:?}"),
            )
        })?;
        let channels = x.dims.first().copied().unwrap_or(0);
        if groups == 0 || (!depthwise && channels % groups != 0) {
            return Err(self.error(name, format!("{groups} groups do not divide its {channels} channels")));
        }
        let mut w = vec![channels, filters];
        w.extend(&kernel);
        let mut y = vec![filters];
        y.extend(out);
        let t = self.push(name, LayerKind::Conv, &x.dims, w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.groups = if depthwise { channels } else { groups };
            layer.bias = config.get("use_bias").and_then(Value::as_bool).unwrap_or(true);
        }
        Ok(t)
    }

    fn layer(&mut self, class: &str, name: &str, config: &Value, inputs: &[Tensor]) -> Result<Tensor, ParseError> {
        let Some(x) = inputs.first().cloned() else {
            return Err(self.error(name, "it has no input".into()));
        };
        self.reading = Some(inputs.iter().map(|t| t.producer).collect());
        let channels = x.dims.first().copied().unwrap_or(0);
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        let too_many = || self.error(name, format!("its input {:?} holds more than 2^53 items", x.dims));
        let y = match class {
            "Conv1D" | "Conv2D" | "Conv3D" => {
                let filters = self.needed(name, config, "filters")?;
                let groups = count(config, "groups", 1)
                    .map_err(|p| self.error(name, p))?
                    .unwrap_or(1);
                let y = self.conv(name, config, &x, filters, groups, false)?;
                self.activation(name, config, y)
            }
            "DepthwiseConv2D" | "DepthwiseConv1D" => {
                let multiplier = self.multiplied(name, config, channels)?;
                let y = self.conv(name, config, &x, multiplier, 1, true)?;
                self.activation(name, config, y)
            }
            "SeparableConv2D" | "SeparableConv1D" => {
                let multiplied = self.multiplied(name, config, channels)?;
                let filters = self.needed(name, config, "filters")?;
                let no_bias = serde_json::json!({"use_bias": false, "kernel_size": config.get("kernel_size"), "strides": config.get("strides"), "padding": config.get("padding"), "dilation_rate": config.get("dilation_rate")});
                let d = self.conv(&format!("{name}.depthwise"), &no_bias, &x, multiplied, 1, true)?;
                let pointwise = serde_json::json!({"use_bias": config.get("use_bias").and_then(Value::as_bool).unwrap_or(true), "kernel_size": 1});
                let y = self.conv(&format!("{name}.pointwise"), &pointwise, &d, filters, 1, false)?;
                self.activation(name, config, y)
            }
            "Dense" => {
                let units = self.needed(name, config, "units")?;
                let bias = config.get("use_bias").and_then(Value::as_bool).unwrap_or(true);
                let spatial_items = items_of(x.dims.get(1..).unwrap_or(&[])).ok_or_else(too_many)?;
                let y = if x.unflat.is_none() && spatial_items > 1 {
                    // a Dense on a [H, W, C] tensor acts on each position: a 1×1 convolution
                    let pointwise = serde_json::json!({"use_bias": bias, "kernel_size": 1});
                    self.conv(name, &pointwise, &x, units, 1, false)?
                } else {
                    let input = padded(&x.unflat.clone().unwrap_or(x.dims.clone()), self.rank);
                    let mut w = vec![input.first().copied().unwrap_or(1), units];
                    w.extend(input.get(1..).unwrap_or(&[]));
                    let t = self.push(name, LayerKind::Fc, &input, w, vec![units]);
                    if let Some(layer) = self.layers.last_mut() {
                        layer.bias = bias;
                    }
                    t
                };
                self.activation(name, config, y)
            }
            "BatchNormalization" | "LayerNormalization" => {
                let flag = |key: &str| config.get(key).and_then(Value::as_bool).unwrap_or(true);
                let kept = u64::from(flag("center")) + u64::from(flag("scale"));
                let w = if kept == 0 { Vec::new() } else { vec![kept, channels] };
                let kind = if class == "BatchNormalization" {
                    LayerKind::Bn
                } else {
                    LayerKind::Ln
                };
                self.push(name, kind, &x.dims, w, x.dims.clone())
            }
            "MaxPooling1D" | "MaxPooling2D" | "MaxPooling3D" | "AveragePooling1D" | "AveragePooling2D"
            | "AveragePooling3D" => {
                let n = x.dims.len().saturating_sub(1);
                let kernel = per_dim(config, "pool_size", n, 2, 1).map_err(|p| self.error(name, p))?;
                let strides = match config.get("strides") {
                    Some(Value::Null) | None => kernel.clone(),
                    Some(_) => per_dim(config, "strides", n, 1, 1).map_err(|p| self.error(name, p))?,
                };
                let same = text_of(config, "padding") == Some("same");
                let spatial = x.dims.get(1..).unwrap_or(&[]);
                let out = window(spatial, &kernel, &strides, &vec![1; n], same).ok_or_else(|| {
                    self.error(name, format!("its pool {kernel:?} does not fit its input {spatial:?}"))
                })?;
                let mut w = vec![0, 0];
                w.extend(&kernel);
                let mut y = vec![channels];
                y.extend(out);
                let kind = if class.starts_with("Max") {
                    LayerKind::Maxpool
                } else {
                    LayerKind::Avgpool
                };
                self.push(name, kind, &x.dims, w, y)
            }
            "GlobalAveragePooling1D"
            | "GlobalAveragePooling2D"
            | "GlobalAveragePooling3D"
            | "GlobalMaxPooling2D"
            | "GlobalMaxPooling3D" => {
                let spatial = x.dims.get(1..).unwrap_or(&[]).to_vec();
                let mut w = vec![0, 0];
                w.extend(&spatial);
                let kind = if class.starts_with("GlobalMax") {
                    LayerKind::Maxpool
                } else {
                    LayerKind::Avgpool
                };
                let keep = config.get("keepdims").and_then(Value::as_bool).unwrap_or(false);
                let mut y = vec![channels];
                y.extend(spatial.iter().map(|_| 1));
                let t = self.push(name, kind, &x.dims, w, y);
                if keep {
                    t
                } else {
                    Tensor {
                        dims: vec![channels],
                        unflat: None,
                        producer: t.producer,
                    }
                }
            }
            "Add" | "Multiply" | "Concatenate" => {
                // Add and Multiply broadcast sizes of 1; Concatenate joins equal sizes
                let mut dims = x.dims.clone();
                for t in inputs {
                    if t.dims.len() != dims.len() {
                        return Err(self.error(name, "its inputs differ in rank".into()));
                    }
                    for (d, &e) in dims.iter_mut().zip(&t.dims).skip(usize::from(class == "Concatenate")) {
                        if *d == 1 && class != "Concatenate" {
                            *d = e;
                        } else if e != *d && !(e == 1 && class != "Concatenate") {
                            return Err(self.error(name, "its inputs differ in size".into()));
                        }
                    }
                }
                let x = Tensor {
                    dims,
                    unflat: None,
                    producer: x.producer,
                };
                let same_shape =
                    |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
                match class {
                    "Concatenate" => {
                        let axis = config.get("axis").and_then(Value::as_i64).unwrap_or(-1);
                        if axis != -1 && axis != x.dims.len() as i64 {
                            return Err(self.error(name, "only a concatenation along the channels is supported".into()));
                        }
                        let mut y = x.dims.clone();
                        let joined = inputs
                            .iter()
                            .try_fold(0u64, |a, t| a.checked_add(t.dims.first().copied().unwrap_or(0)))
                            .filter(|&c| c <= MAX_SETTING)
                            .ok_or_else(|| self.error(name, "its inputs' channels add up to more than 2^40".into()))?;
                        if let Some(c) = y.first_mut() {
                            *c = joined;
                        }
                        self.push(name, LayerKind::Concat, &y.clone(), Vec::new(), y)
                    }
                    "Add" => same_shape(self, LayerKind::Add),
                    _ => same_shape(self, LayerKind::Mul),
                }
            }
            "ReLU" => same_shape(self, LayerKind::Relu),
            "Activation" => {
                let function = text_of(config, "activation");
                let kind = if function == Some("relu") {
                    LayerKind::Relu
                } else {
                    LayerKind::Act
                };
                let t = same_shape(self, kind);
                self.function(function);
                t
            }
            "LeakyReLU" | "PReLU" | "ELU" | "Softmax" => {
                let t = same_shape(self, LayerKind::Act);
                self.function(Some(&class.to_ascii_lowercase()));
                t
            }
            "Dropout" | "SpatialDropout2D" | "SpatialDropout3D" => same_shape(self, LayerKind::Dropout),
            "Flatten" => Tensor {
                dims: vec![items_of(&x.dims).ok_or_else(too_many)?],
                unflat: Some(x.unflat.clone().unwrap_or(x.dims.clone())),
                producer: x.producer,
            },
            "ZeroPadding1D" | "ZeroPadding2D" | "ZeroPadding3D" => {
                let n = x.dims.len().saturating_sub(1);
                let pads = self.pairs(name, config, "padding", n, 1)?;
                let mut dims = vec![channels];
                for (&s, (a, b)) in x.dims.iter().skip(1).zip(&pads) {
                    let grown = s
                        .checked_add(*a)
                        .and_then(|v| v.checked_add(*b))
                        .filter(|&v| v <= MAX_SETTING)
                        .ok_or_else(|| self.error(name, format!("its padding {a}+{b} of {s} overflows")))?;
                    dims.push(grown);
                }
                Tensor {
                    dims,
                    unflat: None,
                    producer: x.producer,
                }
            }
            "Cropping1D" | "Cropping2D" | "Cropping3D" => {
                let n = x.dims.len().saturating_sub(1);
                let crops = self.pairs(name, config, "cropping", n, 0)?;
                let mut dims = vec![channels];
                for (&s, (a, b)) in x.dims.iter().skip(1).zip(&crops) {
                    let left = s
                        .checked_sub(*a)
                        .and_then(|v| v.checked_sub(*b))
                        .filter(|&v| v >= 1)
                        .ok_or_else(|| self.error(name, format!("its cropping {a}+{b} leaves nothing of {s}")))?;
                    dims.push(left);
                }
                Tensor {
                    dims,
                    unflat: None,
                    producer: x.producer,
                }
            }
            "Reshape" => {
                let target = config
                    .get("target_shape")
                    .and_then(Value::as_array)
                    .ok_or_else(|| self.error(name, "a Reshape without a target_shape".into()))?;
                let target = target
                    .iter()
                    .map(|v| v.as_u64().filter(|&d| (1..=MAX_SETTING).contains(&d)))
                    .collect::<Option<Vec<u64>>>()
                    .ok_or_else(|| self.error(name, format!("its target_shape {target:?} is not all sizes")))?;
                if product(&target) != product(&x.dims) {
                    return Err(self.error(
                        name,
                        format!("its target_shape {target:?} does not hold its input {:?}", x.dims),
                    ));
                }
                // channels last: the last size is the channels
                let dims = match target.split_last() {
                    Some((&c, spatial)) if target.len() > 1 => {
                        std::iter::once(c).chain(spatial.iter().copied()).collect()
                    }
                    _ => target,
                };
                let unflat = (dims.len() == 1).then(|| x.unflat.clone().unwrap_or(x.dims.clone()));
                Tensor {
                    dims,
                    unflat,
                    producer: x.producer,
                }
            }
            "CustomScaleLayer" => {
                // InceptionResNetV2's residual: inputs[0] + scale·inputs[1], no weight
                let dims = x.dims.clone();
                self.push(name, LayerKind::Add, &x.dims, Vec::new(), dims)
            }
            "LayerScale" => {
                let dims = x.dims.clone();
                self.push(name, LayerKind::Mul, &x.dims, vec![channels], dims)
            }
            "StochasticDepth"
            | "Identity"
            | "Rescaling"
            | "Normalization"
            | "GaussianNoise"
            | "ActivityRegularization" => x,
            _ => return Err(self.error(name, format!("the layer class {class} is not supported"))),
        };
        Ok(y)
    }
}

/// The function a Keras activation's name stands for (Keras runs nothing
/// in place: a leaky ReLU saves its input).
fn function_of(name: &str) -> Function {
    match name {
        "sigmoid" => Function::Sigmoid,
        "tanh" => Function::Tanh,
        "softmax" | "log_softmax" => Function::Softmax,
        "elu" | "selu" => Function::Elu,
        "relu6" => Function::Relu6,
        "swish" | "silu" => Function::Silu,
        "gelu" => Function::Gelu,
        "hard_sigmoid" => Function::Hardsigmoid,
        "hard_swish" | "hard_silu" => Function::Hardswish,
        "mish" => Function::Mish,
        _ => Function::Other,
    }
}

/// The key of the tensor a layer's call `node` wrote: the layer's name for
/// its first call, `name#node` for a later one.
fn tensor_key(name: &str, node: u64) -> String {
    if node == 0 {
        name.to_string()
    } else {
        format!("{name}#{node}")
    }
}

/// The inputs of each call of a layer (one list per inbound node), as the
/// keys of the tensors they read, from Keras 2's `[[["name", 0, 0, {}]],
/// ...]` or Keras 3's `[{"args": [...keras_history...]}, ...]`: `["name",
/// node, tensor]` reads the output of that layer's call `node`.
fn inbound(layer: &Value) -> Vec<Vec<String>> {
    fn history(v: &Value, out: &mut Vec<String>) {
        let node = |n: Option<&Value>| n.and_then(Value::as_u64).unwrap_or(0);
        match v {
            Value::Object(map) => {
                if let Some(Value::Array(h)) = map.get("config").and_then(|c| c.get("keras_history")) {
                    if let Some(name) = h.first().and_then(Value::as_str) {
                        out.push(tensor_key(name, node(h.get(1))));
                    }
                    return;
                }
                for value in map.values() {
                    history(value, out);
                }
            }
            Value::Array(list) => {
                // Keras 2: ["name", node, tensor, {kwargs}]
                if let (Some(Value::String(name)), Some(Value::Number(_))) = (list.first(), list.get(1)) {
                    out.push(tensor_key(name, node(list.get(1))));
                    return;
                }
                for value in list {
                    history(value, out);
                }
            }
            _ => {}
        }
    }
    let nodes = layer
        .get("inbound_nodes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    nodes
        .iter()
        .map(|call| {
            let mut out = Vec::new();
            history(call, &mut out);
            out
        })
        .collect()
}

/// Largest `config.json` read from a `.keras` archive (bytes).
const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// Whether bytes are a zip archive (a `.keras` file).
pub fn looks_like_archive(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Reads the model of a `.keras` file: the `config.json` in its zip
/// archive (stored or deflated).
///
/// # Errors
/// A [`ParseError`] at line 1 for an archive that cannot be read or has no
/// `config.json`; then as [`read`], at the line and column of the
/// `config.json`.
pub fn read_archive(bytes: &[u8], samples: u64, input_shape: Option<&Shape>) -> Result<Network, OracleError> {
    use std::io::Read;
    let broken = |what: String| {
        ParseError::at(
            1,
            1,
            ParseProblem::Unexpected {
                found: what,
                expected: "a .keras file (a zip archive holding config.json)".into(),
            },
        )
    };
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| broken(format!("not a zip archive ({e})")))?;
    let file = archive
        .by_name("config.json")
        .map_err(|e| broken(format!("no config.json ({e})")))?;
    if file.size() > MAX_CONFIG_BYTES {
        return Err(broken(format!("a config.json of {} bytes", file.size())).into());
    }
    let mut text = String::new();
    file.take(MAX_CONFIG_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| broken(format!("a config.json that cannot be read ({e})")))?;
    read(&text, samples, input_shape)
}

/// Reads a Keras model; `input_shape` (`[C, spatial...]`) gives the
/// sample's shape when the model leaves its input sizes unknown.
///
/// # Errors
/// A [`ParseError`] at the line and column of a JSON syntax error, or of
/// the `"name"` of the layer that cannot be read (an unsupported class, a
/// window that does not fit); [`OracleError::Input`] for layers that break
/// a rule of the model.
pub fn read(text: &str, samples: u64, input_shape: Option<&Shape>) -> Result<Network, OracleError> {
    // a byte-order mark is no part of the JSON
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let root: Value = serde_json::from_str(text)
        .map_err(|e| ParseError::at(e.line().max(1), e.column().max(1), ParseProblem::Json(e.to_string())))?;
    let config = root
        .get("config")
        .ok_or_else(|| ParseError::at(1, 1, ParseProblem::Missing("config".into())))?;
    let model_name = text_of(config, "name").unwrap_or("Keras model").to_string();
    let sequential = text_of(&root, "class_name") == Some("Sequential");
    let mut walk = Walk {
        text,
        rank: 0,
        tensors: HashMap::new(),
        layers: Vec::new(),
        sample: Vec::new(),
        depth: 0,
        hint: input_shape.map(|s| s.dims().to_vec()),
        reading: None,
        scope: Vec::new(),
        keras_layer: String::new(),
        weights: Vec::new(),
    };
    walk.model(config, sequential, None)?;
    if walk.layers.is_empty() {
        return Err(ParseError::at(1, 1, ParseProblem::Missing("a layer the model knows".into())).into());
    }
    // a layer called several times computes with one set of weights (section 10)
    super::shared::mark(&mut walk.layers, std::mem::take(&mut walk.weights));
    Ok(Network::new(NetworkSpec {
        name: model_name,
        dataset: DatasetSpec {
            name: "ImageNet-1k (assumed; change the dataset size)".into(),
            samples,
            sample_shape: Shape::new(walk.sample),
        },
        layers: walk.layers,
        profiled_on: None,
        step: None,
    })?)
}

/// A config that is not there (borrowed, never cloned).
static NULL: Value = Value::Null;

/// Models nested as layers at most this deep.
const MAX_NESTING: usize = 16;

impl Walk<'_> {
    /// Walks a model's layers and gives its output. A model nested as a
    /// layer of another gets its inputs `given`, which its input layers
    /// take in order, and keeps its layer names to itself.
    fn model(&mut self, config: &Value, sequential: bool, given: Option<&[Tensor]>) -> Result<Tensor, ParseError> {
        let at_start = |problem: &str| ParseError::at(1, 1, ParseProblem::Missing(problem.into()));
        let layers = config
            .get("layers")
            .and_then(Value::as_array)
            .ok_or_else(|| at_start("config.layers"))?;
        let outer = given.map(|_| std::mem::take(&mut self.tensors));
        let mut given = given.map(<[Tensor]>::iter);
        let mut previous: Option<String> = None;
        for (index, layer) in layers.iter().enumerate() {
            let class = text_of(layer, "class_name").unwrap_or_default();
            let layer_config = layer.get("config").unwrap_or(&NULL);
            let name = text_of(layer_config, "name")
                .or_else(|| text_of(layer, "name"))
                .map_or_else(|| format!("{class}_{index}"), str::to_string);
            // a nested model's input layers take the tensors it is given
            if let Some(inputs) = given.as_mut()
                && (class == "InputLayer" || (sequential && index == 0 && previous.is_none()))
            {
                let tensor = inputs
                    .next()
                    .cloned()
                    .ok_or_else(|| self.error(&name, "a nested model with more inputs than it is given".into()))?;
                self.tensors.insert(name.clone(), tensor);
                previous = Some(name.clone());
                if class == "InputLayer" {
                    continue;
                }
            } else if let Some(shape) = ["batch_shape", "batch_input_shape"]
                .iter()
                .find_map(|k| layer_config.get(*k).and_then(Value::as_array))
            {
                self.input(&name, shape)?;
                previous = Some(name.clone());
                if class == "InputLayer" {
                    continue;
                }
            }
            if class == "InputLayer" {
                return Err(self.error(&name, "an input layer without a batch_shape".into()));
            }
            // a layer called several times (a shared layer) is a layer per call, `name#call`
            // after the first, all computing with the first call's weights (section 10)
            let calls = if sequential {
                vec![previous.iter().cloned().collect()]
            } else {
                match inbound(layer) {
                    calls if calls.is_empty() => vec![Vec::new()],
                    calls => calls,
                }
            };
            for (call, names) in calls.iter().enumerate() {
                let key = tensor_key(&name, call as u64);
                let inputs = names
                    .iter()
                    .map(|n| {
                        self.tensors
                            .get(n)
                            .cloned()
                            .ok_or_else(|| self.error(&name, format!("its input '{n}' is not an earlier layer")))
                    })
                    .collect::<Result<Vec<Tensor>, ParseError>>()?;
                let output = if matches!(class, "Sequential" | "Functional" | "Model") {
                    if self.depth >= MAX_NESTING {
                        return Err(self.error(&name, format!("models nested more than {MAX_NESTING} deep")));
                    }
                    self.depth += 1;
                    self.scope.push(name.clone());
                    let nested = self.model(layer_config, class == "Sequential", Some(&inputs));
                    self.scope.pop();
                    self.depth -= 1;
                    nested?
                } else {
                    self.keras_layer = self.scope.iter().chain([&name]).cloned().collect::<Vec<_>>().join("/");
                    self.layer(class, &key, layer_config, &inputs)?
                };
                self.tensors.insert(key, output);
            }
            previous = Some(name);
        }
        // a functional model's output: its first output layer, else its last layer
        let output_name = config
            .get("output_layers")
            .and_then(|o| {
                let mut names = Vec::new();
                collect_names(o, &mut names);
                names.into_iter().next()
            })
            .or(previous);
        let output = output_name
            .and_then(|n| self.tensors.get(&n).cloned())
            .ok_or_else(|| at_start("a model output"))?;
        if let Some(outer) = outer {
            self.tensors = outer;
        }
        Ok(output)
    }

    /// The model's data input, channels last in the file, channels first here.
    fn input(&mut self, name: &str, shape: &[Value]) -> Result<(), ParseError> {
        let sizes = shape
            .iter()
            .skip(1)
            .map(|v| match v {
                Value::Null => Ok(None),
                v => v
                    .as_u64()
                    .filter(|&d| (1..=MAX_SETTING).contains(&d))
                    .map(Some)
                    .ok_or_else(|| self.error(name, format!("an input size of {v}"))),
            })
            .collect::<Result<Vec<Option<u64>>, ParseError>>()?;
        let dims = match (sizes.iter().copied().collect::<Option<Vec<u64>>>(), &self.hint) {
            (_, Some(hint)) if self.rank == 0 => hint.clone(),
            (Some(known), _) => {
                let Some((&c, spatial)) = known.split_last() else {
                    return Err(self.error(name, "an input without dimensions".into()));
                };
                std::iter::once(c).chain(spatial.iter().copied()).collect()
            }
            (None, _) => {
                return Err(self.error(
                    name,
                    "its input sizes are not all known: give the sample's shape (e.g. --input-shape 3x224x224)".into(),
                ));
            }
        };
        if !(2..=4).contains(&dims.len()) {
            return Err(self.error(
                name,
                format!("an input of {} dimensions (images or volumes: 2 to 4)", dims.len()),
            ));
        }
        if self.rank == 0 {
            self.rank = dims.len();
            self.sample = dims.clone();
        }
        self.tensors.insert(
            name.to_string(),
            Tensor {
                dims,
                unflat: None,
                producer: None,
            },
        );
        Ok(())
    }
}

/// The output tensors (their keys, [`tensor_key`]) in Keras 2's
/// `[["name", 0, 0]]` or Keras 3's `[["name", 0, 0]]` output lists.
fn collect_names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(list) => {
            if let (Some(Value::String(name)), Some(node)) = (list.first(), list.get(1).and_then(Value::as_u64)) {
                out.push(tensor_key(name, node));
            } else {
                for item in list {
                    collect_names(item, out);
                }
            }
        }
        Value::String(name) => out.push(name.clone()),
        _ => {}
    }
}
