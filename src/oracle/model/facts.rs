//! The facts of a cluster that drive the realistic edition's terms
//! (contract, section 7). Each one left out turns its term off, so a
//! cluster without any projects exactly as in the ideal edition.

use serde::{Deserialize, Serialize};

use super::checks::{self, MAX_LATENCY_S, MAX_RATE, MIN_RATE};
use super::errors::InputError;
use super::field::Field;
use super::names::named_enum;
use super::practice::Precision;

named_enum! {
    /// How gradient Allreduces are run (NCCL chooses per call).
    pub enum AllreduceAlgorithm {
        /// Ring: `AR(p, m) = 2(p−1)(α + m·β/p)` (the ideal edition's).
        Ring => ("ring", "ring"),
        /// NCCL's double binary tree: `2·⌈log2 p⌉·α + 2·m·β`.
        Tree => ("tree", "double binary tree"),
        /// Reduce-scatter in the node, Allreduce across nodes on each
        /// GPU's rail, allgather in the node (section 9).
        Hierarchical => ("hierarchical", "hierarchical (node, then rails)"),
        /// The fastest of ring, tree and hierarchical, for each collective.
        Best => ("best", "choice NCCL makes of ring or tree and of protocol"),
    }
}

/// Halos that travel through host memory (MPI without GPUDirect), as in
/// the paper's runs: every halo transfer crosses the host's PCIe twice.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HaloTransport {
    /// Latency of one host-staged point-to-point, in seconds.
    pub latency_s: f64,
    /// PCIe bandwidth of one host, in bytes per second.
    pub pcie_bandwidth_bytes_per_s: f64,
    /// The parts exchange halos as a chain of blocking sends, forward
    /// only, as the paper's implementation does (chainermnx's
    /// `HaloExchange`: each part sends to the next and then receives, so
    /// the `q − 1` transfers of each direction run one after another, and
    /// the backward pass slices its gradient without an exchange).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chained: bool,
}

/// The section 7 facts of a cluster; every one is optional.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RealisticFacts {
    /// Sustained GPU memory bandwidth in bytes per second (roofline
    /// weights of layers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_bandwidth_bytes_per_s: Option<f64>,
    /// The Allreduce algorithm (left out: `best`, NCCL's choice of ring or
    /// tree for each collective; ring on a flat ParaDL platform and in the
    /// ideal edition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allreduce: Option<AllreduceAlgorithm>,
    /// GPUs that share one PCIe path to a NIC (left out: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic_sharing: Option<u64>,
    /// Host-staged halo exchange (left out: halos go GPU to GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halo_transport: Option<HaloTransport>,
    /// Memory per GPU taken by the CUDA context and the framework, bytes
    /// (left out: 0; section 9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserved_bytes: Option<f64>,
    /// The GPU's kernel facts (section 11): compute as kernels run (left
    /// out: the roofline of section 7, a time per sample that does not
    /// depend on the batch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernels: Option<KernelFacts>,
    /// How a framework holds memory (section 11): activations as autograd
    /// saves them, the backward pass's transient buffers, workspaces and the
    /// caching allocator's rounding (left out: section 3's `2δ·B·A`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub framework_memory: Option<FrameworkMemory>,
    /// Bus bandwidth NCCL achieves among the GPUs of one node, bytes/s
    /// (nccl-tests `all_reduce_perf` busbw at large messages; section 11).
    /// Left out: the intra-node link's bandwidth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intra_node_bus_bandwidth_bytes_per_s: Option<f64>,
    /// Bandwidth NCCL achieves through one NIC across nodes, bytes/s
    /// (section 11). Left out: the NIC's bandwidth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nic_bus_bandwidth_bytes_per_s: Option<f64>,
    /// The switches between nodes reduce (NVIDIA SHARP on InfiniBand, NCCL's
    /// CollNet): an Allreduce across nodes may cross each NIC once each way
    /// (section 11). Left out: no.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_network_reduction: Option<bool>,
}

/// Sustained FLOP/s of one GPU per precision, each optional (sections 9
/// and 11): a precision left out runs at the FP32 rate. A cluster's FP32
/// rate is its `gpu_flops_per_s` (its `fp32` here is refused); the
/// kernels' [`GemmRates`] need theirs.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrecisionRates {
    /// FP32 (CUDA cores).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp32: Option<f64>,
    /// TF32 tensor cores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tf32: Option<f64>,
    /// FP16 tensor cores (FP32 accumulate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16: Option<f64>,
    /// BF16 tensor cores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bf16: Option<f64>,
}

