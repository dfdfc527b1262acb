//! Compute as kernels run (contract, section 11): a layer's forward and
//! backward passes are kernels whose time depends on the batch a GPU
//! holds, on how a split cuts the layer, on the GPU's facts and on the
//! class of the kernel, not only on its FLOPs.
//!
//! A convolution, transposed convolution or fully connected layer runs
//! three matrix multiplications (GEMMs) a step: the forward pass, the
//! gradient of its input (skipped where the input needs no gradient: the
//! network's input, or what layers without weights made of it) and the
//! gradient of its
//! weights. Every other layer runs one kernel forward and one backward,
//! bound by memory traffic. Each kernel takes the longest of its
//! arithmetic at its class's sustained rate scaled by the tile
//! utilization, its memory traffic at the sustained (STREAM) memory
//! bandwidth, and the per-kernel launch and framework cost.
//!
//! Kernel classes (published kernel measurements, see
//! [`conv_efficiency`] and [`DEPTHWISE_BANDWIDTH_SHARE`]): a convolution
//! is cuDNN's implicit GEMM, which reaches a measured fraction of the
//! GEMM rate per pass and filter size (Winograd above it for 3×3 FP32
//! convolutions); on tensor cores its channels are padded to the tensor
//! cores' multiple, and with NCHW activations its tensors are transposed
//! to NHWC and back; a depthwise convolution is a direct one, bound by
//! memory at a measured share of the bandwidth.

use super::attention::Role;
use super::saved::Widths;
use crate::oracle::model::facts::KernelFacts;
use crate::oracle::model::layer::{Layer, LayerKind};
use crate::oracle::model::practice::{MemoryFormat, Precision};

/// Rows of a GEMM's output tile: the cuBLAS and cuDNN tiles of NVIDIA's
/// "Matrix Multiplication Background User's Guide" (DU-09799-001, 2023,
/// section 2.3) are 64 to 256 wide; 128 × 128 is the middle one.
pub const TILE_M: f64 = 128.0;
/// Columns of a GEMM's output tile (see [`TILE_M`]).
pub const TILE_N: f64 = 128.0;
/// Input channels per group below which a convolution is not a GEMM on the
/// tensor cores but a direct convolution (a depthwise one): a tensor core
/// instruction reduces over 8 items of 16 bits (the guide's section 2.2:
/// dimensions multiples of 8 for FP16).
pub const DIRECT_BELOW_CHANNELS: u64 = 8;

/// The share of the STREAM bandwidth a depthwise convolution's kernels
/// reach: 220 GB/s of the V100's 836.9 GB/s, measured for the forward pass
/// of a depthwise 3×3 and pointwise pair (C = K = 128, 224×224, batch 16,
/// FP16 NHWC, cuDNN 7.6; tlkh/depsep-conv-benchmarks@331845a,
/// conv_microbenchmark.ipynb, cell 8: 4,335 images/s over 50.7 MB of
/// traffic each): the forward pass's. Its gradients take
/// [`depthwise_slowdown`] times as long for the same traffic.
pub const DEPTHWISE_BANDWIDTH_SHARE: f64 = 0.26;

/// How many times its forward pass's time a depthwise convolution's pass
/// takes for the same traffic (each pass reads and writes a layer's input,
/// output and weights once).
///
/// # Formula
/// The median over MobileNetV2's 17 depthwise layers at batches 32, 64 and
/// 96 of the pass's kernel time over the forward kernel's, timed per
/// kernel with Nsight Compute on a V100 (FP32 NCHW, PyTorch 1.12's
/// `conv_depthwise2d` kernels; eth-easl/orion@cf04f97,
/// `benchmarking/model_kernels/mobilenetv2_{32,64,96}_fb1`; the rows are
/// `tests/validation/depthwise-v100-passes.csv`, 51 rows): the input
/// gradient 1.68 at stride 1 (39 rows) and 4.64 strided (12: its kernel
/// walks the input, four times the output of a stride-2 forward), the
/// weight gradient 2.12 (51 rows); the forward pass 1. Applied to
/// depthwise convolutions (one channel a group), the layers measured.
pub fn depthwise_slowdown(pass: Pass, strided: bool) -> f64 {
    match (pass, strided) {
        (Pass::Forward, _) => 1.0,
        (Pass::InputGradient, false) => 1.68,
        (Pass::InputGradient, true) => 4.64,
        (Pass::WeightGradient, _) => 2.12,
    }
}

/// The share of the GPU's sustained GEMM rate a fused attention kernel
/// reaches (section 15): FlashAttention-2's measured forward and backward
/// rate (FLOPs `3.5·4·b·N²·h·d`) at head dimension 64, 512 tokens, FP16,
/// not causal, over the GPU's sustained FP16 GEMM rate in this tool: A100
/// 132 of 262 TFLOP/s (0.50), H100 SXM 215 of 794 (0.27); their mean (Dao
/// 2023, FlashAttention-2, arXiv:2307.08691, Figures 4 and 7; 512 tokens is
/// the fewest measured). Shorter sequences fill fewer tiles, which the
/// utilization `u` counts.
pub const FUSED_ATTENTION_EFFICIENCY: f64 = 0.39;

