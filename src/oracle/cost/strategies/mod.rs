//! Per-iteration costs of each strategy, exactly as the contract's table.

mod data;
mod filter;
mod pipeline;
mod spatial;

use super::collectives::{AlphaBeta, Fabric, allgather, allreduce, tree_allreduce};
use super::communication::{CommKind, Communication};
use super::derivation::{Derivation, Derivations, Path, Symbol, Unit};
use super::memory::{Held, Kept, MemoryParts, kept};
use super::nccl;
use super::split::{SplitAxis, SplitPlan};
use super::table::{CostTable, LayerCost};
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::facts::AllreduceAlgorithm;
use crate::oracle::model::run::Run;
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;

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
    /// The bound.
    pub bound: u64,
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
/// ([`gradient_buckets`]) during the backward pass `T_bw` (2/3 of the
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

/// PyTorch DDP's first gradient bucket, bytes (its C++ reducer's
/// `kDefaultFirstBucketBytes`, `torch.distributed._DEFAULT_FIRST_BUCKET_BYTES`:
/// 1 MiB in PyTorch 2.15), so that the last layers' gradients leave early.
pub const FIRST_BUCKET_BYTES: f64 = 1_048_576.0;

/// One bucket of a gradient exchange.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bucket {
    /// `r_k`: seconds into the backward pass when its last gradient is ready.
    pub ready_s: f64,
    /// `T_k`: seconds its exchange takes.
    pub exchange_s: f64,
}

/// The share of a layer's training time spent in its backward pass: 2/3,
/// 3/4 with recompute (whose extra forward pass runs in the backward).
fn backward_share(run: &Run) -> f64 {
    if run.recompute { 3.0 / 4.0 } else { 2.0 / 3.0 }
}

/// The buckets of a gradient exchange as PyTorch's DDP fills them (after
/// its first iteration, in the order the gradients are produced).
///
/// # Formula
/// The layers in backward order (the last first); layer `l`'s gradient
/// bytes `m_l` are ready when the backward pass has run `β·Σ_{k≥l} T_k`
/// (`β = share` of each layer's compute `T_k` at this batch); they
/// join the open bucket, which closes once it holds at least its cap
/// ([`FIRST_BUCKET_BYTES`] for the first, or `bucket_bytes` if smaller;
/// `bucket_bytes` after), ready with its last gradient. A bucket of `m_k`
/// bytes takes `T_k = T_ex·E(m_k)/E(m)`: the strategy's exchange `E` of its
/// bytes, in the proportion that carries the exchange of all `m` bytes to
/// the whole exchange `T_ex` (so each bucket pays its own latency).
fn gradient_buckets(
    share: f64,
    bucket_bytes: f64,
    layer_times_s: &[f64],
    layer_bytes: &[f64],
    total_s: f64,
    exchange: impl Fn(f64) -> f64,
) -> Vec<Bucket> {
    let whole = exchange(layer_bytes.iter().sum());
    let scale = if whole > 0.0 { total_s / whole } else { 0.0 };
    let mut buckets = Vec::new();
    let (mut elapsed, mut open, mut ready) = (0.0, 0.0, 0.0);
    for (t, m) in layer_times_s.iter().zip(layer_bytes).rev() {
        elapsed += share * t;
        if *m <= 0.0 {
            continue;
        }
        open += m;
        ready = elapsed;
        let cap = if buckets.is_empty() {
            FIRST_BUCKET_BYTES.min(bucket_bytes)
        } else {
            bucket_bytes
        };
        if open >= cap {
            buckets.push(Bucket {
                ready_s: ready,
                exchange_s: scale * exchange(open),
            });
            open = 0.0;
        }
    }
    if open > 0.0 {
        buckets.push(Bucket {
            ready_s: ready,
            exchange_s: scale * exchange(open),
        });
    }
    buckets
}

