//! ResNeXt-50 (32×4d) (Xie et al., "Aggregated Residual Transformations
//! for Deep Neural Networks", CVPR 2017, table 1), as torchvision's
//! `resnext50_32x4d` builds it (and its 101-layer sibling, 23 blocks in the
//! third stage): ResNet-50's stem, stages of 3, 4, 6 and 3
//! bottlenecks whose 3×3 convolution runs in 32 groups of width 4 (128,
//! 256, 512, 1024 channels), the stage's stride in that 3×3 convolution,
//! projection shortcuts (1×1 convolution and batch norm) where a block
//! changes shape, global average pool and a 1000-way fc. ResNet-50 as
//! torchvision's `resnet50` builds it is the same network with one group of
//! width 64 (He et al. 2016, table 1; the stride in the 3×3 convolution, as
//! torchvision's "ResNet v1.5").

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor, Then};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::network::Network;

/// Blocks and planes per stage of the 50-layer networks (output channels
/// are 4× the planes).
const STAGES: [(u32, u64); 4] = [(3, 64), (4, 128), (6, 256), (3, 512)];
/// Blocks and planes per stage of the 101-layer ones (He et al. 2016,
/// table 1): 23 blocks in the third stage.
const STAGES_101: [(u32, u64); 4] = [(3, 64), (4, 128), (23, 256), (3, 512)];
/// Groups of the 3×3 convolutions.
const CARDINALITY: u64 = 32;
/// Channels per group at 64 planes.
const BASE_WIDTH: u64 = 4;

/// ResNeXt-50 (32×4d) at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn resnext50_32x4d() -> Result<Network, InputError> {
    bottlenecks("ResNeXt-50 (32x4d)", STAGES, CARDINALITY, BASE_WIDTH, false)
}

/// ResNeXt-101 (32×4d) at 224×224, as NVIDIA's DeepLearningExamples and
/// timm build it (torchvision has no 32×4d of 101 layers).
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn resnext101_32x4d() -> Result<Network, InputError> {
    bottlenecks("ResNeXt-101 (32x4d)", STAGES_101, CARDINALITY, BASE_WIDTH, false)
}

/// SE-ResNeXt-101 (32×4d) at 224×224 (Hu et al., "Squeeze-and-Excitation
/// Networks", CVPR 2018): ResNeXt-101 (32×4d) with a squeeze-and-excitation
/// gate on each block's output before the shortcut is added (global pool,
/// a fully connected layer down to 1/16 of the channels with a ReLU, one
/// back up with a sigmoid, the product), as NVIDIA's DeepLearningExamples
/// and timm build it.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn seresnext101_32x4d() -> Result<Network, InputError> {
    bottlenecks("SE-ResNeXt-101 (32x4d)", STAGES_101, CARDINALITY, BASE_WIDTH, true)
}

/// The squeeze-and-excitation reduction of SE-ResNeXt (Hu et al. 2018).
const SE_REDUCTION: u64 = 16;

/// ResNet-50 at 224×224, as torchvision's `resnet50`.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn resnet50() -> Result<Network, InputError> {
    bottlenecks("ResNet-50 (torchvision)", STAGES, 1, 64, false)
}

/// A network of bottleneck `stages` whose 3×3 convolutions run in
/// `cardinality` groups of `base_width` channels at 64 planes, with a
/// squeeze-and-excitation gate on each block when `excite`.
fn bottlenecks(
    title: &str,
    stages: [(u32, u64); 4],
    cardinality: u64,
    base_width: u64,
    excite: bool,
) -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = b.conv_bn(
        "conv1",
        &Tensor::input(&[3, 224, 224]),
        64,
        Conv::new(7).stride(2),
        Some(Then::Relu),
    );
    let mut x = b.pool("maxpool", LayerKind::Maxpool, &x, 3, 2, 1);
    for (stage, (blocks, planes)) in stages.into_iter().enumerate() {
        let width = planes * base_width / 64 * cardinality;
        let out = planes * 4;
        for i in 0..blocks {
            let name = format!("layer{}.{i}", stage + 1);
            let stride = if i == 0 && stage > 0 { 2 } else { 1 };
            let y = b.conv_bn(&format!("{name}.conv1"), &x, width, Conv::new(1), Some(Then::Relu));
            let y = b.conv_bn(
                &format!("{name}.conv2"),
                &y,
                width,
                Conv::new(3).stride(stride).groups(cardinality),
                Some(Then::Relu),
            );
            let mut y = b.conv_bn(&format!("{name}.conv3"), &y, out, Conv::new(1), None);
            if excite {
                y = b.squeeze_excitation(&format!("{name}.se"), &y, out / SE_REDUCTION, Then::Relu);
            }
            let shortcut = if i == 0 {
                b.conv_bn(
                    &format!("{name}.downsample"),
                    &x,
                    out,
                    Conv::new(1).stride(stride),
                    None,
                )
            } else {
                x.clone()
            };
            let y = b.add(&format!("{name}.add"), &y, &shortcut);
            x = b.same(&format!("{name}.relu"), LayerKind::Relu, &y);
        }
    }
    let x = b.global_pool("avgpool", &x);
    b.fc("fc", &x, 1000);
    b.network(title, "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
