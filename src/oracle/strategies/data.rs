//! Serial and data parallelism.

use super::{IterationCost, batch_bound};
use crate::oracle::comm::allreduce;
use crate::oracle::projection::{Communication, Violation};
use crate::oracle::run::Run;
use crate::oracle::scenario::Scenario;

/// # Formula
/// compute `(B/p)·Σt`; communication `AR(p, δW)` over a ring of `p` GPUs;
/// memory `2δ((B/p)·A + W)`; limit `B ≥ p`. Serial is the case `p = 1`.
pub fn cost(scenario: &Scenario, run: &Run) -> IterationCost {
    let network = scenario.network();
    let p = run.gpus;
    let delta = run.bytes_per_item;
    let per_gpu = run.mini_batch as f64 / p as f64;
    let weights = network.weight_items();
    let ring = scenario.cluster().ring(p, 1);
    let mut violations = Vec::new();
    if run.mini_batch < p {
        violations.push(Violation::Batch);
    }
    IterationCost {
        compute_s: per_gpu * scenario.time_per_sample_s(),
        communication: Communication {
            gradient_allreduce: allreduce(p, delta * weights, ring),
            ..Communication::default()
        },
        memory_bytes: 2.0 * delta * (per_gpu * network.activation_items() + weights),
        violations,
        bounds: vec![batch_bound(run, p, "GPUs")],
        redundancy: None,
        stages: None,
    }
}
