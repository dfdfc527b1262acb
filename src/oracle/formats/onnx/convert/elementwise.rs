//! Elementwise operators of two or more tensors: a residual add, a
//! per-channel scale, a bias merged into the layer before it, a step of
//! a normalization written as several operators.

use super::super::act::Act;
use super::super::proto::NodeProto;
use super::super::values::{self, Const};
use super::{NormStep, Value, Walk, fail};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::shape::Shape;

/// Elementwise operators of two or more tensors.
pub(super) const BINARY: [&str; 9] = ["Add", "Sub", "Mul", "Div", "Sum", "Max", "Min", "Mean", "Pow"];

impl<'g> Walk<'g> {
    /// Add, Sub, Mul, Div, Sum, Max, Min, Mean, Pow: of computed tensors a
    /// layer; with a constant, a bias (added to a conv or fc output), a
    /// trained per-channel scale or offset, or nothing (a scalar).
    pub(super) fn elementwise(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let mut computed: Vec<Act> = Vec::new();
        let mut constants: Vec<Const> = Vec::new();
        let mut norms: Vec<(Act, NormStep)> = Vec::new();
        // the parameters each constant holds: a gathered table's, else its items
        let mut held: Vec<u64> = Vec::new();
        // the input that first holds parameters
        let mut holder: Option<usize> = None;
        for (index, name) in node.input.iter().enumerate().filter(|(_, n)| !n.is_empty()) {
            if let Some(Value::Const(c)) = self.values.get(name.as_str())
                && !self.written.contains(name.as_str())
                && !c.is_scalar()
            {
                held.push(self.tables.get(name.as_str()).copied().unwrap_or_else(|| c.count()));
                holder = holder.or(Some(index));
            }
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
            let trained: u64 = held.iter().sum();
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
            // one tensor read by several layers (a relative position bias that every block adds,
            // ViT-sRelPos's): the later layers share the first's weights (section 10)
            if let Some(index) = holder {
                self.weight_tensor(node, index);
            }
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
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{node, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    #[test]
    fn a_sum_of_two_branches_is_a_residual_add() {
        let c = small(
            vec![
                node("Conv", "c1", &["data", "w1"], &["a"], vec![]),
                node("Conv", "c2", &["data", "w2"], &["b"], vec![]),
                node("Add", "sum", &["a", "b"], &["y"], vec![]),
            ],
            vec![weight("w1", &[8, 8, 1, 1]), weight("w2", &[8, 8, 1, 1])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c)[2], (LayerKind::Add, vec![8, 8, 8]));
        assert!(BINARY.contains(&"Add"));
    }

    #[test]
    fn a_bias_after_a_layer_with_weights_is_merged_into_it() {
        let c = small(
            vec![
                node("Conv", "c", &["data", "w"], &["a"], vec![]),
                node("Add", "bias", &["a", "b"], &["y"], vec![]),
            ],
            vec![weight("w", &[8, 8, 1, 1]), weight("b", &[1, 8, 1, 1])],
        )
        .unwrap();
        assert_eq!(c.layers.len(), 1, "{:?}", c.layers);
        assert!(c.layers[0].bias);
    }
}
