//! Activations as autograd keeps them (contract, section 11): the tensors
//! each layer's backward pass needs, each stored once, in the precision it
//! is saved in.
//!
//! What each kind saves follows PyTorch's derivative formulas
//! (`tools/autograd/derivatives.yaml`): a convolution or fully connected
//! layer its input; a batch norm its input; a layer norm its input and a
//! mean and a reciprocal deviation per position; a ReLU its output (in
//! place, it is the tensor the next layer reads); any other activation its
//! input (SiLU, GELU, Hardswish, ...; a sigmoid saves its output, the same
//! size); a max pool its input and its indices (64-bit integers, one an
//! output item); an average pool its input, unless it pools to one
//! position (a global pool is a mean, which saves nothing of the input);
//! an elementwise product its full-size operand; a dropout its mask (one
//! byte an item); an add, a concatenation or a reshape nothing.
//!
//! A tensor is saved once however many layers save it: a layer's input is
//! the previous layer's output when their shapes agree (the layer list is
//! a topological order of the graph), so a ReLU's output read by the next
//! convolution counts once.
//!
//! Under mixed precision (FP16 or BF16 autocast) activations are saved in
//! 16 bits, except what autocast computes in FP32 (a layer norm's input,
//! PyTorch's "CUDA ops that can autocast to float32"), indices and masks.

use crate::oracle::model::layer::{Layer, LayerKind};

/// Bytes of a max pool's index (`int64`).
const INDEX_BYTES: f64 = 8.0;
/// Bytes of a dropout mask's item (`bool`).
const MASK_BYTES: f64 = 1.0;
/// Bytes of an FP32 item (statistics, what autocast keeps in FP32).
const FP32_BYTES: f64 = 4.0;

/// The tensors one layer saves for the backward pass, bytes per sample
/// each (those already saved by the previous layer left out).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SavedTensors {
    /// Bytes per sample of each tensor saved.
    pub tensors: Vec<f64>,
}

impl SavedTensors {
    /// Their sum, bytes per sample.
    pub fn bytes(&self) -> f64 {
        self.tensors.iter().sum()
    }
}

/// What a kind saves of its input and output.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rule {
    input: bool,
    output: bool,
    /// The output is the input's storage (in place, or a view).
    output_is_input: bool,
}

fn rule(layer: &Layer) -> Rule {
    let (input, output, output_is_input) = match layer.kind() {
        LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc | LayerKind::Bn | LayerKind::Ln => (true, false, false),
        LayerKind::Act | LayerKind::Mul | LayerKind::Maxpool => (true, false, false),
        LayerKind::Avgpool => (layer.y().cross_section() * layer.y().width() as f64 > 1.0, false, false),
        LayerKind::Relu => (false, true, true),
        LayerKind::Other => (false, false, true),
        LayerKind::Add | LayerKind::Concat | LayerKind::Dropout => (false, false, false),
    };
    Rule {
        input,
        output,
        output_is_input,
    }
}

/// The tensors each of `layers` saves for its backward pass, with `h`-byte
/// activations (`mixed`: 16-bit autocast, which keeps a layer norm's input
/// in FP32).
///
/// # Formula
/// Per layer and sample: its input `|x|·h` when it saves its input and
/// that tensor is not the previous layer's saved output (same shape,
/// adjacent); its output `|y|·h` for a ReLU; a max pool's indices
/// `8·|y|`; a dropout's mask `1·|y|`; a layer norm's `2·4·P` statistics
/// (`P` positions), and its input at 4 bytes under mixed precision.
pub fn saved_tensors(layers: &[Layer], h: f64, mixed: bool) -> Vec<SavedTensors> {
    let mut previous: Option<(&Layer, bool)> = None;
    layers
        .iter()
        .map(|layer| {
            let rule = rule(layer);
            let input_already = previous.is_some_and(|(p, saved)| saved && p.y() == layer.x());
            let mut tensors = Vec::new();
            let x = layer.x().items();
            let y = layer.y().items();
            if rule.input && !input_already {
                let item = if mixed && layer.kind() == LayerKind::Ln {
                    FP32_BYTES
                } else {
                    h
                };
                tensors.push(x * item);
            }
            if rule.output {
                tensors.push(y * h);
            }
            match layer.kind() {
                LayerKind::Maxpool => tensors.push(y * INDEX_BYTES),
                LayerKind::Dropout => tensors.push(y * MASK_BYTES),
                LayerKind::Ln => {
                    let positions = x / layer.x().channels() as f64;
                    tensors.push(2.0 * FP32_BYTES * positions);
                }
                _ => {}
            }
            let input_saved = input_already || rule.input;
            let output_saved = rule.output || (rule.output_is_input && input_saved);
            previous = Some((layer, output_saved));
            SavedTensors { tensors }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerSpec;

    fn layer(kind: LayerKind, x: [u64; 3], y: [u64; 3]) -> Layer {
        let w = if kind.has_weights() {
            vec![x[0], y[0], 3, 3]
        } else if kind.is_pool() {
            vec![0, 0, 2, 2]
        } else {
            vec![]
        };
        Layer::new(LayerSpec::plain("L", kind, x.into(), w.into(), y.into())).unwrap()
    }

    #[test]
    fn conv_bn_relu_pool_by_hand() {
        let a = [64, 8, 8];
        let layers = [
            layer(LayerKind::Conv, [3, 8, 8], a),
            layer(LayerKind::Bn, a, a),
            layer(LayerKind::Relu, a, a),
            layer(LayerKind::Maxpool, a, [64, 4, 4]),
            layer(LayerKind::Conv, [64, 4, 4], [64, 4, 4]),
            layer(LayerKind::Add, [64, 4, 4], [64, 4, 4]),
            layer(LayerKind::Avgpool, [64, 4, 4], [64, 1, 1]),
        ];
        let saved = saved_tensors(&layers, 4.0, false);
        let bytes: Vec<f64> = saved.iter().map(SavedTensors::bytes).collect();
        // conv: its input; bn: its input (the conv's output); relu: its output; the pool reads
        // the relu's output (saved): only its indices; the conv reads the pool's output (not
        // saved by the pool): its input; add nothing; a global average pool nothing
        assert_eq!(
            bytes,
            [
                4.0 * 192.0,
                4.0 * 4096.0,
                4.0 * 4096.0,
                8.0 * 1024.0,
                4.0 * 1024.0,
                0.0,
                0.0
            ]
        );
        // mixed precision: activations in 2 bytes, indices still 8
        let mixed = saved_tensors(&layers, 2.0, true);
        assert_eq!(mixed[2].bytes(), 2.0 * 4096.0);
        assert_eq!(mixed[3].bytes(), 8.0 * 1024.0);
    }

    #[test]
    fn other_activations_and_norms_save_their_input() {
        let a = [32, 4, 4];
        let layers = [
            layer(LayerKind::Conv, [3, 4, 4], a),
            layer(LayerKind::Ln, a, a),
            layer(LayerKind::Act, a, a),
            layer(LayerKind::Dropout, a, a),
            layer(LayerKind::Fc, a, a),
        ];
        let saved = saved_tensors(&layers, 2.0, true);
        // the layer norm's input in FP32 under autocast, and mean and rstd per position
        assert_eq!(saved[1].tensors, [4.0 * 512.0, 8.0 * 16.0]);
        assert_eq!(saved[2].tensors, [2.0 * 512.0]);
        assert_eq!(saved[3].tensors, [512.0]);
        // the fc reads the dropout's output, which nobody saved
        assert_eq!(saved[4].tensors, [2.0 * 512.0]);
    }
}
