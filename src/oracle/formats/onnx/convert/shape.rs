//! Views and joins: shape, flatten, reshape, squeeze, expand, transpose,
//! split, slice, concat, pad and resize.

use super::super::act::{Act, Role};
use super::super::inference::Dropped;
use super::super::proto::NodeProto;
use super::super::values::{self, Const, Values, items};
use super::attributes::{attribute, int, ints, non_negative, text};
use super::{Value, Walk, fail, norm_misused};
use crate::oracle::model::errors::{GraphError, NodeRef};
use crate::oracle::model::layer::{Function, LayerKind};

/// `dims` padded by `before` and `after` (one each per dimension, the
/// first's unused: the channels of `[C, spatial...]`, or the batch in front
/// of a tensor's axes); a negative pad crops (NASNet's shifted paths).
pub(super) fn padded_positions(
    dims: &[u64],
    before: &[i64],
    after: &[i64],
    at: &NodeRef,
) -> Result<Vec<u64>, GraphError> {
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
pub(super) fn shape_of(node: &NodeProto, dims: &[u64]) -> Const {
    let rank = dims.len() as i64;
    let clamp = |v: i64| (if v < 0 { v + rank } else { v }).clamp(0, rank) as usize;
    let (start, end) = (clamp(int(node, "start", 0)), clamp(int(node, "end", rank)));
    Const::ints(dims[start..end.max(start)].iter().map(|&d| d as i64).collect())
}

impl<'g> Walk<'g> {
    pub(super) fn squeeze(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let moved = self.act_moved(node, 0, at)?;
        if moved.batch_at > 0 && at.op == "Squeeze" {
            return self.squeeze_before_batch(node, at, &moved);
        }
        if moved.batch_at > 0 {
            return self.unsqueeze_moved(node, at, &moved);
        }
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

    /// A Squeeze of axes before a moved batch (attention's `Q`, `K`, `V`
    /// after their Split): the batch moves back by as many axes.
    fn squeeze_before_batch(&mut self, node: &'g NodeProto, at: &NodeRef, x: &Act) -> Result<(), GraphError> {
        let rank = x.dims.len() + 1;
        let axes = self
            .integers(node, 1, "axes", at)?
            .ok_or_else(|| fail(Some(at.clone()), "a Squeeze of a moved batch must name its axes"))?;
        let axes = axes
            .iter()
            .map(|&a| values::axis(a, rank))
            .collect::<Result<Vec<usize>, _>>()
            .map_err(|p| fail(Some(at.clone()), p))?;
        let mut dims = Vec::new();
        let mut roles = Vec::new();
        for (d, (&size, &role)) in x.dims.iter().zip(&x.roles).enumerate() {
            let axis = if d < x.batch_at { d } else { d + 1 };
            if axes.contains(&axis) {
                if size != 1 {
                    return Err(fail(
                        Some(at.clone()),
                        format!("a Squeeze of axis {axis}, of size {size}"),
                    ));
                }
            } else {
                dims.push(size);
                roles.push(role);
            }
        }
        if axes.contains(&x.batch_at) {
            return Err(fail(Some(at.clone()), "a Squeeze of the batch"));
        }
        if dims.is_empty() {
            return Err(fail(Some(at.clone()), "a Squeeze that leaves a tensor of no axis"));
        }
        let before = (0..x.batch_at).filter(|a| axes.contains(a)).count();
        let y = Act {
            dims,
            roles,
            producer: x.producer,
            unflat: None,
            origin: None,
            batch_at: x.batch_at - before,
            folded: x.folded.clone(),
            folded_before: x.folded_before,
        };
        self.set(node, Value::Act(y));
        self.merged(at.op.clone());
        Ok(())
    }

    /// An Unsqueeze of a tensor whose batch moved (`nn.MultiheadAttention`
    /// unflattens its `Q`, `K`, `V` projection and moves the three to the
    /// front): axes of one, channels, and the batch where it lands.
    fn unsqueeze_moved(&mut self, node: &'g NodeProto, at: &NodeRef, x: &Act) -> Result<(), GraphError> {
        let rank = x.dims.len() + 1;
        let axes = self
            .integers(node, 1, "axes", at)?
            .ok_or_else(|| fail(Some(at.clone()), "an Unsqueeze of a moved batch must name its axes"))?;
        let out_rank = rank + axes.len();
        let mut axes = axes
            .iter()
            .map(|&a| values::axis(a, out_rank))
            .collect::<Result<Vec<usize>, _>>()
            .map_err(|p| fail(Some(at.clone()), p))?;
        axes.sort_unstable();
        if axes.windows(2).any(|w| w[0] == w[1]) {
            return Err(fail(Some(at.clone()), "an Unsqueeze naming an axis twice"));
        }
        // the graph's axes, the batch as None, then the new ones inserted in order
        let mut full: Vec<Option<(u64, Role)>> =
            x.dims.iter().copied().zip(x.roles.iter().copied()).map(Some).collect();
        full.insert(x.batch_at.min(full.len()), None);
        for &a in &axes {
            full.insert(a.min(full.len()), Some((1, Role::Channel)));
        }
        let mut y = x.clone();
        y.batch_at = full.iter().position(Option::is_none).unwrap_or(0);
        (y.dims, y.roles) = full.into_iter().flatten().unzip();
        y.unflat = None;
        y.origin = None;
        self.set(node, Value::Act(y));
        self.merged(at.op.clone());
        Ok(())
    }

    /// One of the parts of a channel axis before a moved batch, by a
    /// scalar index (`nn.MultiheadAttention`'s `proj[0]`, `proj[1]`,
    /// `proj[2]`: its `Q`, `K` and `V`, as a Split and a Squeeze give them
    /// from timm's): a view, the axis gone.
    pub(super) fn part_before_batch(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act_moved(node, 0, at)?;
        let index = self.konst(node, 1, at)?;
        let axis = values::axis(int(node, "axis", 0), x.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
        let picked = index.integers().filter(|i| index.dims.is_empty() && i.len() == 1);
        let Some(dim) = x
            .dim_of(axis)
            .filter(|&d| d < x.batch_at && x.roles[d] == Role::Channel && x.dims.len() > 1)
        else {
            return Err(fail(
                Some(at.clone()),
                "a Gather before a moved batch is supported only of one part of a channel axis",
            ));
        };
        let size = x.dims[dim] as i64;
        if !picked.is_some_and(|i| (-size..size).contains(&i[0])) {
            return Err(fail(Some(at.clone()), "its index is not one known part of the axis"));
        }
        let mut y = x;
        y.dims.remove(dim);
        y.roles.remove(dim);
        y.batch_at -= 1;
        y.unflat = None;
        y.origin = None;
        self.set(node, Value::Act(y));
        self.merged("Gather (one part of Q, K and V)");
        Ok(())
    }

    pub(super) fn split(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act_moved(node, 0, at)?;
        let rank = x.dims.len() + 1;
        let axis = values::axis(int(node, "axis", 0), rank).map_err(|p| fail(Some(at.clone()), p))?;
        if axis == 0 && x.batch_at == 0 && self.past_weights() {
            // the network's output split into its images: their post-processing
            return self.drop_node(node, at, Dropped::PostProcessing);
        }
        // a split of the channels (attention's Q, K and V, their axis before the batch)
        let Some(dim) = x.dim_of(axis).filter(|&d| x.roles[d] == Role::Channel) else {
            return Err(fail(Some(at.clone()), "only a Split of the channels is supported"));
        };
        let axis = dim + 1;
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

    pub(super) fn slice(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
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

    pub(super) fn concat(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let mut parts = Vec::new();
        let mut tokens: Vec<(usize, Vec<u64>)> = Vec::new();
        for i in 0..node.input.len() {
            if node.input[i].is_empty() {
                continue;
            }
            match self.input(node, i, at)? {
                Value::Act(a) => parts.push(a.clone()),
                Value::Norm(..) => return Err(norm_misused(at)),
                Value::Const(c) => tokens.push((i, c.dims.clone())),
            }
        }
        if !tokens.is_empty() {
            return self.learned_tokens(node, at, &parts, &tokens);
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
            if self.past_weights() {
                // outputs stacked across the batch (CrossViT's two heads' logits, averaged): the
                // network's output read for its loss (a layer with weights reading it is refused)
                return self.drop_node(node, at, Dropped::PostProcessing);
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

    /// Trained tokens (a class token, a distillation token, registers)
    /// joined to the tokens of one computed tensor along its positions
    /// (section 15): a layer of kind `other` holding them as its weights.
    fn learned_tokens(
        &mut self,
        node: &'g NodeProto,
        at: &NodeRef,
        parts: &[Act],
        tokens: &[(usize, Vec<u64>)],
    ) -> Result<(), GraphError> {
        let [x] = parts else {
            return Err(fail(
                Some(at.clone()),
                "a concatenation of constants with other than one computed tensor is not a layer of this model",
            ));
        };
        let axis = values::axis(int(node, "axis", 1), x.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
        let Some(dim) = x.dim_of(axis).filter(|&d| matches!(x.roles[d], Role::Spatial(_))) else {
            return Err(fail(
                Some(at.clone()),
                "a concatenation of a constant with a computed tensor other than along its positions (learned tokens) is not a layer of this model",
            ));
        };
        let mut dims = x.dims.clone();
        let mut weights = 0u64;
        for (_, t) in tokens {
            // batch first, then the tensor's axes
            let along = t.get(axis).copied().unwrap_or(1);
            let width: u64 = t.iter().skip(1).product();
            dims[dim] = dims[dim].saturating_add(along);
            weights = weights.saturating_add(width);
        }
        let y = x.produced(dims, self.out.layers.len());
        let y_canonical = y.canonical();
        let width = x.canonical().first().copied().unwrap_or(1).max(1);
        self.push(
            at,
            LayerKind::Other,
            x.canonical(),
            vec![weights / width, width],
            y_canonical,
            &[x.producer],
        )?;
        for (i, _) in tokens {
            self.weight_tensor(node, *i);
        }
        self.set(node, Value::Act(y));
        Ok(())
    }

    /// One token of a tensor's positions (a vision transformer's class
    /// token, `x[:, 0]`, section 15): a view of it, no layer.
    pub(super) fn token(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let index = self.konst(node, 1, at)?;
        let axis = values::axis(int(node, "axis", 0), x.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
        let one = index.dims.iter().product::<u64>() == 1;
        let Some(dim) = x
            .dim_of(axis)
            .filter(|&d| one && matches!(x.roles[d], Role::Spatial(_)))
        else {
            return Err(fail(
                Some(at.clone()),
                "a Gather of a computed tensor is supported only as one position (a class token) or the first image of a batch of one",
            ));
        };
        let mut y = x.clone();
        if index.dims.is_empty() {
            if y.dims.len() < 2 {
                return Err(fail(Some(at.clone()), "a Gather that leaves a tensor of no axis"));
            }
            y.dims.remove(dim);
            y.roles.remove(dim);
        } else {
            y.dims[dim] = 1;
        }
        y.unflat = None;
        y.origin = None;
        self.set(node, Value::Act(y));
        self.merged("Gather (one token)");
        Ok(())
    }

    /// The sizes a Resize (or Upsample) of a tensor of sizes `full` gives:
    /// its `sizes`, else its `scales` times `full`, floored.
    pub(super) fn resized(&self, node: &NodeProto, at: &NodeRef, full: &[u64]) -> Result<Vec<u64>, GraphError> {
        // sizes (input 3), else scales (input 2 of Resize, 1 of Upsample)
        let sizes = match node.input.get(3).filter(|n| !n.is_empty()) {
            Some(_) => Some(
                self.konst(node, 3, at)?
                    .integers()
                    .ok_or_else(|| fail(Some(at.clone()), "its sizes are not known"))?,
            ),
            None => None,
        };
        Ok(match sizes {
            Some(s) => non_negative(&s, "sizes", at)?,
            None => {
                // Resize's scales are input 2 from opset 11 (input 1 at opset 10); Upsample's
                // input 1 from opset 9, an attribute before
                let scales: Vec<f64> = if at.op == "Upsample" && self.opset < 9 {
                    let attr = attribute(node, "scales")
                        .filter(|a| !a.floats.is_empty())
                        .ok_or_else(|| {
                            fail(
                                Some(at.clone()),
                                "an Upsample (opset 7 and 8) without its scales attribute",
                            )
                        })?;
                    attr.floats.iter().map(|&s| f64::from(s)).collect()
                } else {
                    let index = if at.op == "Upsample" || self.opset < 11 { 1 } else { 2 };
                    match self.konst(node, index, at)?.values {
                        Some(Values::Float(f)) => f,
                        Some(Values::Int(i)) => i.into_iter().map(|v| v as f64).collect(),
                        None => return Err(fail(Some(at.clone()), "its scales are not known")),
                    }
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
        })
    }

    pub(super) fn resize(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.channels_first(node, at)?;
        let mut full = vec![1u64];
        full.extend(&x.dims);
        let dims = self.resized(node, at, &full)?;
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

    /// Identity and casts: the same tensor.
    pub(super) fn identity(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.input(node, 0, at)?.clone();
        self.set(node, x);
        self.merged(op);
        Ok(())
    }

    /// The sizes of a tensor (batch first), a constant.
    pub(super) fn shape(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let dims = match self.input(node, 0, at)? {
            // the batch axis where it sits: one sample times the windows folded into it
            Value::Act(a) | Value::Norm(a, _) => a.graph_dims(),
            Value::Const(c) => c.dims.clone(),
        };
        self.set(node, Value::Const(shape_of(node, &dims)));
        // sizes, never parameters
        self.written.extend(node.output.iter().map(String::as_str));
        self.merged(op);
        Ok(())
    }

    /// Flatten after the batch axis: a view; across the batch after the
    /// network's layers, post-processing.
    pub(super) fn flatten(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.act(node, 0, at)?;
        let axis = values::axis(int(node, "axis", 1), x.dims.len() + 1).map_err(|p| fail(Some(at.clone()), p))?;
        if axis > 1 {
            // leading axes folded into the batch (LeViT's batch norm over `[B·N, C]`), a view
            let full = x.graph_dims();
            let (lead, rest) = full.split_at(axis.min(full.len()));
            let target = [lead.iter().product::<u64>(), rest.iter().product::<u64>()];
            if let Ok(y) = x.refolded(&target) {
                self.set(node, Value::Act(y));
                self.merged(op);
                return Ok(());
            }
        }
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
        Ok(())
    }

    /// A view keeping the batch axis first; a head's `[anchors, K]` output
    /// viewed across the batch is post-processing.
    pub(super) fn reshape(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.act_moved(node, 0, at)?;
        let target = self
            .integers(node, 1, "shape", at)?
            .ok_or_else(|| fail(Some(at.clone()), "a Reshape without a shape"))?;
        let full = x.graph_dims();
        let dims =
            values::reshaped(&full, &target, int(node, "allowzero", 0) != 0).map_err(|p| fail(Some(at.clone()), p))?;
        let anchors = x.roles == [Role::Mixed, Role::Channel];
        if dims.first() != Some(&1) && anchors && self.past_weights() {
            // a head's output `[anchors, K]` (positions and anchors flattened together)
            // viewed across its batch: for its loss or decoding (a reshape that folds
            // the batch of an image or of per-sample weights stays refused below)
            return self.drop_node(node, at, Dropped::PostProcessing);
        }
        if dims.first() != Some(&1) || !x.folded.is_empty() || x.batch_at > 0 {
            // windows, heads or tokens folded into the batch, or unfolded from it, and a moved
            // batch (section 15)
            let y = x.refolded(&dims).map_err(|p| {
                fail(
                    Some(at.clone()),
                    format!("{p}: only whole axes of the sample (windows) may be folded into the batch"),
                )
            })?;
            self.set(node, Value::Act(y));
            self.merged(op);
            return Ok(());
        }
        self.batch_kept(&dims, at)?;
        let y = x.reshaped(dims[1..].to_vec()).map_err(|p| fail(Some(at.clone()), p))?;
        self.set(node, Value::Act(y));
        self.merged(op);
        Ok(())
    }

    /// A broadcast view (`expand_as`): no kernel, no memory.
    pub(super) fn expand(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
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
            batch_at: 0,
            folded: x.folded.clone(),
            folded_before: x.folded_before,
        };
        self.set(node, Value::Act(y));
        self.merged(op);
        Ok(())
    }

    /// A repetition of an activation along its axes (`repeat`: GCViT's
    /// global query, one for every window): a copy, a layer that saves
    /// nothing (its gradient sums the copies). The batch is not repeated.
    pub(super) fn tile(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let repeats = self
            .integers(node, 1, "repeats", at)?
            .ok_or_else(|| fail(Some(at.clone()), "a Tile without its repeats"))?;
        let repeats = non_negative(&repeats, "its repeats", at)?;
        if repeats.len() != x.dims.len() + 1 || repeats[0] != 1 || repeats.contains(&0) {
            return Err(fail(
                Some(at.clone()),
                "a Tile of an activation is supported only along its axes but the batch, each at least once",
            ));
        }
        if repeats.iter().all(|&r| r == 1) {
            self.set(node, Value::Act(x));
            self.merged("Tile (of once)");
            return Ok(());
        }
        // too many items is refused where the layer is added (a saturated product is too many)
        let dims = x
            .dims
            .iter()
            .zip(&repeats[1..])
            .map(|(d, r)| d.saturating_mul(*r))
            .collect();
        self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims)
    }

    /// A permutation of the axes: a view that keeps track of where the
    /// channels went.
    pub(super) fn transpose(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let op = at.op.as_str();
        let x = self.act_moved(node, 0, at)?;
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
        Ok(())
    }

    /// A pad of the positions: a layer without weights (a reflection or
    /// replication pad saves its input).
    pub(super) fn pad(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let x = self.act(node, 0, at)?;
        let pads = self
            .integers(node, 1, "pads", at)?
            .ok_or_else(|| fail(Some(at.clone()), "a Pad without pads"))?;
        let n = x.dims.len() + 1;
        let constant = text(node, "mode").is_none_or(|mode| mode == "constant");
        if pads.len() != 2 * n || pads[0] != 0 || pads[n] != 0 {
            return Err(fail(Some(at.clone()), "a Pad of the batch is not supported"));
        }
        let channel = |i: usize| !matches!(x.roles[i - 1], Role::Spatial(_));
        // the channels grown by a constant (EfficientViT-B's linear attention appends a channel
        // of ones to its values, whose product then carries the normalizer): a copy, as a
        // constant pad of the positions is
        if (1..n).any(|i| channel(i) && (pads[i] != 0 || pads[n + i] != 0))
            && (!constant || pads.iter().any(|&p| p < 0))
        {
            return Err(fail(
                Some(at.clone()),
                "a Pad of the channels is supported only by a constant, adding channels",
            ));
        }
        if pads.iter().all(|&p| p == 0) {
            // a window partition's padding of a size already a multiple of the window
            self.set(node, Value::Act(x));
            self.merged("Pad (of nothing)");
            return Ok(());
        }
        // in any layout (Swin V2's padding of a channels-last map to a multiple of its window):
        // the batch in front
        let mut batched = vec![1];
        batched.extend(&x.dims);
        let dims = padded_positions(&batched, &pads[..n], &pads[n..], at)?[1..].to_vec();
        self.layer(node, at, LayerKind::Other, &x, Vec::new(), dims)?;
        // a reflection or replication pad saves its input for its gradient (PyTorch's
        // `reflection_pad2d_backward(grad, self, padding)`); a constant pad nothing
        if !constant {
            self.function(Function::Other);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{floats, int, int64s, ints, node, text, weight};
    use super::super::{kinds_and_outputs, small};
    use super::*;

    fn at() -> NodeRef {
        NodeRef {
            index: 0,
            name: "p".into(),
            op: "Pad".into(),
        }
    }

    #[test]
    fn pads_grow_positions_and_negative_ones_crop() {
        assert_eq!(
            padded_positions(&[3, 8, 8], &[0, 1, 2], &[0, 1, -2], &at()).unwrap(),
            vec![3, 10, 8]
        );
        assert!(padded_positions(&[3, 2, 2], &[0, -1, 0], &[0, -1, 0], &at()).is_err());
    }

    #[test]
    fn a_flatten_of_tokens_into_the_batch_is_a_view_a_batch_norm_reads() {
        // LeViT's linear layer and batch norm: `[B, N, C]` flattened to `[B·N, C]`, normalized,
        // viewed back by the shape it had
        let c = small(
            vec![
                node("Reshape", "tokens", &["data", "tokens_shape"], &["x"], vec![]),
                node("Transpose", "xt", &["x"], &["t"], vec![ints("perm", &[0, 2, 1])]),
                node("MatMul", "linear", &["t", "w"], &["l"], vec![]),
                node("Flatten", "flat", &["l"], &["f"], vec![int("axis", 2)]),
                node("BatchNormalization", "bn", &["f", "g", "b", "m", "v"], &["n"], vec![]),
                node("Shape", "shape", &["l"], &["s"], vec![]),
                node("Reshape", "back", &["n", "s"], &["y"], vec![]),
                node("Relu", "relu", &["y"], &["r"], vec![]),
            ],
            vec![
                int64s("tokens_shape", &[1, 8, 64]),
                weight("w", &[8, 16]),
                weight("g", &[16]),
                weight("b", &[16]),
                weight("m", &[16]),
                weight("v", &[16]),
            ],
        )
        .unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![
                (LayerKind::Fc, vec![16, 64, 1]),
                (LayerKind::Bn, vec![16, 64, 1]),
                (LayerKind::Relu, vec![16, 64, 1]),
            ]
        );
        assert_eq!(c.merged.get("Flatten"), Some(&1));
    }

    #[test]
    fn outputs_stacked_across_the_batch_after_the_weights_are_the_output_read_for_the_loss() {
        // CrossViT: two heads' logits unsqueezed before the batch, stacked and averaged
        let nodes = |extra: Vec<NodeProto>| {
            let mut n = vec![
                node("Flatten", "flat", &["data"], &["f"], vec![]),
                node("Gemm", "head0", &["f", "w0"], &["h0"], vec![int("transB", 1)]),
                node("Gemm", "head1", &["f", "w1"], &["h1"], vec![int("transB", 1)]),
                node("Unsqueeze", "u0", &["h0", "zero"], &["s0"], vec![]),
                node("Unsqueeze", "u1", &["h1", "zero"], &["s1"], vec![]),
                node("Concat", "stack", &["s0", "s1"], &["s"], vec![int("axis", 0)]),
            ];
            n.extend(extra);
            n
        };
        let weights = || {
            vec![
                weight("w0", &[10, 512]),
                weight("w1", &[10, 512]),
                int64s("zero", &[0]),
                weight("w2", &[10, 10]),
            ]
        };
        let c = small(nodes(vec![]), weights()).unwrap();
        assert_eq!(c.layers.len(), 2);
        // a layer with weights reading it is refused, naming it
        let e = small(
            nodes(vec![node("MatMul", "after", &["s", "w2"], &["y"], vec![])]),
            weights(),
        )
        .unwrap_err();
        assert!(e.node.as_ref().is_some_and(|n| n.name == "after"), "{e:?}");
    }

    #[test]
    fn a_shape_node_gives_its_range_of_dimensions() {
        let n = node("Shape", "s", &["x"], &["y"], vec![int("start", 1), int("end", -1)]);
        assert_eq!(shape_of(&n, &[1, 3, 8, 8]).integers(), Some(vec![3, 8]));
    }

    #[test]
    fn views_and_joins_are_no_layers_but_pads_and_resizes_are() {
        let c = small(
            vec![
                node("Split", "split", &["data", "parts"], &["a", "b"], vec![int("axis", 1)]),
                node("Concat", "cat", &["b", "a"], &["c"], vec![int("axis", 1)]),
                node("Pad", "pad", &["c", "pads"], &["p"], vec![text("mode", "reflect")]),
                node("Resize", "up", &["p", "", "scales"], &["r"], vec![]),
                node("Flatten", "flat", &["r"], &["f"], vec![]),
                node("Gemm", "fc", &["f", "w"], &["y"], vec![int("transB", 1)]),
            ],
            vec![
                int64s("parts", &[3, 5]),
                int64s("pads", &[0, 0, 1, 1, 0, 0, 1, 1]),
                floats("scales", &[1.0, 1.0, 2.0, 2.0]),
                weight("w", &[10, 8 * 20 * 20]),
            ],
        )
        .unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![
                (LayerKind::Concat, vec![8, 8, 8]),
                (LayerKind::Other, vec![8, 10, 10]),
                (LayerKind::Other, vec![8, 20, 20]),
                (LayerKind::Fc, vec![10, 1, 1]),
            ]
        );
        assert_eq!(
            c.layers[1].function,
            Some(Function::Other),
            "a reflection pad saves its input"
        );
        assert_eq!(c.merged.get("Split"), Some(&1));
        assert_eq!(c.merged.get("Flatten"), Some(&1));
    }

    #[test]
    fn a_pad_of_the_channels_by_a_constant_adds_channels_and_others_are_refused() {
        // EfficientViT-B's values with a channel of ones appended: 8 channels become 9, a copy
        // that saves nothing; a convolution then reads all 9
        let with = |mode: &str, pads: &[i64], reader: &str| {
            small(
                vec![
                    node("Pad", "pad", &["data", "pads", "one"], &["p"], vec![text("mode", mode)]),
                    node("Conv", "conv", &["p", reader], &["y"], vec![]),
                ],
                vec![
                    int64s("pads", pads),
                    floats("one", &[1.0]),
                    weight("w9", &[4, 9, 1, 1]),
                    weight("w8", &[4, 8, 1, 1]),
                ],
            )
        };
        let c = with("constant", &[0, 0, 0, 0, 0, 1, 0, 0], "w9").unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![(LayerKind::Other, vec![9, 8, 8]), (LayerKind::Conv, vec![4, 8, 8])]
        );
        assert_eq!(c.layers[0].function, None, "a constant pad saves nothing");
        for (mode, pads) in [
            ("reflect", [0, 0, 0, 0, 0, 1, 0, 0]),
            ("constant", [0, -1, 0, 0, 0, 0, 0, 0]),
        ] {
            let e = with(mode, &pads, "w8").unwrap_err();
            assert!(e.problem.contains("Pad of the channels"), "{mode}: {}", e.problem);
        }
        let huge = with("constant", &[0, i64::MAX, 0, 0, 0, i64::MAX, 0, 0], "w9").unwrap_err();
        assert_eq!(huge.node.map(|n| n.name), Some("pad".to_string()), "{}", huge.problem);
        let batch = with("constant", &[1, 0, 0, 0, 0, 0, 0, 0], "w8").unwrap_err();
        assert!(batch.problem.contains("Pad of the batch"), "{}", batch.problem);
        // a layer whose weight does not fit the channels it reads is refused at its node
        let e = with("constant", &[0, 0, 0, 0, 0, 1, 0, 0], "w8").unwrap_err();
        assert_eq!(e.node.map(|n| n.name), Some("conv".to_string()));
    }

    #[test]
    fn a_tile_of_an_activation_is_a_copy_and_the_batch_is_not_repeated() {
        // GCViT's global query, one for each of 4 windows: `[B, 8, 1, 8]` repeated to `[B, 8, 4, 8]`
        let with = |repeats: &[i64]| {
            small(
                vec![
                    node("Slice", "row", &["data", "s0", "s1", "axis"], &["q"], vec![]),
                    node("Tile", "tile", &["q", "repeats"], &["t"], vec![]),
                    node("Relu", "relu", &["t"], &["y"], vec![]),
                ],
                vec![
                    int64s("s0", &[0]),
                    int64s("s1", &[1]),
                    int64s("axis", &[2]),
                    int64s("repeats", repeats),
                ],
            )
        };
        let c = with(&[1, 1, 4, 1]).unwrap();
        assert_eq!(
            kinds_and_outputs(&c),
            vec![(LayerKind::Other, vec![8, 4, 8]), (LayerKind::Relu, vec![8, 4, 8])]
        );
        assert_eq!(
            c.layers[0].function, None,
            "a repeat's gradient sums its copies: it saves nothing"
        );
        // repeated once along every axis: a view
        assert_eq!(
            kinds_and_outputs(&with(&[1, 1, 1, 1]).unwrap()),
            vec![(LayerKind::Relu, vec![8, 1, 8])]
        );
        let huge = with(&[1, i64::MAX, i64::MAX, 1]).unwrap_err();
        assert_eq!(huge.node.map(|n| n.name), Some("tile".to_string()), "{}", huge.problem);
        for repeats in [[2, 1, 1, 1], [1, 1, 0, 1]] {
            let e = with(&repeats).unwrap_err();
            assert!(e.problem.contains("Tile of an activation"), "{}", e.problem);
        }
    }

    #[test]
    fn a_split_of_positions_is_refused_and_axes_folded_into_the_batch_stay_the_samples() {
        let split = small(
            vec![node("Split", "split", &["data"], &["a", "b"], vec![int("axis", 2)])],
            vec![],
        )
        .unwrap_err();
        assert!(split.problem.contains("Split of the channels"), "{}", split.problem);
        // the channels folded into the batch (as a window partition folds windows): still the
        // sample's, the layer reads all of it
        let folded = small(
            vec![
                node("Reshape", "r", &["data", "shape"], &["y"], vec![]),
                node("Relu", "relu", &["y"], &["z"], vec![]),
            ],
            vec![int64s("shape", &[8, 8, 8])],
        )
        .unwrap();
        assert_eq!(kinds_and_outputs(&folded), vec![(LayerKind::Relu, vec![8, 8, 8])]);
    }
}
