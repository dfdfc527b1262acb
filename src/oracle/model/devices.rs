//! The GPUs this tool knows, each with its datasheet and its own published
//! kernel measurements (contract, section 11): its streaming
//! multiprocessors, dense peaks, memory, the sustained bandwidth a STREAM
//! kernel reaches and the fraction of its tensor-core peak a large matrix
//! multiplication reaches. A cluster file names its GPU (`"gpu":
//! "A100-SXM4-80GB"`) and takes these facts; a profile measured on one of
//! them (PyTorch's device name) is recorded with them.
//!
//! **Sources.** Peaks, SMs, memory and bandwidth are the vendors'
//! datasheets (each device's `source`). Measured facts:
//! - STREAM (BabelStream Triad, or gpu-stream's scale where no Triad was
//!   published): V100 SXM2 836.9 GB/s (UoB-HPC/performance-portability
//!   @c855363, benchmarking/2020/babelstream/results/
//!   BabelStream-v100_gcc-7.3_cuda.out:15); A100 SXM4 40 GB 1398.7 GB/s
//!   (same repository, BabelStream-a100_cuda.out:59); A100 SXM4 80 GB
//!   1700 GB/s, H100 SXM 2970 GB/s, H200 4150 GB/s
//!   (Azure/AI-benchmarking-guide@8fd0c6e, Azure_Results/
//!   ND_A100_v4_results.md:40, ND_H100_v5_results.md:41,
//!   ND_H200_v5_results.md:41); H100 PCIe 1704 GB/s, L40 770 GB/s (for the
//!   L40S, the same 864 GB/s GDDR6), A40 652 GB/s (for the GA102 GPUs: A10,
//!   RTX 3090, RTX A6000) (te42kyfo/gpu-benches@1c36d50, gpu-stream/
//!   h100_pcie.txt:33, l40.txt:25, a40.txt:25); MI300X 3948.1 GB/s
//!   (ROCm/system-acceptance-docs@b754ce7, docs/mi300x/
//!   performance-bench.rst:681). A GPU without a published STREAM figure
//!   takes the fraction of its datasheet bandwidth that its architecture's
//!   measured GPU reaches (said in its `source`).
//! - Large matrix multiplications: A100 SXM 0.869, A100 PCIe 0.811, H100
//!   SXM 0.803 ("H200 is the same"), B200 0.776, MI300X 0.514 of the BF16
//!   peak (stas00/ml-engineering@744d01e, compute/accelerator/README.md
//!   lines 351-361, the maximum achievable matmul FLOPS finder); V100 SXM2
//!   0.80 of the FP16 and 0.85 of the FP32 peak, T4 0.60 and 0.48 (median
//!   of the 58 GEMMs of min(M, N, K) ≥ 1024 in baidu-research/DeepBench
//!   @da81ba7, results/train/DeepBench_NV_V100.xlsx and
//!   DeepBench_NV_T4.xlsx). The tensor-core fraction is applied to the
//!   TF32, FP16 and BF16 peaks (measured for one of them); the FP32
//!   fraction is V100's 0.85 where no FP32 GEMM of the GPU was published
//!   (an assumption, said in each `source`).

use super::facts::{GemmRates, KernelFacts};
use super::network::ProfiledGpu;

/// The launch and framework cost of one kernel: the median over a
/// convolution, a linear layer, a batch norm and a ReLU of PyTorch 2.15's
/// host time per kernel of a forward and backward pass through 200 tiny
/// layers (`tests/torch/overhead.py`: 9.7, 10.7, 17.2 and 3.3 µs), the
/// time a GPU kernel waits for when it is shorter.
pub const KERNEL_OVERHEAD_S: f64 = 10.2e-6;

/// The ideal edition's derating of a published peak: ABCI's measured
/// `R = 7.8` of the V100's 15.7 TFLOP/s (the contract, section 6), one
/// half, applied to every GPU's peaks and bandwidth in the presets.
pub const SUSTAINED: f64 = 0.5;

/// The FP32 fraction of a GPU whose FP32 GEMMs were not published: V100's
/// measured 0.85 (DeepBench, see the module's sources).
const FP32_GEMM_FRACTION: f64 = 0.85;

