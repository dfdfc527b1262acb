//! Normalizations: batch, instance, group and layer norms, and a layer
//! norm written as several operators (a mean, a centring, a deviation).

use super::super::act::Act;
use super::super::proto::NodeProto;
use super::{NormStep, Value, Walk, fail, norm_misused};
use crate::oracle::model::errors::{GraphError, NodeRef, quoted};
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::shape::Shape;

impl<'g> Walk<'g> {
    /// A step of a layer normalization written as several operators:
    /// `x − mean` centres, a power or product of the centred tensor and
    /// anything computed from it with constants is a deviation, and the
    /// centred tensor divided by a deviation is one `ln` layer (whose scale
    /// and offset the next per-channel Mul and Add give).
    pub(super) fn norm_step(
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

    /// The mean of a layer norm's squared deviation: still a statistic.
    pub(super) fn norm_reduce(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        // the mean of the squared deviation: still a statistic
        let Value::Norm(x, NormStep::Deviation) = self.input(node, 0, at)?.clone() else {
            return Err(norm_misused(at));
        };
        self.set(node, Value::Norm(x, NormStep::Deviation));
        self.merged(format!("{op} (in a layer normalization)"));
        Ok(())
    }

    /// A group norm as PyTorch exports it (an instance norm of a
    /// `[G, C/G·P]` view): one `ln` layer of the tensor before the view.
    pub(super) fn group_norm(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
                batch_at: 0,
                folded: view.folded.clone(),
                folded_before: view.folded_before,
            },
            None => view,
        };
        let dims = x.dims.clone();
        self.layer(node, at, LayerKind::Ln, &x, Vec::new(), dims)?;
        Ok(())
    }

    /// A batch or instance norm of channels-first input: a scale and an
    /// offset per channel.
    pub(super) fn channel_norm(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.channels_first(node, at)?;
        let c = self.konst(node, 1, at)?;
        // its scale, offset (and a batch norm's mean and variance): one value per channel
        let parameters = if op == "BatchNormalization" { 5 } else { 3 };
        for i in 1..parameters.min(node.input.len()) {
            let p = self.konst_shape(node, i, at)?;
            if p.dims != [x.dims[0]] {
                return Err(fail(
                    Some(at.clone()),
                    format!(
                        "its input {i} ({}) holds {} values, not one per channel ({})",
                        quoted(&node.input[i]),
                        Shape::new(p.dims.clone()),
                        x.dims[0]
                    ),
                ));
            }
        }
        let kind = if op == "BatchNormalization" {
            LayerKind::Bn
        } else {
            LayerKind::Ln
        };
        let dims = x.dims.clone();
        self.layer(node, at, kind, &x, vec![2, c.count()], dims)?;
        Ok(())
    }

    /// A layer or group norm operator: a scale per channel, and an offset
    /// unless the exporter wrote it as a constant.
    pub(super) fn layer_norm(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
        Ok(())
    }

    /// The square root or reciprocal of a layer norm's statistic: still a
    /// statistic.
    pub(super) fn norm_root(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let Value::Norm(x, _) = self.input(node, 0, at)?.clone() else {
            return Err(norm_misused(at));
        };
        let value = Value::Norm(x, NormStep::Deviation);
        self.set(node, value);
        self.merged(format!("{op} (in a layer normalization)"));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int64s, ints, node, scalar, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    #[test]
    fn a_batch_norm_trains_a_scale_and_an_offset_per_channel() {
        let c = small(
            vec![node(
                "BatchNormalization",
                "bn",
                &["data", "s", "b", "m", "v"],
                &["y"],
                vec![],
            )],
            vec![
                weight("s", &[8]),
                weight("b", &[8]),
                weight("m", &[8]),
                weight("v", &[8]),
            ],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Bn, vec![8, 8, 8])]);
        assert_eq!(c.layers[0].w.dims(), &[2, 8]);
    }

    #[test]
    fn a_layer_norm_without_a_trained_bias_has_a_scale_only() {
        let c = small(
            vec![
                node(
                    "Transpose",
                    "t",
                    &["data"],
                    &["nhwc"],
                    vec![ints("perm", &[0, 2, 3, 1])],
                ),
                scalar("zero", 0.0),
                node("LayerNormalization", "ln", &["nhwc", "g", "zero"], &["y"], vec![]),
            ],
            vec![weight("g", &[8])],
        )
        .unwrap();
        assert_eq!(c.layers[0].kind, LayerKind::Ln);
        assert_eq!(c.layers[0].w.dims(), &[1, 8]);
    }

    #[test]
    fn a_layer_norm_written_as_operators_is_one_layer() {
        // (x − mean)/√(mean((x − mean)²) + ε) over the channels, as exporters write it below opset 17
        let c = small(
            vec![
                node("ReduceMean", "mean", &["data", "axes"], &["mu"], vec![]),
                node("Sub", "centre", &["data", "mu"], &["d"], vec![]),
                node("Pow", "square", &["d", "two"], &["d2"], vec![]),
                node("ReduceMean", "var", &["d2", "axes"], &["v"], vec![]),
                node("Add", "eps", &["v", "epsilon"], &["ve"], vec![]),
                node("Sqrt", "root", &["ve"], &["s"], vec![]),
                node("Div", "norm", &["d", "s"], &["y"], vec![]),
            ],
            vec![int64s("axes", &[1]), weight("two", &[1]), weight("epsilon", &[1])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Ln, vec![8, 8, 8])]);
        assert_eq!(c.merged.get("Sub (in a layer normalization)"), Some(&1));
    }
}
