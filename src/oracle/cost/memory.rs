//! Memory per GPU as parts (contract, section 9): weights, gradients,
//! optimizer states, activations and reserved memory, after the ZeRO paper
//! (Rajbhandari et al., SC'20, section 3.1), with activation checkpointing.

use serde::Serialize;

use super::table::LayerCost;
use crate::oracle::model::facts::FrameworkMemory;
use crate::oracle::model::practice::Optimizer;
use crate::oracle::model::run::Run;

/// Bytes per GPU by part.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MemoryParts {
    /// Weights.
    pub weights_bytes: f64,
    /// Gradients.
    pub gradients_bytes: f64,
    /// Optimizer states (and the FP32 master copy of mixed precision).
    pub optimizer_bytes: f64,
    /// Activations kept for the backward pass (values and gradients).
    pub activations_bytes: f64,
    /// CUDA context and framework.
    pub reserved_bytes: f64,
    /// Gradient buffers alive at once at the peak of the backward pass
    /// (section 11; 0 in ParaDL's accounting).
    #[serde(default)]
    pub transient_bytes: f64,
    /// Workspaces of the convolution and matrix libraries (section 11).
    #[serde(default)]
    pub workspace_bytes: f64,
    /// The caching allocator's rounding of the saved tensors (section 11).
    #[serde(default)]
    pub allocator_bytes: f64,
}

/// A part of memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Weights,
    Gradients,
    /// Optimizer states.
    Optimizer,
    Activations,
    Reserved,
    /// The backward pass's transient gradient buffers.
    Transient,
    /// Library workspaces.
    Workspace,
    /// The allocator's rounding.
    Allocator,
}

impl Part {
    /// Every part, in the plot's order.
    pub const ALL: [Self; 8] = [
        Self::Weights,
        Self::Gradients,
        Self::Optimizer,
        Self::Activations,
        Self::Transient,
        Self::Workspace,
        Self::Allocator,
        Self::Reserved,
    ];

    /// Its machine name: `weights`, `gradients`, `optimizer`,
    /// `activations`, `transient`, `workspace`, `allocator`, `reserved`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Weights => "weights",
            Self::Gradients => "gradients",
            Self::Optimizer => "optimizer",
            Self::Activations => "activations",
            Self::Reserved => "reserved",
            Self::Transient => "transient",
            Self::Workspace => "workspace",
            Self::Allocator => "allocator",
        }
    }

    /// The part of a machine name (see [`Part::key`]).
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.key() == key)
    }

    /// Its name for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::Weights => "weights",
            Self::Gradients => "gradients",
            Self::Optimizer => "optimizer states",
            Self::Activations => "activations",
            Self::Reserved => "reserved",
            Self::Transient => "backward buffers",
            Self::Workspace => "library workspace",
            Self::Allocator => "allocator rounding",
        }
    }
}

impl MemoryParts {
    /// The bytes of one part.
    pub fn get(&self, part: Part) -> f64 {
        match part {
            Part::Weights => self.weights_bytes,
            Part::Gradients => self.gradients_bytes,
            Part::Optimizer => self.optimizer_bytes,
            Part::Activations => self.activations_bytes,
            Part::Reserved => self.reserved_bytes,
            Part::Transient => self.transient_bytes,
            Part::Workspace => self.workspace_bytes,
            Part::Allocator => self.allocator_bytes,
        }
    }

    /// Their sum.
    pub fn total(&self) -> f64 {
        Part::ALL.iter().map(|&p| self.get(p)).sum()
    }

    /// The largest part.
    pub fn dominant(&self) -> Part {
        Part::ALL
            .into_iter()
            .max_by(|a, b| self.get(*a).total_cmp(&self.get(*b)))
            .unwrap_or(Part::Activations)
    }
}

