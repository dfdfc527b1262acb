//! The cluster's fields, described once: each scalar and optional fact's
//! engine path (its key and where its errors come from), input id, label,
//! display unit and how it is read and written. The facts that go together
//! (a host-staged halo's two numbers, a GPU's kernel facts) are checked
//! together by the cluster editor: a half-given group is an error on its
//! blank cell, never a placeholder in the engine's value.

use crate::app::input::keys::{ClusterKey, Key, LevelColumn};
use crate::oracle::{ClusterSpec, FrameworkMemory, InputError, Segment};

/// Which group of fields a field belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactGroup {
    /// The realistic edition's (section 7, and reserved memory).
    Realistic,
    /// The GPU's sustained FLOP/s per precision (section 9).
    Precision,
    /// Today's machines (section 11): kernels, framework memory, NCCL.
    Today,
    /// Power (section 14): the node's besides its GPUs, a GPU's board.
    Power,
}

/// One of the two numbers of a host-staged halo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HaloPart {
    /// Its latency.
    Latency,
    /// The host's PCIe bandwidth.
    Bandwidth,
}

/// One of a GPU's kernel facts: the SMs, the FP32 rate and the overhead
/// are needed, the other rates optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelPart {
    /// Streaming multiprocessors.
    Sms,
    /// FP32 GEMM rate.
    Fp32,
    /// TF32 GEMM rate.
    Tf32,
    /// FP16 GEMM rate.
    Fp16,
    /// BF16 GEMM rate.
    Bf16,
    /// Per-kernel cost.
    Overhead,
}

/// How a field's value is written into the cluster.
#[derive(Debug, Clone, Copy)]
pub enum Set {
    /// On its own (`None`: left out, for an optional fact).
    Direct(fn(&mut ClusterSpec, Option<f64>)),
    /// As part of the halo transport.
    Halo(HaloPart),
    /// As part of the kernel facts.
    Kernel(KernelPart),
}

/// One editable number of a cluster.
#[derive(Debug, Clone, Copy)]
pub struct ClusterField {
    /// The group of an optional fact; `None` for the scalars every cluster has.
    pub group: Option<FactGroup>,
    /// Engine field path, member by member (the field's key).
    pub path: &'static [&'static str],
    /// A stable id for the input (`cluster-gpu-flops-per-s`).
    pub id: &'static str,
    pub label: &'static str,
    /// Display unit.
    pub unit: &'static str,
    /// Engine value per display unit.
    pub scale: f64,
    /// A whole number.
    pub whole: bool,
    /// Its value (`None`: left out).
    pub get: fn(&ClusterSpec) -> Option<f64>,
    /// How it is written.
    pub set: Set,
}

impl ClusterField {
    /// Its key.
    pub fn key(&self) -> ClusterKey {
        ClusterKey::Field(self.path)
    }

    /// Whether it may be left blank.
    pub fn optional(&self) -> bool {
        self.group.is_some()
    }
}

/// The cluster's scalar parameters, in display order.
pub const PARAMS: [ClusterField; 9] = [
    ClusterField {
        group: None,
        path: &["gpu_flops_per_s"],
        id: "cluster-gpu-flops-per-s",
        label: "Sustained GPU speed (not the datasheet peak: about half of it, as ABCI's V100 sustains 7.8 of 15.7)",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| Some(c.gpu_flops_per_s),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.gpu_flops_per_s = v;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["gpu_memory_bytes"],
        id: "cluster-gpu-memory-bytes",
        label: "GPU memory",
        unit: "GB",
        scale: 1e9,
        whole: false,
        get: |c| Some(c.gpu_memory_bytes),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.gpu_memory_bytes = v;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["gpus_per_node"],
        id: "cluster-gpus-per-node",
        label: "GPUs per node",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| Some(c.gpus_per_node as f64),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.gpus_per_node = v as u64;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["max_gpus"],
        id: "cluster-max-gpus",
        label: "Largest allocation",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| Some(c.max_gpus as f64),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.max_gpus = v as u64;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["intra_node", "bandwidth_bytes_per_s"],
        id: "cluster-intra-node-bandwidth-bytes-per-s",
        label: "Intra-node bandwidth",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| Some(c.intra_node.bandwidth_bytes_per_s),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.set_intra_node_bandwidth(v);
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["intra_node", "latency_s"],
        id: "cluster-intra-node-latency-s",
        label: "Intra-node latency",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| Some(c.intra_node.latency_s),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.intra_node.latency_s = v;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["nic", "bandwidth_bytes_per_s"],
        id: "cluster-nic-bandwidth-bytes-per-s",
        label: "NIC bandwidth",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| Some(c.nic.bandwidth_bytes_per_s),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.set_nic_bandwidth(v);
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["nic", "latency_s"],
        id: "cluster-nic-latency-s",
        label: "NIC endpoint latency",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| Some(c.nic.latency_s),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.nic.latency_s = v;
            }
        }),
    },
    ClusterField {
        group: None,
        path: &["nics_per_node"],
        id: "cluster-nics-per-node",
        label: "NICs per node",
        unit: "NICs",
        scale: 1.0,
        whole: true,
        get: |c| Some(c.nics_per_node as f64),
        set: Set::Direct(|c, v| {
            if let Some(v) = v {
                c.nics_per_node = v as u64;
            }
        }),
    },
];

