//! The time models behind the cost table: the ideal edition's per-sample
//! times (a profile's, or FLOPs at the GPU's rate), the realistic edition's
//! roofline (section 7) and kernels (section 11), and a profile's lines in
//! the batch (section 12).

use std::sync::Arc;

use super::attention::Role;
use super::kernels::{Cut, GpuModel, LayerWork, Numbers};
use super::saved::Widths;
use super::split::{SplitAxis, SplitPlan};
use super::terms::Terms;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::devices;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::facts::KernelFacts;
use crate::oracle::model::layer::Layer;
use crate::oracle::model::network::{Network, Profile, ProfiledGpu};
use crate::oracle::model::practice::{AttentionForm, MemoryFormat, Precision};
use crate::oracle::model::run::{DEFAULT_BYTES_PER_ITEM, Run};

/// Bytes per item a profile was measured with (fp32, as the reference
/// files were).
pub(super) const PROFILE_BYTES_PER_ITEM: f64 = 4.0;

/// `w_l`: a layer's training time on a GPU of `flops_per_s` and, when
/// known, `memory_bandwidth` bytes/s.
///
/// # Formula
/// `w_l = max(3·fwd_flops_l / R, 3·δ·(|x_l| + |y_l|) / BW_mem)`; without a
/// bandwidth, `3·fwd_flops_l / R` (contract, section 7).
pub fn roofline_s(layer: &Layer, flops_per_s: f64, memory_bandwidth: Option<f64>, bytes_per_item: f64) -> f64 {
    let arithmetic = 3.0 * layer.forward_flops() / flops_per_s;
    match memory_bandwidth {
        Some(bw) => arithmetic.max(3.0 * bytes_per_item * (layer.x().items() + layer.y().items()) / bw),
        None => arithmetic,
    }
}

/// Section 2's per-sample times, at the precision's rate `R_p` (a profile
/// measured in precision `p'` scaled by `R_p'/R_p`; fp32 without a
/// measured step).
pub(super) fn ideal_times(network: &Network, cluster: &Cluster, precision: Precision) -> Vec<f64> {
    let total_flops = network.forward_flops();
    let rate = cluster.flops_per_s(precision);
    let measured_in = network.step().map_or(Precision::Fp32, |s| s.precision);
    let profile_scale = cluster.flops_per_s(measured_in) / rate;
    let profile = network.profile();
    network
        .layers()
        .iter()
        .map(|layer| match profile {
            Profile::WholeModel { per_sample_s } => per_sample_s * layer.forward_flops() / total_flops * profile_scale,
            Profile::PerLayer => layer.time_s().unwrap_or(0.0) * profile_scale,
            Profile::Flops => 3.0 * layer.forward_flops() / rate,
        })
        .collect()
}

/// What the kernels follow of how the framework runs the network: each
/// layer's role in an attention (section 15) and, under mixed precision,
/// its tensors' widths (section 11).
pub(super) type Traced<'a> = (&'a [Role], Option<&'a [Widths]>);

/// What the realistic edition's per-sample times come with: the count of
/// memory-bound layers, a profile's scaling and the kernels.
pub(super) type Realistic = (Vec<f64>, usize, Option<ProfileScaling>, Option<Kernels>);

/// Section 7's per-sample times, the count of memory-bound layers and the
/// profile's scaling (see [`CostTable::for_edition`]); with the GPU's
/// kernel facts, section 11's kernels.
pub(super) fn realistic_times(
    network: &Network,
    cluster: &Cluster,
    terms: &Terms,
    basis: &TimeBasis,
    traced: Traced,
) -> Realistic {
    if let Some(facts) = terms.kernels {
        return kernel_times(network, terms, basis, facts, traced);
    }
    let (times, memory_bound, scaling) = roofline_times(network, cluster, terms, basis);
    (times, memory_bound, scaling, None)
}

