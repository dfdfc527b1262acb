//! What a projection reports: times per epoch, memory per GPU, limits.

use serde::Serialize;

use super::bottleneck::Finding;
use crate::oracle::cost::communication::Communication;
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;

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