/// The gradient buckets of a strategy whose GPUs each run `samples`
/// samples of the layers (those of `plan` split; a filter or channel split
/// divides their weights), when the run overlaps; none otherwise.
///
/// # Formula
/// [`gradient_buckets`] with `T_l` of [`CostTable::layer_times_s`] and
/// `m_l = h·|w_l|` (`/q` for a layer whose weights the split divides).
fn overlap_buckets(
    table: &CostTable,
    run: &Run,
    samples: f64,
    plan: Option<&SplitPlan>,
    total_s: f64,
    exchange: impl Fn(f64) -> f64,
) -> Vec<Bucket> {
    if !run.overlap {
        return Vec::new();
    }
    let times = table.layer_times_s(samples, plan);
    let h = run.item_bytes();
    // a shared tensor's gradient is whole once the backward pass reaches its
    // first use (the last of its uses backward): it joins the bucket there,
    // and its other uses add no bytes (section 10)
    let bytes: Vec<f64> = table
        .layers()
        .iter()
        .enumerate()
        .map(|(i, c)| match plan {
            Some(p) if p.axis != SplitAxis::Width && p.mask.get(i).copied().unwrap_or(false) => {
                h * c.weight_items / p.parts as f64
            }
            _ => h * c.weight_items,
        })
        .collect();
    gradient_buckets(backward_share(run), run.bucket_bytes, &times, &bytes, total_s, exchange)
}

/// Where a gradient exchange runs: over consecutive GPUs (hierarchical
/// Allreduces possible), or over a given ring (one member per group).
#[derive(Debug, Clone, Copy)]
enum Route {
    /// `gpus` consecutive GPUs.
    Consecutive(u64),
    /// A ring with these α, β.
    Ring(AlphaBeta),
}