/// Section 11: each layer's time per sample as its kernels tend to at a
/// large batch on the cluster's GPU, `K_l(∞)`, a profile scaled by the same
/// model on the GPU it was measured on (at fp32, `δ = 4`), and the
/// kernels that give the time at any batch and split.
pub(super) fn kernel_times(
    network: &Network,
    terms: &Terms,
    basis: &TimeBasis,
    facts: KernelFacts,
    (roles, widths): Traced,
) -> Realistic {
    let bandwidth = terms.memory_bandwidth_bytes_per_s.unwrap_or(f64::INFINITY);
    let here_gpu = GpuModel::of_facts(facts, bandwidth);
    let numbers = Numbers {
        item_bytes: basis.item_bytes,
        precision: basis.precision,
        format: basis.memory_format,
    };
    let without_gradient = network.inputs_without_gradient();
    let works: Vec<LayerWork> = network
        .layers()
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let width = widths.and_then(|w| w.get(i)).copied().unwrap_or_default();
            let role = roles.get(i).copied().unwrap_or(Role::Outside);
            LayerWork::of(l, without_gradient[i]).fused(role).with_widths(width)
        })
        .collect();
    let here: Vec<f64> = works.iter().map(|w| w.asymptotic_s(&numbers, &here_gpu)).collect();
    let mut unbound = here_gpu;
    unbound.bandwidth = f64::INFINITY;
    let memory_bound = works
        .iter()
        .zip(&here)
        .filter(|(w, t)| **t > w.asymptotic_s(&numbers, &unbound))
        .count();
    let gpu = network.profiled_on();
    let there_gpu = match gpu {
        Some(ProfiledGpu {
            kernels: Some(own),
            memory_bandwidth_bytes_per_s,
            ..
        }) => GpuModel::of_facts(*own, memory_bandwidth_bytes_per_s.unwrap_or(bandwidth)),
        // a GPU this tool knows by its name: its kernel facts
        Some(g) if let Some(known) = devices::device(&g.name, None) => GpuModel::of_facts(known.kernels(), bandwidth),
        Some(g) => GpuModel::of_rate(
            g.gemm_flops_per_s.unwrap_or(g.flops_per_s),
            g.memory_bandwidth_bytes_per_s.unwrap_or(bandwidth),
        ),
        None => here_gpu,
    };
    // the kernels as the profile measured them: at its batch and precision
    // (section 12; PyTorch's default layout), or as they tend to at a large
    // batch in fp32 (section 7's reference profiles)
    let there: Vec<f64> = works
        .iter()
        .map(|w| match network.step() {
            Some(step) => {
                let samples = step.batch as f64;
                let measured = Numbers {
                    item_bytes: PROFILE_BYTES_PER_ITEM * step.precision.item_share(),
                    precision: step.precision,
                    format: MemoryFormat::Nchw,
                };
                w.step_s(samples, Cut::Whole, &measured, &there_gpu) / samples
            }
            None => {
                let reference = Numbers {
                    item_bytes: PROFILE_BYTES_PER_ITEM,
                    precision: Precision::Fp32,
                    format: MemoryFormat::Nchw,
                };
                w.asymptotic_s(&reference, &there_gpu)
            }
        })
        .collect();
    let (times, profiled_s) = scale_profile(network, &here, &there);
    // reported when the profile's GPU is not the cluster's
    let same = there_gpu.same_as(&here_gpu);
    // a reference profile (section 7: FP32 on its GPU, in its authors' framework) is not
    // passed off as another GPU or precision: the kernels time those runs instead
    let replaced = profiled_s.is_some() && network.step().is_none() && (!same || basis.precision != Precision::Fp32);
    let times = if replaced { here.clone() } else { times };
    let scales = times
        .iter()
        .zip(&here)
        .map(|(t, k)| if *k > 0.0 { t / k } else { 1.0 })
        .collect();
    let scaling = profiled_s.and_then(|there_s| {
        gpu.filter(|_| !same || replaced).map(|g| ProfileScaling {
            gpu: g.name.as_str().into(),
            there_s,
            here_s: times.iter().sum(),
            replaced,
        })
    });
    let lines = profile_lines(network, gpu.is_none())
        .filter(|_| !replaced)
        .map(|lines| Lines {
            lines,
            gpu: there_gpu,
            numbers: network.step().map_or(numbers, |step| Numbers {
                item_bytes: PROFILE_BYTES_PER_ITEM * step.precision.item_share(),
                precision: step.precision,
                format: MemoryFormat::Nchw,
            }),
        });
    let kernels = Kernels {
        works,
        scales,
        gpu: here_gpu,
        numbers,
        lines,
    };
    (times, memory_bound, scaling, Some(kernels))
}

