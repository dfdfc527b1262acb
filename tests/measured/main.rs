//! The engine against measurements made outside this project: NVIDIA's
//! published runs, Lambda's and timm's benchmarks, every GPU's datasheet
//! and kernel rates, NCCL's measured collectives, MLPerf's and NVIDIA's
//! SSD runs. Each fixture says where it comes from (`tests/validation/`).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/mod.rs"]
mod support;
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
mod universe;

/// The `q` quantile of `values` (linear between order statistics).
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let at = q * (values.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    values[lo] + (values[hi] - values[lo]) * (at - lo as f64)
}
