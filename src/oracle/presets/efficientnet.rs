//! EfficientNet-B0 (Tan and Le, "EfficientNet: Rethinking Model Scaling
//! for Convolutional Neural Networks", ICML 2019, table 1), as
//! torchvision's `efficientnet_b0` builds it: a 3×3/2 stem of 32, seven
//! stages of MBConv blocks (1×1 expansion, k×k depthwise, a
//! squeeze-and-excitation of a quarter of the block's input channels,
//! 1×1 projection; batch norm after each convolution, SiLU after the
//! first two; a residual sum where the shape is kept), a 1×1 convolution
//! to 1280, global average pool, dropout and a 1000-way fc.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor, Then};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// SiLU: an activation other than ReLU.
const SILU: Option<Then> = Some(Then::Act(Function::Silu));

/// `(expansion, kernel, stride, output channels, blocks)` of table 1.
const STAGES: [(u64, u64, u64, u64, u32); 7] = [
    (1, 3, 1, 16, 1),
    (6, 3, 2, 24, 2),
    (6, 5, 2, 40, 2),
    (6, 3, 2, 80, 3),
    (6, 5, 1, 112, 3),
    (6, 5, 2, 192, 4),
    (6, 3, 1, 320, 1),
];

/// EfficientNet-B0 at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn efficientnet_b0() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let mut x = b.conv_bn(
        "features.0",
        &Tensor::input(&[3, 224, 224]),
        32,
        Conv::new(3).stride(2),
        SILU,
    );
    for (stage, (expansion, kernel, stride, out, blocks)) in STAGES.into_iter().enumerate() {
        for i in 0..blocks {
            let name = format!("features.{}.{i}", stage + 1);
            let stride = if i == 0 { stride } else { 1 };
            let expanded = x[0] * expansion;
            let squeezed = (x[0] / 4).max(1);
            let mut y = x.clone();
            if expansion != 1 {
                y = b.conv_bn(&format!("{name}.expand"), &y, expanded, Conv::new(1), SILU);
            }
            y = b.conv_bn(
                &format!("{name}.dw"),
                &y,
                expanded,
                Conv::new(kernel).stride(stride).groups(expanded),
                SILU,
            );
            // squeeze and excitation: pool, 1×1 down with SiLU, 1×1 up with a sigmoid, scale
            y = b.squeeze_excitation(&format!("{name}.se"), &y, squeezed, Then::Act(Function::Silu));
            y = b.conv_bn(&format!("{name}.project"), &y, out, Conv::new(1), None);
            if stride == 1 && x[0] == out {
                y = b.add(&format!("{name}.add"), &y, &x);
            }
            x = y;
        }
    }
    let x = b.conv_bn("features.8", &x, 1280, Conv::new(1), SILU);
    let x = b.global_pool("avgpool", &x);
    let x = b.same("dropout", LayerKind::Dropout, &x);
    b.fc("classifier", &x, 1000);
    b.network("EfficientNet-B0", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
