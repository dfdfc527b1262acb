//! GPU architectures and what their kernels reach of a datasheet's peaks,
//! measured (contract, section 11): the fraction of the dense tensor-core
//! peak a large matrix multiplication sustains, the fraction of the FP32
//! peak a large FP32 one sustains, and the fraction of the datasheet memory
//! bandwidth a STREAM kernel reaches. A GPU measured itself keeps its own
//! figures (`gpus.csv`); every other GPU takes its architecture's, and an
//! architecture with no measurement of a quantity takes the nearest
//! measured architecture's, said so ([`Basis::Borrowed`]).
//!
//! Each measured figure is the median of the GPUs of the architecture that
//! were measured (their rows and sources are in `gpus.csv`), or the one
//! source named.

use super::super::names::named_enum;

named_enum! {
    /// A GPU architecture (a generation of streaming multiprocessors or
    /// compute units and their matrix units).
    pub enum Architecture {
        /// NVIDIA Pascal (GP100, GP10x): no tensor cores.
        Pascal => ("pascal", "NVIDIA Pascal"),
        /// NVIDIA Volta (GV100): first tensor cores, FP16 only.
        Volta => ("volta", "NVIDIA Volta"),
        /// NVIDIA Turing (TU10x): FP16 tensor cores.
        Turing => ("turing", "NVIDIA Turing"),
        /// NVIDIA Ampere GA100 (A100, A30): TF32 and BF16 tensor cores.
        AmpereGa100 => ("ampere_ga100", "NVIDIA Ampere GA100"),
        /// NVIDIA Ampere GA10x (GeForce 30, RTX A, A10, A40).
        AmpereGa10x => ("ampere_ga10x", "NVIDIA Ampere GA10x"),
        /// NVIDIA Ada Lovelace (GeForce 40, RTX Ada, L4, L40).
        Ada => ("ada", "NVIDIA Ada Lovelace"),
        /// NVIDIA Hopper (H100, H200, GH200).
        Hopper => ("hopper", "NVIDIA Hopper"),
        /// NVIDIA Blackwell data-centre (B100, B200, B300, GB200, GB300).
        Blackwell => ("blackwell", "NVIDIA Blackwell (data centre)"),
        /// NVIDIA Blackwell GB20x (GeForce 50, RTX PRO Blackwell).
        BlackwellGb20x => ("blackwell_gb20x", "NVIDIA Blackwell GB20x"),
        /// AMD GCN 5 (Vega 20: MI50, MI60, Radeon VII): no matrix units.
        Gcn5 => ("gcn5", "AMD GCN 5"),
        /// AMD CDNA (MI100).
        Cdna1 => ("cdna1", "AMD CDNA"),
        /// AMD CDNA 2 (MI210, MI250, MI250X).
        Cdna2 => ("cdna2", "AMD CDNA 2"),
        /// AMD CDNA 3 (MI300A, MI300X, MI325X).
        Cdna3 => ("cdna3", "AMD CDNA 3"),
        /// AMD CDNA 4 (MI350X, MI355X).
        Cdna4 => ("cdna4", "AMD CDNA 4"),
        /// AMD RDNA 2 (Radeon RX 6000): no matrix units.
        Rdna2 => ("rdna2", "AMD RDNA 2"),
        /// AMD RDNA 3 (Radeon RX 7000, PRO W7000).
        Rdna3 => ("rdna3", "AMD RDNA 3"),
        /// AMD RDNA 4 (Radeon RX 9000).
        Rdna4 => ("rdna4", "AMD RDNA 4"),
    }
}

/// One of the measured quantities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A large tensor-core matrix multiplication, of the dense FP16/BF16
    /// (FP32 accumulation) peak; applied to TF32's too.
    Tensor,
    /// A large FP32 matrix multiplication, of the FP32 peak.
    Fp32,
    /// A STREAM (Triad) kernel, of the datasheet memory bandwidth.
    Stream,
}

/// Where a figure comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Basis {
    /// Measured on this GPU (its row of `gpus.csv`).
    Device,
    /// Measured on GPUs of its architecture: the source.
    Architecture(&'static str),
    /// No GPU of its architecture was measured: another architecture's
    /// measured figure, taken as the nearest.
    Borrowed(Architecture),
}

impl Basis {
    /// Whether the figure was measured on the GPU's own architecture.
    pub fn is_measured(self) -> bool {
        !matches!(self, Self::Borrowed(_))
    }
}

