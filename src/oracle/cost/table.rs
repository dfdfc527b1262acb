//! The per-layer cost table of a network on a cluster: what every strategy
//! starts from, computed once, with pipeline partitions remembered per
//! stage count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::kernels::{Cut, GpuModel, LayerWork, Numbers};
pub use super::layer_cost::LayerCost;
use super::layer_cost::layer_cost;
use super::partition::{Stages, partition, prefix_sums};
use super::saved::{SavedTensors, saved_tensors};
use super::split::{SplitAxis, SplitPlan};
use super::terms::Terms;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::devices;
use crate::oracle::model::facts::KernelFacts;
use crate::oracle::model::fidelity::Fidelity;
use crate::oracle::model::layer::Layer;
use crate::oracle::model::network::{Network, Profile, ProfiledGpu};
use crate::oracle::model::practice::{MemoryFormat, Precision};
use crate::oracle::model::run::{DEFAULT_BYTES_PER_ITEM, Run};

/// What per-layer times depend on besides the network and the cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeBasis {
    /// The edition.
    pub fidelity: Fidelity,
    /// `h`: bytes of an item (the roofline's traffic).
    pub item_bytes: f64,
    /// The arithmetic (`R_p`).
    pub precision: Precision,
    /// Activation recompute (one more forward pass).
    pub recompute: bool,
    /// How activations are laid out (section 11's kernels).
    pub memory_format: MemoryFormat,
}

impl TimeBasis {
    /// The basis of an edition at the defaults (fp32, 4-byte items, no
    /// recompute).
    pub fn edition(fidelity: Fidelity) -> Self {
        Self {
            fidelity,
            item_bytes: DEFAULT_BYTES_PER_ITEM,
            precision: Precision::Fp32,
            recompute: false,
            memory_format: MemoryFormat::Nchw,
        }
    }

    /// The basis a checked run is costed on.
    pub fn of(run: &Run) -> Self {
        Self {
            fidelity: run.fidelity,
            item_bytes: run.item_bytes(),
            precision: run.precision,
            recompute: run.recompute,
            memory_format: run.memory_format,
        }
    }
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
struct Lines {
    /// `(a_l, c_l)` per layer.
    lines: Vec<(f64, f64)>,
    /// The device's kernel model (the cluster's GPU when not known).
    gpu: GpuModel,
    /// The profile's numbers.
    numbers: Numbers,
}

impl Kernels {
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

/// The cost table: per-layer costs and their sums, for one edition of
/// the model and one item size.
#[derive(Debug)]
pub struct CostTable {
    layers: Vec<LayerCost>,
    time_per_sample_s: f64,
    weight_items: f64,
    activation_items: f64,
    times_s: Vec<f64>,
    prefix_s: Vec<f64>,
    partitions: Mutex<HashMap<u64, Arc<Stages>>>,
    terms: Terms,
    memory_bound_layers: usize,
    profile_scaling: Option<ProfileScaling>,
    kernels: Option<Kernels>,
    /// Without kernel facts, a two-batch profile's lines (section 12):
    /// `(a_l, c_l)` per layer, in seconds a step on the profile's device.
    lines: Option<Vec<(f64, f64)>>,
}

/// Bytes per item a profile was measured with (fp32, as the reference
/// files were).
const PROFILE_BYTES_PER_ITEM: f64 = 4.0;

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

/// Partitions remembered at most (stage counts a session asks for).
const REMEMBERED_PARTITIONS: usize = 64;

impl CostTable {
    /// The costs of `network`'s layers on `cluster` in the ideal edition
    /// (see [`CostTable::for_edition`]).
    pub fn new(network: &Network, cluster: &Cluster) -> Self {
        Self::for_basis(network, cluster, &TimeBasis::edition(Fidelity::Ideal))
    }

