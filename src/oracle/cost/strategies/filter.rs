//! Filter and channel parallelism and the data+filter hybrid.

use super::IterationCost;
use super::buckets::overlap_buckets;
use super::derivations::{derived_exchange, derived_weight_allgather, memory_derivation};
use super::routes::{Route, gradient_exchange};
use super::splits::kept_of;
use super::splits::{groups, kept_whole, redundancy, split_compute, split_limits};
use crate::oracle::cost::collectives::Fabric;
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::derivation::{Derivation, Derivations, Path, Symbol, Unit};
use crate::oracle::cost::memory::{Kept, parts};
use crate::oracle::cost::split::{SplitAxis, SplitPlan};
use crate::oracle::cost::table::CostTable;
use crate::oracle::cost::tensor::TensorRole;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;
use crate::oracle::model::strategy::Strategy;

/// # Formula
/// With `p1` groups of `p2` GPUs (`p1 = 1`, `p2 = p` for filter and
/// channel) and `B_g = B/p1`: compute `B_g·t_split(p2)`; layer-wise
/// collectives `3(p2−1)·Σ_{l∈Sp, l≠G}(α + B_g·|y_l|·δβ/p2)` over a ring of
/// `p2`; gradient `AR(p1, δ·W_local)` over a ring of `p` GPUs with
/// `f = p2` rings per node, `W_local = Σ(|w|/p2 in Sp, |w| else)` (ZeRO's
/// exchange over the `p1` groups, section 9); memory the parts of section
/// 9 with `W_local`, `A` and `B_g` (the contract's `2δ(B_g·A + W_local)`
/// at the defaults); `δ` is the run's item size `h`; limits: the split set
/// is not empty and `p2 ≤ min F` (filter) or `min C` (channel) over it,
/// `B ≥ p1`.
///
/// A transformer (section 15) splits its blocks as tensor parallelism does
/// ([`SplitPlan::tensor`]): the layer-wise collectives are one Allreduce of
/// each row's output forward and one of its column's input gradient
/// backward, `2·Σ_{rows} AR(p2, B_g·|y_l|·δ)`, over a ring of `p2`; the
/// split layers' activations are kept `1/p2` each; the limit is
/// `p2 ≤` the fewest heads (or hidden units).
pub fn cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let costs = table.layers();
    if costs.iter().any(|c| c.tensor_role != TensorRole::Whole) {
        return tensor_cost(table, cluster, run);
    }
    let (p1, p2) = groups(run);
    let delta = run.item_bytes();
    let per_group = run.mini_batch as f64 / p1 as f64;
    let axis = if run.strategy == Strategy::Channel {
        SplitAxis::Channels
    } else {
        SplitAxis::Filters
    };
    let plan = SplitPlan::new(costs, axis, p2, run.split.as_deref(), false);
    let fabric = Fabric::new(cluster, table.terms());

    let mut layer = 0.0;
    let inner = fabric.ring(p2, 1);
    let (mut exchanged, mut outputs) = (0usize, 0.0);
    if p2 > 1 {
        let last = costs.len() - 1;
        let per_layer: f64 = plan
            .zip(costs)
            .enumerate()
            .filter(|(i, (_, split))| *split && *i != last)
            .map(|(_, (c, _))| {
                exchanged += 1;
                outputs += c.output_items;
                inner.alpha_s + per_group * c.output_items * delta * inner.beta_s_per_byte / p2 as f64
            })
            .sum();
        layer = 3.0 * (p2 - 1) as f64 * per_layer;
    }
    let collectives = Derivation::new(
        "3(p2−1)·Σ_{l∈Sp, l≠G}(α + B_g·|y_l|·δβ/p2) = 3(p2−1)·(L·α + B_g·δ·β·Σ|y_l|/p2)",
        vec![
            Symbol::new("p2", "GPUs that share each split layer", p2 as f64, Unit::Count),
            Symbol::new("L", "split layers that exchange outputs", exchanged as f64, Unit::Count),
            Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
            Symbol::new("Σ|y_l|", "their output items per sample", outputs, Unit::Items),
            Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
        ],
        layer,
    )
    .over(inner, Path::GroupRing)
    .exchanging(p2, p2, per_group * delta * outputs)
    .times(p1);
    let kept = kept_whole(table, run, per_group);
    assemble(table, &fabric, run, &plan, kept, (layer, collectives))
}

