//! From an ONNX graph to the engine's layer list, in the graph's
//! (topological) order, with shapes propagated from the data input:
//! constants are folded ([`super::values`]), activations keep track of
//! where their channels are ([`super::act`]), activations written as
//! several operators are one layer ([`super::fuse`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::super::padded;
use super::act::{Act, Role};
use super::fuse::{self, Fused};
use super::inference::{self, Dropped};
use super::proto::{AttributeProto, GraphProto, NodeProto, TensorProto};
use super::unmerge::{self, Unmerged};
use super::values::{self, Const, MAX_RANK, Values, items};
use crate::oracle::formats::sizes::{self, Padding};
use crate::oracle::model::errors::{GraphError, NodeRef, quoted};
use crate::oracle::model::layer::{Function, LayerKind, LayerSpec};
use crate::oracle::model::shape::Shape;

/// What the conversion gives: the layers, and what it merged or skipped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Converted {
    /// The layers, in order.
    pub layers: Vec<LayerSpec>,
    /// Operators that became no layer (shape-only, constants), or were
    /// merged into one (a bias add, a fused activation), with their counts.
    pub merged: BTreeMap<String, usize>,
}

/// Operators that are elementwise activations (kind `act`).
const ACTIVATIONS: [&str; 21] = [
    "Sigmoid",
    "Tanh",
    "Softmax",
    "LogSoftmax",
    "LeakyRelu",
    "Elu",
    "Selu",
    "Celu",
    "HardSigmoid",
    "HardSwish",
    "Gelu",
    "Erf",
    "Clip",
    "Softplus",
    "Softsign",
    "Mish",
    "PRelu",
    "LRN",
    "ThresholdedRelu",
    "Exp",
    "Sqrt",
];

/// The function of an activation operator (or of an activation fused from
/// several, by its name), as far as what autograd saves differs.
fn function_of(op: &str) -> Function {
    match op {
        "Sigmoid" => Function::Sigmoid,
        "Tanh" => Function::Tanh,
        "Softmax" | "LogSoftmax" => Function::Softmax,
        "LeakyRelu" => Function::LeakyRelu,
        "Elu" | "Celu" | "Selu" => Function::Elu,
        "Clip" => Function::Relu6,
        "SiLU" => Function::Silu,
        "Gelu" | "GELU" => Function::Gelu,
        "HardSwish" | "Hardswish" => Function::Hardswish,
        "HardSigmoid" => Function::Hardsigmoid,
        "Mish" => Function::Mish,
        _ => Function::Other,
    }
}

/// Elementwise operators of two or more tensors.
const BINARY: [&str; 9] = ["Add", "Sub", "Mul", "Div", "Sum", "Max", "Min", "Mean", "Pow"];

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

fn attribute<'n>(node: &'n NodeProto, name: &str) -> Option<&'n AttributeProto> {
    node.attribute.iter().find(|a| a.name.as_deref() == Some(name))
}

fn int(node: &NodeProto, name: &str, default: i64) -> i64 {
    attribute(node, name).and_then(|a| a.i).unwrap_or(default)
}

/// A convolution's `group` attribute (1 when absent), which must be at
/// least 1.
fn groups(node: &NodeProto, at: &NodeRef) -> Result<u64, GraphError> {
    let group = int(node, "group", 1);
    u64::try_from(group)
        .ok()
        .filter(|&g| g >= 1)
        .ok_or_else(|| fail(Some(at.clone()), format!("group {group} must be at least 1")))
}

fn ints<'n>(node: &'n NodeProto, name: &str) -> Option<&'n [i64]> {
    attribute(node, name).map(|a| a.ints.as_slice())
}

fn text(node: &NodeProto, name: &str) -> Option<String> {
    attribute(node, name)
        .and_then(|a| a.s.as_deref())
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

/// A constant of a tensor proto: its dimensions and its values when small.
fn constant(tensor: &TensorProto) -> Result<Const, String> {
    let dims = tensor
        .dims
        .iter()
        .map(|&d| u64::try_from(d).map_err(|_| format!("a dimension of {d}")))
        .collect::<Result<Vec<u64>, String>>()?;
    let n = items(&dims)?;
    let values = if n as usize <= values::MAX_FOLDED_ITEMS {
        tensor
            .integers()
            .map(Values::Int)
            .or_else(|| tensor.floats().map(Values::Float))
    } else {
        None
    };
    Const::new(dims, values)
}

/// Positive integers of an attribute (strides, dilations, kernels), or an
/// error naming it.
fn positive(values: &[i64], what: &str, at: &NodeRef) -> Result<Vec<u64>, GraphError> {
    values
        .iter()
        .map(|&v| {
            u64::try_from(v)
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| fail(Some(at.clone()), format!("{what} holds {v}: each must be at least 1")))
        })
        .collect()
}

/// Non-negative integers of an attribute (pads), or an error naming it.
fn non_negative(values: &[i64], what: &str, at: &NodeRef) -> Result<Vec<u64>, GraphError> {
    values
        .iter()
        .map(|&v| u64::try_from(v).map_err(|_| fail(Some(at.clone()), format!("{what} holds {v}, below 0"))))
        .collect()
}

/// Values folded in one graph, in all: 4 Mi items (32 MiB).
const MAX_TOTAL_FOLDED_ITEMS: usize = 1 << 22;
/// Constants this small (shape arithmetic) keep their values past the
/// budget.
const SMALL_FOLDED_ITEMS: usize = 4096;

