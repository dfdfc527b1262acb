//! A measured profile gives a network its per-layer times (section 12).

use std::collections::HashMap;
use std::fmt;

use super::{ModuleTime, TorchProfile, scope_path};
use crate::oracle::model::errors::{OracleError, ProfileError};
use crate::oracle::model::layer::Layer;
use crate::oracle::model::network::{Network, ProfiledGpu, ProfiledStep};
use crate::oracle::model::shape::Shape;

/// A network with a profile's times, and what the profile did not cover.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The network, every layer timed, with the measured step.
    pub network: Network,
    /// What the user should know about the mapping.
    pub warnings: Vec<ProfileWarning>,
}

/// Something a profile did not cover, or covered approximately.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfileWarning {
    /// Layers that no module of the profile is (functional operations
    /// such as a residual sum): timed at the profile's own rates.
    Unprofiled {
        /// Their names.
        layers: Vec<String>,
    },
    /// Modules timed that are no layer of the network (a dropout, an
    /// identity): their time is part of the framework's cost `F`.
    Unmatched {
        /// The modules (`name#call` for a later call).
        modules: Vec<String>,
        /// Their seconds at the profile's batch.
        seconds: f64,
    },
    /// The layers, each timed alone, took longer than the measured step:
    /// each is scaled by `iteration_s / layers_s` and `F` is 0.
    Rescaled {
        /// The layers' sum, seconds.
        layers_s: f64,
        /// The measured step, seconds.
        iteration_s: f64,
    },
    /// A device this tool has no facts for (a CPU, a GPU of no preset):
    /// its times are used as if measured on the cluster's GPU, and at one
    /// batch they scale linearly with the batch.
    UnknownDevice {
        device: String,
        /// Whether the profile has a second batch (each layer a line
        /// through both).
        two_batches: bool,
    },
}

/// Which GPU a device is, from its name and SMs, with its facts (`None`:
/// a device no facts are known for).
pub type KnownGpu = fn(&str, Option<u64>) -> Option<ProfiledGpu>;

/// Names listed in a warning at most.
const LISTED: usize = 5;

fn listed(names: &[String]) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(LISTED)
        .map(|n| format!("'{}'", crate::oracle::model::errors::quoted(n)))
        .collect();
    match names.len().saturating_sub(LISTED) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

impl fmt::Display for ProfileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unprofiled { layers } => write!(
                f,
                "{} layer(s) have no time in the profile ({}): they are timed at the profile's own rates (seconds per FLOP of its convolutions and linear layers, per item of its other layers)",
                layers.len(),
                listed(layers)
            ),
            Self::Unmatched { modules, seconds } => write!(
                f,
                "{} module(s) of the profile are no layer of the network ({}): their {:.3} ms count in the framework's cost",
                modules.len(),
                listed(modules),
                seconds * 1e3
            ),
            Self::Rescaled { layers_s, iteration_s } => write!(
                f,
                "the layers, each timed alone, took {:.3} ms, more than the measured step's {:.3} ms: each is scaled by {:.3} and the framework's cost is 0",
                layers_s * 1e3,
                iteration_s * 1e3,
                iteration_s / layers_s
            ),
            Self::UnknownDevice { device, two_batches } => write!(
                f,
                "the profile was measured on '{}', a device no preset describes: its times are used as if measured on the cluster's GPU, {}",
                crate::oracle::model::errors::quoted(device),
                if *two_batches {
                    "each layer's time a line through its two batches"
                } else {
                    "in proportion to the batch (measured at one batch: profile two, --batch B1,B2, for a time that follows the batch)"
                }
            ),
        }
    }
}

