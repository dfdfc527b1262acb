//! Cluster presets and where their numbers come from.
//!
//! **Sustained FLOP/s.** ABCI's `R = 7.8 TFLOP/s` (the contract's value,
//! measured by the original tool) is half the V100's 15.7 TFLOP/s FP32
//! peak. Every other rate applies the same measured ratio, one half, to a
//! published dense peak (no sparsity): it is the one derating measured on
//! a real cluster here, and no vendor publishes sustained rates. `R` is the
//! FP32 rate of the GPU's FP32 units; TF32, FP16 and BF16 are the tensor
//! cores' (section 9; a precision a GPU lacks is left out and runs at `R`).
//! Frameworks run FP32 convolutions as TF32 on A100 and later by default
//! (cuDNN): pick `tf32` for that.
//!
//! **Memory bandwidth** (section 7's roofline) is derated like `R`: half the
//! datasheet's HBM bandwidth (ABCI's 450 GB/s of the V100's 900 was
//! measured).
//!
//! **Reserved memory** (section 9): 781 MiB per GPU taken by the CUDA
//! context and the framework before any tensor, as `nvidia-smi` showed
//! after PyTorch initialised CUDA (pytorch/pytorch issue #34323). One
//! measurement, the same on every preset (an assumption for the GPUs it
//! was not measured on); edit it for a measured figure.
//!
//! **Latencies**: the NVIDIA presets (DGX A100, H100, H200, B200, DGX-1)
//! take NCCL's own model of a ring step's latency with the Simple protocol,
//! the one NCCL runs for large messages such as gradients: 3.4 µs over
//! NVLink and 14 µs through the network (NVIDIA/nccl@68b5423, v2.23.4-1,
//! `src/graph/tuning.cc` lines 65-78), a NIC endpoint half of the network
//! step less the leaf switch's 130 ns. Measured, nccl-tests' Allreduce of
//! 16 MB on 8 × H100 with 8 NDR NICs a node takes 123, 184, 258 and 374 µs
//! on 1, 2, 4 and 8 nodes (NVIDIA/dgxc-benchmarking, NVIDIA/nccl-tests#309:
//! `tests/validation/nccl-allreduce-h100.csv`, held by `tests/measured/nccl.rs`).
//! NCCL's per-call base latency (8.4 µs) and its faster protocols for small
//! messages (LL, LL128) are not modelled: an Allreduce of a few kilobytes
//! is projected slower than it runs. ABCI keeps its measured 9 µs (intra-node) and 20.11 µs (one NIC
//! endpoint), as do the MI300X nodes (RCCL's own figures were not found).
//! Switches: the port-to-port latency of InfiniBand Quantum switches (130
//! ns, NVIDIA QM8700/QM8790 datasheet; kept for NDR Quantum-2).
//!
//! **The realistic edition's facts** (section 7), measured or assumed:
//! - ABCI: as the original tool measured them: NCCL's best Allreduce, 2
//!   GPUs per PCIe path to a NIC (4 GPUs share 2 EDR HCAs, one per PCIe
//!   switch), halos staged through host memory by MPI (3.00011 ms, 16 GB/s
//!   PCIe).
//! - DGX A100, H100, H200, B200 and the MI300X nodes: NCCL (RCCL) chooses
//!   the best Allreduce (assumed: the libraries' default tuning); every GPU
//!   has its own NIC behind its PCIe switch (DGX user guides: each PCIe
//!   switch carries 2 GPUs and 2 compute NICs; the MI300X platform pairs
//!   one 400 Gb/s NIC with each GPU), so no NIC path is shared; halos move
//!   GPU to GPU with GPUDirect RDMA, so there is no host staging.
//! - ABCI's runs (ChainerMN over NCCL, the measured runs of
//!   `validation/`) used flat NCCL rings: its Allreduce is `ring`.
//!
//! **Section 11's facts.**
//! - Kernels: each preset's GPU is a device of [`super::devices`], whose
//!   SMs, sustained GEMM rates (its own measured fraction of its peaks)
//!   and STREAM bandwidth come with their sources. The launch and
//!   framework cost of a kernel, [`KERNEL_OVERHEAD_S`], is measured
//!   (`tests/torch/overhead.py`).
//! - Memory as the framework holds it: [`WORKSPACE_BYTES`] of library
//!   workspace; autograd's saved tensors and the allocator's rounding
//!   follow from the network (section 11).
//! - Bus bandwidth (nccl-tests `all_reduce_perf` busbw, large messages,
//!   ring algorithm): A100 NVLink 3, 234.89 GB/s (ml-engineering,
//!   network/README.md, 8 GPUs at 16 GiB); H100, 370 GB/s (NVIDIA's
//!   S. Jeaugey in NVIDIA/nccl-tests#212: "NCCL can get an effective NVLink
//!   bandwidth of 370GB/s"); H200, 367.61 GB/s and B200, 682.2 GB/s
//!   (ml-engineering, rings with NVLS off); MI300X, 312.912 GB/s
//!   (ml-engineering, 8 GPUs, 4 GiB). NVLink SHARP's higher all-reduce
//!   figures (480 GB/s on H100) are not used: they hold for all-reduce over
//!   more than 4 GPUs only. Through one NIC: HDR 200 Gb/s, 24 GB/s
//!   (NVIDIA/nccl-tests#119: 96 GB/s busbw over 4 HDR NICs, 3 nodes of 8
//!   A100); NDR 400 Gb/s, 46 GB/s (NVIDIA's D. Addison in
//!   NVIDIA/nccl-tests#290: "For NDR @ 400Gbps you should see 46-48GB/s per
//!   NIC"; the lower end). No published figure was found for the DGX-1's
//!   hybrid cube mesh, ABCI (whose facts are the original tool's) or
//!   RCCL's inter-node rate: those keep their links' bandwidth.

