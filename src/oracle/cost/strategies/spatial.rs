//! Spatial parallelism and its hybrid with data parallelism.

use super::IterationCost;
use super::buckets::overlap_buckets;
use super::derivations::{derived_exchange, derived_weight_allgather, memory_derivation};
use super::routes::{Route, gradient_exchange};
use super::splits::{groups, kept_of, redundancy, split_compute, split_limits};
use crate::oracle::cost::collectives::{Fabric, allgather, p2p};
use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::derivation::{Derivation, Derivations, Path, Symbol, Unit};
use crate::oracle::cost::memory::parts;
use crate::oracle::cost::split::{SplitAxis, SplitPlan};
use crate::oracle::cost::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;

/// # Formula
/// With `p1` groups of `p2` GPUs (`p1 = 1`, `p2 = p` for spatial) and
/// `B_g = B/p1`: compute `B_g·t_split(p2)`; halo, for every split layer
/// with `K > 1`, `2·P2P(B_g·h_x·δ) + 2·P2P(B_g·h_y·δ)` (pairs inside a node
/// when `p2 ≤ n`); gather `2·AG(p2, δ·B_g·|y_last|)` when layers follow the
/// split set; gradient `AR(p2, δW)` over a ring of `p2` plus `AR(p1, δW)`
/// over a ring of `p` GPUs (`f = 1`); memory
/// `2δ(B_g·Σ(act/p2 in Sp, act else) + W)` (section 9's parts; ZeRO over
/// the `p1` groups); `δ` is the run's item size `h`; limits: the split set is not
/// empty and `p2 ≤` its narrowest width, `B ≥ p1`. The realistic
/// edition's terms: elementwise layers inside the split count as split,
/// halos may be host-staged, Allreduces use its algorithm and NIC sharing.
/// A transformer's token split (section 15) adds, for every split global
/// attention product, `2·AG(p2, δ·B_g·|o_l|)` of its keys or values.
pub fn cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let costs = table.layers();
    let (p1, p2) = groups(run);
    let delta = run.item_bytes();
    let per_group = run.mini_batch as f64 / p1 as f64;
    let terms = table.terms();
    let plan = SplitPlan::new(
        costs,
        SplitAxis::Width,
        p2,
        run.split.as_deref(),
        terms.elementwise_split,
    );
    let fabric = Fabric::new(cluster, terms);

    let mut halo = 0.0;
    let halo_pair = fabric.halo_pair(p2 <= cluster.gpus_per_node(), p2);
    // a chain of blocking sends (section 7): each direction's p2 − 1 transfers one after
    // another, forward only
    let chained = terms.halo_transport.is_some_and(|h| h.chained);
    let (mut haloed, mut halo_items) = (0usize, 0.0);
    if p2 > 1 {
        for (c, _) in plan.zip(costs).filter(|(_, split)| *split) {
            if c.halo_x_items > 0.0 || c.halo_y_items > 0.0 {
                haloed += 1;
                if chained {
                    halo_items += c.halo_x_items;
                    halo += 2.0 * (p2 - 1) as f64 * p2p(per_group * c.halo_x_items * delta, halo_pair);
                } else {
                    halo_items += c.halo_x_items + c.halo_y_items;
                    halo += 2.0 * p2p(per_group * c.halo_x_items * delta, halo_pair)
                        + 2.0 * p2p(per_group * c.halo_y_items * delta, halo_pair);
                }
            }
        }
    }
    let inner = fabric.ring(p2, 1);
    // global attention's keys and values, gathered whole by every part (section 15)
    let (mut gathering, mut gathered_items, mut key_value) = (0usize, 0.0, 0.0);
    for (c, _) in plan.zip(costs).filter(|(c, split)| *split && c.gathered_items > 0.0) {
        gathering += 1;
        gathered_items += c.gathered_items;
        key_value += 2.0 * allgather(p2, delta * per_group * c.gathered_items, inner);
    }
    // the last split layer's outputs, when layers follow the split set
    let gathered = plan
        .last()
        .filter(|last| last + 1 < costs.len())
        .map(|last| costs[last].output_items);
    let last_items = gathered.unwrap_or(0.0);
    let gather = gathered.map_or(0.0, |items| 2.0 * allgather(p2, delta * per_group * items, inner));
    let weight_bytes = delta * table.weight_items();
    let route = Route::Ring(fabric.ring(run.gpus, 1));
    // inside a group the parts hold every weight: an Allreduce; between groups the data-parallel exchange
    let exchange =
        |bytes: f64| fabric.allreduce_consecutive(p2, bytes) + gradient_exchange(&fabric, run, p1, bytes, route);
    let q = p2 as f64;
    let kept = kept_of(table, run, costs, per_group, |i| {
        if plan.mask.get(i).copied().unwrap_or(false) {
            1.0 / q
        } else {
            1.0
        }
    });

    let (violations, bounds) = split_limits(run, &plan, p1);
    let (compute_s, compute) = split_compute(table, run, &plan, per_group);
    let memory = parts(run, table.weight_items(), &kept, table.terms().reserved_bytes);
    let mut derivations = Derivations {
        compute: Some(compute),
        memory: Some(memory_derivation(
            run,
            table.weight_items(),
            &kept,
            table.terms().framework_memory.is_some(),
            &memory,
        )),
        ..Derivations::default()
    };
    derivations.communicate(
        CommKind::Halo,
        Derivation::new(
            if chained {
                "Σ_{l∈Sp, K>1} 2(p2−1)·P2P(B_g·h_x·δ) = 2(p2−1)·(L·α + B_g·δ·β·Σh_x) (a chain of blocking sends, forward only)"
            } else {
                "Σ_{l∈Sp, K>1} 2·P2P(B_g·h_x·δ) + 2·P2P(B_g·h_y·δ) = 4·L·α + 2·B_g·δ·β·Σ(h_x + h_y)"
            },
            vec![
                Symbol::new("L", "split layers with a halo (K > 1)", haloed as f64, Unit::Count),
                Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
                Symbol::new(
                    if chained { "Σh_x" } else { "Σ(h_x + h_y)" },
                    "halo items per sample exchanged",
                    halo_items,
                    Unit::Items,
                ),
                Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
                Symbol::new("p2", "slices of each split layer", p2 as f64, Unit::Count),
            ],
            halo,
        )
        .over(halo_pair, Path::Neighbours)
        .exchanging(2, p2, per_group * delta * halo_items)
        .times(p1 * (p2 - 1)),
    );
    derivations.communicate(
        CommKind::Gather,
        Derivation::new(
            "2·AG(p2, δ·B_g·|y_last|) = 2(p2−1)(α + δ·B_g·|y_last|·β/p2)",
            vec![
                Symbol::new("p2", "slices of each split layer", p2 as f64, Unit::Count),
                Symbol::new(
                    "|y_last|",
                    "output items per sample of the last split layer",
                    last_items,
                    Unit::Items,
                ),
                Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
                Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
            ],
            gather,
        )
        .over(inner, Path::GroupRing)
        .exchanging(p2, p2, delta * per_group * last_items)
        .times(p1),
    );
    derivations.communicate(
        CommKind::KeyValue,
        Derivation::new(
            "Σ_{l∈Sp, global} 2·AG(p2, δ·B_g·|o_l|) = 2(p2−1)·(L·α + δ·B_g·β·Σ|o_l|/p2): each global attention product's keys or values gathered forward, their gradients scattered back; a product summing over the positions, its output's partial sums added up (an Allreduce of |o| = |y|, the same cost)",
            vec![
                Symbol::new("L", "split global attention products (and products summing over the positions)", gathering as f64, Unit::Count),
                Symbol::new("Σ|o_l|", "their keys and values (or partial sums), items per sample", gathered_items, Unit::Items),
                Symbol::new("B_g", "samples per group (B/p1)", per_group, Unit::Samples),
                Symbol::new("δ", "bytes of an item", delta, Unit::Bytes),
                Symbol::new("p2", "slices of each split layer", p2 as f64, Unit::Count),
            ],
            key_value,
        )
        .over(inner, Path::GroupRing)
        .exchanging(p2, p2, delta * per_group * gathered_items)
        .times(p1),
    );
    let inside = fabric.allreduce_consecutive(p2, weight_bytes);
    derivations.communicate(
        CommKind::GradientAllreduce,
        Derivation::new(
            "inside each group: AR(p2, m) = 2(p2−1)(α + m·β/p2) (with the edition's algorithm)",
            vec![
                Symbol::new(
                    "p2",
                    "GPUs of a group, each holding every weight",
                    p2 as f64,
                    Unit::Count,
                ),
                Symbol::new("m", "gradient bytes (h·W)", weight_bytes, Unit::Bytes),
            ],
            inside,
        )
        .over(inner, Path::GroupRing)
        .exchanging(p2, p2, weight_bytes)
        .times(p1),
    );
    let between = derived_exchange(&fabric, run, p1, weight_bytes, route);
    // the gradient exchange: inside each group, then between the groups
    let exchange_s = inside + between.value;
    let gather_weights = derived_weight_allgather(&fabric, run, p1, weight_bytes, route);
    let communication = Communication::of(CommKind::GradientAllreduce, exchange_s)
        .with(CommKind::Halo, halo)
        .with(CommKind::Gather, gather)
        .with(CommKind::KeyValue, key_value)
        .with(CommKind::WeightAllgather, gather_weights.value);
    derivations.communicate(CommKind::GradientAllreduce, between);
    derivations.communicate(CommKind::WeightAllgather, gather_weights);
    IterationCost {
        compute_s,
        communication,
        memory,
        violations,
        bounds,
        redundancy: redundancy(&plan, costs),
        stages: None,
        gradient_buckets: overlap_buckets(table, run, per_group, Some(&plan), exchange_s, exchange),
        hidden_s: 0.0,
        update_s: 0.0,
        derivations,
    }
}