impl PrecisionRates {
    /// None is given.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The rate of `precision`: `fp32_flops_per_s` for a precision without
    /// a rate of its own.
    pub fn rate(&self, precision: Precision, fp32_flops_per_s: f64) -> f64 {
        let rate = match precision {
            Precision::Fp32 => self.fp32,
            Precision::Tf32 => self.tf32,
            Precision::Fp16 => self.fp16,
            Precision::Bf16 => self.bf16,
        };
        rate.unwrap_or(fp32_flops_per_s)
    }

    /// Checks each rate given.
    ///
    /// # Errors
    /// An [`InputError`] naming the rate (`at.tf32`...) outside
    /// `[MIN_RATE, MAX_RATE]`.
    pub fn check(&self, at: &Field) -> Result<(), InputError> {
        for (key, rate) in [
            ("fp32", self.fp32),
            ("tf32", self.tf32),
            ("fp16", self.fp16),
            ("bf16", self.bf16),
        ] {
            if let Some(rate) = rate {
                checks::within(at.clone().key(key), rate, MIN_RATE, MAX_RATE)?;
            }
        }
        Ok(())
    }
}

/// Sustained FLOP/s of one GPU's large matrix multiplications, per
/// precision (section 11): the datasheet's dense peak times a measured
/// fraction. Written as one [`PrecisionRates`] object whose `fp32` is
/// required (`{"fp32": .., "tf32": ..}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "PrecisionRates", into = "PrecisionRates")]
pub struct GemmRates {
    /// FP32 (CUDA cores).
    pub fp32: f64,
    /// The tensor cores' precisions (its `fp32` unused).
    pub by_precision: PrecisionRates,
}

impl GemmRates {
    /// The rate of `precision` (FP32's when the GPU gives none for it).
    pub fn rate(&self, precision: Precision) -> f64 {
        self.by_precision.rate(precision, self.fp32)
    }
}

impl TryFrom<PrecisionRates> for GemmRates {
    type Error = &'static str;

    fn try_from(rates: PrecisionRates) -> Result<Self, Self::Error> {
        let fp32 = rates
            .fp32
            .ok_or("missing field `fp32` (the FP32 rate of a large matrix multiplication, FLOP/s)")?;
        Ok(Self {
            fp32,
            by_precision: PrecisionRates { fp32: None, ..rates },
        })
    }
}

impl From<GemmRates> for PrecisionRates {
    fn from(rates: GemmRates) -> Self {
        Self {
            fp32: Some(rates.fp32),
            ..rates.by_precision
        }
    }
}

/// What turns a layer's FLOPs into kernel time on one GPU (section 11).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelFacts {
    /// Streaming multiprocessors (NVIDIA) or compute units (AMD): how
    /// many output tiles of a matrix multiplication run at once.
    pub sms: u64,
    /// Sustained FLOP/s of a large matrix multiplication per precision.
    pub gemm_flops_per_s: GemmRates,
    /// Launch and framework cost of one kernel, seconds: a kernel never
    /// takes less.
    pub kernel_overhead_s: f64,
    /// Sustained memory bandwidth of memory-bound kernels (what a STREAM
    /// kernel reaches), bytes/s. Left out: the cluster's
    /// `memory_bandwidth_bytes_per_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_bytes_per_s: Option<f64>,
}

/// 781 MiB: memory a GPU gives to the CUDA context and PyTorch before any
/// tensor (pytorch/pytorch issue #34323, `nvidia-smi` after initialising).
/// One measurement, taken for every GPU (edit it for a measured figure).
pub const RESERVED_BYTES: f64 = 781.0 * 1024.0 * 1024.0;

/// Library workspace per GPU: the cuBLAS workspace PyTorch configures,
/// `CUBLAS_WORKSPACE_CONFIG=:4096:8` (8 buffers of 4096 KiB, as PyTorch's
/// reproducibility notes and the cuBLAS documentation give it). cuDNN's
/// per-convolution workspace is chosen at run time and is not counted.
pub const WORKSPACE_BYTES: f64 = 8.0 * 4096.0 * 1024.0;

/// PyTorch's memory facts: what a cluster that gives none holds in the
/// realistic edition (section 11), a fact of the framework, not of the
/// cluster.
pub const FRAMEWORK_MEMORY: FrameworkMemory = FrameworkMemory {
    workspace_bytes: WORKSPACE_BYTES,
};

/// How a framework holds a training step's memory (section 11).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameworkMemory {
    /// Workspace of the convolution and matrix libraries (cuDNN,
    /// cuBLAS), bytes.
    pub workspace_bytes: f64,
}

