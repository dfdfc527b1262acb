//! Tensor parallelism of a transformer's blocks (contract, section 15):
//! filter and channel parallelism split the heads of an attention and the
//! hidden width of an MLP as Megatron-LM does. The first linear layer of a
//! block (the `Q`, `K`, `V` projection, the MLP's first layer) is split by
//! its outputs (a column of the weights each), every layer after it runs
//! on its share of the heads or hidden units alone, and the last linear
//! layer (the attention's output projection, the MLP's second layer) is
//! split by its inputs: its partial outputs are summed by one Allreduce
//! forward, and the first layer's input gradients by one backward.

use crate::oracle::model::layer::{Layer, LayerKind, Source};
use crate::oracle::model::network::Network;

/// What a layer is to a tensor-parallel block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TensorRole {
    /// Outside a block's split (layer norms, residual sums, embeddings,
    /// the head): every GPU runs it whole.
    #[default]
    Whole,
    /// The block's first linear layer: split by its outputs.
    Column,
    /// Between the first and the last: runs on its share (products,
    /// softmax, activations, scales, dropouts).
    Inside,
    /// The block's last linear layer: split by its inputs; its output is
    /// summed by an Allreduce.
    Row,
}

/// A linear layer at each position (kernel 1, positions kept; section 15).
pub fn per_position(layer: &Layer) -> bool {
    layer.kind() == LayerKind::Fc
        && layer.kernel().iter().all(|&k| k <= 1)
        && layer.x().spatial() == layer.y().spatial()
        && layer.x().spatial().iter().product::<u64>() > 1
}

/// Whether a layer may sit between a block's first and last linear
/// layers.
fn may_be_inside(layer: &Layer) -> bool {
    match layer.kind() {
        LayerKind::Matmul | LayerKind::Act | LayerKind::Relu | LayerKind::Dropout => true,
        LayerKind::Mul => layer.weight_items() <= 1.0,
        // a relative position bias added to the scores (its table split by heads too)
        LayerKind::Other => layer.x() == layer.y() && layer.function().is_none(),
        _ => false,
    }
}

/// Each layer's role, for a network with products of computed tensors (a
/// transformer); every layer [`TensorRole::Whole`] otherwise.
///
/// # Formula
/// A row is a linear layer at each position whose output a residual sum
/// reads. From it, back through the tensors it reads: layers that may be
/// inside (products, activations, scales, dropouts) are inside, linear
/// layers at each position are columns (the walk stops there). A block
/// whose walk meets anything else stays whole.
pub fn roles(network: &Network) -> Vec<TensorRole> {
    let layers = network.layers();
    let mut roles = vec![TensorRole::Whole; layers.len()];
    if !layers.iter().any(|l| l.kind().is_product()) {
        return roles;
    }
    let read_by_add: Vec<bool> = {
        let mut read = vec![false; layers.len()];
        for (i, l) in layers.iter().enumerate() {
            if l.kind() == LayerKind::Add {
                for s in network.sources(i) {
                    if let Source::Layer(j) = s {
                        read[j] = true;
                    }
                }
            }
        }
        read
    };
    for (row, layer) in layers.iter().enumerate() {
        if !(per_position(layer) && read_by_add[row]) {
            continue;
        }
        let mut found = vec![(row, TensorRole::Row)];
        let mut stack: Vec<Source> = network.sources(row);
        let mut columns = 0;
        let mut ok = true;
        while let Some(source) = stack.pop() {
            let Source::Layer(j) = source else {
                ok = false;
                break;
            };
            if found.iter().any(|(k, _)| *k == j) {
                continue;
            }
            if per_position(&layers[j]) {
                found.push((j, TensorRole::Column));
                columns += 1;
            } else if may_be_inside(&layers[j]) {
                found.push((j, TensorRole::Inside));
                stack.extend(network.sources(j));
            } else {
                ok = false;
                break;
            }
        }
        if ok && columns > 0 && found.iter().all(|(j, _)| roles[*j] == TensorRole::Whole) {
            for (j, role) in found {
                roles[j] = role;
            }
        }
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn a_vits_blocks_split_as_megatron_splits_them() {
        let n = presets::network("deit-s").unwrap();
        let roles = roles(&n);
        let of = |name: &str| roles[n.layers().iter().position(|l| l.name() == name).unwrap()];
        assert_eq!(of("blocks.3.attn.qkv"), TensorRole::Column);
        assert_eq!(of("blocks.3.attn.scores"), TensorRole::Inside);
        assert_eq!(of("blocks.3.attn.softmax"), TensorRole::Inside);
        assert_eq!(of("blocks.3.attn.proj"), TensorRole::Row);
        assert_eq!(of("blocks.3.mlp.fc1"), TensorRole::Column);
        assert_eq!(of("blocks.3.mlp.gelu"), TensorRole::Inside);
        assert_eq!(of("blocks.3.mlp.fc2"), TensorRole::Row);
        assert_eq!(of("blocks.3.norm1"), TensorRole::Whole);
        assert_eq!(of("blocks.3.add1"), TensorRole::Whole);
        assert_eq!(of("head"), TensorRole::Whole);
        assert_eq!(roles.iter().filter(|r| **r == TensorRole::Row).count(), 24);
    }

    #[test]
    fn a_swin_block_splits_its_windowed_attention_and_its_relative_position_bias() {
        let n = presets::network("swin-t").unwrap();
        let roles = roles(&n);
        let of = |name: &str| roles[n.layers().iter().position(|l| l.name() == name).unwrap()];
        assert_eq!(of("layers.2.blocks.1.attn.relative_position_bias"), TensorRole::Inside);
        assert_eq!(of("layers.2.blocks.1.attn.proj"), TensorRole::Row);
        assert_eq!(of("layers.2.downsample.reduction"), TensorRole::Whole);
        assert_eq!(roles.iter().filter(|r| **r == TensorRole::Row).count(), 24);
    }

    #[test]
    fn a_cnn_stays_whole() {
        let n = presets::network("convnext-tiny").unwrap();
        assert!(roles(&n).iter().all(|r| *r == TensorRole::Whole));
    }
}
