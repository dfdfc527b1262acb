//! The realistic edition's terms (contract, section 7): which are in force
//! for an edition on a cluster, and which applied to a run, with their
//! values, so that a projection can say why the two editions differ.

use serde::Serialize;

use super::table::CostTable;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::facts::{AllreduceAlgorithm, HaloTransport};
use crate::oracle::model::fidelity::Fidelity;
use crate::oracle::model::names::named_enum;
use crate::oracle::model::run::Run;
use crate::oracle::model::strategy::Strategy;
use crate::oracle::units;

named_enum! {
    /// A term of the realistic edition.
    pub enum Term {
        /// Layer times bound by arithmetic or by memory traffic.
        Roofline => ("roofline", "roofline weights (GPU memory bandwidth)"),
        /// A profiled time scaled from the GPU it was measured on.
        ProfileScaling => ("profile_scaling", "profile scaled to this GPU"),
        /// Elementwise layers inside a spatial split run on the local slice.
        ElementwiseSplit => ("elementwise_split", "elementwise layers split with the spatial split"),
        /// Tree or best-of Allreduces instead of rings.
        Allreduce => ("allreduce", "Allreduce algorithm"),
        /// GPUs sharing a PCIe path to a NIC.
        NicSharing => ("nic_sharing", "shared path to the NIC"),
        /// Halos through host memory.
        HaloTransport => ("halo_transport", "host-staged halo exchange"),
    }
}

/// The section 7 terms in force for one edition on one cluster: in the
/// ideal edition, or for a fact left out, each is off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Terms {
    /// The edition.
    pub fidelity: Fidelity,
    /// GPU memory bandwidth (bytes/s) of the roofline; `None`: off.
    pub memory_bandwidth_bytes_per_s: Option<f64>,
    /// Whether elementwise layers inside a spatial split are split (on
    /// with the roofline: they are the memory-bound layers it times).
    pub elementwise_split: bool,
    /// The Allreduce algorithm (ring: off).
    pub allreduce: AllreduceAlgorithm,
    /// GPUs sharing a PCIe path to a NIC (1: off).
    pub nic_sharing: u64,
    /// Host-staged halos; `None`: off.
    pub halo_transport: Option<HaloTransport>,
}

impl Terms {
    /// Every term off: the ideal edition.
    pub fn ideal() -> Self {
        Self {
            fidelity: Fidelity::Ideal,
            memory_bandwidth_bytes_per_s: None,
            elementwise_split: false,
            allreduce: AllreduceAlgorithm::Ring,
            nic_sharing: 1,
            halo_transport: None,
        }
    }

    /// The terms of `fidelity` on `cluster`: each on when the edition is
    /// realistic and the cluster gives its fact.
    pub fn new(cluster: &Cluster, fidelity: Fidelity) -> Self {
        let facts = cluster.realistic();
        match fidelity {
            Fidelity::Ideal => Self::ideal(),
            Fidelity::Realistic => Self {
                fidelity,
                memory_bandwidth_bytes_per_s: facts.memory_bandwidth_bytes_per_s,
                elementwise_split: facts.memory_bandwidth_bytes_per_s.is_some(),
                allreduce: facts.allreduce.unwrap_or(AllreduceAlgorithm::Ring),
                nic_sharing: facts.nic_sharing.unwrap_or(1),
                halo_transport: facts.halo_transport,
            },
        }
    }
}

/// A term that applied to a projection, with its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AppliedTerm {
    /// The term.
    pub term: Term,
    /// Its main number (bandwidth in bytes/s, GPUs sharing a NIC path,
    /// latency in seconds, the profile's time ratio; 0 when it has none).
    pub value: f64,
    /// What it is and what it did, in words.
    pub detail: String,
}

impl AppliedTerm {
    fn new(term: Term, value: f64, detail: String) -> Self {
        Self { term, value, detail }
    }
}

/// The terms that applied to `run` (none in the ideal edition).
///
/// A term applies when it is in force and the run has what it acts on:
/// the roofline and a profile's scaling always; elementwise splitting and
/// host-staged halos in a spatial split of more than one part; the
/// Allreduce algorithm when a gradient Allreduce has more than one member;
/// NIC sharing when the run spans more than one node.
pub fn applied(table: &CostTable, cluster: &Cluster, run: &Run) -> Vec<AppliedTerm> {
    let terms = table.terms();
    let mut out = Vec::new();
    if let Some(bw) = terms.memory_bandwidth_bytes_per_s {
        out.push(AppliedTerm::new(
            Term::Roofline,
            bw,
            format!(
                "memory bandwidth {}/s: {} of {} layers are bound by memory traffic, not arithmetic",
                units::bytes(bw),
                table.memory_bound_layers(),
                table.layers().len()
            ),
        ));
    }
    if let Some(scaling) = table.profile_scaling() {
        out.push(AppliedTerm::new(
            Term::ProfileScaling,
            scaling.here_s / scaling.there_s,
            format!(
                "profiled on {} at {} per sample; {} per sample on this cluster's GPU",
                scaling.gpu,
                units::seconds(scaling.there_s),
                units::seconds(scaling.here_s)
            ),
        ));
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
        out.push(AppliedTerm::new(
            Term::ElementwiseSplit,
            parts as f64,
            format!("bn, relu, add and dropout layers inside the split run on 1/{parts} of the width"),
        ));
    }
    let has_allreduce = match run.strategy {
        Strategy::Serial | Strategy::Pipeline | Strategy::Filter | Strategy::Channel => false,
        Strategy::Data | Strategy::DataFilter => groups > 1,
        Strategy::Spatial | Strategy::DataSpatial => run.gpus > 1,
    };
    if has_allreduce && terms.allreduce != AllreduceAlgorithm::Ring {
        out.push(AppliedTerm::new(
            Term::Allreduce,
            0.0,
            format!("gradient Allreduces use the {}", terms.allreduce.label()),
        ));
    }
    if terms.nic_sharing > 1 && run.gpus > cluster.gpus_per_node() {
        out.push(AppliedTerm::new(
            Term::NicSharing,
            terms.nic_sharing as f64,
            format!(
                "{} GPUs share each PCIe path to a NIC: traffic that leaves a node gets 1/{} of the NIC",
                terms.nic_sharing, terms.nic_sharing
            ),
        ));
    }
    if let Some(host) = terms.halo_transport
        && spatial
        && table
            .layers()
            .iter()
            .any(|c| c.halo_x_items > 0.0 || c.halo_y_items > 0.0)
    {
        out.push(AppliedTerm::new(
            Term::HaloTransport,
            host.latency_s,
            format!(
                "halos go through host memory: {} a transfer, PCIe {}/s shared by the node's {} parts, crossed twice",
                units::seconds(host.latency_s),
                units::bytes(host.pcie_bandwidth_bytes_per_s),
                parts.min(cluster.gpus_per_node())
            ),
        ));
    }
    out
}
