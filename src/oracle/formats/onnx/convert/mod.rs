//! From an ONNX graph to the engine's layer list, in the graph's
//! (topological) order, with shapes propagated from the data input:
//! constants are folded ([`super::values`]), activations keep track of
//! where their channels are ([`super::act`]), activations written as
//! several operators are one layer ([`super::fuse`]).

mod activation;
mod attributes;
mod elementwise;
mod exported;
mod fold;
mod norm;
mod product;
mod reduce;
mod shape;
mod weighted;

use std::collections::{BTreeMap, HashMap, HashSet};

use super::super::padded;
use super::act::Act;
use super::fuse::{self, Fused};
use super::inference::{self, Dropped};
use super::proto::{GraphProto, NodeProto};
use super::unmerge::{self, Unmerged};
use super::values::{Const, MAX_RANK, Values, items};
use crate::oracle::model::errors::{GraphError, NodeRef, quoted};
use crate::oracle::model::layer::{Function, Layer, LayerKind, LayerSpec};
use crate::oracle::model::shape::Shape;
use activation::ACTIVATIONS;
use attributes::{constant, ints};
use elementwise::BINARY;

/// What the conversion gives: the layers, and what it merged or skipped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Converted {
    /// The layers, in order.
    pub layers: Vec<LayerSpec>,
    /// Operators that became no layer (shape-only, constants), or were
    /// merged into one (a bias add, a fused activation), with their counts.
    pub merged: BTreeMap<String, usize>,
}

/// A named tensor of the graph.
#[derive(Debug, Clone)]
enum Value {
    Act(Act),
    Const(Const),
    /// A step of a layer normalization written as several operators (as
    /// exporters write it below opset 17): the tensor normalized, and how
    /// far the normalization has come.
    Norm(Act, NormStep),
}

/// The steps of `(x − mean(x))/√(mean((x − mean(x))²) + ε)` over the channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NormStep {
    /// `mean(x)` over the channels.
    Mean,
    /// `x − mean(x)`.
    Centered,
    /// `(x − mean(x))²`, or any statistic computed from it (its mean, with
    /// ε, its square root).
    Deviation,
}

fn norm_misused(at: &NodeRef) -> GraphError {
    fail(
        Some(at.clone()),
        "a statistic over the channels (a mean or a deviation) used other than by a layer normalization",
    )
}

fn fail(node: Option<NodeRef>, problem: impl Into<String>) -> GraphError {
    GraphError {
        node,
        problem: problem.into(),
    }
}

/// Values folded in one graph, in all: 4 Mi items (32 MiB).
const MAX_TOTAL_FOLDED_ITEMS: usize = 1 << 22;
/// Constants this small (shape arithmetic) keep their values past the
/// budget.
const SMALL_FOLDED_ITEMS: usize = 4096;

struct Walk<'g> {
    /// The version of ONNX's default operators the graph follows.
    opset: i64,
    rank: usize,
    /// Items of the folded values kept so far.
    folded_items: usize,
    /// Initializers of one item: trained scalars (a constant the exporter
    /// writes is a `Constant` node).
    scalars: HashSet<&'g str>,
    /// Outputs of `Constant` nodes: values the exporter wrote (a layer
    /// norm's zero bias where the module has none), not parameters.
    written: HashSet<&'g str>,
    values: HashMap<&'g str, Value>,
    /// The `ln` layers that are root-mean-square normalizations written as
    /// several operators (`x/√(mean(x²)+ε)`): the framework runs them as
    /// written, so their trained scale is a product of its own, which saves
    /// the normalized tensor (a fused layer norm recomputes it).
    root_mean_square: HashSet<usize>,
    fused: Fused,
    /// ReLUs the exporter merged, and the copies made of them so far.
    unmerged: Unmerged<'g>,
    copies: HashMap<usize, Value>,
    /// The weight tensor each layer with weights read (its index, the
    /// tensor's name): layers reading one tensor share it (section 10).
    weight_tensors: Vec<(usize, &'g str)>,
    /// Constants computed from a batch norm's running statistics (a
    /// frozen or inference-mode batch norm written as a product and a sum):
    /// not trained.
    frozen: HashSet<&'g str>,
    /// Tensors without their batch axis: one image before a detection
    /// model adds the batch (see [`inference::unbatched`]).
    unbatched: HashSet<&'g str>,
    /// Tensors of the post-processing or the second stage of a detection
    /// export, and why (see [`inference`]).
    dropped: HashMap<&'g str, Dropped>,
    /// Constants that are a weight tensor seen through a view
    /// (`Unsqueeze`, `Squeeze`, `Reshape`, `Cast`, `Transpose`): the tensor's name, so
    /// that readers of one tensor through views of their own share it.
    aliases: HashMap<&'g str, &'g str>,
    /// Constants gathered from a trained table by constant indices (a
    /// relative position bias, section 15): the table's items, the
    /// parameters they hold (the gathered tensor repeats them).
    tables: HashMap<&'g str, u64>,
    out: Converted,
}