/// Which pass of a layer a GEMM computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// The forward pass.
    Forward,
    /// The gradient of the input (cuDNN's "backward data").
    InputGradient,
    /// The gradient of the weights (cuDNN's "backward filter").
    WeightGradient,
}

/// The class of a convolution's kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConvClass {
    /// A 1×1 (pointwise) convolution.
    Pointwise,
    /// A 3×3, stride-1, ungrouped 2D convolution (Winograd in FP32).
    ThreeByThree,
    /// Any other spatial 2D (or 1D) convolution.
    Spatial,
    /// A 3D convolution larger than 1×1×1.
    Volume,
}

/// A convolution's sustained rate against the GEMM rate of its
/// precision, per class and pass, on the tensor cores (`tensor`) or the
/// FP32 units.
///
/// # Formula
/// The inverse of the median measured/model time of DeepBench's V100
/// convolutions of batch 16 and at least 64 channels in and out
/// (baidu-research/DeepBench@da81ba7, results/train/DeepBench_NV_V100.xlsx,
/// sheets "Results - FP16 ip, Mixed math" and "Results FP32"), the model
/// being this module's GEMM kernel at the V100's measured GEMM rates (100.6
/// and 13.3 TFLOP/s) and STREAM bandwidth (`tests/measured/kernels.rs` recomputes
/// each median from `tests/validation/deepbench-v100-conv.csv`): tensor
/// cores, 3×3 1/1.10, 1/1.165, 1/1.28 (forward, input and weight
/// gradients), 1×1 1/1.90, 1/2.85, 1/3.16, larger (5×5, strided) 1/1.23,
/// 1/1.65, 1/1.69; FP32, 3×3 (Winograd) 1/0.385, 1/0.355,
/// 1/0.545, 1×1 1/1.09, 1/1.28, 1/2.03, larger 1. Fully connected layers
/// are cuBLAS GEMMs: 1.
///
/// 3D convolutions on the tensor cores (larger than 1×1×1): 1/1.26
/// forward, 1/2.17 each gradient, the median measured/model time of 44
/// cuDNN 8.0.5 FP16 channels-last 3D convolutions of a 3D U-Net at 128³,
/// batch 2, at least 32 input channels, on an A100 and a V100
/// (xwang233/code-snippet@2c053c8, conv3d-channels-last; backward timed as
/// one, so both gradients share its median). `tests/measured/kernels.rs` recomputes
/// them from `tests/validation/conv3d-a100-v100-fp16.csv`.
pub fn conv_efficiency(tensor: bool, class: ConvClass, pass: Pass) -> f64 {
    1.0 / measured_over_model(tensor, class, pass)
}

/// DeepBench's median measured/model time of a class (see
/// [`conv_efficiency`]).
pub fn measured_over_model(tensor: bool, class: ConvClass, pass: Pass) -> f64 {
    match (tensor, class, pass) {
        (true, ConvClass::Pointwise, Pass::Forward) => 1.90,
        (true, ConvClass::Pointwise, Pass::InputGradient) => 2.85,
        (true, ConvClass::Pointwise, Pass::WeightGradient) => 3.16,
        (true, ConvClass::ThreeByThree, Pass::Forward) => 1.10,
        (true, ConvClass::ThreeByThree, Pass::InputGradient) => 1.165,
        (true, ConvClass::ThreeByThree, Pass::WeightGradient) => 1.28,
        (true, ConvClass::Spatial, Pass::Forward) => 1.23,
        (true, ConvClass::Spatial, Pass::InputGradient) => 1.65,
        (true, ConvClass::Spatial, Pass::WeightGradient) => 1.69,
        (false, ConvClass::ThreeByThree, Pass::Forward) => 0.385,
        (false, ConvClass::ThreeByThree, Pass::InputGradient) => 0.355,
        (false, ConvClass::ThreeByThree, Pass::WeightGradient) => 0.545,
        (false, ConvClass::Pointwise, Pass::Forward) => 1.09,
        (false, ConvClass::Pointwise, Pass::InputGradient) => 1.28,
        (false, ConvClass::Pointwise, Pass::WeightGradient) => 2.03,
        (false, ConvClass::Spatial, _) => 1.0,
        (true, ConvClass::Volume, Pass::Forward) => 1.26,
        (true, ConvClass::Volume, Pass::InputGradient | Pass::WeightGradient) => 2.17,
        (false, ConvClass::Volume, _) => 1.0,
    }
}

/// The multiple the tensor cores need of a convolution's input channels,
/// which cuDNN pads them to: 8 items of 16 bits, 4 of TF32 (NVIDIA's
/// "Convolutional Layers User's Guide", Tensor Core requirements; DeepBench
/// pads C = 1 and 3 to 8).
fn channel_multiple(precision: Precision) -> f64 {
    match precision {
        Precision::Tf32 => 4.0,
        _ => 8.0,
    }
}

/// How a split cuts one layer for one GPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cut {
    /// The whole layer.
    Whole,
    /// `q` slices of the width (spatial parallelism): positions divided.
    Width(f64),
    /// `q` slices of the filters: `F` divided.
    Filters(f64),
    /// `q` slices of the input channels: `C` divided.
    Channels(f64),
}

