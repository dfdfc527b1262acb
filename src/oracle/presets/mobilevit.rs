//! MobileViT-S (Mehta and Rastegari, "MobileViT: Light-weight,
//! General-purpose, and Mobile-friendly Vision Transformer", ICLR 2022) as
//! timm's `mobilevit_s` builds it at 256×256: a 3×3/2 stem of 16, then
//! MobileNetV2 inverted residual blocks (expansion 4, SiLU) and, in the
//! last three stages, a MobileViT block after the first one.
//!
//! A MobileViT block: a 3×3 convolution and a 1×1 one to the transformer's
//! width `D`; the image unfolded into 2×2 patches, each of its four pixel
//! places a sequence of `H·W/4` tokens; `L` pre-norm transformer blocks
//! (4 heads, a 2× MLP with SiLU) on each sequence; a layer norm; folded
//! back; a 1×1 convolution back to `C`, joined to the block's input and
//! fused by a 3×3 convolution. Attention is global within each sequence:
//! a query's keys are the `H·W/4` tokens at its place in every patch
//! (section 15). The unfolding and folding are views: no work, nothing
//! saved.

use super::builder::{Builder, Conv, Tensor, Then};
use super::transformer::{Attends, Mlp, block};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// SiLU after a convolution's batch norm.
const SILU: Option<Then> = Some(Then::Act(Function::Silu));

/// The transformer blocks' MLP: 2× with SiLU.
const MLP_2X_SILU: Mlp = Mlp {
    ratio: 2,
    function: Function::Silu,
};

/// Heads of every attention.
const HEADS: u64 = 4;

/// Pixels of a patch (2×2).
const PATCH_AREA: u64 = 4;

/// A MobileViT block's transformer: its width `D` and blocks `L`.
type Transformer = Option<(u64, u32)>;

/// Per stage: `(channels, inverted residual blocks, first stride, its
/// MobileViT block's transformer, if any)`.
const STAGES: [(u64, u32, u64, Transformer); 5] = [
    (32, 1, 1, None),
    (64, 3, 2, None),
    (96, 1, 2, Some((144, 2))),
    (128, 1, 2, Some((192, 4))),
    (160, 1, 2, Some((240, 3))),
];

/// Expansion of the inverted residual blocks.
const EXPANSION: u64 = 4;

/// An inverted residual block: 1×1 expansion, 3×3 depthwise at `stride`,
/// 1×1 linear projection to `c`, a residual sum where the shape is kept.
fn inverted_residual(b: &mut Builder, name: &str, x: &Tensor, c: u64, stride: u64) -> Tensor {
    let hidden = x[0] * EXPANSION;
    let y = b.conv_bn(&format!("{name}.conv1_1x1"), x, hidden, Conv::new(1), SILU);
    let y = b.conv_bn(
        &format!("{name}.conv2_kxk"),
        &y,
        hidden,
        Conv::new(3).stride(stride).groups(hidden),
        SILU,
    );
    let y = b.conv_bn(&format!("{name}.conv3_1x1"), &y, c, Conv::new(1), None);
    if stride == 1 && x[0] == c {
        b.add(&format!("{name}.add"), &y, x)
    } else {
        y
    }
}

/// A MobileViT block of `depth` transformer blocks of width `width` on
/// `x`.
fn mobilevit_block(b: &mut Builder, name: &str, x: &Tensor, width: u64, depth: u32) -> Tensor {
    let c = x[0];
    let y = b.conv_bn(&format!("{name}.conv_kxk"), x, c, Conv::new(3), SILU);
    let mut y = b.conv(&format!("{name}.conv_1x1"), &y, width, Conv::new(1));
    for i in 0..depth {
        y = block(
            b,
            &format!("{name}.transformer.{i}"),
            &y,
            HEADS,
            Attends::InPatches(PATCH_AREA),
            MLP_2X_SILU,
        );
    }
    let y = b.norm(&format!("{name}.norm"), LayerKind::Ln, &y);
    let y = b.conv_bn(&format!("{name}.conv_proj"), &y, c, Conv::new(1), SILU);
    let y = b.concat(&format!("{name}.concat"), &[x, &y]);
    b.conv_bn(&format!("{name}.conv_fusion"), &y, c, Conv::new(3), SILU)
}

/// MobileViT-S at 256×256.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn mobilevit_s() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let mut x = b.conv_bn(
        "stem.conv",
        &Tensor::input(&[3, 256, 256]),
        16,
        Conv::new(3).stride(2),
        SILU,
    );
    for (stage, (c, blocks, stride, transformer)) in STAGES.into_iter().enumerate() {
        for i in 0..blocks {
            let s = if i == 0 { stride } else { 1 };
            x = inverted_residual(&mut b, &format!("stages.{stage}.{i}"), &x, c, s);
        }
        if let Some((width, depth)) = transformer {
            x = mobilevit_block(&mut b, &format!("stages.{stage}.{blocks}"), &x, width, depth);
        }
    }
    let x = b.conv_bn("final_conv", &x, 640, Conv::new(1), SILU);
    let x = b.global_pool("head.global_pool", &x);
    b.fc("head.fc", &x, 1000);
    b.network("MobileViT-S", "ImageNet", super::IMAGENET_SAMPLES, &[3, 256, 256])
}

#[cfg(test)]
mod tests {
    use super::super::transformer::counted::{assert_saved_within_10_percent, assert_timms};
    use super::*;

    /// timm 1.0.31's `mobilevit_s` (`tests/timm/presets.csv`, made by
    /// `tests/timm/truth.py`): 5,578,632 parameters; `FlopCounterMode`
    /// 4,001,662,976 forward FLOPs per sample with the attention products,
    /// 3,646,392,320 without; autograd saves 179,694,592 bytes per sample
    /// in FP32 with timm's fused attention.
    #[test]
    fn parameters_flops_and_saved_bytes_are_timms() {
        let n = mobilevit_s().unwrap();
        assert_timms(&n, 5_578_632.0, 3_646_392_320.0, 4_001_662_976.0);
        assert_saved_within_10_percent(&n, 179_694_592.0);
    }
}