struct Walk<'g> {
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
    /// (`Unsqueeze`, `Squeeze`, `Reshape`, `Cast`): the tensor's name, so
    /// that readers of one tensor through views of their own share it.
    aliases: HashMap<&'g str, &'g str>,
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
        // a convolution of fewer dimensions than the network's (ECA's 1-D one across the
        // channels, a token-mixing product): a kernel of 1 along the missing ones
        let w = if kind.is_conv() && w.len() >= 2 && w.len() < self.rank + 1 {
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
            let x = match self.get(&x, at)? {
                Value::Act(a) => a.clone(),
                Value::Norm(..) => return Err(norm_misused(at)),
                Value::Const(_) => return Err(fail(Some(at.clone()), "an activation of a constant")),
            };
            let dims = x.dims.clone();
            let mut renamed = at.clone();
            renamed.name = format!("{} ({name})", at.name);
            self.layer(node, &renamed, LayerKind::Act, &x, Vec::new(), dims)?;
            self.function(function_of(name));
            return Ok(());
        }
        let op = at.op.as_str();
        // every input a constant: fold it
        let inputs: Vec<&str> = node
            .input
            .iter()
            .map(String::as_str)
            .filter(|n| !n.is_empty())
            .collect();
        let all_const = !inputs.is_empty()
            && inputs
                .iter()
                .all(|n| matches!(self.values.get(n), Some(Value::Const(_))));
        if op == "Constant" || op == "ConstantOfShape" || (all_const && op != "Shape") {
            if inputs.iter().any(|n| self.is_frozen(n)) {
                self.frozen.extend(node.output.iter().map(String::as_str));
            }
            let folded = self.fold(node, at)?;
            self.set(node, Value::Const(folded));
            // computed from constants the exporter wrote only: written too
            if op != "ConstantOfShape" && !inputs.is_empty() && inputs.iter().all(|n| self.written.contains(n)) {
                self.written.extend(node.output.iter().map(String::as_str));
            }
            // (not through an `Identity`: torch.onnx writes parameters of equal values as one
            // initializer and Identity nodes of it, each a parameter of its own)
            if matches!(op, "Unsqueeze" | "Squeeze" | "Reshape" | "Cast")
                && let (Some(source), Some(out)) = (node.input.first(), node.output.first())
            {
                let source = self.tensor(source);
                self.aliases.insert(out.as_str(), source);
            }
            self.merged(op);
            return Ok(());
        }
        match op {
            "Identity" | "Cast" | "CastLike" => {
                let x = self.input(node, 0, at)?.clone();
                self.set(node, x);
                self.merged(op);
            }
            "Shape" => {
                let mut dims = vec![1u64];
                match self.input(node, 0, at)? {
                    Value::Act(a) | Value::Norm(a, _) => dims.extend(&a.dims),
                    Value::Const(c) => dims = c.dims.clone(),
                }
                self.set(node, Value::Const(shape_of(node, &dims)));
                self.merged(op);
            }
            "Flatten" => {
                let x = self.act(node, 0, at)?;
                let axis =
                    values::axis(int(node, "axis", 1), x.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
                if axis != 1 {
                    if self.past_weights() {
                        // the network's output viewed across its batch: for its loss or decoding
                        return self.drop_node(node, at, Dropped::PostProcessing);
                    }
                    return Err(fail(
                        Some(at.clone()),
                        "only a Flatten after the batch dimension (axis 1) is supported",
                    ));
                }
                let total = items(&x.dims).map_err(|p| fail(Some(at.clone()), p))?;
                let y = x.reshaped(vec![total]).map_err(|p| fail(Some(at.clone()), p))?;
                self.set(node, Value::Act(y));
                self.merged(op);
            }
            "Reshape" => {
                let x = self.act(node, 0, at)?;
                let target = self
                    .integers(node, 1, "shape", at)?
                    .ok_or_else(|| fail(Some(at.clone()), "a Reshape without a shape"))?;
                let mut full = vec![1u64];
                full.extend(&x.dims);
                let dims = values::reshaped(&full, &target, int(node, "allowzero", 0) != 0)
                    .map_err(|p| fail(Some(at.clone()), p))?;
                let anchors = x.roles == [Role::Mixed, Role::Channel];
                if dims.first() != Some(&1) && anchors && self.past_weights() {
                    // a head's output `[anchors, K]` (positions and anchors flattened together)
                    // viewed across its batch: for its loss or decoding (a reshape that folds
                    // the batch of an image or of per-sample weights stays refused below)
                    return self.drop_node(node, at, Dropped::PostProcessing);
                }
                self.batch_kept(&dims, at)?;
                let y = x.reshaped(dims[1..].to_vec()).map_err(|p| fail(Some(at.clone()), p))?;
                self.set(node, Value::Act(y));
                self.merged(op);
            }
            "Squeeze" | "Unsqueeze" => self.squeeze(node, at)?,
            "Expand" => {
                // a broadcast view (`expand_as`): no kernel, no memory; what reads it broadcasts
                let x = self.act(node, 0, at)?;
                let shape = self
                    .integers(node, 1, "shape", at)?
                    .ok_or_else(|| fail(Some(at.clone()), "an Expand without a shape"))?;
                let shape = non_negative(&shape, "its shape", at)?;
                let mut full = vec![1u64];
                full.extend(&x.dims);
                let mut dims = values::broadcast(&full, &shape).map_err(|p| fail(Some(at.clone()), p))?;
                if dims.len() != full.len() {
                    return Err(fail(Some(at.clone()), "an Expand that adds dimensions"));
                }
                dims[0] = 1;
                items(&dims).map_err(|p| fail(Some(at.clone()), p))?;
                let y = Act {
                    dims: dims[1..].to_vec(),
                    roles: x.roles.clone(),
                    producer: x.producer,
                    unflat: None,
                    origin: None,
                };
                self.set(node, Value::Act(y));
                self.merged(op);
            }
            "Transpose" => {
                let x = self.act(node, 0, at)?;
                let rank = x.dims.len() + 1;
                let perm: Vec<usize> = match ints(node, "perm") {
                    Some(p) => p
                        .iter()
                        .map(|&a| values::axis(a, rank))
                        .collect::<Result<_, _>>()
                        .map_err(|p| fail(Some(at.clone()), p))?,
                    None => (0..rank).rev().collect(),
                };
                let y = x.transposed(&perm).map_err(|p| fail(Some(at.clone()), p))?;
                self.set(node, Value::Act(y));
                self.merged(op);
            }
            "Split" => self.split(node, at)?,
            "Slice" => self.slice(node, at)?,
            "Conv" => self.conv(node, at)?,
            "ConvTranspose" => self.deconv(node, at)?,
            "MaxPool" | "AveragePool" | "LpPool" => self.pool(node, at)?,
            "GlobalAveragePool" | "GlobalMaxPool" => {
                let x = self.channels_first(node, at)?;
                let reduced: Vec<bool> = x.roles.iter().map(|r| matches!(r, Role::Spatial(_))).collect();
                let kind = if op == "GlobalMaxPool" {
                    LayerKind::Maxpool
                } else {
                    LayerKind::Avgpool
                };
                self.global_pool(node, at, kind, &x, &reduced, true)?;
            }
            "ReduceMean" | "ReduceMax" if matches!(self.input(node, 0, at)?, Value::Norm(..)) => {
                // the mean of the squared deviation: still a statistic
                let Value::Norm(x, NormStep::Deviation) = self.input(node, 0, at)?.clone() else {
                    return Err(norm_misused(at));
                };
                self.set(node, Value::Norm(x, NormStep::Deviation));
                self.merged(format!("{op} (in a layer normalization)"));
            }
            "ReduceMean" | "ReduceMax" | "ReduceSum" | "ReduceL2" | "ReduceL1" | "ReduceMin" | "ReduceSumSquare"
            | "ReduceLogSumExp" | "ReduceProd" => {
                let x = self.act(node, 0, at)?;
                let axes = self.integers(node, 1, "axes", at)?.unwrap_or_default();
                let rank = x.dims.len() + 1;
                let mut reduced = vec![false; x.dims.len()];
                for a in &axes {
                    let a = values::axis(*a, rank).map_err(|p| fail(Some(at.clone()), p))?;
                    if a == 0 {
                        return Err(fail(Some(at.clone()), "a reduction over the batch"));
                    }
                    reduced[a - 1] = true;
                }
                let over_channels = x.roles.iter().zip(&reduced).all(|(r, &d)| d == (*r == Role::Channel));
                if op == "ReduceMean" && !axes.is_empty() && over_channels {
                    // the mean of a layer normalization written as several operators
                    self.set(node, Value::Norm(x, NormStep::Mean));
                    self.merged("ReduceMean (in a layer normalization)");
                    return Ok(());
                }
                if axes.is_empty() {
                    return Err(fail(
                        Some(at.clone()),
                        "a reduction over every dimension (give its axes)",
                    ));
                }
                let spatial_only = x
                    .roles
                    .iter()
                    .zip(&reduced)
                    .all(|(r, &d)| !d || matches!(r, Role::Spatial(_)));
                if op == "ReduceL2" {
                    // a norm (ConvNeXt-V2's GRN): it saves its input and, on CUDA's autocast FP32
                    // list, reads and writes FP32
                    self.reduction(node, at, &x, &reduced, int(node, "keepdims", 1) != 0)?;
                    self.function(Function::Fp32);
                    return Ok(());
                }
                if !spatial_only || !matches!(op, "ReduceMean" | "ReduceMax" | "ReduceSum") {
                    // a sum over split-attention's branches, EvoNorm's group statistics: a layer of
                    // the reduced output
                    return self.reduction(node, at, &x, &reduced, int(node, "keepdims", 1) != 0);
                }
                let kind = if op == "ReduceMax" {
                    LayerKind::Maxpool
                } else {
                    LayerKind::Avgpool
                };
                self.global_pool(node, at, kind, &x, &reduced, int(node, "keepdims", 1) != 0)?;
            }
            "Gemm" | "MatMul" => self.matmul(node, at)?,
            "InstanceNormalization" if !self.act(node, 0, at)?.is_channels_first() => {
                // a group normalization as PyTorch exports it: a view of [G, C/G·P] normalized with
                // the exporter's constant ones and zeros, viewed back, then the trained affine as
                // Mul and Add, which become its scale and offset because the layer holds the
                // tensor as it was before the view
                let view = self.act(node, 0, at)?;
                let x = match &view.origin {
                    Some((dims, roles)) => Act {
                        dims: dims.clone(),
                        roles: roles.clone(),
                        producer: view.producer,
                        unflat: None,
                        origin: None,
                    },
                    None => view,
                };
                let dims = x.dims.clone();
                self.layer(node, at, LayerKind::Ln, &x, Vec::new(), dims)?;
            }
            "BatchNormalization" | "InstanceNormalization" => {
                let x = self.channels_first(node, at)?;
                let c = self.konst(node, 1, at)?;
                let kind = if op == "BatchNormalization" {
                    LayerKind::Bn
                } else {
                    LayerKind::Ln
                };
                let dims = x.dims.clone();
                self.layer(node, at, kind, &x, vec![2, c.count()], dims)?;
            }
            "LayerNormalization" | "GroupNormalization" => {
                let x = self.act(node, 0, at)?;
                let scale = self.konst(node, 1, at)?;
                // a bias the exporter wrote as a constant is no parameter (LayerNorm without bias)
                let has_bias = node
                    .input
                    .get(2)
                    .is_some_and(|b| !b.is_empty() && !self.written.contains(b.as_str()));
                let dims = x.dims.clone();
                self.layer(
                    node,
                    at,
                    LayerKind::Ln,
                    &x,
                    vec![if has_bias { 2 } else { 1 }, scale.count()],
                    dims,
                )?;
            }
            "Relu" => {
                let x = self.act(node, 0, at)?;
                let dims = x.dims.clone();
                let Some(copies) = self.unmerged.copies.get(&at.index).cloned() else {
                    return self.layer(node, at, LayerKind::Relu, &x, Vec::new(), dims);
                };
                // separate ReLUs, not in place, that the exporter merged into this one: a
                // layer each, writing a tensor of its own
                self.layer(node, at, LayerKind::Act, &x, Vec::new(), dims.clone())?;
                self.function(Function::Relu);
                for copy in copies {
                    let y = x.produced(dims.clone(), self.out.layers.len());
                    let mut renamed = at.clone();
                    renamed.name = format!("{} (merged copy {})", at.name, copy + 1);
                    self.push(
                        &renamed,
                        LayerKind::Act,
                        x.canonical(),
                        Vec::new(),
                        y.canonical(),
                        &[x.producer],
                    )?;
                    self.function(Function::Relu);
                    self.copies.insert(copy, Value::Act(y));
                }
            }
            "Dropout" => {
                let x = self.act(node, 0, at)?;
                let dims = x.dims.clone();
                self.layer(node, at, LayerKind::Dropout, &x, Vec::new(), dims)?;
            }
            "Sqrt" | "Reciprocal"
                if matches!(
                    self.input(node, 0, at)?,
                    Value::Norm(_, NormStep::Deviation | NormStep::Mean)
                ) =>
            {
                let Value::Norm(x, _) = self.input(node, 0, at)?.clone() else {
                    return Err(norm_misused(at));
                };
                let value = Value::Norm(x, NormStep::Deviation);
                self.set(node, value);
                self.merged(format!("{op} (in a layer normalization)"));
            }
            _ if ACTIVATIONS.contains(&op) => {
                let x = self.act(node, 0, at)?;
                let dims = x.dims.clone();
                let w = match (op, node.input.get(1)) {
                    // PRelu's slopes are trained
                    ("PRelu", Some(slope)) if !slope.is_empty() => vec![self.konst(node, 1, at)?.count()],
                    _ => Vec::new(),
                };
                let kind = if w.is_empty() { LayerKind::Act } else { LayerKind::Mul };
                self.layer(node, at, kind, &x, w, dims)?;
                if kind == LayerKind::Act {
                    self.function(function_of(op));
                }
            }
            _ if BINARY.contains(&op) => self.elementwise(node, at)?,
            "Concat" => self.concat(node, at)?,
            "Pad" => {
                let x = self.channels_first(node, at)?;
                let pads = self
                    .integers(node, 1, "pads", at)?
                    .ok_or_else(|| fail(Some(at.clone()), "a Pad without pads"))?;
                let n = x.dims.len() + 1;
                if pads.len() != 2 * n || pads[0] != 0 || pads[n] != 0 || pads[1] != 0 || pads[n + 1] != 0 {
                    return Err(fail(
                        Some(at.clone()),
                        "only a Pad of the spatial dimensions is supported",
                    ));
                }
                let dims = padded_positions(&x.dims, &pads[1..n], &pads[n + 1..], at)?;
                self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims)?;
                // a reflection or replication pad saves its input for its gradient (PyTorch's
                // `reflection_pad2d_backward(grad, self, padding)`); a constant pad nothing
                if text(node, "mode").is_some_and(|mode| mode != "constant") {
                    self.function(Function::Other);
                }
            }
            "Resize" | "Upsample" => self.resize(node, at)?,
            "Gather" => self.image_of_batch(node, at)?,
            _ => {
                return Err(fail(
                    Some(at.clone()),
                    format!(
                        "the operator {op} is not supported (supported: Conv, ConvTranspose, MaxPool, AveragePool, global pools, ReduceMean and ReduceMax over positions, Gemm and MatMul by a weight, BatchNormalization, LayerNormalization, InstanceNormalization, GroupNormalization, Relu and other activations, Add, Sub, Mul, Div, Sum, Max, Min, Concat, Split, Slice, Pad, Resize, Flatten, Reshape, Transpose, Squeeze, Unsqueeze, Dropout and shape arithmetic on constants)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A node of a detection export's post-processing or second stage: no
    /// layer. A layer with weights after post-processing is an error (its
    /// inputs would be chosen at run time); one of the second stage is
    /// left out, its parameters counted in the note.
    fn drop_node(&mut self, node: &'g NodeProto, at: &NodeRef, why: Dropped) -> Result<(), GraphError> {
        let weighted = matches!(
            at.op.as_str(),
            "Conv" | "ConvTranspose" | "Gemm" | "MatMul" | "BatchNormalization"
        );
        let weights: u64 = node
            .input
            .iter()
            .skip(1)
            .filter_map(|i| match self.values.get(i.as_str()) {
                Some(Value::Const(c)) if !self.is_frozen(i) => Some(c.count()),
                _ => None,
            })
            .sum();
        if weighted && weights > 0 {
            if why == Dropped::PostProcessing {
                return Err(fail(
                    Some(at.clone()),
                    "a layer with weights reads what inference-only post-processing wrote (a threshold, top-k, non-maximum suppression, or the output viewed across its batch): export the network up to its heads",
                ));
            }
            *self
                .out
                .merged
                .entry("parameters of the second stage, not counted".into())
                .or_default() += usize::try_from(weights).unwrap_or(usize::MAX);
        }
        self.dropped.extend(node.output.iter().map(|o| (o.as_str(), why)));
        self.merged(why.label(&at.op));
        Ok(())
    }

    /// A node reading one image without its batch axis (a detection
    /// model's input transform): its normalisation, padding and the
    /// `Unsqueeze` or one-image `Concat` that adds the batch axis; a
    /// `Resize` of the batch of one and the `Gather` taking its image back.
    fn unbatched_node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.act(node, 0, at)?;
        let outputs = || node.output.iter().map(String::as_str);
        if self.past_weights() && op != "Shape" {
            // one image of the network's output: its post-processing
            return self.drop_node(node, at, Dropped::PostProcessing);
        }
        match op {
            "Unsqueeze" | "Concat" => {
                let batching = if op == "Unsqueeze" {
                    self.integers(node, 1, "axes", at)?.as_deref() == Some(&[0])
                } else {
                    int(node, "axis", 0) == 0 && node.input.iter().filter(|i| !i.is_empty()).count() == 1
                };
                if !batching {
                    return Err(fail(
                        Some(at.clone()),
                        "an image without its batch axis: only adding the batch axis (axis 0, one image) is supported here",
                    ));
                }
                self.set(node, Value::Act(x));
                self.merged(format!("{op} (the batch axis of one image)"));
            }
            "Cast" | "Identity" => {
                self.set(node, Value::Act(x));
                self.unbatched.extend(outputs());
                self.merged(op);
            }
            "Shape" => {
                self.set(node, Value::Const(shape_of(node, &x.dims)));
                self.merged(op);
            }
            "Pad" => {
                // an unbatched image's pads, without the batch axis's two
                let pads = self
                    .integers(node, 1, "pads", at)?
                    .ok_or_else(|| fail(Some(at.clone()), "a Pad without pads"))?;
                let n = x.dims.len();
                if pads.len() != 2 * n || pads[0] != 0 || pads[n] != 0 || pads.iter().any(|&p| p < 0) {
                    return Err(fail(
                        Some(at.clone()),
                        "only a Pad of an image's positions is supported",
                    ));
                }
                let dims = padded_positions(&x.dims, &pads[..n], &pads[n..], at)?;
                self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims)?;
                self.unbatched.extend(outputs());
            }
            _ if BINARY.contains(&op) => {
                // the image's normalisation by the dataset's mean and deviation: constants, not
                // trained
                let constant_operands = node
                    .input
                    .iter()
                    .skip(1)
                    .all(|i| matches!(self.values.get(i.as_str()), Some(Value::Const(_))));
                if !constant_operands {
                    return Err(fail(
                        Some(at.clone()),
                        "an image without its batch axis: only its normalisation by constants is supported",
                    ));
                }
                let dims = x.dims.clone();
                self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims)?;
                self.unbatched.extend(outputs());
            }
            _ => {
                return Err(fail(
                    Some(at.clone()),
                    "an image without its batch axis: only its normalisation, padding and adding the batch axis are supported",
                ));
            }
        }
        Ok(())
    }

    /// `Gather` of one image of a batch of one, without its batch axis:
    /// before any layer with weights, a detection model's transform taking
    /// its resized image back; after them, one image of the network's
    /// output, whose shape may be read (`o[0].shape`) and whose
    /// post-processing is no layer.
    fn image_of_batch(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let index = self.konst(node, 1, at)?;
        if int(node, "axis", 0) != 0 || !index.dims.is_empty() || index.integers().as_deref() != Some(&[0]) {
            return Err(fail(
                Some(at.clone()),
                "a Gather of a computed tensor is supported only as the first image of a batch of one (axis 0, index 0)",
            ));
        }
        self.set(node, Value::Act(x));
        self.unbatched.extend(node.output.iter().map(String::as_str));
        self.merged("Gather (the image of a batch of one)");
        Ok(())
    }

    /// A reduction that is not a global pool: a layer whose output drops
    /// (or keeps at size 1, `keep`) the `reduced` axes.
    fn reduction(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        x: &Act,
        reduced: &[bool],
        keep: bool,
    ) -> Result<(), GraphError> {
        let y = x.reduced(reduced, keep, self.out.layers.len());
        if y.dims.is_empty() {
            return Err(fail(Some(at.clone()), "a reduction to a single number per sample"));
        }
        self.push(
            at,
            LayerKind::Other,
            x.canonical(),
            Vec::new(),
            y.canonical(),
            &[x.producer],
        )?;
        self.set(node, Value::Act(y));
        Ok(())
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

    fn squeeze(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let axes = self.integers(node, 1, "axes", at)?;
        let mut full = vec![1u64];
        full.extend(&x.dims);
        let dims = if at.op == "Squeeze" {
            // never the batch
            let axes = axes.unwrap_or_else(|| (1..full.len() as i64).filter(|&i| full[i as usize] == 1).collect());
            values::squeezed(&full, Some(&axes))
        } else {
            values::unsqueezed(&full, &axes.unwrap_or_default())
        }
        .map_err(|p| fail(Some(at.clone()), p))?;
        self.batch_kept(&dims, at)?;
        let y = x.reshaped(dims[1..].to_vec()).map_err(|p| fail(Some(at.clone()), p))?;
        self.set(node, Value::Act(y));
        self.merged(at.op.clone());
        Ok(())
    }

    fn fold(&self, node: &NodeProto, at: &NodeRef) -> Result<Const, GraphError> {
        let problem = |p: String| fail(Some(at.clone()), p);
        // a node reading more values than one constant may hold (a Concat or Sum of one
        // constant 100,000 times) computes its shape only
        let read: usize = node
            .input
            .iter()
            .filter_map(|n| self.folded_len(n))
            .fold(0, usize::saturating_add);
        let heavy = read > 4 * values::MAX_FOLDED_ITEMS
            || (read > SMALL_FOLDED_ITEMS && self.folded_items.saturating_add(read) > MAX_TOTAL_FOLDED_ITEMS);
        let large = |i: usize| node.input.get(i).and_then(|n| self.folded_len(n)) > Some(SMALL_FOLDED_ITEMS);
        let c = |i: usize| {
            if heavy && large(i) {
                self.konst_shape(node, i, at)
            } else {
                self.konst(node, i, at)
            }
        };
        let op = at.op.as_str();
        let result = match op {
            "Constant" => {
                let attr = node
                    .attribute
                    .first()
                    .ok_or_else(|| fail(Some(at.clone()), "a Constant without a value"))?;
                match (attr.name.as_deref(), &attr.t) {
                    (Some("value"), Some(t)) => constant(t),
                    (Some("value_int"), _) => Const::new(vec![], Some(Values::Int(vec![attr.i.unwrap_or(0)]))),
                    (Some("value_ints"), _) => Ok(Const::ints(attr.ints.clone())),
                    (Some("value_float"), _) => {
                        Const::new(vec![], Some(Values::Float(vec![f64::from(attr.f.unwrap_or(0.0))])))
                    }
                    _ => Err("a Constant of an unsupported kind".to_string()),
                }
            }
            "ConstantOfShape" => {
                let shape = c(0)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                let dims = non_negative(&shape, "its shape", at)?;
                let value = attribute(node, "value")
                    .and_then(|a| a.t.as_ref())
                    .and_then(|t| constant(t).ok());
                let n = items(&dims).map_err(problem)? as usize;
                let values = value.and_then(|v| v.values).and_then(|v| match v {
                    Values::Int(x) if n <= values::MAX_FOLDED_ITEMS => {
                        Some(Values::Int(vec![x.first().copied().unwrap_or(0); n]))
                    }
                    Values::Float(x) if n <= values::MAX_FOLDED_ITEMS => {
                        Some(Values::Float(vec![x.first().copied().unwrap_or(0.0); n]))
                    }
                    _ => None,
                });
                Const::new(
                    dims,
                    values.or_else(|| (n <= values::MAX_FOLDED_ITEMS).then(|| Values::Float(vec![0.0; n]))),
                )
            }
            "Identity" | "Cast" | "CastLike" => {
                let x = c(0)?;
                let to = int(node, "to", 1);
                let float = matches!(to, 1 | 10 | 11 | 16);
                let values = x.values.map(|v| match (v, float) {
                    (Values::Int(i), true) => Values::Float(i.into_iter().map(|x| x as f64).collect()),
                    (Values::Float(f), false) if op == "Cast" => {
                        Values::Int(f.into_iter().map(|x| if x.is_nan() { 0 } else { x as i64 }).collect())
                    }
                    (v, _) => v,
                });
                Const::new(x.dims, values)
            }
            "Shape" => Ok(Const::ints(c(0)?.dims.iter().map(|&d| d as i64).collect())),
            "Size" => Const::new(vec![], Some(Values::Int(vec![c(0)?.count() as i64]))),
            "Reshape" => {
                let x = c(0)?;
                let target = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                values::reshaped(&x.dims, &target, int(node, "allowzero", 0) != 0)
                    .and_then(|dims| Const::new(dims, x.values))
            }
            "Flatten" => {
                let x = c(0)?;
                let axis = values::axis(int(node, "axis", 1), x.dims.len() + 1).map_err(problem)?;
                let outer: u64 = x.dims[..axis.min(x.dims.len())].iter().product();
                Const::new(vec![outer, x.count() / outer.max(1)], x.values)
            }
            "Unsqueeze" | "Squeeze" => {
                let x = c(0)?;
                let axes = self.integers(node, 1, "axes", at)?;
                if op == "Unsqueeze" {
                    values::unsqueezed(&x.dims, &axes.unwrap_or_default())
                } else {
                    values::squeezed(&x.dims, axes.as_deref())
                }
                .and_then(|dims| Const::new(dims, x.values))
            }
            "Transpose" => values::transpose(&c(0)?, ints(node, "perm")),
            "Concat" => {
                let parts = (0..node.input.len()).map(c).collect::<Result<Vec<_>, _>>()?;
                values::concat(&parts.iter().collect::<Vec<_>>(), int(node, "axis", 0))
            }
            "Gather" => values::gather(&c(0)?, &c(1)?, int(node, "axis", 0)),
            "Slice" => {
                let x = c(0)?;
                let starts = self.integers(node, 1, "starts", at)?.unwrap_or_default();
                let ends = self.integers(node, 2, "ends", at)?.unwrap_or_default();
                let axes = self.integers(node, 3, "axes", at)?;
                let steps = self.integers(node, 4, "steps", at)?;
                values::slice(&x, &starts, &ends, axes.as_deref(), steps.as_deref())
            }
            "Expand" => {
                let shape = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its shape is not known"))?;
                values::expand(&c(0)?, &non_negative(&shape, "its shape", at)?)
            }
            "Tile" => {
                let repeats = c(1)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its repeats are not known"))?;
                values::tile(&c(0)?, &repeats)
            }
            _ if op.starts_with("Reduce") => {
                let x = c(0)?;
                let axes = self.integers(node, 1, "axes", at)?;
                let axes = match axes {
                    Some(a) if a.is_empty() && int(node, "noop_with_empty_axes", 0) != 0 => return Ok(x),
                    Some(a) if a.is_empty() => None,
                    a => a,
                };
                values::reduce(&x, op, axes.as_deref(), int(node, "keepdims", 1) != 0)
            }
            "BatchNormalization" | "InstanceNormalization" | "LayerNormalization" | "GroupNormalization" => {
                // a normalization of a weight (weight standardization): its shape, values unknown
                Const::new(c(0)?.dims, None)
            }
            "Clip" => {
                let x = c(0)?;
                // the bounds: inputs 1 and 2 (opset 11 on), or attributes before
                let bound = |i: usize, name: &str, default: f64| -> Result<f64, GraphError> {
                    if node.input.get(i).is_some_and(|n| !n.is_empty()) {
                        let k = c(i)?;
                        return Ok(k.values.as_ref().map_or(default, |v| v.float(0)));
                    }
                    Ok(attribute(node, name).and_then(|a| a.f).map_or(default, f64::from))
                };
                let (lo, hi) = (bound(1, "min", f64::NEG_INFINITY)?, bound(2, "max", f64::INFINITY)?);
                let values = x.values.map(|v| match v {
                    Values::Int(i) => Values::Int(i.into_iter().map(|x| (x as f64).max(lo).min(hi) as i64).collect()),
                    Values::Float(f) => Values::Float(f.into_iter().map(|x| x.max(lo).min(hi)).collect()),
                });
                Const::new(x.dims, values)
            }
            "Range" => {
                let (start, limit, delta) = (c(0)?, c(1)?, c(2)?);
                let get = |k: &Const| {
                    k.values.as_ref().map(|v| match v {
                        Values::Int(i) => i.first().copied().unwrap_or(0) as f64,
                        Values::Float(f) => f.first().copied().unwrap_or(0.0),
                    })
                };
                let (Some(s), Some(l), Some(d)) = (get(&start), get(&limit), get(&delta)) else {
                    return Err(fail(Some(at.clone()), "its bounds are not known"));
                };
                let n = if d == 0.0 {
                    f64::INFINITY
                } else {
                    ((l - s) / d).ceil().max(0.0)
                };
                if n > values::MAX_FOLDED_ITEMS as f64 {
                    return Err(fail(Some(at.clone()), "a range of too many items to fold"));
                }
                let v: Vec<f64> = (0..n as usize).map(|i| s + i as f64 * d).collect();
                let ints = matches!(start.values, Some(Values::Int(_)));
                Const::new(
                    vec![v.len() as u64],
                    Some(if ints {
                        Values::Int(v.into_iter().map(|x| x as i64).collect())
                    } else {
                        Values::Float(v)
                    }),
                )
            }
            _ => {
                let parts = (0..node.input.len())
                    .filter(|&i| node.input.get(i).is_some_and(|n| !n.is_empty()))
                    .map(c)
                    .collect::<Result<Vec<_>, _>>()?;
                let refs: Vec<&Const> = parts.iter().collect();
                arithmetic(op, &refs).ok_or_else(|| {
                    fail(
                        Some(at.clone()),
                        format!("the operator {op} on constants is not supported (it cannot be folded)"),
                    )
                })?
            }
        };
        result.map_err(problem)
    }

    fn split(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let rank = x.dims.len() + 1;
        let axis = values::axis(int(node, "axis", 0), rank).map_err(|p| fail(Some(at.clone()), p))?;
        if axis == 0 && self.past_weights() {
            // the network's output split into its images: their post-processing
            return self.drop_node(node, at, Dropped::PostProcessing);
        }
        if axis == 0 || x.roles[axis - 1] != Role::Channel {
            return Err(fail(Some(at.clone()), "only a Split of the channels is supported"));
        }
        let size = x.dims[axis - 1];
        let outputs = node.output.len().max(1) as u64;
        let parts: Vec<u64> = match self.integers(node, 1, "split", at)? {
            Some(p) => non_negative(&p, "split", at)?,
            None => {
                let each = size.div_ceil(outputs);
                (0..outputs).map(|i| each.min(size.saturating_sub(i * each))).collect()
            }
        };
        if parts.len() != node.output.len() || parts.iter().try_fold(0u64, |a, &p| a.checked_add(p)) != Some(size) {
            return Err(fail(
                Some(at.clone()),
                format!("its parts {parts:?} do not split {size} channels"),
            ));
        }
        for (name, part) in node.output.iter().zip(parts) {
            let mut y = x.clone();
            y.dims[axis - 1] = part;
            self.values.insert(name.as_str(), Value::Act(y));
        }
        self.merged("Split");
        Ok(())
    }

    fn slice(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let starts = self.integers(node, 1, "starts", at)?.unwrap_or_default();
        let ends = self.integers(node, 2, "ends", at)?.unwrap_or_default();
        let axes = self.integers(node, 3, "axes", at)?;
        let steps = self.integers(node, 4, "steps", at)?;
        let mut full = vec![1u64];
        full.extend(&x.dims);
        let shaped = Const::new(full, None).map_err(|p| fail(Some(at.clone()), p))?;
        let sliced = values::slice(&shaped, &starts, &ends, axes.as_deref(), steps.as_deref())
            .map_err(|p| fail(Some(at.clone()), p))?;
        self.batch_kept(&sliced.dims, at)?;
        let mut y = x.clone();
        y.dims = sliced.dims[1..].to_vec();
        if y.dims.contains(&0) {
            return Err(fail(Some(at.clone()), "it leaves an empty tensor"));
        }
        self.set(node, Value::Act(y));
        self.merged("Slice");
        Ok(())
    }

    fn conv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        // ONNX's Conv reads axis 1 as the channels whatever they held before (ECA's 1-D
        // convolution across the channels, a space-to-depth stem's stacked pixels)
        let read = self.act(node, 0, at)?;
        let x = Act::channels_first(read.dims.clone(), read.producer);
        let w = self.konst(node, 1, at)?.dims;
        let groups = groups(node, at)?;
        let (Some(&filters), Some(&per_group), Some(kernel)) = (w.first(), w.get(1), w.get(2..)) else {
            return Err(fail(Some(at.clone()), "its weight must be [F, C/group, kernel...]"));
        };
        let channels = x.dims[0];
        let spatial = &x.dims[1..];
        if kernel.len() != spatial.len() || per_group.checked_mul(groups) != Some(channels) {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its weight {} does not fit its input {} with {groups} group(s)",
                    Shape::new(w.clone()),
                    Shape::new(x.dims.clone())
                ),
            ));
        }
        if let Some(shape) = ints(node, "kernel_shape")
            && (shape.len() != kernel.len() || shape.iter().zip(kernel).any(|(&a, &b)| u64::try_from(a) != Ok(b)))
        {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its kernel_shape {:?} contradicts its weight {}",
                    &shape[..shape.len().min(8)],
                    Shape::new(w.clone())
                ),
            ));
        }
        let out = self.window(node, at, spatial, kernel)?;
        self.convolution(node, at, LayerKind::Conv, &x, filters, kernel.to_vec(), out, groups)
    }

    /// Adds a convolution (plain or transposed), with the node's bias if it
    /// has one.
    #[allow(clippy::too_many_arguments)]
    fn convolution(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        kind: LayerKind,
        x: &Act,
        filters: u64,
        kernel: Vec<u64>,
        out: Vec<u64>,
        groups: u64,
    ) -> Result<(), GraphError> {
        let mut weights = vec![x.dims[0], filters];
        weights.extend(&kernel);
        let mut y = vec![filters];
        y.extend(out);
        self.layer(node, at, kind, x, weights, y)?;
        self.weight_tensor(node, 1);
        if let Some(layer) = self.out.layers.last_mut() {
            layer.groups = groups;
            layer.bias = node.input.get(2).is_some_and(|b| !b.is_empty());
        }
        Ok(())
    }

    fn deconv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.channels_first(node, at)?;
        let w = self.konst(node, 1, at)?.dims;
        let groups = groups(node, at)?;
        let channels = x.dims[0];
        let spatial = x.dims[1..].to_vec();
        let (Some(&c), Some(&per_group), Some(kernel)) = (w.first(), w.get(1), w.get(2..)) else {
            return Err(fail(Some(at.clone()), "its weight must be [C, F/group, kernel...]"));
        };
        if c != channels || kernel.len() != spatial.len() {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its weight {} does not fit its input {}",
                    Shape::new(w.clone()),
                    Shape::new(x.dims.clone())
                ),
            ));
        }
        if text(node, "auto_pad").is_some_and(|p| p != "NOTSET") || ints(node, "output_shape").is_some() {
            return Err(fail(
                Some(at.clone()),
                "a ConvTranspose with auto_pad or output_shape is not supported: give pads",
            ));
        }
        let n = spatial.len();
        let strides = positive(ints(node, "strides").unwrap_or(&[]), "strides", at)?;
        let dilations = positive(ints(node, "dilations").unwrap_or(&[]), "dilations", at)?;
        let pads = non_negative(ints(node, "pads").unwrap_or(&[]), "pads", at)?;
        let extra = non_negative(ints(node, "output_padding").unwrap_or(&[]), "output_padding", at)?;
        let get = |v: &[u64], j: usize, d: u64| v.get(j).copied().unwrap_or(d);
        let out = (0..n)
            .map(|i| {
                sizes::transposed(
                    spatial[i],
                    kernel[i],
                    get(&strides, i, 1),
                    get(&dilations, i, 1),
                    (get(&pads, i, 0), get(&pads, i + n, 0)),
                    get(&extra, i, 0),
                )
            })
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| fail(Some(at.clone()), "its pads leave no output"))?;
        let filters = per_group
            .checked_mul(groups)
            .ok_or_else(|| fail(Some(at.clone()), "its filters overflow"))?;
        self.convolution(node, at, LayerKind::Deconv, &x, filters, kernel.to_vec(), out, groups)
    }

    /// The output spatial sizes of a node's window.
    fn window(&self, node: &NodeProto, at: &NodeRef, spatial: &[u64], kernel: &[u64]) -> Result<Vec<u64>, GraphError> {
        let strides = positive(ints(node, "strides").unwrap_or(&[]), "strides", at)?;
        let dilations = positive(ints(node, "dilations").unwrap_or(&[]), "dilations", at)?;
        let padding = match text(node, "auto_pad").as_deref() {
            Some("SAME_UPPER" | "SAME_LOWER") => Padding::Same,
            Some("VALID") => Padding::Valid,
            _ => Padding::Explicit(non_negative(ints(node, "pads").unwrap_or(&[]), "pads", at)?),
        };
        let ceil = int(node, "ceil_mode", 0) != 0;
        sizes::spatial(spatial, kernel, &strides, &dilations, &padding, ceil).ok_or_else(|| {
            fail(
                Some(at.clone()),
                format!(
                    "its window {} does not fit its input {}",
                    Shape::new(kernel.to_vec()),
                    Shape::new(spatial.to_vec())
                ),
            )
        })
    }

    fn pool(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.channels_first(node, at)?;
        let kernel = positive(
            ints(node, "kernel_shape").ok_or_else(|| fail(Some(at.clone()), "a pool without kernel_shape"))?,
            "kernel_shape",
            at,
        )?;
        let out = self.window(node, at, &x.dims[1..], &kernel)?;
        let mut w = vec![0, 0];
        w.extend(&kernel);
        let mut y = vec![x.dims[0]];
        y.extend(out);
        let kind = if at.op == "MaxPool" {
            LayerKind::Maxpool
        } else {
            LayerKind::Avgpool
        };
        self.layer(node, at, kind, &x, w, y)?;
        Ok(())
    }

    /// A pool over the spatial axes `reduced` (of the tensor's axes), kept
    /// as ones or removed.
    fn global_pool(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        kind: LayerKind,
        x: &Act,
        reduced: &[bool],
        keep: bool,
    ) -> Result<(), GraphError> {
        // the window over the model's spatial dimensions
        let canonical = x.canonical();
        let mut window: Vec<u64> = canonical[1..].iter().map(|_| 1).collect();
        for ((&d, role), &r) in x.dims.iter().zip(&x.roles).zip(reduced) {
            if let (true, Role::Spatial(k)) = (r, role)
                && let Some(slot) = window.get_mut(*k as usize)
            {
                *slot = slot.saturating_mul(d);
            }
        }
        let mut w = vec![0, 0];
        w.extend(padded(&window, self.rank - 1));
        let y_canonical: Vec<u64> = std::iter::once(canonical[0])
            .chain(canonical[1..].iter().zip(&window).map(|(&d, &k)| d / k.max(1)))
            .collect();
        self.push(at, kind, canonical, w, y_canonical, &[x.producer])?;
        let y = x.reduced(reduced, keep, self.out.layers.len() - 1);
        self.set(node, Value::Act(y));
        Ok(())
    }

    fn matmul(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let w = match self.input(node, 1, at)? {
            Value::Const(c) => c.dims.clone(),
            Value::Act(_) | Value::Norm(..) => {
                return Err(fail(
                    Some(at.clone()),
                    "a product of two computed tensors (attention, a bilinear form) is not a layer of this model",
                ));
            }
        };
        if int(node, "transA", 0) != 0 {
            return Err(fail(Some(at.clone()), "a transposed input (transA) is not supported"));
        }
        let (k, f) = match (w.as_slice(), int(node, "transB", 0) != 0 && at.op == "Gemm") {
            ([k, f], false) => (*k, *f),
            ([f, k], true) => (*k, *f),
            _ => return Err(fail(Some(at.clone()), "its weight must be a matrix")),
        };
        let bias = at.op == "Gemm" && node.input.get(2).is_some_and(|b| !b.is_empty());
        let last = x.dims.len().saturating_sub(1);
        if x.dims.len() >= 2 && x.dims[last] == k {
            // a linear layer at every position: a 1x1 convolution over the positions
            if x.roles[last] == Role::Mixed {
                return Err(fail(Some(at.clone()), "a product over mixed channels and positions"));
            }
            let mut y = x.dims.clone();
            y[last] = f;
            let mut per_position = x.clone();
            per_position.roles[last] = Role::Channel;
            for (i, role) in per_position.roles.iter_mut().enumerate().take(last) {
                if *role == Role::Channel || *role == Role::Mixed {
                    *role = Role::Spatial(i as u8);
                }
            }
            let canonical = per_position.canonical();
            let mut weights = vec![k, f];
            weights.extend(canonical[1..].iter().map(|_| 1));
            self.layer(node, at, LayerKind::Conv, &per_position, weights, y)?;
            self.weight_tensor(node, 1);
            if let Some(layer) = self.out.layers.last_mut() {
                layer.bias = bias;
            }
            return Ok(());
        }
        // a fully connected layer reads the tensor as ParaDL's files give it: its shape before
        // flattening, the kernel over its spatial dimensions
        let input = x.unflat.clone().unwrap_or_else(|| x.canonical());
        let total = items(&input).map_err(|p| fail(Some(at.clone()), p))?;
        if total != k {
            return Err(fail(
                Some(at.clone()),
                format!("its weight expects {k} inputs, the tensor has {total}"),
            ));
        }
        let input = padded(&input, self.rank);
        let mut weights = vec![input[0], f];
        weights.extend(&input[1..]);
        self.push(at, LayerKind::Fc, input, weights, vec![f], &[x.producer])?;
        self.weight_tensor(node, 1);
        if let Some(layer) = self.out.layers.last_mut() {
            layer.bias = bias;
        }
        let producer = self.out.layers.len() - 1;
        let mut y = Act::channels_first(vec![f], Some(producer));
        y.roles = vec![Role::Mixed];
        self.set(node, Value::Act(y));
        Ok(())
    }

    /// Add, Sub, Mul, Div, Sum, Max, Min, Mean, Pow: of computed tensors a
    /// layer; with a constant, a bias (added to a conv or fc output), a
    /// trained per-channel scale or offset, or nothing (a scalar).
    fn elementwise(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let mut computed: Vec<Act> = Vec::new();
        let mut constants: Vec<Const> = Vec::new();
        let mut norms: Vec<(Act, NormStep)> = Vec::new();
        for name in node.input.iter().filter(|n| !n.is_empty()) {
            match self.get(name, at)? {
                Value::Act(a) => computed.push(a.clone()),
                // a constant the exporter wrote (a detection head's anchor points and strides) is
                // no parameter: it takes part as a scalar would
                Value::Const(_) if self.written.contains(name.as_str()) => constants.push(Const {
                    dims: Vec::new(),
                    values: None,
                }),
                Value::Const(c) => constants.push(c.clone()),
                Value::Norm(a, step) => norms.push((a.clone(), *step)),
            }
        }
        if !norms.is_empty() {
            return self.norm_step(node, at, &computed, &norms);
        }
        let Some(first) = computed.first().cloned() else {
            return Err(fail(Some(at.clone()), "none of its inputs is a computed tensor"));
        };
        let op = at.op.clone();
        if computed.len() == 1 {
            let trained: u64 = constants.iter().filter(|c| !c.is_scalar()).map(Const::count).sum();
            let trained_scalar = node.input.iter().any(|n| self.scalars.contains(n.as_str()));
            if trained == 0 && (trained_scalar || op == "Pow") {
                // a trained scalar (StarReLU's scale and offset, a layer scale) is a parameter, and
                // its product saves the other operand for its gradient; a power saves its base
                // and is on CUDA autocast's FP32 list
                let (kind, w, function) = match op.as_str() {
                    "Pow" => (LayerKind::Act, Vec::new(), Some(Function::Fp32)),
                    "Mul" | "Div" => (LayerKind::Mul, vec![1], None),
                    _ => (LayerKind::Other, vec![1], None),
                };
                let dims = first.dims.clone();
                self.layer(node, at, kind, &first, w, dims)?;
                if let Some(function) = function {
                    self.function(function);
                }
                return Ok(());
            }
            if trained == 0 {
                // by a constant scalar: a new tensor (which later layers may save), saving nothing
                let dims = first.dims.clone();
                return self.layer(node, at, LayerKind::Other, &first, Vec::new(), dims);
            }
            // the scale and offset of a layer normalization written as several operators (the
            // scale of a root-mean-square one is a product of its own, as the framework runs it)
            let rms = first.producer.is_some_and(|p| self.root_mean_square.contains(&p));
            let bare = first.producer.and_then(|p| self.out.layers.get_mut(p)).filter(|l| {
                l.kind == LayerKind::Ln
                    && trained == l.x.channels()
                    && (l.w.rank() == 0 || l.w.dims() == [1, trained])
                    && !(rms && op == "Mul")
            });
            if let Some(layer) = bare {
                let scaled = layer.w.rank() == 2;
                match (op.as_str(), scaled) {
                    ("Mul", false) => layer.w = Shape::new(vec![1, trained]),
                    ("Add" | "Sub", _) => layer.w = Shape::new(vec![if scaled { 2 } else { 1 }, trained]),
                    _ => {}
                }
                // the normalization of each level of a shared head reads one scale and offset
                let tensor = node
                    .input
                    .iter()
                    .find(|n| matches!(self.values.get(n.as_str()), Some(Value::Const(c)) if !c.is_scalar()))
                    .map(|n| self.tensor(n));
                if let (Some(tensor), Some(p)) = (tensor, first.producer) {
                    self.weight_tensors.push((p, tensor));
                }
                self.set(node, Value::Act(first));
                self.merged(format!("{op} (layer normalization's scale or offset)"));
                return Ok(());
            }
            // a frozen batch norm (FrozenBatchNorm2d, or one in inference mode) after a layer with
            // weights, `x·γ/√(σ²+ε) + (β − μ·γ/√(σ²+ε))`: folded into that layer, as exporters
            // fold it and cuDNN's fused convolutions run it; it trains nothing (section 10)
            let frozen = matches!(op.as_str(), "Mul" | "Div" | "Add" | "Sub")
                && node.input.iter().any(|n| self.is_frozen(n))
                && first
                    .producer
                    .and_then(|p| self.out.layers.get(p))
                    .is_some_and(|l| l.kind.has_weights() && trained == l.y.channels());
            if frozen {
                self.set(node, Value::Act(first));
                self.merged(format!("{op} (a frozen batch norm's scale or offset)"));
                return Ok(());
            }
            let biased = matches!(op.as_str(), "Add" | "Sub")
                && first
                    .producer
                    .and_then(|p| self.out.layers.get(p))
                    .is_some_and(|l| l.kind.has_weights() && !l.bias && trained == l.y.channels());
            if biased {
                if let Some(layer) = first.producer.and_then(|p| self.out.layers.get_mut(p)) {
                    layer.bias = true;
                }
                self.set(node, Value::Act(first));
                self.merged(format!("{op} (bias)"));
                return Ok(());
            }
            // a trained scale (Mul, Div) or offset: a layer holding it; a maximum or minimum against
            // a trained threshold (a TLU) saves its input for the gradient's mask, as a product does
            let kind = if matches!(op.as_str(), "Mul" | "Div" | "Max" | "Min") {
                LayerKind::Mul
            } else {
                LayerKind::Other
            };
            let dims = first.dims.clone();
            self.layer(node, at, kind, &first, vec![trained], dims)?;
            return Ok(());
        }
        let mut dims = Vec::new();
        for t in &computed {
            dims = values::broadcast(&dims, &t.dims).map_err(|p| fail(Some(at.clone()), p))?;
        }
        let widest = computed.iter().find(|t| t.dims == dims).cloned().unwrap_or(first);
        // a product, a quotient, a maximum or a minimum saves its operands
        let kind = if matches!(op.as_str(), "Mul" | "Div" | "Max" | "Min") {
            LayerKind::Mul
        } else {
            LayerKind::Add
        };
        let reads: Vec<Option<usize>> = computed.iter().map(|t| t.producer).collect();
        self.layer_reading(node, at, kind, &widest, &reads, Vec::new(), dims)?;
        Ok(())
    }

    /// A step of a layer normalization written as several operators:
    /// `x − mean` centres, a power or product of the centred tensor and
    /// anything computed from it with constants is a deviation, and the
    /// centred tensor divided by a deviation is one `ln` layer (whose scale
    /// and offset the next per-channel Mul and Add give).
    fn norm_step(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        computed: &[Act],
        norms: &[(Act, NormStep)],
    ) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let step = match (op, computed, norms) {
            ("Sub", [x], [(mean, NormStep::Mean)]) if x.dims == mean.dims => NormStep::Centered,
            ("Pow" | "Mul", [], [(_, NormStep::Centered), ..]) => NormStep::Deviation,
            ("Add" | "Mul" | "Div" | "Pow", [], [(_, NormStep::Deviation)]) => NormStep::Deviation,
            // a root-mean-square normalization: the mean of x² (its square a scalar power)
            ("Add" | "Mul" | "Div" | "Pow", [], [(_, NormStep::Mean)]) => NormStep::Deviation,
            // x itself (never centred) over its root mean square
            ("Div" | "Mul", [x], [(normed, NormStep::Deviation)]) if x.dims == normed.dims => {
                let dims = x.dims.clone();
                let x = x.clone();
                self.root_mean_square.insert(self.out.layers.len());
                self.layer(node, at, LayerKind::Ln, &x, Vec::new(), dims)?;
                return Ok(());
            }
            ("Div", [], [(x, NormStep::Centered), (_, NormStep::Deviation)]) => {
                let dims = x.dims.clone();
                let x = x.clone();
                self.layer(node, at, LayerKind::Ln, &x, Vec::new(), dims)?;
                return Ok(());
            }
            _ => return Err(norm_misused(at)),
        };
        let x = norms[0].0.clone();
        self.set(node, Value::Norm(x, step));
        self.merged(format!("{op} (in a layer normalization)"));
        Ok(())
    }

    fn concat(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let mut parts = Vec::new();
        for i in 0..node.input.len() {
            if node.input[i].is_empty() {
                continue;
            }
            match self.input(node, i, at)? {
                Value::Act(a) => parts.push(a.clone()),
                Value::Norm(..) => return Err(norm_misused(at)),
                Value::Const(_) => {
                    return Err(fail(
                        Some(at.clone()),
                        "a concatenation of a constant with a computed tensor (a learned token) is not a layer of this model",
                    ));
                }
            }
        }
        let Some(first) = parts.first().cloned() else {
            return Err(fail(Some(at.clone()), "a concatenation of nothing"));
        };
        let axis = values::axis(int(node, "axis", 1), first.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
        if axis == 0 {
            if parts.len() == 1 {
                // a batch of one image made a list of batches (torchvision's `batch_images`)
                self.set(node, Value::Act(first));
                self.merged("Concat (of one batch)");
                return Ok(());
            }
            return Err(fail(Some(at.clone()), "a concatenation along the batch is not a layer"));
        }
        // along the channels, or another axis (a detection head's outputs of every level joined
        // along their anchors; the layout of the first part)
        let mut dims = first.dims.clone();
        let mut channels = 0u64;
        for p in &parts {
            let same =
                p.dims.len() == dims.len() && p.dims.iter().enumerate().all(|(i, &d)| i == axis - 1 || d == dims[i]);
            if !same {
                return Err(fail(
                    Some(at.clone()),
                    "its inputs differ beyond the axis they are joined along",
                ));
            }
            channels = channels
                .checked_add(p.dims[axis - 1])
                .ok_or_else(|| fail(Some(at.clone()), "its channels overflow"))?;
        }
        dims[axis - 1] = channels;
        let mut joined = first.clone();
        joined.dims = dims.clone();
        let reads: Vec<Option<usize>> = parts.iter().map(|p| p.producer).collect();
        self.layer_reading(node, at, LayerKind::Concat, &joined, &reads, Vec::new(), dims)?;
        Ok(())
    }

    fn resize(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.channels_first(node, at)?;
        let mut full = vec![1u64];
        full.extend(&x.dims);
        // sizes (input 3), else scales (input 2 of Resize, 1 of Upsample)
        let sizes = match node.input.get(3).filter(|n| !n.is_empty()) {
            Some(_) => Some(
                self.konst(node, 3, at)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its sizes are not known"))?,
            ),
            None => None,
        };
        let dims: Vec<u64> = match sizes {
            Some(s) => non_negative(&s, "sizes", at)?,
            None => {
                let index = if at.op == "Upsample" { 1 } else { 2 };
                let scales = self.konst(node, index, at)?;
                let scales: Vec<f64> = match scales.values {
                    Some(Values::Float(f)) => f,
                    Some(Values::Int(i)) => i.into_iter().map(|v| v as f64).collect(),
                    None => return Err(fail(Some(at.clone()), "its scales are not known")),
                };
                if scales.len() != full.len() || scales.iter().any(|s| !(s.is_finite() && *s > 0.0 && *s <= 1e6)) {
                    return Err(fail(
                        Some(at.clone()),
                        format!("its scales {scales:?} do not fit its input"),
                    ));
                }
                full.iter()
                    .zip(&scales)
                    .map(|(&d, &s)| (d as f64 * s).floor() as u64)
                    .collect()
            }
        };
        if dims.len() != full.len() || dims[0] != 1 || dims[1] != full[1] || dims.contains(&0) {
            return Err(fail(
                Some(at.clone()),
                format!("a resize of {full:?} to {dims:?}: only positions may change"),
            ));
        }
        items(&dims).map_err(|p| fail(Some(at.clone()), p))?;
        self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims[1..].to_vec())?;
        Ok(())
    }
}

