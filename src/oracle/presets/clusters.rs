//! Cluster presets and where their numbers come from.
//!
//! Sustained FLOP/s: ABCI's `R = 7.8 TFLOP/s` (the contract's value) is
//! half the V100's 15.7 TFLOP/s FP32 peak. The DGX presets apply the same
//! ratio to the peak of the arithmetic that frameworks use by default for
//! 32-bit training on those GPUs: dense TF32 on tensor cores (NVIDIA A100
//! datasheet: 156 TFLOP/s; NVIDIA H100 SXM datasheet: 494.7 TFLOP/s, i.e.
//! 989 with sparsity). Edit `R` to model mixed precision or a measured rate.
//!
//! Latencies: NVIDIA publishes no per-step collective latency for NVLink
//! or the NIC endpoints; the DGX presets keep ABCI's measured 9 µs
//! (intra-node) and 20.11 µs (one NIC endpoint), and the switch
//! port-to-port latency of InfiniBand Quantum switches (130 ns, NVIDIA
//! QM8700/QM8790 datasheet; kept for the NDR Quantum-2).
//!
//! The realistic edition's facts (contract, section 7), measured or
//! assumed:
//! - ABCI: as the original tool measured them (section 7): sustained
//!   memory bandwidth 450 GB/s (half the V100's 900 GB/s peak, the same
//!   derating as `R`), NCCL's best Allreduce, 2 GPUs per PCIe path to a NIC
//!   (measured: 4 GPUs share 2 EDR HCAs, one per PCIe switch), halos staged
//!   through host memory by MPI (measured 3.00011 ms, 16 GB/s PCIe).
//! - DGX A100 and H100: memory bandwidth from NVIDIA's datasheets derated
//!   like `R` (assumed: half of 2,039 GB/s for the A100 80 GB SXM, half of
//!   3.35 TB/s for the H100 SXM); NCCL chooses the best Allreduce
//!   (assumed: NCCL's default tuning); every GPU has its own NIC behind its
//!   PCIe switch (DGX A100 and H100 user guides: 4 PCIe switches, each with
//!   2 GPUs and 2 compute NICs), so no NIC path is shared; NCCL moves halos
//!   GPU to GPU with GPUDirect RDMA, so there is no host staging.

use crate::oracle::model::cluster::{ClusterSpec, LinkSpec, SwitchLevelSpec};
use crate::oracle::model::facts::{AllreduceAlgorithm, HaloTransport, RealisticFacts};
use crate::oracle::model::network::ProfiledGpu;

/// ABCI's V100 as the original tool's profiles were measured on it: the
/// GPU of the reference files' profiled times (section 7).
pub fn abci_v100() -> ProfiledGpu {
    ProfiledGpu {
        name: "V100 SXM2 (ABCI)".into(),
        flops_per_s: 7.8e12,
        memory_bandwidth_bytes_per_s: Some(450e9),
    }
}

/// A DGX node's facts: derated memory bandwidth, NCCL's best Allreduce,
/// a NIC per GPU, GPUDirect halos.
fn dgx_facts(memory_bandwidth_bytes_per_s: f64) -> RealisticFacts {
    RealisticFacts {
        memory_bandwidth_bytes_per_s: Some(memory_bandwidth_bytes_per_s),
        allreduce: Some(AllreduceAlgorithm::Best),
        nic_sharing: Some(1),
        halo_transport: None,
    }
}

fn level(name: &str, span_nodes: Option<u64>, latency_s: f64) -> SwitchLevelSpec {
    SwitchLevelSpec {
        name: name.into(),
        span_nodes,
        latency_s,
    }
}

/// ABCI exactly as the contract's section 6: 4 × V100 SXM2 16 GB per node,
/// NVLink 50 GB/s and 9 µs, 2 × InfiniBand EDR (12.5 GB/s) per node with
/// 20.11 µs endpoint latency, leaf (17 nodes) and rack (34 nodes) switches
/// of 90 ns and a 400 ns spine, 4096 GPUs.
pub fn abci() -> ClusterSpec {
    ClusterSpec {
        name: "ABCI".into(),
        source: "ParaDL (HPDC 2021) and the oracle contract, section 6: AIST ABCI compute nodes (4x V100 SXM2 16 GB, NVLink2, 2x InfiniBand EDR), measured latencies".into(),
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
        realistic: RealisticFacts {
            memory_bandwidth_bytes_per_s: Some(450e9),
            allreduce: Some(AllreduceAlgorithm::Best),
            nic_sharing: Some(2),
            halo_transport: Some(HaloTransport {
                latency_s: 3.00011e-3,
                pcie_bandwidth_bytes_per_s: 16e9,
            }),
        },
    }
}

