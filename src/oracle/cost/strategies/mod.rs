//! Per-iteration costs of each strategy, exactly as the contract's table.

mod buckets;
mod data;
mod derivations;
mod filter;
mod pipeline;
mod routes;
mod spatial;
mod splits;

use super::communication::{CommKind, Communication};
use super::derivation::{Derivation, Derivations, Symbol, Unit};
use super::memory::MemoryParts;
use super::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::run::Run;
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;
use buckets::backward_share;
pub use buckets::{Bucket, FIRST_BUCKET_BYTES};

/// A bound on how far a strategy scales, for the findings.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingBound {
    /// The limit it enforces.
    pub limit: Violation,
    /// What is counted, e.g. "GPUs per group".
    pub counted: &'static str,
    /// Its value in this run.
    pub value: u64,
    /// What bounds it, in words.
    pub bounded_by: &'static str,
    pub bound: u64,
    /// The layer (its index in the network) whose size sets the bound, for
    /// a split's.
    pub layer: Option<usize>,
}

/// Layers left whole by a split: their share of each part's compute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Redundancy {
    /// Parts the split layers are divided into.
    pub parts: u64,
    /// Share of one part's per-sample time spent in whole layers.
    pub whole_share: f64,
    /// How many layers are left whole.
    pub whole_layers: usize,
}

/// Largest stage against the mean of a pipeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StageBalance {
    /// `max_i T_i`.
    pub largest_s: f64,
    /// `Σ T_i / stages`.
    pub mean_s: f64,
}

impl StageBalance {
    /// The share of a pipeline's compute time its average GPU computes,
    /// the rest waiting in the bubbles of its schedule.
    ///
    /// # Formula
    /// The schedule takes `(p+S−1)·max_i T_i` per micro-batch step, a GPU
    /// computes `S·T_i` of it: `S·mean_i T_i / ((p+S−1)·max_i T_i)` (1 when
    /// no stage computes).
    pub fn busy_share(&self, stages: u64, segments: u64) -> f64 {
        if self.largest_s > 0.0 {
            segments as f64 * self.mean_s / ((stages + segments).saturating_sub(1).max(1) as f64 * self.largest_s)
        } else {
            1.0
        }
    }
}

/// What one iteration of a run costs.
#[derive(Debug, Clone, PartialEq)]
pub struct IterationCost {
    /// Forward and backward seconds (without the weight update).
    pub compute_s: f64,
    /// Communication seconds by kind (exposed: after overlap).
    pub communication: Communication,
    /// Bytes per GPU, by part.
    pub memory: MemoryParts,
    /// Strategy limits violated (memory and GPU count are checked apart).
    pub violations: Vec<Violation>,
    /// Bounds on scaling.
    pub bounds: Vec<ScalingBound>,
    /// Redundant compute of a split.
    pub redundancy: Option<Redundancy>,
    /// Stage balance of a pipeline.
    pub stages: Option<StageBalance>,
    /// The buckets of the gradient exchange (for the overlap), in the
    /// order they are sent.
    pub gradient_buckets: Vec<Bucket>,
    /// Gradient exchange hidden behind the backward pass by the overlap.
    pub hidden_s: f64,
    /// `WU`: the optimizer's step of one iteration, seconds (the run's, or
    /// section 11's; see [`update_s`]).
    pub update_s: f64,
    /// How these costs were computed: formulas and the values in them.
    pub derivations: Derivations,
}

impl IterationCost {
    /// Bytes per GPU, all parts.
    pub fn memory_bytes(&self) -> f64 {
        self.memory.total()
    }

    /// Seconds of one iteration spent outside the layers: `WU + F`, the
    /// optimizer's step and the framework's measured cost.
    pub fn outside_layers_s(&self, run: &Run) -> f64 {
        self.update_s + run.framework_s
    }
}

/// `WU`: the optimizer's step of one iteration. The run's when given (or
/// when a profile measured a whole step, whose framework cost holds it); else in
/// the realistic edition with kernel facts, section 11's: the step's
/// memory traffic at the STREAM bandwidth.
///
/// # Formula
/// `WU = max(4·i·W_u / BW, o)` with `i` the optimizer's FP32 items per
/// parameter ([`crate::oracle::model::practice::Optimizer::step_items`]:
/// SGD 3, momentum 5, Adam 7; 2 more under FP16 for the gradient scaler's
/// unscaling), `W_u = m_g/(h·d₁')` the parameters the GPU updates (its
/// gradient bytes `m_g` over the item size, divided by the data-parallel
/// degree under ZeRO stage 1, which shards the step but not the
/// gradients), `BW` the STREAM bandwidth and `o` one kernel's cost; 0 for
/// optimizer `none`.
pub fn update_s(table: &CostTable, run: &Run, memory: &MemoryParts) -> f64 {
    if run.update_s > 0.0 || run.measured_step {
        return run.update_s;
    }
    let (Some(kernels), Some(facts)) = (table.kernels(), table.terms().kernels) else {
        return 0.0;
    };
    let mut items = run.optimizer.step_items();
    if items == 0.0 {
        return 0.0;
    }
    if run.precision == crate::oracle::model::practice::Precision::Fp16 {
        items += 2.0;
    }
    let sharded = if run.zero == 1 {
        run.data_parallel_degree() as f64
    } else {
        1.0
    };
    let parameters = memory.gradients_bytes / run.item_bytes() / sharded;
    (4.0 * items * parameters / kernels.gpu().bandwidth).max(facts.kernel_overhead_s)
}