/// `[C, spatial...]` padded by `before` and `after` (one each per
/// dimension, the channels' unused); a negative pad crops (NASNet's shifted
/// paths).
fn padded_positions(dims: &[u64], before: &[i64], after: &[i64], at: &NodeRef) -> Result<Vec<u64>, GraphError> {
    let mut out = dims.to_vec();
    for (i, d) in out.iter_mut().enumerate().skip(1) {
        *d = i64::try_from(*d)
            .ok()
            .and_then(|d| d.checked_add(before[i]))
            .and_then(|d| d.checked_add(after[i]))
            .and_then(|d| u64::try_from(d).ok())
            .filter(|&d| d > 0)
            .ok_or_else(|| fail(Some(at.clone()), "its pads overflow or crop every position"))?;
    }
    Ok(out)
}

/// The dimensions `dims` of a tensor as a `Shape` node gives them (its
/// `start` and `end`, negative ones from the end, clamped).
fn shape_of(node: &NodeProto, dims: &[u64]) -> Const {
    let rank = dims.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + rank } else { v }).clamp(0, rank) as usize;
    let (start, end) = (clamp(int(node, "start", 0)), clamp(int(node, "end", rank)));
    Const::ints(dims[start..end.max(start)].iter().map(|&d| d as i64).collect())
}