/// NVIDIA DGX A100 SuperPOD: 140 DGX A100 nodes (1120 GPUs) of 8 × A100
/// SXM4 80 GB; NVLink 3 through NVSwitch, 600 GB/s per GPU both ways
/// (300 GB/s each way); 8 × ConnectX-6 InfiniBand HDR 200 Gb/s (25 GB/s)
/// compute NICs per node, one per GPU; scalable units of 20 nodes under
/// leaf switches, then a spine (NVIDIA DGX SuperPOD reference architecture).
/// `R = 78 TFLOP/s`: half the 156 TFLOP/s dense TF32 peak.
pub fn dgx_a100() -> ClusterSpec {
    ClusterSpec {
        name: "DGX A100 SuperPOD".into(),
        source: "NVIDIA A100 datasheet (80 GB, 156 TFLOP/s dense TF32, NVLink 600 GB/s), DGX A100 user guide (8x ConnectX-6 HDR 200 Gb/s), DGX SuperPOD reference architecture (20-node scalable units, 140 nodes); R = half the TF32 peak as ABCI's is half the V100 FP32 peak; latencies as ABCI's, switches 130 ns".into(),
        gpu_flops_per_s: 78e12,
        gpu_memory_bytes: 80e9,
        gpus_per_node: 8,
        max_gpus: 1120,
        intra_node: LinkSpec {
            bandwidth_bytes_per_s: 300e9,
            latency_s: 9e-6,
        },
        nic: LinkSpec {
            bandwidth_bytes_per_s: 25e9,
            latency_s: 20.11e-6,
        },
        nics_per_node: 8,
        switch_levels: vec![level("leaf", Some(20), 130e-9), level("spine", None, 130e-9)],
        // half the A100 80 GB SXM's 2,039 GB/s
        realistic: dgx_facts(1019.5e9),
    }
}

/// NVIDIA DGX H100 SuperPOD: 127 DGX H100 nodes (1016 GPUs) of 8 × H100
/// SXM5 80 GB; NVLink 4 through NVSwitch, 900 GB/s per GPU both ways
/// (450 GB/s each way); 8 × ConnectX-7 InfiniBand NDR 400 Gb/s (50 GB/s)
/// compute NICs per node; scalable units of 32 nodes under leaf switches,
/// then a spine (NVIDIA DGX SuperPOD H100 reference architecture).
/// `R = 247 TFLOP/s`: half the 494.7 TFLOP/s dense TF32 peak.
pub fn dgx_h100() -> ClusterSpec {
    ClusterSpec {
        name: "DGX H100 SuperPOD".into(),
        source: "NVIDIA H100 SXM datasheet (80 GB, 494.7 TFLOP/s dense TF32, NVLink 900 GB/s), DGX H100 user guide (8x ConnectX-7 NDR 400 Gb/s), DGX SuperPOD H100 reference architecture (32-node scalable units, 127 nodes); R = half the TF32 peak as ABCI's is half the V100 FP32 peak; latencies as ABCI's, switches 130 ns".into(),
        gpu_flops_per_s: 247e12,
        gpu_memory_bytes: 80e9,
        gpus_per_node: 8,
        max_gpus: 1016,
        intra_node: LinkSpec {
            bandwidth_bytes_per_s: 450e9,
            latency_s: 9e-6,
        },
        nic: LinkSpec {
            bandwidth_bytes_per_s: 50e9,
            latency_s: 20.11e-6,
        },
        nics_per_node: 8,
        switch_levels: vec![level("leaf", Some(32), 130e-9), level("spine", None, 130e-9)],
        // half the H100 SXM's 3.35 TB/s
        realistic: dgx_facts(1675e9),
    }
}
