//! One node built from any GPU this tool knows: a workstation or a single
//! server, named by a key such as `node:4:pcie4:RTX 4090` (GPUs, link,
//! GPU), which `--cluster`, the JSON document and the share link carry as
//! they carry a preset's key.
//!
//! **The link between the GPUs** (each way, per GPU):
//! - PCIe x16: 15.75 GB/s (3.0), 31.5 GB/s (4.0), 63 GB/s (5.0): 8, 16
//!   and 32 GT/s a lane with 128b/130b encoding (PCI-SIG's base
//!   specifications 3.0-5.0), 16 lanes. A ring step takes NCCL's PCI
//!   latency with its Simple protocol, 5.7 µs (NVIDIA/nccl
//!   `src/graph/tuning.cc`, `hwLat[PCI][RING][SIMPLE]`).
//!
//!   NCCL's Allreduce does not reach the link: its bus bandwidth is the one
//!   nccl-tests measured on such nodes ([`pcie_bus_bytes_per_s`]). GeForce
//!   cards of the Ada and Blackwell generations have no peer-to-peer
//!   access over PCIe ("GeForce cards do not support P2P", NCCL's
//!   maintainer, NVIDIA/nccl-tests#287; NVIDIA/nccl#1309): NCCL stages
//!   every transfer through host memory (its SHM transport), which the
//!   same machine measured at 0.70 of its peer-to-peer bus bandwidth.
//! - NVLink through NVSwitch, for the SXM parts: each GPU's datasheet
//!   figure, half of it each way: V100 SXM2 300 GB/s (150 each way), A100
//!   SXM4 600 GB/s, H100 / H200 / H20 900 GB/s, H800 400 GB/s, Blackwell
//!   1.8 TB/s. A ring step takes NCCL's NVLink latency,
//!   [`NCCL_NVLINK_STEP_S`].
//!
//! Everything else is the GPU's (its row of [`devices`]: rates half its
//! dense peaks as every preset's, its memory, its kernels) and the presets'
//! framework figures (reserved memory, workspace). One node: no traffic
//! leaves it, and its NIC (one 200 Gb/s port, assumed) is never used.

use super::clusters::{NCCL_NVLINK_STEP_S, nccl_node_facts, rates};
use crate::oracle::model::cluster::{ClusterSpec, LinkSpec, SwitchLevelSpec};
use crate::oracle::model::devices::{self, Architecture, DEVICES, Device};
use crate::oracle::model::errors::{InputError, OracleError, Rule};
use crate::oracle::model::names::named_enum;
use crate::oracle::model::practice::Precision;

named_enum! {
    /// How the GPUs of a node are linked.
    pub enum NodeLink {
        /// PCIe 3.0 x16.
        Pcie3 => ("pcie3", "PCIe 3.0 x16"),
        /// PCIe 4.0 x16.
        Pcie4 => ("pcie4", "PCIe 4.0 x16"),
        /// PCIe 5.0 x16.
        Pcie5 => ("pcie5", "PCIe 5.0 x16"),
        /// NVLink through NVSwitch (SXM parts).
        Nvlink => ("nvlink", "NVLink"),
    }
}

/// What every node key starts with.
pub const PREFIX: &str = "node:";
/// The most GPUs a node may hold (the largest NVLink domains of one
/// chassis hold 8; PCIe servers up to 10 or 16).
pub const MAX_NODE_GPUS: u64 = 16;
/// NCCL's latency of one ring step over PCIe with its Simple protocol:
/// 5.7 µs (NVIDIA/nccl `src/graph/tuning.cc`, `hwLat[PCI][RING][SIMPLE]`).
pub const NCCL_PCI_STEP_S: f64 = 5.7e-6;
/// PCIe x16 bandwidth each way, bytes/s, of generations 3, 4 and 5.
const PCIE_X16_BYTES_PER_S: [f64; 3] = [15.75e9, 31.5e9, 63e9];