/// The per-iteration cost of `run` with the layer costs of `table` on
/// `cluster`, with the overlap of section 9 applied.
///
/// # Formula
/// With `overlap`, the gradient exchange `T_ex` runs bucket by bucket
/// (`buckets::gradient_buckets`) during the backward pass `T_bw` (2/3 of the
/// compute; 3/4 with recompute): bucket `k` starts when its gradients are
/// ready and the bucket before it is sent, `e_k = max(r_k, e_{k−1}) +
/// T_k`; exposed `min(T_ex, max(0, e_K − T_bw))`; the rest is hidden.
pub fn iteration_cost(table: &CostTable, cluster: &Cluster, run: &Run) -> IterationCost {
    let mut cost = match run.strategy {
        Strategy::Serial | Strategy::Data => data::cost(table, cluster, run),
        Strategy::Spatial | Strategy::DataSpatial => spatial::cost(table, cluster, run),
        Strategy::Filter | Strategy::Channel | Strategy::DataFilter => filter::cost(table, cluster, run),
        Strategy::Pipeline => pipeline::cost(table, cluster, run),
    };
    cost.update_s = update_s(table, run, &cost.memory);
    if run.overlap {
        let exchange = cost.communication.get(CommKind::GradientAllreduce);
        let backward = cost.compute_s * backward_share(run);
        let end = cost
            .gradient_buckets
            .iter()
            .fold(0.0, |end: f64, b| end.max(b.ready_s) + b.exchange_s);
        let exposed = if cost.gradient_buckets.is_empty() {
            exchange
        } else {
            (end - backward).max(0.0).min(exchange)
        };
        let last = cost.gradient_buckets.last().map_or(0.0, |b| b.exchange_s);
        cost.hidden_s = exchange - exposed;
        cost.derivations.overlap = (exchange > 0.0).then(|| {
            Derivation::new(
                if run.recompute {
                    "exposed = min(T_ex, max(0, e_K − T_bw)), e_k = max(r_k, e_{k−1}) + T_k, T_bw = 3/4·c"
                } else {
                    "exposed = min(T_ex, max(0, e_K − T_bw)), e_k = max(r_k, e_{k−1}) + T_k, T_bw = 2/3·c"
                },
                vec![
                    Symbol::new("T_ex", "the whole gradient exchange", exchange, Unit::Seconds),
                    Symbol::new("c", "forward and backward compute", cost.compute_s, Unit::Seconds),
                    Symbol::new("T_bw", "the backward pass it hides behind", backward, Unit::Seconds),
                    Symbol::new(
                        "K",
                        "buckets (the first 1 MiB, then the run's bucket size, as PyTorch's DDP)",
                        cost.gradient_buckets.len() as f64,
                        Unit::Count,
                    ),
                    Symbol::new(
                        "T_K",
                        "the exchange of the last bucket, the first layers' gradients",
                        last,
                        Unit::Seconds,
                    ),
                    Symbol::new(
                        "e_K",
                        "when the last bucket is sent, from the backward pass's start",
                        end,
                        Unit::Seconds,
                    ),
                ],
                exposed,
            )
        });
        cost.communication = cost.communication.with(CommKind::GradientAllreduce, exposed);
    }
    cost
}

#[cfg(test)]
mod stage_tests {
    use super::StageBalance;

    #[test]
    fn a_pipeline_gpu_computes_its_stages_share_of_the_schedule() {
        // balanced: 8 micro-batches over 4 stages, 11 steps of which each GPU computes 8
        let balanced = StageBalance {
            largest_s: 1.0,
            mean_s: 1.0,
        };
        assert!((balanced.busy_share(4, 8) - 8.0 / 11.0).abs() < 1e-12);
        // the slowest stage sets the step: the others wait for it too
        let skewed = StageBalance {
            largest_s: 2.0,
            mean_s: 1.0,
        };
        assert!((skewed.busy_share(4, 8) - 8.0 / 22.0).abs() < 1e-12);
        assert_eq!(
            StageBalance {
                largest_s: 0.0,
                mean_s: 0.0
            }
            .busy_share(4, 8),
            1.0
        );
    }
}