/// Whether a module class has weights (`Some(true)`: convolutions and
/// linear layers; `Some(false)`: activations, normalizations, pooling,
/// dropout; `None`: a class this tool does not know).
fn has_weights(class: &str) -> Option<bool> {
    const WEIGHTED: [&str; 4] = ["Conv", "Linear", "LazyConv", "LazyLinear"];
    const WEIGHTLESS: [&str; 22] = [
        "ReLU",
        "ReLU6",
        "LeakyReLU",
        "PReLU",
        "ELU",
        "SELU",
        "GELU",
        "SiLU",
        "Mish",
        "Hardswish",
        "Hardsigmoid",
        "Sigmoid",
        "Tanh",
        "Softmax",
        "MaxPool",
        "AvgPool",
        "AdaptiveAvgPool",
        "AdaptiveMaxPool",
        "Dropout",
        "Identity",
        "Flatten",
        "Upsample",
    ];
    let stem = class.trim_end_matches(|c: char| c.is_ascii_digit() || c == 'd');
    if WEIGHTED.iter().any(|w| class.starts_with(w)) {
        return Some(true);
    }
    if WEIGHTLESS.contains(&stem) || WEIGHTLESS.contains(&class) || class.contains("Norm") {
        return Some(false);
    }
    None
}

/// The profile's entry a layer is: its module path and call, found by the
/// layer's name.
fn entry_of(layer: &Layer, entries: &HashMap<(&str, u32), usize>) -> Option<usize> {
    let scope = scope_path(layer.name())?;
    if let Some(found) = entries.get(&(scope.path.as_str(), 0)) {
        return Some(*found);
    }
    let (base, call) = scope.call?;
    entries
        .get(&(base.as_str(), call))
        .or_else(|| entries.get(&(base.as_str(), 0)))
        .copied()
}

fn other(reason: String) -> OracleError {
    ProfileError::OtherNetwork(reason).into()
}

/// Checks that layer `layer` can be the profile's module `module`: the
/// same items in its input and weights on both or neither.
fn check_pair(layer: &Layer, module: &ModuleTime) -> Result<(), OracleError> {
    let quoted = crate::oracle::model::errors::quoted;
    if let Some(dims) = &module.input_shape {
        let shape = Shape::new(dims.clone());
        if shape.items() != layer.x().items() {
            return Err(other(format!(
                "its module '{}' took an input of {shape} per sample, the network's layer '{}' takes {}",
                quoted(&module.module),
                quoted(layer.name()),
                layer.x()
            )));
        }
    }
    if let Some(weighted) = has_weights(&module.kind)
        && weighted != layer.kind().has_weights()
    {
        return Err(other(format!(
            "its module '{}' is a {}, the network's layer '{}' is a {}",
            quoted(&module.module),
            quoted(&module.kind),
            quoted(layer.name()),
            layer.kind().label()
        )));
    }
    Ok(())
}

