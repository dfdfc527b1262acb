//! The derivations the explanation shows for a strategy's terms: compute
//! with its kernels, exchanges with their algorithm, memory with its parts.

use super::super::collectives::{Fabric, allreduce, tree_allreduce};
use super::super::derivation::{Derivation, Path, Symbol, Unit};
use super::super::memory::{Kept, MemoryParts};
use super::super::nccl;
use super::super::table::CostTable;
use super::routes::{Route, gradient_exchange, weight_allgather};
use crate::oracle::model::facts::AllreduceAlgorithm;
use crate::oracle::model::run::Run;

/// The GPU facts section 11's kernels used, for a compute derivation.
pub(super) fn kernel_symbols(table: &CostTable, run: &Run) -> Vec<Symbol> {
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
pub(super) fn with_kernels(derivation: Derivation, table: &CostTable, run: &Run) -> Derivation {
    let mut derivation = derivation;
    derivation.symbols.extend(kernel_symbols(table, run));
    derivation
}

/// The formula of [`gradient_exchange`] for `run` with `algorithm`.
pub(super) fn exchange_formula(run: &Run, algorithm: AllreduceAlgorithm, route: Route) -> &'static str {
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
pub(super) fn nccl_symbol(algorithm: nccl::Algorithm, protocol: nccl::Protocol) -> (&'static str, &'static str) {
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
pub(super) fn derived_exchange(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> Derivation {
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
pub(super) fn derived_weight_allgather(
    fabric: &Fabric<'_>,
    run: &Run,
    members: u64,
    bytes: f64,
    route: Route,
) -> Derivation {
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
pub(super) fn memory_derivation(
    run: &Run,
    weights: f64,
    kept: &Kept,
    autograd: bool,
    memory: &MemoryParts,
) -> Derivation {
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
