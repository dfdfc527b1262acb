//! Products of two computed tensors (contract, section 15): attention's
//! scores `Q·Kᵀ` and context `A·V`, as `MatMul` writes them over
//! `[heads..., rows, columns]`.

use super::super::act::{Act, Role};
use super::attributes::text;
use super::{GraphError, Value, Walk, fail};
use crate::oracle::formats::onnx::proto::NodeProto;
use crate::oracle::model::errors::NodeRef;
use crate::oracle::model::layer::LayerKind;

/// How an `Einsum` of two tensors is a product over their last two axes
/// (`None`: another contraction): whether its second operand is read
/// transposed (`…id,…jd->…ij`, the scores `Q·Kᵀ`) or not (`…ij,…jd->…id`,
/// the context `A·V`), the leading labels the same on every side.
fn batched_product(equation: &str) -> Option<bool> {
    let equation: String = equation.chars().filter(|c| !c.is_whitespace()).collect();
    let (inputs, output) = equation.split_once("->")?;
    let (a, b) = inputs.split_once(',')?;
    let (a, b, y): (Vec<char>, Vec<char>, Vec<char>) =
        (a.chars().collect(), b.chars().collect(), output.chars().collect());
    let r = a.len();
    if r < 2 || b.len() != r || y.len() != r || a[..r - 2] != b[..r - 2] || a[..r - 2] != y[..r - 2] {
        return None;
    }
    let mut labels = a.clone();
    labels.extend(&b[r - 2..]);
    labels.sort_unstable();
    labels.dedup();
    if labels.len() != r + 1 || a.iter().any(|c| !c.is_ascii_alphabetic()) {
        return None;
    }
    let (i, k) = (a[r - 2], a[r - 1]);
    match (b[r - 2], b[r - 1], y[r - 2], y[r - 1]) {
        (j, k2, i2, j2) if k2 == k && i2 == i && j2 == j => Some(true),
        (k2, d, i2, d2) if k2 == k && i2 == i && d2 == d => Some(false),
        _ => None,
    }
}

/// `t` with its last two axes swapped (`Kᵀ`, `Aᵀ`): a view.
fn last_two_swapped(t: &Act, at: &NodeRef) -> Result<Act, GraphError> {
    let rank = t.dims.len() + 1;
    let mut perm: Vec<usize> = (0..rank).collect();
    perm.swap(rank - 1, rank - 2);
    t.transposed(&perm).map_err(|p| fail(Some(at.clone()), p))
}

/// Whether axis `i` of `t` holds positions: a spatial axis of more than
/// one (an axis of one holds none, whatever its name: a softmax's map
/// unsqueezed).
fn positions_at(t: &Act, i: usize) -> bool {
    matches!(t.roles[i], Role::Spatial(_)) && t.dims[i] > 1
}

impl<'g> Walk<'g> {
    /// An `Einsum` that is a product over the last two axes (torchvision's
    /// MaxViT writes its attention so): a product as [`Walk::product`]
    /// makes it, the second operand transposed where the equation reads it
    /// so.
    pub(super) fn einsum(&mut self, node: &'g NodeProto, at: &NodeRef) -> Result<(), GraphError> {
        let transposed = text(node, "equation").as_deref().and_then(batched_product);
        let Some(transposed) = transposed.filter(|_| node.input.len() == 2) else {
            return Err(fail(
                Some(at.clone()),
                "an Einsum other than a product of two tensors over their last two axes (`...ik,...kj->...ij` or `...ik,...jk->...ij`) is not supported",
            ));
        };
        let (a, b) = (self.act(node, 0, at)?, self.act(node, 1, at)?);
        let b = if transposed { last_two_swapped(&b, at)? } else { b };
        self.product(node, at, &a, &b)
    }

