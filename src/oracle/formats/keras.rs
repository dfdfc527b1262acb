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
use crate::oracle::model::errors::{OracleError, ParseError, ParseProblem};
use crate::oracle::model::layer::{LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

/// Whether a JSON text is a Keras model (rather than this tool's network
/// form): it has a top-level `class_name` and `config`.
pub fn looks_like_keras(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .map(|v| v.get("class_name").is_some() && v.get("config").is_some())
        .unwrap_or(false)
}

/// A tensor: channels then spatial sizes (no batch), and its shape before
/// a flatten.
#[derive(Debug, Clone)]
struct Tensor {
    dims: Vec<u64>,
    unflat: Option<Vec<u64>>,
}

struct Walk<'t> {
    text: &'t str,
    rank: usize,
    tensors: HashMap<String, Tensor>,
    layers: Vec<LayerSpec>,
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

fn number(config: &Value, key: &str) -> Option<u64> {
    config.get(key).and_then(Value::as_u64)
}

/// A per-dimension setting: a number or a list.
fn per_dim(config: &Value, key: &str, n: usize, default: u64) -> Vec<u64> {
    match config.get(key) {
        Some(Value::Array(list)) => {
            let v: Vec<u64> = list.iter().filter_map(Value::as_u64).collect();
            if v.len() == n { v } else { vec![default; n] }
        }
        Some(v) => vec![v.as_u64().unwrap_or(default); n],
        None => vec![default; n],
    }
}

fn text_of<'v>(config: &'v Value, key: &str) -> Option<&'v str> {
    config.get(key).and_then(Value::as_str)
}

/// Output sizes of a window: `same` keeps `⌈s/stride⌉`, `valid`
/// `⌊(s − d·(k−1) − 1)/stride⌋ + 1`.
fn window(input: &[u64], kernel: &[u64], strides: &[u64], dilation: &[u64], same: bool) -> Option<Vec<u64>> {
    input
        .iter()
        .zip(kernel.iter().zip(strides.iter().zip(dilation)))
        .map(|(&s, (&k, (&st, &d)))| {
            let st = st.max(1);
            if same {
                Some(s.div_ceil(st))
            } else {
                let span = d.max(1).checked_mul(k.checked_sub(1)?)?.checked_add(1)?;
                Some(s.checked_sub(span)? / st + 1)
            }
        })
        .collect()
}

