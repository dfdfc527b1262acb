//! What the realistic edition holds for activations, per sample, as
//! PyTorch's count of autograd's saved bytes is taken (`tests/measured/published.rs`
//! for the presets, `tests/measured/universe.rs` for every imported graph).

use paradl::oracle::{Batch, Precision, RunSpec, Scenario, Strategy};

/// Bytes per sample of the activations part in `precision`: the slope
/// between `from` and `from + 1` samples on one GPU.
pub fn activations_per_sample(s: &Scenario, precision: Precision, from: u64) -> f64 {
    let at = |b| {
        s.project(&RunSpec {
            precision,
            ..RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(b))
        })
        .unwrap()
        .memory
        .activations_bytes
    };
    at(from + 1) - at(from)
}