/// Elementwise arithmetic of constants (`None`: an operator that is not
/// arithmetic).
fn arithmetic(op: &str, inputs: &[&Const]) -> Option<Result<Const, String>> {
    use values::elementwise as e;
    let checked = |f: fn(i64, i64) -> Option<i64>| move |a: &[i64]| f(a[0], a[1]);
    Some(match op {
        "Add" => e(inputs, |a| a[0] + a[1], Some(&checked(i64::checked_add))),
        "Sum" => e(
            inputs,
            |a| a.iter().sum(),
            Some(&|a: &[i64]| a.iter().try_fold(0i64, |s, &x| s.checked_add(x))),
        ),
        "Mean" => e(inputs, |a| a.iter().sum::<f64>() / a.len().max(1) as f64, None),
        "Sub" => e(inputs, |a| a[0] - a[1], Some(&checked(i64::checked_sub))),
        "Mul" => e(inputs, |a| a[0] * a[1], Some(&checked(i64::checked_mul))),
        "Div" => e(inputs, |a| a[0] / a[1], Some(&checked(i64::checked_div))),
        "Mod" => e(inputs, |a| a[0] % a[1], Some(&checked(i64::checked_rem))),
        "Pow" => e(inputs, |a| a[0].powf(a[1]), None),
        "Max" => e(
            inputs,
            |a| a.iter().copied().fold(f64::MIN, f64::max),
            Some(&|a: &[i64]| a.iter().copied().max()),
        ),
        "Min" => e(
            inputs,
            |a| a.iter().copied().fold(f64::MAX, f64::min),
            Some(&|a: &[i64]| a.iter().copied().min()),
        ),
        "Equal" => e(
            inputs,
            |a| f64::from(u8::from(a[0] == a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] == a[1]))),
        ),
        "Less" => e(
            inputs,
            |a| f64::from(u8::from(a[0] < a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] < a[1]))),
        ),
        "Greater" => e(
            inputs,
            |a| f64::from(u8::from(a[0] > a[1])),
            Some(&|a: &[i64]| Some(i64::from(a[0] > a[1]))),
        ),
        "Where" => e(
            inputs,
            |a| if a[0] != 0.0 { a[1] } else { a[2] },
            Some(&|a: &[i64]| Some(if a[0] != 0 { a[1] } else { a[2] })),
        ),
        "Neg" => e(inputs, |a| -a[0], Some(&|a: &[i64]| a[0].checked_neg())),
        "Abs" => e(inputs, |a| a[0].abs(), Some(&|a: &[i64]| a[0].checked_abs())),
        "Not" => e(
            inputs,
            |a| f64::from(u8::from(a[0] == 0.0)),
            Some(&|a: &[i64]| Some(i64::from(a[0] == 0))),
        ),
        "Sqrt" => e(inputs, |a| a[0].sqrt(), None),
        "Reciprocal" => e(inputs, |a| 1.0 / a[0], None),
        "Floor" => e(inputs, |a| a[0].floor(), Some(&|a: &[i64]| Some(a[0]))),
        "Ceil" => e(inputs, |a| a[0].ceil(), Some(&|a: &[i64]| Some(a[0]))),
        "Erf" | "Tanh" | "Sigmoid" | "Exp" | "Log" | "Relu" => {
            let f: fn(f64) -> f64 = match op {
                "Tanh" => f64::tanh,
                "Sigmoid" => |x| 1.0 / (1.0 + (-x).exp()),
                "Exp" => f64::exp,
                "Log" => f64::ln,
                "Relu" => |x| x.max(0.0),
                _ => |x| x,
            };
            e(inputs, move |a| f(a[0]), None)
        }
        _ => return None,
    })
}