impl<'g> Walk<'g> {
    /// Whether the tensor `name` is a batch norm's running statistic (as
    /// PyTorch and Keras name them) or a constant computed from one.
    fn is_frozen(&self, name: &str) -> bool {
        self.frozen.contains(name)
            || ["running_var", "running_mean", "moving_variance", "moving_mean"]
                .iter()
                .any(|s| name.ends_with(s))
    }

    /// The weight tensor a constant named `name` is, seen through its views
    /// ([`Walk::aliases`]).
    fn tensor(&self, name: &'g str) -> &'g str {
        self.aliases.get(name).copied().unwrap_or(name)
    }

    /// Whether a layer with weights came before: past it, a view or split
    /// across the batch is the network's output read for its loss or
    /// decoding (a detection export's post-processing).
    fn past_weights(&self) -> bool {
        !self.weight_tensors.is_empty()
    }

    fn get(&self, name: &str, at: &NodeRef) -> Result<&Value, GraphError> {
        self.values.get(name).ok_or_else(|| {
            fail(
                Some(at.clone()),
                format!("input '{name}' is a tensor no earlier node produces (the nodes must be in topological order)"),
            )
        })
    }

    fn input(&self, node: &NodeProto, index: usize, at: &NodeRef) -> Result<&Value, GraphError> {
        let name = node.input.get(index).map(String::as_str).unwrap_or_default();
        if name.is_empty() {
            return Err(fail(Some(at.clone()), format!("input {index} is missing")));
        }
        // a reader of a ReLU the exporter merged reads its own copy
        if let Some(copy) = self
            .unmerged
            .redirect
            .get(&(at.index, name))
            .and_then(|c| self.copies.get(c))
        {
            return Ok(copy);
        }
        self.get(name, at)
    }

    fn act(&self, node: &NodeProto, index: usize, at: &NodeRef) -> Result<Act, GraphError> {
        let a = self.act_moved(node, index, at)?;
        if a.batch_at == 0 {
            Ok(a)
        } else {
            Err(fail(
                Some(at.clone()),
                "its input holds the batch after another axis (a Transpose moved it), where this operator needs it first: only views (Transpose, Reshape, Split, Squeeze, Unsqueeze, Gather of the axes before the batch), linear layers on the last axis and elementwise operators may follow",
            ))
        }
    }

    /// [`Walk::act`], its batch anywhere (see [`Act::batch_at`]).
    fn act_moved(&self, node: &NodeProto, index: usize, at: &NodeRef) -> Result<Act, GraphError> {
        match self.input(node, index, at)? {
            Value::Act(a) => Ok(a.clone()),
            Value::Norm(..) => Err(norm_misused(at)),
            Value::Const(_) => Err(fail(
                Some(at.clone()),
                format!(
                    "input {index} ('{}') is a constant where the operator needs a computed tensor",
                    node.input.get(index).map(String::as_str).unwrap_or_default()
                ),
            )),
        }
    }

    fn konst(&self, node: &NodeProto, index: usize, at: &NodeRef) -> Result<Const, GraphError> {
        match self.input(node, index, at)? {
            Value::Const(c) => Ok(c.clone()),
            Value::Act(_) | Value::Norm(..) => Err(fail(
                Some(at.clone()),
                format!(
                    "input {index} ('{}') must be a constant (a weight, or shape arithmetic on constants)",
                    node.input.get(index).map(String::as_str).unwrap_or_default()
                ),
            )),
        }
    }

    /// Integers of a constant input, or of an attribute in older opsets.
    fn integers(
        &self,
        node: &NodeProto,
        index: usize,
        attr: &str,
        at: &NodeRef,
    ) -> Result<Option<Vec<i64>>, GraphError> {
        if let Some(v) = ints(node, attr) {
            return Ok(Some(v.to_vec()));
        }
        if node.input.get(index).is_none_or(String::is_empty) {
            return Ok(None);
        }
        let c = self.konst(node, index, at)?;
        c.integers().map(Some).ok_or_else(|| {
            fail(
                Some(at.clone()),
                format!("its {attr} are not known integers (or too many)"),
            )
        })
    }

    fn set(&mut self, node: &'g NodeProto, mut value: Value) {
        // the folded values of the whole graph share one budget: past it, constants keep
        // their shapes only
        if let Value::Const(Const {
            values: values @ Some(_),
            ..
        }) = &mut value
        {
            let n = values.as_ref().map_or(0, Values::len);
            if n > SMALL_FOLDED_ITEMS && self.folded_items.saturating_add(n) > MAX_TOTAL_FOLDED_ITEMS {
                *values = None;
            } else {
                self.folded_items += n;
            }
        }
        if let Some(name) = node.output.first() {
            self.values.insert(name.as_str(), value);
        }
    }

    /// The count of the values a constant named `name` holds, if it holds
    /// them.
    fn folded_len(&self, name: &str) -> Option<usize> {
        match self.values.get(name) {
            Some(Value::Const(c)) => c.values.as_ref().map(Values::len),
            _ => None,
        }
    }

    /// A constant input's shape, without its values.
    fn konst_shape(&self, node: &NodeProto, index: usize, at: &NodeRef) -> Result<Const, GraphError> {
        match self.input(node, index, at)? {
            Value::Const(c) => Ok(Const {
                dims: c.dims.clone(),
                values: None,
            }),
            Value::Act(_) | Value::Norm(..) => self.konst(node, index, at),
        }
    }

    /// Records that the layer just added computes with the weight tensor
    /// the node reads at `index` (as named there: a parameter torch.onnx
    /// wrote as an Identity of another of equal values reads another name,
    /// and stays a parameter of its own).
    fn weight_tensor(&mut self, node: &'g NodeProto, index: usize) {
        if let (Some(name), Some(layer)) = (node.input.get(index), self.out.layers.len().checked_sub(1))
            && !name.is_empty()
        {
            let name = self.tensor(name);
            self.weight_tensors.push((layer, name));
        }
    }

    /// Sets the function of the activation layer just added.
    fn function(&mut self, function: Function) {
        if let Some(layer) = self.out.layers.last_mut() {
            layer.function = Some(function);
        }
    }

    fn merged(&mut self, what: impl Into<String>) {
        *self.out.merged.entry(what.into()).or_default() += 1;
    }

    /// Adds a layer reading `x` (as the model reads it) and gives the node
    /// its output `y` (in `x`'s layout).
    fn layer(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        kind: LayerKind,
        x: &Act,
        w: Vec<u64>,
        y_dims: Vec<u64>,
    ) -> Result<(), GraphError> {
        self.layer_reading(node, at, kind, x, &[x.producer], w, y_dims)
    }

    /// [`Walk::layer`] for a layer that reads the tensors of `reads` (the
    /// layers that wrote them; `None`: the network's input).
    #[allow(clippy::too_many_arguments)]
    fn layer_reading(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        kind: LayerKind,
        x: &Act,
        reads: &[Option<usize>],
        w: Vec<u64>,
        y_dims: Vec<u64>,
    ) -> Result<(), GraphError> {
        let y = x.produced(y_dims, self.out.layers.len());
        self.push(at, kind, x.canonical(), w, y.canonical(), reads)?;
        self.set(node, Value::Act(y));
        Ok(())
    }

    /// Adds a layer named after the node, its sizes checked, reading the
    /// tensors of `reads` (kept only where they are not the previous
    /// layer's output, a chain's default).
    fn push(
        &mut self,
        at: &NodeRef,
        kind: LayerKind,
        x: Vec<u64>,
        w: Vec<u64>,
        y: Vec<u64>,
        reads: &[Option<usize>],
    ) -> Result<(), GraphError> {
        for dims in [&x, &w, &y] {
            items(dims).map_err(|p| fail(Some(at.clone()), p))?;
        }
        let name = if at.name.trim().is_empty() {
            format!("{}_{}", at.op, at.index)
        } else {
            at.name.clone()
        };
        let index = self.out.layers.len();
        let reads: Vec<i64> = reads.iter().map(|r| r.map_or(-1, |p| p as i64)).collect();
        // a convolution or pool of fewer dimensions than the network's (ECA's 1-D one across
        // the channels, a token-mixing product, a pool of tokens): a kernel of 1 along the
        // missing ones
        let w = if (kind.is_conv() || kind.is_pool()) && w.len() >= 2 && w.len() < self.rank + 1 {
            padded(&w, self.rank + 1)
        } else {
            w
        };
        let mut layer = LayerSpec::plain(
            name,
            kind,
            Shape::new(padded(&x, self.rank)),
            Shape::new(w),
            Shape::new(padded(&y, self.rank)),
        );
        layer.set_reads(index, self.out.layers.last(), reads);
        self.out.layers.push(layer);
        Ok(())
    }

    /// One node: dropped (post-processing, second stage), of an image
    /// without its batch axis, part of a fused activation, folded (every
    /// input a constant), or handed to its operator family.
    fn node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let dropped_inputs: Vec<Dropped> = node
            .input
            .iter()
            .filter_map(|i| self.dropped.get(i.as_str()).copied())
            .collect();
        let computed_input = node
            .input
            .iter()
            .any(|i| matches!(self.values.get(i.as_str()), Some(Value::Act(_) | Value::Norm(..))));
        if !dropped_inputs.is_empty() || (inference::POST_PROCESSING.contains(&at.op.as_str()) && computed_input) {
            return self.drop_node(node, at, Dropped::of(&at.op, dropped_inputs.into_iter()));
        }
        if node.input.iter().any(|i| self.unbatched.contains(i.as_str())) {
            return self.unbatched_node(node, at);
        }
        if self.fused.inner.contains(&at.index) {
            self.merged(format!("{} (in a fused activation)", at.op));
            return Ok(());
        }
        if let Some((x, name)) = self.fused.closing.get(&at.index).cloned() {
            return self.fused_activation(node, at, &x, name);
        }
        attributes::check(node, at)?;
        inputs_counted(node, at)?;
        if self.fold_node(node, at)? {
            return Ok(());
        }
        let op = at.op.as_str();
        match op {
            "Identity" | "Cast" | "CastLike" => self.identity(node, at),
            "Shape" => self.shape(node, at),
            "Flatten" => self.flatten(node, at),
            "Reshape" => self.reshape(node, at),
            "Squeeze" | "Unsqueeze" => self.squeeze(node, at),
            "Expand" => self.expand(node, at),
            "Tile" => self.tile(node, at),
            "Transpose" => self.transpose(node, at),
            "Split" => self.split(node, at),
            "Slice" => self.slice(node, at),
            "Concat" => self.concat(node, at),
            "Pad" => self.pad(node, at),
            "Resize" | "Upsample" => self.resize(node, at),
            "Gather" if attributes::int(node, "axis", 0) != 0 => self.token(node, at),
            "Gather" if matches!(self.input(node, 0, at)?, Value::Act(a) if a.batch_at > 0) => {
                self.part_before_batch(node, at)
            }
            "Gather" => self.image_of_batch(node, at),
            "Conv" => self.conv(node, at),
            "ConvTranspose" => self.deconv(node, at),
            "Gemm" | "MatMul" => self.matmul(node, at),
            "Einsum" => self.einsum(node, at),
            "MaxPool" | "AveragePool" | "LpPool" => self.pool(node, at),
            "GlobalAveragePool" | "GlobalMaxPool" => self.global_pool_node(node, at),
            "ReduceMean" | "ReduceMax" if matches!(self.input(node, 0, at)?, Value::Norm(..)) => {
                self.norm_reduce(node, at)
            }
            "ReduceMean" | "ReduceMax" | "ReduceSum" | "ReduceL2" | "ReduceL1" | "ReduceMin" | "ReduceSumSquare"
            | "ReduceLogSumExp" | "ReduceProd" => self.reduce(node, at),
            "InstanceNormalization" if !self.act(node, 0, at)?.is_channels_first() => self.group_norm(node, at),
            "BatchNormalization" | "InstanceNormalization" => self.channel_norm(node, at),
            "LayerNormalization" | "GroupNormalization" => self.layer_norm(node, at),
            "Sqrt" | "Reciprocal"
                if matches!(
                    self.input(node, 0, at)?,
                    Value::Norm(_, NormStep::Deviation | NormStep::Mean)
                ) =>
            {
                self.norm_root(node, at)
            }
            "Relu" => self.relu(node, at),
            "Dropout" => self.dropout(node, at),
            _ if ACTIVATIONS.contains(&op) => self.activation(node, at),
            _ if BINARY.contains(&op) => self.elementwise(node, at),
            _ => Err(fail(
                Some(at.clone()),
                format!(
                    "the operator {op} is not supported (supported: Conv, ConvTranspose, MaxPool, AveragePool, global pools, ReduceMean and ReduceMax over positions, Gemm and MatMul by a weight, BatchNormalization, LayerNormalization, InstanceNormalization, GroupNormalization, Relu and other activations, Add, Sub, Mul, Div, Sum, Max, Min, Concat, Split, Slice, Pad, Resize, Flatten, Reshape, Transpose, Squeeze, Unsqueeze, Dropout and shape arithmetic on constants)"
                ),
            )),
        }
    }

