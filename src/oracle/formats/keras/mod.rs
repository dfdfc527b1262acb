//! Keras models as networks: the JSON of `model.to_json()` or the
//! `config.json` inside a `.keras` file (Keras 2 and 3, Sequential and
//! functional), channels last as Keras stores them. Contract, section 10.
//!
//! Layers are read in the order the file lists them (Keras writes them in
//! topological order); a layer's inputs are its inbound nodes. An error
//! names the layer and sits at the line and column of its `"name"` in the
//! file; a JSON syntax error at serde_json's.

mod activation;
mod config;
mod merge;
mod pool;
mod shape;
mod weighted;

use std::collections::HashMap;

use config::{MAX_SETTING, items_of, position, text_of};

use serde_json::Value;

use super::padded;
use crate::oracle::model::errors::{OracleError, ParseError, ParseProblem, quoted};
use crate::oracle::model::layer::{LayerKind, LayerSpec};
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
    /// The model's layers hold their channels first (`data_format:
    /// "channels_first"`): its input and reshapes are read in that order.
    channels_first: bool,
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

impl Walk<'_> {
    fn error(&self, name: &str, problem: String) -> ParseError {
        layer_error(self.text, name, problem)
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

    fn layer(&mut self, class: &str, name: &str, config: &Value, inputs: &[Tensor]) -> Result<Tensor, ParseError> {
        let Some(x) = inputs.first().cloned() else {
            return Err(self.error(name, "it has no input".into()));
        };
        self.reading = Some(inputs.iter().map(|t| t.producer).collect());
        let channels = x.dims.first().copied().unwrap_or(0);
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        let too_many = || self.error(name, format!("its input {:?} holds more than 2^53 items", x.dims));
        let y = match class {
            "Conv1D" | "Conv2D" | "Conv3D" => self.conv_layer(name, config, x)?,
            "DepthwiseConv2D" | "DepthwiseConv1D" => self.depthwise(name, config, x)?,
            "SeparableConv2D" | "SeparableConv1D" => self.separable(name, config, x)?,
            "Dense" => self.dense(name, config, x)?,
            "BatchNormalization" | "LayerNormalization" => self.norm(class, name, config, x)?,
            "MaxPooling1D" | "MaxPooling2D" | "MaxPooling3D" | "AveragePooling1D" | "AveragePooling2D"
            | "AveragePooling3D" => self.pool(class, name, config, x)?,
            "GlobalAveragePooling1D"
            | "GlobalAveragePooling2D"
            | "GlobalAveragePooling3D"
            | "GlobalMaxPooling2D"
            | "GlobalMaxPooling3D" => self.global_pool(class, name, config, x)?,
            "Add" | "Multiply" | "Concatenate" => self.merge(class, name, config, inputs, x)?,
            "ReLU" => same_shape(self, LayerKind::Relu),
            "Activation" => self.activation_layer(name, config, x)?,
            "LeakyReLU" | "PReLU" | "ELU" | "Softmax" => self.advanced_activation(class, name, x)?,
            "Dropout" | "SpatialDropout2D" | "SpatialDropout3D" => same_shape(self, LayerKind::Dropout),
            "Flatten" => Tensor {
                dims: vec![items_of(&x.dims).ok_or_else(too_many)?],
                unflat: Some(x.unflat.clone().unwrap_or(x.dims.clone())),
                producer: x.producer,
            },
            "ZeroPadding1D" | "ZeroPadding2D" | "ZeroPadding3D" => self.zero_padding(name, config, x)?,
            "Cropping1D" | "Cropping2D" | "Cropping3D" => self.cropping(name, config, x)?,
            "Reshape" => self.reshape(name, config, x)?,
            "CustomScaleLayer" => self.custom_scale(name, x)?,
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
/// node, tensor]` reads the output of that layer's call `node` (every
/// layer here has one output: `tensor` is 0).
///
/// # Errors
/// A call or output index that is not a count, or an output other than
/// the first, in words.
fn inbound(layer: &Value) -> Result<Vec<Vec<String>>, String> {
    fn reference(name: &str, node: Option<&Value>, tensor: Option<&Value>) -> Result<String, String> {
        let index = |v: Option<&Value>, what: &str| match v {
            None => Ok(0),
            Some(v) => v
                .as_u64()
                .filter(|&i| i <= MAX_SETTING)
                .ok_or_else(|| format!("its input '{}' names {what} {v}, not a count", quoted(name))),
        };
        let node = index(node, "the call")?;
        if index(tensor, "the output")? != 0 {
            return Err(format!(
                "its input '{}' names output {} of a layer that has one",
                quoted(name),
                tensor.map(ToString::to_string).unwrap_or_default()
            ));
        }
        Ok(tensor_key(name, node))
    }
    fn history(v: &Value, out: &mut Vec<String>) -> Result<(), String> {
        match v {
            Value::Object(map) => {
                if let Some(Value::Array(h)) = map.get("config").and_then(|c| c.get("keras_history")) {
                    if let Some(name) = h.first().and_then(Value::as_str) {
                        out.push(reference(name, h.get(1), h.get(2))?);
                    }
                    return Ok(());
                }
                map.values().try_for_each(|value| history(value, out))
            }
            Value::Array(list) => {
                // Keras 2: ["name", node, tensor, {kwargs}]
                if let (Some(Value::String(name)), Some(Value::Number(_))) = (list.first(), list.get(1)) {
                    out.push(reference(name, list.get(1), list.get(2))?);
                    return Ok(());
                }
                list.iter().try_for_each(|value| history(value, out))
            }
            _ => Ok(()),
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
            history(call, &mut out)?;
            Ok(out)
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
    let channels_first = data_format(config, text)?;
    let mut walk = Walk {
        text,
        channels_first,
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

/// An error of layer `name`, at its name in `text`.
fn layer_error(text: &str, name: &str, problem: String) -> ParseError {
    // a later call of a shared layer (`name#call`) sits at the layer's name
    let (line, column) = match position(text, name) {
        (1, 1) => position(text, name.rsplit_once('#').map_or(name, |(n, _)| n)),
        found => found,
    };
    ParseError::at(
        line,
        column,
        ParseProblem::Layer {
            name: name.to_string(),
            problem,
        },
    )
}

/// Whether the model's layers hold their channels first: every
/// `data_format` it gives is `channels_first` (Keras's default, and what a
/// layer without one follows, is `channels_last`).
///
/// # Errors
/// A `data_format` of another value, or a model mixing both, at the layer.
fn data_format(config: &Value, text: &str) -> Result<bool, ParseError> {
    fn visit<'v>(v: &'v Value, name: Option<&'v str>, found: &mut Vec<(&'v str, &'v str)>) {
        match v {
            Value::Object(map) => {
                let name = map.get("name").and_then(Value::as_str).or(name);
                if let Some(format) = map.get("data_format").and_then(Value::as_str) {
                    found.push((format, name.unwrap_or_default()));
                }
                map.values().for_each(|value| visit(value, name, found));
            }
            Value::Array(items) => items.iter().for_each(|value| visit(value, name, found)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    visit(config, None, &mut found);
    let at = |name: &str, problem: String| layer_error(text, name, problem);
    if let Some((format, name)) = found
        .iter()
        .find(|(f, _)| !matches!(*f, "channels_first" | "channels_last"))
    {
        return Err(at(
            name,
            format!(
                "data_format '{}' (expected 'channels_first' or 'channels_last')",
                quoted(format)
            ),
        ));
    }
    let first = found.iter().find(|(f, _)| *f == "channels_first");
    let last = found.iter().find(|(f, _)| *f == "channels_last");
    match (first, last) {
        (Some(_), Some((_, name))) => Err(at(
            name,
            "channels_last in a model whose other layers are channels_first (one layout per model)".into(),
        )),
        (first, _) => Ok(first.is_some()),
    }
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
        let mut names = std::collections::HashSet::new();
        for (index, layer) in layers.iter().enumerate() {
            let class = text_of(layer, "class_name").unwrap_or_default();
            let layer_config = layer.get("config").unwrap_or(&NULL);
            let name = text_of(layer_config, "name")
                .or_else(|| text_of(layer, "name"))
                .map_or_else(|| format!("{class}_{index}"), str::to_string);
            if !names.insert(name.clone()) {
                return Err(self.error(
                    &name,
                    "a second layer of this name (a model's layer names are unique)".into(),
                ));
            }
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
                match inbound(layer).map_err(|problem| self.error(&name, problem))? {
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

    /// The model's data input, channels last in the file (or first, for a
    /// `channels_first` model), channels first here.
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
            (Some(known), _) if known.is_empty() => {
                return Err(self.error(name, "an input without dimensions".into()));
            }
            (Some(known), _) if self.channels_first => known,
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

/// `(kind, w dims, y dims)` of each layer of a Sequential model of `layers` (JSON
/// objects) over an `[8, 8, 3]` input (channels last, as Keras writes it),
/// or the error; for the families' unit tests.
#[cfg(test)]
type KindWeightsOutput = (LayerKind, Vec<u64>, Vec<u64>);

#[cfg(test)]
fn sequential(layers: &[&str]) -> Result<Vec<KindWeightsOutput>, OracleError> {
    let text = format!(
        r#"{{"class_name": "Sequential", "config": {{"name": "m", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 8, 8, 3]}}}},
  {}
]}}}}"#,
        layers.join(",\n  ")
    );
    let network = read(&text, 100, None)?;
    Ok(network
        .layers()
        .iter()
        .map(|l| (l.spec().kind, l.spec().w.dims().to_vec(), l.spec().y.dims().to_vec()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(input: &str, layers: &[&str]) -> Result<Network, OracleError> {
        let text = format!(
            r#"{{"class_name": "Sequential", "config": {{"name": "m", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": {input}}}}},
  {}
]}}}}"#,
            layers.join(",\n  ")
        );
        read(&text, 100, None)
    }

    #[test]
    fn a_channels_first_model_reads_its_input_and_reshapes_in_that_order() {
        // round 4: a channels_first Conv2D read as channels last had 4,624 parameters, not 448
        let conv = r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 16, "kernel_size": 3, "data_format": "channels_first"}}"#;
        let network = model("[null, 3, 32, 32]", &[conv]).unwrap();
        assert_eq!(network.weight_items(), 448.0);
        assert_eq!(network.layers()[0].spec().y.dims(), &[16, 30, 30]);
        let last = conv.replace("channels_first", "channels_last");
        assert_eq!(model("[null, 32, 32, 3]", &[&last]).unwrap().weight_items(), 448.0);
        let mixed = model("[null, 3, 32, 32]", &[conv, &last.replace("\"c\"", "\"d\"")]).unwrap_err();
        assert!(mixed.to_string().contains("one layout per model"), "{mixed}");
        let odd = model("[null, 3, 32, 32]", &[&conv.replace("channels_first", "NCHW")]).unwrap_err();
        assert!(odd.to_string().contains("data_format 'NCHW'"), "{odd}");
    }

    #[test]
    fn a_padding_is_valid_same_or_causal_and_nothing_else() {
        let conv = |padding: &str| {
            format!(
                r#"{{"class_name": "Conv2D", "config": {{"name": "c", "filters": 4, "kernel_size": 3, "padding": {padding}}}}}"#
            )
        };
        let y =
            |padding: &str| model("[null, 8, 8, 3]", &[&conv(padding)]).map(|n| n.layers()[0].spec().y.dims().to_vec());
        assert_eq!(y("\"same\"").unwrap(), vec![4, 8, 8]);
        assert_eq!(y("\"valid\"").unwrap(), vec![4, 6, 6]);
        assert_eq!(y("\"SAME\"").unwrap(), vec![4, 8, 8]);
        for bad in ["\"smae\"", "\"full\"", "3"] {
            let e = y(bad).unwrap_err().to_string();
            assert!(e.contains("its padding"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_reshape_holds_one_inferred_size() {
        let relu = r#"{"class_name": "ReLU", "config": {"name": "r"}}"#;
        let flat = r#"{"class_name": "Reshape", "config": {"name": "f", "target_shape": [-1]}}"#;
        let network = model("[null, 8, 8, 3]", &[flat, relu]).unwrap();
        assert_eq!(network.layers()[0].spec().y.dims().iter().product::<u64>(), 192);
        let two = r#"{"class_name": "Reshape", "config": {"name": "f", "target_shape": [-1, -1]}}"#;
        let e = model("[null, 8, 8, 3]", &[two, relu]).unwrap_err().to_string();
        assert!(e.contains("[-1,-1] is not sizes") && !e.contains("Number("), "{e}");
    }

    #[test]
    fn names_are_unique_and_inputs_name_a_call_and_output_that_exist() {
        let relu = |name: &str| format!(r#"{{"class_name": "ReLU", "config": {{"name": "{name}"}}}}"#);
        let e = model("[null, 8, 8, 3]", &[&relu("r"), &relu("r")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("a second layer of this name"), "{e}");
        let functional = |inbound: &str| {
            format!(
                r#"{{"class_name": "Functional", "config": {{"name": "f", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 8, 8, 3]}}}},
  {{"class_name": "ReLU", "config": {{"name": "r"}}, "inbound_nodes": [[{inbound}]]}}
], "output_layers": [["r", 0, 0]]}}}}"#
            )
        };
        assert!(read(&functional(r#"["in", 0, 0, {}]"#), 100, None).is_ok());
        for (bad, says) in [
            (r#"["in", 0, 5, {}]"#, "output 5"),
            (r#"["in", -1, 0, {}]"#, "not a count"),
            (r#"["in", 3, 0, {}]"#, "not an earlier layer"),
        ] {
            let e = read(&functional(bad), 100, None).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