impl Cut {
    fn parts(self) -> f64 {
        match self {
            Self::Whole => 1.0,
            Self::Width(q) | Self::Filters(q) | Self::Channels(q) => q,
        }
    }
}

/// One GEMM of a layer, per sample: its output's rows per sample (scaled
/// by the batch), its columns and its groups.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Gemm {
    /// The pass it computes.
    pass: Pass,
    /// Output rows per sample (`M/b`); 0 when the rows do not grow with
    /// the batch (the weight gradient, whose rows are filters).
    rows_per_sample: f64,
    /// Output rows that do not depend on the batch.
    fixed_rows: f64,
    /// Output columns `N`.
    columns: f64,
    /// Reduction items per sample the libraries split across the SMs
    /// (split-K of the weight gradient, which reduces over the batch and
    /// the positions); 0 for a GEMM that is not split.
    split_per_sample: f64,
    /// What a width, filter or channel cut divides: rows (positions),
    /// columns or neither, per cut.
    divides: [Side; 3],
}

/// Which side of a GEMM's output a cut divides.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Rows,
    Columns,
    Reduction,
}

/// What a kernel's numbers are: the item size, the arithmetic and the
/// layout of the activations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Numbers {
    /// `h`: bytes of an activation item.
    pub item_bytes: f64,
    /// The arithmetic.
    pub precision: Precision,
    /// The layout of the activations.
    pub format: MemoryFormat,
}

/// What a layer costs as kernels, per sample, before any batch or split.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerWork {
    kind: LayerKind,
    /// Forward FLOPs per sample.
    forward_flops: f64,
    /// Items of the input and output per sample, `|x| + |y|`.
    traffic_items: f64,
    /// Items of the input per sample, `|x|`.
    input_items: f64,
    /// Items of the output per sample, `|y|`.
    output_items: f64,
    /// Run inside a fused kernel: no kernel of its own.
    fused_away: bool,
    /// A product of a fused attention: at [`FUSED_ATTENTION_EFFICIENCY`].
    fused_product: bool,
    /// Under mixed precision, the widths of its tensors (FP32 or 16-bit).
    widths: Widths,
    /// Its input needs no gradient, which is not computed.
    input_only: bool,
    /// Weight items the kernels read, per use (a layer sharing another's
    /// weights reads all of them: section 10).
    weight_items: f64,
    /// The GEMMs of a step (forward, input gradient, weight gradient), or
    /// none for a layer bound by memory traffic.
    gemms: Vec<Gemm>,
    /// Groups of the GEMMs (a grouped convolution runs one per group).
    groups: f64,
    /// Input channels per group `C/g` (what the tensor cores pad).
    channels_per_group: f64,
    /// The class of a convolution's kernels; `None` for a fully connected
    /// layer (cuBLAS).
    class: Option<ConvClass>,
    /// Runs on the CUDA cores: a direct (depthwise) convolution.
    direct: bool,
    /// Its output has fewer positions than its input (a strided
    /// convolution or a pooling).
    strided: bool,
}