    /// The first input, which must hold its channels first.
    fn channels_first(&self, node: &NodeProto, at: &NodeRef) -> Result<Act, GraphError> {
        let x = self.act(node, 0, at)?;
        if x.is_channels_first() {
            Ok(x)
        } else {
            Err(fail(
                Some(at.clone()),
                format!(
                    "its input {:?} does not hold its channels first, as the operator needs",
                    x.dims
                ),
            ))
        }
    }

    fn batch_kept(&self, dims: &[u64], at: &NodeRef) -> Result<(), GraphError> {
        if dims.first() == Some(&1) && dims.len() >= 2 {
            Ok(())
        } else {
            Err(fail(
                Some(at.clone()),
                "it must keep the batch dimension first (one sample): a reshape that folds the batch into another dimension (per-sample weights, a recurrent layer over rows) is not a layer of this model",
            ))
        }
    }
}

/// The most inputs each operator the importer reads takes, by ONNX's
/// definitions at every opset (`None`: any number: `Sum`, `Concat`...).
fn most_inputs(op: &str) -> Option<usize> {
    Some(match op {
        "Constant" => 0,
        "Relu" | "Sigmoid" | "Tanh" | "Softmax" | "LogSoftmax" | "LeakyRelu" | "Elu" | "Selu" | "Celu"
        | "HardSigmoid" | "HardSwish" | "Gelu" | "Erf" | "Softplus" | "Softsign" | "Mish" | "LRN"
        | "ThresholdedRelu" | "Exp" | "Sqrt" | "Reciprocal" | "MaxPool" | "AveragePool" | "LpPool"
        | "GlobalAveragePool" | "GlobalMaxPool" | "Flatten" | "Transpose" | "Identity" | "Cast" | "Shape" | "Size"
        | "ConstantOfShape" | "Not" | "Neg" | "Abs" | "Floor" | "Ceil" | "Log" => 1,
        "PRelu" | "Add" | "Sub" | "Mul" | "Div" | "Pow" | "Mod" | "MatMul" | "Reshape" | "Squeeze" | "Unsqueeze"
        | "Expand" | "CastLike" | "Gather" | "Tile" | "Equal" | "Less" | "Greater" | "Upsample" | "Split" => 2,
        "Conv"
        | "ConvTranspose"
        | "Gemm"
        | "Clip"
        | "Dropout"
        | "InstanceNormalization"
        | "LayerNormalization"
        | "GroupNormalization"
        | "Range"
        | "Where" => 3,
        "Pad" | "Resize" => 4,
        "BatchNormalization" | "Slice" => 5,
        _ if op.starts_with("Reduce") => 2,
        _ => return None,
    })
}

