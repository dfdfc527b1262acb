//! The GPUs this tool knows, each with its datasheet and the measured
//! behaviour of its kernels (contract, section 11): its streaming
//! multiprocessors, dense peaks, memory, the sustained bandwidth a STREAM
//! kernel reaches and the fractions of its peaks that large matrix
//! multiplications reach. A cluster file names its GPU (`"gpu":
//! "A100-SXM4-80GB"`, or the string `nvidia-smi` or PyTorch prints) and
//! takes these facts; a GPU this tool does not know is given by its
//! datasheet (`"datasheet"`, [`Datasheet`]); a profile measured on a known
//! GPU is recorded with its facts.
//!
//! **Sources.** Every GPU's datasheet figures are a row of `gpus.csv`
//! beside this file, with the datasheet named (`table.rs` is made from it
//! by `scripts/devices_table.py`). A GPU measured itself (STREAM, large
//! GEMMs) keeps its own figures, named in its row's source; every other
//! GPU takes its architecture's measured fractions, or the nearest
//! measured architecture's ([`architecture`], which names each source).

use super::checks::{self, MAX_RATE, MIN_RATE};
use super::errors::{InputError, Rule};
use super::facts::{GemmRates, KernelFacts, PrecisionRates};
use super::field::Field;
use super::network::ProfiledGpu;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub mod architecture;
mod table;

pub use architecture::{Architecture, Basis, Quantity};
pub use table::DEVICES;

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

/// Dense peaks, FLOP/s (0: the GPU has none).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Peaks {
    /// FP32 on the FP32 units.
    pub fp32: f64,
    /// TF32 on tensor cores.
    pub tf32: f64,
    /// FP16 on tensor or matrix cores with FP32 accumulation (what mixed
    /// precision trains with; half the FP16-accumulation rate on GeForce
    /// cards); on a GPU without matrix units, the FP16 rate its FP32 units
    /// run.
    pub fp16: f64,
    /// BF16 with FP32 accumulation.
    pub bf16: f64,
}

/// What was measured on one GPU itself (left out: its architecture's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// STREAM (Triad) bandwidth, bytes/s.
    pub stream_bytes_per_s: Option<f64>,
    /// The fraction of the tensor-core peak a large matrix multiplication
    /// reaches.
    pub tensor_fraction: Option<f64>,
    /// The fraction of the FP32 peak a large FP32 one reaches.
    pub fp32_fraction: Option<f64>,
}

/// A GPU of the table: its datasheet and what was measured on it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// Its name in this tool (`A100-SXM4-80GB`, `RTX 3090`).
    pub name: &'static str,
    /// The word of its model in device names (`A100`, `4090`).
    pub model: &'static str,
    /// Further words that tell this variant from the model's others
    /// (`PCIE`, `40GB`); empty for the model's default variant.
    pub variant: &'static [&'static str],
    /// Its architecture.
    pub architecture: Architecture,
    /// Streaming multiprocessors (compute units on AMD).
    pub sms: u64,
    /// Memory, bytes.
    pub memory_bytes: f64,
    /// Dense peaks.
    pub peaks: Peaks,
    /// Datasheet memory bandwidth, bytes/s.
    pub memory_bandwidth_bytes_per_s: f64,
    /// Measured on this GPU.
    pub measured: Measured,
    /// The names `nvidia-smi`, PyTorch or ROCm print for it.
    pub device_strings: &'static [&'static str],
    /// Where every number comes from.
    pub source: &'static str,
    /// The vendor's rated board power (TDP, TBP, total graphics power;
    /// the maximum of a configurable range), watts.
    pub board_power_w: f64,
    /// Where the board power comes from.
    pub power_source: &'static str,
}

