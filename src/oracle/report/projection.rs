//! What a projection reports: times per epoch, memory per GPU, limits.

use serde::Serialize;

use super::bottleneck::{Finding, FindingDetail, against_bound};
pub use super::energy::Energy;
use super::quantity::Quantity;
use super::sentence::Sentence;
use super::track_record::Band;
pub use super::training::Training;
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::memory::MemoryParts;
use crate::oracle::cost::terms::AppliedTerm;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::practice::{Optimizer, Precision};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;
use crate::oracle::units;

/// The projection of one run: per-epoch times, per-GPU memory, limits and
/// bottlenecks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Projection {
    pub strategy: Strategy,
    /// The edition of the model it follows.
    #[serde(rename = "fidelity")]
    pub edition: Edition,
    /// `p`.
    pub gpus: u64,
    /// `B`.
    pub mini_batch: u64,
    /// `B/p`.
    pub samples_per_gpu: f64,
    /// `I = ceil(D/B)`.
    pub iterations: u64,
    /// `p2` of a hybrid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_size: Option<u64>,
    /// `S` of a pipeline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<u64>,
    /// Forward, backward and update seconds per epoch.
    pub compute_s: f64,
    /// Communication seconds per epoch.
    pub communication_s: f64,
    /// `compute_s + communication_s`.
    pub total_s: f64,
    /// `total_s · p / 3600`: cost of an epoch.
    pub gpu_hours: f64,
    /// Bytes per GPU: the sum of `memory`'s parts.
    pub memory_bytes: f64,
    /// Bytes per GPU by part (section 9).
    pub memory: MemoryParts,
    /// `M`.
    pub memory_capacity_bytes: f64,
    /// No limit violated.
    pub feasible: bool,
    /// Every violated limit.
    pub violations: Vec<Violation>,
    /// Communication seconds per epoch by kind (exposed, after overlap).
    pub communication: Communication,
    /// Gradient exchange per epoch hidden behind the backward pass by the
    /// overlap.
    pub hidden_communication_s: f64,
    /// Arithmetic.
    pub precision: Precision,
    pub optimizer: Optimizer,
    /// ZeRO stage.
    pub zero: u8,
    /// Activation recompute.
    pub recompute: bool,
    /// Overlap of the gradient exchange with the backward pass.
    pub overlap: bool,
    /// What limits this configuration, most severe first.
    pub bottlenecks: Vec<Finding>,
    /// The realistic edition's terms that applied, with their values
    /// (empty in the ideal edition).
    pub terms: Vec<AppliedTerm>,
    /// How far measured times of runs like it have been from projected
    /// ones (the realistic edition; contract, section 11): the total time is
    /// likely between `band.low·total_s` and `band.high·total_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub band: Option<Band>,
    /// The calibration factors applied, if the run was calibrated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibrated>,
    /// Time to train: epochs to converge at this global batch times the
    /// time per epoch (section 13).
    pub training: Training,
    /// Energy, carbon and money of an epoch and of the training (section
    /// 14; `None`: the GPU's board power is unknown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub energy: Option<Energy>,
}

impl Projection {
    /// Each violated limit in words, naming the real bound and the layer
    /// that sets it: `8 GPUs per group exceeds the fewest filters of a
    /// split layer (4, layer conv1)`, `needs 22.2 GB per GPU (activations
    /// 19.4 GB, layer ADD keeping the most per sample), a GPU holds 16 GB`;
    /// the limit's label when no finding says more.
    pub fn limits(&self) -> Vec<String> {
        self.limit_sentences().iter().map(Sentence::to_string).collect()
    }

    /// [`Projection::limits`], each number with the quantity that explains
    /// it (the limit's bound, the memory).
    pub fn limit_sentences(&self) -> Vec<Sentence> {
        self.violations
            .iter()
            .map(|&v| {
                let said = self.bottlenecks.iter().find_map(|f| match f.detail {
                    FindingDetail::ScalingLimit {
                        limit,
                        counted,
                        bounded_by,
                        value,
                        bound,
                        ref layer,
                        layer_index,
                    } if limit == v && value > bound => Some(against_bound(
                        limit,
                        value,
                        counted,
                        "exceeds",
                        bounded_by,
                        bound,
                        layer.as_deref().zip(layer_index),
                    )),
                    FindingDetail::MemoryOverflow {
                        used_bytes,
                        capacity_bytes,
                        ref layer,
                        layer_index,
                        ..
                    } if v == Violation::Memory => {
                        // the part that takes the most, so that the number can be checked
                        let part = self.memory.dominant();
                        let part_bytes = self.memory.get(part);
                        let largest = Sentence::new()
                            .text("needs ")
                            .figure(units::bytes(used_bytes), used_bytes, Quantity::Memory)
                            .text(&format!(" per GPU ({} ", part.label()))
                            .figure(units::bytes(part_bytes), part_bytes, Quantity::Part(part));
                        // the layer that keeps the most of them, where activations lead
                        let largest = match layer.as_deref().zip(layer_index) {
                            Some((name, index)) => largest
                                .text(", layer ")
                                .layer(name, index)
                                .text(" keeping the most per sample"),
                            None => largest,
                        };
                        Some(largest.text("), a GPU holds ").figure(
                            units::bytes(capacity_bytes),
                            capacity_bytes,
                            Quantity::Memory,
                        ))
                    }
                    _ => None,
                });
                said.unwrap_or_else(|| Sentence::new().text(v.label()))
            })
            .collect()
    }
}

/// The calibration factors a projection was multiplied by (section 8).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Calibrated {
    /// `κ_comp` of its strategy.
    pub compute: f64,
    /// `κ_comm` of its strategy.
    pub communication: f64,
    /// Whether runs of this strategy measured it (else the global factors).
    pub measured: bool,
}

impl Calibrated {
    /// The calibration in words, as the page and the command line show it:
    /// `calibrated: compute ×1.23, communication ×0.456 (from measured runs
    /// of this strategy)`.
    pub fn sentence(&self) -> String {
        self.words(CommKind::GradientAllreduce).to_string()
    }

    /// [`Calibrated::sentence`], its factors explained by the compute's
    /// explanation (`κ_comp`) and by that of communication of `kind`
    /// (`κ_comm`).
    pub fn words(&self, kind: CommKind) -> Sentence {
        let factor = |k: f64| format!("×{}", crate::oracle::units::significant(k, 3));
        Sentence::new()
            .text("calibrated: compute ")
            .figure(factor(self.compute), self.compute, Quantity::Compute)
            .text(", communication ")
            .figure(factor(self.communication), self.communication, Quantity::Kind(kind))
            .text(if self.measured {
                " (from measured runs of this strategy)"
            } else {
                " (global factors: no run of this strategy was measured)"
            })
    }
}
