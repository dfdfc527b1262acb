//! Which of the realistic edition's terms applied to a run, with the
//! values they acted with (what a projection lists).

use std::sync::Arc;

use super::table::CostTable;
use super::terms::{Applied, AppliedTerm, Term};
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::facts::AllreduceAlgorithm;
use crate::oracle::model::run::Run;
use crate::oracle::model::strategy::Strategy;

/// The terms that applied to `run` (none in the ideal edition).
///
/// A term applies when it is in force and the run has what it acts on:
/// the roofline, a profile's scaling, the kernels and the framework's
/// memory always; elementwise splitting and host-staged halos in a spatial
/// split of more than one part; the Allreduce algorithm when a gradient
/// Allreduce has more than one member; NIC sharing when the run spans more
/// than one node; the bus bandwidth inside a node for more than one GPU,
/// through the NICs for more than one node.
pub fn applied(table: &CostTable, cluster: &Cluster, run: &Run) -> Vec<AppliedTerm> {
    let terms = table.terms();
    let mut out = Vec::new();
    let mut push = |term: Term, applied: Applied| out.push(AppliedTerm { term, applied });
    if let Some(bw) = terms.memory_bandwidth_bytes_per_s {
        push(
            Term::Roofline,
            Applied::Roofline {
                bandwidth_bytes_per_s: bw,
                memory_bound: table.memory_bound_layers(),
                layers: table.layers().len(),
            },
        );
    }
    if let Some(scaling) = table.profile_scaling() {
        push(
            Term::ProfileScaling,
            Applied::ProfileScaling {
                gpu: Arc::clone(&scaling.gpu),
                there_s: scaling.there_s,
                here_s: scaling.here_s,
                replaced: scaling.replaced,
            },
        );
    }
    let (groups, parts) = if run.strategy.is_hybrid() {
        (run.groups(), run.group_size)
    } else if run.strategy.uses_split() {
        (1, run.gpus)
    } else {
        (run.gpus, 1)
    };
    let spatial = matches!(run.strategy, Strategy::Spatial | Strategy::DataSpatial) && parts > 1;
    if spatial && terms.elementwise_split {
        push(Term::ElementwiseSplit, Applied::ElementwiseSplit { parts });
    }
    let has_allreduce = match run.strategy {
        Strategy::Serial | Strategy::Pipeline | Strategy::Filter | Strategy::Channel => false,
        Strategy::Data | Strategy::DataFilter => groups > 1,
        Strategy::Spatial | Strategy::DataSpatial => run.gpus > 1,
    };
    if has_allreduce && terms.allreduce != AllreduceAlgorithm::Ring {
        push(
            Term::Allreduce,
            Applied::Allreduce {
                algorithm: terms.allreduce,
            },
        );
    }
    if terms.nic_sharing > 1 && run.gpus > cluster.gpus_per_node() {
        push(
            Term::NicSharing,
            Applied::NicSharing {
                gpus: terms.nic_sharing,
            },
        );
    }
    if let Some(host) = terms.halo_transport
        && spatial
        && table
            .layers()
            .iter()
            .any(|c| c.halo_x_items > 0.0 || c.halo_y_items > 0.0)
    {
        push(
            Term::HaloTransport,
            Applied::HaloTransport {
                host,
                per_node: parts.min(cluster.gpus_per_node()),
            },
        );
    }
    if let (Some(facts), Some(kernels)) = (terms.kernels, table.kernels()) {
        push(
            Term::Kernels,
            Applied::Kernels {
                sms: facts.sms,
                gemm_flops_per_s: facts.gemm_flops_per_s.rate(run.precision),
                kernel_overhead_s: facts.kernel_overhead_s,
                kernels: kernels.count(),
                stream_bytes_per_s: kernels.gpu().bandwidth,
                memory_format: run.memory_format,
            },
        );
    }
    if let Some(memory) = terms.framework_memory {
        push(
            Term::FrameworkMemory,
            Applied::FrameworkMemory {
                saved_bytes_per_sample: table.layers().iter().map(|c| c.saved.bytes()).sum(),
                workspace_bytes: memory.workspace_bytes,
                attention: table.layers().iter().any(|c| c.heads > 0).then_some(run.attention),
            },
        );
    }
    let inside = terms.intra_node_bus_bandwidth_bytes_per_s.filter(|_| run.gpus > 1);
    let across = terms
        .nic_bus_bandwidth_bytes_per_s
        .filter(|_| run.gpus > cluster.gpus_per_node());
    if inside.is_some() || across.is_some() {
        push(
            Term::BusBandwidth,
            Applied::BusBandwidth {
                intra_node_bytes_per_s: inside,
                nic_bytes_per_s: across,
            },
        );
    }
    out
}