impl LayerWork {
    /// The work of `layer`; `input_only`: its input needs no gradient (the
    /// network's input, or what layers without weights made of it), which
    /// is not computed.
    ///
    /// # Formula
    /// conv: forward `M = b·P_y`, `N = F/g`; input gradient `M = b·P_x`,
    /// `N = C/g`; weight gradient `M = F/g`, `N = (C/g)·ΠK`, reduced over
    /// `b·P_y`. deconv: forward and input gradient swapped. fc: `P = 1`,
    /// its input gradient `N = C·ΠK` (every input feature); a linear layer
    /// at each position (kernel 1, section 15) `P` its positions. matmul (section
    /// 15), batched over the samples and the `g = h` heads: forward
    /// `M = b·P_y`, `N = F/h`; first operand's gradient `M = b·P_x`,
    /// `N = C/h`; other operand's gradient `M = b·C/h`, `N = F/h`; its
    /// traffic adds the other operand, `min(|x|, |y|)` items.
    /// Each GEMM has the forward FLOPs. `P` are positions (the product of
    /// the spatial sizes), `g` the groups.
    pub fn of(layer: &Layer, input_only: bool) -> Self {
        let kind = layer.kind();
        let groups = layer.groups() as f64;
        let c = layer.x().channels() as f64 / groups;
        let f = layer.y().channels() as f64 / groups;
        let kernel: f64 = layer.kernel().iter().map(|&k| k as f64).product();
        let positions = |dims: &[u64]| dims.iter().map(|&d| d as f64).product::<f64>();
        let (p_x, p_y) = (positions(layer.x().spatial()), positions(layer.y().spatial()));
        let gemm = |pass, rows: f64, fixed: f64, columns: f64, split: f64, divides| Gemm {
            pass,
            rows_per_sample: rows,
            fixed_rows: fixed,
            columns,
            split_per_sample: split,
            divides,
        };
        // [width, filters, channels]
        let forward = [Side::Rows, Side::Columns, Side::Reduction];
        let input_gradient = [Side::Rows, Side::Reduction, Side::Columns];
        let weight_gradient = [Side::Reduction, Side::Rows, Side::Columns];
        let (p_out, p_in) = match kind {
            LayerKind::Deconv => (p_x, p_y),
            // a linear layer at each position (a transformer's, section 15): a GEMM of
            // the positions' rows
            LayerKind::Fc if kernel <= 1.0 => (p_y, p_x),
            LayerKind::Fc => (1.0, 1.0),
            _ => (p_y, p_x),
        };
        let gemms = if layer.sums_over_positions() {
            // batched per sample and head (section 15), a sum over the positions (`Kᵀ·V`):
            // forward `M = C/h` rows, `N = F/C` columns, reduced over `P_x`; the gradient of
            // the first operand `[C/h, P_x]`; of the other `[P_x, F/C]`, reduced over `C/h`.
            // A width cut divides the positions, a filter or channel cut the heads.
            let n = layer.y().channels() as f64 / (layer.x().channels() as f64).max(1.0);
            vec![
                gemm(Pass::Forward, c, 0.0, n, 0.0, [Side::Reduction, Side::Rows, Side::Rows]),
                gemm(
                    Pass::InputGradient,
                    c,
                    0.0,
                    p_x,
                    0.0,
                    [Side::Columns, Side::Rows, Side::Rows],
                ),
                gemm(
                    Pass::WeightGradient,
                    p_x,
                    0.0,
                    n,
                    0.0,
                    [Side::Rows, Side::Rows, Side::Rows],
                ),
            ]
        } else if kind.is_product() {
            // batched per sample and head (section 15): forward `M = P_y`, `N = F/h`,
            // reduced over `C/h`; the gradient of the first operand `M = P_x`, `N = C/h`;
            // of the other operand (in the weight gradient's place) `M = C/h`, `N = F/h`,
            // reduced over the positions. A width cut divides the positions, a filter or
            // channel cut the heads.
            vec![
                gemm(Pass::Forward, p_y, 0.0, f, 0.0, [Side::Rows, Side::Rows, Side::Rows]),
                gemm(
                    Pass::InputGradient,
                    p_x,
                    0.0,
                    c,
                    0.0,
                    [Side::Rows, Side::Rows, Side::Rows],
                ),
                gemm(
                    Pass::WeightGradient,
                    c,
                    0.0,
                    f,
                    0.0,
                    [Side::Reduction, Side::Rows, Side::Rows],
                ),
            ]
        } else if kind.has_weights() {
            let mut gemms = vec![gemm(Pass::Forward, p_out, 0.0, f, 0.0, forward)];
            if !input_only {
                // a fully connected layer's input gradient has every input feature, C·ΠK
                let features = if kind == LayerKind::Fc { c * kernel.max(1.0) } else { c };
                gemms.push(gemm(Pass::InputGradient, p_in, 0.0, features, 0.0, input_gradient));
            }
            gemms.push(gemm(
                Pass::WeightGradient,
                0.0,
                f,
                c * kernel.max(1.0),
                p_out,
                weight_gradient,
            ));
            gemms
        } else {
            Vec::new()
        };
        let same_size = layer.x().spatial() == layer.y().spatial();
        let class = kind.is_conv().then(|| {
            if kernel <= 1.0 {
                ConvClass::Pointwise
            } else if layer.kernel() == [3, 3] && same_size && groups == 1.0 && kind == LayerKind::Conv {
                ConvClass::ThreeByThree
            } else if layer.kernel().len() == 3 {
                ConvClass::Volume
            } else {
                ConvClass::Spatial
            }
        });
        Self {
            kind,
            forward_flops: layer.forward_flops(),
            traffic_items: layer.x().items() + layer.y().items() + layer.other_operand_items(),
            input_items: layer.x().items(),
            output_items: layer.y().items(),
            fused_away: false,
            fused_product: false,
            widths: Widths::default(),
            input_only,
            weight_items: layer.weight_items(),
            gemms,
            groups,
            channels_per_group: c,
            class,
            direct: kind.is_conv() && (layer.x().channels() / layer.groups()) < DIRECT_BELOW_CHANNELS && groups > 1.0,
            strided: p_y < p_x,
        }
    }

    /// The work of an attention's layer as the fused kernel does it
    /// (section 15): the layers between the products run inside it (no
    /// kernel of their own), the scores never reach memory, and the
    /// backward pass computes the scores again.
    ///
    /// # Formula
    /// Inner layers (scale, mask, softmax, dropout): no work. Scores
    /// `Q·Kᵀ`: traffic `|Q| + |K|` (its output left out), and a fourth GEMM,
    /// the forward one again. Context `A·V`: traffic `|V| + |y|` (its
    /// input, the probabilities, left out).
    #[must_use]
    pub fn fused(mut self, role: Role) -> Self {
        match role {
            Role::Outside => {}
            Role::Inner => {
                self.gemms.clear();
                self.forward_flops = 0.0;
                self.traffic_items = 0.0;
                self.input_items = 0.0;
                self.fused_away = true;
            }
            Role::Scores { .. } => {
                self.fused_product = true;
                self.traffic_items -= self.output_items;
                if let Some(&forward) = self.gemms.first() {
                    self.gemms.push(forward);
                }
            }
            Role::Context { .. } => {
                self.fused_product = true;
                self.traffic_items -= self.input_items;
            }
        }
        self
    }

