//! The engine against measurements made outside this project: NVIDIA's
//! published runs, Lambda's and timm's benchmarks, every GPU's datasheet
//! and kernel rates, NCCL's measured collectives, MLPerf's and NVIDIA's
//! SSD runs. Each fixture says where it comes from (`tests/validation/`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/mod.rs"]
mod support;
use paradl::oracle::{MemoryFormat, Optimizer, Precision, RunSpec};
use support::{activations, columns, cuda_bf16, flops, timm_zip};

mod convergence;
mod energy;
mod kernels;
mod lambda;
mod nccl;
mod published;
mod ssd;
mod time_to_train;
mod timm_rtx3090;
mod transformers;
mod universe;

/// The 10% quantile, the median and the 90% quantile of `values`.
fn spread(values: &mut [f64]) -> (f64, f64, f64) {
    (quantile(values, 0.1), quantile(values, 0.5), quantile(values, 0.9))
}

/// `spec` trained as the published runs train: `precision` (FP16 mixed
/// precision with channels last, as NVIDIA's runs), SGD with momentum, the
/// gradient exchange overlapped or not.
fn as_trained(spec: RunSpec, precision: Precision, overlap: bool) -> RunSpec {
    RunSpec {
        precision,
        memory_format: if precision == Precision::Fp16 {
            MemoryFormat::Nhwc
        } else {
            MemoryFormat::Nchw
        },
        optimizer: Optimizer::Momentum,
        overlap,
        ..spec
    }
}

/// The `q` quantile of `values` (linear between order statistics).
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let at = q * (values.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    values[lo] + (values[hi] - values[lo]) * (at - lo as f64)
}
