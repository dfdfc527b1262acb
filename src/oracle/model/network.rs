//! Networks: a dataset and an ordered list of layers.

use serde::{Deserialize, Serialize};

use super::checks::{self, MAX_COUNT};
use super::errors::{InputError, Rule};
use super::facts::KernelFacts;
use super::field::Field;
use super::layer::{Layer, LayerKind, LayerSpec, Source};
use super::practice::Precision;
use super::shape::Shape;

/// The training set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatasetSpec {
    /// Name, e.g. `ImageNet`.
    pub name: String,
    /// `D`: samples per epoch.
    pub samples: u64,
    /// Shape of one sample `[C, X1, X2(, X3)]`.
    pub sample_shape: Shape,
}

/// The GPU a profiled time was measured on (contract, section 7): in the
/// realistic edition a profile is scaled from it to the cluster's GPU.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfiledGpu {
    /// Name, e.g. `V100 SXM2 (ABCI)`.
    pub name: String,
    /// Its sustained FLOP/s (the `R` the profile goes with).
    pub flops_per_s: f64,
    /// Its sustained memory bandwidth in bytes/s, if known (roofline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bandwidth_bytes_per_s: Option<f64>,
    /// The sustained FLOP/s of its large FP32 matrix multiplications, if
    /// known (section 11's kernels; left out: `flops_per_s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemm_flops_per_s: Option<f64>,
    /// Its kernel facts (section 11), when it is a GPU this tool knows:
    /// the profile is then scaled by section 11's kernels on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernels: Option<KernelFacts>,
}

/// The training step a per-layer profile was measured in (section 12):
/// where, at which batch and precision, and what it measured beyond the
/// layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfiledStep {
    /// The device as the profiler named it, e.g. `NVIDIA H100 80GB HBM3`.
    pub device: String,
    /// Samples per step of the measurement.
    pub batch: u64,
    /// Its arithmetic.
    pub precision: Precision,
    /// The measured training step (forward, backward, optimizer), seconds.
    pub iteration_s: f64,
    /// `F`: the measured step beyond the layers' sum, seconds (the
    /// framework's cost of one iteration: optimizer, launches, glue).
    pub framework_s: f64,
    /// Peak memory allocated during the step, bytes (GPUs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<f64>,
    /// Bytes autograd saved for the backward pass of the step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_bytes: Option<f64>,
    /// A second batch the layers were timed at (each layer's `time2_s`):
    /// each layer's time is then a line through both (section 12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch2: Option<u64>,
}

/// A network as entered: plain data, not yet checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkSpec {
    /// Model name, e.g. `ResNet50`.
    pub name: String,
    /// Training set.
    pub dataset: DatasetSpec,
    /// Layers in order, `l = 1..G`.
    pub layers: Vec<LayerSpec>,
    /// The GPU the profiled times were measured on; `None` when unknown
    /// (the profile is then used as it is) or when there is no profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profiled_on: Option<ProfiledGpu>,
    /// The step the per-layer profile was measured in, when known
    /// (section 12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<ProfiledStep>,
}

/// Where per-layer compute times come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Profile {
    /// No profiled time: `t_l = 3·fwd_flops_l / R`.
    Flops,
    /// One profiled per-sample time for the whole model, shared by FLOPs.
    WholeModel {
        /// `T`, seconds per sample.
        per_sample_s: f64,
    },
    /// Every layer carries its own per-sample time.
    PerLayer,
}

/// A checked network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "NetworkSpec", into = "NetworkSpec")]
pub struct Network {
    name: String,
    dataset: DatasetSpec,
    layers: Vec<Layer>,
    profile: Profile,
    profiled_on: Option<ProfiledGpu>,
    step: Option<ProfiledStep>,
    totals: Totals,
}

/// Sums over the layers, computed once.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Totals {
    weight_items: f64,
    activation_items: f64,
    forward_flops: f64,
}

