//! The realistic edition's terms (contract, section 7): which are in force
//! for an edition on a cluster, and which applied to a run, with their
//! values, so that a projection can say why the two editions differ.

use std::sync::Arc;

use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::facts::{AllreduceAlgorithm, FrameworkMemory, HaloTransport, KernelFacts};
use crate::oracle::model::names::named_enum;
use crate::oracle::model::practice::{AttentionForm, MemoryFormat};

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
        /// Compute as kernels run (section 11).
        Kernels => ("kernels", "kernels: tiles, waves and launch cost"),
        /// Memory as the framework holds it (section 11).
        FrameworkMemory => ("framework_memory", "memory as autograd and the allocator hold it"),
        /// Collectives at the bandwidth NCCL achieves (section 11).
        BusBandwidth => ("bus_bandwidth", "collectives at NCCL's measured bus bandwidth"),
    }
}

/// The section 7 terms in force for one edition on one cluster: in the
/// ideal edition, or for a fact left out, each is off.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Terms {
    pub edition: Edition,
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
    /// Memory per GPU reserved by the CUDA context and the framework
    /// (section 9; 0: off).
    pub reserved_bytes: f64,
    /// The GPU's kernel facts (section 11); `None`: off.
    pub kernels: Option<KernelFacts>,
    /// The framework's memory facts (section 11); `None`: off.
    pub framework_memory: Option<FrameworkMemory>,
    /// NCCL's bus bandwidth inside a node (section 11); `None`: the link's.
    pub intra_node_bus_bandwidth_bytes_per_s: Option<f64>,
    /// NCCL's bandwidth through one NIC (section 11); `None`: the NIC's.
    pub nic_bus_bandwidth_bytes_per_s: Option<f64>,
    /// In-network reduction across nodes (SHARP, section 11).
    pub in_network_reduction: bool,
}

impl Terms {
    /// Every term off: the ideal edition.
    pub fn ideal() -> Self {
        Self {
            edition: Edition::Ideal,
            memory_bandwidth_bytes_per_s: None,
            elementwise_split: false,
            allreduce: AllreduceAlgorithm::Ring,
            nic_sharing: 1,
            halo_transport: None,
            reserved_bytes: 0.0,
            kernels: None,
            framework_memory: None,
            intra_node_bus_bandwidth_bytes_per_s: None,
            nic_bus_bandwidth_bytes_per_s: None,
            in_network_reduction: false,
        }
    }

    /// The terms of `edition` on `cluster`: each on when the edition is
    /// realistic and the cluster gives its fact.
    pub fn new(cluster: &Cluster, edition: Edition) -> Self {
        let facts = cluster.realistic();
        match edition {
            Edition::Ideal => Self::ideal(),
            Edition::Realistic => Self {
                edition,
                memory_bandwidth_bytes_per_s: facts.memory_bandwidth_bytes_per_s,
                elementwise_split: facts.memory_bandwidth_bytes_per_s.is_some(),
                // left out: NCCL's choice (today's practice), except on a flat ParaDL
                // platform, which describes the ideal edition's machine
                allreduce: facts.allreduce.unwrap_or(if cluster.flat_link().is_some() {
                    AllreduceAlgorithm::Ring
                } else {
                    AllreduceAlgorithm::Best
                }),
                nic_sharing: facts.nic_sharing.unwrap_or(1),
                halo_transport: facts.halo_transport,
                reserved_bytes: facts.reserved_bytes.unwrap_or(0.0),
                kernels: facts.kernels,
                framework_memory: facts.framework_memory,
                intra_node_bus_bandwidth_bytes_per_s: facts.intra_node_bus_bandwidth_bytes_per_s,
                nic_bus_bandwidth_bytes_per_s: facts.nic_bus_bandwidth_bytes_per_s,
                in_network_reduction: facts.in_network_reduction.unwrap_or(false),
            },
        }
    }
}

