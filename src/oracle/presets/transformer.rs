//! A transformer's pre-norm block as timm builds ViT's and Swin's: layer
//! norm, multi-head self-attention (section 15: the scores `Q·Kᵀ` and the
//! context `A·V`, the scale and softmax between them), a residual sum,
//! layer norm, a 4× MLP with GELU, a residual sum. Linear layers act at
//! each position.

use super::builder::{Builder, Tensor};
use crate::oracle::model::layer::{Function, LayerKind};

/// The MLP's hidden width over the token width.
const MLP_RATIO: u64 = 4;

/// Which keys each query attends to.
#[derive(Debug, Clone, Copy)]
pub enum Attends {
    /// Every token of the sample (ViT): `N` keys a query.
    Globally,
    /// The `w×w` tokens of its window (Swin), with a trained relative
    /// position bias of `(2w − 1)²` values a head added to the scores.
    InWindows(u64),
}

/// One block of `heads` heads on the tokens `x` (`[C, positions...]`).
pub fn block(b: &mut Builder, name: &str, x: &Tensor, heads: u64, attends: Attends) -> Tensor {
    let c = x[0];
    let keys = match attends {
        Attends::Globally => x[1..].iter().product(),
        Attends::InWindows(w) => w * w,
    };
    let y = b.norm(&format!("{name}.norm1"), LayerKind::Ln, x);
    let qkv = b.linear(&format!("{name}.attn.qkv"), &y, 3 * c, true);
    let q = b.slice_scale(&format!("{name}.attn.scale"), &qkv, c);
    let mut scores = b.product(&format!("{name}.attn.scores"), &q, &qkv, heads, heads * keys);
    if let Attends::InWindows(w) = attends {
        let table = (2 * w - 1) * (2 * w - 1);
        scores = b.table(
            &format!("{name}.attn.relative_position_bias"),
            &scores,
            vec![table, heads],
        );
    }
    let attn = b.act(&format!("{name}.attn.softmax"), &scores, Function::Softmax);
    let context = b.product(&format!("{name}.attn.context"), &attn, &qkv, heads, c);
    let y = b.linear(&format!("{name}.attn.proj"), &context, c, true);
    let x = b.add(&format!("{name}.add1"), &y, x);
    let y = b.norm(&format!("{name}.norm2"), LayerKind::Ln, &x);
    let y = b.linear(&format!("{name}.mlp.fc1"), &y, MLP_RATIO * c, true);
    let y = b.act(&format!("{name}.mlp.gelu"), &y, Function::Gelu);
    let y = b.linear(&format!("{name}.mlp.fc2"), &y, c, true);
    b.add(&format!("{name}.add2"), &y, &x)
}
