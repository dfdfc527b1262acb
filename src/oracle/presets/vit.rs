//! Vision transformers (Dosovitskiy et al., "An Image is Worth 16x16
//! Words", ICLR 2021; Touvron et al., "Training data-efficient image
//! transformers", ICML 2021) as timm's `vision_transformer.py` builds them:
//! a 16×16/16 convolution cuts the image into patches, a trained class
//! token and position embedding make `N = 197` tokens of width `D`, then
//! `depth` pre-norm blocks (layer norm, multi-head self-attention with a
//! residual sum, layer norm, a 4× MLP with GELU and a residual sum), a
//! final layer norm and a 1000-way fully connected head on the class token.
//!
//! Tokens are the layers' one spatial dimension (`[D, N]`): a linear layer
//! on each token is a 1×1 convolution with a bias, and attention is two
//! products of computed tensors (section 15): the scores `Q·Kᵀ` (`[h·N,
//! N]`: for each query, a row of `N` keys per head) and the context
//! `A·V`, with the scale and the softmax between them, as the eager form
//! writes them.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor};
use super::transformer::{Attends, MLP_4X_GELU, block};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::network::Network;

/// A ViT's size: token width, blocks and heads (patch 16, MLP 4×, 224²).
#[derive(Debug, Clone, Copy)]
pub struct Vit {
    /// `D`: the width of a token.
    pub width: u64,
    /// Transformer blocks.
    pub depth: u32,
    /// `h`: attention heads.
    pub heads: u64,
}

/// ViT-B/16 (timm's `vit_base_patch16_224`: 86,567,656 parameters).
pub const VIT_B16: Vit = Vit {
    width: 768,
    depth: 12,
    heads: 12,
};

/// ViT-S/16, DeiT-S (timm's `deit_small_patch16_224`: 22,050,664).
pub const VIT_S16: Vit = Vit {
    width: 384,
    depth: 12,
    heads: 6,
};

/// ViT-Ti/16, DeiT-Ti (timm's `vit_tiny_patch16_224`: 5,717,416).
pub const VIT_TI16: Vit = Vit {
    width: 192,
    depth: 12,
    heads: 3,
};

/// Side of a patch, pixels.
const PATCH: u64 = 16;
/// Side of the image, pixels.
const IMAGE: u64 = 224;
/// A ViT with 16×16 patches at 224×224, named `name`.
///
/// # Errors
/// None for the shipped sizes (their tests build them).
pub fn vit(name: &str, vit: Vit) -> Result<Network, InputError> {
    let mut b = Builder::default();
    let patches = b.conv(
        "patch_embed.proj",
        &Tensor::input(&[3, IMAGE, IMAGE]),
        vit.width,
        Conv::new(PATCH).stride(PATCH).pad(0).bias(),
    );
    let grid = IMAGE / PATCH;
    let mut x = b.tokens("pos_embed", &patches, grid * grid + 1);
    for i in 0..vit.depth {
        x = block(
            &mut b,
            &format!("blocks.{i}"),
            &x,
            vit.heads,
            Attends::Globally,
            MLP_4X_GELU,
        );
    }
    let x = b.norm("norm", LayerKind::Ln, &x);
    let x = b.class_token("head.token", &x);
    b.fc("head", &x, 1000);
    b.network(name, "ImageNet", IMAGENET_SAMPLES, &[3, IMAGE, IMAGE])
}

/// ViT-B/16.
///
/// # Errors
/// None (its test builds it).
pub fn vit_b16() -> Result<Network, InputError> {
    vit("ViT-B/16", VIT_B16)
}

/// DeiT-S (ViT-S/16).
///
/// # Errors
/// None (its test builds it).
pub fn deit_s() -> Result<Network, InputError> {
    vit("DeiT-S", VIT_S16)
}

/// DeiT-Ti (ViT-Ti/16).
///
/// # Errors
/// None (its test builds it).
pub fn deit_ti() -> Result<Network, InputError> {
    vit("DeiT-Ti", VIT_TI16)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// timm 1.0.31's `sum(p.numel() for p in model.parameters())`
    /// (`tests/timm/timm.csv` for `vit_tiny_patch16_224`; timm's RTX 3090
    /// benchmark's `param_count` for the others, 86.57 and 22.05 M).
    #[test]
    fn parameters_are_timms() {
        assert_eq!(deit_ti().unwrap().weight_items(), 5_717_416.0);
        assert_eq!(deit_s().unwrap().weight_items(), 22_050_664.0);
        assert_eq!(vit_b16().unwrap().weight_items(), 86_567_656.0);
    }

    /// `FlopCounterMode`'s count for `vit_tiny_patch16_224`, attention
    /// products included (`tests/timm/timm.csv`: 2,507,366,400; the linear
    /// layers alone 2,149,702,656).
    #[test]
    fn flops_are_pytorchs() {
        let n = deit_ti().unwrap();
        super::super::transformer::counted::assert_timms(&n, 5_717_416.0, 2_149_702_656.0, 2_507_366_400.0);
    }

    /// The bytes autograd saves per sample for `vit_tiny_patch16_224`,
    /// measured by `tests/timm/truth.py` with timm's fused attention
    /// (`scaled_dot_product_attention`): 30,021,304 in FP32, 16,860,472
    /// under BF16 autocast (`tests/timm/timm.csv`).
    #[test]
    fn saved_bytes_are_autograds_with_fused_attention() {
        use crate::oracle::AttentionForm;
        use crate::oracle::cost::saved::saved_tensors;
        let n = deit_ti().unwrap();
        let total = |h, mixed, form| -> f64 { saved_tensors(&n, h, mixed, form).iter().map(|t| t.bytes()).sum() };
        assert_eq!(total(4.0, false, AttentionForm::Fused), 30_021_304.0);
        let bf16 = total(2.0, true, AttentionForm::Fused) / 16_860_472.0;
        assert!((bf16 - 1.0).abs() < 0.01, "{bf16}");
        // the eager form keeps the scaled queries and each head's N×N probabilities, the
        // fused one a log-sum-exp per query and head
        let eager = total(4.0, false, AttentionForm::Eager) - 30_021_304.0;
        let per_block = 4.0 * (192.0 * 197.0 + 3.0 * 197.0 * 197.0) - 4.0 * 3.0 * 197.0;
        assert_eq!(eager, 12.0 * per_block);
    }
}
