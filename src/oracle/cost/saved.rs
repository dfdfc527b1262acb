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
//! A tensor is saved once however many layers save it: each layer knows
//! the tensors it reads (the outputs of earlier layers, or the network's
//! input; a chain reads the previous layer's), so a tensor read by a
//! convolution and by a residual branch's convolution counts once, and a
//! layer that writes in place (a ReLU, a leaky ReLU or an ELU as PyTorch
//! runs them, but a leaky ReLU or ELU right after an addition) writes its
//! input's storage. A saved slice of a
//! tensor keeps the whole tensor, as a view keeps its storage.
//!
//! Under mixed precision (FP16 or BF16 autocast) each tensor is 16-bit or
//! FP32 as CUDA's autocast and PyTorch's type promotion make it (PyTorch's
//! "CUDA ops that can autocast to float16 / float32"), and a tensor saved
//! in both widths (a cast copy) counts in both; a cast copy of a part of a
//! tensor (attention's `q`, a third of its `qkv` projection) is a tensor
//! of its own, of the part's items, where a view would keep the whole;
//! indices and masks keep their own widths.

use std::collections::HashSet;

use super::attention::{self, Role};
use crate::oracle::model::layer::{Function, Layer, LayerKind, Source};
use crate::oracle::model::network::Network;
use crate::oracle::model::practice::AttentionForm;

/// Bytes of a max pool's index (`int64`).
const INDEX_BYTES: f64 = 8.0;
/// Bytes of a dropout mask's item (`bool`).
const MASK_BYTES: f64 = 1.0;
/// Bytes of an FP32 item (statistics, what autocast keeps in FP32).
const FP32_BYTES: f64 = 4.0;

/// The tensors one layer saves for the backward pass, bytes per sample
/// each (those already saved by an earlier layer left out).
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

/// What a layer saves of the tensors it reads and writes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Saves {
    /// Its (first) input.
    Input,
    /// Every tensor it reads (an elementwise product: each operand is the
    /// other's gradient).
    Inputs,
    /// Every tensor it reads, in the width it runs in (a product of two
    /// computed tensors, section 15: autocast casts both operands to 16
    /// bits and saves the copies).
    Operands,
    /// Its output.
    Output,
    Nothing,
}

fn saves(layer: &Layer, after_add: bool) -> Saves {
    match layer.kind() {
        LayerKind::Act if after_add && layer.function().is_some_and(|f| f.in_place()) => Saves::Input,
        LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc | LayerKind::Bn | LayerKind::Ln | LayerKind::Maxpool => {
            Saves::Input
        }
        LayerKind::Avgpool if layer.y().cross_section() * layer.y().width() as f64 > 1.0 => Saves::Input,
        LayerKind::Act if layer.function().is_some_and(|f| f.saves_output()) => Saves::Output,
        LayerKind::Act => Saves::Input,
        LayerKind::Mul => Saves::Inputs,
        LayerKind::Matmul => Saves::Operands,
        LayerKind::Relu => Saves::Output,
        // an operation named by a function saves as it does (a reflection pad its input)
        LayerKind::Other if layer.function().is_some_and(|f| f.saves_output()) => Saves::Output,
        LayerKind::Other if layer.function().is_some() => Saves::Input,
        LayerKind::Avgpool | LayerKind::Add | LayerKind::Concat | LayerKind::Dropout | LayerKind::Other => {
            Saves::Nothing
        }
    }
}

/// The widths autocast runs `layer` in, given whether its first input and
/// any input are FP32: whether it reads (and saves) FP32, and whether it
/// writes FP32 (see [`saved_tensors`]).
fn runs_in(layer: &Layer, input_wide: bool, any_wide: bool) -> (bool, bool) {
    match layer.kind() {
        LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc | LayerKind::Matmul => (false, false),
        // autocast's FP32 list: a softmax
        LayerKind::Act if layer.function() == Some(Function::Softmax) => (true, true),
        // autocast's FP32 list: a layer or group norm, a power, a norm
        LayerKind::Ln => (true, true),
        LayerKind::Act | LayerKind::Other if layer.function() == Some(Function::Fp32) => (true, true),
        // a zero-dimension scalar takes no part in type promotion: only a scale of several items
        LayerKind::Mul => (input_wide, any_wide || layer.weight_items() > 1.0),
        LayerKind::Add | LayerKind::Concat => (input_wide, any_wide),
        _ => (input_wide, input_wide),
    }
}