impl Walk<'_> {
    fn error(&self, name: &str, problem: String) -> ParseError {
        let (line, column) = position(self.text, name);
        ParseError::at(
            line,
            column,
            ParseProblem::Unexpected {
                found: problem,
                expected: format!("a layer the model knows, with shapes that fit (layer '{name}')"),
            },
        )
    }

    fn push(&mut self, name: &str, kind: LayerKind, x: &[u64], w: Vec<u64>, y: Vec<u64>) -> Tensor {
        self.layers.push(LayerSpec::plain(
            name,
            kind,
            Shape::new(padded(x, self.rank)),
            Shape::new(w),
            Shape::new(padded(&y, self.rank)),
        ));
        Tensor { dims: y, unflat: None }
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
            Some(_) => self.push(
                &format!("{name}.act"),
                LayerKind::Act,
                &y.dims.clone(),
                Vec::new(),
                y.dims,
            ),
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
        let kernel = per_dim(config, "kernel_size", n, 1);
        let strides = per_dim(config, "strides", n, 1);
        let dilation = per_dim(config, "dilation_rate", n, 1);
        let same = text_of(config, "padding") == Some("same");
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        let out = window(spatial, &kernel, &strides, &dilation, same).ok_or_else(|| {
            self.error(
                name,
                format!("its window {kernel:?} does not fit its input {spatial:?}"),
            )
        })?;
        let channels = x.dims.first().copied().unwrap_or(0);
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
        let channels = x.dims.first().copied().unwrap_or(0);
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        let y = match class {
            "Conv1D" | "Conv2D" | "Conv3D" => {
                let filters = number(config, "filters").ok_or_else(|| self.error(name, "no filters".into()))?;
                let groups = number(config, "groups").unwrap_or(1);
                let y = self.conv(name, config, &x, filters, groups, false)?;
                self.activation(name, config, y)
            }
            "DepthwiseConv2D" | "DepthwiseConv1D" => {
                let multiplier = number(config, "depth_multiplier").unwrap_or(1);
                let y = self.conv(name, config, &x, channels * multiplier, 1, true)?;
                self.activation(name, config, y)
            }
            "SeparableConv2D" | "SeparableConv1D" => {
                let multiplier = number(config, "depth_multiplier").unwrap_or(1);
                let filters = number(config, "filters").ok_or_else(|| self.error(name, "no filters".into()))?;
                let no_bias = serde_json::json!({"use_bias": false, "kernel_size": config.get("kernel_size"), "strides": config.get("strides"), "padding": config.get("padding"), "dilation_rate": config.get("dilation_rate")});
                let d = self.conv(
                    &format!("{name}.depthwise"),
                    &no_bias,
                    &x,
                    channels * multiplier,
                    1,
                    true,
                )?;
                let pointwise = serde_json::json!({"use_bias": config.get("use_bias").and_then(Value::as_bool).unwrap_or(true), "kernel_size": 1});
                let y = self.conv(&format!("{name}.pointwise"), &pointwise, &d, filters, 1, false)?;
                self.activation(name, config, y)
            }
            "Dense" => {
                let units = number(config, "units").ok_or_else(|| self.error(name, "no units".into()))?;
                let bias = config.get("use_bias").and_then(Value::as_bool).unwrap_or(true);
                let spatial_items: u64 = x.dims.iter().skip(1).product();
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
                let kernel = per_dim(config, "pool_size", n, 2);
                let strides = match config.get("strides") {
                    Some(Value::Null) | None => kernel.clone(),
                    Some(_) => per_dim(config, "strides", n, 1),
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
                let x = Tensor { dims, unflat: None };
                let same_shape =
                    |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
                match class {
                    "Concatenate" => {
                        let axis = config.get("axis").and_then(Value::as_i64).unwrap_or(-1);
                        if axis != -1 && axis != x.dims.len() as i64 {
                            return Err(self.error(name, "only a concatenation along the channels is supported".into()));
                        }
                        let mut y = x.dims.clone();
                        if let Some(c) = y.first_mut() {
                            *c = inputs.iter().map(|t| t.dims.first().copied().unwrap_or(0)).sum();
                        }
                        self.push(name, LayerKind::Concat, &y.clone(), Vec::new(), y)
                    }
                    "Add" => same_shape(self, LayerKind::Add),
                    _ => same_shape(self, LayerKind::Mul),
                }
            }
            "ReLU" => same_shape(self, LayerKind::Relu),
            "Activation" => {
                let kind = if text_of(config, "activation") == Some("relu") {
                    LayerKind::Relu
                } else {
                    LayerKind::Act
                };
                same_shape(self, kind)
            }
            "LeakyReLU" | "PReLU" | "ELU" | "Softmax" => same_shape(self, LayerKind::Act),
            "Dropout" | "SpatialDropout2D" | "SpatialDropout3D" => same_shape(self, LayerKind::Dropout),
            "Flatten" => Tensor {
                dims: vec![x.dims.iter().product()],
                unflat: Some(x.unflat.clone().unwrap_or(x.dims.clone())),
            },
            "ZeroPadding1D" | "ZeroPadding2D" | "ZeroPadding3D" => {
                let n = x.dims.len().saturating_sub(1);
                let pads: Vec<(u64, u64)> = match config.get("padding") {
                    Some(Value::Array(list)) => list
                        .iter()
                        .map(|p| match p {
                            Value::Array(pair) => (
                                pair.first().and_then(Value::as_u64).unwrap_or(0),
                                pair.get(1).and_then(Value::as_u64).unwrap_or(0),
                            ),
                            v => (v.as_u64().unwrap_or(0), v.as_u64().unwrap_or(0)),
                        })
                        .collect(),
                    Some(v) => vec![(v.as_u64().unwrap_or(1), v.as_u64().unwrap_or(1)); n],
                    None => vec![(1, 1); n],
                };
                let mut dims = vec![channels];
                dims.extend(
                    x.dims
                        .iter()
                        .skip(1)
                        .zip(pads.iter().chain(std::iter::repeat(&(0, 0))))
                        .map(|(&s, (a, b))| s + a + b),
                );
                Tensor { dims, unflat: None }
            }
            "Rescaling" | "Normalization" => x,
            _ => return Err(self.error(name, format!("the layer class {class} is not supported"))),
        };
        Ok(y)
    }
}

