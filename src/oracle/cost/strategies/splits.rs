//! What the model-parallel strategies share: the compute of a split, its
//! limits and redundancy, the activations kept, and group sizes.

use super::super::derivation::{Derivation, Symbol, Unit};
use super::super::memory::{Held, Kept, kept};
use super::super::split::SplitPlan;
use super::super::table::{CostTable, LayerCost};
use super::derivations::with_kernels;
use super::{Redundancy, ScalingBound};
use crate::oracle::model::run::Run;
use crate::oracle::model::violation::Violation;

/// The compute of a split, `c = B_g·t_split(p2)`, with its derivation.
pub(super) fn split_compute(table: &CostTable, run: &Run, plan: &SplitPlan, per_group: f64) -> (f64, Derivation) {
    let compute_s = table.compute_s(per_group, Some(plan));
    let per_sample = |seconds: f64| if per_group > 0.0 { seconds / per_group } else { 0.0 };
    let t_split = match table.kernels() {
        Some(_) => per_sample(compute_s),
        None => plan.time_s(table.layers()),
    };
    let whole = match table.kernels() {
        Some(_) => per_sample(table.compute_s(per_group, None)),
        None => table.time_per_sample_s(),
    };
    let derivation = Derivation::new(
        if table.kernels().is_some() {
            "c = B_g·t_split(p2), t_split = Σ_l T_l(B_g, cut_l)/B_g: each layer's kernels at this batch, split layers cut in p2"
        } else {
            "c = B_g·t_split(p2), t_split = Σ_{l∈Sp} t_l/p2 + Σ_{l∉Sp} t_l"
        },
        vec![
            Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
            Symbol::new("p2", "parts of each split layer", plan.parts as f64, Unit::Count),
            Symbol::new(
                "t_split",
                "one sample's time on one GPU of the split",
                t_split,
                Unit::SecondsPerSample,
            ),
            Symbol::new(
                "Σt",
                "one sample's time on one GPU, unsplit",
                whole,
                Unit::SecondsPerSample,
            ),
            Symbol::new(
                "|Sp|",
                "layers in the split set",
                plan.mask.iter().filter(|&&m| m).count() as f64,
                Unit::Count,
            ),
            Symbol::new("G", "layers", table.layers().len() as f64, Unit::Count),
        ],
        compute_s,
    );
    (compute_s, with_kernels(derivation, table, run))
}

/// What a GPU keeps of the activations of every layer, whole, for
/// `samples` samples.
pub(super) fn kept_whole(table: &CostTable, run: &Run, samples: f64) -> Kept {
    kept_of(table, run, table.layers(), samples, |_| 1.0)
}

/// What a GPU keeps of the activations of `layers` for `samples` samples,
/// holding `share(i)` of layer `i`.
pub(super) fn kept_of(
    table: &CostTable,
    run: &Run,
    layers: &[LayerCost],
    samples: f64,
    share: impl Fn(usize) -> f64,
) -> Kept {
    let held = layers
        .iter()
        .enumerate()
        .map(|(i, cost)| Held { cost, share: share(i) })
        .collect::<Vec<_>>();
    kept(
        held.into_iter(),
        samples,
        run.item_bytes(),
        run.recompute,
        table.terms().framework_memory,
    )
}

/// `(p1, p2)`: data-parallel groups and GPUs per group of a split strategy
/// (`(1, p)` for a pure model-parallel one).
pub(super) fn groups(run: &Run) -> (u64, u64) {
    if run.strategy.is_hybrid() {
        (run.groups(), run.group_size)
    } else {
        (1, run.gpus)
    }
}

/// The batch bound of data-parallel replicas: `B ≥ replicas`.
pub(super) fn batch_bound(run: &Run, replicas: u64, counted: &'static str) -> ScalingBound {
    ScalingBound {
        limit: Violation::Batch,
        counted,
        value: replicas,
        bounded_by: "the mini-batch at one sample per replica",
        bound: run.mini_batch,
        layer: None,
    }
}

/// The limits of a split strategy: the split set holds and is not divided
/// into more parts than it allows; a hybrid's `p1` groups get at least one
/// sample each.
pub(super) fn split_limits(run: &Run, plan: &SplitPlan, groups: u64) -> (Vec<Violation>, Vec<ScalingBound>) {
    let hybrid = run.strategy.is_hybrid();
    let mut violations = Vec::new();
    if plan.violated() {
        violations.push(Violation::Split);
    }
    let mut bounds = vec![ScalingBound {
        limit: Violation::Split,
        counted: if hybrid { "GPUs per group" } else { "GPUs" },
        value: plan.parts,
        bounded_by: plan.axis.bound_name(),
        bound: plan.bound,
        layer: plan.bound_layer,
    }];
    if hybrid {
        if run.mini_batch < groups {
            violations.push(Violation::Batch);
        }
        bounds.push(batch_bound(run, groups, "groups"));
    }
    (violations, bounds)
}

/// Redundancy of a split plan with more than one part.
pub(super) fn redundancy(plan: &SplitPlan, costs: &[LayerCost]) -> Option<Redundancy> {
    if plan.parts <= 1 || plan.is_empty() {
        return None;
    }
    let part_s = plan.time_s(costs);
    let whole_s = plan.whole_time_s(costs);
    Some(Redundancy {
        parts: plan.parts,
        whole_share: if part_s > 0.0 { whole_s / part_s } else { 0.0 },
        whole_layers: plan.zip(costs).filter(|(c, split)| !split && c.time_s > 0.0).count(),
    })
}