/// The iteration of a split `plan` (filter, channel, a transformer's
/// blocks, and their hybrids with data parallelism): its compute, the
/// gradient exchange between the groups (one ring per shard, `f = p2`),
/// ZeRO's weight allgather, the memory of the weights the plan leaves a
/// GPU and of the activations `kept`, and the layer-wise collectives
/// (seconds and explanation).
fn assemble(
    table: &CostTable,
    fabric: &Fabric,
    run: &Run,
    plan: &SplitPlan,
    kept: Kept,
    (layer, collectives): (f64, Derivation),
) -> IterationCost {
    let costs = table.layers();
    let (p1, p2) = groups(run);
    let per_group = run.mini_batch as f64 / p1 as f64;
    let local_weights = plan.divided(costs, |c| c.weight_items);
    let route = Route::Ring(fabric.ring(run.gpus, p2));
    let exchange = |bytes: f64| gradient_exchange(fabric, run, p1, bytes, route);
    let bytes = run.item_bytes() * local_weights;
    let (violations, bounds) = split_limits(run, plan, p1);
    let (compute_s, compute) = split_compute(table, run, plan, per_group);
    let memory = parts(run, local_weights, &kept, table.terms().reserved_bytes);
    let gradient = derived_exchange(fabric, run, p1, bytes, route).times(p2);
    let gradient_s = gradient.value;
    let gather = derived_weight_allgather(fabric, run, p1, bytes, route).times(p2);
    let mut derivations = Derivations {
        compute: Some(compute),
        memory: Some(memory_derivation(
            run,
            local_weights,
            &kept,
            table.terms().framework_memory.is_some(),
            &memory,
        )),
        ..Derivations::default()
    };
    derivations.communicate(CommKind::LayerCollectives, collectives);
    let communication = Communication::of(CommKind::GradientAllreduce, gradient.value)
        .with(CommKind::LayerCollectives, layer)
        .with(CommKind::WeightAllgather, gather.value);
    derivations.communicate(CommKind::GradientAllreduce, gradient);
    derivations.communicate(CommKind::WeightAllgather, gather);
    IterationCost {
        compute_s,
        communication,
        memory,
        violations,
        bounds,
        redundancy: redundancy(plan, costs),
        stages: None,
        gradient_buckets: overlap_buckets(table, run, per_group, Some(plan), gradient_s, exchange),
        hidden_s: 0.0,
        update_s: 0.0,
        derivations,
    }
}

/// Filter and channel parallelism of a transformer's blocks (section 15):
/// see [`cost`].
fn tensor_cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let costs = table.layers();
    let (p1, p2) = groups(run);
    let delta = run.item_bytes();
    let per_group = run.mini_batch as f64 / p1 as f64;
    let plan = SplitPlan::tensor(costs, p2);
    let fabric = Fabric::new(cluster, table.terms());
    let inner = fabric.ring(p2, 1);
    let rows: Vec<f64> = costs
        .iter()
        .filter(|c| c.tensor_role == TensorRole::Row)
        .map(|c| c.output_items)
        .collect();
    let summed: f64 = rows.iter().sum();
    let layer = if p2 > 1 {
        rows.iter()
            .map(|items| 2.0 * fabric.allreduce_consecutive(p2, per_group * items * delta))
            .sum()
    } else {
        0.0
    };
    let q = p2 as f64;
    let kept = kept_of(table, run, costs, per_group, |i| match costs[i].tensor_role {
        TensorRole::Inside | TensorRole::Row => 1.0 / q,
        _ => 1.0,
    });
    let collectives = Derivation::new(
        "2·Σ_{rows} AR(p2, B_g·|y_l|·δ) (with the edition's algorithm; a ring: 2(p2−1)(α + B_g·|y_l|·δ·β/p2)): each block's last linear layer's outputs summed forward, its first's input gradients backward",
        vec![
            Symbol::new("p2", "GPUs that share each block", p2 as f64, Unit::Count),
            Symbol::new("L", "blocks' last linear layers (rows)", rows.len() as f64, Unit::Count),
            Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
            Symbol::new("Σ|y_l|", "their output items per sample", summed, Unit::Items),
            Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
        ],
        layer,
    )
    .over(inner, Path::GroupRing)
    .exchanging(p2, p2, per_group * delta * summed)
    .times(p1);
    assemble(table, &fabric, run, &plan, kept, (layer, collectives))
}