    /// The costs of `network`'s layers on `cluster` in one edition, with
    /// `bytes_per_item` (`δ`) for the memory traffic of the roofline.
    ///
    /// # Formula
    /// Ideal edition (section 2): with a whole-model profiled time `T`,
    /// `t_l = T·flops_l/Σflops`; with per-layer profiled times, those; else
    /// `t_l = 3·fwd_flops_l/R`.
    ///
    /// Realistic edition (section 7), with the roofline weights `w_l` of
    /// [`roofline_s`] on the cluster's GPU (`w_l`) and on the GPU the
    /// profile was measured on (`w'_l`, with `δ = 4` of its fp32 run and,
    /// for a fact it does not record, the cluster GPU's): without a
    /// profile `t_l = w_l`; with a whole-model time `t_l = T·w_l/Σw'`;
    /// with per-layer times `t_l = t'_l·w_l/w'_l`. A profile whose GPU is
    /// not recorded is taken as measured on the cluster's GPU (so at
    /// `δ = 4` it is used as it is). Without a roofline (no memory
    /// bandwidth) the weights are `3·flops/R`: the section 2 times, a
    /// profile's multiplied by `R'/R` (bit for bit the ideal edition's when
    /// the GPUs agree).
    ///
    /// Section 9: `R` is the precision's `R_p` (a fp32 profile is scaled
    /// by `R/R_p` in the ideal edition), `δ` the run's item size `h`, and
    /// recompute multiplies every time by 4/3.
    pub fn for_basis(network: &Network, cluster: &Cluster, basis: &TimeBasis) -> Self {
        let terms = Terms::new(cluster, basis.fidelity);
        let (mut times, memory_bound_layers, profile_scaling, mut kernels) = match basis.fidelity {
            Fidelity::Ideal => (ideal_times(network, cluster, basis.precision), 0, None, None),
            Fidelity::Realistic => realistic_times(network, cluster, &terms, basis),
        };
        if basis.recompute {
            for t in &mut times {
                *t *= 4.0 / 3.0;
            }
            if let Some(k) = &mut kernels {
                for s in &mut k.scales {
                    *s *= 4.0 / 3.0;
                }
                if let Some(lines) = &mut k.lines {
                    for (a, c) in &mut lines.lines {
                        *a *= 4.0 / 3.0;
                        *c *= 4.0 / 3.0;
                    }
                }
            }
        }
        let saved = match terms.framework_memory {
            Some(_) => saved_tensors(network, basis.item_bytes, basis.precision.is_mixed()),
            None => vec![SavedTensors::default(); network.layers().len()],
        };
        // without kernels, a two-batch profile's lines still give the time at another batch
        let lines = match (&kernels, basis.fidelity) {
            (None, Fidelity::Realistic) => profile_lines(network, false),
            _ => None,
        };
        let lines = lines.map(|lines| {
            // each line carried to this table's time per sample at the profile's batch
            let b1 = network.step().map_or(1.0, |s| s.batch as f64);
            lines
                .iter()
                .zip(&times)
                .map(|((a, c), t)| {
                    let measured = a + c * b1;
                    let carry = if measured > 0.0 { t * b1 / measured } else { 0.0 };
                    (a * carry, c * carry)
                })
                .collect()
        });
        let layers: Vec<LayerCost> = network
            .layers()
            .iter()
            .zip(times)
            .zip(saved)
            .map(|((layer, time_s), saved)| layer_cost(layer, time_s, saved))
            .collect();
        let times_s: Vec<f64> = layers.iter().map(|c| c.time_s).collect();
        Self {
            prefix_s: prefix_sums(&times_s),
            times_s,
            time_per_sample_s: layers.iter().map(|c| c.time_s).sum(),
            weight_items: network.weight_items(),
            activation_items: network.activation_items(),
            layers,
            partitions: Mutex::new(HashMap::new()),
            terms,
            memory_bound_layers,
            profile_scaling,
            kernels,
            lines,
        }
    }

    /// The realistic edition's kernels, when the cluster gives its GPU's
    /// kernel facts (section 11).
    pub fn kernels(&self) -> Option<&Kernels> {
        self.kernels.as_ref()
    }

    /// Seconds of one GPU's forward and backward compute for `samples`
    /// samples, the layers of `plan` split (each cut in `plan.parts`).
    ///
    /// # Formula
    /// Without kernels (the ideal edition, or no kernel facts): `B·Σt`, or
    /// `B·t_split(q)` with a plan. With kernels: `Σ_l T_l(B, cut_l)`
    /// ([`Kernels::layer_s`]), `cut_l` the plan's axis for a split layer.
    /// Without kernels but with a two-batch profile (realistic edition,
    /// section 12): `Σ_l (a_l + c_l·B)·t_l·B_1/y_l`, `/q` for a split layer,
    /// each layer's measured line carried to its time per sample here
    /// (`y_l = a_l + c_l·B_1` its measured seconds at the profile's batch).
    pub fn compute_s(&self, samples: f64, plan: Option<&SplitPlan>) -> f64 {
        match (&self.kernels, &self.lines, plan) {
            (None, None, None) => samples * self.time_per_sample_s,
            (None, None, Some(plan)) => samples * plan.time_s(&self.layers),
            _ => self.layer_terms(samples, plan).sum(),
        }
    }