/// NCCL's Allreduce bus bandwidth measured by nccl-tests (`all_reduce_perf`,
/// large messages) on PCIe 4.0 and 5.0 nodes, bytes/s: `(peer to peer,
/// through host memory)`.
///
/// - PCIe 4.0, peer to peer: 25.7 GB/s, 4x RTX 4090 with P2P enabled by
///   tinygrad's open-gpu-kernel-modules, 256 MB-1 GB
///   (tinygrad/open-gpu-kernel-modules#17); the same 8x RTX 4090 on two
///   EPYC 7542 sockets reached 20.64 with P2P, **14.45 GB/s** without (the
///   stock driver: SHM), 128 MB (charlie0129/blog,
///   `content/post/rtx4090-p2p-unlocked/index.md`).
/// - PCIe 5.0: 46.65 GB/s with P2P, **37.60 GB/s** forced through host
///   memory, 4x RTX PRO 6000 Blackwell on AMD Turin, 128 MB (NVIDIA/nccl
///   pull request #2080); 8x RTX 5090 with P2P: 45.70 GB/s at 32 MB.
///
/// PCIe 3.0 has no such measurement here: its link times the PCIe 4.0
/// fractions (25.7/31.5 and 14.45/31.5).
const PCIE_BUS_BYTES_PER_S: [(f64, f64); 2] = [(25.7e9, 14.45e9), (46.65e9, 37.6e9)];

/// A node of identical GPUs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node {
    /// The GPU.
    pub gpu: &'static Device,
    /// GPUs in the node.
    pub gpus: u64,
    /// How they are linked.
    pub link: NodeLink,
}

/// NVLink bandwidth each way of an SXM part, bytes/s; `None` for a GPU
/// that is not one (a PCIe card, a workstation or GeForce card, AMD).
pub fn nvlink_bytes_per_s(gpu: &Device) -> Option<f64> {
    let name = gpu.name.to_ascii_uppercase();
    let pcie = name.contains("PCIE") || name.contains("NVL");
    match gpu.architecture {
        Architecture::Volta | Architecture::AmpereGa100 if name.contains("SXM") => Some(match gpu.architecture {
            Architecture::Volta => 150e9,
            _ => 300e9,
        }),
        Architecture::Hopper if !pcie && name.contains("H800") => Some(200e9),
        Architecture::Hopper if !pcie => Some(450e9),
        Architecture::Blackwell => Some(900e9),
        _ => None,
    }
}

