//! Pipeline parallelism.

use super::{IterationCost, ScalingBound, StageBalance, input_and_activations};
use crate::oracle::cost::collectives::{Fabric, p2p};
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::memory::{MemoryParts, held, parts};
use crate::oracle::cost::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;
use crate::oracle::model::violation::Violation;

/// # Formula
/// Stages: the optimal linear partition of the layer times into `p`
/// stages, stage `i` on GPU `i`. Compute `(p+S−1)·(B/S)·max_i T_i`;
/// communication `2(p+S−2)·max_i P2P_i((B/S)·δ·|y of stage i's last layer|)`
/// (pairs inside a node when both GPUs share one); memory
/// `max_i 2δ Σ_{l∈stage i}(B·act_l + |w_l|)` (section 9's parts of the
/// stage that needs most; `δ` is the run's item size `h`); limits
/// `p ≤ G`, `S ≤ B`.
pub fn cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let costs = table.layers();
    let p = run.gpus;
    let segments = run.segments;
    let delta = run.item_bytes();
    let batch = run.mini_batch as f64;
    let micro = batch / segments as f64;
    let stages = table.stages(p);
    let per_node = cluster.gpus_per_node();
    let fabric = Fabric::new(cluster, table.terms());

    let largest_p2p = stages
        .ranges
        .iter()
        .enumerate()
        .take(stages.ranges.len().saturating_sub(1))
        .map(|(i, range)| {
            let i = i as u64;
            let same_node = i / per_node == (i + 1) / per_node;
            let last = &costs[range.end - 1];
            p2p(micro * delta * last.output_items, fabric.pair(same_node))
        })
        .fold(0.0, f64::max);
    let reserved = table.terms().reserved_bytes;
    let memory = stages
        .ranges
        .iter()
        .map(|range| {
            let stage = &costs[range.clone()];
            let weights: f64 = stage.iter().map(|c| c.weight_items).sum();
            let activations = held(stage.iter().map(input_and_activations), run.recompute);
            parts(run, weights, activations, batch, reserved)
        })
        .fold(MemoryParts::default(), |a, b| if b.total() > a.total() { b } else { a });
    let layers = costs.len() as u64;
    let mut violations = Vec::new();
    if p > layers {
        violations.push(Violation::PipelineDepth);
    }
    if segments > run.mini_batch {
        violations.push(Violation::Batch);
    }
    let largest_s = stages.largest_s();
    let total_s: f64 = stages.times_s.iter().sum();
    IterationCost {
        compute_s: (p + segments - 1) as f64 * micro * largest_s,
        communication: Communication::of(
            CommKind::PipelineP2p,
            2.0 * (p + segments).saturating_sub(2) as f64 * largest_p2p,
        ),
        memory,
        violations,
        bounds: vec![
            ScalingBound {
                limit: Violation::PipelineDepth,
                counted: "stages",
                value: p,
                bounded_by: "the number of layers",
                bound: layers,
            },
            ScalingBound {
                limit: Violation::Batch,
                counted: "segments",
                value: segments,
                bounded_by: "the mini-batch (one sample per segment at least)",
                bound: run.mini_batch,
            },
        ],
        redundancy: None,
        stages: Some(StageBalance {
            largest_s,
            mean_s: total_s / stages.ranges.len().max(1) as f64,
        }),
        gradient_bucket_s: 0.0,
        hidden_s: 0.0,
    }
}