/// A GPU: its datasheet and its measured kernel facts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// The name a cluster file gives (`"gpu"`), as PyTorch names the
    /// device where it can.
    pub name: &'static str,
    /// The word of its model in device names (`A100`).
    pub model: &'static str,
    /// Further words that tell this variant from the model's others
    /// (`PCIE`, `40GB`); empty for the model's default variant.
    pub variant: &'static [&'static str],
    /// Streaming multiprocessors (compute units on AMD).
    pub sms: u64,
    /// Memory, bytes.
    pub memory_bytes: f64,
    /// Dense peaks, FLOP/s: FP32, TF32 (0: none), FP16 and BF16 with FP32
    /// accumulation (0: none).
    pub peaks: (f64, f64, f64),
    /// Datasheet memory bandwidth, bytes/s.
    pub memory_bandwidth_bytes_per_s: f64,
    /// Measured sustained memory bandwidth (STREAM), bytes/s.
    pub stream_bytes_per_s: f64,
    /// The measured fraction of the tensor-core peak a large matrix
    /// multiplication reaches.
    pub tensor_fraction: f64,
    /// The measured fraction of the FP32 peak a large FP32 matrix
    /// multiplication reaches.
    pub fp32_fraction: f64,
    /// Where every number comes from.
    pub source: &'static str,
}

const T: f64 = 1e12;
const G: f64 = 1e9;
/// A mebibyte, as nvidia-smi counts a card's memory.
const MIB: f64 = 1_048_576.0;