impl Network {
    /// Checks a network.
    ///
    /// Rules: a non-blank name; a dataset of 1 to 2^53 samples whose sample
    /// shape has 2 to 4 dimensions of at least 1; at least one layer, each
    /// valid (see [`Layer::new`]); profiled times either absent, only on the
    /// first layer (a whole-model time, which needs FLOPs to share), or on
    /// every layer; a layer's `shares` names an earlier layer that shares
    /// no other's weights and holds the same weights (`w`, groups, bias;
    /// section 10).
    ///
    /// # Errors
    /// An [`InputError`] naming the field, e.g. `layers[3] CONV2.w[0]`.
    pub fn new(spec: NetworkSpec) -> Result<Self, InputError> {
        checks::name("name", &spec.name)?;
        checks::name("dataset.name", &spec.dataset.name)?;
        checks::count("dataset.samples", spec.dataset.samples, 1, MAX_COUNT)?;
        spec.dataset
            .sample_shape
            .check_activation(&Field::from("dataset.sample_shape"))?;
        if spec.layers.is_empty() {
            return Err(InputError::new("layers", Rule::Empty));
        }
        if let Some(gpu) = &spec.profiled_on {
            check_profiled_gpu(gpu)?;
        }
        if let Some(step) = &spec.step {
            check_step(step)?;
        }
        let NetworkSpec {
            name,
            dataset,
            layers,
            profiled_on,
            step,
        } = spec;
        let mut checked = Vec::with_capacity(layers.len());
        for (i, layer) in layers.into_iter().enumerate() {
            let field = layer_field(i, &layer);
            check_reads(i, &layer).map_err(|e| e.within(&field))?;
            check_read_shapes(&layer, &checked, &dataset.sample_shape).map_err(|e| e.within(&field))?;
            check_shares(i, &layer, &checked).map_err(|e| e.within(&field))?;
            checked.push(Layer::new(layer).map_err(|e| e.within(&field))?);
        }
        let layers = checked;
        let profile = detect_profile(&layers)?;
        if step.is_some() && profile != Profile::PerLayer {
            return Err(InputError::new("step", Rule::StepWithoutProfile));
        }
        check_second_batch(step.as_ref(), &layers)?;
        let totals = Totals {
            weight_items: layers.iter().map(Layer::own_weight_items).sum(),
            activation_items: layers.iter().map(Layer::activation_items).sum(),
            forward_flops: layers.iter().map(Layer::forward_flops).sum(),
        };
        Ok(Self {
            name,
            dataset,
            layers,
            profile,
            profiled_on,
            step,
            totals,
        })
    }

    /// The network's data (a copy: the checked network keeps each layer
    /// once, inside its [`Layer`]).
    pub fn spec(&self) -> NetworkSpec {
        NetworkSpec {
            name: self.name.clone(),
            dataset: self.dataset.clone(),
            layers: self.layers.iter().map(|l| l.spec().clone()).collect(),
            profiled_on: self.profiled_on.clone(),
            step: self.step.clone(),
        }
    }

    /// Model name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The training set.
    pub fn dataset(&self) -> &DatasetSpec {
        &self.dataset
    }

    /// `D`: samples per epoch.
    pub fn dataset_samples(&self) -> u64 {
        self.dataset.samples
    }

    /// The checked layers.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The tensors layer `index` reads: its `reads`, or the previous
    /// layer's output (the input for the first layer).
    pub fn sources(&self, index: usize) -> Vec<Source> {
        match self.layers.get(index).and_then(|l| l.spec().reads.as_ref()) {
            Some(reads) => reads
                .iter()
                .map(|&r| usize::try_from(r).map_or(Source::Input, Source::Layer))
                .collect(),
            None if index == 0 => vec![Source::Input],
            None => vec![Source::Layer(index - 1)],
        }
    }