    /// `a·b` over their last two axes, their leading axes the heads.
    ///
    /// # Formula
    /// `a = [h..., M, K]`, `b = [h..., K, N]` give `[h..., M, N]`: a
    /// product layer (kind `matmul`) of input `a` reading `a` then `b`,
    /// `groups` the heads `Π h`; its rows `M` are `a`'s positions (the
    /// queries), its columns `N` channels (a head's keys, or its values'
    /// width).
    ///
    /// A product whose rows are channels and whose second operand's
    /// columns are positions is the transpose of one whose rows are
    /// positions (EfficientViT-M's `V·Aᵀ`, the context written
    /// `[h, d, N]`): `a·b = (bᵀ·aᵀ)ᵀ`, the same layer, its output
    /// transposed back.
    pub(super) fn product(&mut self, node: &'g NodeProto, at: &NodeRef, a: &Act, b: &Act) -> Result<(), GraphError> {
        let rows_are_positions = |t: &Act| t.dims.len() >= 2 && matches!(t.roles[t.dims.len() - 2], Role::Spatial(_));
        let columns_are_positions = |t: &Act| !t.dims.is_empty() && positions_at(t, t.dims.len() - 1);
        let out = if !rows_are_positions(a)
            && columns_are_positions(b)
            && a.dims.len() == b.dims.len()
            && a.dims.len() >= 2
        {
            let (b_t, a_t) = (last_two_swapped(b, at)?, last_two_swapped(a, at)?);
            last_two_swapped(&self.product_layer(at, &b_t, &a_t)?, at)?
        } else {
            self.product_layer(at, a, b)?
        };
        self.set(node, Value::Act(out));
        Ok(())
    }

    /// A product summing over every position (section 15): `[h..., M, P]`
    /// by `[h..., P, N]` gives `[h..., M, N]`, channels only; a product
    /// layer of input `a`, `groups` the heads `Π h`, its output of one
    /// position.
    fn positions_summed(&mut self, at: &NodeRef, a: &Act, b: &Act, n: u64) -> Result<Act, GraphError> {
        let rank = a.dims.len();
        let heads: u64 = a.dims[..rank - 2].iter().product();
        let mut dims = a.dims.clone();
        dims[rank - 1] = n;
        let mut out = a.produced(dims, self.out.layers.len());
        out.roles = vec![Role::Channel; rank];
        let x = a.canonical();
        let mut y = out.canonical();
        y.resize(x.len(), 1);
        self.push_product(at, x, y, &[a.producer, b.producer], heads)?;
        Ok(out)
    }

    /// Adds a product layer (kind `matmul`) of input `x` and output `y`,
    /// reading `reads`, `groups` its `heads`.
    fn push_product(
        &mut self,
        at: &NodeRef,
        x: Vec<u64>,
        y: Vec<u64>,
        reads: &[Option<usize>],
        heads: u64,
    ) -> Result<(), GraphError> {
        self.push(at, LayerKind::Matmul, x, Vec::new(), y, reads)?;
        if let Some(layer) = self.out.layers.last_mut() {
            layer.groups = heads;
        }
        Ok(())
    }

    /// The layer of [`Walk::product`], its output as the graph holds it.
    fn product_layer(&mut self, at: &NodeRef, a: &Act, b: &Act) -> Result<Act, GraphError> {
        let refuse = |why: &str| {
            Err(fail(
                Some(at.clone()),
                format!("a product of two computed tensors {why} is not a layer of this model"),
            ))
        };
        let (ra, rb) = (a.dims.len(), b.dims.len());
        if ra < 2 || rb < 2 || ra != rb {
            return refuse(&format!("of shapes {:?} and {:?}", a.dims, b.dims));
        }
        let k = a.dims[ra - 1];
        let (k2, n) = (b.dims[rb - 2], b.dims[rb - 1]);
        // keys and values shared by every head (multi-query attention: MobileNetV4's) broadcast
        let shared = b.dims[..rb - 2].iter().all(|&d| d == 1);
        if k != k2 || (a.dims[..ra - 2] != b.dims[..rb - 2] && !shared) {
            return refuse(&format!("of shapes {:?} and {:?}", a.dims, b.dims));
        }
        if a.roles[..ra - 2].contains(&Role::Mixed) {
            return refuse("whose leading axes are neither heads nor positions");
        }
        if !matches!(a.roles[ra - 2], Role::Spatial(_)) {
            // `[h..., M, P]·[h..., P, N]`: a sum over every position of the sample (XCiT's
            // cross-covariance attention, a linear attention's `Kᵀ·V`, a global-context pooling)
            let over_all_positions = positions_at(a, ra - 1)
                && !(0..ra - 1).any(|i| positions_at(a, i))
                && a.folded.is_empty()
                && positions_at(b, rb - 2)
                && !positions_at(b, rb - 1);
            if !over_all_positions {
                return refuse("whose rows are not positions and which sums over part of them, or over none");
            }
            return self.positions_summed(at, a, b, n);
        }
        // leading axes of positions (windows, grid cells: torchvision's MaxViT's `[G, h, N, d]`)
        // are more rows
        let heads: u64 = a.dims[..ra - 2]
            .iter()
            .zip(&a.roles)
            .filter(|(_, r)| **r == Role::Channel)
            .map(|(d, _)| d)
            .product();
        let mut y = a.dims.clone();
        y[ra - 1] = n;
        let mut out = a.produced(y, self.out.layers.len());
        out.roles[ra - 1] = Role::Channel;
        let x = a.canonical();
        if out.canonical().get(1..) != x.get(1..) {
            // a product whose columns are positions too (EfficientFormerV2's attention of
            // positions by positions, its heads among them)
            return refuse("whose leading axes are not heads");
        }
        self.push_product(at, x, out.canonical(), &[a.producer, b.producer], heads)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int, int64s, ints, node, weight};
    use super::super::super::proto::NodeProto;
    use super::super::{Converted, kinds_and_outputs, small};
    use super::batched_product;
    use crate::oracle::model::layer::{Layer, LayerKind};