    /// The layer under mixed precision, with the widths autocast gives its
    /// tensors (section 11): a memory-bound layer that runs in FP32 reads
    /// its input and an FP32 output is written in 4 bytes an item; a layer
    /// whose input is not in the width it runs in reads a cast copy.
    ///
    /// # Formula
    /// Memory-bound traffic `r·|x| + w·|y|`, `r` and `w` 4 bytes when it
    /// runs in or writes FP32, else `h`; a cast of the input where its width
    /// is not the layer's: one kernel forward and one backward (none for the
    /// network's input, which has no gradient), each
    /// `max((4 + h)·b·|x|/(q·BW), o)`.
    #[must_use]
    pub fn with_widths(mut self, widths: Widths) -> Self {
        self.widths = widths;
        self
    }

    /// Whether a cast copy of its input is made (its input's width is not
    /// the one it runs in).
    fn casts(&self) -> bool {
        !self.fused_away && self.widths.input != self.widths.runs
    }

    /// Kernels a training step launches for this layer (in NCHW on tensor
    /// cores, a convolution's transposes too).
    ///
    /// # Formula
    /// conv, deconv, fc: one a GEMM (3; 2 for a layer that reads only the
    /// input), and two transposes a GEMM of a tensor-core convolution on
    /// NCHW activations; any other layer: 2 (forward and backward).
    pub fn kernels(&self, numbers: &Numbers, gpu: &GpuModel) -> usize {
        let casts = match (self.casts(), self.input_only) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => 2,
        };
        casts
            + if self.fused_away {
                0
            } else if self.gemms.is_empty() {
                2
            } else if self.transposes(numbers, gpu) {
                3 * self.gemms.len()
            } else {
                self.gemms.len()
            }
    }

    /// Whether the layer runs matrix multiplications on the tensor cores.
    pub fn is_gemm(&self) -> bool {
        !self.gemms.is_empty() && !self.direct
    }

    /// Whether its GEMMs run on the tensor cores in this precision.
    fn tensor(&self, precision: Precision, gpu: &GpuModel) -> bool {
        self.is_gemm() && gpu.has_tensor(precision)
    }

    /// Whether cuDNN transposes its tensors: a tensor-core convolution on
    /// NCHW activations.
    fn transposes(&self, numbers: &Numbers, gpu: &GpuModel) -> bool {
        self.class.is_some() && numbers.format == MemoryFormat::Nchw && self.tensor(numbers.precision, gpu)
    }

    /// Seconds of a training step of this layer for `samples` samples on
    /// one GPU, cut by `cut`.
    ///
    /// # Formula
    /// GEMM layers: `Σ_GEMMs max(2·M·N·K·g·π / (R_p·e·u), h·(b·(|x|+|y|) + |w|)/(q·BW), o)`
    /// with the tile utilization
    /// `u = N/(⌈N/t_n⌉·t_n) · min(1, g·(M/t_m)·⌈N/t_n⌉·s / SMs)` (the
    /// last output tile's padding and the first wave's fill; `t_m × t_n`
    /// = 128 × 128; `s = max(1, b·P_y/t_m)` chunks of the weight
    /// gradient's reduction split across the SMs, 1 for the other GEMMs),
    /// each GEMM holding the forward FLOPs `2·M·N·K·g`; `e` the class's
    /// efficiency ([`conv_efficiency`]; 1 for a fully connected layer);
    /// `π = ⌈(C/g)/m⌉·m/(C/g)` the tensor cores' padding of a
    /// convolution's channels (`m` 8 for FP16 and BF16, 4 for TF32; 1 on
    /// the FP32 units). A tensor-core convolution on NCHW activations adds,
    /// per GEMM, two transposes `max(2·h·b·|t|/(q·BW), o)` of its input and
    /// output `t` (`|x|` and `|y|`).
    /// A direct (depthwise) convolution runs at the FP32 rate with `u = 1`,
    /// its traffic at [`DEPTHWISE_BANDWIDTH_SHARE`] of `BW` divided by the
    /// pass's [`depthwise_slowdown`].
    /// Other layers: forward `max(fwd·b/(q·R_fp32), h·b·(|x|+|y|)/(q·BW), o)`
    /// and a backward of twice the traffic. `b` the samples, `q` the parts
    /// of the cut (dividing positions, filters or channels), `R_p` the
    /// GEMM rate of the precision, `BW` the STREAM bandwidth, `o` the
    /// per-kernel overhead.
    pub fn step_s(&self, samples: f64, cut: Cut, numbers: &Numbers, gpu: &GpuModel) -> f64 {
        self.time_s(samples, cut, numbers, gpu, false)
    }

    /// Seconds per sample of a training step at a batch so large that
    /// every GEMM fills the GPU and the per-kernel cost and the weights'
    /// traffic vanish per sample: what the time per sample tends to.
    ///
    /// # Formula
    /// [`LayerWork::step_s`] of one sample with `u` the tile padding
    /// alone, no per-kernel cost and no weight traffic.
    pub fn asymptotic_s(&self, numbers: &Numbers, gpu: &GpuModel) -> f64 {
        self.time_s(1.0, Cut::Whole, numbers, gpu, true)
    }

    /// Seconds of the GEMM of one `pass` of a training step for `samples`
    /// samples on one whole GPU, without the transposes of NCHW
    /// activations; `None` for a layer without that GEMM (a layer bound by
    /// memory traffic, or the input gradient of a layer that reads only the
    /// network's input). What DeepBench times per cuDNN call.
    ///
    /// # Formula
    /// The term of `pass` in [`LayerWork::step_s`]:
    /// `max(2·M·N·K·g·π / (R_p·e·u), h·(b·(|x|+|y|) + |w|)/BW, o)`.
    pub fn pass_s(&self, pass: Pass, samples: f64, numbers: &Numbers, gpu: &GpuModel) -> Option<f64> {
        let gemm = self.gemms.iter().find(|g| g.pass == pass)?;
        Some(self.gemm_s(gemm, samples, Cut::Whole, numbers, gpu, false))
    }

    /// One GEMM's seconds (see [`LayerWork::step_s`]), without transposes.
    fn gemm_s(&self, g: &Gemm, samples: f64, cut: Cut, numbers: &Numbers, gpu: &GpuModel, asymptotic: bool) -> f64 {
        let (h, precision) = (numbers.item_bytes, numbers.precision);
        let q = cut.parts();
        let overhead = overhead_s(gpu, asymptotic);
        let traffic = h * samples * self.traffic_items / q;
        let flops = self.forward_flops * samples / q;
        let weights = if asymptotic {
            0.0
        } else {
            h * self.weight_items / weights_divided(cut)
        };
        let bytes = traffic + weights;
        let tensor = self.tensor(precision, gpu);
        let (rate, bandwidth) = if self.direct {
            let slowdown = if self.channels_per_group <= 1.0 {
                depthwise_slowdown(g.pass, self.strided)
            } else {
                1.0
            };
            let share = DEPTHWISE_BANDWIDTH_SHARE / slowdown;
            (gpu.rate(Precision::Fp32), gpu.bandwidth * share)
        } else {
            (gpu.rate(precision), gpu.bandwidth)
        };
        let padding = if tensor && self.class.is_some() {
            let m = channel_multiple(precision);
            (self.channels_per_group / m).ceil() * m / self.channels_per_group.max(1.0)
        } else {
            1.0
        };
        let u = match (self.direct, asymptotic) {
            (true, _) => 1.0,
            (false, true) => padding_share(g.columns),
            (false, false) => self.utilization(g, samples, cut, gpu),
        };
        let e = match self.class {
            Some(class) if !self.direct => conv_efficiency(tensor, class, g.pass),
            _ if self.fused_product => FUSED_ATTENTION_EFFICIENCY,
            _ => 1.0,
        };
        (flops * padding / (rate * e * u)).max(bytes / bandwidth).max(overhead)
    }

    fn time_s(&self, samples: f64, cut: Cut, numbers: &Numbers, gpu: &GpuModel, asymptotic: bool) -> f64 {
        let h = numbers.item_bytes;
        let q = cut.parts();
        let overhead = overhead_s(gpu, asymptotic);
        let traffic = h * samples * self.traffic_items / q;
        if self.fused_away {
            return 0.0;
        }
        const WIDE: f64 = 4.0;
        // the input's cast forward, and its gradient's backward unless the input is the
        // network's (no gradient)
        let casts = if self.casts() {
            let passes = if self.input_only { 1.0 } else { 2.0 };
            passes * ((WIDE + h) * samples * self.input_items / q / gpu.bandwidth).max(overhead)
        } else {
            0.0
        };
        if self.gemms.is_empty() {
            let widened = |wide: bool, items: f64| if wide { (WIDE - h) * samples * items / q } else { 0.0 };
            let traffic =
                traffic + widened(self.widths.runs, self.input_items) + widened(self.widths.output, self.output_items);
            let fp32 = gpu.rate(Precision::Fp32);
            let forward = (self.forward_flops * samples / q / fp32).max(traffic / gpu.bandwidth);
            let backward = (2.0 * self.forward_flops * samples / q / fp32).max(2.0 * traffic / gpu.bandwidth);
            return casts + forward.max(overhead) + backward.max(overhead);
        }
        // a transpose of the input and of the output of each GEMM: each read and written once
        let transposes: f64 = if self.transposes(numbers, gpu) {
            let input = h * samples * self.input_items / q;
            [input, traffic - input]
                .iter()
                .map(|t| (2.0 * t / gpu.bandwidth).max(overhead))
                .sum()
        } else {
            0.0
        };
        casts
            + self
                .gemms
                .iter()
                .map(|g| self.gemm_s(g, samples, cut, numbers, gpu, asymptotic) + transposes)
                .sum::<f64>()
    }

    /// `u`: the share of the tiles' capacity a GEMM uses (see
    /// [`LayerWork::step_s`]); 1 without the GPU's kernel facts.
    fn utilization(&self, gemm: &Gemm, samples: f64, cut: Cut, gpu: &GpuModel) -> f64 {
        let (mut rows, mut columns) = (gemm.rows_per_sample * samples + gemm.fixed_rows, gemm.columns);
        let mut split = gemm.split_per_sample * samples;
        let side = match cut {
            Cut::Whole => None,
            Cut::Width(q) => Some((gemm.divides[0], q)),
            Cut::Filters(q) => Some((gemm.divides[1], q)),
            Cut::Channels(q) => Some((gemm.divides[2], q)),
        };
        match side {
            Some((Side::Rows, q)) => rows /= q,
            Some((Side::Columns, q)) => columns /= q,
            Some((Side::Reduction, q)) => split /= q,
            None => {}
        }
        let column_tiles = (columns / TILE_N).ceil().max(1.0);
        let chunks = (split / TILE_M).max(1.0);
        let tiles = self.groups * (rows / TILE_M) * column_tiles * chunks;
        let fill = gpu.facts.map_or(1.0, |facts| (tiles / facts.sms as f64).min(1.0));
        (padding_share(columns) * fill).max(f64::MIN_POSITIVE)
    }

    /// The kind of the layer.
    pub fn kind(&self) -> LayerKind {
        self.kind
    }
}