    /// For each layer, whether its input needs no gradient: it reads the
    /// network's input, or only layers that need none themselves (layers
    /// without weights before the first layer with weights: a pad, a
    /// normalisation by constants, a space-to-depth of the image), as
    /// autograd computes no gradient for a tensor that no parameter made.
    pub fn inputs_without_gradient(&self) -> Vec<bool> {
        let mut gradient = Vec::with_capacity(self.layers.len());
        let mut without = Vec::with_capacity(self.layers.len());
        for (i, layer) in self.layers.iter().enumerate() {
            let none = self.sources(i).iter().all(|s| match s {
                Source::Input => true,
                Source::Layer(j) => !gradient.get(*j).copied().unwrap_or(true),
            });
            without.push(none);
            gradient.push(!none || layer.weight_items() > 0.0);
        }
        without
    }

    /// Where compute times come from.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The GPU the profile was measured on, when the network has a
    /// profile and says which GPU.
    pub fn profiled_on(&self) -> Option<&ProfiledGpu> {
        match self.profile {
            Profile::Flops => None,
            _ => self.profiled_on.as_ref(),
        }
    }

    /// The step the per-layer profile was measured in (section 12).
    pub fn step(&self) -> Option<&ProfiledStep> {
        self.step.as_ref()
    }

    /// `F`: the framework's measured cost of one iteration beyond the
    /// layers, seconds (0 without a measured step).
    pub fn framework_s(&self) -> f64 {
        self.step.as_ref().map_or(0.0, |s| s.framework_s)
    }

    /// The same network trained on a dataset of `samples` samples an epoch
    /// (`--dataset-samples`; the network's own dataset is kept otherwise).
    ///
    /// # Errors
    /// [`Rule::CountTooSmall`] / [`Rule::CountTooLarge`] on
    /// `dataset.samples` (1 to 2^53).
    pub fn with_dataset_samples(mut self, samples: u64) -> Result<Self, InputError> {
        self.dataset.samples = checks::count("dataset.samples", samples, 1, MAX_COUNT)?;
        Ok(self)
    }

    /// The same network, recorded as profiled on `gpu`.
    #[must_use]
    pub fn profiled_on_gpu(mut self, gpu: ProfiledGpu) -> Self {
        self.profiled_on = Some(gpu);
        self
    }

    /// `W = Σ|w_l|`: weight items of the whole network, a tensor shared
    /// by several layers counted once (section 10).
    ///
    /// # Formula
    /// `W = Σ_l own_l`, [`Layer::own_weight_items`].
    pub fn weight_items(&self) -> f64 {
        self.totals.weight_items
    }

    /// The layers that share layer `index`'s weights (those whose `shares`
    /// names it), in order; empty for a layer whose weights no other
    /// layer reuses.
    pub fn sharers(&self, index: usize) -> Vec<usize> {
        self.layers
            .iter()
            .enumerate()
            .filter(|(_, l)| l.shares() == Some(index))
            .map(|(i, _)| i)
            .collect()
    }

    /// `A = Σ act_l`: activation items per sample.
    pub fn activation_items(&self) -> f64 {
        self.totals.activation_items
    }

    /// Forward FLOPs per sample of the whole network.
    pub fn forward_flops(&self) -> f64 {
        self.totals.forward_flops
    }
}

/// The field path of layer `index`: `layers[3] CONV2`.
pub fn layer_field(index: usize, layer: &LayerSpec) -> Field {
    Field::layer(index, &layer.name)
}

impl TryFrom<NetworkSpec> for Network {
    type Error = InputError;