/// Seconds of a step of `samples` samples on a layer's line `(a, c)`:
/// `a + c·B`.
pub(super) fn line_s((a, c): (f64, f64), samples: f64) -> f64 {
    a + c * samples
}

/// A profile's layers as lines in the batch (section 12), when it has
/// them: measured at two batches, or at one on a device this tool does not
/// know (`unknown`).
///
/// # Formula
/// Per layer, with `y_i = B_i·t_i` its seconds a step at the batches
/// `B_1`, `B_2`: `c = max(0, (y_2 − y_1)/(B_2 − B_1))`,
/// `a = max(0, y_1 − c·B_1)`; one batch: `a = 0`, `c = t_1`.
pub(super) fn profile_lines(network: &Network, unknown: bool) -> Option<Vec<(f64, f64)>> {
    let step = network.step()?;
    let b1 = step.batch as f64;
    let layers = network.layers();
    match step.batch2 {
        Some(b2) if b2 != step.batch && layers.iter().all(|l| l.time2_s().is_some()) => {
            let b2 = b2 as f64;
            Some(
                layers
                    .iter()
                    .map(|l| {
                        let y1 = b1 * l.time_s().unwrap_or(0.0);
                        let y2 = b2 * l.time2_s().unwrap_or(0.0);
                        let c = ((y2 - y1) / (b2 - b1)).max(0.0);
                        ((y1 - c * b1).max(0.0), c)
                    })
                    .collect(),
            )
        }
        _ if unknown => Some(layers.iter().map(|l| (0.0, l.time_s().unwrap_or(0.0))).collect()),
        _ => None,
    }
}

/// A profile carried by per-layer weights `here` (on the cluster's GPU)
/// and `there` (on the profile's): the per-sample times and the profiled
/// total, `None` without a profile.
///
/// # Formula
/// No profile: `t_l = here_l`; a whole-model time `T`:
/// `t_l = T·here_l/Σthere`; per-layer times `t_l = t'_l·here_l/there_l`.
pub(super) fn scale_profile(network: &Network, here: &[f64], there: &[f64]) -> (Vec<f64>, Option<f64>) {
    match network.profile() {
        Profile::Flops => (here.to_vec(), None),
        Profile::WholeModel { per_sample_s } => {
            let total: f64 = there.iter().sum();
            let scale = if total > 0.0 { per_sample_s / total } else { 0.0 };
            (here.iter().map(|w| w * scale).collect(), Some(per_sample_s))
        }
        Profile::PerLayer => {
            let measured: Vec<f64> = network.layers().iter().map(|l| l.time_s().unwrap_or(0.0)).collect();
            let times = measured
                .iter()
                .zip(here.iter().zip(there))
                .map(|(t, (w, w_there))| if *w_there > 0.0 { t * w / w_there } else { *t })
                .collect();
            (times, Some(measured.iter().sum()))
        }
    }
}

