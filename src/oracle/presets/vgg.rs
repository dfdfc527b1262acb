//! VGG-16 (Simonyan and Zisserman, "Very Deep Convolutional Networks for
//! Large-Scale Image Recognition", ICLR 2015, configuration D), as
//! torchvision's `vgg16` builds it: thirteen 3×3 convolutions with a bias
//! and a ReLU in five stages of 64, 128, 256, 512 and 512 channels, each
//! closed by a 2×2 max pool, then three fully connected layers (4096, 4096,
//! 1000) with ReLUs and dropout after the first two. At 224×224 its
//! adaptive average pool to 7×7 is the identity and is left out.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor, Then};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::network::Network;

/// Convolutions per stage and their channels.
const STAGES: [(u32, u64); 5] = [(2, 64), (2, 128), (3, 256), (3, 512), (3, 512)];

/// VGG-16 at 224×224, as torchvision's `vgg16`.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn vgg16() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let mut x = Tensor::input(&[3, 224, 224]);
    for (stage, (convs, channels)) in STAGES.into_iter().enumerate() {
        for i in 0..convs {
            let name = format!("features.{}.{i}", stage + 1);
            let y = b.conv(&name, &x, channels, Conv::new(3).pad(1).bias());
            x = b.then(&name, &y, Some(Then::Relu));
        }
        x = b.pool(&format!("features.{}.pool", stage + 1), LayerKind::Maxpool, &x, 2, 2, 0);
    }
    for (i, outputs) in [4096, 4096].into_iter().enumerate() {
        let name = format!("classifier.{i}");
        let y = b.fc(&name, &x, outputs);
        let y = b.then(&name, &y, Some(Then::Relu));
        x = b.same(&format!("{name}.dropout"), LayerKind::Dropout, &y);
    }
    b.fc("classifier.out", &x, 1000);
    b.network("VGG-16 (torchvision)", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}
