//! Swin-T (Liu et al., "Swin Transformer: Hierarchical Vision Transformer
//! using Shifted Windows", ICCV 2021) as timm's `swin_transformer.py`
//! builds `swin_tiny_patch4_window7_224`: a 4×4/4 convolution and a layer
//! norm make 56×56 tokens of 96 channels; four stages of 2, 2, 6 and 2
//! blocks at 96, 192, 384 and 768 channels with 3, 6, 12 and 24 heads,
//! a patch merging (2×2 neighbours joined into 4C channels, a layer norm,
//! a linear layer to 2C without bias) before each stage but the first;
//! then a layer norm, a global average pool and a 1000-way head.
//!
//! A block attends within windows of 7×7 tokens (every other block's
//! windows shifted by 3, which moves no work): the scores are `[h·49, H,
//! W]`, 49 keys per query and head (section 15: windowed, so a split of the
//! tokens gathers nothing), plus a trained relative position bias of
//! `(2·7 − 1)² = 169` values per head (an `other` layer holding its table).
//! The tokens keep their two spatial dimensions (`[C, H, W]`); linear
//! layers act at each position.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor};
use super::transformer::{Attends, MLP_4X_GELU, block};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::network::Network;

/// Blocks, channels and heads per stage.
const STAGES: [(u32, u64, u64); 4] = [(2, 96, 3), (2, 192, 6), (6, 384, 12), (2, 768, 24)];
/// Tokens a window holds on a side.
const WINDOW: u64 = 7;
/// Swin-T at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn swin_t() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = b.conv(
        "patch_embed.proj",
        &Tensor::input(&[3, 224, 224]),
        STAGES[0].1,
        Conv::new(4).stride(4).pad(0).bias(),
    );
    let mut x = b.norm("patch_embed.norm", LayerKind::Ln, &x);
    for (stage, (blocks, _, heads)) in STAGES.into_iter().enumerate() {
        if stage > 0 {
            let name = format!("layers.{stage}.downsample");
            let y = b.space_to_depth(&format!("{name}.merge"), &x, 2);
            let y = b.norm(&format!("{name}.norm"), LayerKind::Ln, &y);
            x = b.linear(&format!("{name}.reduction"), &y, y[0] / 2, false);
        }
        for i in 0..blocks {
            x = block(
                &mut b,
                &format!("layers.{stage}.blocks.{i}"),
                &x,
                heads,
                Attends::InWindows(WINDOW),
                MLP_4X_GELU,
            );
        }
    }
    let x = b.norm("norm", LayerKind::Ln, &x);
    let x = b.global_pool("head.global_pool", &x);
    b.fc("head.fc", &x, 1000);
    b.network("Swin-T", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}

#[cfg(test)]
mod tests {
    use super::super::transformer::counted::{assert_saved_within_10_percent, assert_timms};
    use super::*;

    /// timm 1.0.31's `swin_tiny_patch4_window7_224` (`tests/timm/timm.csv`):
    /// 28,288,354 parameters; `FlopCounterMode` 8,981,133,312 forward FLOPs
    /// with the attention products, 8,700,850,176 without.
    #[test]
    fn parameters_and_flops_are_timms() {
        assert_timms(&swin_t().unwrap(), 28_288_354.0, 8_700_850_176.0, 8_981_133_312.0);
    }

    /// What autograd saves for `swin_tiny_patch4_window7_224`
    /// (`tests/timm/timm.csv`: 106,333,160 bytes per sample in FP32, with
    /// its attention as timm runs it): within 10%, the probabilities kept
    /// (a relative position bias is added to the scores).
    #[test]
    fn saved_bytes_are_autograds_within_ten_percent() {
        assert_saved_within_10_percent(&swin_t().unwrap(), 106_333_160.0);
    }
}