/// The realistic edition's numeric facts, in display order.
pub const FACTS: [ClusterField; 19] = [
    ClusterField {
        group: Some(FactGroup::Realistic),
        path: &["realistic", "memory_bandwidth_bytes_per_s"],
        id: "cluster-memory-bandwidth",
        label: "GPU memory bandwidth (sustained)",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.memory_bandwidth_bytes_per_s,
        set: Set::Direct(|c, v| c.realistic.memory_bandwidth_bytes_per_s = v),
    },
    ClusterField {
        group: Some(FactGroup::Realistic),
        path: &["realistic", "nic_sharing"],
        id: "cluster-nic-sharing",
        label: "GPUs sharing a path to a NIC",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| c.realistic.nic_sharing.map(|n| n as f64),
        set: Set::Direct(|c, v| c.realistic.nic_sharing = v.map(|n| n as u64)),
    },
    ClusterField {
        group: Some(FactGroup::Realistic),
        path: &["realistic", "halo_transport", "latency_s"],
        id: "cluster-halo-latency",
        label: "Host-staged halo latency",
        unit: "ms",
        scale: 1e-3,
        whole: false,
        get: |c| c.realistic.halo_transport.map(|h| h.latency_s),
        set: Set::Halo(HaloPart::Latency),
    },
    ClusterField {
        group: Some(FactGroup::Realistic),
        path: &["realistic", "halo_transport", "pcie_bandwidth_bytes_per_s"],
        id: "cluster-halo-pcie-bandwidth",
        label: "Host PCIe bandwidth (halos)",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.halo_transport.map(|h| h.pcie_bandwidth_bytes_per_s),
        set: Set::Halo(HaloPart::Bandwidth),
    },
    ClusterField {
        group: Some(FactGroup::Realistic),
        path: &["realistic", "reserved_bytes"],
        id: "cluster-reserved",
        label: "Reserved per GPU (CUDA context, framework)",
        unit: "GB",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.reserved_bytes,
        set: Set::Direct(|c, v| c.realistic.reserved_bytes = v),
    },
    ClusterField {
        group: Some(FactGroup::Precision),
        path: &["gpu_flops_by_precision", "tf32"],
        id: "cluster-flops-tf32",
        label: "Sustained TF32 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.tf32,
        set: Set::Direct(|c, v| c.gpu_flops_by_precision.tf32 = v),
    },
    ClusterField {
        group: Some(FactGroup::Precision),
        path: &["gpu_flops_by_precision", "fp16"],
        id: "cluster-flops-fp16",
        label: "Sustained FP16 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.fp16,
        set: Set::Direct(|c, v| c.gpu_flops_by_precision.fp16 = v),
    },
    ClusterField {
        group: Some(FactGroup::Precision),
        path: &["gpu_flops_by_precision", "bf16"],
        id: "cluster-flops-bf16",
        label: "Sustained BF16 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.bf16,
        set: Set::Direct(|c, v| c.gpu_flops_by_precision.bf16 = v),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "intra_node_bus_bandwidth_bytes_per_s"],
        id: "cluster-intra-bus",
        label: "NCCL bus bandwidth inside a node",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.intra_node_bus_bandwidth_bytes_per_s,
        set: Set::Direct(|c, v| c.realistic.intra_node_bus_bandwidth_bytes_per_s = v),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "nic_bus_bandwidth_bytes_per_s"],
        id: "cluster-nic-bus",
        label: "NCCL bandwidth through one NIC",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.nic_bus_bandwidth_bytes_per_s,
        set: Set::Direct(|c, v| c.realistic.nic_bus_bandwidth_bytes_per_s = v),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "sms"],
        id: "cluster-sms",
        label: "Streaming multiprocessors (SMs)",
        unit: "SMs",
        scale: 1.0,
        whole: true,
        get: |c| c.realistic.kernels.map(|k| k.sms as f64).filter(|&n| n > 0.0),
        set: Set::Kernel(KernelPart::Sms),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "gemm_flops_per_s", "fp32"],
        id: "cluster-gemm-fp32",
        label: "Large matrix multiplications, FP32",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.map(|k| k.gemm_flops_per_s.fp32),
        set: Set::Kernel(KernelPart::Fp32),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "gemm_flops_per_s", "tf32"],
        id: "cluster-gemm-tf32",
        label: "Large matrix multiplications, TF32",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.by_precision.tf32),
        set: Set::Kernel(KernelPart::Tf32),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "gemm_flops_per_s", "fp16"],
        id: "cluster-gemm-fp16",
        label: "Large matrix multiplications, FP16",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.by_precision.fp16),
        set: Set::Kernel(KernelPart::Fp16),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "gemm_flops_per_s", "bf16"],
        id: "cluster-gemm-bf16",
        label: "Large matrix multiplications, BF16",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.by_precision.bf16),
        set: Set::Kernel(KernelPart::Bf16),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "kernels", "kernel_overhead_s"],
        id: "cluster-kernel-overhead",
        label: "Launch and framework cost of a kernel",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| c.realistic.kernels.map(|k| k.kernel_overhead_s),
        set: Set::Kernel(KernelPart::Overhead),
    },
    ClusterField {
        group: Some(FactGroup::Today),
        path: &["realistic", "framework_memory", "workspace_bytes"],
        id: "cluster-workspace",
        label: "Library workspace per GPU (blank: ParaDL's memory accounting)",
        unit: "MB",
        scale: 1e6,
        whole: false,
        get: |c| c.realistic.framework_memory.map(|m| m.workspace_bytes),
        set: Set::Direct(|c, v| {
            c.realistic.framework_memory = v.map(|workspace_bytes| FrameworkMemory { workspace_bytes })
        }),
    },
    ClusterField {
        group: Some(FactGroup::Power),
        path: &["facility", "node_other_power_w"],
        id: "cluster-node-other-power",
        label: "A node's power besides its GPUs, while training (CPUs, memory, NICs, fans)",
        unit: "W",
        scale: 1.0,
        whole: false,
        get: |c| c.facility.node_other_power_w,
        set: Set::Direct(|c, v| c.facility.node_other_power_w = v),
    },
    ClusterField {
        group: Some(FactGroup::Power),
        path: &["facility", "gpu_board_power_w"],
        id: "cluster-gpu-board-power",
        label: "A GPU's rated board power (blank: its datasheet's)",
        unit: "W",
        scale: 1.0,
        whole: false,
        get: |c| c.facility.gpu_board_power_w,
        set: Set::Direct(|c, v| c.facility.gpu_board_power_w = v),
    },
];

