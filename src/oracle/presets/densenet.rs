//! DenseNet-121 (Huang et al., "Densely Connected Convolutional
//! Networks", CVPR 2017, table 1), as torchvision's `densenet121` builds
//! it: a 7×7/2 stem of 64 and a 3×3/2 max pool, four dense blocks of 6, 12,
//! 24 and 16 layers (batch norm, ReLU, 1×1 convolution to 4×32, batch
//! norm, ReLU, 3×3 convolution to 32, concatenated to the block's input)
//! with transitions halving channels and size (batch norm, ReLU, 1×1
//! convolution, 2×2 average pool), a final batch norm and ReLU, global
//! average pool and a 1000-way fc.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::network::Network;

/// Layers per dense block.
const BLOCKS: [u32; 4] = [6, 12, 24, 16];
/// Channels each dense layer adds.
const GROWTH: u64 = 32;
/// Bottleneck width, in growths.
const BN_SIZE: u64 = 4;

fn bn_relu(b: &mut Builder, name: &str, x: &Tensor) -> Tensor {
    let y = b.norm(&format!("{name}.norm"), LayerKind::Bn, x);
    b.same(&format!("{name}.relu"), LayerKind::Relu, &y)
}

/// DenseNet-121 at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn densenet121() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = b.conv(
        "features.conv0",
        &Tensor::input(&[3, 224, 224]),
        64,
        Conv::new(7).stride(2),
    );
    let x = bn_relu(&mut b, "features.0", &x);
    let mut x = b.pool("features.pool0", LayerKind::Maxpool, &x, 3, 2, 1);
    for (block, layers) in BLOCKS.into_iter().enumerate() {
        for i in 0..layers {
            let name = format!("denseblock{}.layer{}", block + 1, i + 1);
            let y = bn_relu(&mut b, &format!("{name}.1"), &x);
            let y = b.conv(&format!("{name}.conv1"), &y, BN_SIZE * GROWTH, Conv::new(1));
            let y = bn_relu(&mut b, &format!("{name}.2"), &y);
            let y = b.conv(&format!("{name}.conv2"), &y, GROWTH, Conv::new(3));
            x = b.concat(&format!("{name}.concat"), &[&x, &y]);
        }
        if block + 1 < BLOCKS.len() {
            let name = format!("transition{}", block + 1);
            let y = bn_relu(&mut b, &name, &x);
            let y = b.conv(&format!("{name}.conv"), &y, x[0] / 2, Conv::new(1));
            x = b.pool(&format!("{name}.pool"), LayerKind::Avgpool, &y, 2, 2, 0);
        }
    }
    let x = bn_relu(&mut b, "features.5", &x);
    let x = b.global_pool("avgpool", &x);
    b.fc("classifier", &x, 1000);
    b.network("DenseNet-121", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