/// A GPU this tool does not know, as its datasheet gives it (a cluster's
/// `"datasheet"`): its measured behaviour is its architecture's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Datasheet {
    /// Its architecture (`ada`, `hopper`, `cdna3`...).
    pub architecture: Architecture,
    /// Streaming multiprocessors (compute units on AMD).
    pub sms: u64,
    /// Dense FP32 peak, FLOP/s.
    pub fp32_flops_per_s: f64,
    /// Dense TF32 tensor peak, FLOP/s (left out: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tf32_flops_per_s: Option<f64>,
    /// Dense FP16 tensor peak with FP32 accumulation, FLOP/s (left out:
    /// none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16_flops_per_s: Option<f64>,
    /// Dense BF16 tensor peak, FLOP/s (left out: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bf16_flops_per_s: Option<f64>,
    /// Memory, bytes.
    pub memory_bytes: f64,
    /// Datasheet memory bandwidth, bytes/s.
    pub memory_bandwidth_bytes_per_s: f64,
}

/// The most SMs a datasheet may give.
const MAX_SMS: u64 = 1 << 20;

impl Datasheet {
    /// Checks a datasheet: 1 to 2^20 SMs, peaks, memory and bandwidth
    /// between 1 and 1e30.
    ///
    /// # Errors
    /// An [`InputError`] naming the field under `datasheet`.
    pub fn check(&self) -> Result<(), InputError> {
        let field = |key: &'static str| Field::from("datasheet").key(key);
        checks::count(field("sms"), self.sms, 1, MAX_SMS)?;
        checks::within(field("fp32_flops_per_s"), self.fp32_flops_per_s, MIN_RATE, MAX_RATE)?;
        for (key, rate) in [
            ("tf32_flops_per_s", self.tf32_flops_per_s),
            ("fp16_flops_per_s", self.fp16_flops_per_s),
            ("bf16_flops_per_s", self.bf16_flops_per_s),
        ] {
            if let Some(rate) = rate {
                checks::within(field(key), rate, MIN_RATE, MAX_RATE)?;
            }
        }
        checks::within(field("memory_bytes"), self.memory_bytes, MIN_RATE, MAX_RATE)?;
        checks::within(
            field("memory_bandwidth_bytes_per_s"),
            self.memory_bandwidth_bytes_per_s,
            MIN_RATE,
            MAX_RATE,
        )?;
        Ok(())
    }

    /// The GPU it describes, named `name`.
    pub fn gpu(&self, name: &str) -> Gpu {
        let peaks = Peaks {
            fp32: self.fp32_flops_per_s,
            tf32: self.tf32_flops_per_s.unwrap_or(0.0),
            fp16: self.fp16_flops_per_s.unwrap_or(0.0),
            bf16: self.bf16_flops_per_s.unwrap_or(0.0),
        };
        let none = Measured {
            stream_bytes_per_s: None,
            tensor_fraction: None,
            fp32_fraction: None,
        };
        Gpu::of(
            Cow::Owned(name.to_string()),
            self.architecture,
            self.sms,
            self.memory_bytes,
            peaks,
            self.memory_bandwidth_bytes_per_s,
            none,
            Cow::Borrowed("the cluster's datasheet"),
        )
    }
}

/// A figure in force and where it comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    pub value: f64,
    /// Measured on the GPU, on its architecture, or borrowed.
    pub basis: Basis,
}

