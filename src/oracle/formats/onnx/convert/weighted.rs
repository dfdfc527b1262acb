//! Layers with weights: convolutions (and transposed ones) and matrix
//! products by a weight.

use super::super::super::padded;
use super::super::act::{Act, Role};
use super::super::proto::NodeProto;
use super::super::values::items;
use super::attributes::{auto_pad, groups, int, ints, per_dimension};
use super::{Value, Walk, fail};
use crate::oracle::formats::sizes::{self};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::LayerKind;
use crate::oracle::model::shape::Shape;

impl<'g> Walk<'g> {
    pub(super) fn conv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        // ONNX's Conv reads axis 1 as the channels whatever they held before (ECA's 1-D
        // convolution across the channels, a space-to-depth stem's stacked pixels)
        let read = self.act(node, 0, at)?;
        let x = if read.folded.is_empty() {
            Act::channels_first(read.dims.clone(), read.producer)
        } else if read.is_channels_first() {
            // windows folded into the batch stay folded: a convolution within each window
            // (EfficientViT-M's depthwise convolution of a window's queries)
            Act {
                unflat: None,
                origin: None,
                ..read.clone()
            }
        } else {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its input {:?} has windows folded into the batch but does not hold its channels first",
                    read.dims
                ),
            ));
        };
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
        let pointwise = out == spatial && kernel.iter().all(|&k| k == 1);
        self.convolution(node, at, LayerKind::Conv, &x, filters, kernel.to_vec(), out, groups)?;
        // a 1×1 convolution of attention scores across their heads (EfficientFormerV2's talking
        // heads over `[h, queries, keys]`) keeps what each axis holds: queries, then keys
        if pointwise
            && read.roles.first() == Some(&Role::Channel)
            && !read.is_channels_first()
            && let Some(Value::Act(y)) = node.output.first().and_then(|o| self.values.get_mut(o.as_str()))
        {
            y.roles = read.roles.clone();
        }
        Ok(())
    }

    /// Adds a convolution (plain or transposed), with the node's bias if it
    /// has one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn convolution(
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
        // a bias holds one value per filter
        if node.input.get(2).is_some_and(|b| !b.is_empty()) {
            let bias = self.konst_shape(node, 2, at)?;
            if bias.dims != [filters] {
                return Err(fail(
                    Some(at.clone()),
                    format!(
                        "its bias {} is not one value per filter ({filters})",
                        Shape::new(bias.dims)
                    ),
                ));
            }
        }
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

    pub(super) fn deconv(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
        if auto_pad(node, at)?.is_some() || ints(node, "output_shape").is_some() {
            return Err(fail(
                Some(at.clone()),
                "a ConvTranspose with auto_pad or output_shape is not supported: give pads",
            ));
        }
        let n = spatial.len();
        let strides = per_dimension(node, "strides", n, 1, at)?;
        let dilations = per_dimension(node, "dilations", n, 1, at)?;
        let pads = per_dimension(node, "pads", n, 2, at)?;
        let extra = per_dimension(node, "output_padding", n, 1, at)?;
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

    pub(super) fn matmul(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        // a linear layer reads the last axis wherever the batch is (`nn.MultiheadAttention`'s
        // projections of `[N, B, C]` and of `[N·B, C]`)
        let x = self.act_moved(node, 0, at)?;
        let w = match self.input(node, 1, at)? {
            Value::Const(c) if x.batch_at < x.dims.len() => c.dims.clone(),
            Value::Act(b) if at.op == "MatMul" && x.batch_at == 0 && b.batch_at == 0 => {
                let b = b.clone();
                return self.product(node, at, &x, &b);
            }
            Value::Const(_) => {
                return Err(fail(
                    Some(at.clone()),
                    "its input holds the batch last (a Transpose moved it), where a linear layer reads its features",
                ));
            }
            Value::Act(_) if at.op == "MatMul" => {
                return Err(fail(
                    Some(at.clone()),
                    "its input holds the batch after another axis (a Transpose moved it), where the product needs it first",
                ));
            }
            Value::Act(_) | Value::Norm(..) => {
                return Err(fail(
                    Some(at.clone()),
                    "a product of two computed tensors (a bilinear form) is not a layer of this model",
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
        if (x.dims.len() >= 2 || !x.folded.is_empty()) && x.dims[last] == k {
            // a linear layer at every position (section 15): a GEMM over the positions, as
            // `nn.Linear` runs it
            // an axis of channels and neighbouring positions together (a patch merging's
            // space-to-depth, as Swin's downsampling writes it) is channels to the layer:
            // the positions it holds are gone from the tensor's
            let mut y = x.dims.clone();
            y[last] = f;
            let mut per_position = x.clone();
            per_position.roles[last] = Role::Channel;
            for (i, role) in per_position.roles.iter_mut().enumerate().take(last) {
                if *role == Role::Channel || *role == Role::Mixed {
                    *role = Role::Spatial(i as u8);
                }
            }
            let mut weights = vec![k, f];
            weights.extend((0..self.rank.saturating_sub(1)).map(|_| 1));
            self.layer(node, at, LayerKind::Fc, &per_position, weights, y)?;
            self.weight_tensor(node, 1);
            if let Some(layer) = self.out.layers.last_mut() {
                layer.bias = bias;
            }
            return Ok(());
        }
        if x.batch_at > 0 {
            return Err(fail(
                Some(at.clone()),
                "its input holds the batch after another axis (a Transpose moved it): a linear layer must read its last axis",
            ));
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
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int, ints, node, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    #[test]
    fn a_convolution_within_windows_folded_into_the_batch_keeps_them_folded() {
        // a window partition `[1, 8, 8, 8]` → `[4, 8, 4, 4]`, a depthwise 3×3 convolution in
        // each window, and the windows joined again: the 8×8 map's FLOPs, and its shape back
        let c = small(
            vec![
                node("Reshape", "split", &["data", "pieces"], &["p"], vec![]),
                node(
                    "Transpose",
                    "order",
                    &["p"],
                    &["o"],
                    vec![ints("perm", &[0, 2, 4, 1, 3, 5])],
                ),
                node("Reshape", "windows", &["o", "window_shape"], &["w"], vec![]),
                node(
                    "Conv",
                    "dw",
                    &["w", "k"],
                    &["d"],
                    vec![int("group", 8), ints("pads", &[1, 1, 1, 1])],
                ),
                node("Reshape", "unfold", &["d", "unfolded"], &["u"], vec![]),
                node(
                    "Transpose",
                    "back",
                    &["u"],
                    &["b"],
                    vec![ints("perm", &[0, 3, 1, 4, 2, 5])],
                ),
                node("Reshape", "map", &["b", "map_shape"], &["m"], vec![]),
                node("Relu", "relu", &["m"], &["y"], vec![]),
            ],
            vec![
                super::super::super::build::int64s("pieces", &[1, 8, 2, 4, 2, 4]),
                super::super::super::build::int64s("window_shape", &[4, 8, 4, 4]),
                super::super::super::build::int64s("unfolded", &[1, 2, 2, 8, 4, 4]),
                super::super::super::build::int64s("map_shape", &[1, 8, 8, 8]),
                weight("k", &[8, 1, 3, 3]),
            ],
        )
        .unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![(LayerKind::Conv, vec![8, 8, 8]), (LayerKind::Relu, vec![8, 8, 8])]
        );
        let conv = crate::oracle::model::layer::Layer::new(c.layers[0].clone()).unwrap();
        assert_eq!(conv.forward_flops(), 2.0 * 9.0 * 8.0 * 64.0);
    }

    #[test]
    fn a_strided_grouped_convolution_has_the_output_onnx_defines() {
        // ⌊(8 + 2·1 − 3)/2⌋ + 1 = 4 positions; 16 filters of 8/2 channels
        let c = small(
            vec![node(
                "Conv",
                "conv",
                &["data", "w", "b"],
                &["y"],
                vec![ints("pads", &[1, 1, 1, 1]), ints("strides", &[2, 2]), int("group", 2)],
            )],
            vec![weight("w", &[16, 4, 3, 3]), weight("b", &[16])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Conv, vec![16, 4, 4])]);
        assert_eq!(c.layers[0].groups, 2);
        assert!(c.layers[0].bias);
    }

    #[test]
    fn a_transposed_convolution_doubles_positions_at_stride_2() {
        let c = small(
            vec![node(
                "ConvTranspose",
                "up",
                &["data", "w"],
                &["y"],
                vec![ints("strides", &[2, 2]), ints("kernel_shape", &[2, 2])],
            )],
            vec![weight("w", &[8, 4, 2, 2])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Deconv, vec![4, 16, 16])]);
    }

    #[test]
    fn a_weight_of_the_wrong_width_is_refused() {
        let e = small(
            vec![
                node("Flatten", "f", &["data"], &["f"], vec![]),
                node("MatMul", "fc", &["f", "w"], &["y"], vec![]),
            ],
            vec![weight("w", &[100, 10])],
        )
        .unwrap_err();
        assert!(e.node.is_some_and(|n| n.op == "MatMul"));
    }
}
