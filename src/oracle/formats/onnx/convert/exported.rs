//! What a whole inference export adds around the network: one image
//! without its batch axis, inference-only post-processing, a two-stage
//! detector's second stage (see [`super::super::inference`]).

use super::super::inference::Dropped;
use super::super::proto::NodeProto;
use super::attributes::int;
use super::elementwise::BINARY;
use super::shape::{padded_positions, shape_of};
use super::{Value, Walk, fail};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::LayerKind;

impl<'g> Walk<'g> {
    /// A node of a detection export's post-processing or second stage: no
    /// layer. A layer with weights after post-processing is an error (its
    /// inputs would be chosen at run time); one of the second stage is
    /// left out, its parameters counted in the note.
    pub(super) fn drop_node(&mut self, node: &'g NodeProto, at: &NodeRef, why: Dropped) -> Result<(), GraphError> {
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
    pub(super) fn unbatched_node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
    pub(super) fn image_of_batch(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{graph as build_graph, int64s, node, weight};
    use super::super::graph;
    use super::*;

    #[test]
    fn one_image_without_its_batch_axis_is_batched_and_its_post_processing_dropped() {
        // [C, H, W] normalised, given its batch axis, convolved, then TopK of the scores
        let g = build_graph(
            &[Some(3), Some(8), Some(8)],
            vec![
                node("Sub", "normalise", &["data", "mean"], &["n"], vec![]),
                node("Unsqueeze", "batch", &["n", "zero"], &["b"], vec![]),
                node("Conv", "head", &["b", "w"], &["s"], vec![]),
                node("TopK", "best", &["s", "k"], &["v", "i"], vec![]),
            ],
            vec![
                weight("mean", &[3, 1, 1]),
                int64s("zero", &[0]),
                weight("w", &[4, 3, 1, 1]),
                int64s("k", &[10]),
            ],
        );
        let (c, sample) = graph(&g, None, super::super::super::build::OPSET).unwrap();
        assert_eq!(sample, vec![3, 8, 8]);
        let kinds: Vec<LayerKind> = c.layers.iter().map(|l| l.kind).collect();
        assert_eq!(kinds, vec![LayerKind::Other, LayerKind::Conv]);
        assert!(
            c.merged.keys().any(|k| k.contains("inference-only post-processing")),
            "{:?}",
            c.merged
        );
    }
}