/// The GPUs, each model's default variant first.
pub const DEVICES: [Device; 20] = [
    Device {
        name: "V100-SXM2-32GB",
        model: "V100",
        variant: &[],
        sms: 80,
        memory_bytes: 32e9,
        peaks: (15.7 * T, 0.0, 125.0 * T),
        memory_bandwidth_bytes_per_s: 900.0 * G,
        stream_bytes_per_s: 836.9 * G,
        tensor_fraction: 0.80,
        fp32_fraction: 0.85,
        source: "NVIDIA V100 SXM2 datasheet (80 SMs, FP32 15.7, FP16 tensor 125 TFLOP/s, HBM2 900 GB/s); STREAM 836.9 GB/s (BabelStream, UoB-HPC/performance-portability); GEMMs 0.80 of FP16 and 0.85 of FP32 peak (DeepBench V100)",
    },
    Device {
        name: "V100-SXM2-16GB",
        model: "V100",
        variant: &["16GB"],
        sms: 80,
        memory_bytes: 16e9,
        peaks: (15.7 * T, 0.0, 125.0 * T),
        memory_bandwidth_bytes_per_s: 900.0 * G,
        stream_bytes_per_s: 836.9 * G,
        tensor_fraction: 0.80,
        fp32_fraction: 0.85,
        source: "NVIDIA V100 SXM2 datasheet (80 SMs, FP32 15.7, FP16 tensor 125 TFLOP/s, HBM2 900 GB/s); STREAM 836.9 GB/s (BabelStream on a V100-SXM2-16GB, UoB-HPC/performance-portability); GEMMs 0.80 of FP16 and 0.85 of FP32 peak (DeepBench V100)",
    },
    Device {
        name: "V100-PCIE-32GB",
        model: "V100",
        variant: &["PCIE"],
        sms: 80,
        memory_bytes: 32e9,
        peaks: (14.0 * T, 0.0, 112.0 * T),
        memory_bandwidth_bytes_per_s: 900.0 * G,
        stream_bytes_per_s: 836.9 * G,
        tensor_fraction: 0.80,
        fp32_fraction: 0.85,
        source: "NVIDIA V100 PCIe datasheet (80 SMs, FP32 14, FP16 tensor 112 TFLOP/s, HBM2 900 GB/s); STREAM and GEMM fractions of the V100 SXM2 (the same chip and memory)",
    },
    Device {
        name: "T4",
        model: "T4",
        variant: &[],
        sms: 40,
        memory_bytes: 16e9,
        peaks: (8.1 * T, 0.0, 65.0 * T),
        memory_bandwidth_bytes_per_s: 320.0 * G,
        stream_bytes_per_s: 0.93 * 320.0 * G,
        tensor_fraction: 0.60,
        fp32_fraction: 0.48,
        source: "NVIDIA T4 datasheet (40 SMs, FP32 8.1, FP16 tensor 65 TFLOP/s, GDDR6 320 GB/s); GEMMs 0.60 of FP16 and 0.48 of FP32 peak (DeepBench T4); no STREAM published: V100's measured 0.93 of its datasheet bandwidth",
    },
    Device {
        name: "A100-SXM4-80GB",
        model: "A100",
        variant: &[],
        sms: 108,
        memory_bytes: 80e9,
        peaks: (19.5 * T, 156.0 * T, 312.0 * T),
        memory_bandwidth_bytes_per_s: 2039.0 * G,
        stream_bytes_per_s: 1700.0 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A100 80 GB SXM datasheet (108 SMs, FP32 19.5, TF32 156, FP16/BF16 312 TFLOP/s dense, HBM2e 2,039 GB/s); STREAM 1700 GB/s (BabelStream Triad, Azure ND A100 v4); BF16 matmul 0.869 of peak (ml-engineering MAMF), applied to TF32 and FP16; FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "A100-SXM4-40GB",
        model: "A100",
        variant: &["40GB"],
        sms: 108,
        memory_bytes: 40e9,
        peaks: (19.5 * T, 156.0 * T, 312.0 * T),
        memory_bandwidth_bytes_per_s: 1555.0 * G,
        stream_bytes_per_s: 1398.7 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A100 40 GB SXM datasheet (108 SMs, FP32 19.5, TF32 156, FP16/BF16 312 TFLOP/s dense, HBM2 1,555 GB/s); STREAM 1398.7 GB/s (BabelStream Triad, UoB-HPC/performance-portability); BF16 matmul 0.869 of peak (ml-engineering MAMF, A100 SXM); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "A100-PCIE-80GB",
        model: "A100",
        variant: &["PCIE"],
        sms: 108,
        memory_bytes: 80e9,
        peaks: (19.5 * T, 156.0 * T, 312.0 * T),
        memory_bandwidth_bytes_per_s: 1935.0 * G,
        stream_bytes_per_s: 0.834 * 1935.0 * G,
        tensor_fraction: 0.811,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A100 80 GB PCIe datasheet (108 SMs, FP32 19.5, TF32 156, FP16/BF16 312 TFLOP/s dense, HBM2e 1,935 GB/s); BF16 matmul 0.811 of peak (ml-engineering MAMF, A100 PCIe); STREAM the A100 SXM4 80 GB's measured 0.834 of its bandwidth (assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "A100-PCIE-40GB",
        model: "A100",
        variant: &["PCIE", "40GB"],
        sms: 108,
        memory_bytes: 40e9,
        peaks: (19.5 * T, 156.0 * T, 312.0 * T),
        memory_bandwidth_bytes_per_s: 1555.0 * G,
        stream_bytes_per_s: 1398.7 * G,
        tensor_fraction: 0.811,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A100 40 GB PCIe datasheet (108 SMs, FP32 19.5, TF32 156, FP16/BF16 312 TFLOP/s dense, HBM2 1,555 GB/s); BF16 matmul 0.811 of peak (ml-engineering MAMF, A100 PCIe); STREAM of the A100 40 GB (same memory); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "A10",
        model: "A10",
        variant: &[],
        sms: 72,
        memory_bytes: 24e9,
        peaks: (31.2 * T, 62.5 * T, 125.0 * T),
        memory_bandwidth_bytes_per_s: 600.0 * G,
        stream_bytes_per_s: 0.937 * 600.0 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A10 datasheet (72 SMs, FP32 31.2, TF32 62.5, FP16/BF16 125 TFLOP/s dense, GDDR6 600 GB/s); STREAM the A40's measured 0.937 of its bandwidth (GA102, gpu-stream); matmul the A100's 0.869 (Ampere, assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "RTX 3090",
        model: "3090",
        variant: &[],
        sms: 82,
        memory_bytes: 24576.0 * MIB,
        peaks: (35.6 * T, 35.6 * T, 71.0 * T),
        memory_bandwidth_bytes_per_s: 936.0 * G,
        stream_bytes_per_s: 0.937 * 936.0 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA GeForce RTX 3090 (Ampere GA102 whitepaper: 82 SMs, FP32 35.6, TF32 35.6, FP16/BF16 tensor with FP32 accumulation 71 TFLOP/s dense; GDDR6X 936 GB/s; 24,576 MiB as nvidia-smi reports it, noonghunna/club-3090#390); STREAM the A40's measured 0.937 of its bandwidth (GA102, gpu-stream); matmul the A100's 0.869 (Ampere, assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "RTX 4090",
        model: "4090",
        variant: &[],
        sms: 128,
        memory_bytes: 24e9,
        peaks: (82.6 * T, 82.6 * T, 165.2 * T),
        memory_bandwidth_bytes_per_s: 1008.0 * G,
        stream_bytes_per_s: 0.891 * 1008.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA GeForce RTX 4090 (Ada AD102 whitepaper: 128 SMs, FP32 82.6, TF32 82.6, FP16/BF16 tensor with FP32 accumulation 165.2 TFLOP/s dense; GDDR6X 1,008 GB/s); STREAM the L40's measured 0.891 of its bandwidth (Ada, gpu-stream); matmul the H100's 0.803 (assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "L4",
        model: "L4",
        variant: &[],
        sms: 58,
        memory_bytes: 24e9,
        peaks: (30.3 * T, 60.0 * T, 121.0 * T),
        memory_bandwidth_bytes_per_s: 300.0 * G,
        stream_bytes_per_s: 0.891 * 300.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA L4 datasheet (58 SMs, FP32 30.3, TF32 60, FP16/BF16 121 TFLOP/s dense, GDDR6 300 GB/s); STREAM the L40's measured 0.891 of its bandwidth (Ada, gpu-stream); matmul the H100's 0.803 (assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "L40S",
        model: "L40S",
        variant: &[],
        sms: 142,
        memory_bytes: 48e9,
        peaks: (91.6 * T, 183.0 * T, 362.0 * T),
        memory_bandwidth_bytes_per_s: 864.0 * G,
        stream_bytes_per_s: 770.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA L40S datasheet (142 SMs, FP32 91.6, TF32 183, FP16/BF16 362 TFLOP/s dense, GDDR6 864 GB/s); STREAM 770 GB/s measured on the L40 (the same 864 GB/s memory, gpu-stream); matmul the H100's 0.803 (assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "H100-SXM5-80GB",
        model: "H100",
        variant: &[],
        sms: 132,
        memory_bytes: 80e9,
        peaks: (67.0 * T, 494.7 * T, 989.4 * T),
        memory_bandwidth_bytes_per_s: 3350.0 * G,
        stream_bytes_per_s: 2970.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA H100 SXM datasheet (132 SMs, FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense, HBM3 3.35 TB/s); STREAM 2970 GB/s (BabelStream Triad, Azure ND H100 v5); BF16 matmul 0.803 of peak (ml-engineering MAMF); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "H100-PCIE-80GB",
        model: "H100",
        variant: &["PCIE"],
        sms: 114,
        memory_bytes: 80e9,
        peaks: (51.2 * T, 378.0 * T, 756.0 * T),
        memory_bandwidth_bytes_per_s: 2000.0 * G,
        stream_bytes_per_s: 1704.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA H100 PCIe datasheet (114 SMs, FP32 51.2, TF32 378, FP16/BF16 756 TFLOP/s dense, HBM2e 2.0 TB/s); STREAM 1704 GB/s (gpu-stream, te42kyfo/gpu-benches); matmul the H100 SXM's 0.803 (assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "H200",
        model: "H200",
        variant: &[],
        sms: 132,
        memory_bytes: 141e9,
        peaks: (67.0 * T, 494.7 * T, 989.4 * T),
        memory_bandwidth_bytes_per_s: 4800.0 * G,
        stream_bytes_per_s: 4150.0 * G,
        tensor_fraction: 0.803,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA H200 SXM datasheet (132 SMs, the H100's compute: FP32 67, TF32 494.7, FP16/BF16 989.4 TFLOP/s dense; HBM3e 141 GB, 4.8 TB/s); STREAM 4150 GB/s (BabelStream Triad, Azure ND H200 v5); matmul 0.803 (ml-engineering MAMF: 'H200 is the same' as H100); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "B200",
        model: "B200",
        variant: &[],
        sms: 148,
        memory_bytes: 180e9,
        peaks: (80.0 * T, 1100.0 * T, 2250.0 * T),
        memory_bandwidth_bytes_per_s: 8000.0 * G,
        stream_bytes_per_s: 0.865 * 8000.0 * G,
        tensor_fraction: 0.776,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA DGX/HGX B200 datasheet (148 SMs, FP32 80, TF32 1,100, FP16/BF16 2,250 TFLOP/s dense at 1,000 W; HBM3e 180 GB, 8 TB/s); BF16 matmul 0.776 of peak (ml-engineering MAMF); no STREAM published: the H200's measured 0.865 of its bandwidth (HBM3e, assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "MI300X",
        model: "MI300X",
        variant: &[],
        sms: 304,
        memory_bytes: 192e9,
        peaks: (163.4 * T, 653.7 * T, 1307.4 * T),
        memory_bandwidth_bytes_per_s: 5300.0 * G,
        stream_bytes_per_s: 3948.1 * G,
        tensor_fraction: 0.514,
        fp32_fraction: 0.514,
        source: "AMD Instinct MI300X datasheet (304 CUs, FP32 163.4, TF32 653.7, FP16/BF16 1,307.4 TFLOP/s dense; HBM3 192 GB, 5.3 TB/s); STREAM 3948.1 GB/s (BabelStream Triad, AMD's acceptance docs); BF16 matmul 0.514 of peak (ml-engineering MAMF, TunableOp), applied to every precision",
    },
    Device {
        name: "RTX A6000",
        model: "A6000",
        variant: &[],
        sms: 84,
        memory_bytes: 48e9,
        peaks: (38.7 * T, 77.4 * T, 154.8 * T),
        memory_bandwidth_bytes_per_s: 768.0 * G,
        stream_bytes_per_s: 0.937 * 768.0 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA RTX A6000 datasheet (84 SMs, FP32 38.7, TF32 77.4, FP16/BF16 154.8 TFLOP/s dense, GDDR6 768 GB/s); STREAM the A40's measured 0.937 of its bandwidth (GA102, gpu-stream); matmul the A100's 0.869 (Ampere, assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
    Device {
        name: "A40",
        model: "A40",
        variant: &[],
        sms: 84,
        memory_bytes: 48e9,
        peaks: (37.4 * T, 74.8 * T, 149.7 * T),
        memory_bandwidth_bytes_per_s: 696.0 * G,
        stream_bytes_per_s: 652.0 * G,
        tensor_fraction: 0.869,
        fp32_fraction: FP32_GEMM_FRACTION,
        source: "NVIDIA A40 datasheet (84 SMs, FP32 37.4, TF32 74.8, FP16/BF16 149.7 TFLOP/s dense, GDDR6 696 GB/s); STREAM 652 GB/s (gpu-stream, te42kyfo/gpu-benches); matmul the A100's 0.869 (Ampere, assumed); FP32 GEMMs V100's 0.85 (assumed)",
    },
];

impl Device {
    /// Its kernel facts: SMs, sustained GEMM rates (the measured
    /// fractions of its peaks), the per-kernel cost and its STREAM
    /// bandwidth.
    ///
    /// # Formula
    /// `R_fp32 = fp32_fraction·peak_fp32`; `R_p = tensor_fraction·peak_p`
    /// for TF32, FP16 and BF16 where the GPU has them.
    pub fn kernels(&self) -> KernelFacts {
        let tensor = |peak: f64| (peak > 0.0).then_some(peak * self.tensor_fraction);
        KernelFacts {
            sms: self.sms,
            gemm_flops_per_s: GemmRates {
                fp32: self.peaks.0 * self.fp32_fraction,
                tf32: tensor(self.peaks.1),
                fp16: tensor(self.peaks.2),
                bf16: tensor(self.peaks.2),
            },
            kernel_overhead_s: KERNEL_OVERHEAD_S,
            stream_bytes_per_s: Some(self.stream_bytes_per_s),
        }
    }
}

/// The words of a device name: split at spaces, dashes and underscores,
/// upper case.
fn words(name: &str) -> Vec<String> {
    name.split([' ', '-', '_'])
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// The device a name stands for: one whose model is a word of the name,
/// the variant with the most of its words in the name (a variant whose
/// words are not all there does not match; the model's default variant
/// matches with none), and whose SMs, when given, are the device's.
///
/// `NVIDIA A100-SXM4-40GB` is the A100 SXM4 40 GB, `NVIDIA GeForce RTX
/// 3090` the RTX 3090, `NVIDIA H100 PCIe` with 114 SMs the H100 PCIe; a
/// model's word inside another word (`H1000`) is not the model.
pub fn device(name: &str, sms: Option<u64>) -> Option<&'static Device> {
    let words = words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    DEVICES
        .iter()
        .filter(|d| has(d.model) && d.variant.iter().all(|v| has(v)) && sms.is_none_or(|s| s == d.sms))
        .max_by_key(|d| (d.variant.len(), std::cmp::Reverse(DEVICES.iter().position(|x| x == *d))))
}

/// Every device's name, comma-separated (for messages).
pub fn names() -> String {
    DEVICES.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
}

/// The known GPU a profile's device is, with its facts, or `None` (a CPU,
/// or a GPU this tool does not know).
pub fn known_gpu(device_name: &str, sms: Option<u64>) -> Option<ProfiledGpu> {
    let d = device(device_name, sms)?;
    let kernels = d.kernels();
    Some(ProfiledGpu {
        name: device_name.trim().to_string(),
        flops_per_s: d.peaks.0 * SUSTAINED,
        memory_bandwidth_bytes_per_s: Some(d.stream_bytes_per_s),
        gemm_flops_per_s: Some(kernels.gemm_flops_per_s.fp32),
        kernels: Some(kernels),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytorch_device_names_are_recognised() {
        let name = |n: &str, sms: Option<u64>| device(n, sms).map(|d| d.name);
        assert_eq!(name("NVIDIA H100 80GB HBM3", Some(132)), Some("H100-SXM5-80GB"));
        assert_eq!(name("NVIDIA H100 PCIe", Some(114)), Some("H100-PCIE-80GB"));
        assert_eq!(name("NVIDIA A100-SXM4-80GB", None), Some("A100-SXM4-80GB"));
        assert_eq!(name("NVIDIA A100-SXM4-40GB", None), Some("A100-SXM4-40GB"));
        assert_eq!(name("NVIDIA A100 80GB PCIe", None), Some("A100-PCIE-80GB"));
        assert_eq!(name("NVIDIA A100-PCIE-40GB", None), Some("A100-PCIE-40GB"));
        assert_eq!(name("Tesla V100-SXM2-16GB", Some(80)), Some("V100-SXM2-16GB"));
        assert_eq!(name("Tesla V100-PCIE-32GB", Some(80)), Some("V100-PCIE-32GB"));
        assert_eq!(name("NVIDIA GeForce RTX 3090", Some(82)), Some("RTX 3090"));
        assert_eq!(name("AMD Instinct MI300X", Some(304)), Some("MI300X"));
        assert_eq!(name("NVIDIA H200", Some(132)), Some("H200"));
        assert_eq!(name("Tesla T4", None), Some("T4"));
        assert_eq!(name("NVIDIA L40S", None), Some("L40S"));
        // every device is found by its own name
        for d in &DEVICES {
            assert_eq!(name(d.name, Some(d.sms)), Some(d.name));
        }
    }

    #[test]
    fn other_devices_are_not() {
        // an H100 of 130 SMs is none of these
        assert_eq!(device("NVIDIA H100", Some(130)), None);
        assert_eq!(device("x86_64", None), None);
        assert_eq!(device("NVIDIA GeForce RTX 4080", Some(76)), None);
        // a model's word inside another word is not the model
        assert_eq!(device("NVIDIA H1000", None), None);
        assert!(known_gpu("Intel Xeon", None).is_none());
    }

    #[test]
    fn kernel_facts_are_the_measured_fractions_of_the_peaks() {
        let a100 = device("A100", None).unwrap().kernels();
        assert_eq!(a100.sms, 108);
        assert!((a100.gemm_flops_per_s.bf16.unwrap() - 0.869 * 312e12).abs() < 1.0);
        assert!((a100.gemm_flops_per_s.fp32 - 0.85 * 19.5e12).abs() < 1.0);
        // V100 has no TF32 or BF16 units: those run at FP32
        let v100 = device("V100", None).unwrap().kernels();
        assert_eq!(v100.gemm_flops_per_s.tf32, None);
        // H100 and B200 differ from A100 by their own measurements, not by ratio of peaks
        let h100 = device("H100", None).unwrap();
        let b200 = device("B200", None).unwrap();
        assert_ne!(h100.tensor_fraction, b200.tensor_fraction);
        for d in &DEVICES {
            assert!(d.stream_bytes_per_s < d.memory_bandwidth_bytes_per_s, "{}", d.name);
            assert!(d.tensor_fraction > 0.0 && d.tensor_fraction < 1.0);
        }
    }
}