/// The first node that multiplies two computed tensors (the attention of
/// a transformer), if any: such a network is not layers of this model.
fn attention(graph: &GraphProto, data: &str) -> Option<usize> {
    let mut computed: HashSet<&str> = HashSet::from([data]);
    for (index, node) in graph.node.iter().enumerate() {
        let inputs: Vec<bool> = node.input.iter().map(|n| computed.contains(n.as_str())).collect();
        let op = node.op_type.as_deref().unwrap_or_default();
        if matches!(op, "MatMul" | "Einsum") && inputs.iter().filter(|&&c| c).count() >= 2 {
            return Some(index);
        }
        if inputs.iter().any(|&c| c) && op != "Shape" && op != "Size" {
            computed.extend(node.output.iter().map(String::as_str));
        }
    }
    None
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

/// Converts a graph. `input_shape` (`[C, spatial...]`) replaces the data
/// input's own sizes.
///
/// # Errors
/// A [`GraphError`] naming the node, its operator and its index.
pub fn graph(graph: &GraphProto, input_shape: Option<&[u64]>) -> Result<(Converted, Vec<u64>), GraphError> {
    let weights: HashSet<&str> = graph.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
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
    if let Some(index) = attention(graph, name) {
        let node = &graph.node[index];
        return Err(fail(
            Some(NodeRef {
                index,
                name: node.name.clone().unwrap_or_default(),
                op: node.op_type.clone().unwrap_or_default(),
            }),
            "a product of two computed tensors (attention): transformers (ViT, Swin, MaxViT) are not networks of layers this model knows",
        ));
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
        walk.node(node, &at)?;
    }
    if walk.out.layers.is_empty() {
        return Err(fail(None, "the graph has no layer the model knows"));
    }
    // the second and later nodes reading one weight tensor share the first's (section 10)
    super::super::shared::mark(&mut walk.out.layers, walk.weight_tensors.iter().copied());
    Ok((walk.out, sample))
}