/// The parts of a GPU that holds `weights` parameters and keeps the
/// activations `kept` of its samples.
///
/// # Formula
/// With `h` the run's item size, `δ` its fp32 item size, `d` its
/// data-parallel degree and `z` its ZeRO stage (`d_k = d` when `z ≥ k`,
/// else 1): weights `h·W/d₃`; gradients `h·W/d₂`; optimizer
/// `(m + s)·W/d₁` with the master copy `m = δ` under FP16 and BF16 when an
/// optimizer is given and the states `s = δ·{0, 0, 1, 2}` for none, sgd,
/// momentum and adam; activations, transient buffers, workspace and the
/// allocator's rounding as [`kept`] gives them; reserved as given.
pub fn parts(run: &Run, weights: f64, kept: &Kept, reserved_bytes: f64) -> MemoryParts {
    let h = run.item_bytes();
    let delta = run.bytes_per_item;
    let d = run.data_parallel_degree() as f64;
    let sharded = |stage: u8| if run.zero >= stage { d } else { 1.0 };
    let master = if run.precision.is_mixed() && run.optimizer != Optimizer::None {
        delta
    } else {
        0.0
    };
    MemoryParts {
        weights_bytes: h * weights / sharded(3),
        gradients_bytes: h * weights / sharded(2),
        optimizer_bytes: (master + delta * run.optimizer.state_buffers()) * weights / sharded(1),
        activations_bytes: kept.activations_bytes,
        reserved_bytes,
        transient_bytes: kept.transient_bytes,
        workspace_bytes: kept.workspace_bytes,
        allocator_bytes: kept.allocator_bytes,
    }
}

/// What a GPU keeps of its activations: the bytes of the saved tensors,
/// with (section 11) the backward pass's transient buffers, the library
/// workspace and the allocator's rounding.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Kept {
    /// Samples an iteration `B_g`.
    pub samples: f64,
    /// `A`: activation items kept per sample (ParaDL's accounting), or
    /// bytes per sample saved by autograd (section 11).
    pub per_sample: f64,
    /// Activations, bytes.
    pub activations_bytes: f64,
    /// The backward pass's transient buffers, bytes.
    pub transient_bytes: f64,
    /// `max_l(|x_l| + |y_l|)`: items of the largest layer's input and
    /// output per sample (what the transient buffers hold).
    pub largest_items: f64,
    /// Library workspace, bytes.
    pub workspace_bytes: f64,
    /// The allocator's rounding, bytes.
    pub allocator_bytes: f64,
}

/// One layer as a GPU holds it: its costs and the parts it holds of
/// them (1, or `1/q` of a layer split in `q`).
#[derive(Debug, Clone, Copy)]
pub struct Held<'a> {
    /// The layer's costs.
    pub cost: &'a LayerCost,
    /// The share of it this GPU holds.
    pub share: f64,
}

/// The activations a GPU keeps of `layers` for `samples` samples.
///
/// # Formula
/// ParaDL's accounting (no framework facts): `2·h·B·A`, `A = Σ act_l`
/// (with recompute, [`held`] of `(|x|, act)`). Autograd's (section 11):
/// `B·a` with `a` the bytes per sample autograd saves (with recompute,
/// [`held`] of `(h·|x|, saved_l)`); transient buffers
/// `h·B·max_l(|x_l| + |y_l|)` (a layer's input and output gradients); the
/// library workspace as given; the allocator's rounding: each saved
/// tensor of the `B` samples rounded up to 512 bytes, and above 10 MiB to
/// 2 MiB (PyTorch's CUDA caching allocator: `kMinBlockSize`,
/// `kMinLargeAlloc`, `kRoundLarge`), scaled by the share kept under
/// recompute. Every per-layer quantity is multiplied by the layer's share.
pub fn kept<'a>(
    layers: impl ExactSizeIterator<Item = Held<'a>> + Clone,
    samples: f64,
    h: f64,
    recompute: bool,
    framework: Option<FrameworkMemory>,
) -> Kept {
    let Some(framework) = framework else {
        let items = held(
            layers.map(|l| (l.cost.input_items * l.share, l.cost.activation_items * l.share)),
            recompute,
        );
        return Kept {
            samples,
            per_sample: items,
            activations_bytes: 2.0 * h * samples * items,
            ..Kept::default()
        };
    };
    let all: f64 = layers.clone().map(|l| l.cost.saved.bytes() * l.share).sum();
    let per_sample = held(
        layers
            .clone()
            .map(|l| (h * l.cost.input_items * l.share, l.cost.saved.bytes() * l.share)),
        recompute,
    );
    let transient = layers
        .clone()
        .map(|l| (l.cost.input_items + l.cost.output_items) * l.share)
        .fold(0.0, f64::max);
    let rounding: f64 = layers
        .flat_map(|l| l.cost.saved.tensors.iter().map(move |t| samples * t * l.share))
        .map(|bytes| allocated(bytes) - bytes)
        .sum();
    let kept_share = if all > 0.0 { per_sample / all } else { 1.0 };
    Kept {
        samples,
        per_sample,
        activations_bytes: samples * per_sample,
        transient_bytes: h * samples * transient,
        largest_items: transient,
        workspace_bytes: framework.workspace_bytes,
        allocator_bytes: rounding * kept_share,
    }
}

