//! Products of two computed tensors (contract, section 15): attention's
//! scores `Q·Kᵀ` and context `A·V`, as `MatMul` writes them over
//! `[heads..., rows, columns]`.

use super::super::act::{Act, Role};
use super::{GraphError, Value, Walk, fail};
use crate::oracle::formats::onnx::proto::NodeProto;
use crate::oracle::model::errors::NodeRef;
use crate::oracle::model::layer::LayerKind;

impl<'g> Walk<'g> {
    /// `a·b` over their last two axes, their leading axes the heads.
    ///
    /// # Formula
    /// `a = [h..., M, K]`, `b = [h..., K, N]` give `[h..., M, N]`: a
    /// product layer (kind `matmul`) of input `a` reading `a` then `b`,
    /// `groups` the heads `Π h`; its rows `M` are `a`'s positions (the
    /// queries), its columns `N` channels (a head's keys, or its values'
    /// width).
    pub(super) fn product(&mut self, node: &'g NodeProto, at: &NodeRef, a: &Act, b: &Act) -> Result<(), GraphError> {
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
        if k != k2 || a.dims[..ra - 2] != b.dims[..rb - 2] {
            return refuse(&format!("of shapes {:?} and {:?}", a.dims, b.dims));
        }
        if !matches!(a.roles[ra - 2], Role::Spatial(_)) {
            // XCiT's cross-covariance attention multiplies channels by channels
            return refuse("whose rows are not positions (attention across channels)");
        }
        if a.roles[..ra - 2].iter().any(|r| *r != Role::Channel) {
            return refuse("whose leading axes are not heads");
        }
        let heads: u64 = a.dims[..ra - 2].iter().product();
        let mut y = a.dims.clone();
        y[ra - 1] = n;
        let mut out = a.produced(y, self.out.layers.len());
        out.roles[ra - 1] = Role::Channel;
        let x = a.canonical();
        self.push(
            at,
            LayerKind::Matmul,
            x,
            Vec::new(),
            out.canonical(),
            &[a.producer, b.producer],
        )?;
        if let Some(layer) = self.out.layers.last_mut() {
            layer.groups = heads;
        }
        self.set(node, Value::Act(out));
        Ok(())
    }
}