impl Node {
    /// A node of `gpus` GPUs called `gpu` (a name of the table, or one
    /// `nvidia-smi` or PyTorch prints), linked by `link`.
    ///
    /// # Errors
    /// [`Rule::UnknownGpu`] on `gpu` (with the nearest names);
    /// [`Rule::CountTooSmall`] / [`Rule::CountTooLarge`] on `gpus` (1 to
    /// [`MAX_NODE_GPUS`]); [`Rule::Misplaced`] on `link` for NVLink on a
    /// GPU that has no NVLink switch.
    pub fn new(gpu: &str, gpus: u64, link: NodeLink) -> Result<Self, InputError> {
        let device = DEVICES
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(gpu.trim()))
            .or_else(|| devices::device(gpu, None))
            .ok_or_else(|| devices::unknown(gpu))?;
        if gpus == 0 {
            return Err(InputError::new("gpus", Rule::CountTooSmall { min: 1, found: 0 }));
        }
        if gpus > MAX_NODE_GPUS {
            return Err(InputError::new(
                "gpus",
                Rule::CountTooLarge {
                    max: MAX_NODE_GPUS,
                    found: gpus,
                },
            ));
        }
        if link == NodeLink::Nvlink && nvlink_bytes_per_s(device).is_none() {
            return Err(InputError::new(
                "link",
                Rule::Misplaced {
                    instead: format!(
                        "PCIe: the {} has no NVLink switch (only SXM parts of V100, A100, H100, H200 and Blackwell do)",
                        device.name
                    ),
                },
            ));
        }
        Ok(Self {
            gpu: device,
            gpus,
            link,
        })
    }

    /// The node of a key `node:GPUS:LINK:GPU`.
    ///
    /// # Errors
    /// [`Rule::Unknown`] on `cluster` for a key of another shape or an
    /// unknown link; those of [`Node::new`].
    pub fn parse(key: &str) -> Result<Self, OracleError> {
        let bad = || {
            InputError::new(
                "cluster",
                Rule::Unknown {
                    what: "node".into(),
                    found: key.into(),
                    expected: format!(
                        "node:GPUS:LINK:GPU with LINK one of {}, e.g. node:4:pcie4:RTX 4090",
                        NodeLink::ALL.map(NodeLink::name).join(", ")
                    ),
                },
            )
        };
        let rest = key.trim().strip_prefix(PREFIX).ok_or_else(bad)?;
        let mut parts = rest.splitn(3, ':');
        let (Some(gpus), Some(link), Some(gpu)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad().into());
        };
        let gpus = gpus.trim().parse::<u64>().map_err(|_| bad())?;
        let link = NodeLink::from_name(link.trim()).ok_or_else(bad)?;
        Ok(Self::new(gpu, gpus, link)?)
    }

    /// Its key (what [`Node::parse`] reads).
    pub fn key(&self) -> String {
        format!("{PREFIX}{}:{}:{}", self.gpus, self.link.name(), self.gpu.name)
    }

    /// Its name for people: `4x RTX 4090 (PCIe 4.0 x16)`.
    pub fn title(&self) -> String {
        format!("{}x {} ({})", self.gpus, self.gpu.name, self.link.label())
    }

    /// Whether NCCL can reach the other GPUs' memory directly (false for
    /// GeForce cards of the Ada and Blackwell generations, whose driver
    /// has no peer-to-peer access: NCCL goes through host memory).
    pub fn peer_to_peer(&self) -> bool {
        !geforce_without_p2p(self.gpu)
    }

    /// Bandwidth each way between two GPUs, bytes/s, and a ring step's
    /// latency, s.
    fn link_facts(&self) -> (f64, f64) {
        match self.link {
            NodeLink::Pcie3 => (PCIE_X16_BYTES_PER_S[0], NCCL_PCI_STEP_S),
            NodeLink::Pcie4 => (PCIE_X16_BYTES_PER_S[1], NCCL_PCI_STEP_S),
            NodeLink::Pcie5 => (PCIE_X16_BYTES_PER_S[2], NCCL_PCI_STEP_S),
            NodeLink::Nvlink => (nvlink_bytes_per_s(self.gpu).unwrap_or(0.0), NCCL_NVLINK_STEP_S),
        }
    }

    /// The cluster: this one node.
    ///
    /// # Formula
    /// `R` and the precision rates: the GPU's dense peaks × [`SUSTAINED`];
    /// `M`: its memory; `n = P_max` = the GPUs; the intra-node link as
    /// [`Node::link_facts`]; the realistic facts as the DGX presets' (NCCL's
    /// best Allreduce, the GPU's kernels and half its memory bandwidth),
    /// with NCCL's bus bandwidth over PCIe as nccl-tests measured it
    /// ([`pcie_bus_bytes_per_s`]).
    pub fn spec(&self) -> ClusterSpec {
        let (fp32, by_precision) = rates(self.gpu.peaks);
        let (link_bytes_per_s, link_latency_s) = self.link_facts();
        let bus = match (self.bus_bytes_per_s(), self.peer_to_peer()) {
            (None, _) => String::new(),
            (Some(bus), p2p) => format!(
                "; NCCL's Allreduce bus bandwidth {:.3} GB/s as nccl-tests measured over PCIe {}",
                bus / 1e9,
                if p2p {
                    "with peer-to-peer access"
                } else {
                    "through host memory: GeForce cards of this generation have no peer-to-peer access (NVIDIA/nccl-tests#287)"
                }
            ),
        };
        ClusterSpec {
            name: self.title(),
            source: format!(
                "{}; link: {} ({}{bus}); rates and bandwidth half the peaks as ABCI's measured R; 781 MiB reserved (pytorch/pytorch#34323); one node, its NIC unused",
                self.gpu.source,
                self.link.label(),
                match self.link {
                    NodeLink::Nvlink => "the GPU's datasheet NVLink bandwidth, half each way; NCCL's 3.4 µs ring step",
                    _ => "PCI-SIG: 8, 16 or 32 GT/s a lane, 128b/130b, 16 lanes; NCCL's 5.7 µs PCI ring step",
                }
            ),
            gpu: Some(self.gpu.name.into()),
            datasheet: None,
            gpu_flops_per_s: fp32,
            gpu_memory_bytes: self.gpu.memory_bytes,
            gpus_per_node: self.gpus,
            max_gpus: self.gpus,
            intra_node: LinkSpec {
                bandwidth_bytes_per_s: link_bytes_per_s,
                latency_s: link_latency_s,
            },
            nic: LinkSpec {
                bandwidth_bytes_per_s: 25e9,
                latency_s: 1e-6,
            },
            nics_per_node: 1,
            switch_levels: vec![SwitchLevelSpec {
                name: "none (one node)".into(),
                span_nodes: None,
                latency_s: 0.0,
            }],
            gpu_flops_by_precision: by_precision,
            // nccl-tests' bus bandwidth over PCIe; NVLink: the link's own
            realistic: nccl_node_facts(self.gpu, (self.bus_bytes_per_s(), None)),
            // a workstation's or server's other parts have no datasheet
            // here: not counted, said (the user may give them)
            facility: crate::oracle::model::energy::Facility::default(),
        }
    }
}

