//! A transformer's pre-norm block as timm builds ViT's and Swin's: layer
//! norm, multi-head self-attention (section 15: the scores `Q·Kᵀ` and the
//! context `A·V`, the scale and softmax between them), a residual sum,
//! layer norm, an MLP (4× with GELU in ViT and Swin, 2× with SiLU in
//! MobileViT), a residual sum. Linear layers act at each position, or are
//! 1×1 convolutions on the map (CoAtNet's transformer stages, which build
//! their blocks from the same attention and MLP).

use super::builder::{Builder, Conv, Tensor};
use crate::oracle::model::layer::{Function, LayerKind};

/// A block's MLP: its hidden width over the token width, and its
/// activation.
#[derive(Debug, Clone, Copy)]
pub struct Mlp {
    /// The hidden width over the token width.
    pub ratio: u64,
    /// The activation between its two linear layers.
    pub function: Function,
}

/// ViT's and Swin's MLP: 4× with GELU.
pub const MLP_4X_GELU: Mlp = Mlp {
    ratio: 4,
    function: Function::Gelu,
};

/// Which keys each query attends to.
#[derive(Debug, Clone, Copy)]
pub enum Attends {
    /// Every token of the sample (ViT): `N` keys a query.
    Globally,
    /// The `w×w` tokens of its window (Swin), with a trained relative
    /// position bias of `(2w − 1)²` values a head added to the scores.
    InWindows(u64),
    /// The tokens at its place in every patch of `area` pixels (MobileViT:
    /// the image unfolded into `area` sequences of `positions / area`
    /// tokens).
    InPatches(u64),
}

/// How a block's linear layers run.
#[derive(Debug, Clone, Copy)]
pub enum Linear {
    /// `nn.Linear` at each position, a GEMM (ViT, Swin, MobileViT).
    PerPosition,
    /// A 1×1 convolution with a bias on the map (CoAtNet's).
    Conv1x1,
}

impl Linear {
    /// A linear layer with a bias from `x` to `outputs` channels.
    fn apply(self, b: &mut Builder, name: &str, x: &Tensor, outputs: u64) -> Tensor {
        match self {
            Self::PerPosition => b.linear(name, x, outputs, true),
            Self::Conv1x1 => b.conv(name, x, outputs, Conv::new(1).bias()),
        }
    }
}

/// A trained relative position bias added to the scores: its layer's name
/// in the block's attention and its values per head.
pub type PositionBias<'a> = (&'a str, u64);

/// Multi-head self-attention of `heads` heads on `y`, `width` channels
/// wide: `Q`, `K`, `V` by one linear layer, the scores of `keys` keys per
/// query and head, a `bias` added to them if any, the softmax, the
/// context and the output projection.
#[allow(clippy::too_many_arguments)]
pub fn attention(
    b: &mut Builder,
    name: &str,
    y: &Tensor,
    width: u64,
    heads: u64,
    keys: u64,
    bias: Option<PositionBias>,
    linear: Linear,
) -> Tensor {
    let qkv = linear.apply(b, &format!("{name}.attn.qkv"), y, 3 * width);
    let q = b.slice_scale(&format!("{name}.attn.scale"), &qkv, width);
    let mut scores = b.product(&format!("{name}.attn.scores"), &q, &qkv, heads, heads * keys);
    if let Some((table_name, table)) = bias {
        scores = b.table(&format!("{name}.attn.{table_name}"), &scores, vec![table, heads]);
    }
    let attn = b.act(&format!("{name}.attn.softmax"), &scores, Function::Softmax);
    let context = b.product(&format!("{name}.attn.context"), &attn, &qkv, heads, width);
    linear.apply(b, &format!("{name}.attn.proj"), &context, width)
}

/// The block's second half on `x`: a layer norm, the MLP and a residual
/// sum.
pub fn mlp_residual(b: &mut Builder, name: &str, x: &Tensor, mlp: Mlp, linear: Linear) -> Tensor {
    let c = x[0];
    let y = b.norm(&format!("{name}.norm2"), LayerKind::Ln, x);
    let y = linear.apply(b, &format!("{name}.mlp.fc1"), &y, mlp.ratio * c);
    let y = b.act(&format!("{name}.mlp.{}", mlp.function.name()), &y, mlp.function);
    let y = linear.apply(b, &format!("{name}.mlp.fc2"), &y, c);
    b.add(&format!("{name}.add2"), &y, x)
}

/// One block of `heads` heads on the tokens `x` (`[C, positions...]`).
pub fn block(b: &mut Builder, name: &str, x: &Tensor, heads: u64, attends: Attends, mlp: Mlp) -> Tensor {
    let c = x[0];
    let positions: u64 = x[1..].iter().product();
    let (keys, bias) = match attends {
        Attends::Globally => (positions, None),
        Attends::InWindows(w) => (w * w, Some(("relative_position_bias", (2 * w - 1) * (2 * w - 1)))),
        Attends::InPatches(area) => (positions / area.max(1), None),
    };
    let y = b.norm(&format!("{name}.norm1"), LayerKind::Ln, x);
    let y = attention(b, name, &y, c, heads, keys, bias, Linear::PerPosition);
    let x = b.add(&format!("{name}.add1"), &y, x);
    mlp_residual(b, name, &x, mlp, Linear::PerPosition)
}

/// What the transformer presets' tests hold to PyTorch's counts.
#[cfg(test)]
pub mod counted {
    use crate::oracle::AttentionForm;
    use crate::oracle::cost::saved::saved_tensors;
    use crate::oracle::model::network::Network;

    /// Forward FLOPs per sample of the layers with weights, and of the
    /// attention products where `products` (as `FlopCounterMode` counts).
    pub fn flops(n: &Network, products: bool) -> f64 {
        n.layers()
            .iter()
            .filter(|l| l.kind().has_weights() || (products && l.kind().is_product()))
            .map(|l| l.forward_flops())
            .sum()
    }

    /// Bytes per sample saved for the backward pass in FP32, attention
    /// fused.
    pub fn saved_fp32(n: &Network) -> f64 {
        saved_tensors(n, 4.0, false, AttentionForm::Fused)
            .iter()
            .map(|t| t.bytes())
            .sum()
    }

    /// Holds a preset to timm's counts: its parameters exactly, and
    /// `FlopCounterMode`'s forward FLOPs per sample without and with the
    /// attention products.
    pub fn assert_timms(n: &Network, parameters: f64, flops_without: f64, flops_with: f64) {
        assert_eq!(n.weight_items(), parameters);
        assert_eq!(flops(n, false), flops_without);
        assert_eq!(flops(n, true), flops_with);
    }

    /// Holds a preset's FP32 saved bytes within 10% of autograd's `bytes`.
    pub fn assert_saved_within_10_percent(n: &Network, bytes: f64) {
        let ratio = saved_fp32(n) / bytes;
        assert!((ratio - 1.0).abs() <= 0.10, "{ratio}");
    }
}
