//! 3D U-Net as MLPerf Training's image segmentation benchmark uses it
//! (MLCommons `training/image_segmentation/pytorch/model/unet3d.py`,
//! after Çiçek et al., MICCAI 2016; KiTS19 kidney tumour scans): 128³
//! patches of one channel; an input block and four downsampling blocks
//! to 32, 64, 128, 256 and 320 channels and a 320-channel bottleneck, each
//! two 3×3×3 convolutions (the first of a downsampling block with stride
//! 2) with instance norm and leaky ReLU (the reference's layer default);
//! five upsampling blocks, each a 2×2×2/2 transposed convolution with a
//! bias, a concatenation with the matching skip and two 3×3×3
//! convolutions; a 1×1×1 convolution to 3 classes. KiTS19 has 168 training
//! cases (one patch each per epoch, as the reference samples them).

use super::builder::{Builder, Conv, Tensor};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// Channels of the levels.
const FILTERS: [u64; 5] = [32, 64, 128, 256, 320];
/// KiTS19 training cases.
const KITS19_CASES: u64 = 168;

fn conv_norm_act(b: &mut Builder, name: &str, x: &Tensor, filters: u64, stride: u64) -> Tensor {
    let y = b.conv(name, x, filters, Conv::new(3).stride(stride));
    // an instance norm normalises each channel of each sample, as a batch norm of one
    // sample does (PyTorch runs it as one): saved and timed as one, in its input's width
    // under autocast (instance_norm is on none of autocast's lists)
    let y = b.norm(&format!("{name}.norm"), LayerKind::Bn, &y);
    b.act(&format!("{name}.act"), &y, Function::LeakyRelu)
}

/// The 3D U-Net at 128³.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn unet3d() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = conv_norm_act(
        &mut b,
        "input.conv1",
        &Tensor::input(&[1, 128, 128, 128]),
        FILTERS[0],
        1,
    );
    let mut x = conv_norm_act(&mut b, "input.conv2", &x, FILTERS[0], 1);
    let mut skips = vec![x.clone()];
    let downs: Vec<(u64, String)> = FILTERS[1..]
        .iter()
        .enumerate()
        .map(|(i, &f)| (f, format!("down{i}")))
        .chain([(FILTERS[4], "bottleneck".to_string())])
        .collect();
    for (filters, name) in downs {
        x = conv_norm_act(&mut b, &format!("{name}.conv1"), &x, filters, 2);
        x = conv_norm_act(&mut b, &format!("{name}.conv2"), &x, filters, 1);
        skips.push(x.clone());
    }
    skips.pop();
    for (i, skip) in skips.iter().rev().enumerate() {
        let name = format!("up{i}");
        let up = b.upconv(&format!("{name}.upconv"), &x, skip[0], 2);
        let y = b.concat(&format!("{name}.concat"), &[&up, skip]);
        let y = conv_norm_act(&mut b, &format!("{name}.conv1"), &y, skip[0], 1);
        x = conv_norm_act(&mut b, &format!("{name}.conv2"), &y, skip[0], 1);
    }
    b.conv("output", &x, 3, Conv::new(1).bias());
    b.network("3D U-Net (MLPerf)", "KiTS19", KITS19_CASES, &[1, 128, 128, 128])
}