/// The names of a layer's inputs, from Keras 2's `[[["name", 0, 0, {}]]]`
/// or Keras 3's `[{"args": [...keras_history...]}]`.
fn inbound(layer: &Value) -> Vec<String> {
    fn history(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Array(h)) = map.get("config").and_then(|c| c.get("keras_history")) {
                    if let Some(name) = h.first().and_then(Value::as_str) {
                        out.push(name.to_string());
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
                    out.push(name.clone());
                    return;
                }
                for value in list {
                    history(value, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some(nodes) = layer.get("inbound_nodes") {
        history(nodes, &mut out);
    }
    out
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
pub fn read_archive(bytes: &[u8], samples: u64) -> Result<Network, OracleError> {
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
    read(&text, samples)
}

/// Reads a Keras model.
///
/// # Errors
/// A [`ParseError`] at the line and column of a JSON syntax error, or of
/// the `"name"` of the layer that cannot be read (an unsupported class, a
/// window that does not fit); [`OracleError::Input`] for layers that break
/// a rule of the model.
pub fn read(text: &str, samples: u64) -> Result<Network, OracleError> {
    let root: Value = serde_json::from_str(text)
        .map_err(|e| ParseError::at(e.line().max(1), e.column().max(1), ParseProblem::Json(e.to_string())))?;
    let at_start = |problem: &str| ParseError::at(1, 1, ParseProblem::Missing(problem.into()));
    let config = root.get("config").ok_or_else(|| at_start("config"))?;
    let model_name = text_of(config, "name").unwrap_or("Keras model").to_string();
    let layers = config
        .get("layers")
        .and_then(Value::as_array)
        .ok_or_else(|| at_start("config.layers"))?;
    let sequential = text_of(&root, "class_name") == Some("Sequential");
    let mut walk = Walk {
        text,
        rank: 0,
        tensors: HashMap::new(),
        layers: Vec::new(),
    };
    let mut previous: Option<String> = None;
    let mut sample = Vec::new();
    for (index, layer) in layers.iter().enumerate() {
        let class = text_of(layer, "class_name").unwrap_or_default();
        let layer_config = layer.get("config").cloned().unwrap_or(Value::Null);
        let name = text_of(&layer_config, "name")
            .or_else(|| text_of(layer, "name"))
            .map_or_else(|| format!("{class}_{index}"), str::to_string);
        // an input layer, or a Sequential's first layer with its input shape
        let shape = ["batch_shape", "batch_input_shape"]
            .iter()
            .find_map(|k| layer_config.get(*k).and_then(Value::as_array))
            .map(|s| s.iter().skip(1).map(Value::as_u64).collect::<Option<Vec<u64>>>());
        if let Some(shape) = shape {
            let shape = shape.ok_or_else(|| walk.error(&name, "its input sizes are not all known".into()))?;
            // channels last → channels first
            let Some((&c, spatial)) = shape.split_last() else {
                return Err(walk.error(&name, "an input without dimensions".into()).into());
            };
            let mut dims = vec![c];
            dims.extend(spatial);
            if !(2..=4).contains(&dims.len()) {
                return Err(walk
                    .error(
                        &name,
                        format!("an input of {} dimensions (images or volumes: 2 to 4)", dims.len()),
                    )
                    .into());
            }
            walk.rank = dims.len();
            sample = dims.clone();
            walk.tensors.insert(name.clone(), Tensor { dims, unflat: None });
            previous = Some(name.clone());
            if class == "InputLayer" {
                continue;
            }
        }
        if class == "InputLayer" {
            return Err(walk.error(&name, "an input layer without a batch_shape".into()).into());
        }
        let names = if sequential {
            previous.iter().cloned().collect()
        } else {
            inbound(layer)
        };
        let inputs = names
            .iter()
            .map(|n| {
                walk.tensors
                    .get(n)
                    .cloned()
                    .ok_or_else(|| walk.error(&name, format!("its input '{n}' is not an earlier layer")))
            })
            .collect::<Result<Vec<Tensor>, ParseError>>()?;
        let output = walk.layer(class, &name, &layer_config, &inputs)?;
        walk.tensors.insert(name.clone(), output);
        previous = Some(name);
    }
    if walk.layers.is_empty() {
        return Err(at_start("a layer the model knows").into());
    }
    Ok(Network::new(NetworkSpec {
        name: model_name,
        dataset: DatasetSpec {
            name: "ImageNet-1k (assumed; change the dataset size)".into(),
            samples,
            sample_shape: Shape::new(sample),
        },
        layers: walk.layers,
        profiled_on: None,
    })?)
}