/// Every field: the scalars, then the facts.
pub fn all() -> impl Iterator<Item = &'static ClusterField> {
    PARAMS.iter().chain(FACTS.iter())
}

/// The field of a key, if it is one.
pub fn field(key: ClusterKey) -> Option<&'static ClusterField> {
    match key {
        ClusterKey::Field(path) => all().find(|f| f.path == path),
        _ => None,
    }
}

/// The field with this input id.
pub fn by_id(id: &str) -> Option<&'static ClusterField> {
    all().find(|f| f.id == id)
}

/// The key an engine error of a cluster belongs to.
pub fn of_cluster(error: &InputError) -> Key {
    let f = &error.field;
    if let Some(field) = all().find(|field| f.is(field.path)) {
        return Key::Cluster(field.key());
    }
    let key = match f.segments() {
        [
            Segment::Key("switch_levels"),
            Segment::Index(i),
            Segment::Key(column),
            ..,
        ] => match *column {
            "span_nodes" => ClusterKey::Level(*i, LevelColumn::Span),
            "latency_s" => ClusterKey::Level(*i, LevelColumn::Latency),
            _ => ClusterKey::Whole,
        },
        _ => ClusterKey::Whole,
    };
    Key::Cluster(key)
}

#[cfg(test)]
mod tests {
    use crate::app::input::cluster_fields::*;
    use crate::oracle::{Field, Rule};

    #[test]
    fn ids_and_paths_are_distinct() {
        let mut ids: Vec<&str> = all().map(|f| f.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), PARAMS.len() + FACTS.len());
        for f in all() {
            assert_eq!(field(f.key()).map(|g| g.id), Some(f.id));
        }
    }

    #[test]
    fn engine_errors_land_on_their_cell() {
        let e = InputError::new(Field::from("nic").key("latency_s"), Rule::Empty);
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Field(&["nic", "latency_s"])));
        let e = InputError::new(Field::from("switch_levels").index(1).key("span_nodes"), Rule::Empty);
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Level(1, LevelColumn::Span)));
        let e = InputError::new("name", Rule::Empty);
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Whole));
    }
}