/// A GPU's facts in force: its datasheet, and its measured or its
/// architecture's fractions, each with its basis.
#[derive(Debug, Clone, PartialEq)]
pub struct Gpu {
    /// Its name.
    pub name: Cow<'static, str>,
    /// Its architecture.
    pub architecture: Architecture,
    /// Streaming multiprocessors.
    pub sms: u64,
    /// Memory, bytes.
    pub memory_bytes: f64,
    /// Dense peaks.
    pub peaks: Peaks,
    /// Datasheet memory bandwidth, bytes/s.
    pub memory_bandwidth_bytes_per_s: f64,
    /// STREAM bandwidth, bytes/s.
    pub stream_bytes_per_s: Figure,
    /// The fraction of the tensor peaks a large GEMM reaches.
    pub tensor_fraction: Figure,
    /// The fraction of the FP32 peak a large FP32 GEMM reaches.
    pub fp32_fraction: Figure,
    /// Where its datasheet comes from.
    pub source: Cow<'static, str>,
    /// Its rated board power, watts, and where it comes from (`None`: a
    /// GPU this tool does not know).
    pub board_power: Option<(f64, &'static str)>,
}

impl Gpu {
    #[allow(clippy::too_many_arguments)]
    fn of(
        name: Cow<'static, str>,
        architecture: Architecture,
        sms: u64,
        memory_bytes: f64,
        peaks: Peaks,
        memory_bandwidth_bytes_per_s: f64,
        measured: Measured,
        source: Cow<'static, str>,
    ) -> Self {
        let figure = |own: Option<f64>, quantity: Quantity| match own {
            Some(value) => Figure {
                value,
                basis: Basis::Device,
            },
            None => {
                let (value, basis) = architecture.fraction(quantity);
                Figure { value, basis }
            }
        };
        let stream = match measured.stream_bytes_per_s {
            Some(value) => Figure {
                value,
                basis: Basis::Device,
            },
            None => {
                let f = figure(None, Quantity::Stream);
                Figure {
                    value: f.value * memory_bandwidth_bytes_per_s,
                    basis: f.basis,
                }
            }
        };
        Self {
            name,
            architecture,
            sms,
            memory_bytes,
            peaks,
            memory_bandwidth_bytes_per_s,
            stream_bytes_per_s: stream,
            tensor_fraction: figure(measured.tensor_fraction, Quantity::Tensor),
            fp32_fraction: figure(measured.fp32_fraction, Quantity::Fp32),
            source,
            board_power: None,
        }
    }

    /// The same GPU with its rated board power and its source.
    fn with_board_power(self, watts: f64, source: &'static str) -> Self {
        Self {
            board_power: Some((watts, source)),
            ..self
        }
    }

    /// Its kernel facts: SMs, sustained GEMM rates (the measured
    /// fractions of its peaks), the per-kernel cost and its STREAM
    /// bandwidth.
    ///
    /// # Formula
    /// `R_fp32 = f_fp32·peak_fp32`; `R_p = f_tensor·peak_p` for TF32, FP16
    /// and BF16 where the GPU has matrix units and a peak for `p` (else
    /// `p` runs at `R_fp32`).
    pub fn kernels(&self) -> KernelFacts {
        let matrix = self.architecture.has_matrix_units();
        let tensor = |peak: f64| (matrix && peak > 0.0).then_some(peak * self.tensor_fraction.value);
        KernelFacts {
            sms: self.sms,
            gemm_flops_per_s: GemmRates {
                fp32: self.peaks.fp32 * self.fp32_fraction.value,
                by_precision: PrecisionRates {
                    fp32: None,
                    tf32: tensor(self.peaks.tf32),
                    fp16: tensor(self.peaks.fp16),
                    bf16: tensor(self.peaks.bf16),
                },
            },
            kernel_overhead_s: KERNEL_OVERHEAD_S,
            stream_bytes_per_s: Some(self.stream_bytes_per_s.value),
        }
    }

    /// Whether every figure in force was measured on its own architecture
    /// (not borrowed from another).
    pub fn measured_on_its_architecture(&self) -> bool {
        [self.stream_bytes_per_s, self.tensor_fraction, self.fp32_fraction]
            .iter()
            .all(|f| f.basis.is_measured())
    }

    /// What its kernel facts rest on, for people: each figure borrowed
    /// from another architecture, named.
    pub fn borrowed(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (what, figure) in [
            ("STREAM bandwidth", self.stream_bytes_per_s),
            ("tensor GEMM fraction", self.tensor_fraction),
            ("FP32 GEMM fraction", self.fp32_fraction),
        ] {
            if let Basis::Borrowed(from) = figure.basis {
                out.push(format!(
                    "{what} of {} (no {} GPU measured)",
                    from.label(),
                    self.architecture.label()
                ));
            }
        }
        out
    }
}

impl Device {
    /// Its facts in force.
    pub fn gpu(&self) -> Gpu {
        Gpu::of(
            Cow::Borrowed(self.name),
            self.architecture,
            self.sms,
            self.memory_bytes,
            self.peaks,
            self.memory_bandwidth_bytes_per_s,
            self.measured,
            Cow::Borrowed(self.source),
        )
        .with_board_power(self.board_power_w, self.power_source)
    }

