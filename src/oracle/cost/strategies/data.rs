//! Serial and data parallelism.

use super::IterationCost;
use super::buckets::overlap_buckets;
use super::derivations::{derived_exchange, derived_weight_allgather, memory_derivation, with_kernels};
use super::routes::{Route, gradient_exchange};
use super::splits::{batch_bound, kept_whole};
use crate::oracle::cost::collectives::Fabric;
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::derivation::{Derivation, Derivations, Symbol, Unit};
use crate::oracle::cost::memory::parts;
use crate::oracle::cost::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;
use crate::oracle::model::violation::Violation;

/// # Formula
/// compute `(B/p)·Σt` (section 11: `Σt` the time per sample of each
/// layer's kernels at `B/p` samples); communication `AR(p, h·W)` over a ring of `p` GPUs
/// (with the edition's Allreduce algorithm and NIC sharing; ZeRO's
/// reduce-scatter and allgather, and stage 3's weight allgather, section
/// 9); memory the parts of section 9 with `W`, `A` and `B/p` (the
/// contract's `2δ((B/p)·A + W)` at the defaults); limit `B ≥ p`. Serial is
/// the case `p = 1`.
pub fn cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let p = run.gpus;
    let h = run.item_bytes();
    let per_gpu = run.mini_batch as f64 / p as f64;
    let weights = table.weight_items();
    let fabric = Fabric::new(cluster, table.terms());
    let route = Route::Consecutive(p);
    let exchange = |bytes: f64| gradient_exchange(&fabric, run, p, bytes, route);
    let bytes = h * weights;
    let kept = kept_whole(table, run, per_gpu);
    let mut violations = Vec::new();
    if run.mini_batch < p {
        violations.push(Violation::Batch);
    }
    let compute_s = table.compute_s(per_gpu, None);
    let sum_t = match table.kernels() {
        Some(_) if per_gpu > 0.0 => compute_s / per_gpu,
        _ => table.time_per_sample_s(),
    };
    let gradient = derived_exchange(&fabric, run, p, bytes, route);
    let gradient_s = gradient.value;
    let gather = derived_weight_allgather(&fabric, run, p, bytes, route);
    let memory = parts(run, weights, &kept, table.terms().reserved_bytes);
    let mut derivations = Derivations {
        compute: Some(with_kernels(
            Derivation::new(
                "c = (B/p)·Σt",
                vec![
                    Symbol::new("B/p", "samples per GPU", per_gpu, Unit::Samples),
                    Symbol::new(
                        "Σt",
                        "forward and backward time of one sample (at this batch, with section 11's kernels)",
                        sum_t,
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
            weights,
            &kept,
            table.terms().framework_memory.is_some(),
            &memory,
        )),
        ..Derivations::default()
    };
    let communication =
        Communication::of(CommKind::GradientAllreduce, gradient.value).with(CommKind::WeightAllgather, gather.value);
    derivations.communicate(CommKind::GradientAllreduce, gradient);
    derivations.communicate(CommKind::WeightAllgather, gather);
    IterationCost {
        compute_s,
        communication,
        memory,
        violations,
        bounds: vec![batch_bound(run, p, "GPUs")],
        redundancy: None,
        stages: None,
        gradient_buckets: overlap_buckets(table, run, per_gpu, None, gradient_s, exchange),
        hidden_s: 0.0,
        update_s: 0.0,
        derivations,
    }
}
