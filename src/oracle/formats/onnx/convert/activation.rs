//! Activations: the elementwise functions of one tensor (a layer of
//! kind `act`, `relu` or `dropout`), with the function autograd's saved
//! tensors depend on; a fused activation's closing node.

use super::super::proto::NodeProto;
use super::{Value, Walk, fail, norm_misused};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::{Function, LayerKind};

/// Operators that are elementwise activations (kind `act`).
pub(super) const ACTIVATIONS: [&str; 21] = [
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
pub(super) fn function_of(op: &str) -> Function {
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

impl<'g> Walk<'g> {
    /// The last node of an activation written as several operators
    /// ([`super::super::fuse`]): one activation layer of `x`, named after
    /// the activation.
    pub(super) fn fused_activation(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        x: &str,
        name: &str,
    ) -> Result<(), GraphError> {
        let x = match self.get(x, at)? {
            Value::Act(a) => a.clone(),
            Value::Norm(..) => return Err(norm_misused(at)),
            Value::Const(_) => return Err(fail(Some(at.clone()), "an activation of a constant")),
        };
        let dims = x.dims.clone();
        let mut renamed = at.clone();
        renamed.name = format!("{} ({name})", at.name);
        self.layer(node, &renamed, LayerKind::Act, &x, Vec::new(), dims)?;
        self.function(function_of(name));
        Ok(())
    }

    /// A ReLU; one the exporter merged from several is a layer per copy.
    pub(super) fn relu(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
        Ok(())
    }

    /// Dropout: a layer of its own (it saves its mask).
    pub(super) fn dropout(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let dims = x.dims.clone();
        self.layer(node, at, LayerKind::Dropout, &x, Vec::new(), dims)?;
        Ok(())
    }

    /// Any other activation: a layer of kind `act` (a PReLU with trained
    /// slopes is a product with weights).
    pub(super) fn activation(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{node, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    #[test]
    fn an_activation_keeps_its_sizes_and_says_its_function() {
        let c = small(
            vec![
                node("Relu", "r", &["data"], &["a"], vec![]),
                node("Gelu", "g", &["a"], &["b"], vec![]),
                node("Dropout", "d", &["b"], &["c"], vec![]),
            ],
            vec![],
        )
        .unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![
                (LayerKind::Relu, vec![8, 8, 8]),
                (LayerKind::Act, vec![8, 8, 8]),
                (LayerKind::Dropout, vec![8, 8, 8])
            ]
        );
        assert_eq!(c.layers[1].function, Some(Function::Gelu));
    }

    #[test]
    fn trained_slopes_make_a_prelu_a_product_with_weights() {
        let c = small(
            vec![node("PRelu", "p", &["data", "slope"], &["a"], vec![])],
            vec![weight("slope", &[8, 1, 1])],
        )
        .unwrap();
        assert_eq!(c.layers[0].kind, LayerKind::Mul);
        assert_eq!(c.layers[0].w.dims(), &[8]);
    }

    #[test]
    fn each_operator_has_the_function_autograd_saves_for() {
        assert_eq!(function_of("Sigmoid"), Function::Sigmoid);
        assert_eq!(function_of("LogSoftmax"), Function::Softmax);
        assert_eq!(function_of("Clip"), Function::Relu6);
        assert_eq!(function_of("SiLU"), Function::Silu);
        assert_eq!(function_of("Softsign"), Function::Other);
        assert!(ACTIVATIONS.contains(&"HardSwish"));
    }
}
