//! The `cuda_bf16.csv` fixtures (`tests/timm/`, `tests/torch/`, made by
//! `tests/timm/cuda_amp.py`): each network's bytes autograd saves per
//! sample under CUDA's BF16 autocast (`tests/measured/universe.rs`, `tests/importers/timm.rs`).

use std::collections::HashMap;

/// The rows of a `cuda_bf16.csv`, by network name.
pub fn saved_bytes(csv: &'static str) -> HashMap<&'static str, f64> {
    csv.lines()
        .skip(1)
        .map(|line| {
            let (name, bytes) = line.split_once(',').unwrap();
            (name, bytes.parse().unwrap())
        })
        .collect()
}