/// Gives `network` the times of `profile` (section 12).
///
/// # Formula
/// Each layer whose name is an exporter's scoped name (`/layer1/layer1.0/
/// conv1/Conv`) is the module of that path and call; its time per sample
/// is `t_l = (fwd_m + bwd_m)/B` at the profile's batch `B` (a module that
/// is several layers is shared by their forward FLOPs). A layer no module
/// is gets the profile's rates: `3·fwd_flops_l·B·ρ_F` for a layer with
/// weights, `ρ_F` the timed weighted layers' seconds per FLOP, else
/// `(|x_l| + |y_l|)·B·ρ_I`, `ρ_I` the other timed layers' seconds per
/// item. The framework's cost is `F = T_step − B·Σt_l`; when the layers'
/// sum exceeds the measured step they are scaled by `T_step/(B·Σt_l)` and
/// `F = 0`. A GPU `known` recognises (by its name and SMs; the presets'
/// GPUs, `crate::oracle::presets::devices::known_gpu`) is recorded with its
/// facts. The network takes the profile's name.
///
/// # Errors
/// [`ProfileError::OtherNetwork`] naming the mismatch when the profile's
/// sample shape or parameter count (beyond 1%) is not the network's, when
/// a module's input size or kind is not its layer's, or when fewer than
/// half the layers are modules of the profile; an
/// [`crate::oracle::InputError`] when the timed network breaks a rule.
pub fn apply(network: &Network, profile: &TorchProfile, known: KnownGpu) -> Result<Applied, OracleError> {
    let sample = network.dataset().sample_shape.dims();
    if let Some(shape) = &profile.input_shape
        && shape.as_slice() != sample
    {
        return Err(other(format!(
            "its sample is {}, the network's {}",
            Shape::new(shape.clone()),
            network.dataset().sample_shape
        )));
    }
    if let Some(parameters) = profile.parameters {
        let ours = network.weight_items();
        let theirs = parameters as f64;
        if (ours - theirs).abs() > 0.01 * ours.max(theirs) {
            return Err(other(format!("it has {parameters} parameters, the network {ours:.0}")));
        }
    }
    let mut entries: HashMap<(&str, u32), usize> = HashMap::new();
    for (i, m) in profile.layers.iter().enumerate() {
        entries.entry((m.module.as_str(), m.call)).or_insert(i);
    }
    let layers = network.layers();
    let matched: Vec<Option<usize>> = layers.iter().map(|l| entry_of(l, &entries)).collect();
    for (layer, entry) in layers.iter().zip(&matched) {
        if let Some(e) = entry {
            check_pair(layer, &profile.layers[*e])?;
        }
    }
    let timed = matched.iter().flatten().count();
    if timed * 2 < layers.len() {
        return Err(other(format!(
            "only {timed} of the network's {} layers are modules of the profile (its first layer is '{}', the profile's first module '{}'; profile the network you import, and import the model.onnx written beside the profile)",
            layers.len(),
            crate::oracle::model::errors::quoted(layers.first().map_or("", |l| l.name())),
            crate::oracle::model::errors::quoted(profile.layers.first().map_or("", |m| m.module.as_str())),
        )));
    }
    let batch = profile.batch as f64;
    let mut step_s = measured_times(layers, &matched, &profile.layers, ModuleTime::step_s);
    // at the second batch, when the profile has one
    let mut step2_s = profile
        .batch2
        .map(|_| measured_times(layers, &matched, &profile.layers, |m| m.step2_s().unwrap_or(0.0)));
    let batch2 = profile.batch2.map_or(0.0, |b| b as f64);
    let unprofiled: Vec<usize> = (0..layers.len()).filter(|&i| matched[i].is_none()).collect();
    let (per_flop, per_item) = rates(layers, &matched, &step_s, batch);
    let rates2 = step2_s.as_ref().map(|s2| rates(layers, &matched, s2, batch2));
    for &i in &unprofiled {
        let l = &layers[i];
        let at = |b: f64, (per_flop, per_item): (f64, f64)| {
            if l.kind().has_weights() && l.forward_flops() > 0.0 {
                3.0 * l.forward_flops() * b * per_flop
            } else {
                (l.x().items() + l.y().items()) * b * per_item
            }
        };
        step_s[i] = at(batch, (per_flop, per_item));
        if let (Some(s2), Some(r2)) = (step2_s.as_mut(), rates2) {
            s2[i] = at(batch2, r2);
        }
    }
    let mut warnings = Vec::new();
    if !unprofiled.is_empty() {
        warnings.push(ProfileWarning::Unprofiled {
            layers: unprofiled.iter().map(|&i| layers[i].name().to_string()).collect(),
        });
    }
    let used: std::collections::HashSet<usize> = matched.iter().flatten().copied().collect();
    let unmatched: Vec<&ModuleTime> = profile
        .layers
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, m)| m)
        .collect();
    if !unmatched.is_empty() {
        warnings.push(ProfileWarning::Unmatched {
            modules: unmatched
                .iter()
                .map(|m| match m.call {
                    0 => m.module.clone(),
                    n => format!("{}#{n}", m.module),
                })
                .collect(),
            seconds: unmatched.iter().map(|m| m.step_s()).sum(),
        });
    }
    let framework_s = fit_step(&mut step_s, profile.iteration_s, &mut warnings);
    if let (Some(s2), Some(iteration2_s)) = (step2_s.as_mut(), profile.iteration2_s) {
        fit_step(s2, iteration2_s, &mut warnings);
    }
    let gpu = match profile.device.kind.as_str() {
        "cuda" => known(&profile.device.name, profile.device.sms),
        _ => None,
    };
    let device = match profile.device.kind.as_str() {
        "cuda" => profile.device.name.trim().to_string(),
        kind => format!("{} ({kind})", profile.device.name.trim()),
    };
    if gpu.is_none() {
        warnings.push(ProfileWarning::UnknownDevice {
            device: device.clone(),
            two_batches: profile.batch2.is_some(),
        });
    }
    let mut spec = network.spec();
    spec.name = profile.name.trim().to_string();
    for (i, (layer, t)) in spec.layers.iter_mut().zip(&step_s).enumerate() {
        layer.time_s = Some(t / batch);
        layer.time2_s = step2_s.as_ref().map(|s2| s2[i] / batch2);
    }
    spec.profiled_on = gpu;
    spec.step = Some(ProfiledStep {
        device,
        batch: profile.batch,
        precision: profile.precision,
        iteration_s: profile.iteration_s,
        framework_s,
        peak_memory_bytes: profile.peak_memory_bytes,
        saved_bytes: profile.saved_bytes,
        batch2: profile.batch2,
    });
    Ok(Applied {
        network: Network::new(spec)?,
        warnings,
    })
}