    /// Its kernel facts (see [`Gpu::kernels`]).
    pub fn kernels(&self) -> KernelFacts {
        self.gpu().kernels()
    }
}

/// The words of a device name: split at spaces, dashes, underscores,
/// slashes and commas, upper case, a leading `NVIDIA`/`AMD` glued to the
/// model (`NVIDIA_H100`) taken apart by the split.
fn words(name: &str) -> Vec<String> {
    name.split([' ', '-', '_', '/', ',', '(', ')'])
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect()
}

/// The device a name stands for: one whose model is a word of the name,
/// the variant with the most of its words in the name (a variant whose
/// words are not all there does not match; the model's default variant
/// matches with none), and whose SMs, when given, are the device's. When
/// SMs are given and no variant matches all its words (two products that
/// print the same name: an RTX 3080 of 10 or 12 GB), the one of those SMs
/// with the most of its words.
///
/// `NVIDIA A100-SXM4-40GB` is the A100 SXM4 40 GB, `NVIDIA GeForce RTX
/// 3090` the RTX 3090, `NVIDIA H100 PCIe` with 114 SMs the H100 PCIe; a
/// model's word inside another word (`H1000`) is not the model.
pub fn device(name: &str, sms: Option<u64>) -> Option<&'static Device> {
    let words = words(name);
    let has = |w: &str| words.iter().any(|x| x == w);
    // with their places in the table: among equals, the earlier (a model's default variant)
    let candidates = || {
        DEVICES
            .iter()
            .enumerate()
            .filter(|(_, d)| has(d.model) && sms.is_none_or(|s| s == d.sms))
    };
    let full = candidates()
        .filter(|(_, d)| d.variant.iter().all(|v| has(v)))
        .max_by_key(|(i, d)| (d.variant.len(), std::cmp::Reverse(*i)));
    full.or_else(|| {
        sms.and(candidates().max_by_key(|(i, d)| (d.variant.iter().filter(|v| has(v)).count(), std::cmp::Reverse(*i))))
    })
    .map(|(_, d)| d)
}