    /// Seconds of each layer's forward and backward compute on one GPU for
    /// `samples` samples, the layers of `plan` split: the terms of
    /// [`CostTable::compute_s`], layer by layer.
    ///
    /// # Formula
    /// `T_l(B, cut_l)` with kernels; else `B·t_l` (a two-batch profile's
    /// carried line `a_l + c_l·B`), `/q` for a split layer.
    pub fn layer_times_s(&self, samples: f64, plan: Option<&SplitPlan>) -> Vec<f64> {
        self.layer_terms(samples, plan).collect()
    }

    /// The terms of [`CostTable::layer_times_s`], one layer after another.
    fn layer_terms<'a>(&'a self, samples: f64, plan: Option<&'a SplitPlan>) -> impl Iterator<Item = f64> + 'a {
        let divisor = move |i: usize| match plan {
            Some(p) if p.mask.get(i).copied().unwrap_or(false) => p.parts as f64,
            _ => 1.0,
        };
        (0..self.layers.len()).map(move |i| match (&self.kernels, &self.lines) {
            (Some(k), _) => k.layer_s(i, samples, cut_of(plan, i)),
            (None, Some(lines)) => lines.get(i).map_or(0.0, |line| line_s(*line, samples)) / divisor(i),
            (None, None) => samples * self.times_s.get(i).copied().unwrap_or(0.0) / divisor(i),
        })
    }

    /// Seconds of one GPU's compute of the layers `range` (a pipeline
    /// stage) for `samples` samples.
    ///
    /// # Formula
    /// Without kernels `B·Σ_{l∈range} t_l` (a two-batch profile's carried
    /// lines `Σ (a_l + c_l·B)·t_l·B_1/y_l`); with kernels `Σ_{l∈range} T_l(B)`.
    pub fn range_s(&self, range: std::ops::Range<usize>, samples: f64) -> f64 {
        match &self.kernels {
            None => match &self.lines {
                Some(lines) => lines
                    .get(range)
                    .map_or(0.0, |l| l.iter().map(|line| line_s(*line, samples)).sum()),
                None => samples * self.times_s.get(range).map_or(0.0, |t| t.iter().sum()),
            },
            Some(k) => range.map(|i| k.layer_s(i, samples, Cut::Whole)).sum(),
        }
    }

    /// The section 7 terms in force for this table's edition.
    pub fn terms(&self) -> &Terms {
        &self.terms
    }

    /// Layers whose roofline time is set by memory traffic (0 without a
    /// roofline).
    pub fn memory_bound_layers(&self) -> usize {
        self.memory_bound_layers
    }

    /// How a profile was scaled to the cluster's GPU, when it was (a
    /// profile recorded on another GPU, in the realistic edition).
    pub fn profile_scaling(&self) -> Option<&ProfileScaling> {
        self.profile_scaling.as_ref()
    }

    /// Per-layer costs, in layer order.
    pub fn layers(&self) -> &[LayerCost] {
        &self.layers
    }

    /// `Σt`: training seconds per sample of the whole network.
    pub fn time_per_sample_s(&self) -> f64 {
        self.time_per_sample_s
    }

    /// `W = Σ|w_l|`.
    pub fn weight_items(&self) -> f64 {
        self.weight_items
    }

    /// `A = Σ act_l`.
    pub fn activation_items(&self) -> f64 {
        self.activation_items
    }