/// Section 7's per-sample times (the roofline), the count of memory-bound
/// layers and the profile's scaling (see [`CostTable::for_edition`]).
pub(super) fn roofline_times(
    network: &Network,
    cluster: &Cluster,
    terms: &Terms,
    basis: &TimeBasis,
) -> (Vec<f64>, usize, Option<ProfileScaling>) {
    let bytes_per_item = basis.item_bytes;
    let rate = cluster.flops_per_s(basis.precision);
    let fp32_rate = cluster.gpu_flops_per_s();
    let bandwidth = terms.memory_bandwidth_bytes_per_s;
    let gpu = network.profiled_on();
    let Some(_) = bandwidth else {
        // no roofline: every weight is 3·flops/R_p, so a profile scales by
        // the ratio of FLOP/s, and without a profile's GPU as in the ideal edition
        let ideal = ideal_times(network, cluster, basis.precision);
        let Some(gpu) = gpu.filter(|g| g.flops_per_s != fp32_rate) else {
            return (ideal, 0, None);
        };
        let ratio = gpu.flops_per_s / fp32_rate;
        let there_s: f64 = ideal.iter().sum();
        let times: Vec<f64> = ideal.iter().map(|t| t * ratio).collect();
        let scaling = ProfileScaling {
            gpu: gpu.name.as_str().into(),
            there_s,
            here_s: times.iter().sum(),
            replaced: false,
        };
        return (times, 0, Some(scaling));
    };
    let here: Vec<f64> = network
        .layers()
        .iter()
        .map(|l| roofline_s(l, rate, bandwidth, bytes_per_item))
        .collect();
    let memory_bound = match bandwidth {
        Some(_) => network
            .layers()
            .iter()
            .zip(&here)
            .filter(|(l, w)| **w > 3.0 * l.forward_flops() / rate)
            .count(),
        None => 0,
    };
    // w'_l: on the profile's GPU (its own facts, the cluster's where it records none)
    let (measured_in, measured_h) = network.step().map_or((Precision::Fp32, PROFILE_BYTES_PER_ITEM), |s| {
        (s.precision, PROFILE_BYTES_PER_ITEM * s.precision.item_share())
    });
    let there: Vec<f64> = match gpu {
        Some(gpu) => network
            .layers()
            .iter()
            .map(|l| profiled_roofline_s(l, gpu, bandwidth, measured_in, measured_h))
            .collect(),
        None => network
            .layers()
            .iter()
            .map(|l| roofline_s(l, cluster.flops_per_s(measured_in), bandwidth, measured_h))
            .collect(),
    };
    let (times, profiled_s) = scale_profile(network, &here, &there);
    let Some(profiled_s) = profiled_s else {
        return (here, memory_bound, None);
    };
    let scaling = gpu
        .filter(|g| !same_gpu(g, fp32_rate, bandwidth))
        .map(|g| ProfileScaling {
            gpu: g.name.as_str().into(),
            there_s: profiled_s,
            here_s: times.iter().sum(),
            replaced: false,
        });
    (times, memory_bound, scaling)
}

/// `w'_l` on the GPU a profile was measured on, in the precision and item
/// size it was measured with (fp32 and 4 bytes without a measured step):
/// its FP32 rate times the precision's speed-up of its kernel facts.
pub(super) fn profiled_roofline_s(
    layer: &Layer,
    gpu: &ProfiledGpu,
    cluster_bandwidth: Option<f64>,
    precision: Precision,
    bytes_per_item: f64,
) -> f64 {
    // the roofline is on when the cluster states its bandwidth; a profile
    // GPU that records none is taken to have the cluster's
    let bandwidth = cluster_bandwidth.map(|bw| gpu.memory_bandwidth_bytes_per_s.unwrap_or(bw));
    // the precision's speed-up over FP32 as the GPU's kernel facts give it
    let rate = match &gpu.kernels {
        Some(own) => gpu.flops_per_s * own.gemm_flops_per_s.rate(precision) / own.gemm_flops_per_s.fp32,
        None => gpu.flops_per_s,
    };
    roofline_s(layer, rate, bandwidth, bytes_per_item)
}

/// Whether the profile's GPU is the cluster's (same rate, and the same
/// bandwidth when the roofline is on).
pub(super) fn same_gpu(gpu: &ProfiledGpu, rate: f64, bandwidth: Option<f64>) -> bool {
    gpu.flops_per_s == rate && bandwidth.is_none_or(|bw| gpu.memory_bandwidth_bytes_per_s.is_none_or(|own| own == bw))
}

/// The realistic edition's kernels (section 11): each layer's work, the
/// GPU it runs on and the factor that carries a profile's measured time
/// (and recompute's extra forward pass) onto the kernel model.
#[derive(Debug, Clone)]
pub struct Kernels {
    works: Vec<LayerWork>,
    scales: Vec<f64>,
    gpu: GpuModel,
    numbers: Numbers,
    lines: Option<Lines>,
}

/// A profile's layers as lines in the batch, `a_l + c_l·b` seconds a step
/// on the profile's device (section 12): measured at two batches, or at one
/// on a device this tool does not know (`a_l = 0`, linear).
#[derive(Debug, Clone)]
pub(super) struct Lines {
    /// `(a_l, c_l)` per layer.
    lines: Vec<(f64, f64)>,
    /// The device's kernel model (the cluster's GPU when not known).
    gpu: GpuModel,
    /// The profile's numbers.
    numbers: Numbers,
}

impl Kernels {
    /// Every layer's time times `factor` (recompute's extra forward pass:
    /// 4/3).
    pub(super) fn scale(&mut self, factor: f64) {
        for s in &mut self.scales {
            *s *= factor;
        }
        if let Some(lines) = &mut self.lines {
            for (a, c) in &mut lines.lines {
                *a *= factor;
                *c *= factor;
            }
        }
    }