/// The gradient exchange of `bytes` among the `members` of the
/// data-parallel dimension: an Allreduce, or ZeRO's reduce-scatter and
/// allgather (stages 1 to 3, ring algorithms).
fn gradient_exchange(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> f64 {
    match (run.zero, route) {
        (0, Route::Consecutive(gpus)) => fabric.allreduce_consecutive(gpus, bytes),
        (0, Route::Ring(ab)) => fabric.allreduce(members, bytes, ab),
        (_, Route::Consecutive(gpus)) => fabric.reduce_scatter_allgather(members, bytes, fabric.ring(gpus, 1)),
        (_, Route::Ring(ab)) => fabric.reduce_scatter_allgather(members, bytes, ab),
    }
}

impl Route {
    /// The α, β of its ring.
    fn ring(self, fabric: &Fabric<'_>) -> AlphaBeta {
        match self {
            Self::Consecutive(gpus) => fabric.ring(gpus, 1),
            Self::Ring(ab) => ab,
        }
    }

    /// The consecutive GPUs an exchange over it spans.
    fn span(self, run: &Run) -> u64 {
        match self {
            Self::Consecutive(gpus) => gpus,
            Self::Ring(_) => run.gpus,
        }
    }
}

/// The GPU facts section 11's kernels used, for a compute derivation.
fn kernel_symbols(table: &CostTable, run: &Run) -> Vec<Symbol> {
    let Some(facts) = table.terms().kernels else {
        return Vec::new();
    };
    let kernels: usize = table.kernels().map_or(0, |k| k.count());
    let stream = table.kernels().map_or(0.0, |k| k.gpu().bandwidth);
    vec![
        Symbol::new(
            "SMs",
            "the GPU's streaming multiprocessors",
            facts.sms as f64,
            Unit::Count,
        ),
        Symbol::new(
            "R_p",
            "sustained FLOP/s of a large matrix multiplication at this precision",
            facts.gemm_flops_per_s.rate(run.precision),
            Unit::FlopsPerSecond,
        ),
        Symbol::new(
            "o",
            "launch and framework cost of one kernel",
            facts.kernel_overhead_s,
            Unit::Seconds,
        ),
        Symbol::new("kernels", "kernels a step launches", kernels as f64, Unit::Count),
        Symbol::new(
            "BW",
            "sustained (STREAM) memory bandwidth of memory-bound kernels",
            stream,
            Unit::BytesPerSecond,
        ),
    ]
}

/// A compute derivation with section 11's kernel symbols when in force.
fn with_kernels(derivation: Derivation, table: &CostTable, run: &Run) -> Derivation {
    let mut derivation = derivation;
    derivation.symbols.extend(kernel_symbols(table, run));
    derivation
}

/// The compute of a split, `c = B_g·t_split(p2)`, with its derivation.
fn split_compute(table: &CostTable, run: &Run, plan: &SplitPlan, per_group: f64) -> (f64, Derivation) {
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

/// The formula of [`gradient_exchange`] for `run` with `algorithm`.
fn exchange_formula(run: &Run, algorithm: AllreduceAlgorithm, route: Route) -> &'static str {
    match (run.zero, algorithm, route) {
        (1.., _, _) => "RS(d, m) + AG(d, m) = 2(d−1)(α + m·β/d) (ZeRO)",
        (0, AllreduceAlgorithm::Tree, _) => "AR_tree(d, m) = 2·⌈log2 d⌉·α + 2·m·β",
        (0, AllreduceAlgorithm::Best, Route::Consecutive(_)) => {
            "NCCL's choice: the least of its ring and tree with the LL and Simple protocols, latency + m/bandwidth each (and the switches' reduction, where they reduce)"
        }
        (0, AllreduceAlgorithm::Best, Route::Ring(_)) => {
            "the least of AR(d, m) = 2(d−1)(α + m·β/d) and AR_tree(d, m) = 2·⌈log2 d⌉·α + 2·m·β"
        }
        (0, AllreduceAlgorithm::Hierarchical, Route::Consecutive(_)) => {
            "RS_in(n, m) + AR(N, m/n) + AG_in(n, m) over whole nodes, else AR(d, m) = 2(d−1)(α + m·β/d)"
        }
        _ => "AR(d, m) = 2(d−1)(α + m·β/d)",
    }
}

/// The symbol and meaning of one of NCCL's candidates in a derivation.
fn nccl_symbol(algorithm: nccl::Algorithm, protocol: nccl::Protocol) -> (&'static str, &'static str) {
    use nccl::{Algorithm as A, Protocol as P};
    match (algorithm, protocol) {
        (A::Ring, P::Ll) => ("AR_ring_LL", "NCCL's ring with LL: its latency + m at its bandwidth"),
        (A::Ring, P::Ll128) => (
            "AR_ring_LL128",
            "NCCL's ring with LL128: its latency + m at its bandwidth",
        ),
        (A::Ring, P::Simple) => (
            "AR_ring_Simple",
            "NCCL's ring with Simple: its latency + m at its bandwidth",
        ),
        (A::Tree, P::Ll) => ("AR_tree_LL", "NCCL's tree with LL: its latency + m at its bandwidth"),
        (A::Tree, P::Ll128) => (
            "AR_tree_LL128",
            "NCCL's tree with LL128: its latency + m at its bandwidth",
        ),
        (A::Tree, P::Simple) => (
            "AR_tree_Simple",
            "NCCL's tree with Simple: its latency + m at its bandwidth",
        ),
    }
}

/// [`gradient_exchange`] with its derivation: `d` members, `m` bytes and
/// the ring's α, β.
fn derived_exchange(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> Derivation {
    let mut symbols = vec![
        Symbol::new("d", "replicas that exchange gradients", members as f64, Unit::Count),
        Symbol::new("m", "gradient bytes of a replica (h·W)", bytes, Unit::Bytes),
    ];
    if run.zero == 0 && fabric.allreduce_algorithm() == AllreduceAlgorithm::Best {
        // the candidates `best` chooses among, so that the winner shows
        match route {
            Route::Consecutive(gpus) => {
                for c in nccl::candidates(fabric.nccl_shape(gpus), bytes) {
                    let (symbol, meaning) = nccl_symbol(c.algorithm, c.protocol);
                    symbols.push(Symbol::new(symbol, meaning, c.seconds, Unit::Seconds));
                }
                if let Some(seconds) = fabric.in_network(gpus, bytes) {
                    symbols.push(Symbol::new(
                        "AR_sharp",
                        "the hierarchical Allreduce reduced by the switches",
                        seconds,
                        Unit::Seconds,
                    ));
                }
            }
            Route::Ring(_) => {
                let ab = route.ring(fabric);
                symbols.push(Symbol::new(
                    "AR_ring",
                    "the ring Allreduce",
                    allreduce(members, bytes, ab),
                    Unit::Seconds,
                ));
                symbols.push(Symbol::new(
                    "AR_tree",
                    "the tree Allreduce",
                    tree_allreduce(members, bytes, ab),
                    Unit::Seconds,
                ));
            }
        }
    }
    Derivation::new(
        exchange_formula(run, fabric.allreduce_algorithm(), route),
        symbols,
        gradient_exchange(fabric, run, members, bytes, route),
    )
    .over(route.ring(fabric), Path::Ring)
    .exchanging(members, route.span(run), bytes)
}

/// [`weight_allgather`] with its derivation.
fn derived_weight_allgather(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> Derivation {
    Derivation::new(
        "AG(d, m) = (d−1)(α + m·β/d) (ZeRO stage 3)",
        vec![
            Symbol::new("d", "replicas that share the weights", members as f64, Unit::Count),
            Symbol::new("m", "weight bytes of a replica (h·W)", bytes, Unit::Bytes),
        ],
        weight_allgather(fabric, run, members, bytes, route),
    )
    .over(route.ring(fabric), Path::Ring)
    .exchanging(members, route.span(run), bytes)
}

/// What the memory parts of a GPU were computed from.
///
/// # Formula
/// Section 9's parts of `W` weights and the activations `kept` for `B_g`
/// samples an iteration: `A` items per sample (ParaDL's accounting), or
/// `a` bytes per sample autograd saves with the transient buffers,
/// workspace and allocator's rounding (section 11; see
/// [`super::memory::kept`]).
fn memory_derivation(run: &Run, weights: f64, kept: &Kept, autograd: bool, memory: &MemoryParts) -> Derivation {
    let activations = if autograd {
        Symbol::new("a", "bytes per sample autograd saves", kept.per_sample, Unit::Bytes)
    } else {
        Symbol::new("A", "activation items kept per sample", kept.per_sample, Unit::Items)
    };
    let mut symbols = vec![
        Symbol::new("W", "weights this GPU computes with", weights, Unit::Items),
        activations,
    ];
    if autograd {
        symbols.push(Symbol::new(
            "max_l(|x_l| + |y_l|)",
            "items per sample of the largest layer's input and output",
            kept.largest_items,
            Unit::Items,
        ));
    }
    Derivation::new(
        if autograd {
            "weights h·W/d₃, gradients h·W/d₂, optimizer (m + s)·W/d₁, activations B_g·a, backward buffers h·B_g·max_l(|x_l| + |y_l|), workspace, allocator rounding, reserved"
        } else {
            "weights h·W/d₃, gradients h·W/d₂, optimizer (m + s)·W/d₁, activations 2·h·B_g·A, reserved"
        },
        {
            symbols.extend([
            Symbol::new("B_g", "samples this GPU processes an iteration", kept.samples, Unit::Samples),
            Symbol::new("h", "bytes of an item at this precision", run.item_bytes(), Unit::Bytes),
            Symbol::new("δ", "bytes of an fp32 item", run.bytes_per_item, Unit::Bytes),
            Symbol::new(
                "d",
                "data-parallel degree",
                run.data_parallel_degree() as f64,
                Unit::Count,
            ),
            Symbol::new(
                "z",
                "ZeRO stage (d_k = d when z ≥ k, else 1)",
                f64::from(run.zero),
                Unit::Count,
            ),
            Symbol::new(
                "s",
                "optimizer state buffers per weight",
                run.optimizer.state_buffers(),
                Unit::Factor,
            ),
            ]);
            symbols
        },
        memory.total(),
    )
    .in_unit(Unit::Bytes)
}

/// ZeRO stage 3's allgather of the weights in the backward pass.
///
/// # Formula
/// `AG(d, h·W)` for stage 3, else 0.
fn weight_allgather(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> f64 {
    if run.zero < 3 {
        return 0.0;
    }
    allgather(members, bytes, route.ring(fabric))
}

/// What a GPU keeps of the activations of every layer, whole, for
/// `samples` samples.
fn kept_whole(table: &CostTable, run: &Run, samples: f64) -> Kept {
    kept_of(table, run, table.layers(), samples, |_| 1.0)
}

/// What a GPU keeps of the activations of `layers` for `samples` samples,
/// holding `share(i)` of layer `i`.
fn kept_of(table: &CostTable, run: &Run, layers: &[LayerCost], samples: f64, share: impl Fn(usize) -> f64) -> Kept {
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
fn groups(run: &Run) -> (u64, u64) {
    if run.strategy.is_hybrid() {
        (run.groups(), run.group_size)
    } else {
        (1, run.gpus)
    }
}

/// The batch bound of data-parallel replicas: `B ≥ replicas`.
fn batch_bound(run: &Run, replicas: u64, counted: &'static str) -> ScalingBound {
    ScalingBound {
        limit: Violation::Batch,
        counted,
        value: replicas,
        bounded_by: "the mini-batch at one sample per replica",
        bound: run.mini_batch,
    }
}

/// The limits of a split strategy: the split set holds and is not divided
/// into more parts than it allows; a hybrid's `p1` groups get at least one
/// sample each.
fn split_limits(run: &Run, plan: &SplitPlan, groups: u64) -> (Vec<Violation>, Vec<ScalingBound>) {
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
fn redundancy(plan: &SplitPlan, costs: &[LayerCost]) -> Option<Redundancy> {
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

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: f64 = 1_048_576.0;

    #[test]
    fn buckets_fill_as_ddps_by_hand() {
        // five layers of 3 ms each (2 ms backward), gradients 8, 0, 10, 0.5 and 0.75 MiB; 10 MiB
        // buckets and an exchange of 1 ms + 1 ms a MiB. Backward order: 0.75 MiB (ready at 2 ms)
        // and 0.5 MiB (4 ms) reach the first bucket's 1 MiB together; 10 MiB fills the
        // second at 6 ms; 8 MiB (10 ms) is the last, with the first layer's gradient.
        let exchange = |bytes: f64| 1e-3 + 1e-3 * bytes / MIB;
        let bytes = [8.0 * MIB, 0.0, 10.0 * MIB, 0.5 * MIB, 0.75 * MIB];
        let all: f64 = bytes.iter().sum();
        let buckets = gradient_buckets(2.0 / 3.0, 10.0 * MIB, &[3e-3; 5], &bytes, exchange(all), exchange);
        let want = [(4e-3, 2.25e-3), (6e-3, 11e-3), (10e-3, 9e-3)];
        assert_eq!(buckets.len(), want.len());
        for (b, (ready, took)) in buckets.iter().zip(want) {
            assert!((b.ready_s - ready).abs() < 1e-15, "{b:?}");
            assert!((b.exchange_s - took).abs() < 1e-15, "{b:?}");
        }
        // a whole exchange twice as slow (say, two rings) doubles each bucket's share
        let doubled = gradient_buckets(2.0 / 3.0, 10.0 * MIB, &[3e-3; 5], &bytes, 2.0 * exchange(all), exchange);
        assert!((doubled[1].exchange_s - 22e-3).abs() < 1e-15);
        // a bucket smaller than DDP's first closes the first bucket at its own size
        let small = gradient_buckets(2.0 / 3.0, 0.25 * MIB, &[3e-3; 5], &bytes, exchange(all), exchange);
        assert_eq!(small.len(), 4);
        assert!((small[0].ready_s - 2e-3).abs() < 1e-15);
    }

    #[test]
    fn weightless_first_layers_leave_the_last_bucket_earlier() {
        // the last bucket is ready with the first layer that has weights, not at the backward's end
        let exchange = |bytes: f64| bytes / MIB;
        let buckets = gradient_buckets(0.5, 25.0 * MIB, &[1.0, 1.0, 1.0], &[0.0, 2.0 * MIB, 0.0], 2.0, exchange);
        assert_eq!(
            buckets,
            vec![Bucket {
                ready_s: 1.0,
                exchange_s: 2.0
            }]
        );
    }
}