/// A measured fraction of an architecture, or where to borrow one.
#[derive(Debug, Clone, Copy)]
enum Fact {
    Measured(f64, &'static str),
    From(Architecture),
}

use Architecture as A;
use Fact::{From, Measured};

impl Architecture {
    /// The architecture's own fact for `quantity`.
    fn fact(self, quantity: Quantity) -> Fact {
        match (self, quantity) {
            // TITAN Xp, BabelStream (UoB-HPC/BabelStream@57637d5, results/v3.3/titanxp/cuda.txt:14): 436.5 of 547.7 GB/s
            (A::Pascal, Quantity::Stream) => Measured(0.797, "TITAN Xp, BabelStream Triad"),
            // P100 0.981, GTX 1080 Ti 1.069 (above its rated boost), TITAN Xp 0.935: DeepBench's largest FP32 GEMMs
            (A::Pascal, Quantity::Fp32) => {
                Measured(0.981, "median of P100, GTX 1080 Ti and TITAN Xp, DeepBench FP32 GEMMs")
            }
            // Pascal has no tensor cores: FP16 runs on the FP32 units' rate (or GP100's packed FP16)
            (A::Pascal, Quantity::Tensor) => From(A::Pascal),
            (A::Volta, Quantity::Stream) => Measured(0.930, "V100 SXM2, BabelStream Triad 836.9 of 900 GB/s"),
            (A::Volta, Quantity::Fp32) => Measured(
                0.85,
                "V100 SXM2, median of DeepBench's 58 GEMMs of min(M, N, K) >= 1024",
            ),
            (A::Volta, Quantity::Tensor) => Measured(
                0.80,
                "V100 SXM2, median of DeepBench's 58 FP16 GEMMs of min(M, N, K) >= 1024",
            ),
            // the only Turing GPU measured is the T4, a 70 W card held below its
            // boost clock: full-power Turing cards take Volta's (the same
            // generation of SMs and tensor cores)
            (A::Turing, _) => From(A::Volta),
            (A::AmpereGa100, Quantity::Stream) => Measured(
                0.863,
                "median of A100 SXM4 80 GB (Azure, 0.834), A100 40 GB (BabelStream, 0.899) and A100 80 GB (gpu-stream, 0.863)",
            ),
            (A::AmpereGa100, Quantity::Tensor) => Measured(
                0.840,
                "median of A100 SXM (0.869) and PCIe (0.811) maximum achievable BF16 matmuls (stas00/ml-engineering) and Azure's FP16 cuBLASLt GEMM (0.822)",
            ),
            (A::AmpereGa100, Quantity::Fp32) => From(A::Volta),
            (A::AmpereGa10x, Quantity::Stream) => {
                Measured(0.937, "A40, gpu-stream 652 of 696 GB/s (te42kyfo/gpu-benches)")
            }
            (A::AmpereGa10x, Quantity::Tensor) => Measured(
                0.920,
                "median of RTX 3090 (1.062: GeForce cards boost above their rated clock) and RTX A6000 (0.778) torch.matmul FP16 with FP32 accumulation (zzc0721/torch-performance-test-data database.md)",
            ),
            (A::AmpereGa10x, Quantity::Fp32) => Measured(
                0.657,
                "median of RTX 3090 (0.696) and RTX A6000 (0.618) FP32 torch.matmul, of the dual-issue FP32 peak (zzc0721/torch-performance-test-data)",
            ),
            (A::Ada, Quantity::Stream) => Measured(0.891, "L40, gpu-stream 770 of 864 GB/s (te42kyfo/gpu-benches)"),
            (A::Ada, Quantity::Tensor) => Measured(
                1.016,
                "RTX 4090, median of five cards' torch.matmul FP16 with FP32 accumulation, 165-171 TFLOP/s (zzc0721/torch-performance-test-data)",
            ),
            (A::Ada, Quantity::Fp32) => Measured(
                0.662,
                "RTX 4090, median of five cards' FP32 torch.matmul, 54.7 of 82.6 TFLOP/s",
            ),
            (A::Hopper, Quantity::Stream) => Measured(
                0.859,
                "median of H100 SXM (0.887), H100 PCIe (0.852), H200 (0.865) and GH200 (0.829) STREAM Triads",
            ),
            (A::Hopper, Quantity::Tensor) => Measured(
                0.803,
                "median of H100 SXM (0.803) and GH200 (0.838) BF16 and H100 SXM FP16 cuBLAS (0.770) matmuls",
            ),
            (A::Hopper, Quantity::Fp32) => Measured(
                0.706,
                "H100 SXM cuBLAS SGEMM at 8192^3, 47.33 of 67 TFLOP/s (waynehacking8/blackwell-tensorcore-kernels results/bench.csv:104)",
            ),
            (A::Blackwell, Quantity::Tensor) => Measured(
                0.776,
                "median of B200 (0.776), B300 (0.786) and GB200 (0.729) maximum achievable BF16 matmuls (stas00/ml-engineering)",
            ),
            (A::Blackwell, _) => From(A::Hopper),
            (A::BlackwellGb20x, Quantity::Tensor) => Measured(
                0.512,
                "RTX PRO 6000 Blackwell Max-Q, cuBLAS FP16 with FP32 accumulation at 8192^3, 225.75 TFLOP/s",
            ),
            (A::BlackwellGb20x, Quantity::Fp32) => Measured(
                0.492,
                "RTX PRO 6000 Blackwell Max-Q, cuBLAS SGEMM at 8192^3, 54.16 TFLOP/s",
            ),
            (A::BlackwellGb20x, Quantity::Stream) => From(A::Ada),
            (A::Gcn5, _) => From(A::Cdna1),
            (A::Cdna1, Quantity::Stream) => {
                Measured(0.841, "MI100, gpu-stream 1034 of 1228.8 GB/s (te42kyfo/gpu-benches)")
            }
            (A::Cdna1, _) => From(A::Cdna3),
            (A::Cdna2, Quantity::Stream) => {
                Measured(0.797, "MI210, gpu-stream 1305 of 1638.4 GB/s (te42kyfo/gpu-benches)")
            }
            (A::Cdna2, _) => From(A::Cdna3),
            (A::Cdna3, Quantity::Stream) => Measured(
                0.745,
                "MI300X, BabelStream Triad 3948.1 of 5300 GB/s (ROCm/system-acceptance-docs)",
            ),
            (A::Cdna3, Quantity::Tensor) => Measured(
                0.559,
                "median of MI300X (0.514) and MI325X (0.604) maximum achievable BF16 matmuls (stas00/ml-engineering)",
            ),
            (A::Cdna3, Quantity::Fp32) => Measured(
                0.514,
                "MI300X: its BF16 matmul fraction, applied to FP32 (no FP32 GEMM of it was published)",
            ),
            (A::Cdna4, Quantity::Tensor) => Measured(
                0.680,
                "MI355X maximum achievable BF16 matmul, 1565 TFLOP/s (stas00/ml-engineering)",
            ),
            (A::Cdna4, _) => From(A::Cdna3),
            (A::Rdna2, Quantity::Stream) => {
                Measured(0.848, "RX 6900 XT, gpu-stream 434 of 512 GB/s (te42kyfo/gpu-benches)")
            }
            (A::Rdna2, _) => From(A::Cdna1),
            (A::Rdna3 | A::Rdna4, _) => From(A::Rdna2),
        }
    }