    /// `middle` between the image `[1, 8, 8, 8]` viewed as `[1, 8, 64]` (8
    /// channels at 64 positions, `x`) and its output `c` viewed as the map
    /// again, then a 1×1 convolution to 4 channels.
    fn on_tokens(middle: Vec<NodeProto>) -> Converted {
        let mut nodes = vec![node("Reshape", "tokens", &["data", "tokens_shape"], &["x"], vec![])];
        nodes.extend(middle);
        nodes.extend([
            node("Reshape", "map", &["c", "map_shape"], &["m"], vec![]),
            node("Conv", "proj", &["m", "w"], &["y"], vec![]),
        ]);
        let weights = vec![
            int64s("tokens_shape", &[1, 8, 64]),
            int64s("map_shape", &[1, 8, 8, 8]),
            weight("w", &[4, 8, 1, 1]),
        ];
        let c = small(nodes, weights).unwrap();
        let kinds: Vec<LayerKind> = c.layers.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            [LayerKind::Matmul, LayerKind::Act, LayerKind::Matmul, LayerKind::Conv]
        );
        assert_eq!(kinds_and_outputs(&c)[3], (LayerKind::Conv, vec![4, 8, 8]));
        c
    }

    /// Layer `i` of `c`, checked.
    fn layer(c: &Converted, i: usize) -> Layer {
        Layer::new(c.layers[i].clone()).unwrap()
    }

    #[test]
    fn a_context_written_v_by_a_transposed_is_the_product_a_by_v_transposed() {
        // EfficientViT-M's and YOLO11's `V·Aᵀ` after the scores `Xᵀ·X`: channels by positions
        let c = on_tokens(vec![
            node("Transpose", "xt", &["x"], &["q"], vec![ints("perm", &[0, 2, 1])]),
            node("MatMul", "scores", &["q", "x"], &["s"], vec![]),
            node("Softmax", "softmax", &["s"], &["a"], vec![int("axis", -1)]),
            node("Transpose", "at", &["a"], &["at"], vec![ints("perm", &[0, 2, 1])]),
            node("MatMul", "context", &["x", "at"], &["c"], vec![]),
        ]);
        let context = layer(&c, 2);
        // 64 positions, each 8 channels summed over the 64 keys: 2·8·64·64 FLOPs
        // (the 64 tokens joined from the 8×8 map count as its positions)
        assert_eq!(context.y().dims(), [8, 64, 1]);
        assert_eq!(context.x().dims(), [64, 64, 1]);
        assert_eq!(context.forward_flops(), 2.0 * 8.0 * 64.0 * 64.0);
    }

    #[test]
    fn a_product_summing_over_the_positions_is_a_product_of_one_position() {
        // XCiT's attention across channels: `X·Xᵀ` over the 64 positions, its softmax, then
        // `A·X` (channels by positions, read as a transposed context)
        let c = on_tokens(vec![
            node("Transpose", "xt", &["x"], &["t"], vec![ints("perm", &[0, 2, 1])]),
            node("MatMul", "gram", &["x", "t"], &["g"], vec![]),
            node("Softmax", "softmax", &["g"], &["a"], vec![int("axis", -1)]),
            node("MatMul", "mix", &["a", "x"], &["c"], vec![]),
        ]);
        let gram = layer(&c, 0);
        assert!(gram.sums_over_positions());
        assert_eq!(gram.y().dims(), [64, 1, 1]);
        // 8·8 items, each a sum over the 64 positions
        assert_eq!(gram.forward_flops(), 2.0 * 64.0 * 64.0);
        let mix = layer(&c, 2);
        assert!(!mix.sums_over_positions());
        assert_eq!(mix.forward_flops(), 2.0 * 8.0 * 64.0 * 8.0);
        // a sum over the columns of each row (the rows kept as a leading axis) is refused
        let part = small(
            vec![
                node(
                    "Transpose",
                    "rows",
                    &["data"],
                    &["x"],
                    vec![ints("perm", &[0, 2, 1, 3])],
                ),
                node("Transpose", "xt", &["x"], &["t"], vec![ints("perm", &[0, 1, 3, 2])]),
                node("MatMul", "gram", &["x", "t"], &["g"], vec![]),
            ],
            vec![],
        )
        .unwrap_err();
        assert!(part.problem.contains("sums over part of them"), "{}", part.problem);
    }

    #[test]
    fn a_global_context_pooling_sums_the_map_weighted_by_its_softmax() {
        // GCNet: a softmax over the positions of a one-channel map, `[1, 64]` unsqueezed to
        // `[1, 64, 1]` (an axis of one: no positions), pools `[1, 8, 64]` to `[1, 8, 1]`
        let c = small(
            vec![
                node("Conv", "mask", &["data", "w"], &["m"], vec![]),
                node("Reshape", "flat", &["m", "mask_shape"], &["f"], vec![]),
                node("Softmax", "softmax", &["f"], &["p"], vec![int("axis", -1)]),
                node("Unsqueeze", "column", &["p", "last"], &["pc"], vec![]),
                node("Reshape", "tokens", &["data", "tokens_shape"], &["x"], vec![]),
                node("MatMul", "context", &["x", "pc"], &["y"], vec![]),
            ],
            vec![
                weight("w", &[1, 8, 1, 1]),
                int64s("mask_shape", &[1, 1, 64]),
                int64s("last", &[-1]),
                int64s("tokens_shape", &[1, 1, 8, 64]),
            ],
        )
        .unwrap();
        let context = layer(&c, 2);
        assert_eq!(context.kind(), LayerKind::Matmul);
        assert!(context.sums_over_positions());
        assert_eq!(context.y().dims(), [8, 1, 1]);
        assert_eq!(context.forward_flops(), 2.0 * 8.0 * 64.0);
    }

    #[test]
    fn a_pointwise_convolution_across_the_heads_scores_keeps_queries_and_keys() {
        // EfficientFormerV2's talking heads: `[h, queries, keys]` mixed across `h` by 1×1
        // convolutions, then the context of each head
        let c = small(
            vec![
                node("Reshape", "heads", &["data", "heads_shape"], &["x"], vec![]),
                node("Transpose", "xt", &["x"], &["q"], vec![ints("perm", &[0, 1, 3, 2])]),
                node("MatMul", "scores", &["q", "x"], &["s"], vec![]),
                node("Conv", "talk", &["s", "w"], &["t"], vec![]),
                node("Softmax", "softmax", &["t"], &["a"], vec![int("axis", -1)]),
                node("MatMul", "context", &["a", "q"], &["c"], vec![]),
            ],
            vec![int64s("heads_shape", &[1, 2, 4, 64]), weight("w", &[2, 2, 1, 1])],
        )
        .unwrap();
        let kinds: Vec<LayerKind> = c.layers.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            [LayerKind::Matmul, LayerKind::Conv, LayerKind::Act, LayerKind::Matmul]
        );
        let context = &c.layers[3];
        assert_eq!(context.groups, 2, "the heads");
        // each head's 64 queries, 4 values wide, over its 64 keys: 2·2·64·4·64 FLOPs
        let flops = crate::oracle::model::layer::Layer::new(context.clone())
            .unwrap()
            .forward_flops();
        assert_eq!(flops, 2.0 * 2.0 * 64.0 * 4.0 * 64.0);
    }

    #[test]
    fn an_einsum_is_a_product_only_over_its_last_two_axes() {
        assert_eq!(batched_product("B G H I D, B G H J D -> B G H I J"), Some(true));
        assert_eq!(batched_product("bgij,bgjd->bgid"), Some(false));
        // a contraction of other axes, a bilinear form, labels repeated: no product
        assert_eq!(batched_product("bij,bjk->bik"), Some(false));
        assert_eq!(batched_product("bhid,bhjd->bhji"), None);
        assert_eq!(batched_product("bij,bjk->ik"), None);
        assert_eq!(batched_product("iij,ijk->iik"), None);
        assert_eq!(batched_product("ij,jk"), None);
        assert_eq!(batched_product("i,i->"), None);
    }
}
