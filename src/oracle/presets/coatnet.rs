//! CoAtNet-0 (Dai et al., "CoAtNet: Marrying Convolution and Attention
//! for All Data Sizes", NeurIPS 2021, table 3) as timm's `coatnet_0_224`
//! builds it: a stem of two 3×3 convolutions (the first at stride 2, 64
//! channels), two stages of MBConv blocks (2 blocks of 96 channels, 3 of
//! 192) and two of transformer blocks (5 of 384 channels, 2 of 768), each
//! stage halving the map in its first block; then a global average pool,
//! a layer norm, a 768-wide layer with tanh and a 1000-way one.
//!
//! An MBConv block: a batch norm (pre-norm), a 1×1 expansion to 4× the
//! block's output, a 3×3 depthwise convolution (stride 2 in a stage's
//! first block), each with a batch norm and GELU, a squeeze-and-excitation
//! (to a quarter of the output, SiLU, sigmoid), a 1×1 projection with a
//! bias; the shortcut is the input, or in a stage's first block a 2×2
//! average pool and a 1×1 convolution.
//!
//! A transformer block works on the map (`[C, H, W]`, 1×1 convolutions
//! as its linear layers): a layer norm (then a 2×2 average pool in a
//! stage's first block), `Q`, `K`, `V` by one 1×1 convolution, heads of
//! 32 channels attending to every position of the map (section 15), a
//! trained relative position bias of `(2H − 1)(2W − 1)` values per head
//! added to the scores, a 1×1 projection, a residual sum (the shortcut
//! pooled and widened by a 1×1 convolution in a stage's first block); a
//! layer norm, a 4× MLP with GELU, a residual sum.

use super::IMAGENET_SAMPLES;
use super::builder::{Builder, Conv, Tensor, Then};
use super::transformer::{Linear, MLP_4X_GELU, attention, mlp_residual};
use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::network::Network;

/// GELU after a batch norm.
const GELU: Option<Then> = Some(Then::Act(Function::Gelu));

/// MBConv stages: `(blocks, channels)`.
const CONV_STAGES: [(u32, u64); 2] = [(2, 96), (3, 192)];

/// Transformer stages: `(blocks, channels)`.
const ATTENTION_STAGES: [(u32, u64); 2] = [(5, 384), (2, 768)];

/// Channels of a head.
const HEAD_WIDTH: u64 = 32;

/// The MBConv blocks' expansion.
const EXPANSION: u64 = 4;

/// A 2×2 average pool and a 1×1 convolution with a bias to `c`: a stage's
/// first shortcut.
fn downsampled(b: &mut Builder, name: &str, x: &Tensor, c: u64) -> Tensor {
    let y = b.pool(&format!("{name}.pool"), LayerKind::Avgpool, x, 2, 2, 0);
    b.conv(&format!("{name}.expand"), &y, c, Conv::new(1).bias())
}

fn mbconv(b: &mut Builder, name: &str, x: &Tensor, c: u64, first: bool) -> Tensor {
    let shortcut = if first {
        downsampled(b, &format!("{name}.shortcut"), x, c)
    } else {
        x.clone()
    };
    let hidden = EXPANSION * c;
    let stride = if first { 2 } else { 1 };
    let y = b.norm(&format!("{name}.pre_norm"), LayerKind::Bn, x);
    let y = b.conv_bn(&format!("{name}.conv1_1x1"), &y, hidden, Conv::new(1), GELU);
    let y = b.conv_bn(
        &format!("{name}.conv2_kxk"),
        &y,
        hidden,
        Conv::new(3).stride(stride).groups(hidden),
        GELU,
    );
    let y = b.squeeze_excitation(&format!("{name}.se"), &y, c / 4, Then::Act(Function::Silu));
    let y = b.conv(&format!("{name}.conv3_1x1"), &y, c, Conv::new(1).bias());
    b.add(&format!("{name}.add"), &y, &shortcut)
}

fn transformer(b: &mut Builder, name: &str, x: &Tensor, c: u64, first: bool) -> Tensor {
    let shortcut = if first {
        downsampled(b, &format!("{name}.shortcut"), x, c)
    } else {
        x.clone()
    };
    let mut y = b.norm(&format!("{name}.norm1"), LayerKind::Ln, x);
    if first {
        y = b.pool(&format!("{name}.norm1.down"), LayerKind::Avgpool, &y, 2, 2, 0);
    }
    let positions: u64 = y[1..].iter().product();
    let table: u64 = y[1..].iter().map(|&s| 2 * s - 1).product();
    let bias = Some(("rel_pos", table));
    let y = attention(b, name, &y, c, c / HEAD_WIDTH, positions, bias, Linear::Conv1x1);
    let x = b.add(&format!("{name}.add1"), &y, &shortcut);
    mlp_residual(b, name, &x, MLP_4X_GELU, Linear::Conv1x1)
}

/// CoAtNet-0 at 224×224.
///
/// # Errors
/// None for these shapes (its test builds it).
pub fn coatnet_0() -> Result<Network, InputError> {
    let mut b = Builder::default();
    let x = b.conv_bn(
        "stem.conv1",
        &Tensor::input(&[3, 224, 224]),
        64,
        Conv::new(3).stride(2),
        GELU,
    );
    let mut x = b.conv("stem.conv2", &x, 64, Conv::new(3));
    for (stage, (blocks, c)) in CONV_STAGES.into_iter().enumerate() {
        for i in 0..blocks {
            x = mbconv(&mut b, &format!("stages.{stage}.blocks.{i}"), &x, c, i == 0);
        }
    }
    for (stage, (blocks, c)) in ATTENTION_STAGES.into_iter().enumerate() {
        for i in 0..blocks {
            let name = format!("stages.{}.blocks.{i}", stage + CONV_STAGES.len());
            x = transformer(&mut b, &name, &x, c, i == 0);
        }
    }
    let x = b.global_pool("head.global_pool", &x);
    let x = b.norm("head.norm", LayerKind::Ln, &x);
    let x = b.fc("head.pre_logits.fc", &x, x[0]);
    let x = b.act("head.pre_logits.tanh", &x, Function::Tanh);
    b.fc("head.fc", &x, 1000);
    b.network("CoAtNet-0", "ImageNet", IMAGENET_SAMPLES, &[3, 224, 224])
}

#[cfg(test)]
mod tests {
    use super::super::transformer::counted::{assert_saved_within_10_percent, assert_timms};
    use super::*;

    /// timm 1.0.31's `coatnet_0_224` (`tests/timm/presets.csv`):
    /// 25,036,820 parameters; `FlopCounterMode` 9,093,015,552 forward FLOPs
    /// per sample with the attention products, 8,783,228,928 without;
    /// autograd saves 248,025,120 bytes per sample in FP32 (its attention
    /// eager: a relative position bias is added to the scores).
    #[test]
    fn parameters_flops_and_saved_bytes_are_timms() {
        let n = coatnet_0().unwrap();
        assert_timms(&n, 25_036_820.0, 8_783_228_928.0, 9_093_015_552.0);
        assert_saved_within_10_percent(&n, 248_025_120.0);
    }
}
