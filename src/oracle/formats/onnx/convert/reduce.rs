//! Pools and reductions: windowed and global pools, reductions over
//! positions or channels.

use super::super::super::padded;
use super::super::act::{Act, Role};
use super::super::proto::NodeProto;
use super::super::values::{self};
use super::attributes::{auto_pad, int, ints, per_dimension, positive};
use super::{NormStep, Value, Walk, fail};
use crate::oracle::formats::sizes::{self, Padding};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::{Function, LayerKind};
use crate::oracle::model::shape::Shape;

impl<'g> Walk<'g> {
    /// A reduction that is not a global pool: a layer whose output drops
    /// (or keeps at size 1, `keep`) the `reduced` axes.
    pub(super) fn reduction(
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

    pub(super) fn pool(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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
    pub(super) fn global_pool(
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

    /// The output spatial sizes of a node's window.
    pub(super) fn window(
        &self,
        node: &NodeProto,
        at: &NodeRef,
        spatial: &[u64],
        kernel: &[u64],
    ) -> Result<Vec<u64>, GraphError> {
        let n = spatial.len();
        let strides = per_dimension(node, "strides", n, 1, at)?;
        let dilations = per_dimension(node, "dilations", n, 1, at)?;
        let pads = per_dimension(node, "pads", n, 2, at)?;
        let padding = match auto_pad(node, at)? {
            Some(true) => Padding::Same,
            Some(false) => Padding::Valid,
            None => Padding::Explicit(pads),
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

    /// A global average or max pool: a pool over every position.
    pub(super) fn global_pool_node(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.channels_first(node, at)?;
        let reduced: Vec<bool> = x.roles.iter().map(|r| matches!(r, Role::Spatial(_))).collect();
        let kind = if op == "GlobalMaxPool" {
            LayerKind::Maxpool
        } else {
            LayerKind::Avgpool
        };
        self.global_pool(node, at, kind, &x, &reduced, true)?;
        Ok(())
    }

    /// A reduction over positions (a global pool), over the channels (a
    /// layer norm's mean, a norm) or over other axes (a layer of the
    /// reduced output).
    pub(super) fn reduce(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int, int64s, ints, node};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    #[test]
    fn a_window_of_2_at_stride_2_halves_each_position() {
        let c = small(
            vec![node(
                "MaxPool",
                "pool",
                &["data"],
                &["y"],
                vec![ints("kernel_shape", &[2, 2]), ints("strides", &[2, 2])],
            )],
            vec![],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&c), vec![(LayerKind::Maxpool, vec![8, 4, 4])]);
    }

    #[test]
    fn global_pools_and_means_over_positions_pool_to_one_position() {
        let c = small(
            vec![
                node("GlobalAveragePool", "gap", &["data"], &["a"], vec![]),
                node(
                    "ReduceMean",
                    "mean",
                    &["data", "axes"],
                    &["b"],
                    vec![int("keepdims", 0)],
                ),
            ],
            vec![int64s("axes", &[2, 3])],
        )
        .unwrap();
        let layers = kinds_and_outputs(&c);
        assert_eq!(layers[0], (LayerKind::Avgpool, vec![8, 1, 1]));
        assert_eq!(layers[1].0, LayerKind::Avgpool);
    }

    #[test]
    fn a_reduction_over_the_batch_or_everything_is_refused() {
        let batch = small(
            vec![node("ReduceSum", "sum", &["data", "axes"], &["y"], vec![])],
            vec![int64s("axes", &[0])],
        )
        .unwrap_err();
        assert!(batch.problem.contains("over the batch"), "{}", batch.problem);
        let all = small(vec![node("ReduceMax", "max", &["data"], &["y"], vec![])], vec![]).unwrap_err();
        assert!(all.problem.contains("every dimension"), "{}", all.problem);
    }
}