use crate::oracle::model::cluster::{ClusterSpec, LinkSpec, SwitchLevelSpec};
use crate::oracle::model::energy::{Facility, power};
use crate::oracle::model::facts::PrecisionRates;
use crate::oracle::model::facts::{AllreduceAlgorithm, HaloTransport, KernelFacts, RealisticFacts};
use crate::oracle::model::network::ProfiledGpu;
use crate::oracle::units;

pub use crate::oracle::model::devices::KERNEL_OVERHEAD_S;
use crate::oracle::model::devices::{self, Device, Peaks, SUSTAINED};

pub use crate::oracle::model::facts::{FRAMEWORK_MEMORY, RESERVED_BYTES, WORKSPACE_BYTES};

/// The device of `name` (a preset's GPU, which [`devices::DEVICES`]
/// holds: its test builds every preset).
fn gpu(name: &str) -> &'static Device {
    devices::device(name, None).unwrap_or(&devices::DEVICES[0])
}

/// Kernel facts of a V100 SXM2 (16 and 32 GB alike).
fn v100_kernels() -> KernelFacts {
    gpu("V100-SXM2-16GB").kernels()
}

/// ABCI's V100 as the original tool's profiles were measured on it: the
/// GPU of the reference files' profiled times (section 7).
pub fn abci_v100() -> ProfiledGpu {
    ProfiledGpu {
        name: "V100 SXM2 (ABCI)".into(),
        flops_per_s: 7.8e12,
        memory_bandwidth_bytes_per_s: Some(450e9),
        gemm_flops_per_s: Some(v100_kernels().gemm_flops_per_s.fp32),
        kernels: None,
    }
}

fn level(name: &str, span_nodes: Option<u64>, latency_s: f64) -> SwitchLevelSpec {
    SwitchLevelSpec {
        name: name.into(),
        span_nodes,
        latency_s,
    }
}

/// The ideal edition's sustained rates from a GPU's dense peaks: `(R, by
/// precision)`, each the peak times [`SUSTAINED`].
pub fn rates(peaks: Peaks) -> (f64, PrecisionRates) {
    let rate = |peak: f64| (peak > 0.0).then_some(peak * SUSTAINED);
    (
        peaks.fp32 * SUSTAINED,
        PrecisionRates {
            fp32: None,
            tf32: rate(peaks.tf32),
            fp16: rate(peaks.fp16),
            bf16: rate(peaks.bf16),
        },
    )
}