/// A kernel's fixed cost `o`: none for the asymptotic time per sample.
fn overhead_s(gpu: &GpuModel, asymptotic: bool) -> f64 {
    if asymptotic {
        0.0
    } else {
        gpu.facts.map_or(0.0, |k| k.kernel_overhead_s)
    }
}

/// The share of the last column tile's width a GEMM of `columns` uses.
///
/// # Formula
/// `N/(⌈N/t_n⌉·t_n)`.
fn padding_share(columns: f64) -> f64 {
    let tiles = (columns / TILE_N).ceil().max(1.0);
    (columns / (tiles * TILE_N)).max(f64::MIN_POSITIVE)
}

/// What a cut divides of the weights a kernel reads: filters and channels
/// split them, the width does not.
fn weights_divided(cut: Cut) -> f64 {
    match cut {
        Cut::Filters(q) | Cut::Channels(q) => q,
        _ => 1.0,
    }
}

/// The GPU a kernel runs on: its sustained rates and bandwidth, and the
/// kernel facts when given (without them: no tile utilization and no
/// per-kernel cost, the section 7 roofline per pass).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuModel {
    /// Sustained FLOP/s of FP32 and of the precisions given.
    rates: [f64; 4],
    /// Whether TF32, FP16 and BF16 run on tensor units (a rate of their
    /// own in the kernel facts).
    tensor: [bool; 3],
    /// Sustained memory bandwidth, bytes/s.
    pub bandwidth: f64,
    /// The kernel facts.
    pub facts: Option<KernelFacts>,
}