impl KernelFacts {
    /// Checks the facts, naming fields under `at`.
    ///
    /// Rules: `sms` from 1 to 2^40; the overhead finite, not negative and
    /// at most 1000 s; the GEMM rates and the STREAM bandwidth between 1
    /// and 1e30.
    ///
    /// # Errors
    /// An [`InputError`] naming the field, e.g. `realistic.kernels.sms`.
    pub fn check(&self, at: &Field) -> Result<(), InputError> {
        checks::count(at.clone().key("sms"), self.sms, 1, checks::MAX_GPUS)?;
        checks::within(
            at.clone().key("kernel_overhead_s"),
            self.kernel_overhead_s,
            0.0,
            MAX_LATENCY_S,
        )?;
        let rates = self.gemm_flops_per_s;
        let gemm = at.clone().key("gemm_flops_per_s");
        checks::within(gemm.clone().key("fp32"), rates.fp32, MIN_RATE, MAX_RATE)?;
        rates.by_precision.check(&gemm)?;
        if let Some(bw) = self.stream_bytes_per_s {
            checks::within(at.clone().key("stream_bytes_per_s"), bw, MIN_RATE, MAX_RATE)?;
        }
        Ok(())
    }
}

impl RealisticFacts {
    /// None of the facts is given.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Checks the facts given.
    ///
    /// Rules: bandwidths and FLOP/s between 1 and 1e30; a latency or a
    /// kernel's overhead finite, not negative and at most 1000 s;
    /// `nic_sharing` and `kernels.sms` from 1 to 2^40; `reserved_bytes`
    /// and `framework_memory.workspace_bytes` from 0 to 1e30.
    ///
    /// # Errors
    /// An [`InputError`] naming the field, e.g. `realistic.nic_sharing`.
    pub fn check(&self) -> Result<(), InputError> {
        let field = |key: &'static str| Field::from("realistic").key(key);
        if let Some(bw) = self.memory_bandwidth_bytes_per_s {
            checks::within(field("memory_bandwidth_bytes_per_s"), bw, MIN_RATE, MAX_RATE)?;
        }
        if let Some(reserved) = self.reserved_bytes {
            checks::within(field("reserved_bytes"), reserved, 0.0, MAX_RATE)?;
        }
        if let Some(sharing) = self.nic_sharing {
            checks::count(field("nic_sharing"), sharing, 1, checks::MAX_GPUS)?;
        }
        for (key, bw) in [
            (
                "intra_node_bus_bandwidth_bytes_per_s",
                self.intra_node_bus_bandwidth_bytes_per_s,
            ),
            ("nic_bus_bandwidth_bytes_per_s", self.nic_bus_bandwidth_bytes_per_s),
        ] {
            if let Some(bw) = bw {
                checks::within(field(key), bw, MIN_RATE, MAX_RATE)?;
            }
        }
        if let Some(kernels) = self.kernels {
            kernels.check(&field("kernels"))?;
        }
        if let Some(memory) = self.framework_memory {
            checks::within(
                field("framework_memory").key("workspace_bytes"),
                memory.workspace_bytes,
                0.0,
                MAX_RATE,
            )?;
        }
        if let Some(halo) = self.halo_transport {
            let at = field("halo_transport");
            checks::within(at.clone().key("latency_s"), halo.latency_s, 0.0, MAX_LATENCY_S)?;
            checks::within(
                at.key("pcie_bandwidth_bytes_per_s"),
                halo.pcie_bandwidth_bytes_per_s,
                MIN_RATE,
                MAX_RATE,
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_checked_and_optional_in_json() {
        assert!(RealisticFacts::default().is_empty());
        assert_eq!(serde_json::to_string(&RealisticFacts::default()).unwrap(), "{}");
        let facts: RealisticFacts = serde_json::from_str(
            r#"{"memory_bandwidth_bytes_per_s":450e9,"allreduce":"best","nic_sharing":2,
                "halo_transport":{"latency_s":3e-3,"pcie_bandwidth_bytes_per_s":16e9}}"#,
        )
        .unwrap();
        assert_eq!(facts.allreduce, Some(AllreduceAlgorithm::Best));
        assert!(facts.check().is_ok());
        let bad = RealisticFacts {
            nic_sharing: Some(0),
            ..facts
        };
        assert_eq!(bad.check().unwrap_err().field, "realistic.nic_sharing");
        let bad = RealisticFacts {
            halo_transport: Some(HaloTransport {
                latency_s: f64::NAN,
                pcie_bandwidth_bytes_per_s: 1e9,
                chained: false,
            }),
            ..facts
        };
        assert_eq!(bad.check().unwrap_err().field, "realistic.halo_transport.latency_s");
    }
}