/// Under mixed precision, the widths of each layer's tensors (section 11):
/// FP32 or 16-bit, as CUDA's autocast and type promotion make them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Widths {
    /// Its (first) input is FP32.
    pub input: bool,
    /// It runs in FP32: it reads its input as FP32 (a 16-bit layer reading
    /// an FP32 input reads a cast copy).
    pub runs: bool,
    /// Its output is FP32.
    pub output: bool,
}

/// The widths of every layer's tensors under mixed precision (all 16-bit
/// but the network's FP32 input and what autocast and type promotion make
/// FP32; see [`saved_tensors`]).
pub fn widths(network: &Network) -> Vec<Widths> {
    let layers = network.layers();
    let mut out: Vec<Widths> = Vec::with_capacity(layers.len());
    for (i, layer) in layers.iter().enumerate() {
        let wide: Vec<bool> = network
            .sources(i)
            .iter()
            .map(|&source| match source {
                Source::Input => true,
                Source::Layer(j) => out[j].output,
            })
            .collect();
        let input = wide.first().copied().unwrap_or(false);
        let (runs, output) = runs_in(layer, input, wide.iter().any(|&w| w));
        out.push(Widths { input, runs, output });
    }
    out
}

/// Whether a layer writes its output into its input's storage: a ReLU or
/// an in-place activation (section 11), except a leaky ReLU or an ELU
/// right after an addition (`after_add`), which runs out of place and
/// saves its input: a residual's `act(x + shortcut)` as timm writes it
/// (`create_act_layer(act_layer)`, whose `inplace` defaults to false;
/// `cspnet.py`'s `BottleneckBlock.act3`).
fn in_place(layer: &Layer, after_add: bool) -> bool {
    match layer.kind() {
        LayerKind::Relu => true,
        LayerKind::Act => !after_add && layer.function().is_some_and(|f| f.in_place()),
        _ => false,
    }
}

/// A storage of activations: the network's input, a layer's output (the
/// layer that allocated it), or the input of a chain's layer whose shape
/// is not its predecessor's output (a tensor of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Storage {
    Input,
    Output(usize),
    Own(usize),
}

/// The tensors each layer of `network` saves for its backward pass, with
/// `h`-byte activations (`mixed`: 16-bit autocast, under which a tensor is
/// 16-bit or FP32 as autocast and type promotion make it).
///
/// # Formula
/// Per layer and sample, each storage counted once over the network in
/// each width it is saved in: a layer that saves its input saves the
/// storage it reads (the whole output `|y_j|` of the layer `j` that
/// allocated it, or `|x|` for the network's input); an elementwise product
/// every storage it reads; a ReLU, sigmoid, tanh, softmax or in-place
/// activation its output; a max pool's indices `8·|y|`; a dropout's mask
/// `1·|y|`; a layer norm's `2·4·P` statistics (`P` positions). A layer that
/// writes in place writes the storage it reads. A layer without `reads`
/// whose input shape is not its predecessor's output reads a tensor of
/// its own (`|x|`). Items are `h` bytes; under mixed precision a tensor is
/// FP32 (4 bytes) or 16-bit (`h`) as CUDA's autocast makes it: a
/// convolution or fully connected layer saves a 16-bit copy of its input
/// and writes 16 bits; a layer norm (also a group norm) or an operation of
/// function `fp32` (a power, a norm) saves an FP32 copy and writes FP32
/// (autocast's FP32 list); a product by a trained scale of several items
/// (an FP32 parameter: a layer scale, an affine; a one-item scalar does
/// not promote) writes FP32, and an addition, product or concatenation of
/// an FP32 tensor writes FP32 (type promotion); every other layer keeps
/// its input's width; the network's input is FP32.
pub fn saved_tensors(network: &Network, h: f64, mixed: bool, attention: AttentionForm) -> Vec<SavedTensors> {
    let widths = mixed.then(|| widths(network));
    saved_with(network, h, widths.as_deref(), &attention::roles_in(network, attention))
}

