//! ConvNeXt-Tiny (Liu et al., "A ConvNet for the 2020s", CVPR 2022), as
//! torchvision's `convnext_tiny` builds it: a 4×4/4 "patchify" stem with
//! layer norm, four stages of 3, 3, 9 and 3 blocks at 96, 192, 384 and 768
//! channels (a 7×7 depthwise convolution, layer norm, a 4× inverted
//! bottleneck of two pointwise layers with GELU, a trained layer scale and
//! a residual sum), downsampling by layer norm and a 2×2/2 convolution
//! between stages, then global average pool, layer norm and a 1000-way fc.
//! The pointwise linear layers act on each position: they are 1×1
//! convolutions with a bias.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// Blocks and channels per stage.
const STAGES: [(u32, u64); 4] = [(3, 96), (3, 192), (9, 384), (3, 768)];

/// ConvNeXt-Tiny at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn convnext_tiny() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = b.conv(
        "stem",
        &Tensor::input(&[3, 224, 224]),
        96,
        Conv::new(4).stride(4).pad(0).bias(),
    );
    let mut x = b.norm("stem.ln", LayerKind::Ln, &x);
    for (stage, (blocks, channels)) in STAGES.into_iter().enumerate() {
        if stage > 0 {
            let y = b.norm(&format!("downsample.{stage}.ln"), LayerKind::Ln, &x);
            x = b.conv(
                &format!("downsample.{stage}"),
                &y,
                channels,
                Conv::new(2).stride(2).pad(0).bias(),
            );
        }
        for i in 0..blocks {
            let name = format!("stages.{stage}.{i}");
            let y = b.conv(
                &format!("{name}.dw"),
                &x,
                channels,
                Conv::new(7).groups(channels).bias(),
            );
            let y = b.norm(&format!("{name}.ln"), LayerKind::Ln, &y);
            let y = b.conv(&format!("{name}.pw1"), &y, 4 * channels, Conv::new(1).bias());
            let y = b.act(&format!("{name}.gelu"), &y, Function::Gelu);
            let y = b.conv(&format!("{name}.pw2"), &y, channels, Conv::new(1).bias());
            let y = b.scale(&format!("{name}.layer_scale"), &y);
            x = b.add(&format!("{name}.add"), &y, &x);
        }
    }
    let x = b.global_pool("avgpool", &x);
    let x = b.norm("classifier.ln", LayerKind::Ln, &x);
    b.fc("classifier", &x, 1000);
    b.network("ConvNeXt-Tiny", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