impl GpuModel {
    /// A GPU of given kernel facts; its memory bandwidth the facts'
    /// STREAM bandwidth, else `bandwidth`.
    pub fn of_facts(facts: KernelFacts, bandwidth: f64) -> Self {
        let r = facts.gemm_flops_per_s;
        Self {
            rates: [
                r.fp32,
                r.rate(Precision::Tf32),
                r.rate(Precision::Fp16),
                r.rate(Precision::Bf16),
            ],
            tensor: [
                r.by_precision.tf32.is_some(),
                r.by_precision.fp16.is_some(),
                r.by_precision.bf16.is_some(),
            ],
            bandwidth: facts.stream_bytes_per_s.unwrap_or(bandwidth),
            facts: Some(facts),
        }
    }

    /// A GPU known only by one sustained rate and its bandwidth (a
    /// profile's GPU): every precision at that rate, no tensor units, no
    /// tile utilization, no per-kernel cost.
    pub fn of_rate(flops_per_s: f64, bandwidth: f64) -> Self {
        Self {
            rates: [flops_per_s; 4],
            tensor: [false; 3],
            bandwidth,
            facts: None,
        }
    }

    /// Whether `other` is this GPU: the same SMs, and rates and bandwidth
    /// within 1% (a GPU given by its datasheet and its architecture's
    /// fractions is the table's GPU of that datasheet).
    pub fn same_as(&self, other: &GpuModel) -> bool {
        let near = |a: f64, b: f64| (a - b).abs() <= 0.01 * a.abs().max(b.abs());
        self.rates.iter().zip(&other.rates).all(|(a, b)| near(*a, *b))
            && near(self.bandwidth, other.bandwidth)
            && match (self.facts, other.facts) {
                (Some(a), Some(b)) => a.sms == b.sms,
                _ => true,
            }
    }

    /// The sustained GEMM rate of `precision`.
    pub fn rate(&self, precision: Precision) -> f64 {
        match precision {
            Precision::Fp32 => self.rates[0],
            Precision::Tf32 => self.rates[1],
            Precision::Fp16 => self.rates[2],
            Precision::Bf16 => self.rates[3],
        }
    }

