//! Serial and data parallelism.

use super::{IterationCost, batch_bound};
use crate::oracle::cost::collectives::Fabric;
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;
use crate::oracle::model::violation::Violation;

/// # Formula
/// compute `(B/p)·Σt`; communication `AR(p, δW)` over a ring of `p` GPUs
/// (with the edition's Allreduce algorithm and NIC sharing);
/// memory `2δ((B/p)·A + W)`; limit `B ≥ p`. Serial is the case `p = 1`.
pub fn cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let p = run.gpus;
    let delta = run.bytes_per_item;
    let per_gpu = run.mini_batch as f64 / p as f64;
    let weights = table.weight_items();
    let fabric = Fabric::new(cluster, table.terms());
    let ring = fabric.ring(p, 1);
    let mut violations = Vec::new();
    if run.mini_batch < p {
        violations.push(Violation::Batch);
    }
    IterationCost {
        compute_s: per_gpu * table.time_per_sample_s(),
        communication: Communication::of(CommKind::GradientAllreduce, fabric.allreduce(p, delta * weights, ring)),
        memory_bytes: 2.0 * delta * (per_gpu * table.activation_items() + weights),
        violations,
        bounds: vec![batch_bound(run, p, "GPUs")],
        redundancy: None,
        stages: None,
    }
}