/// The framework's cost `F = T_step − Σ`, the layers' seconds `step_s`
/// against a measured step; when they exceed it they are scaled to it,
/// `F = 0`, and a warning says so.
fn fit_step(step_s: &mut [f64], iteration_s: f64, warnings: &mut Vec<ProfileWarning>) -> f64 {
    let layers_s: f64 = step_s.iter().sum();
    if layers_s > iteration_s {
        warnings.push(ProfileWarning::Rescaled { layers_s, iteration_s });
        let scale = iteration_s / layers_s;
        step_s.iter_mut().for_each(|t| *t *= scale);
        0.0
    } else {
        iteration_s - layers_s
    }
}

/// Seconds of each layer a module is, as `time` reads a module (0 for the
/// others): a module that is several layers is shared by their forward
/// FLOPs (equally when they have none).
fn measured_times(
    layers: &[Layer],
    matched: &[Option<usize>],
    modules: &[ModuleTime],
    time: fn(&ModuleTime) -> f64,
) -> Vec<f64> {
    let mut flops: HashMap<usize, (f64, usize)> = HashMap::new();
    for (layer, entry) in layers.iter().zip(matched) {
        if let Some(e) = entry {
            let slot = flops.entry(*e).or_insert((0.0, 0));
            slot.0 += layer.forward_flops();
            slot.1 += 1;
        }
    }
    layers
        .iter()
        .zip(matched)
        .map(|(layer, entry)| {
            let Some(e) = entry else { return 0.0 };
            let (total, count) = flops.get(e).copied().unwrap_or((0.0, 1));
            let share = if total > 0.0 {
                layer.forward_flops() / total
            } else {
                1.0 / count.max(1) as f64
            };
            time(&modules[*e]) * share
        })
        .collect()
}

/// `ρ_F`, seconds per FLOP of the timed layers with weights, and `ρ_I`,
/// seconds per item (input and output, per sample times the batch) of
/// the other timed layers; 0 when there are none.
fn rates(layers: &[Layer], matched: &[Option<usize>], step_s: &[f64], batch: f64) -> (f64, f64) {
    let (mut flop_s, mut flops, mut item_s, mut items) = (0.0, 0.0, 0.0, 0.0);
    for ((layer, entry), t) in layers.iter().zip(matched).zip(step_s) {
        if entry.is_none() {
            continue;
        }
        if layer.kind().has_weights() && layer.forward_flops() > 0.0 {
            flop_s += t;
            flops += 3.0 * layer.forward_flops() * batch;
        } else {
            item_s += t;
            items += (layer.x().items() + layer.y().items()) * batch;
        }
    }
    let per = |s: f64, n: f64| if n > 0.0 { s / n } else { 0.0 };
    (per(flop_s, flops), per(item_s, items))
}
