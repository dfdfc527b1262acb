//! Memory per GPU as parts (contract, section 9): weights, gradients,
//! optimizer states, activations and reserved memory, after the ZeRO paper
//! (Rajbhandari et al., SC'20, section 3.1), with activation checkpointing.

use serde::Serialize;

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
}

/// A part of memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Weights.
    Weights,
    /// Gradients.
    Gradients,
    /// Optimizer states.
    Optimizer,
    /// Activations.
    Activations,
    /// Reserved.
    Reserved,
}

impl Part {
    /// Every part, in the plot's order.
    pub const ALL: [Self; 5] = [
        Self::Weights,
        Self::Gradients,
        Self::Optimizer,
        Self::Activations,
        Self::Reserved,
    ];

    /// Its machine name: `weights`, `gradients`, `optimizer`,
    /// `activations`, `reserved`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Weights => "weights",
            Self::Gradients => "gradients",
            Self::Optimizer => "optimizer",
            Self::Activations => "activations",
            Self::Reserved => "reserved",
        }
    }

    /// Its name for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::Weights => "weights",
            Self::Gradients => "gradients",
            Self::Optimizer => "optimizer states",
            Self::Activations => "activations",
            Self::Reserved => "reserved",
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

/// The parts of a GPU that holds `weights` parameters and keeps
/// `activations` items per sample for `samples` samples an iteration.
///
/// # Formula
/// With `h` the run's item size, `δ` its fp32 item size, `d` its
/// data-parallel degree and `z` its ZeRO stage (`d_k = d` when `z ≥ k`,
/// else 1): weights `h·W/d₃`; gradients `h·W/d₂`; optimizer
/// `(m + s)·W/d₁` with the master copy `m = δ` under FP16 and BF16 when an
/// optimizer is given and the states `s = δ·{0, 0, 1, 2}` for none, sgd,
/// momentum and adam; activations `2·h·B·A`; reserved as given.
pub fn parts(run: &Run, weights: f64, activations: f64, samples: f64, reserved_bytes: f64) -> MemoryParts {
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
        activations_bytes: 2.0 * h * samples * activations,
        reserved_bytes,
    }
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
        let p = parts(&run(base.clone()), 1.0, 0.0, 0.0, 0.0);
        assert_eq!((p.weights_bytes, p.gradients_bytes, p.optimizer_bytes), (4.0, 4.0, 0.0));
        // mixed precision Adam: 2 + 2 + 12 bytes a parameter (K = 12)
        let adam = RunSpec {
            precision: Precision::Bf16,
            optimizer: Optimizer::Adam,
            ..base.clone()
        };
        let p = parts(&run(adam.clone()), 1.0, 0.0, 0.0, 0.0);
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
            0.0,
            0.0,
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
            0.0,
            0.0,
            0.0,
        );
        assert_eq!((p.weights_bytes, p.optimizer_bytes), (2.0, 4.0));
        // ZeRO over 64 data-parallel GPUs (the paper's Ψ = 1, N_d = 64): stage 1 shards 12,
        // stage 2 also 2, stage 3 also 2
        for (zero, want) in [(1, 2.0 + 2.0 + 12.0 / 64.0), (2, 2.0 + 14.0 / 64.0), (3, 16.0 / 64.0)] {
            let p = parts(&run(RunSpec { zero, ..adam.clone() }), 1.0, 0.0, 0.0, 0.0);
            assert!((p.total() - want).abs() < 1e-15, "stage {zero}: {}", p.total());
        }
        // activations: 2·h·B·A, h = 2 in mixed precision
        let p = parts(&run(adam), 0.0, 10.0, 3.0, 5.0);
        assert_eq!((p.activations_bytes, p.reserved_bytes), (120.0, 5.0));
        assert_eq!(p.dominant(), Part::Activations);
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