/// Checks that a node has no more inputs than its operator takes (an
/// extra input is no input the importer would read, nor a cycle it would
/// close unseen).
fn inputs_counted(node: &NodeProto, at: &NodeRef) -> Result<(), GraphError> {
    match most_inputs(&at.op) {
        Some(most) if node.input.len() > most => Err(fail(
            Some(at.clone()),
            format!("it has {} inputs; {} takes at most {most}", node.input.len(), at.op),
        )),
        _ => Ok(()),
    }
}

/// The data input: the first graph input that is not a weight (old graphs
/// list their weights among the inputs), with its dimensions (batch
/// first; `None` for an unknown size).
fn data_input<'g>(graph: &'g GraphProto, weights: &HashSet<&str>) -> Result<(&'g str, Vec<Option<u64>>), GraphError> {
    let input = graph
        .input
        .iter()
        .find(|i| i.name.as_deref().is_some_and(|n| !weights.contains(n)))
        .ok_or_else(|| fail(None, "the graph has no data input (every input is a weight)"))?;
    let dims = input
        .r#type
        .as_ref()
        .and_then(|t| t.tensor_type.as_ref())
        .and_then(|t| t.shape.as_ref())
        .map(|s| {
            s.dim
                .iter()
                .map(|d| d.dim_value.and_then(|v| u64::try_from(v).ok()).filter(|&v| v > 0))
                .collect()
        })
        .unwrap_or_default();
    Ok((input.name.as_deref().unwrap_or_default(), dims))
}