impl Node {
    /// NCCL's bus bandwidth inside the node, bytes/s: over PCIe, what
    /// nccl-tests measured ([`pcie_bus_bytes_per_s`]); over NVLink, `None`
    /// (the link's own, as the DGX presets).
    fn bus_bytes_per_s(&self) -> Option<f64> {
        pcie_bus_bytes_per_s(self.link, self.peer_to_peer())
    }
}

/// GeForce cards of the Ada and Blackwell generations (the RTX 40 and 50
/// series, laptops included): no peer-to-peer access over PCIe.
pub fn geforce_without_p2p(gpu: &Device) -> bool {
    matches!(gpu.architecture, Architecture::Ada | Architecture::BlackwellGb20x)
        && (gpu.name.starts_with("GeForce") || gpu.name == "RTX 4090")
}

/// NCCL's Allreduce bus bandwidth over `link`, bytes/s, with or without
/// peer-to-peer access; `None` for NVLink.
///
/// # Formula
/// PCIe 4.0 and 5.0: [`PCIE_BUS_BYTES_PER_S`]; PCIe 3.0: its link
/// (15.75 GB/s) times PCIe 4.0's measured fraction of its own link.
pub fn pcie_bus_bytes_per_s(link: NodeLink, peer_to_peer: bool) -> Option<f64> {
    let pick = |(p2p, shm): (f64, f64)| if peer_to_peer { p2p } else { shm };
    match link {
        NodeLink::Pcie3 => Some(PCIE_X16_BYTES_PER_S[0] * pick(PCIE_BUS_BYTES_PER_S[0]) / PCIE_X16_BYTES_PER_S[1]),
        NodeLink::Pcie4 => Some(pick(PCIE_BUS_BYTES_PER_S[0])),
        NodeLink::Pcie5 => Some(pick(PCIE_BUS_BYTES_PER_S[1])),
        NodeLink::Nvlink => None,
    }
}

