//! The FLOPs `FlopCounterMode` counts, from an imported network
//! (`tests/measured/universe.rs`, `tests/importers/timm.rs`).

use paradl::oracle::{LayerKind, Network};

/// Forward FLOPs of convolutions and matrix products per sample.
pub fn gemm_flops(n: &Network) -> f64 {
    n.layers()
        .iter()
        .filter(|l| matches!(l.kind(), LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc))
        .map(|l| l.forward_flops())
        .sum()
}
