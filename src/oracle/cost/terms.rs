//! The realistic edition's terms (contract, section 7): which are in force
//! for an edition on a cluster, and which applied to a run, with their
//! values, so that a projection can say why the two editions differ.

use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::oracle::cost::communication::CommKind;
use crate::oracle::cost::memory::Part;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::facts::{AllreduceAlgorithm, FrameworkMemory, HaloTransport, KernelFacts};
use crate::oracle::model::fidelity::Fidelity;
use crate::oracle::model::names::named_enum;
use crate::oracle::model::practice::MemoryFormat;
use crate::oracle::report::explanation::Quantity;
use crate::oracle::report::sentence::Sentence;
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
            reserved_bytes: 0.0,
            kernels: None,
            framework_memory: None,
            intra_node_bus_bandwidth_bytes_per_s: None,
            nic_bus_bandwidth_bytes_per_s: None,
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
                reserved_bytes: facts.reserved_bytes.unwrap_or(0.0),
                kernels: facts.kernels,
                framework_memory: facts.framework_memory,
                intra_node_bus_bandwidth_bytes_per_s: facts.intra_node_bus_bandwidth_bytes_per_s,
                nic_bus_bandwidth_bytes_per_s: facts.nic_bus_bandwidth_bytes_per_s,
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
        /// Layers.
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
    },
    /// Elementwise layers split into `parts`.
    ElementwiseSplit {
        /// Parts of the split.
        parts: u64,
    },
    /// The Allreduce algorithm.
    Allreduce {
        /// The algorithm.
        algorithm: AllreduceAlgorithm,
    },
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
    /// The term.
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

    /// What it is and what it did, in words.
    pub fn detail(&self) -> String {
        self.sentence().to_string()
    }

    /// [`AppliedTerm::detail`], each number with the quantity whose
    /// explanation shows it (the compute's lists the kernel facts, the
    /// halo exchange's the host path, the activations' and workspace's
    /// their bytes; the communication's leads to each collective's
    /// bandwidth).
    pub fn sentence(&self) -> Sentence {
        let s = Sentence::new();
        let compute = Quantity::Compute;
        match &self.applied {
            Applied::Roofline {
                bandwidth_bytes_per_s,
                memory_bound,
                layers,
            } => s
                .text("memory bandwidth ")
                .figure(
                    format!("{}/s", units::bytes(*bandwidth_bytes_per_s)),
                    *bandwidth_bytes_per_s,
                    compute,
                )
                .text(": ")
                .figure(memory_bound.to_string(), *memory_bound as f64, compute)
                .text(" of ")
                .figure(layers.to_string(), *layers as f64, compute)
                .text(" layers are bound by memory traffic, not arithmetic"),
            Applied::ProfileScaling { gpu, there_s, here_s } => s
                .text(&format!("profiled on {gpu} at "))
                .figure(units::seconds(*there_s), *there_s, compute)
                .text(" per sample; ")
                .figure(units::seconds(*here_s), *here_s, compute)
                .text(" per sample on this cluster's GPU"),
            Applied::ElementwiseSplit { parts } => s
                .text("bn, relu, add and dropout layers inside the split run on ")
                .figure(format!("1/{parts}"), *parts as f64, compute)
                .text(" of the width"),
            Applied::Allreduce { algorithm } => s.text(&format!("gradient Allreduces use the {}", algorithm.label())),
            Applied::NicSharing { gpus } => {
                let count = *gpus as f64;
                s.figure(gpus.to_string(), count, Quantity::Communication)
                    .text(" GPUs share each PCIe path to a NIC: traffic that leaves a node gets ")
                    .figure(format!("1/{gpus}"), count, Quantity::Communication)
                    .text(" of the NIC")
            }
            Applied::HaloTransport { host, per_node } => {
                let halo = Quantity::Kind(CommKind::Halo);
                s.text("halos go through host memory: ")
                    .figure(units::seconds(host.latency_s), host.latency_s, halo)
                    .text(" a transfer, PCIe ")
                    .figure(
                        format!("{}/s", units::bytes(host.pcie_bandwidth_bytes_per_s)),
                        host.pcie_bandwidth_bytes_per_s,
                        halo,
                    )
                    .text(" shared by the node's ")
                    .figure(per_node.to_string(), *per_node as f64, halo)
                    .text(" parts, crossed twice")
            }
            Applied::Kernels {
                sms,
                gemm_flops_per_s,
                kernel_overhead_s,
                kernels,
                stream_bytes_per_s,
                memory_format,
            } => s
                .figure(kernels.to_string(), *kernels as f64, compute)
                .text(" kernels a step, each at least ")
                .figure(units::seconds(*kernel_overhead_s), *kernel_overhead_s, compute)
                .text(" to launch; matrix multiplications at ")
                .figure(units::flops(*gemm_flops_per_s), *gemm_flops_per_s, compute)
                .text(" sustained (convolutions at their class's measured share of it), in ")
                .figure("128x128", 128.0, compute)
                .text(" tiles over ")
                .figure(sms.to_string(), *sms as f64, compute)
                .text(" SMs (narrow layers and small batches leave tiles and SMs idle); memory-bound kernels at ")
                .figure(
                    format!("{}/s", units::bytes(*stream_bytes_per_s)),
                    *stream_bytes_per_s,
                    compute,
                )
                .text(&format!(" (STREAM); activations {}", memory_format.label())),
            Applied::FrameworkMemory {
                saved_bytes_per_sample,
                workspace_bytes,
            } => s
                .text("activations as autograd saves them: ")
                .figure(
                    units::bytes(*saved_bytes_per_sample),
                    *saved_bytes_per_sample,
                    Quantity::Part(Part::Activations),
                )
                .text(" per sample; the backward pass's gradient buffers, ")
                .figure(
                    units::bytes(*workspace_bytes),
                    *workspace_bytes,
                    Quantity::Part(Part::Workspace),
                )
                .text(" of library workspace and the allocator's rounding"),
            Applied::BusBandwidth {
                intra_node_bytes_per_s,
                nic_bytes_per_s,
            } => {
                let parts = [
                    (intra_node_bytes_per_s, "inside a node "),
                    (nic_bytes_per_s, "through each NIC "),
                ];
                parts
                    .into_iter()
                    .filter_map(|(bw, what)| bw.map(|bw| (bw, what)))
                    .enumerate()
                    .fold(
                        s.text("collectives at the bus bandwidth NCCL achieves: "),
                        |s, (i, (bw, what))| {
                            s.text(if i > 0 { ", " } else { "" }).text(what).figure(
                                format!("{}/s", units::bytes(bw)),
                                bw,
                                Quantity::Communication,
                            )
                        },
                    )
            }
        }
    }
}

impl Serialize for AppliedTerm {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("term", &self.term)?;
        map.serialize_entry("label", self.term.label())?;
        map.serialize_entry("value", &self.value())?;
        map.serialize_entry("detail", &self.detail())?;
        map.end()
    }
}