/// Converts a graph whose operators follow `opset` of ONNX's default
/// operators. `input_shape` (`[C, spatial...]`) replaces the data input's
/// own sizes.
///
/// # Errors
/// A [`GraphError`] naming the node, its operator and its index.
pub fn graph(graph: &GraphProto, input_shape: Option<&[u64]>, opset: i64) -> Result<(Converted, Vec<u64>), GraphError> {
    // a sparse initializer is a weight of its whole sizes
    let sparse: Vec<(&str, &[i64])> = graph
        .sparse_initializer
        .iter()
        .filter_map(|s| Some((s.values.as_ref()?.name.as_deref()?, s.dims.as_slice())))
        .collect();
    let weights: HashSet<&str> = graph
        .initializer
        .iter()
        .filter_map(|t| t.name.as_deref())
        .chain(sparse.iter().map(|(n, _)| *n))
        .collect();
    let mut listed = HashSet::new();
    if let Some(twice) = graph
        .input
        .iter()
        .filter_map(|i| i.name.as_deref())
        .find(|n| !listed.insert(*n))
    {
        return Err(fail(
            None,
            format!("the graph lists its input '{}' twice", quoted(twice)),
        ));
    }
    let (name, dims) = data_input(graph, &weights)?;
    // one image without its batch axis (a detection model's input): every dimension is the sample's
    let unbatched = inference::unbatched(graph, name);
    let sample: Vec<u64> = match input_shape {
        Some(shape) => shape.to_vec(),
        None => {
            let known: Option<Vec<u64>> = dims.iter().skip(usize::from(!unbatched)).copied().collect();
            match known {
                Some(sample) if (2..=4).contains(&sample.len()) => sample,
                _ => {
                    let shown: Vec<String> = dims.iter().map(|d| d.map_or("?".into(), |v| v.to_string())).collect();
                    return Err(fail(
                        None,
                        format!(
                            "the input '{name}' has sizes [{}]: give the sample's shape (channels and spatial sizes, e.g. --input-shape 3x224x224)",
                            shown.join(", ")
                        ),
                    ));
                }
            }
        }
    };
    if sample.len() > MAX_RANK {
        return Err(fail(None, format!("an input of {} dimensions", sample.len())));
    }
    // the outputs of Constant nodes, and with the initializers every constant of the graph
    let written: HashSet<&str> = graph
        .node
        .iter()
        .filter(|n| n.op_type.as_deref() == Some("Constant"))
        .flat_map(|n| n.output.iter().map(String::as_str))
        .collect();
    let constants: HashSet<&str> = weights.union(&written).copied().collect();
    let mut scalars: HashSet<&str> = graph
        .initializer
        .iter()
        .filter(|t| t.dims.iter().all(|&d| d == 1))
        .filter_map(|t| t.name.as_deref())
        .collect();
    // torch.onnx writes one initializer for parameters of equal values, the others Identity
    // nodes of it: each is a trained scalar of its own
    for node in &graph.node {
        if node.op_type.as_deref() == Some("Identity")
            && node.input.first().is_some_and(|i| scalars.contains(i.as_str()))
            && let Some(out) = node.output.first()
        {
            scalars.insert(out.as_str());
        }
    }
    let mut walk = Walk {
        opset,
        rank: sample.len(),
        folded_items: 0,
        scalars,
        written,
        values: HashMap::new(),
        root_mean_square: HashSet::new(),
        fused: fuse::find(graph, &constants),
        unmerged: unmerge::find(graph),
        copies: HashMap::new(),
        weight_tensors: Vec::new(),
        frozen: HashSet::new(),
        unbatched: HashSet::new(),
        dropped: HashMap::new(),
        aliases: HashMap::new(),
        tables: HashMap::new(),
        out: Converted::default(),
    };
    for tensor in &graph.initializer {
        let Some(tensor_name) = tensor.name.as_deref() else {
            continue;
        };
        let value = constant(tensor).map_err(|p| {
            fail(
                Some(NodeRef {
                    index: 0,
                    name: tensor_name.into(),
                    op: "initializer".into(),
                }),
                p,
            )
        })?;
        walk.values.insert(tensor_name, Value::Const(value));
    }
    for (tensor_name, dims) in &sparse {
        let dims = dims
            .iter()
            .map(|&d| u64::try_from(d).ok().filter(|&d| d > 0))
            .collect::<Option<Vec<u64>>>()
            .and_then(|dims| Const::new(dims, None).ok())
            .ok_or_else(|| {
                fail(
                    Some(NodeRef {
                        index: 0,
                        name: (*tensor_name).into(),
                        op: "sparse_initializer".into(),
                    }),
                    format!("its sizes {dims:?} are not sizes"),
                )
            })?;
        walk.values.insert(tensor_name, Value::Const(dims));
    }
    walk.values
        .insert(name, Value::Act(Act::channels_first(sample.clone(), None)));
    if unbatched {
        walk.unbatched.insert(name);
    }
    let mut written: HashSet<&str> = HashSet::from([name]);
    written.extend(weights.iter().copied());
    for (index, node) in graph.node.iter().enumerate() {
        let at = NodeRef {
            index,
            name: node.name.clone().unwrap_or_default(),
            op: node.op_type.clone().unwrap_or_default(),
        };
        if let Some(twice) = node
            .output
            .iter()
            .find(|o| !o.is_empty() && !written.insert(o.as_str()))
        {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its output '{}' is written by another node, an initializer or the input (a graph writes each tensor once)",
                    quoted(twice)
                ),
            ));
        }
        if node.domain.as_deref().is_some_and(|d| !d.is_empty() && d != "ai.onnx") {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "operators of the domain '{}' are not supported",
                    node.domain.as_deref().unwrap_or_default()
                ),
            ));
        }
        let before = walk.out.layers.len();
        walk.node(node, &at)?;
        // the layers the node added, complete: one whose shapes as read do not fit (a reshape the
        // importer read otherwise than the framework) is refused naming its node, not later as a
        // layer of the network
        for layer in &walk.out.layers[before..] {
            Layer::check(layer).map_err(|e| {
                fail(
                    Some(at.clone()),
                    format!("its shapes as read do not fit ({e}): the graph reshapes its tensors before it in a way this importer does not follow"),
                )
            })?;
        }
    }
    if walk.out.layers.is_empty() {
        return Err(fail(None, "the graph has no layer the model knows"));
    }
    // the second and later nodes reading one weight tensor share the first's (section 10)
    super::super::shared::mark(&mut walk.out.layers, walk.weight_tensors.iter().copied());
    Ok((walk.out, sample))
}

/// The layers of a small graph over an `[N, 8, 8, 8]` input, for the
/// families' unit tests.
#[cfg(test)]
fn small(nodes: Vec<NodeProto>, weights: Vec<super::proto::TensorProto>) -> Result<Converted, GraphError> {
    let g = super::build::graph(&[None, Some(8), Some(8), Some(8)], nodes, weights);
    graph(&g, None, super::build::OPSET).map(|(converted, _)| converted)
}

/// `(kind, y dims)` of each layer.
#[cfg(test)]
fn kinds_and_outputs(converted: &Converted) -> Vec<(LayerKind, Vec<u64>)> {
    converted.layers.iter().map(|l| (l.kind, l.y.dims().to_vec())).collect()
}
