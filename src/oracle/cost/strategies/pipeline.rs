//! Pipeline parallelism.

use super::derivations::{memory_derivation, with_kernels};
use super::splits::kept_of;
use super::{IterationCost, ScalingBound, StageBalance};
use crate::oracle::cost::collectives::{Fabric, p2p};
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::derivation::{Derivation, Derivations, Path, Symbol, Unit};
use crate::oracle::cost::memory::{Kept, MemoryParts, parts};
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

    // the slowest stage boundary: (seconds, items per sample, pair)
    let (largest_p2p, boundary_items, boundary_pair) = stages
        .ranges
        .iter()
        .enumerate()
        .take(stages.ranges.len().saturating_sub(1))
        .map(|(i, range)| {
            let i = i as u64;
            let same_node = i / per_node == (i + 1) / per_node;
            let last = &costs[range.end - 1];
            let pair = fabric.pair(same_node);
            (p2p(micro * delta * last.output_items, pair), last.output_items, pair)
        })
        .fold((0.0, 0.0, fabric.pair(true)), |a, b| if b.0 > a.0 { b } else { a });
    let reserved = table.terms().reserved_bytes;
    // the stage that needs most: (parts, weights, activations)
    let (memory, stage_weights, stage_kept) = stages
        .ranges
        .iter()
        .map(|range| {
            let stage = &costs[range.clone()];
            // a tensor shared by layers of several stages is held by the stage
            // of its first use only (section 10: `weight_items` is 0 on the
            // layers that share it); its other uses are counted by FLOPs alone
            let weights: f64 = stage.iter().map(|c| c.weight_items).sum();
            let kept = kept_of(table, run, stage, batch, |_| 1.0);
            (parts(run, weights, &kept, reserved), weights, kept)
        })
        .fold((MemoryParts::default(), 0.0, Kept::default()), |a, b| {
            if b.0.total() > a.0.total() { b } else { a }
        });
    let layers = costs.len() as u64;
    let mut violations = Vec::new();
    if p > layers {
        violations.push(Violation::PipelineDepth);
    }
    if segments > run.mini_batch {
        violations.push(Violation::Batch);
    }
    let (largest_s, total_s) = match table.kernels() {
        // section 11: each stage's kernels at the micro-batch
        Some(_) if micro > 0.0 => {
            let stage_s: Vec<f64> = stages
                .ranges
                .iter()
                .map(|r| table.range_s(r.clone(), micro) / micro)
                .collect();
            (stage_s.iter().copied().fold(0.0, f64::max), stage_s.iter().sum::<f64>())
        }
        _ => (stages.largest_s(), stages.times_s.iter().sum()),
    };
    let compute_s = (p + segments - 1) as f64 * micro * largest_s;
    let transfers = 2.0 * (p + segments).saturating_sub(2) as f64;
    let mut derivations = Derivations {
        compute: Some(with_kernels(
            Derivation::new(
                "c = (p+S−1)·(B/S)·max_i T_i",
                vec![
                    Symbol::new("p", "stages, one a GPU", p as f64, Unit::Count),
                    Symbol::new("S", "segments (micro-batches)", segments as f64, Unit::Count),
                    Symbol::new("B/S", "samples per segment", micro, Unit::Samples),
                    Symbol::new(
                        "max_i T_i",
                        "one sample's time in the slowest stage",
                        largest_s,
                        Unit::SecondsPerSample,
                    ),
                ],
                compute_s,
            ),
            table,
            run,
        )),
        memory: Some(memory_derivation(
            run,
            stage_weights,
            &stage_kept,
            table.terms().framework_memory.is_some(),
            &memory,
        )),
        ..Derivations::default()
    };
    derivations.communicate(
        CommKind::PipelineP2p,
        Derivation::new(
            "2(p+S−2)·max_i P2P_i((B/S)·δ·|y_i|), P2P(m) = α + m·β",
            vec![
                Symbol::new("p", "stages, one a GPU", p as f64, Unit::Count),
                Symbol::new("S", "segments (micro-batches)", segments as f64, Unit::Count),
                Symbol::new("B/S", "samples per segment", micro, Unit::Samples),
                Symbol::new(
                    "|y_i|",
                    "items per sample at the slowest boundary",
                    boundary_items,
                    Unit::Items,
                ),
                Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
            ],
            transfers * largest_p2p,
        )
        .over(boundary_pair, Path::Boundary)
        .exchanging(2, p, micro * delta * boundary_items)
        .times(p - 1),
    );
    IterationCost {
        compute_s,
        communication: Communication::of(CommKind::PipelineP2p, transfers * largest_p2p),
        memory,
        violations,
        bounds: vec![
            ScalingBound {
                limit: Violation::PipelineDepth,
                counted: "stages",
                value: p,
                bounded_by: "the number of layers",
                bound: layers,
                layer: None,
            },
            ScalingBound {
                limit: Violation::Batch,
                counted: "segments",
                value: segments,
                bounded_by: "the mini-batch at one sample per segment",
                bound: run.mini_batch,
                layer: None,
            },
        ],
        redundancy: None,
        stages: Some(StageBalance {
            largest_s,
            mean_s: total_s / stages.ranges.len().max(1) as f64,
        }),
        gradient_buckets: Vec::new(),
        hidden_s: 0.0,
        update_s: 0.0,
        derivations,
    }
}
