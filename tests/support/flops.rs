//! The FLOPs `FlopCounterMode` counts, from an imported network
//! (`tests/measured/universe.rs`, `tests/importers/timm.rs`).

use paradl::oracle::{LayerKind, Network};

/// Forward FLOPs of convolutions and matrix products by weights per sample
/// (`FlopCounterMode`'s convolution, `mm` and `addmm`).
pub fn gemm_flops(n: &Network) -> f64 {
    n.layers()
        .iter()
        .filter(|l| matches!(l.kind(), LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc))
        .map(|l| l.forward_flops())
        .sum()
}

/// [`gemm_flops`] and the products of two computed tensors (its `bmm` and
/// scaled dot-product attention): every FLOP `FlopCounterMode` counts.
pub fn all_flops(n: &Network) -> f64 {
    gemm_flops(n)
        + n.layers()
            .iter()
            .filter(|l| l.kind().is_product())
            .map(|l| l.forward_flops())
            .sum::<f64>()
}