/// What a term that applied acted with: its facts and effect, kept as
/// numbers (the sentence is written only when shown).
#[derive(Debug, Clone, PartialEq)]
pub enum Applied {
    /// The roofline: the bandwidth, and how many layers it bounds.
    Roofline {
        /// Sustained memory bandwidth, bytes/s.
        bandwidth_bytes_per_s: f64,
        /// Layers bound by memory traffic.
        memory_bound: usize,
        layers: usize,
    },
    /// A profile scaled to this GPU.
    ProfileScaling {
        /// The GPU it was measured on.
        gpu: Arc<str>,
        /// Seconds per sample there.
        there_s: f64,
        /// Seconds per sample here.
        here_s: f64,
        /// Not carried: a reference profile on another GPU or precision
        /// (the kernels time the run).
        replaced: bool,
    },
    /// Elementwise layers split into `parts`.
    ElementwiseSplit {
        /// Parts of the split.
        parts: u64,
    },
    /// The Allreduce algorithm.
    Allreduce { algorithm: AllreduceAlgorithm },
    /// GPUs sharing a path to a NIC.
    NicSharing {
        /// How many.
        gpus: u64,
    },
    /// Host-staged halos.
    HaloTransport {
        /// The transport.
        host: HaloTransport,
        /// Parts of the split in one node.
        per_node: u64,
    },
    /// Compute as kernels run.
    Kernels {
        /// Streaming multiprocessors.
        sms: u64,
        /// Sustained GEMM FLOP/s of the run's precision.
        gemm_flops_per_s: f64,
        /// Launch and framework cost of one kernel, seconds.
        kernel_overhead_s: f64,
        /// Kernels a step launches.
        kernels: usize,
        /// Sustained (STREAM) memory bandwidth of memory-bound kernels, bytes/s.
        stream_bytes_per_s: f64,
        /// The layout of the activations.
        memory_format: MemoryFormat,
    },
    /// Memory as the framework holds it.
    FrameworkMemory {
        /// Bytes per sample autograd saves.
        saved_bytes_per_sample: f64,
        /// Library workspace, bytes.
        workspace_bytes: f64,
        /// How the network's attention runs, when it has attention (section
        /// 15): what it saves depends on it.
        attention: Option<AttentionForm>,
    },
    /// Collectives at NCCL's bus bandwidth.
    BusBandwidth {
        /// Inside a node, bytes/s.
        intra_node_bytes_per_s: Option<f64>,
        /// Through one NIC, bytes/s.
        nic_bytes_per_s: Option<f64>,
    },
}

/// A term that applied to a projection, with its value. Serialises as
/// `{term, label, value, detail}`.
#[derive(Debug, Clone, PartialEq)]
pub struct AppliedTerm {
    pub term: Term,
    /// What it acted with.
    pub applied: Applied,
}

impl AppliedTerm {
    /// Its main number: bandwidth in bytes/s, the profile's time ratio
    /// here/there, parts of a split, GPUs sharing a NIC path, the halo
    /// latency in seconds (0 for the Allreduce algorithm), the GEMM rate in
    /// FLOP/s, the bytes per sample autograd saves, the intra-node bus
    /// bandwidth (else the NIC's) in bytes/s.
    pub fn value(&self) -> f64 {
        match &self.applied {
            Applied::Roofline {
                bandwidth_bytes_per_s, ..
            } => *bandwidth_bytes_per_s,
            Applied::ProfileScaling { there_s, here_s, .. } => here_s / there_s,
            Applied::ElementwiseSplit { parts } => *parts as f64,
            Applied::Allreduce { .. } => 0.0,
            Applied::NicSharing { gpus } => *gpus as f64,
            Applied::HaloTransport { host, .. } => host.latency_s,
            Applied::Kernels { gemm_flops_per_s, .. } => *gemm_flops_per_s,
            Applied::FrameworkMemory {
                saved_bytes_per_sample, ..
            } => *saved_bytes_per_sample,
            Applied::BusBandwidth {
                intra_node_bytes_per_s,
                nic_bytes_per_s,
            } => intra_node_bytes_per_s.or(*nic_bytes_per_s).unwrap_or(0.0),
        }
    }
}