    /// The optimal pipeline partition of the layer times into `stages`
    /// (see [`partition`]), computed once per stage count.
    pub fn stages(&self, stages: u64) -> Arc<Stages> {
        let key = stages.min(self.layers.len() as u64);
        let mut memo = self.partitions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = memo.get(&key) {
            return Arc::clone(found);
        }
        let made = Arc::new(partition(&self.times_s, &self.prefix_s, key));
        if memo.len() >= REMEMBERED_PARTITIONS {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&made));
        made
    }
}

/// Section 2's per-sample times, at the precision's rate `R_p` (a profile
/// measured in precision `p'` scaled by `R_p'/R_p`; fp32 without a
/// measured step).
fn ideal_times(network: &Network, cluster: &Cluster, precision: Precision) -> Vec<f64> {
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

/// What the realistic edition's per-sample times come with: the count of
/// memory-bound layers, a profile's scaling and the kernels.
type Realistic = (Vec<f64>, usize, Option<ProfileScaling>, Option<Kernels>);

/// Section 7's per-sample times, the count of memory-bound layers and the
/// profile's scaling (see [`CostTable::for_edition`]); with the GPU's
/// kernel facts, section 11's kernels.
fn realistic_times(network: &Network, cluster: &Cluster, terms: &Terms, basis: &TimeBasis) -> Realistic {
    if let Some(facts) = terms.kernels {
        return kernel_times(network, terms, basis, facts);
    }
    let (times, memory_bound, scaling) = roofline_times(network, cluster, terms, basis);
    (times, memory_bound, scaling, None)
}

/// Section 11: each layer's time per sample as its kernels tend to at a
/// large batch on the cluster's GPU, `K_l(∞)`, a profile scaled by the same
/// model on the GPU it was measured on (at fp32, `δ = 4`), and the
/// kernels that give the time at any batch and split.
fn kernel_times(network: &Network, terms: &Terms, basis: &TimeBasis, facts: KernelFacts) -> Realistic {
    let bandwidth = terms.memory_bandwidth_bytes_per_s.unwrap_or(f64::INFINITY);
    let here_gpu = GpuModel::of_facts(facts, bandwidth);
    let numbers = Numbers {
        item_bytes: basis.item_bytes,
        precision: basis.precision,
        format: basis.memory_format,
    };
    let works: Vec<LayerWork> = network
        .layers()
        .iter()
        .enumerate()
        .map(|(i, l)| LayerWork::of(l, network.reads_input_only(i)))
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
fn line_s((a, c): (f64, f64), samples: f64) -> f64 {
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
fn profile_lines(network: &Network, unknown: bool) -> Option<Vec<(f64, f64)>> {
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
fn scale_profile(network: &Network, here: &[f64], there: &[f64]) -> (Vec<f64>, Option<f64>) {
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
fn roofline_times(
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
fn profiled_roofline_s(
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
fn same_gpu(gpu: &ProfiledGpu, rate: f64, bandwidth: Option<f64>) -> bool {
    gpu.flops_per_s == rate && bandwidth.is_none_or(|bw| gpu.memory_bandwidth_bytes_per_s.is_none_or(|own| own == bw))
}

/// How `plan` cuts layer `index`.
fn cut_of(plan: Option<&SplitPlan>, index: usize) -> Cut {
    match plan {
        Some(plan) if plan.mask.get(index).copied().unwrap_or(false) => {
            let q = plan.parts as f64;
            match plan.axis {
                SplitAxis::Width => Cut::Width(q),
                SplitAxis::Filters => Cut::Filters(q),
                SplitAxis::Channels => Cut::Channels(q),
            }
        }
        _ => Cut::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn whole_model_time_is_shared_by_flops() {
        let net = presets::network("resnet50").unwrap();
        let table = CostTable::new(&net, &presets::cluster("abci").unwrap());
        assert!((table.time_per_sample_s() - 0.003119502).abs() < 1e-15);
        let share = net.layers()[0].forward_flops() / net.forward_flops();
        assert!((table.layers()[0].time_s - 0.003119502 * share).abs() < 1e-18);
    }

    #[test]
    fn flops_time_uses_the_gpu_rate() {
        let network =
            crate::oracle::formats::net::parse(include_str!("../presets/reference/ALEXNET_ImageNet.net")).unwrap();
        assert_eq!(network.profile(), Profile::Flops);
        let table = CostTable::new(&network, &presets::cluster("abci").unwrap());
        let flops = network.forward_flops();
        assert!((table.time_per_sample_s() - 3.0 * flops / 7.8e12).abs() < 1e-15);
    }

    #[test]
    fn halo_items_by_hand() {
        let table = CostTable::new(
            &presets::network("alexnet").unwrap(),
            &presets::cluster("abci").unwrap(),
        );
        // CONV1: 3x226x226 -> 96x54x54, K = 11: h_x = 3·5·226, h_y = 96·5·54
        let conv1 = &table.layers()[0];
        assert_eq!(conv1.halo_x_items, 3.0 * 5.0 * 226.0);
        assert_eq!(conv1.halo_y_items, 96.0 * 5.0 * 54.0);
        assert_eq!(conv1.width, 54);
        // RELU has no kernel: no halo
        assert_eq!(table.layers()[1].halo_x_items, 0.0);
    }

    #[test]
    fn partitions_are_remembered_per_stage_count() {
        let table = CostTable::new(
            &presets::network("resnet50").unwrap(),
            &presets::cluster("abci").unwrap(),
        );
        let a = table.stages(8);
        assert!(Arc::ptr_eq(&a, &table.stages(8)));
        assert_eq!(a.ranges.len(), 8);
        assert!(Arc::ptr_eq(&table.stages(10_000), &table.stages(166)));
    }
}