    fn try_from(spec: NetworkSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Network> for NetworkSpec {
    fn from(network: Network) -> Self {
        NetworkSpec {
            name: network.name,
            dataset: network.dataset,
            layers: network.layers.into_iter().map(LayerSpec::from).collect(),
            profiled_on: network.profiled_on,
            step: network.step,
        }
    }
}

/// Rules of a profile's second batch: every layer timed at it when the
/// step names it (and none otherwise), a batch other than the first.
fn check_second_batch(step: Option<&ProfiledStep>, layers: &[Layer]) -> Result<(), InputError> {
    let batch2 = step.and_then(|s| s.batch2);
    if let (Some(step), Some(b2)) = (step, batch2) {
        checks::count(Field::from("step").key("batch2"), b2, 1, MAX_COUNT)?;
        if b2 == step.batch {
            return Err(InputError::new(
                Field::from("step").key("batch2"),
                Rule::Repeated(format!("batch {b2}")),
            ));
        }
    }
    for (i, layer) in layers.iter().enumerate() {
        if layer.time2_s().is_some() != batch2.is_some() {
            return Err(InputError::new(
                Field::from("time2_s").within(&layer_field(i, layer.spec())),
                Rule::PartialProfile,
            ));
        }
    }
    Ok(())
}

/// Rules of a layer's `reads`: not empty, each the input (`-1`) or an
/// earlier layer.
fn check_reads(index: usize, layer: &LayerSpec) -> Result<(), InputError> {
    let Some(reads) = &layer.reads else {
        return Ok(());
    };
    if reads.is_empty() {
        return Err(InputError::new("reads", Rule::Empty));
    }
    let last = index as i64 - 1;
    for (k, &r) in reads.iter().enumerate() {
        if !(-1..=last).contains(&r) {
            return Err(InputError::new(
                Field::from("reads").index(k),
                Rule::NotEarlier { last, found: r },
            ));
        }
    }
    Ok(())
}

/// Rules of the shapes a layer's `reads` name (their outputs, or the
/// sample's for `-1`), as far as a view between them (a slice, a crop, a
/// transpose or a reshape that is no layer) allows: a sum or product
/// (`add`, `mul`) reads tensors each of at least its input's items (a view
/// of them) or of items dividing its input's (a factor that broadcasts,
/// per channel or per group); a concatenation, tensors holding at least
/// its input's items together; a layer of any other kind but `other`, one
/// tensor.
fn check_read_shapes(layer: &LayerSpec, earlier: &[Layer], sample: &Shape) -> Result<(), InputError> {
    let Some(reads) = &layer.reads else {
        if layer.kind.is_product() {
            return Err(InputError::new(
                "reads",
                Rule::ReadsMisfit(format!(
                    "a layer of kind {} multiplies two tensors: name both in reads",
                    layer.kind.name()
                )),
            ));
        }
        return Ok(());
    };
    let shapes: Vec<&Shape> = reads
        .iter()
        .filter_map(|&r| match usize::try_from(r) {
            Ok(i) => earlier.get(i).map(|l| &l.spec().y),
            Err(_) => Some(sample),
        })
        .collect();
    let misfit = |rule: &str| {
        Err(InputError::new(
            "reads",
            Rule::ReadsMisfit(format!(
                "reads {}, which a layer of kind {} with input {} cannot take ({rule})",
                shapes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<String>>()
                    .join(" and "),
                layer.kind.name(),
                layer.x
            )),
        ))
    };
    match layer.kind {
        LayerKind::Other => Ok(()),
        LayerKind::Add | LayerKind::Mul => {
            // a view of at least its input's items (a slice, a transpose), or a tensor that
            // broadcasts to it (a per-channel or per-group factor): items dividing its input's
            let items = layer.x.items();
            let fits = |s: &&Shape| s.items() >= items || (s.items() > 0.0 && (items / s.items()).fract() == 0.0);
            if shapes.iter().all(fits) {
                Ok(())
            } else {
                misfit("each tensor of at least its input's items, or of items that divide its input's")
            }
        }
        LayerKind::Matmul => {
            // its input, then the other operand: a self-attention's keys or values, of at
            // least as many items as a head's row of products has columns (or, summing over
            // the positions, as the input has positions)
            let columns = if layer.sums_over_positions() {
                layer.x.spatial().iter().product::<u64>()
            } else {
                layer.y.channels() / layer.groups.max(1)
            };
            if shapes.len() == 2 && shapes[0].items() >= layer.x.items() && shapes[1].items() >= columns as f64 {
                Ok(())
            } else {
                misfit("two tensors: its input, then the other operand")
            }
        }
        LayerKind::Concat => {
            let together: f64 = shapes.iter().map(|s| s.items()).sum();
            if together >= layer.x.items() {
                Ok(())
            } else {
                misfit("tensors holding its input's items together")
            }
        }
        _ if shapes.len() != 1 => misfit("one tensor"),
        _ => Ok(()),
    }
}

/// Rules of `shares` (section 10): it names an earlier layer that does not
/// itself share another's weights, and whose weights are the same tensor:
/// the same shape `w`, groups and bias, and at least one item.
fn check_shares(index: usize, layer: &LayerSpec, earlier: &[Layer]) -> Result<(), InputError> {
    let Some(found) = layer.shares else {
        return Ok(());
    };
    let Some(owner) = earlier.get(found).filter(|_| found < index) else {
        return Err(InputError::new(
            "shares",
            Rule::SharesNotEarlier {
                last: index as i64 - 1,
                found,
            },
        ));
    };
    if let Some(first) = owner.shares() {
        return Err(InputError::new("shares", Rule::SharesSharer { found, owner: first }));
    }
    let describe = |w: &Shape, groups: u64, bias: bool| {
        let mut text = format!("w {w}");
        if groups != 1 {
            text.push_str(&format!(", {groups} groups"));
        }
        if bias {
            text.push_str(", a bias");
        }
        text
    };
    let theirs = describe(owner.w(), owner.groups(), owner.bias());
    let ours = describe(&layer.w, layer.groups, layer.bias);
    if theirs != ours || owner.weight_items() <= 0.0 {
        return Err(InputError::new(
            "shares",
            Rule::SharesOtherWeights {
                owner: found,
                owner_weights: theirs,
                found: ours,
            },
        ));
    }
    Ok(())
}

/// Rules of a profiled GPU: a non-blank name, rates between 1 and 1e30.
fn check_profiled_gpu(gpu: &ProfiledGpu) -> Result<(), InputError> {
    let field = |key: &'static str| Field::from("profiled_on").key(key);
    checks::name(field("name"), &gpu.name)?;
    checks::within(field("flops_per_s"), gpu.flops_per_s, 1.0, 1e30)?;
    if let Some(bw) = gpu.memory_bandwidth_bytes_per_s {
        checks::within(field("memory_bandwidth_bytes_per_s"), bw, 1.0, 1e30)?;
    }
    if let Some(rate) = gpu.gemm_flops_per_s {
        checks::within(field("gemm_flops_per_s"), rate, 1.0, 1e30)?;
    }
    if let Some(kernels) = &gpu.kernels {
        kernels.check(&Field::from("profiled_on").key("kernels"))?;
    }
    Ok(())
}

/// Longest measured step or framework cost accepted, seconds.
const MAX_STEP_S: f64 = 1e6;
/// Largest memory figure of a measured step, bytes.
const MAX_STEP_BYTES: f64 = 1e18;

/// Rules of a measured step: a non-blank device, a batch of 1 to 2^53, a
/// step longer than 0 and at most 10^6 s, a framework cost from 0 to the
/// step, memory figures from 0 to 10^18 bytes.
fn check_step(step: &ProfiledStep) -> Result<(), InputError> {
    let field = |key: &'static str| Field::from("step").key(key);
    checks::name(field("device"), &step.device)?;
    checks::count(field("batch"), step.batch, 1, MAX_COUNT)?;
    checks::positive(field("iteration_s"), step.iteration_s)?;
    checks::within(field("iteration_s"), step.iteration_s, 0.0, MAX_STEP_S)?;
    checks::within(field("framework_s"), step.framework_s, 0.0, step.iteration_s)?;
    for (key, bytes) in [
        ("peak_memory_bytes", step.peak_memory_bytes),
        ("saved_bytes", step.saved_bytes),
    ] {
        if let Some(bytes) = bytes {
            checks::within(field(key), bytes, 0.0, MAX_STEP_BYTES)?;
        }
    }
    Ok(())
}

fn detect_profile(layers: &[Layer]) -> Result<Profile, InputError> {
    let timed: Vec<usize> = layers
        .iter()
        .enumerate()
        .filter(|(_, l)| l.time_s().is_some_and(|t| t > 0.0))
        .map(|(i, _)| i)
        .collect();
    match timed.as_slice() {
        [] => Ok(Profile::Flops),
        [0] if layers.len() > 1 => {
            let per_sample_s = layers[0].time_s().unwrap_or(0.0);
            if layers.iter().map(Layer::forward_flops).sum::<f64>() > 0.0 {
                Ok(Profile::WholeModel { per_sample_s })
            } else {
                Err(InputError::new(
                    Field::from("time_s").within(&layer_field(0, layers[0].spec())),
                    Rule::NoFlops,
                ))
            }
        }
        _ => match layers.iter().position(|l| l.time_s().is_none()) {
            None => Ok(Profile::PerLayer),
            Some(i) => Err(InputError::new(
                Field::from("time_s").within(&layer_field(i, layers[i].spec())),
                Rule::PartialProfile,
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerKind;

    fn layer(name: &str, kind: LayerKind, time_s: Option<f64>) -> LayerSpec {
        let (w, y) = match kind {
            LayerKind::Conv => (Shape::from([3, 8, 3, 3]), Shape::from([8, 6, 6])),
            _ => (Shape::default(), Shape::from([3, 8, 8])),
        };
        LayerSpec {
            time_s,
            ..LayerSpec::plain(name, kind, [3, 8, 8].into(), w, y)
        }
    }

    fn spec(layers: Vec<LayerSpec>) -> NetworkSpec {
        NetworkSpec {
            name: "Tiny".into(),
            dataset: DatasetSpec {
                name: "Toy".into(),
                samples: 100,
                sample_shape: [3, 8, 8].into(),
            },
            layers,
            profiled_on: None,
            step: None,
        }
    }

    #[test]
    fn layer_fields_are_typed() {
        let field = Field::from("w")
            .index(0)
            .within(&layer_field(3, &layer("CONV2", LayerKind::Conv, None)));
        assert_eq!(field, "layers[3] CONV2.w[0]");
        assert_eq!(
            field.in_layer().map(|(i, rest)| (i, Field::first_key(rest))),
            Some((3, Some("w")))
        );
        assert_eq!(Field::from("dataset.samples").in_layer(), None);
    }

    #[test]
    fn profile_detection() {
        let flops = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.0)),
            layer("RELU", LayerKind::Relu, None),
        ]))
        .unwrap();
        assert_eq!(flops.profile(), Profile::Flops);
        let whole = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.0)),
        ]))
        .unwrap();
        assert_eq!(whole.profile(), Profile::WholeModel { per_sample_s: 0.5 });
        let per_layer = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.1)),
        ]))
        .unwrap();
        assert_eq!(per_layer.profile(), Profile::PerLayer);
    }

    #[test]
    fn partial_profile_is_an_error_naming_the_layer() {
        let err = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.1)),
            layer("DROP", LayerKind::Dropout, None),
        ]))
        .unwrap_err();
        assert_eq!(err.field, "layers[2] DROP.time_s");
        assert_eq!(err.rule, Rule::PartialProfile);
    }

    #[test]
    fn whole_model_time_without_flops_is_an_error() {
        let err = Network::new(spec(vec![
            layer("DROP", LayerKind::Dropout, Some(0.5)),
            layer("DROP", LayerKind::Dropout, Some(0.0)),
        ]))
        .unwrap_err();
        assert_eq!(err.rule, Rule::NoFlops);
    }

    #[test]
    fn invalid_layers_and_datasets_name_their_field() {
        let mut bad = layer("CONV2", LayerKind::Conv, None);
        bad.w = [4, 8, 3, 3].into();
        let err = Network::new(spec(vec![layer("CONV1", LayerKind::Conv, None), bad])).unwrap_err();
        assert_eq!(err.field, "layers[1] CONV2.w[0]");
        let mut s = spec(vec![layer("CONV1", LayerKind::Conv, None)]);
        s.dataset.samples = 0;
        assert_eq!(Network::new(s).unwrap_err().field, "dataset.samples");
        assert_eq!(Network::new(spec(vec![])).unwrap_err().field, "layers");
    }

    /// Two convolutions reading [3, 8, 8] (each from the input): the second
    /// may share the first's [3, 8, 3, 3] weights.
    fn two_convs(shares: Option<usize>) -> NetworkSpec {
        let mut second = layer("C2", LayerKind::Conv, None);
        second.reads = Some(vec![-1]);
        second.shares = shares;
        spec(vec![layer("C1", LayerKind::Conv, None), second])
    }

    #[test]
    fn a_shared_tensor_counts_once_in_the_parameters() {
        let own = Network::new(two_convs(None)).unwrap();
        let shared = Network::new(two_convs(Some(0))).unwrap();
        assert_eq!(own.weight_items(), 2.0 * 216.0);
        assert_eq!(shared.weight_items(), 216.0);
        assert_eq!(shared.forward_flops(), own.forward_flops(), "compute stays per use");
        assert_eq!(shared.layers()[1].weight_items(), 216.0);
        assert_eq!(shared.layers()[1].own_weight_items(), 0.0);
        assert_eq!(shared.sharers(0), [1]);
        // the JSON form carries it, and leaves it out where there is none
        let text = serde_json::to_string(&shared).unwrap();
        assert!(text.contains("\"shares\":0"), "{text}");
        assert_eq!(serde_json::from_str::<Network>(&text).unwrap(), shared);
        assert!(!serde_json::to_string(&own).unwrap().contains("shares"));
    }

    #[test]
    fn shares_names_an_earlier_layer_with_the_same_weights() {
        let err = Network::new(two_convs(Some(1))).unwrap_err();
        assert_eq!(err.field.to_string(), "layers[1] C2.shares");
        assert_eq!(err.rule, Rule::SharesNotEarlier { last: 0, found: 1 });
        // another shape
        let mut other = two_convs(Some(0));
        other.layers[1].w = [3, 4, 3, 3].into();
        other.layers[1].y = [4, 6, 6].into();
        let err = Network::new(other).unwrap_err();
        assert!(matches!(err.rule, Rule::SharesOtherWeights { owner: 0, .. }), "{err}");
        assert!(err.to_string().contains("w 3x8x3x3"), "{err}");
        // a bias of its own is another tensor
        let mut biased = two_convs(Some(0));
        biased.layers[1].bias = true;
        assert!(matches!(
            Network::new(biased).unwrap_err().rule,
            Rule::SharesOtherWeights { .. }
        ));
        // a weightless layer has nothing to share
        let mut relus = spec(vec![
            layer("R1", LayerKind::Relu, None),
            layer("R2", LayerKind::Relu, None),
        ]);
        relus.layers[1].shares = Some(0);
        assert!(matches!(
            Network::new(relus).unwrap_err().rule,
            Rule::SharesOtherWeights { .. }
        ));
        // a sharer of a sharer names the tensor's first use
        let mut chain = two_convs(Some(0));
        let mut third = layer("C3", LayerKind::Conv, None);
        third.reads = Some(vec![-1]);
        third.shares = Some(1);
        chain.layers.push(third);
        let err = Network::new(chain).unwrap_err();
        assert_eq!(err.rule, Rule::SharesSharer { found: 1, owner: 0 });
        assert_eq!(err.field.to_string(), "layers[2] C3.shares");
    }
}