    /// Whether it has matrix units (tensor cores, matrix or WMMA cores)
    /// that run FP16 and BF16 faster than its FP32 units.
    pub fn has_matrix_units(self) -> bool {
        !matches!(self, A::Pascal | A::Gcn5 | A::Rdna2)
    }

    /// The fraction of the peak (or of the datasheet bandwidth) that
    /// `quantity` reaches on this architecture, and its basis.
    ///
    /// # Formula
    /// The architecture's own measurement, else that of the architecture
    /// it borrows from (followed until one is measured); Pascal's tensor
    /// fraction is its FP32 one (it has no tensor cores).
    pub fn fraction(self, quantity: Quantity) -> (f64, Basis) {
        let mut arch = self;
        // the chains are short and end in a measurement (tested)
        for _ in 0..Architecture::ALL.len() {
            match arch.fact(quantity) {
                Measured(value, source) if arch == self => return (value, Basis::Architecture(source)),
                Measured(value, _) => return (value, Basis::Borrowed(arch)),
                From(next) if next == arch => return arch.fraction(Quantity::Fp32),
                From(next) => arch = next,
            }
        }
        (FALLBACK_FRACTION, Basis::Borrowed(arch))
    }
}

/// Never reached (every chain ends in a measurement: tested); the V100's
/// FP32 fraction, were it to be.
const FALLBACK_FRACTION: f64 = 0.85;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chain_ends_in_a_measurement() {
        for arch in Architecture::ALL {
            for q in [Quantity::Tensor, Quantity::Fp32, Quantity::Stream] {
                let (value, basis) = arch.fraction(q);
                assert!(value > 0.3 && value < 1.1, "{arch} {q:?} {value}");
                // a borrowed figure names a measured architecture
                if let Basis::Borrowed(from) = basis {
                    assert!(matches!(from.fraction(q).1, Basis::Architecture(_)) || q == Quantity::Tensor);
                }
            }
        }
        assert_eq!(
            Architecture::Turing.fraction(Quantity::Tensor),
            (0.80, Basis::Borrowed(Architecture::Volta))
        );
        assert!(Architecture::Hopper.fraction(Quantity::Stream).1.is_measured());
        assert!(!Architecture::Blackwell.fraction(Quantity::Stream).1.is_measured());
    }

    #[test]
    fn names_round_trip_in_json() {
        for arch in Architecture::ALL {
            let json = serde_json::to_string(&arch).unwrap();
            assert_eq!(serde_json::from_str::<Architecture>(&json).unwrap(), arch);
        }
        assert!(serde_json::from_str::<Architecture>("\"kepler\"").is_err());
    }
}