/// The precision people train in on a GPU of this architecture, and why.
///
/// # Formula
/// FP16 mixed precision where the GPU has matrix units (tensor cores,
/// matrix cores), else FP32.
pub fn usual_precision(architecture: Architecture) -> (Precision, &'static str) {
    if architecture.has_matrix_units() {
        (
            Precision::Fp16,
            "mixed precision with FP16, what people train CNNs in on GPUs with tensor or matrix cores (torch.autocast's default on CUDA and ROCm; NVIDIA's MLPerf Training CNN submissions on V100, A100 and H100)",
        )
    } else {
        (
            Precision::Fp32,
            "FP32: this GPU has no tensor or matrix cores, so FP16 runs no faster on it",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::cluster::Cluster;

    #[test]
    fn a_key_round_trips_and_builds_a_valid_one_node_cluster() {
        let node = Node::parse("node:4:pcie4:RTX 4090").unwrap();
        assert_eq!(node.gpu.name, "RTX 4090");
        assert_eq!(Node::parse(&node.key()).unwrap(), node);
        let cluster = Cluster::new(node.spec()).unwrap();
        assert_eq!(cluster.spec().max_gpus, 4);
        assert_eq!(cluster.spec().gpus_per_node, 4);
        assert_eq!(cluster.spec().intra_node.bandwidth_bytes_per_s, 31.5e9);
        assert_eq!(cluster.gpu_memory_bytes(), 24e9);
        assert_eq!(node.title(), "4x RTX 4090 (PCIe 4.0 x16)");
    }

    #[test]
    fn every_gpu_builds_a_node_on_every_link_it_has() {
        for device in DEVICES.iter() {
            for link in NodeLink::ALL {
                match Node::new(device.name, 8, link) {
                    Ok(node) => {
                        Cluster::new(node.spec()).unwrap_or_else(|e| panic!("{}: {e}", node.key()));
                        assert_eq!(Node::parse(&node.key()).unwrap(), node, "{}", node.key());
                    }
                    Err(e) => {
                        assert_eq!(link, NodeLink::Nvlink, "{}: {e}", device.name);
                        assert_eq!(e.field.to_string(), "link");
                    }
                }
            }
        }
    }

    #[test]
    fn nvlink_is_for_sxm_parts_with_their_datasheet_bandwidth() {
        let each_way = |name: &str| nvlink_bytes_per_s(devices::device(name, None).unwrap());
        assert_eq!(each_way("A100-SXM4-80GB"), Some(300e9));
        assert_eq!(each_way("H100-SXM5-80GB"), Some(450e9));
        assert_eq!(each_way("V100-SXM2-16GB"), Some(150e9));
        assert_eq!(each_way("B200"), Some(900e9));
        assert_eq!(each_way("H100-PCIE-80GB"), None);
        assert_eq!(each_way("RTX 4090"), None);
        assert_eq!(each_way("MI300X"), None);
    }

    #[test]
    fn bad_keys_name_the_field_and_the_rule() {
        let message = |key: &str| Node::parse(key).unwrap_err().to_string();
        assert!(message("node:4:pcie9:RTX 4090").contains("node:GPUS:LINK:GPU"));
        assert!(message("node:x:pcie4:RTX 4090").contains("node:GPUS:LINK:GPU"));
        assert!(message("node:0:pcie4:RTX 4090").starts_with("gpus: must be at least 1"));
        assert!(message("node:17:pcie4:RTX 4090").starts_with("gpus: must be at most 16"));
        assert!(message("node:4:pcie4:RTX 9999").starts_with("gpu: is not a GPU"));
        assert!(message("node:4:nvlink:RTX 4090").starts_with("link: does not belong here"));
    }

    #[test]
    fn nccl_over_pcie_reaches_what_nccl_tests_measured_and_geforce_goes_through_host_memory() {
        let bus = |key: &str| {
            let cluster = Cluster::new(Node::parse(key).unwrap().spec()).unwrap();
            cluster.spec().realistic.intra_node_bus_bandwidth_bytes_per_s
        };
        // the stock driver on 8x RTX 4090: 14.45 GB/s (SHM); P2P-capable PCIe 4.0: 25.7
        assert_eq!(bus("node:8:pcie4:RTX 4090"), Some(14.45e9));
        assert_eq!(bus("node:4:pcie4:RTX 6000 Ada Generation"), Some(25.7e9));
        assert_eq!(bus("node:4:pcie4:A100-PCIE-40GB"), Some(25.7e9));
        assert_eq!(bus("node:4:pcie5:GeForce RTX 5090"), Some(37.6e9));
        assert_eq!(
            bus("node:4:pcie5:RTX PRO 6000 Blackwell Workstation Edition"),
            Some(46.65e9)
        );
        // PCIe 3.0: the link times PCIe 4.0's measured fraction
        assert!((bus("node:4:pcie3:GeForce RTX 2080 Ti").unwrap() - 12.85e9).abs() < 1e6);
        assert_eq!(bus("node:8:nvlink:H100-SXM5-80GB"), None);
        for device in DEVICES.iter() {
            let geforce = device.name.starts_with("GeForce") || device.name == "RTX 4090";
            let recent = matches!(device.architecture, Architecture::Ada | Architecture::BlackwellGb20x);
            assert_eq!(geforce_without_p2p(device), geforce && recent, "{}", device.name);
        }
        let source = Node::parse("node:2:pcie4:RTX 4090").unwrap().spec().source;
        assert!(
            source.contains("14.450 GB/s") && source.contains("through host memory"),
            "{source}"
        );
    }

    #[test]
    fn the_usual_precision_follows_the_matrix_units() {
        assert_eq!(usual_precision(Architecture::Hopper).0, Precision::Fp16);
        assert_eq!(usual_precision(Architecture::Volta).0, Precision::Fp16);
        assert_eq!(usual_precision(Architecture::Pascal).0, Precision::Fp32);
    }
}