    /// Seconds of a training step of layer `index` for `samples` samples,
    /// cut by `cut`.
    ///
    /// # Formula
    /// `T_l(b, cut) = s_l·K_l(b, cut)` with `K_l` the kernel time of
    /// [`LayerWork::step_s`] and `s_l = t_l/K_l(∞)` (1 without a profile,
    /// 4/3 with recompute).
    ///
    /// A profile's lines (section 12): `T_l(b, cut) = (a_l + c_l·b)·
    /// K_l(b, cut)/K'_l(b)`, `K'_l` the layer's kernels whole on the
    /// profile's device in its precision.
    pub fn layer_s(&self, index: usize, samples: f64, cut: Cut) -> f64 {
        let (Some(work), Some(scale)) = (self.works.get(index), self.scales.get(index)) else {
            return 0.0;
        };
        let here = work.step_s(samples, cut, &self.numbers, &self.gpu);
        match &self.lines {
            Some(lines) => {
                let line = lines.lines.get(index).copied().unwrap_or((0.0, 0.0));
                let there = work.step_s(samples, Cut::Whole, &lines.numbers, &lines.gpu);
                let ratio = if there > 0.0 { here / there } else { 1.0 };
                line_s(line, samples).max(0.0) * ratio
            }
            None => scale * here,
        }
    }

    /// Whether the layers' times are a profile's lines in the batch.
    pub fn from_lines(&self) -> bool {
        self.lines.is_some()
    }

    /// The layers' work.
    pub fn works(&self) -> &[LayerWork] {
        &self.works
    }

    /// Kernels a training step launches.
    pub fn count(&self) -> usize {
        self.works.iter().map(|w| w.kernels(&self.numbers, &self.gpu)).sum()
    }

    /// The GPU they run on.
    pub fn gpu(&self) -> &GpuModel {
        &self.gpu
    }
}

/// What per-layer times depend on besides the network and the cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeBasis {
    pub edition: Edition,
    /// `h`: bytes of an item (the roofline's traffic).
    pub item_bytes: f64,
    /// The arithmetic (`R_p`).
    pub precision: Precision,
    /// Activation recompute (one more forward pass).
    pub recompute: bool,
    /// How activations are laid out (section 11's kernels).
    pub memory_format: MemoryFormat,
    /// How attention runs (section 15).
    pub attention: AttentionForm,
}

impl TimeBasis {
    /// The basis of an edition at the defaults (fp32, 4-byte items, no
    /// recompute).
    pub fn edition(edition: Edition) -> Self {
        Self {
            edition,
            item_bytes: DEFAULT_BYTES_PER_ITEM,
            precision: Precision::Fp32,
            recompute: false,
            memory_format: MemoryFormat::Nchw,
            attention: AttentionForm::Fused,
        }
    }

    /// The basis a checked run is costed on.
    pub fn of(run: &Run) -> Self {
        Self {
            edition: run.edition,
            item_bytes: run.item_bytes(),
            precision: run.precision,
            recompute: run.recompute,
            memory_format: run.memory_format,
            attention: run.attention,
        }
    }
}

/// A profile scaled from the GPU it was measured on to the cluster's.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileScaling {
    /// The GPU the profile was measured on.
    pub gpu: Arc<str>,
    /// Training seconds per sample there (the profile).
    pub there_s: f64,
    /// Training seconds per sample on the cluster's GPU.
    pub here_s: f64,
    /// The profile is a reference one (FP32, its authors' framework) and
    /// the run is on another GPU or in another precision: its times are
    /// not carried, the kernels' are used (section 11).
    pub replaced: bool,
}

/// How `plan` cuts layer `index`.
pub(super) fn cut_of(plan: Option<&SplitPlan>, index: usize) -> Cut {
    match plan {
        Some(plan) if plan.mask.get(index).copied().unwrap_or(false) => {
            let q = plan.parts as f64;
            match plan.axis {
                SplitAxis::Width => Cut::Width(q),
                // a transformer's rows are cut by their inputs; as a cut of the filters, the
                // same work
                SplitAxis::Filters | SplitAxis::Heads => Cut::Filters(q),
                SplitAxis::Channels => Cut::Channels(q),
            }
        }
        _ => Cut::Whole,
    }
}