    /// Whether `precision` runs on tensor units.
    pub fn has_tensor(&self, precision: Precision) -> bool {
        match precision {
            Precision::Fp32 => false,
            Precision::Tf32 => self.tensor[0],
            Precision::Fp16 => self.tensor[1],
            Precision::Bf16 => self.tensor[2],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::facts::{GemmRates, PrecisionRates};
    use crate::oracle::model::layer::LayerSpec;

    fn gpu(sms: u64, overhead: f64) -> GpuModel {
        GpuModel::of_facts(
            KernelFacts {
                sms,
                gemm_flops_per_s: GemmRates {
                    fp32: 10e12,
                    by_precision: PrecisionRates {
                        fp32: None,
                        tf32: None,
                        fp16: Some(100e12),
                        bf16: None,
                    },
                },
                kernel_overhead_s: overhead,
                stream_bytes_per_s: None,
            },
            1e12,
        )
    }

    fn fp16(format: MemoryFormat) -> Numbers {
        Numbers {
            item_bytes: 2.0,
            precision: Precision::Fp16,
            format,
        }
    }

    fn conv(c: u64, f: u64, k: u64, side: u64) -> Layer {
        Layer::new(LayerSpec::plain(
            "CONV",
            LayerKind::Conv,
            [c, side, side].into(),
            [c, f, k, k].into(),
            [f, side, side].into(),
        ))
        .unwrap()
    }

    #[test]
    fn a_full_gemm_runs_at_the_sustained_rate_by_hand() {
        // 256 -> 256 channels, 3x3 on 56x56: N = 256 fills 2 column tiles exactly, and 64 samples
        // make 64·3136/128 · 2 = 3136 tiles, far more than 100 SMs: u = 1
        let layer = conv(256, 256, 3, 56);
        let work = LayerWork::of(&layer, false);
        let fwd = layer.forward_flops() * 64.0;
        let g = gpu(100, 0.0);
        let bytes = 2.0 * (64.0 * (256.0 * 3136.0 * 2.0) + 256.0 * 256.0 * 9.0);
        // DeepBench's 3x3 tensor-core classes: 1.10, 1.165 and 1.28 times the GEMM's time
        let want: f64 = [1.10, 1.165, 1.28]
            .iter()
            .map(|m| (m * fwd / 100e12).max(bytes / 1e12))
            .sum();
        let got = work.step_s(64.0, Cut::Whole, &fp16(MemoryFormat::Nhwc), &g);
        assert!((got - want).abs() <= 1e-12 * want, "{got} against {want}");
        // on NCHW activations each GEMM adds a transpose of its input and of its output
        let transposes = 3.0 * 2.0 * 2.0 * (64.0 * 256.0 * 3136.0 * 2.0) / 1e12;
        let nchw = work.step_s(64.0, Cut::Whole, &fp16(MemoryFormat::Nchw), &g);
        assert!((nchw - want - transposes).abs() <= 1e-12 * nchw, "{nchw}");
    }

    #[test]
    fn narrow_layers_and_small_batches_waste_the_tiles_by_hand() {
        // 64 filters fill half a column tile: the forward GEMM runs at u = 1/2
        let layer = conv(64, 64, 3, 56);
        let work = LayerWork::of(&layer, false);
        let g = gpu(100, 0.0);
        let gemm = work.gemms[0];
        assert_eq!(work.utilization(&gemm, 64.0, Cut::Whole, &g), 0.5);
        // one sample: 3136/128 = 24.5 row tiles of one column tile, on 100 SMs
        assert_eq!(work.utilization(&gemm, 1.0, Cut::Whole, &g), 0.5 * 24.5 / 100.0);
        // a filter split in 4 leaves 16 of 128 columns
        assert_eq!(work.utilization(&gemm, 64.0, Cut::Filters(4.0), &g), 16.0 / 128.0);
        // a width split in 4 divides the rows
        assert_eq!(
            work.utilization(&gemm, 1.0, Cut::Width(4.0), &g),
            0.5 * 24.5 / 4.0 / 100.0
        );
    }

    #[test]
    fn the_first_layer_needs_no_input_gradient_and_kernels_cost_at_least_their_overhead() {
        let layer = conv(3, 64, 7, 112);
        let g = gpu(100, 1e-5);
        let fp32 = Numbers {
            item_bytes: 4.0,
            precision: Precision::Fp32,
            format: MemoryFormat::Nchw,
        };
        assert_eq!(LayerWork::of(&layer, true).kernels(&fp32, &g), 2);
        assert_eq!(LayerWork::of(&layer, false).kernels(&fp32, &g), 3);
        // on the tensor cores in NCHW, two transposes a GEMM
        assert_eq!(LayerWork::of(&layer, false).kernels(&fp16(MemoryFormat::Nchw), &g), 9);
        // a tiny layer: every kernel costs its overhead
        let tiny = conv(8, 8, 1, 1);
        let got = LayerWork::of(&tiny, false).step_s(1.0, Cut::Whole, &fp32, &g);
        assert!((got - 3e-5).abs() < 1e-18);
    }

    #[test]
    fn depthwise_convolutions_are_direct() {
        let mut spec = LayerSpec::plain(
            "DW",
            LayerKind::Conv,
            [32, 56, 56].into(),
            [32, 32, 3, 3].into(),
            [32, 56, 56].into(),
        );
        spec.groups = 32;
        let work = LayerWork::of(&Layer::new(spec).unwrap(), false);
        assert!(!work.is_gemm());
    }
}
