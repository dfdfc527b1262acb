//! From an ONNX graph to the engine's layer list, in the graph's
//! (topological) order, with shapes propagated from the data input.

use std::collections::{BTreeMap, HashMap};

use super::super::padded;
use super::proto::{AttributeProto, GraphProto, NodeProto};
use super::sizes::{self, Padding};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::{LayerKind, LayerSpec};
use crate::oracle::model::shape::Shape;

/// An activation tensor, without its batch dimension.
#[derive(Debug, Clone, PartialEq)]
struct Tensor {
    /// Dimensions (channels first).
    dims: Vec<u64>,
    /// The layer that produced it, if a layer did.
    producer: Option<usize>,
    /// Before a flatten or reshape to one dimension: the shape it had, so
    /// that a following fully connected layer reads `[C, spatial...]` as
    /// ParaDL's files do.
    unflat: Option<Vec<u64>>,
}

/// What the conversion gives: the layers, and what it merged or skipped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Converted {
    /// The layers, in order.
    pub layers: Vec<LayerSpec>,
    /// Operators that became no layer (shape-only), or were merged into
    /// one (a bias add), with their counts.
    pub merged: BTreeMap<String, usize>,
}

/// A convolution's filters, kernel, output sizes and groups.
struct Convolution {
    filters: u64,
    kernel: Vec<u64>,
    out: Vec<u64>,
    groups: u64,
}

/// Operators that are elementwise activations (kind `act`).
const ACTIVATIONS: [&str; 18] = [
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
];

/// Operators that only pass a tensor on (no layer).
const PASS_THROUGH: [&str; 2] = ["Identity", "Cast"];

struct Walk<'g> {
    rank: usize,
    acts: HashMap<&'g str, Tensor>,
    /// Dimensions of constant tensors (weights, shapes).
    consts: HashMap<&'g str, Vec<u64>>,
    /// Values of integer constant tensors.
    ints: HashMap<&'g str, Vec<i64>>,
    out: Converted,
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

fn ints<'n>(node: &'n NodeProto, name: &str) -> Option<&'n [i64]> {
    attribute(node, name).map(|a| a.ints.as_slice())
}

