//! MobileNetV2 (Sandler et al., "MobileNetV2: Inverted Residuals and
//! Linear Bottlenecks", CVPR 2018, table 2), as torchvision's
//! `mobilenet_v2` builds it: a 3×3/2 stem of 32, seven stages of inverted
//! residual blocks (1×1 expansion, 3×3 depthwise, 1×1 linear projection,
//! each with batch norm; ReLU6 after the first two; a residual sum where
//! the shape is kept), a 1×1 convolution to 1280, global average pool,
//! dropout and a 1000-way fc.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor, Then};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// ReLU6: an activation other than ReLU.
const RELU6: Option<Then> = Some(Then::Act(Function::Relu6));

/// `(expansion t, channels c, blocks n, first stride s)` of table 2.
const STAGES: [(u64, u64, u32, u64); 7] = [
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
];

/// MobileNetV2 at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn mobilenet_v2() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let mut x = b.conv_bn(
        "features.0",
        &Tensor::input(&[3, 224, 224]),
        32,
        Conv::new(3).stride(2),
        RELU6,
    );
    let mut index = 1;
    for (t, c, n, s) in STAGES {
        for i in 0..n {
            let stride = if i == 0 { s } else { 1 };
            let name = format!("features.{index}");
            let hidden = x[0] * t;
            let mut y = x.clone();
            if t != 1 {
                y = b.conv_bn(&format!("{name}.expand"), &y, hidden, Conv::new(1), RELU6);
            }
            y = b.conv_bn(
                &format!("{name}.dw"),
                &y,
                hidden,
                Conv::new(3).stride(stride).groups(hidden),
                RELU6,
            );
            y = b.conv_bn(&format!("{name}.project"), &y, c, Conv::new(1), None);
            if stride == 1 && x[0] == c {
                y = b.add(&format!("{name}.add"), &y, &x);
            }
            x = y;
            index += 1;
        }
    }
    let x = b.conv_bn(&format!("features.{index}"), &x, 1280, Conv::new(1), RELU6);
    let x = b.global_pool("avgpool", &x);
    let x = b.same("dropout", LayerKind::Dropout, &x);
    b.fc("classifier", &x, 1000);
    b.network("MobileNetV2", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
