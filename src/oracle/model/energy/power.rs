//! A GPU's board power while it trains and while it waits, as fractions
//! of its rated board power, by architecture: published measurements
//! (contract, section 14).

use crate::oracle::model::devices::Architecture;

/// A fraction of the rated board power, with where it comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fraction {
    /// Of the rated board power.
    pub fraction: f64,
    /// Where it comes from.
    pub source: &'static str,
}

/// The Zeus traces (ml-energy/zeus @75a8b93,
/// `examples/research_reproducibility/zeus_nsdi23/trace/summary_power_*.csv`):
/// NVML board power of one GPU training ResNet-50 on ImageNet with PyTorch,
/// at the default (highest) power limit, the median over batch sizes 8 to
/// 512.
const ZEUS: &str = "Zeus (You, Chung, Chowdhury, NSDI 2023) traces, ml-energy/zeus@75a8b93: NVML board power training ResNet-50 on ImageNet, one GPU, default power limit, median over batch sizes";

/// Measured while training: `(architecture, fraction, what)`.
const TRAINING: [(Architecture, f64, &str); 4] = [
    // P100 PCIe: 152 to 165 W of 250 W, median 159 W
    (Architecture::Pascal, 159.0 / 250.0, "P100 PCIe: 159 W of 250 W"),
    // V100 PCIe: 218 to 227 W of 250 W, median 222 W
    (Architecture::Volta, 222.0 / 250.0, "V100 PCIe: 222 W of 250 W"),
    // Quadro RTX 6000: 230 to 237 W of 260 W, median 232 W
    (Architecture::Turing, 232.0 / 260.0, "Quadro RTX 6000: 232 W of 260 W"),
    // A40 (GA102): 231 to 249 W of 300 W, median 241 W
    (Architecture::AmpereGa10x, 241.0 / 300.0, "A40: 241 W of 300 W"),
];

/// Measured idle (`nvidia-smi` with no process, P0): `(architecture,
/// fraction, what)`; several GPUs of one architecture averaged.
const IDLE: [(Architecture, f64, &str); 4] = [
    // V100-SXM2-16GB 40.96 W of 300 W; V100-PCIE-16GB 24.07 W of 250 W
    (
        Architecture::Volta,
        (40.96 / 300.0 + 24.07 / 250.0) / 2.0,
        "V100-SXM2 40.96 W of 300 W, V100-PCIe 24.07 W of 250 W",
    ),
    // A100-SXM4-80GB 59.77 W on a 500 W board
    (
        Architecture::AmpereGa100,
        59.77 / 500.0,
        "A100-SXM4-80GB 59.77 W of 500 W",
    ),
    // H100 SXM 71.5 W, H200 74.58 W, both of 700 W
    (
        Architecture::Hopper,
        (71.5 / 700.0 + 74.58 / 700.0) / 2.0,
        "H100 SXM 71.5 W, H200 74.58 W, of 700 W",
    ),
    // RTX 6000 Ada 18 to 24 W of 300 W (it drops to P8)
    (Architecture::Ada, 21.0 / 300.0, "RTX 6000 Ada 18 to 24 W of 300 W"),
];

const IDLE_SOURCE: &str = "nvidia-smi logs of idle GPUs (power.draw, no process running), public repositories";

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The fraction of its rated board power a GPU of `architecture` draws
/// while it computes (a well-fed CNN training step).
///
/// # Formula
/// Its architecture's measured median board power over its rated power
/// (Pascal 0.636, Volta 0.888, Turing 0.892, Ampere GA10x 0.803); an
/// architecture nobody measured takes the median of those four (0.846).
pub fn training(architecture: Architecture) -> Fraction {
    match TRAINING.iter().find(|(a, ..)| *a == architecture) {
        Some(&(_, fraction, _)) => Fraction { fraction, source: ZEUS },
        None => Fraction {
            fraction: median(TRAINING.iter().map(|t| t.1)),
            source: "not measured for this architecture: the median of the four measured in the Zeus traces (P100, V100, Quadro RTX 6000, A40)",
        },
    }
}

/// The fraction of its rated board power a GPU of `architecture` draws
/// while it waits (exposed communication, a pipeline's bubbles): its idle
/// power, a floor (a waiting process also holds a CUDA context).
///
/// # Formula
/// Its architecture's measured idle power over its rated power (Volta
/// 0.116, Ampere GA100 0.120, Hopper 0.104, Ada 0.070); an architecture
/// nobody measured takes the median of those four (0.110).
pub fn waiting(architecture: Architecture) -> Fraction {
    match IDLE.iter().find(|(a, ..)| *a == architecture) {
        Some(&(_, fraction, _)) => Fraction {
            fraction,
            source: IDLE_SOURCE,
        },
        None => Fraction {
            fraction: median(IDLE.iter().map(|t| t.1)),
            source: "not measured for this architecture: the median idle power of V100, A100, H100/H200 and RTX 6000 Ada (nvidia-smi logs)",
        },
    }
}

/// What was measured for `architecture`, in words (empty: nothing).
pub fn measured(architecture: Architecture) -> String {
    let training = TRAINING.iter().find(|(a, ..)| *a == architecture).map(|t| t.2);
    let idle = IDLE.iter().find(|(a, ..)| *a == architecture).map(|t| t.2);
    [
        training.map(|t| format!("training: {t}")),
        idle.map(|i| format!("idle: {i}")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measured_architectures_keep_their_fractions_and_others_take_the_median() {
        assert!((training(Architecture::Volta).fraction - 0.888).abs() < 1e-9);
        let hopper = training(Architecture::Hopper);
        assert!((hopper.fraction - (0.8033333333333333 + 0.888) / 2.0).abs() < 1e-9);
        assert!(hopper.source.starts_with("not measured"));
        assert!((waiting(Architecture::Hopper).fraction - 0.1043).abs() < 1e-3);
        assert!((waiting(Architecture::Pascal).fraction - 0.110).abs() < 2e-3);
        // waiting draws far less than training, on every architecture
        for a in [
            Architecture::Pascal,
            Architecture::Volta,
            Architecture::Hopper,
            Architecture::Cdna3,
        ] {
            assert!(waiting(a).fraction < training(a).fraction / 4.0);
        }
    }
}