/// 512 bytes: every allocation of PyTorch's CUDA caching allocator is a
/// multiple (`kMinBlockSize`).
const MIN_BLOCK_BYTES: f64 = 512.0;
/// 10 MiB: allocations this large are rounded to [`ROUND_LARGE_BYTES`]
/// (`kMinLargeAlloc`).
const MIN_LARGE_ALLOC_BYTES: f64 = 10.0 * 1024.0 * 1024.0;
/// 2 MiB (`kRoundLarge`).
const ROUND_LARGE_BYTES: f64 = 2.0 * 1024.0 * 1024.0;

/// Bytes the caching allocator gives a tensor of `bytes`.
///
/// # Formula
/// `⌈bytes/512⌉·512`, and at least 512; from 10 MiB, `⌈bytes/2 MiB⌉·2 MiB`.
pub fn allocated(bytes: f64) -> f64 {
    if bytes <= 0.0 {
        return 0.0;
    }
    let block = if bytes >= MIN_LARGE_ALLOC_BYTES {
        ROUND_LARGE_BYTES
    } else {
        MIN_BLOCK_BYTES
    };
    (bytes / block).ceil() * block
}

/// Activation items a GPU keeps per sample of some layers, given each
/// layer's `(input items |x|, activation items act)` (already divided for
/// a split layer).
///
/// # Formula
/// Without recompute `A = Σ act_l`. With recompute, checkpoints every
/// `k = ⌈√G⌉` of the `G` layers: the input `|x|` of each segment's first
/// layer but the largest segment's, plus the largest segment's `Σ act_l`
/// (whose input is among its activations); never more than `A` (a
/// checkpoint that would not save memory is not taken).
pub fn held(layers: impl ExactSizeIterator<Item = (f64, f64)>, recompute: bool) -> f64 {
    if !recompute {
        return layers.map(|l| l.1).sum();
    }
    let count = layers.len();
    let k = (1..=count).find(|k| k * k >= count).unwrap_or(count).max(1);
    let (mut all, mut boundaries) = (0.0, 0.0);
    let (mut largest, mut largest_first) = (0.0f64, 0.0);
    let (mut segment, mut first) = (0.0, 0.0);
    for (i, (input, act)) in layers.enumerate() {
        if i % k == 0 {
            first = input;
            boundaries += input;
            segment = 0.0;
        }
        segment += act;
        all += act;
        if ((i + 1) % k == 0 || i + 1 == count) && segment > largest {
            largest = segment;
            largest_first = first;
        }
    }
    if count == 0 {
        return 0.0;
    }
    all.min(boundaries - largest_first + largest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::practice::Precision;
    use crate::oracle::model::run::RunSpec;
    use crate::oracle::model::strategy::Strategy;
    use crate::oracle::presets;

    fn run(spec: RunSpec) -> Run {
        Run::new(
            &spec,
            &presets::network("alexnet").unwrap(),
            &presets::cluster("abci").unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn the_zero_papers_bytes_per_parameter() {
        let base = RunSpec::new(Strategy::Data, 64, crate::oracle::Batch::MiniBatch(64));
        // fp32, no optimizer: the contract's 2δ(B·A + W) = 4W + 4W
        let p = parts(&run(base.clone()), 1.0, &Kept::default(), 0.0);
        assert_eq!((p.weights_bytes, p.gradients_bytes, p.optimizer_bytes), (4.0, 4.0, 0.0));
        // mixed precision Adam: 2 + 2 + 12 bytes a parameter (K = 12)
        let adam = RunSpec {
            precision: Precision::Bf16,
            optimizer: Optimizer::Adam,
            ..base.clone()
        };
        let p = parts(&run(adam.clone()), 1.0, &Kept::default(), 0.0);
        assert_eq!(
            (p.weights_bytes, p.gradients_bytes, p.optimizer_bytes),
            (2.0, 2.0, 12.0)
        );
        // fp32 momentum: 4 + 4 + 4; mixed SGD: 2 + 2 + 4 (the master copy)
        let p = parts(
            &run(RunSpec {
                optimizer: Optimizer::Momentum,
                ..base.clone()
            }),
            1.0,
            &Kept::default(),
            0.0,
        );
        assert_eq!(p.total(), 12.0);
        let p = parts(
            &run(RunSpec {
                precision: Precision::Fp16,
                optimizer: Optimizer::Sgd,
                ..base.clone()
            }),
            1.0,
            &Kept::default(),
            0.0,
        );
        assert_eq!((p.weights_bytes, p.optimizer_bytes), (2.0, 4.0));
        // ZeRO over 64 data-parallel GPUs (the paper's Ψ = 1, N_d = 64): stage 1 shards 12,
        // stage 2 also 2, stage 3 also 2
        for (zero, want) in [(1, 2.0 + 2.0 + 12.0 / 64.0), (2, 2.0 + 14.0 / 64.0), (3, 16.0 / 64.0)] {
            let p = parts(&run(RunSpec { zero, ..adam.clone() }), 1.0, &Kept::default(), 0.0);
            assert!((p.total() - want).abs() < 1e-15, "stage {zero}: {}", p.total());
        }
        // activations: 2·h·B·A, h = 2 in mixed precision (ParaDL's accounting)
        let table = crate::oracle::cost::table::CostTable::new(
            &presets::network("alexnet").unwrap(),
            &presets::cluster("abci").unwrap(),
        );
        let layers = table.layers().iter().map(|cost| Held { cost, share: 1.0 });
        let k = kept(layers, 3.0, 2.0, false, None);
        assert_eq!(k.activations_bytes, 2.0 * 2.0 * 3.0 * table.activation_items());
        let p = parts(&run(adam), 0.0, &k, 5.0);
        assert_eq!((p.activations_bytes, p.reserved_bytes), (k.activations_bytes, 5.0));
        assert_eq!(p.dominant(), Part::Activations);
    }

    #[test]
    fn the_allocator_rounds_to_blocks_by_hand() {
        assert_eq!(allocated(0.0), 0.0);
        assert_eq!(allocated(1.0), 512.0);
        assert_eq!(allocated(513.0), 1024.0);
        let mib = 1024.0 * 1024.0;
        assert_eq!(allocated(9.5 * mib), 9.5 * mib);
        assert_eq!(allocated(10.0 * mib + 1.0), 12.0 * mib);
    }

    #[test]
    fn checkpoints_every_square_root_of_the_layers() {
        // 9 layers: k = 3; the first inputs of the two other segments 1 + 4, and the
        // largest segment's activations 7 + 8 + 9
        let layers: Vec<(f64, f64)> = (1..=9).map(|i| (i as f64, i as f64)).collect();
        assert_eq!(held(layers.iter().copied(), false), 45.0);
        assert_eq!(held(layers.iter().copied(), true), 5.0 + 24.0);
        // 10 layers: k = 4, segments 1-4, 5-8 (largest), 9-10
        let layers: Vec<(f64, f64)> = (1..=10).map(|i| (1.0, i as f64)).collect();
        assert_eq!(held(layers.iter().copied(), true), 2.0 + (5.0 + 6.0 + 7.0 + 8.0));
        assert_eq!(held(std::iter::empty(), true), 0.0);
        // one layer: nothing to save
        assert_eq!(held([(2.0, 5.0)].into_iter(), true), 5.0);
        // in-place layers (no activations of their own) never make it need more
        let relus = [(100.0, 0.0), (100.0, 0.0), (1.0, 1.0), (100.0, 0.0)];
        assert_eq!(held(relus.into_iter(), true), 1.0);
    }
}