/// The known devices whose names are nearest `name`: those sharing a word
/// with it, else none (for a message that suggests).
pub fn nearest(name: &str) -> Vec<&'static str> {
    let words = words(name);
    let mut scored: Vec<(usize, &'static str)> = DEVICES
        .iter()
        .map(|d| {
            let theirs = self::words(d.name);
            (
                words.iter().filter(|w| w.len() > 1 && theirs.contains(w)).count(),
                d.name,
            )
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    scored.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    scored.into_iter().take(5).map(|(_, n)| n).collect()
}

/// The error for a GPU name this tool does not know.
pub fn unknown(name: &str) -> InputError {
    let near = nearest(name);
    let nearest = if near.is_empty() {
        String::new()
    } else {
        format!(" (nearest: {})", near.join(", "))
    };
    InputError::new("gpu", Rule::UnknownGpu { nearest })
}

/// The known GPU a profile's device is, with its facts, or `None` (a CPU,
/// or a GPU this tool does not know).
pub fn known_gpu(device_name: &str, sms: Option<u64>) -> Option<ProfiledGpu> {
    let d = device(device_name, sms)?.gpu();
    let kernels = d.kernels();
    Some(ProfiledGpu {
        name: device_name.trim().to_string(),
        flops_per_s: d.peaks.fp32 * SUSTAINED,
        memory_bandwidth_bytes_per_s: Some(d.stream_bytes_per_s.value),
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
        assert_eq!(name("NVIDIA H100 NVL", None), Some("H100 NVL"));
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
        assert_eq!(name("NVIDIA GH200 480GB", None), Some("GH200 96GB HBM3"));
        assert_eq!(
            name("NVIDIA RTX 6000 Ada Generation", None),
            Some("RTX 6000 Ada Generation")
        );
        assert_eq!(name("Quadro RTX 6000", None), Some("Quadro RTX 6000"));
        assert_eq!(
            name("NVIDIA RTX PRO 6000 Blackwell Server Edition", None),
            Some("RTX PRO 6000 Blackwell Server Edition")
        );
        assert_eq!(
            name("NVIDIA GeForce RTX 4090 Laptop GPU", None),
            Some("GeForce RTX 4090 Laptop GPU")
        );
        assert_eq!(
            name("NVIDIA GeForce RTX 4070 Ti SUPER", None),
            Some("GeForce RTX 4070 Ti SUPER")
        );
        assert_eq!(name("NVIDIA TITAN Xp", None), Some("NVIDIA TITAN Xp"));
        assert_eq!(name("TITAN X (Pascal)", None), Some("NVIDIA TITAN X (Pascal)"));
        assert_eq!(name("AMD Radeon RX 7900 XTX", None), Some("AMD Radeon RX 7900 XTX"));
        assert_eq!(name("AMD Radeon RX 7900 XT", None), Some("AMD Radeon RX 7900 XT"));
        // underscores and suffixes, as job schedulers and MIG print them
        assert_eq!(name("NVIDIA_H100_80GB_HBM3", None), Some("H100-SXM5-80GB"));
        assert_eq!(name("NVIDIA A100-SXM4-80GB MIG 7g.80gb", None), Some("A100-SXM4-80GB"));
        // two products of one printed name, told apart by their SMs
        assert_eq!(
            name("NVIDIA GeForce RTX 3080", Some(70)),
            Some("GeForce RTX 3080 (12 GB)")
        );
        assert_eq!(name("NVIDIA GeForce RTX 3080", None), Some("GeForce RTX 3080 (10 GB)"));
        assert_eq!(
            name("AMD Instinct MI250X / MI250", Some(208)),
            Some("AMD Instinct MI250")
        );
        // every device is found by its own name and by each string it prints
        for d in &DEVICES {
            assert_eq!(name(d.name, Some(d.sms)), Some(d.name));
            for s in d.device_strings {
                assert_eq!(name(s, Some(d.sms)), Some(d.name), "{s}");
            }
        }
    }

    #[test]
    fn other_devices_are_not() {
        // an H100 of 130 SMs is none of these
        assert_eq!(device("NVIDIA H100", Some(130)), None);
        assert_eq!(device("x86_64", None), None);
        assert_eq!(device("NVIDIA GeForce RTX 6090", None), None);
        // a model's word inside another word is not the model
        assert_eq!(device("NVIDIA H1000", None), None);
        assert!(known_gpu("Intel Xeon", None).is_none());
        let err = unknown("NVIDIA GeForce RTX 6090").to_string();
        assert!(err.starts_with("gpu: is not a GPU this tool knows (nearest: "), "{err}");
        assert!(err.contains("datasheet"), "{err}");
    }

    #[test]
    fn kernel_facts_are_the_measured_fractions_of_the_peaks() {
        let a100 = device("A100", None).unwrap().kernels();
        assert_eq!(a100.sms, 108);
        assert!((a100.gemm_flops_per_s.by_precision.bf16.unwrap() - 0.869 * 312e12).abs() < 1.0);
        assert!((a100.gemm_flops_per_s.fp32 - 0.85 * 19.5e12).abs() < 1.0);
        // V100 has no TF32 or BF16 units: those run at FP32
        let v100 = device("V100", None).unwrap().kernels();
        assert_eq!(v100.gemm_flops_per_s.by_precision.tf32, None);
        assert_eq!(v100.gemm_flops_per_s.by_precision.bf16, None);
        // a Pascal GPU has no tensor cores: FP16 runs at the FP32 rate
        let p100 = device("Tesla P100-SXM2-16GB", None).unwrap().kernels();
        assert_eq!(p100.gemm_flops_per_s.by_precision.fp16, None);
        // H100 and B200 differ from A100 by their own measurements, not by ratio of peaks
        let h100 = device("H100", None).unwrap().gpu();
        let b200 = device("B200", None).unwrap().gpu();
        assert_ne!(h100.tensor_fraction, b200.tensor_fraction);
        assert_eq!(h100.tensor_fraction.basis, Basis::Device);
        // a GPU not measured itself takes its architecture's, said so
        let l4 = device("NVIDIA L4", None).unwrap().gpu();
        assert_eq!(l4.stream_bytes_per_s.value, 0.891 * 300e9);
        assert!(matches!(l4.tensor_fraction.basis, Basis::Architecture(_)));
        assert!(l4.measured_on_its_architecture());
        let b300 = device("NVIDIA B300 SXM6 AC", None).unwrap().gpu();
        assert_eq!(b300.stream_bytes_per_s.basis, Basis::Borrowed(Architecture::Hopper));
        assert!(!b300.measured_on_its_architecture());
        assert!(b300.borrowed()[0].contains("NVIDIA Hopper"), "{:?}", b300.borrowed());
        for d in &DEVICES {
            let g = d.gpu();
            assert!(
                g.stream_bytes_per_s.value < d.memory_bandwidth_bytes_per_s,
                "{}",
                d.name
            );
            assert!(
                g.tensor_fraction.value > 0.0 && g.tensor_fraction.value < 1.1,
                "{}",
                d.name
            );
            assert!(g.fp32_fraction.value > 0.0 && g.fp32_fraction.value < 1.1, "{}", d.name);
            assert!(d.peaks.fp32 > 0.0 && d.memory_bytes > 1e9 && d.sms > 0, "{}", d.name);
            // a tensor peak is at least the FP32 one where the GPU has matrix units
            if d.architecture.has_matrix_units() && d.peaks.fp16 > 0.0 {
                assert!(d.peaks.fp16 >= d.peaks.fp32, "{}", d.name);
            }
            assert!(!d.source.is_empty());
        }
    }

    #[test]
    fn a_datasheet_takes_its_architectures_fractions() {
        let sheet = Datasheet {
            architecture: Architecture::Ada,
            sms: 76,
            fp32_flops_per_s: 48.7e12,
            tf32_flops_per_s: Some(48.7e12),
            fp16_flops_per_s: Some(97.5e12),
            bf16_flops_per_s: Some(97.5e12),
            memory_bytes: 16e9,
            memory_bandwidth_bytes_per_s: 716.8e9,
        };
        sheet.check().unwrap();
        let gpu = sheet.gpu("my card");
        let k = gpu.kernels();
        assert_eq!(k.sms, 76);
        assert!((k.gemm_flops_per_s.by_precision.fp16.unwrap() - 1.016 * 97.5e12).abs() < 1.0);
        assert!((k.stream_bytes_per_s.unwrap() - 0.891 * 716.8e9).abs() < 1.0);
        // the same as the table's RTX 4080, which is this card
        let table = device("NVIDIA GeForce RTX 4080", None).unwrap().kernels();
        assert_eq!(table.gemm_flops_per_s, k.gemm_flops_per_s);
        let mut bad = sheet;
        bad.sms = 0;
        assert_eq!(bad.check().unwrap_err().field, "datasheet.sms");
        let json = r#"{"architecture": "ada", "sms": 76, "fp32_flops_per_s": 1e13, "memory_bytes": 1e10, "memory_bandwidth_bytes_per_s": 1e11, "tensor": 1}"#;
        assert!(
            serde_json::from_str::<Datasheet>(json)
                .unwrap_err()
                .to_string()
                .contains("unknown field")
        );
    }

    #[test]
    fn the_table_is_the_csv() {
        // scripts/devices_table.py writes the table from the CSV: they agree
        let text = include_str!("gpus.csv");
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let rows: Vec<&str> = lines.collect();
        assert_eq!(rows.len(), DEVICES.len());
        let name = header.iter().position(|h| *h == "name").unwrap();
        for (row, d) in rows.iter().zip(&DEVICES) {
            // the name is the first field, unquoted in every row
            assert_eq!(row.split(',').nth(name).unwrap(), d.name);
        }
    }
}