/// [`saved_tensors`] with the network's attentions' `roles` and, under
/// mixed precision, its tensors' `widths` found (the cost table finds them
/// once for its kernels too).
pub(super) fn saved_with(network: &Network, h: f64, widths: Option<&[Widths]>, roles: &[Role]) -> Vec<SavedTensors> {
    let layers = network.layers();
    let mixed = widths.is_some();
    let narrow = Widths::default();
    let width = |i: usize| widths.and_then(|w| w.get(i)).copied().unwrap_or(narrow);
    // the storage each source names, as read by layer `i`
    let storage_of = |source: Source, written: &[Storage], items: &[f64]| match source {
        Source::Input => (Storage::Input, network.dataset().sample_shape.items()),
        Source::Layer(j) => (written[j], items[j]),
    };
    let wide_bytes = if mixed { FP32_BYTES } else { h };
    // the storage of each layer's output and its items
    let mut written: Vec<Storage> = Vec::with_capacity(layers.len());
    let mut items: Vec<f64> = Vec::with_capacity(layers.len());
    let mut saved: HashSet<(Storage, bool)> = HashSet::new();
    let mut out = Vec::with_capacity(layers.len());
    for (i, layer) in layers.iter().enumerate() {
        let sources = network.sources(i);
        // each tensor read: its storage, items and width
        let reads: Vec<(Storage, f64, bool)> = sources
            .iter()
            .map(|&source| match source {
                Source::Input => (Storage::Input, layer.x().items(), true),
                Source::Layer(j) => {
                    let chained = layer.spec().reads.is_none();
                    if chained && layers[j].y() != layer.x() {
                        (Storage::Own(i), layer.x().items(), width(j).output)
                    } else {
                        (written[j], items[j], width(j).output)
                    }
                }
            })
            .collect();
        let mut tensors = Vec::new();
        let mut save = |storage: Storage, n: f64, is_wide: bool, tensors: &mut Vec<f64>| {
            if saved.insert((storage, is_wide && mixed)) {
                tensors.push(n * if is_wide { wide_bytes } else { h });
            }
        };
        let kind = layer.kind();
        let Widths {
            runs: reads_wide,
            output: writes_wide,
            ..
        } = width(i);
        let after_add = matches!(sources.first(), Some(&Source::Layer(j)) if layers[j].kind() == LayerKind::Add);
        let (storage, own_items) = match reads.first() {
            Some(&(storage, n, _)) if in_place(layer, after_add) => (storage, n),
            _ => (Storage::Output(i), layer.y().items()),
        };
        let saves = match roles[i] {
            Role::Outside => saves(layer, after_add),
            Role::Inner => Saves::Nothing,
            Role::Scores { queries, keys } => {
                for source in [queries, keys] {
                    let (storage, n) = storage_of(source, &written, &items);
                    save(storage, n, false, &mut tensors);
                }
                Saves::Nothing
            }
            Role::Context { values } => {
                let (storage, n) = storage_of(values, &written, &items);
                save(storage, n, false, &mut tensors);
                // its output, and a log-sum-exp per query and head
                save(Storage::Output(i), layer.y().items(), false, &mut tensors);
                let queries = layer.y().items() / layer.y().channels() as f64;
                tensors.push(FP32_BYTES * layer.groups() as f64 * queries);
                Saves::Nothing
            }
        };
        // a cast copy of a part of its source (autocast's copy of `q`, a third of `qkv`) is the
        // part's own tensor, of the layer's input; a view in the source's width is the source's
        let cast = |(storage, n, is_wide): (Storage, f64, bool)| {
            let part = layer.x().items();
            if mixed && is_wide != reads_wide && part < n {
                (Storage::Own(i), part)
            } else {
                (storage, n)
            }
        };
        match saves {
            Saves::Input => {
                if let Some(&read) = reads.first() {
                    let (storage, n) = cast(read);
                    save(storage, n, reads_wide, &mut tensors);
                }
            }
            Saves::Inputs => {
                for &(storage, n, is_wide) in &reads {
                    save(storage, n, is_wide, &mut tensors);
                }
            }
            Saves::Operands => {
                for (k, &(storage, n, is_wide)) in reads.iter().enumerate() {
                    let (storage, n) = if k == 0 {
                        cast((storage, n, is_wide))
                    } else {
                        (storage, n)
                    };
                    save(storage, n, reads_wide, &mut tensors);
                }
            }
            Saves::Output => save(storage, own_items, writes_wide, &mut tensors),
            Saves::Nothing => {}
        }
        let y = layer.y().items();
        match kind {
            LayerKind::Maxpool => tensors.push(y * INDEX_BYTES),
            LayerKind::Dropout => tensors.push(y * MASK_BYTES),
            LayerKind::Ln => {
                let positions = layer.x().items() / layer.x().channels() as f64;
                tensors.push(2.0 * FP32_BYTES * positions);
            }
            _ => {}
        }
        written.push(storage);
        items.push(own_items);
        out.push(SavedTensors { tensors });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerSpec;
    use crate::oracle::model::network::{DatasetSpec, NetworkSpec};
    use crate::oracle::model::shape::Shape;

    fn layer(kind: LayerKind, x: [u64; 3], y: [u64; 3]) -> LayerSpec {
        let w = if kind.has_weights() {
            vec![x[0], y[0], 3, 3]
        } else if kind.is_pool() {
            vec![0, 0, 2, 2]
        } else {
            vec![]
        };
        LayerSpec::plain("L", kind, x.into(), w.into(), y.into())
    }

    fn reading(mut spec: LayerSpec, reads: &[i64]) -> LayerSpec {
        spec.reads = Some(reads.to_vec());
        spec
    }

    fn net(layers: Vec<LayerSpec>) -> Network {
        let sample = layers[0].x.clone();
        Network::new(NetworkSpec {
            name: "n".into(),
            dataset: DatasetSpec {
                name: "d".into(),
                samples: 10,
                sample_shape: Shape::new(sample.dims().to_vec()),
            },
            layers,
            profiled_on: None,
            step: None,
        })
        .unwrap()
    }

    fn bytes(network: &Network, h: f64, mixed: bool) -> Vec<f64> {
        saved_tensors(network, h, mixed, AttentionForm::Fused)
            .iter()
            .map(SavedTensors::bytes)
            .collect()
    }

    #[test]
    fn conv_bn_relu_pool_by_hand() {
        let a = [64, 8, 8];
        let network = net(vec![
            layer(LayerKind::Conv, [3, 8, 8], a),
            layer(LayerKind::Bn, a, a),
            layer(LayerKind::Relu, a, a),
            layer(LayerKind::Maxpool, a, [64, 4, 4]),
            layer(LayerKind::Conv, [64, 4, 4], [64, 4, 4]),
            layer(LayerKind::Add, [64, 4, 4], [64, 4, 4]),
            layer(LayerKind::Avgpool, [64, 4, 4], [64, 1, 1]),
        ]);
        // conv: its input; bn: its input (the conv's output); relu: its output; the pool reads
        // the relu's output (saved): only its indices; the conv reads the pool's output (not
        // saved by the pool): its input; add nothing; a global average pool nothing
        assert_eq!(
            bytes(&network, 4.0, false),
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
        let mixed = bytes(&network, 2.0, true);
        assert_eq!(mixed[2], 2.0 * 4096.0);
        assert_eq!(mixed[3], 8.0 * 1024.0);
    }

    #[test]
    fn other_activations_and_norms_save_their_input() {
        let a = [32, 4, 4];
        let network = net(vec![
            layer(LayerKind::Conv, [3, 4, 4], a),
            layer(LayerKind::Ln, a, a),
            layer(LayerKind::Act, a, a),
            layer(LayerKind::Dropout, a, a),
            layer(LayerKind::Fc, a, a),
        ]);
        let saved = saved_tensors(&network, 2.0, true, AttentionForm::Fused);
        // the layer norm's input in FP32 under autocast, and mean and rstd per position
        assert_eq!(saved[1].tensors, [4.0 * 512.0, 8.0 * 16.0]);
        // the layer norm wrote FP32 (autocast's FP32 list), which the activation runs in
        assert_eq!(saved[2].tensors, [4.0 * 512.0]);
        assert_eq!(saved[3].tensors, [512.0]);
        // the fc reads the dropout's output, which nobody saved: a 16-bit copy
        assert_eq!(saved[4].tensors, [2.0 * 512.0]);
    }

    #[test]
    fn a_tensor_read_by_several_branches_counts_once() {
        // relu -> (conv 3x3, conv 1x1, bn) -> add: a RepVGG block; the relu's output is read
        // by three layers and saved once
        let a = [16, 8, 8];
        let network = net(vec![
            layer(LayerKind::Conv, [3, 8, 8], a),
            layer(LayerKind::Relu, a, a),
            layer(LayerKind::Conv, a, a),
            reading(layer(LayerKind::Conv, a, a), &[1]),
            reading(layer(LayerKind::Bn, a, a), &[1]),
            reading(layer(LayerKind::Add, a, a), &[2, 3, 4]),
        ]);
        // conv: the input; relu: the conv's output, written in place; the three branches read
        // the relu's storage, already saved
        assert_eq!(
            bytes(&network, 4.0, false),
            [4.0 * 192.0, 4.0 * 1024.0, 0.0, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn in_place_activations_and_gates_save_what_autograd_keeps() {
        let a = [16, 8, 8];
        let mut leaky = layer(LayerKind::Act, a, a);
        leaky.function = Some(Function::LeakyRelu);
        let mut silu = layer(LayerKind::Act, a, a);
        silu.function = Some(Function::Silu);
        let mut sigmoid = layer(LayerKind::Act, [16, 1, 1], [16, 1, 1]);
        sigmoid.function = Some(Function::Sigmoid);
        let network = net(vec![
            layer(LayerKind::Conv, [3, 8, 8], a),
            layer(LayerKind::Bn, a, a),
            // in place: saves its output, the bn's output storage, which the conv reads
            leaky,
            layer(LayerKind::Conv, a, a),
            // not in place: saves its input (the conv's output), the next conv its output
            silu,
            layer(LayerKind::Avgpool, a, [16, 1, 1]),
            sigmoid,
            // the gate's product saves both operands: the silu's output and the sigmoid's
            reading(layer(LayerKind::Mul, a, a), &[4, 6]),
        ]);
        assert_eq!(
            bytes(&network, 4.0, false),
            [
                4.0 * 192.0,
                4.0 * 1024.0,
                4.0 * 1024.0,
                0.0,
                4.0 * 1024.0,
                0.0,
                4.0 * 16.0,
                4.0 * 1024.0
            ]
        );
    }

    #[test]
    fn a_leaky_relu_after_an_addition_runs_out_of_place() {
        let a = [16, 8, 8];
        let leaky = || {
            let mut l = layer(LayerKind::Act, a, a);
            l.function = Some(Function::LeakyRelu);
            l
        };
        let network = net(vec![
            layer(LayerKind::Conv, a, a),
            layer(LayerKind::Bn, a, a),
            // in place on the bn's output: saves it, which the conv after reads
            leaky(),
            layer(LayerKind::Conv, a, a),
            // the residual: the conv's output plus the first leaky ReLU's
            reading(layer(LayerKind::Add, a, a), &[3, 2]),
            // act(x + shortcut) out of place (timm's CSP blocks): saves the sum, writes a tensor
            // of its own, which the next convolution saves
            leaky(),
            layer(LayerKind::Conv, a, a),
        ]);
        let t = 4.0 * 1024.0;
        assert_eq!(bytes(&network, 4.0, false), [t, t, t, 0.0, 0.0, t, t]);
    }

    #[test]
    fn a_reflection_pad_saves_its_input_and_a_constant_pad_nothing() {
        let (a, padded, pooled) = ([16, 8, 8], [16, 10, 10], [16, 4, 4]);
        let network = |function: Option<Function>| {
            let mut pad = layer(LayerKind::Other, a, padded);
            pad.function = function;
            net(vec![
                layer(LayerKind::Conv, a, a),
                layer(LayerKind::Maxpool, a, a),
                // the pool's output: saved by a reflection pad (its input), by nothing else
                pad,
                layer(LayerKind::Conv, padded, pooled),
            ])
        };
        let (t, p) = (4.0 * 1024.0, 4.0 * 1600.0);
        assert_eq!(bytes(&network(None), 4.0, false), [t, t + 8.0 * 1024.0, 0.0, p]);
        assert_eq!(
            bytes(&network(Some(Function::Other)), 4.0, false),
            [t, t + 8.0 * 1024.0, t, p]
        );
    }

    #[test]
    fn a_function_is_for_activations_and_other_operations_only() {
        let mut conv = layer(LayerKind::Conv, [16, 8, 8], [16, 8, 8]);
        conv.function = Some(Function::Other);
        let e = Layer::new(conv).unwrap_err().to_string();
        assert!(e.contains("function") && e.contains("act or other"), "{e}");
    }
}
