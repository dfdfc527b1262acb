//! What a projection reports: times per epoch, memory per GPU, limits.

use serde::Serialize;

use super::bottleneck::Finding;
use super::strategy::Strategy;

/// A kind of communication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CommKind {
    /// Allreduce of weight gradients (data parallelism, between groups).
    GradientAllreduce,
    /// Per-layer collectives of filter and channel parallelism.
    LayerCollectives,
    /// Halo exchange between spatial neighbours.
    Halo,
    /// Gather (and scatter) of a spatial split's last activations.
    Gather,
    /// Point-to-point transfers between pipeline stages.
    PipelineP2p,
}

impl CommKind {
    /// Every kind, in display order.
    pub const ALL: [CommKind; 5] = [
        Self::GradientAllreduce,
        Self::LayerCollectives,
        Self::Halo,
        Self::Gather,
        Self::PipelineP2p,
    ];

    /// The JSON key.
    pub fn key(self) -> &'static str {
        match self {
            Self::GradientAllreduce => "gradient_allreduce",
            Self::LayerCollectives => "layer_collectives",
            Self::Halo => "halo",
            Self::Gather => "gather",
            Self::PipelineP2p => "pipeline_p2p",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::GradientAllreduce => "gradient allreduce",
            Self::LayerCollectives => "layer-wise collectives",
            Self::Halo => "halo exchange",
            Self::Gather => "gather/scatter",
            Self::PipelineP2p => "pipeline point-to-point",
        }
    }

    /// The class of the paper's table of limitations.
    pub fn class(self) -> &'static str {
        match self {
            Self::GradientAllreduce => "gradient exchange",
            Self::LayerCollectives | Self::Gather => "layer-wise collectives",
            Self::Halo | Self::PipelineP2p => "point-to-point/halo",
        }
    }
}

/// Communication seconds by kind.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Communication {
    /// See [`CommKind::GradientAllreduce`].
    pub gradient_allreduce: f64,
    /// See [`CommKind::LayerCollectives`].
    pub layer_collectives: f64,
    /// See [`CommKind::Halo`].
    pub halo: f64,
    /// See [`CommKind::Gather`].
    pub gather: f64,
    /// See [`CommKind::PipelineP2p`].
    pub pipeline_p2p: f64,
}

impl Communication {
    /// Seconds of one kind.
    pub fn get(&self, kind: CommKind) -> f64 {
        match kind {
            CommKind::GradientAllreduce => self.gradient_allreduce,
            CommKind::LayerCollectives => self.layer_collectives,
            CommKind::Halo => self.halo,
            CommKind::Gather => self.gather,
            CommKind::PipelineP2p => self.pipeline_p2p,
        }
    }

    /// Sum over kinds.
    pub fn total_s(&self) -> f64 {
        CommKind::ALL.iter().map(|&k| self.get(k)).sum()
    }

    /// Every kind multiplied by `factor`.
    #[must_use]
    pub fn scaled(&self, factor: f64) -> Self {
        Self {
            gradient_allreduce: self.gradient_allreduce * factor,
            layer_collectives: self.layer_collectives * factor,
            halo: self.halo * factor,
            gather: self.gather * factor,
            pipeline_p2p: self.pipeline_p2p * factor,
        }
    }

    /// The kind with the most seconds (`None` when there is none).
    pub fn dominant(&self) -> Option<CommKind> {
        CommKind::ALL
            .into_iter()
            .filter(|&k| self.get(k) > 0.0)
            .max_by(|a, b| self.get(*a).total_cmp(&self.get(*b)))
    }
}

/// A limit that rules a configuration out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Violation {
    /// Memory per GPU above the GPU's capacity.
    Memory,
    /// The split set is empty or cannot be divided into that many parts.
    Split,
    /// Too few samples: fewer than one per data-parallel replica or
    /// pipeline segment.
    Batch,
    /// More GPUs than the largest allocation.
    Gpus,
    /// More pipeline stages than layers.
    PipelineDepth,
}

impl Violation {
    /// The name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Split => "split",
            Self::Batch => "batch",
            Self::Gpus => "gpus",
            Self::PipelineDepth => "pipeline_depth",
        }
    }
}

/// The projection of one run: per-epoch times, per-GPU memory, limits and
/// bottlenecks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Projection {
    /// Strategy.
    pub strategy: Strategy,
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
    /// Bytes per GPU.
    pub memory_bytes: f64,
    /// `M`.
    pub memory_capacity_bytes: f64,
    /// No limit violated.
    pub feasible: bool,
    /// Every violated limit.
    pub violations: Vec<Violation>,
    /// Communication seconds per epoch by kind.
    pub communication: Communication,
    /// What limits this configuration, most severe first.
    pub bottlenecks: Vec<Finding>,
}