/// The realistic facts of a node of `gpu`s with a NIC each (where it has
/// NICs), NCCL's best Allreduce and GPUDirect, with NCCL's bus bandwidth
/// inside the node and through one NIC where measured (`bus`).
pub(super) fn nccl_node_facts(gpu: &Device, bus: (Option<f64>, Option<f64>)) -> RealisticFacts {
    RealisticFacts {
        memory_bandwidth_bytes_per_s: Some(gpu.memory_bandwidth_bytes_per_s * SUSTAINED),
        allreduce: Some(AllreduceAlgorithm::Best),
        nic_sharing: Some(1),
        halo_transport: None,
        reserved_bytes: Some(RESERVED_BYTES),
        kernels: Some(gpu.kernels()),
        framework_memory: Some(FRAMEWORK_MEMORY),
        intra_node_bus_bandwidth_bytes_per_s: bus.0,
        nic_bus_bandwidth_bytes_per_s: bus.1,
        in_network_reduction: None,
    }
}

/// The shape shared by the 8-GPU presets: GPU rates and memory, the
/// intra-node link (each way), one NIC per GPU, switch levels.
struct EightGpuNode {
    name: &'static str,
    source: &'static str,
    gpu: &'static Device,
    link_bytes_per_s: f64,
    nic_bytes_per_s: f64,
    nodes: u64,
    leaf_nodes: u64,
    /// NCCL's bus bandwidth inside the node and through one NIC, bytes/s.
    bus: (Option<f64>, Option<f64>),
    /// The latency of a ring step inside the node and of one NIC endpoint, s.
    latencies_s: (f64, f64),
    /// The node's rated maximum power, watts, and the document that gives
    /// it (`None`: not found; its other power is not counted, said).
    system_w: Option<(f64, &'static str)>,
}

/// ABCI's measured latencies (a ring step over NVLink, a NIC endpoint), kept
/// where the collective library's own figures were not found (RCCL).
const ABCI_LATENCIES_S: (f64, f64) = (9e-6, 20.11e-6);

/// NCCL's latency of one step of a ring over NVLink with its Simple
/// protocol, the one of large messages (gradients): 3.4 µs
/// (NVIDIA/nccl@68b5423, v2.23.4-1, `src/graph/tuning.cc` lines 65-78,
/// `hwLat[NVLINK][RING][SIMPLE]`; the same since 2.18).
pub const NCCL_NVLINK_STEP_S: f64 = 3.4e-6;
/// NCCL's latency of one ring step through the network with its Simple
/// protocol: 14 µs (the same file, `hwLat[NET][RING][SIMPLE]`).
pub const NCCL_NET_STEP_S: f64 = 14e-6;
/// The NVIDIA presets' latencies: a ring step inside the node, and a NIC
/// endpoint as half of NCCL's network step less the leaf switch's 130 ns
/// (so that a step between two nodes of a leaf, `2·a_nic + L`, is NCCL's).
const NCCL_LATENCIES_S: (f64, f64) = (NCCL_NVLINK_STEP_S, (NCCL_NET_STEP_S - 130e-9) / 2.0);

/// HDR InfiniBand (200 Gb/s) as NCCL achieves it through one NIC.
const HDR_BUS: f64 = 24e9;
/// NDR InfiniBand (400 Gb/s) as NCCL achieves it through one NIC.
const NDR_BUS: f64 = 46e9;

impl EightGpuNode {
    fn spec(&self) -> ClusterSpec {
        let (fp32, by_precision) = rates(self.gpu.peaks);
        ClusterSpec {
            name: self.name.into(),
            source: self.source.into(),
            gpu: Some(self.gpu.name.into()),
            datasheet: None,
            gpu_flops_per_s: fp32,
            gpu_memory_bytes: self.gpu.memory_bytes,
            gpus_per_node: 8,
            max_gpus: 8 * self.nodes,
            intra_node: LinkSpec {
                bandwidth_bytes_per_s: self.link_bytes_per_s,
                latency_s: self.latencies_s.0,
            },
            nic: LinkSpec {
                bandwidth_bytes_per_s: self.nic_bytes_per_s,
                latency_s: self.latencies_s.1,
            },
            nics_per_node: 8,
            switch_levels: vec![
                level("leaf", Some(self.leaf_nodes), 130e-9),
                level("spine", None, 130e-9),
            ],
            gpu_flops_by_precision: by_precision,
            realistic: nccl_node_facts(self.gpu, self.bus),
            facility: self
                .system_w
                .map(|(w, document)| rated_node(w, 8, self.gpu, document))
                .unwrap_or_default(),
        }
    }
}

/// The share of its rated maximum power a DGX-class node draws while it
/// trains compute-heavy work: 0.76 (Newkirk et al. 2025, "Empirically-
/// Calibrated H100 Node Power Models", arXiv:2506.14551: an 8 × H100 node
/// measured, "even computationally intensive workloads operate at only 76%
/// of the 10.2 kW TDP rating").
pub const NODE_LOAD: f64 = 0.76;

/// A node rated `system_w` at most with `gpus` of `gpu`: while training it
/// draws [`NODE_LOAD`] of its rating, of which its GPUs draw their
/// training power ([`power::training`]); the rest is its other power.
///
/// # Formula
/// `P_other = 0.76·P_rated − n·f_train·P_board`.
fn rated_node(system_w: f64, gpus: u64, gpu: &Device, document: &str) -> Facility {
    let training = power::training(gpu.architecture).fraction;
    let gpus_w = gpus as f64 * training * gpu.board_power_w;
    let other_w = (NODE_LOAD * system_w - gpus_w).max(0.0);
    Facility {
        node_other_power_w: Some(other_w),
        source: format!(
            "{document}: {} W rated maximum, of which a training node draws {NODE_LOAD} (Newkirk et al. 2025, an 8x H100 node measured), less {gpus} GPUs at {} of their {} W ({}): {} W besides the GPUs",
            units::significant(system_w, 6),
            units::significant(training, 3),
            units::significant(gpu.board_power_w, 4),
            gpu.power_source,
            units::significant(other_w, 4)
        ),
        ..Facility::default()
    }
}

/// ABCI exactly as the contract's section 6: 4 × V100 SXM2 16 GB per node,
/// NVLink 50 GB/s and 9 µs, 2 × InfiniBand EDR (12.5 GB/s) per node with
/// 20.11 µs endpoint latency, leaf (17 nodes) and rack (34 nodes) switches
/// of 90 ns and a 400 ns spine, 4096 GPUs. FP16 tensor cores: half the
/// V100 SXM2's 125 TFLOP/s; no TF32 or BF16 units (they run at `R`).
pub fn abci() -> ClusterSpec {
    ClusterSpec {
        name: "ABCI".into(),
        gpu: Some("V100-SXM2-16GB".into()),
        datasheet: None,
        source: "ParaDL (HPDC 2021) and the oracle contract, sections 6 and 7: AIST ABCI compute nodes (4x V100 SXM2 16 GB, NVLink2, 2x InfiniBand EDR), measured latencies, memory bandwidth, NIC sharing and host-staged halos; FP16 tensor cores half the V100's 125 TFLOP/s peak; 781 MiB reserved per GPU (CUDA context and PyTorch, pytorch/pytorch#34323)".into(),
        gpu_flops_per_s: 7.8e12,
        gpu_memory_bytes: 16e9,
        gpus_per_node: 4,
        max_gpus: 4096,
        intra_node: LinkSpec {
            bandwidth_bytes_per_s: 50e9,
            latency_s: 9e-6,
        },
        nic: LinkSpec {
            bandwidth_bytes_per_s: 12.5e9,
            latency_s: 20.11e-6,
        },
        nics_per_node: 2,
        switch_levels: vec![
            level("leaf", Some(17), 90e-9),
            level("rack", Some(34), 90e-9),
            level("spine", None, 400e-9),
        ],
        gpu_flops_by_precision: PrecisionRates {
            fp32: None,
            tf32: None,
            fp16: Some(125e12 * SUSTAINED),
            bf16: None,
        },
        realistic: RealisticFacts {
            memory_bandwidth_bytes_per_s: Some(450e9),
            allreduce: Some(AllreduceAlgorithm::Ring),
            nic_sharing: Some(2),
            halo_transport: Some(HaloTransport {
                latency_s: 3.00011e-3,
                pcie_bandwidth_bytes_per_s: 16e9,
                chained: true,
            }),
            reserved_bytes: Some(RESERVED_BYTES),
            kernels: Some(v100_kernels()),
            framework_memory: Some(FRAMEWORK_MEMORY),
            intra_node_bus_bandwidth_bytes_per_s: None,
            nic_bus_bandwidth_bytes_per_s: None,
            in_network_reduction: None,
        },
        facility: Facility {
            node_other_power_w: Some(2.0 * 150.0),
            gpu_board_power_w: None,
            pue: Some(1.1),
            grid: Some("jp".into()),
            source: "ABCI compute node: 2x Intel Xeon Gold 6148, 150 W TDP each (Intel ARK): the CPUs only, memory, NICs and fans not counted; PUE 1.1, ABCI's annual average target (Nikkei xTECH, 2018); Japan's grid".into(),
        },
    }
}

/// NVIDIA DGX A100 SuperPOD: 140 DGX A100 nodes (1120 GPUs) of 8 × A100
/// SXM4 80 GB. NVIDIA A100 datasheet: FP32 19.5, TF32 156, FP16/BF16 312
/// TFLOP/s dense; HBM2e 2,039 GB/s; NVLink 3 through NVSwitch 600 GB/s per
/// GPU both ways (300 each way). DGX A100 user guide: 8 × ConnectX-6 HDR
/// 200 Gb/s (25 GB/s) compute NICs. SuperPOD reference architecture:
/// scalable units of 20 nodes under leaf switches, then a spine.
pub fn dgx_a100() -> ClusterSpec {
    EightGpuNode {
        name: "DGX A100 SuperPOD",
        source: "NVIDIA A100 80 GB SXM datasheet (FP32 19.5, TF32 156, FP16/BF16 312 TFLOP/s dense; HBM2e 2,039 GB/s; NVLink 600 GB/s), DGX A100 user guide (8x ConnectX-6 HDR 200 Gb/s, one per GPU), DGX SuperPOD reference architecture (20-node scalable units, 140 nodes); rates and bandwidth half the peaks as ABCI's measured R; NCCL's ring step latencies (3.4 µs over NVLink, 14 µs through the network, Simple protocol: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("A100-SXM4-80GB"),
        link_bytes_per_s: 300e9,
        nic_bytes_per_s: 25e9,
        nodes: 140,
        leaf_nodes: 20,
        bus: (Some(234.89e9), Some(HDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: Some((6500.0, "NVIDIA DGX A100 datasheet")),
    }
    .spec()
}

/// NVIDIA DGX H100 SuperPOD: 127 DGX H100 nodes (1016 GPUs) of 8 × H100
/// SXM5 80 GB. NVIDIA H100 SXM datasheet: FP32 67, TF32 494.7, FP16/BF16
/// 989.4 TFLOP/s dense (989 and 1,979 with sparsity); HBM3 3.35 TB/s;
/// NVLink 4 through NVSwitch 900 GB/s both ways (450 each way). DGX H100
/// user guide: 8 × ConnectX-7 NDR 400 Gb/s (50 GB/s). SuperPOD H100
/// reference architecture: scalable units of 32 nodes, then a spine.
pub fn dgx_h100() -> ClusterSpec {
    EightGpuNode {
        name: "DGX H100 SuperPOD",
        source: "NVIDIA H100 SXM datasheet (FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense; HBM3 3.35 TB/s; NVLink 900 GB/s), DGX H100 user guide (8x ConnectX-7 NDR 400 Gb/s), DGX SuperPOD H100 reference architecture (32-node scalable units, 127 nodes); rates and bandwidth half the peaks as ABCI's measured R; NCCL's ring step latencies (3.4 µs over NVLink, 14 µs through the network, Simple protocol: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("H100-SXM5-80GB"),
        link_bytes_per_s: 450e9,
        nic_bytes_per_s: 50e9,
        nodes: 127,
        leaf_nodes: 32,
        bus: (Some(370e9), Some(NDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: Some((10200.0, "NVIDIA DGX H100 user guide")),
    }
    .spec()
}

/// NVIDIA DGX H200 SuperPOD: 127 nodes (assumed: the H100 SuperPOD's
/// layout) of 8 × H200 SXM 141 GB. NVIDIA H200 datasheet: the H100's
/// compute (FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense), HBM3e
/// 141 GB at 4.8 TB/s, NVLink 900 GB/s both ways. DGX H200: 8 × ConnectX-7
/// 400 Gb/s.
pub fn dgx_h200() -> ClusterSpec {
    EightGpuNode {
        name: "DGX H200 SuperPOD",
        source: "NVIDIA H200 SXM datasheet (H100 compute: FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense; HBM3e 141 GB, 4.8 TB/s; NVLink 900 GB/s), DGX H200 (8x ConnectX-7 400 Gb/s); 127 nodes in 32-node units assumed from the H100 SuperPOD; rates and bandwidth half the peaks as ABCI's measured R; NCCL's ring step latencies (3.4 µs over NVLink, 14 µs through the network, Simple protocol: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("H200"),
        link_bytes_per_s: 450e9,
        nic_bytes_per_s: 50e9,
        nodes: 127,
        leaf_nodes: 32,
        bus: (Some(367.61e9), Some(NDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: Some((10200.0, "NVIDIA DGX H200 user guide")),
    }
    .spec()
}

/// NVIDIA DGX B200 SuperPOD: 128 nodes in 32-node scalable units (4
/// units, 1024 GPUs) of 8 × B200 180 GB. NVIDIA HGX/DGX B200 datasheet (at
/// 1,000 W): FP32 80, TF32 1,100, FP16/BF16 2,250 TFLOP/s dense (2,200 and
/// 4,500 with sparsity); HBM3e 180 GB (1,440 GB per DGX), 8 TB/s (64 TB/s
/// per DGX); NVLink 5 1.8 TB/s both ways (900 each way); 8 × ConnectX-7
/// 400 Gb/s.
pub fn dgx_b200() -> ClusterSpec {
    EightGpuNode {
        name: "DGX B200 SuperPOD",
        source: "NVIDIA DGX/HGX B200 datasheet (FP32 80, TF32 1,100, FP16/BF16 2,250 TFLOP/s dense at 1,000 W; HBM3e 180 GB, 8 TB/s; NVLink 5 1.8 TB/s), DGX B200 (8x ConnectX-7 400 Gb/s); 4 scalable units of 32 nodes assumed; rates and bandwidth half the peaks as ABCI's measured R; NCCL's ring step latencies (3.4 µs over NVLink, 14 µs through the network, Simple protocol: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("B200"),
        link_bytes_per_s: 900e9,
        nic_bytes_per_s: 50e9,
        nodes: 128,
        leaf_nodes: 32,
        bus: (Some(682.2e9), Some(NDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: Some((14300.0, "NVIDIA DGX B200 user guide")),
    }
    .spec()
}

/// NVIDIA Eos: 576 DGX H100 nodes (4,608 H100 SXM5 80 GB) on NDR 400 Gb/s
/// Quantum-2 InfiniBand, one NIC per GPU (NVIDIA's Eos announcement,
/// November 2023: "576 DGX H100 systems ... 4,608 H100 GPUs"), the system
/// of NVIDIA's MLPerf Training runs at thousands of GPUs (ResNet-50 on
/// 3,584 H100s, `tests/validation/mlperf-resnet50.csv`). Nodes and links
/// as the DGX H100 SuperPOD preset: 32-node scalable units under leaf
/// switches, then a spine (assumed: the SuperPOD reference layout).
pub fn eos() -> ClusterSpec {
    let mut spec = EightGpuNode {
        name: "NVIDIA Eos (DGX H100, NDR)",
        source: "NVIDIA Eos (November 2023): 576 DGX H100 systems, 4,608 H100 GPUs, Quantum-2 NDR 400 Gb/s InfiniBand with in-network computing (SHARP); H100 SXM datasheet (FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense; HBM3 3.35 TB/s; NVLink 900 GB/s), DGX H100 user guide (8x ConnectX-7 NDR 400 Gb/s); 32-node scalable units assumed from the DGX SuperPOD H100 reference architecture; rates and bandwidth half the peaks as ABCI's measured R; NCCL's bus bandwidths (370 GB/s NVLink, 46 GB/s a NIC) and ring step latencies (3.4 µs over NVLink, 14 µs through the network: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("H100-SXM5-80GB"),
        link_bytes_per_s: 450e9,
        nic_bytes_per_s: 50e9,
        nodes: 576,
        leaf_nodes: 32,
        bus: (Some(370e9), Some(NDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: Some((10200.0, "NVIDIA DGX H100 user guide")),
    }
    .spec();
    // Quantum-2's in-network computing (SHARP) reduces in the switches
    spec.realistic.in_network_reduction = Some(true);
    spec
}

/// NVIDIA DGX GB200 NVL72 SuperPOD: racks of 72 Blackwell GPUs in one
/// NVLink domain (the "node" of this model: NVLink 5, 1.8 TB/s per GPU
/// both ways, 900 each way, through the rack's NVLink switches), each GPU
/// with one ConnectX-7 400 Gb/s InfiniBand NIC, scalable units of 8 racks
/// (576 GPUs), 8 units (4,608 GPUs). NVIDIA GB200 NVL72 datasheet per GPU:
/// FP32 80, TF32 1,250, FP16/BF16 2,500 TFLOP/s dense; HBM3e 186 GB at 8
/// TB/s. NCCL's bus bandwidth inside the NVLink domain: the DGX B200's
/// measured 682.2 of 900 GB/s (assumed: the same NVLink 5; no nccl-tests
/// figure of an NVL72 was found).
pub fn gb200_nvl72() -> ClusterSpec {
    let node = EightGpuNode {
        name: "DGX GB200 NVL72 SuperPOD",
        source: "NVIDIA GB200 NVL72 datasheet (72 GPUs in one NVLink domain, NVLink 5 1.8 TB/s per GPU; per GPU FP32 80, TF32 1,250, FP16/BF16 2,500 TFLOP/s dense, HBM3e 186 GB at 8 TB/s), DGX GB200 (72x ConnectX-7 400 Gb/s InfiniBand), DGX SuperPOD GB200 reference architecture (scalable units of 8 racks, 576 GPUs; 8 units assumed); rates and bandwidth half the peaks as ABCI's measured R; NCCL's NVLink bus bandwidth the DGX B200's 682.2 of 900 GB/s (assumed), 46 GB/s a NIC; NCCL's ring step latencies (3.4 µs over NVLink, 14 µs through the network: NVIDIA/nccl v2.23.4 tuning.cc), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("GB200"),
        link_bytes_per_s: 900e9,
        nic_bytes_per_s: 50e9,
        nodes: 64,
        leaf_nodes: 8,
        bus: (Some(682.2e9), Some(NDR_BUS)),
        latencies_s: NCCL_LATENCIES_S,
        system_w: None,
    };
    ClusterSpec {
        gpus_per_node: 72,
        max_gpus: 72 * node.nodes,
        nics_per_node: 72,
        ..node.spec()
    }
}

/// A cluster of 128 nodes of 8 × AMD Instinct MI300X 192 GB (assumed size
/// and 32-node leaves, as the DGX presets). AMD MI300X datasheet: FP32
/// 163.4, TF32 653.7, FP16/BF16 1,307.4 TFLOP/s dense; HBM3 192 GB at
/// 5.3 TB/s; Infinity Fabric: 7 links of 128 GB/s both ways per GPU, a
/// full mesh of the node's 8 GPUs. A ring collective over the mesh runs
/// parallel rings on all 7 links: 7 × 64 GB/s = 448 GB/s each way
/// (assumed: RCCL's ring count). One 400 Gb/s NIC per GPU (AMD's MI300X
/// platform reference design).
pub fn mi300x() -> ClusterSpec {
    EightGpuNode {
        name: "MI300X cluster",
        source: "AMD Instinct MI300X datasheet (FP32 163.4, TF32 653.7, FP16/BF16 1,307.4 TFLOP/s dense; HBM3 192 GB, 5.3 TB/s; Infinity Fabric 7 links of 128 GB/s, full mesh), one 400 Gb/s NIC per GPU (AMD platform reference); 128 nodes in 32-node units and 448 GB/s rings (7 links x 64 GB/s) assumed; rates and bandwidth half the peaks as ABCI's measured R; latencies as ABCI's (RCCL's own not found), switches 130 ns; 781 MiB reserved (pytorch/pytorch#34323)",
        gpu: gpu("MI300X"),
        link_bytes_per_s: 448e9,
        nic_bytes_per_s: 50e9,
        nodes: 128,
        leaf_nodes: 32,
        bus: (Some(312.912e9), None),
        latencies_s: ABCI_LATENCIES_S,
        system_w: None,
    }
    .spec()
}

/// One NVIDIA DGX-1 with 8 × V100 SXM2 (16 GB or 32 GB), the machine of
/// NVIDIA DeepLearningExamples' V100 results: NVLink 2 in a hybrid cube
/// mesh, 6 links of 25 GB/s each way per GPU (150 GB/s; V100 datasheet),
/// 4 × EDR InfiniBand 100 Gb/s per node, one per PCIe switch of 2 GPUs
/// (DGX-1 user guide); the V100's FP32 15.7, FP16 125 TFLOP/s peaks and
/// 900 GB/s HBM2, derated as ABCI's measured V100 (`R` = 7.8 TFLOP/s,
/// 450 GB/s), its kernels as ABCI's. One node: NCCL's rings stay inside it.
fn dgx1_v100(memory_bytes: f64, name: &str, gpu: &str) -> ClusterSpec {
    let abci = abci();
    ClusterSpec {
        name: name.into(),
        gpu: Some(gpu.into()),
        source: "NVIDIA DGX-1 with V100 SXM2 (user guide: 8 GPUs in an NVLink 2 hybrid cube mesh, 6 links x 25 GB/s per GPU, 4x EDR 100 Gb/s); V100 datasheet (FP32 15.7, FP16 125 TFLOP/s, HBM2 900 GB/s) derated as ABCI's measured V100 (7.8 TFLOP/s, 450 GB/s); one node; NCCL's ring step over NVLink, 3.4 µs (Simple protocol: NVIDIA/nccl v2.23.4 tuning.cc); 781 MiB reserved (pytorch/pytorch#34323)".into(),
        gpu_memory_bytes: memory_bytes,
        gpus_per_node: 8,
        max_gpus: 8,
        intra_node: LinkSpec {
            bandwidth_bytes_per_s: 150e9,
            latency_s: NCCL_NVLINK_STEP_S,
        },
        nics_per_node: 4,
        switch_levels: vec![level("switch", None, 130e-9)],
        realistic: RealisticFacts {
            allreduce: Some(AllreduceAlgorithm::Best),
            halo_transport: None,
            ..abci.realistic
        },
        facility: rated_node(3500.0, 8, self::gpu(gpu), "NVIDIA DGX-1 datasheet"),
        ..abci
    }
}

/// A DGX-1 with 8 × V100 SXM2 16 GB (see [`dgx1_v100`]).
pub fn dgx1_v100_16gb() -> ClusterSpec {
    dgx1_v100(16e9, "DGX-1 V100 16 GB", "V100-SXM2-16GB")
}

/// A DGX-1 with 8 × V100 SXM2 32 GB (see [`dgx1_v100`]).
pub fn dgx1_v100_32gb() -> ClusterSpec {
    dgx1_v100(32e9, "DGX-1 V100 32 GB", "V100-SXM2-32GB")
}
