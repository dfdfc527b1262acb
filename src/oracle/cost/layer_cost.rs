//! What one layer costs per sample on one cluster: the per-layer numbers
//! every strategy and split starts from.

use super::saved::SavedTensors;
use super::tensor::{TensorRole, per_position};
use crate::oracle::model::layer::{Layer, LayerKind};

/// What one layer costs, per sample, on one cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerCost {
    pub kind: LayerKind,
    /// `t_l`: training (forward + backward) seconds per sample.
    pub time_s: f64,
    /// `act_l`: activation items kept per sample.
    pub activation_items: f64,
    /// `|w_l|`: the parameters the layer holds, a shared tensor counted
    /// once, at its first use (section 10): what weight, gradient and
    /// optimizer memory, the gradient exchanges, ZeRO's shards, the
    /// overlap's buckets and a pipeline stage's weights add up. The
    /// kernels' weight traffic is per use ([`super::kernels::LayerWork`]).
    pub weight_items: f64,
    /// `|y_l|`.
    pub output_items: f64,
    /// `|x_l|`.
    pub input_items: f64,
    /// `C_l/g_l`: input channels per group (`x[0]` but for a grouped
    /// convolution), what a channel split divides.
    pub in_channels: u64,
    /// `F_l = y[0]`.
    pub out_channels: u64,
    /// `min(width of x, width of y)`.
    pub width: u64,
    /// `h_x = C_l·⌊K_l/2⌋·Π(x spatial after the first)`, 0 when `K_l ≤ 1`.
    pub halo_x_items: f64,
    /// `h_y = F_l·⌊K_l/2⌋·Π(y spatial after the first)`, 0 when `K_l ≤ 1`.
    pub halo_y_items: f64,
    /// The tensors autograd saves for the layer's backward pass, bytes per
    /// sample (section 11; empty without the framework's memory facts).
    pub saved: SavedTensors,
    /// A linear layer at each position (a transformer's, section 15): a
    /// width split divides it as a 1×1 convolution.
    pub per_position: bool,
    /// `h`: the heads of a product (section 15), 0 for any other layer.
    pub heads: u64,
    /// `|o|`: a global product's other operand per sample (a self-attention's
    /// keys or values, which a token split gathers whole), or the output of
    /// one summing over the positions (its partial sums, reduced), 0 for
    /// any other layer.
    pub gathered_items: f64,
    /// Its part in a tensor-parallel block (section 15).
    pub tensor_role: TensorRole,
}

/// The costs of `layer`, `time_s` per sample, with the tensors autograd
/// saves for it.
///
/// # Formula
/// A product is global when every position's row spans all positions: its
/// columns per head `F/h` or its reduction `C/h` is the positions' count
/// `P`; then `|o| = min(|x|, |y|)` (its keys or values). A product that
/// sums over the positions exchanges its output's partial sums: `|o| = |y|`
/// (an Allreduce of `|y|` costs what an allgather and a reduce-scatter of
/// it do).
pub(super) fn layer_cost(layer: &Layer, time_s: f64, saved: SavedTensors, tensor_role: TensorRole) -> LayerCost {
    let heads = if layer.kind().is_product() { layer.groups() } else { 0 };
    let positions: u64 = layer.x().spatial().iter().product();
    let global = heads > 0 && (layer.y().channels() / heads == positions || layer.x().channels() / heads == positions);
    let gathered_items = if layer.sums_over_positions() {
        // each part's partial sums, reduced across the token split: an Allreduce of `|y|`,
        // the volume of an allgather and a reduce-scatter of `|y|`
        layer.y().items()
    } else if global {
        layer.other_operand_items()
    } else {
        0.0
    };
    let half_kernel = (layer.kernel_size() / 2) as f64;
    let (halo_x_items, halo_y_items) = if layer.kernel_size() > 1 {
        (
            layer.x().channels() as f64 * half_kernel * layer.x().cross_section(),
            layer.y().channels() as f64 * half_kernel * layer.y().cross_section(),
        )
    } else {
        (0.0, 0.0)
    };
    LayerCost {
        kind: layer.kind(),
        time_s,
        activation_items: layer.activation_items(),
        weight_items: layer.own_weight_items(),
        output_items: layer.y().items(),
        input_items: layer.x().items(),
        in_channels: layer.x().channels() / layer.groups(),
        out_channels: layer.y().channels(),
        width: layer.x().width().min(layer.y().width()),
        halo_x_items,
        halo_y_items,
        saved,
        per_position: per_position(layer),
        heads,
        gathered_items,
        tensor_role,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerSpec;
    use crate::oracle::model::shape::Shape;

    fn product(y: &[u64]) -> Layer {
        Layer::new(LayerSpec {
            groups: 4,
            reads: Some(vec![-1, -1]),
            ..LayerSpec::plain(
                "attn",
                LayerKind::Matmul,
                Shape::new(vec![64, 7, 7]),
                Shape::new(Vec::new()),
                Shape::new(y.to_vec()),
            )
        })
        .unwrap()
    }

    #[test]
    fn a_token_split_gathers_global_keys_and_adds_up_partial_sums() {
        let cost = |l: &Layer| layer_cost(l, 0.0, SavedTensors::default(), TensorRole::Whole).gathered_items;
        // global scores over 49 tokens: the keys, |o| = min(|x|, |y|)
        assert_eq!(cost(&product(&[4 * 49, 7, 7])), 64.0 * 49.0);
        // summed over the 49 tokens (`q̂ᵀ·k̂` of 4 heads of 16): each part's partial sums, |y|
        assert_eq!(cost(&product(&[4 * 16 * 16, 1, 1])), 4.0 * 16.0 * 16.0);
    }
}