fn text(node: &NodeProto, name: &str) -> Option<String> {
    attribute(node, name)
        .and_then(|a| a.s.as_deref())
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

/// Non-negative integers of an attribute, or an error naming it.
fn counts(values: &[i64], what: &str, node: &NodeRef) -> Result<Vec<u64>, GraphError> {
    values
        .iter()
        .map(|&v| u64::try_from(v).map_err(|_| fail(Some(node.clone()), format!("{what} holds {v}, below 0"))))
        .collect()
}

fn items(dims: &[u64]) -> u64 {
    dims.iter().fold(1u64, |a, &d| a.saturating_mul(d))
}

impl<'g> Walk<'g> {
    fn act(&self, name: &str, node: &NodeRef) -> Result<&Tensor, GraphError> {
        self.acts.get(name).ok_or_else(|| {
            let what = if self.consts.contains_key(name) {
                "a constant where the operator needs a computed tensor"
            } else {
                "a tensor no earlier node produces (the nodes must be in topological order)"
            };
            fail(Some(node.clone()), format!("input '{name}' is {what}"))
        })
    }

    fn first_act(&self, node: &'g NodeProto, at: &NodeRef) -> Result<Tensor, GraphError> {
        let name = node.input.first().map(String::as_str).unwrap_or_default();
        self.act(name, at).cloned()
    }

    fn weight(&self, node: &'g NodeProto, index: usize, at: &NodeRef) -> Result<&Vec<u64>, GraphError> {
        let name = node.input.get(index).map(String::as_str).unwrap_or_default();
        self.consts.get(name).ok_or_else(|| {
            fail(
                Some(at.clone()),
                format!(
                    "input {index} ('{name}') must be a constant weight (an initializer, Constant or ConstantOfShape)"
                ),
            )
        })
    }

    fn output(&mut self, node: &'g NodeProto, tensor: Tensor) {
        if let Some(name) = node.output.first() {
            self.acts.insert(name.as_str(), tensor);
        }
    }

    fn merged(&mut self, what: String) {
        *self.out.merged.entry(what).or_default() += 1;
    }

    /// Adds a layer and gives its output tensor to the node's output.
    fn layer(&mut self, node: &'g NodeProto, at: &NodeRef, kind: LayerKind, x: &[u64], w: Vec<u64>, y: Vec<u64>) {
        let name = if at.name.trim().is_empty() {
            format!("{}_{}", at.op, at.index)
        } else {
            at.name.clone()
        };
        self.out.layers.push(LayerSpec::plain(
            name,
            kind,
            Shape::new(padded(x, self.rank)),
            Shape::new(w),
            Shape::new(padded(&y, self.rank)),
        ));
        let producer = Some(self.out.layers.len() - 1);
        self.output(
            node,
            Tensor {
                dims: y,
                producer,
                unflat: None,
            },
        );
    }

    fn last_layer(&mut self) -> Option<&mut LayerSpec> {
        self.out.layers.last_mut()
    }

    fn node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        match op {
            "Constant" => {
                let tensor = attribute(node, "value")
                    .and_then(|a| a.t.as_ref())
                    .ok_or_else(|| fail(Some(at.clone()), "a Constant without a tensor 'value'"))?;
                if let Some(name) = node.output.first() {
                    self.consts.insert(name, counts(&tensor.dims, "its dims", at)?);
                    if let Some(values) = tensor.integers() {
                        self.ints.insert(name, values);
                    }
                }
                self.merged("Constant".into());
            }
            "ConstantOfShape" => {
                let shape = node
                    .input
                    .first()
                    .and_then(|i| self.ints.get(i.as_str()))
                    .ok_or_else(|| fail(Some(at.clone()), "its shape input must be a constant integer tensor"))?;
                let dims = counts(shape, "its shape", at)?;
                if let Some(name) = node.output.first() {
                    self.consts.insert(name, dims);
                }
                self.merged("ConstantOfShape".into());
            }
            "Shape" => {
                let x = self.first_act(node, at)?;
                let mut values = vec![1i64];
                values.extend(x.dims.iter().map(|&d| i64::try_from(d).unwrap_or(i64::MAX)));
                if let Some(name) = node.output.first() {
                    self.consts.insert(name, vec![values.len() as u64]);
                    self.ints.insert(name, values);
                }
                self.merged("Shape".into());
            }
            "Gather" | "Unsqueeze" | "Squeeze" | "Concat" if self.all_ints(node) => self.fold_ints(node, at)?,
            _ if PASS_THROUGH.contains(&op) => {
                let input = node.input.first().map(String::as_str).unwrap_or_default();
                let Some(output) = node.output.first().map(String::as_str) else {
                    return Ok(());
                };
                if let Some(t) = self.acts.get(input).cloned() {
                    self.acts.insert(output, t);
                } else if let Some(c) = self.consts.get(input).cloned() {
                    self.consts.insert(output, c);
                    if let Some(v) = self.ints.get(input).cloned() {
                        self.ints.insert(output, v);
                    }
                } else {
                    return Err(fail(Some(at.clone()), format!("input '{input}' is not known")));
                }
                self.merged(op.into());
            }
            "Flatten" => {
                let x = self.first_act(node, at)?;
                if int(node, "axis", 1) != 1 {
                    return Err(fail(
                        Some(at.clone()),
                        "only a Flatten after the batch dimension (axis 1) is supported",
                    ));
                }
                self.output(
                    node,
                    Tensor {
                        dims: vec![items(&x.dims)],
                        producer: x.producer,
                        unflat: Some(x.unflat.clone().unwrap_or(x.dims)),
                    },
                );
                self.merged("Flatten".into());
            }
            "Reshape" => self.reshape(node, at)?,
            "Squeeze" | "Unsqueeze" => self.squeeze(node, at)?,
            "Transpose" => {
                let x = self.first_act(node, at)?;
                let perm = ints(node, "perm")
                    .map(<[i64]>::to_vec)
                    .unwrap_or_else(|| (0..=x.dims.len() as i64).rev().collect());
                if perm.first() != Some(&0) || perm.len() != x.dims.len() + 1 {
                    return Err(fail(
                        Some(at.clone()),
                        "a Transpose must keep the batch dimension first",
                    ));
                }
                let mut full = vec![1u64];
                full.extend(&x.dims);
                let dims = perm
                    .iter()
                    .skip(1)
                    .map(|&p| usize::try_from(p).ok().and_then(|p| full.get(p).copied()))
                    .collect::<Option<Vec<u64>>>()
                    .ok_or_else(|| fail(Some(at.clone()), "its perm names a dimension the tensor has not"))?;
                self.output(
                    node,
                    Tensor {
                        dims,
                        producer: x.producer,
                        unflat: None,
                    },
                );
                self.merged("Transpose".into());
            }
            "Conv" => self.conv(node, at)?,
            "ConvTranspose" => self.deconv(node, at)?,
            "MaxPool" | "AveragePool" => self.pool(node, at)?,
            "GlobalAveragePool" | "GlobalMaxPool" => {
                let x = self.first_act(node, at)?;
                let spatial = x.dims.get(1..).unwrap_or(&[]).to_vec();
                let mut w = vec![0, 0];
                w.extend(&spatial);
                let mut y = vec![x.dims.first().copied().unwrap_or(1)];
                y.extend(spatial.iter().map(|_| 1));
                let kind = if op == "GlobalMaxPool" {
                    LayerKind::Maxpool
                } else {
                    LayerKind::Avgpool
                };
                self.layer(node, at, kind, &x.dims, w, y);
            }
            "Gemm" | "MatMul" => self.fully_connected(node, at)?,
            "BatchNormalization" | "LayerNormalization" | "InstanceNormalization" => {
                let x = self.first_act(node, at)?;
                let scale = items(self.weight(node, 1, at)?);
                let has_bias = node.input.get(2).is_some_and(|b| !b.is_empty());
                let kind = if op == "BatchNormalization" {
                    LayerKind::Bn
                } else {
                    LayerKind::Ln
                };
                let w = vec![if has_bias || op == "BatchNormalization" { 2 } else { 1 }, scale];
                self.layer(node, at, kind, &x.dims.clone(), w, x.dims);
            }
            "Relu" => {
                let x = self.first_act(node, at)?;
                self.layer(node, at, LayerKind::Relu, &x.dims.clone(), Vec::new(), x.dims);
            }
            "Dropout" => {
                let x = self.first_act(node, at)?;
                self.layer(node, at, LayerKind::Dropout, &x.dims.clone(), Vec::new(), x.dims);
            }
            _ if ACTIVATIONS.contains(&op) => {
                let x = self.first_act(node, at)?;
                self.layer(node, at, LayerKind::Act, &x.dims.clone(), Vec::new(), x.dims);
            }
            "Add" | "Sum" | "Mul" => self.elementwise(node, at)?,
            "Concat" => self.concat(node, at)?,
            _ => {
                return Err(fail(
                    Some(at.clone()),
                    format!(
                        "the operator {op} is not supported (supported: Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool, Gemm, MatMul, BatchNormalization, LayerNormalization, Relu and other activations, Add, Sum, Mul, Concat, Flatten, Reshape, Transpose, Dropout, LRN, Softmax and the shape-only operators)"
                    ),
                ));
            }
        }
        Ok(())
    }

    fn all_ints(&self, node: &NodeProto) -> bool {
        node.input
            .iter()
            .filter(|i| !i.is_empty())
            .all(|i| self.ints.contains_key(i.as_str()))
    }

    /// Folds the integer arithmetic of shape computations (PyTorch writes a
    /// flatten as Shape, Gather, Unsqueeze, Concat, Reshape).
    fn fold_ints(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let input = |i: usize| {
            node.input
                .get(i)
                .and_then(|n| self.ints.get(n.as_str()))
                .cloned()
                .unwrap_or_default()
        };
        let values = match at.op.as_str() {
            "Gather" => {
                let data = input(0);
                input(1)
                    .iter()
                    .map(|&i| {
                        let i = if i < 0 { i + data.len() as i64 } else { i };
                        usize::try_from(i).ok().and_then(|i| data.get(i).copied())
                    })
                    .collect::<Option<Vec<i64>>>()
                    .ok_or_else(|| fail(Some(at.clone()), "an index outside its data"))?
            }
            "Concat" => (0..node.input.len()).flat_map(input).collect(),
            _ => input(0),
        };
        if let Some(name) = node.output.first() {
            self.consts.insert(name, vec![values.len() as u64]);
            self.ints.insert(name, values);
        }
        self.merged(at.op.clone());
        Ok(())
    }

    fn reshape(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.first_act(node, at)?;
        let target = node
            .input
            .get(1)
            .and_then(|n| self.ints.get(n.as_str()))
            .cloned()
            .ok_or_else(|| fail(Some(at.clone()), "its shape must be a constant integer tensor"))?;
        let mut full = vec![1u64];
        full.extend(&x.dims);
        let total = items(&full);
        let mut dims = Vec::with_capacity(target.len());
        let mut infer = None;
        for (i, &t) in target.iter().enumerate() {
            match t {
                0 => dims.push(full.get(i).copied().unwrap_or(1)),
                -1 if infer.is_none() => {
                    infer = Some(i);
                    dims.push(1);
                }
                t if t > 0 => dims.push(t as u64),
                _ => return Err(fail(Some(at.clone()), format!("its shape holds {t}"))),
            }
        }
        if let Some(i) = infer {
            let known = items(&dims);
            if known == 0 || !total.is_multiple_of(known) {
                return Err(fail(Some(at.clone()), "its shape does not divide the tensor"));
            }
            dims[i] = total / known;
        }
        if items(&dims) != total || dims.first() != Some(&1) {
            return Err(fail(
                Some(at.clone()),
                "it must keep the tensor's size and its batch dimension first (one sample)",
            ));
        }
        let dims = dims.split_off(1);
        let unflat = (dims.len() == 1).then(|| x.unflat.clone().unwrap_or(x.dims.clone()));
        self.output(
            node,
            Tensor {
                dims,
                producer: x.producer,
                unflat,
            },
        );
        self.merged("Reshape".into());
        Ok(())
    }

    fn squeeze(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.first_act(node, at)?;
        let axes: Vec<i64> = match ints(node, "axes") {
            Some(a) => a.to_vec(),
            None => node
                .input
                .get(1)
                .and_then(|n| self.ints.get(n.as_str()))
                .cloned()
                .unwrap_or_default(),
        };
        let mut full = vec![1u64];
        full.extend(&x.dims);
        let dims = if at.op == "Squeeze" {
            let rank = full.len() as i64;
            let drop: Vec<i64> = axes.iter().map(|&a| if a < 0 { a + rank } else { a }).collect();
            full.iter()
                .enumerate()
                .filter(|(i, d)| {
                    !(if axes.is_empty() {
                        **d == 1 && *i > 0
                    } else {
                        drop.contains(&(*i as i64))
                    })
                })
                .map(|(_, d)| *d)
                .collect::<Vec<u64>>()
        } else {
            let rank = (full.len() + axes.len()) as i64;
            let mut sorted: Vec<i64> = axes.iter().map(|&a| if a < 0 { a + rank } else { a }).collect();
            sorted.sort_unstable();
            for a in sorted {
                let at_index = usize::try_from(a).unwrap_or(usize::MAX).min(full.len());
                full.insert(at_index, 1);
            }
            full
        };
        if dims.first() != Some(&1) || dims.len() < 2 {
            return Err(fail(Some(at.clone()), "it must keep the batch dimension first"));
        }
        self.output(
            node,
            Tensor {
                dims: dims[1..].to_vec(),
                producer: x.producer,
                unflat: x.unflat,
            },
        );
        self.merged(at.op.clone());
        Ok(())
    }

    fn conv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.first_act(node, at)?;
        let w = self.weight(node, 1, at)?.clone();
        let groups = u64::try_from(int(node, "group", 1)).unwrap_or(0).max(1);
        let (Some(&filters), Some(_), Some(kernel)) = (w.first(), w.get(1), w.get(2..)) else {
            return Err(fail(Some(at.clone()), "its weight must be [F, C/group, kernel...]"));
        };
        let channels = x.dims.first().copied().unwrap_or(0);
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        if kernel.len() != spatial.len() || w.get(1).copied().unwrap_or(0).saturating_mul(groups) != channels {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its weight {} does not fit its input {} with {groups} group(s)",
                    Shape::new(w.clone()),
                    Shape::new(x.dims.clone())
                ),
            ));
        }
        let out = self.window(node, at, spatial, kernel)?;
        let shape = Convolution {
            filters,
            kernel: kernel.to_vec(),
            out,
            groups,
        };
        self.convolution(node, at, LayerKind::Conv, &x.dims, shape);
        Ok(())
    }

    /// Adds a convolution (plain or transposed), with the node's bias if it
    /// has one.
    fn convolution(&mut self, node: &'g NodeProto, at: &NodeRef, kind: LayerKind, x: &[u64], c: Convolution) {
        let mut weights = vec![x.first().copied().unwrap_or(0), c.filters];
        weights.extend(&c.kernel);
        let mut y = vec![c.filters];
        y.extend(c.out);
        self.layer(node, at, kind, x, weights, y);
        if let Some(layer) = self.last_layer() {
            layer.groups = c.groups;
            layer.bias = node.input.get(2).is_some_and(|b| !b.is_empty());
        }
    }

    fn deconv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.first_act(node, at)?;
        let w = self.weight(node, 1, at)?.clone();
        let groups = u64::try_from(int(node, "group", 1)).unwrap_or(0).max(1);
        let channels = x.dims.first().copied().unwrap_or(0);
        let spatial = x.dims.get(1..).unwrap_or(&[]);
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
        let strides = counts(ints(node, "strides").unwrap_or(&[]), "strides", at)?;
        let dilations = counts(ints(node, "dilations").unwrap_or(&[]), "dilations", at)?;
        let pads = counts(ints(node, "pads").unwrap_or(&[]), "pads", at)?;
        let extra = counts(ints(node, "output_padding").unwrap_or(&[]), "output_padding", at)?;
        let out = (0..n)
            .map(|i| {
                let get = |v: &[u64], j: usize, d: u64| v.get(j).copied().unwrap_or(d);
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
        let shape = Convolution {
            filters: per_group.saturating_mul(groups),
            kernel: kernel.to_vec(),
            out,
            groups,
        };
        self.convolution(node, at, LayerKind::Deconv, &x.dims, shape);
        Ok(())
    }

    /// The output spatial sizes of a node's window.
    fn window(&self, node: &NodeProto, at: &NodeRef, spatial: &[u64], kernel: &[u64]) -> Result<Vec<u64>, GraphError> {
        let strides = counts(ints(node, "strides").unwrap_or(&[]), "strides", at)?;
        let dilations = counts(ints(node, "dilations").unwrap_or(&[]), "dilations", at)?;
        let padding = match text(node, "auto_pad").as_deref() {
            Some("SAME_UPPER" | "SAME_LOWER") => Padding::Same,
            Some("VALID") => Padding::Valid,
            _ => Padding::Explicit(counts(ints(node, "pads").unwrap_or(&[]), "pads", at)?),
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
        let x = self.first_act(node, at)?;
        let kernel = counts(
            ints(node, "kernel_shape").ok_or_else(|| fail(Some(at.clone()), "a pool without kernel_shape"))?,
            "kernel_shape",
            at,
        )?;
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        let out = self.window(node, at, spatial, &kernel)?;
        let mut w = vec![0, 0];
        w.extend(&kernel);
        let mut y = vec![x.dims.first().copied().unwrap_or(1)];
        y.extend(out);
        let kind = if at.op == "MaxPool" {
            LayerKind::Maxpool
        } else {
            LayerKind::Avgpool
        };
        self.layer(node, at, kind, &x.dims, w, y);
        Ok(())
    }

    fn fully_connected(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.first_act(node, at)?;
        let w = self.weight(node, 1, at)?.clone();
        if int(node, "transA", 0) != 0 {
            return Err(fail(Some(at.clone()), "a transposed input (transA) is not supported"));
        }
        let (k, f) = match (w.as_slice(), int(node, "transB", 0) != 0 && at.op == "Gemm") {
            ([k, f], false) => (*k, *f),
            ([f, k], true) => (*k, *f),
            _ => return Err(fail(Some(at.clone()), "its weight must be a matrix")),
        };
        // the input as ParaDL's files give a fully connected layer: its
        // shape before flattening, the kernel over its spatial dimensions
        let input = x.unflat.clone().unwrap_or(x.dims.clone());
        if items(&input) != k {
            return Err(fail(
                Some(at.clone()),
                format!("its weight expects {k} inputs, the tensor has {}", items(&input)),
            ));
        }
        let input = padded(&input, self.rank);
        let mut weights = vec![input.first().copied().unwrap_or(1), f];
        weights.extend(input.get(1..).unwrap_or(&[]));
        self.layer(node, at, LayerKind::Fc, &input, weights, vec![f]);
        if let Some(layer) = self.last_layer() {
            layer.bias = at.op == "Gemm" && node.input.get(2).is_some_and(|b| !b.is_empty());
        }
        Ok(())
    }

    /// Add, Sum, Mul: a layer over computed tensors; a constant added to
    /// the output of a conv or fc layer is its bias.
    fn elementwise(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let inputs: Vec<&str> = node
            .input
            .iter()
            .map(String::as_str)
            .filter(|i| !i.is_empty())
            .collect();
        let computed: Vec<Tensor> = inputs.iter().filter_map(|i| self.acts.get(i).cloned()).collect();
        let Some(first) = computed.first().cloned() else {
            return Err(fail(Some(at.clone()), "none of its inputs is a computed tensor"));
        };
        let constant = computed.len() < inputs.len();
        if constant && at.op != "Mul" && computed.len() == 1 {
            let biased = first
                .producer
                .and_then(|p| self.out.layers.get_mut(p))
                .filter(|l| l.kind.has_weights());
            if let Some(layer) = biased {
                layer.bias = true;
                let op = at.op.clone();
                self.output(node, first);
                self.merged(format!("{op} (bias)"));
                return Ok(());
            }
        }
        // the broadcast shape of the computed inputs
        let rank = computed.iter().map(|t| t.dims.len()).max().unwrap_or(0);
        let mut dims = vec![1u64; rank];
        for t in &computed {
            let offset = rank - t.dims.len();
            for (i, &d) in t.dims.iter().enumerate() {
                let slot = &mut dims[offset + i];
                if *slot == 1 {
                    *slot = d;
                } else if d != 1 && d != *slot {
                    return Err(fail(
                        Some(at.clone()),
                        format!("its inputs {} do not broadcast", Shape::new(t.dims.clone())),
                    ));
                }
            }
        }
        let kind = if at.op == "Mul" { LayerKind::Mul } else { LayerKind::Add };
        self.layer(node, at, kind, &dims.clone(), Vec::new(), dims);
        Ok(())
    }

    fn concat(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let parts = node
            .input
            .iter()
            .filter(|i| !i.is_empty())
            .map(|i| self.act(i, at).cloned())
            .collect::<Result<Vec<Tensor>, GraphError>>()?;
        let axis = int(node, "axis", 1);
        let rank = parts.first().map_or(0, |t| t.dims.len() as i64 + 1);
        if axis != 1 && axis != 1 - rank {
            return Err(fail(
                Some(at.clone()),
                "only a concatenation along the channels (axis 1) is supported",
            ));
        }
        let Some(first) = parts.first() else {
            return Err(fail(Some(at.clone()), "a concatenation of nothing"));
        };
        if parts.iter().any(|t| t.dims.get(1..) != first.dims.get(1..)) {
            return Err(fail(Some(at.clone()), "its inputs differ beyond the channels"));
        }
        let mut dims = first.dims.clone();
        if let Some(c) = dims.first_mut() {
            *c = parts.iter().map(|t| t.dims.first().copied().unwrap_or(0)).sum();
        }
        self.layer(node, at, LayerKind::Concat, &dims.clone(), Vec::new(), dims);
        Ok(())
    }
}

/// The data input: the first graph input that is not a weight (old graphs
/// list their weights among the inputs), with its dimensions (batch
/// first; `None` for an unknown size).
fn data_input(graph: &GraphProto) -> Result<(&str, Vec<Option<u64>>), GraphError> {
    let weights: Vec<&str> = graph.initializer.iter().filter_map(|t| t.name.as_deref()).collect();
    let input = graph
        .input
        .iter()
        .find(|i| i.name.as_deref().is_some_and(|n| !weights.contains(&n)))
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
    let (name, dims) = data_input(graph)?;
    let sample: Vec<u64> = match input_shape {
        Some(shape) => shape.to_vec(),
        None => {
            let known: Option<Vec<u64>> = dims.iter().skip(1).copied().collect();
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
    let mut walk = Walk {
        rank: sample.len(),
        acts: HashMap::new(),
        consts: HashMap::new(),
        ints: HashMap::new(),
        out: Converted::default(),
    };
    walk.acts.insert(
        name,
        Tensor {
            dims: sample.clone(),
            producer: None,
            unflat: None,
        },
    );
    for tensor in &graph.initializer {
        let Some(tensor_name) = tensor.name.as_deref() else {
            continue;
        };
        let at = NodeRef {
            index: 0,
            name: tensor_name.into(),
            op: "initializer".into(),
        };
        walk.consts.insert(tensor_name, counts(&tensor.dims, "its dims", &at)?);
        if let Some(values) = tensor.integers() {
            walk.ints.insert(tensor_name, values);
        }
    }
    for (index, node) in graph.node.iter().enumerate() {
        let at = NodeRef {
            index,
            name: node.name.clone().unwrap_or_default(),
            op: node.op_type.clone().unwrap_or_default(),
        };
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
    Ok((walk.out, sample))
}
