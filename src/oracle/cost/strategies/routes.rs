//! Where a gradient exchange runs (consecutive GPUs or a given ring), and
//! its time: an Allreduce, ZeRO's reduce-scatter and allgather, or a
//! weight allgather.

use super::super::collectives::{AlphaBeta, Fabric, allgather};
use crate::oracle::model::run::Run;

/// Where a gradient exchange runs: over consecutive GPUs (hierarchical
/// Allreduces possible), or over a given ring (one member per group).
#[derive(Debug, Clone, Copy)]
pub(super) enum Route {
    /// `gpus` consecutive GPUs.
    Consecutive(u64),
    /// A ring with these α, β.
    Ring(AlphaBeta),
}

/// The gradient exchange of `bytes` among the `members` of the
/// data-parallel dimension: an Allreduce, or ZeRO's reduce-scatter and
/// allgather (stages 1 to 3, ring algorithms).
pub(super) fn gradient_exchange(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> f64 {
    match (run.zero, route) {
        (0, Route::Consecutive(gpus)) => fabric.allreduce_consecutive(gpus, bytes),
        (0, Route::Ring(ab)) => fabric.allreduce(members, bytes, ab),
        (_, Route::Consecutive(gpus)) => fabric.reduce_scatter_allgather(members, bytes, fabric.ring(gpus, 1)),
        (_, Route::Ring(ab)) => fabric.reduce_scatter_allgather(members, bytes, ab),
    }
}

impl Route {
    /// The α, β of its ring.
    pub(super) fn ring(self, fabric: &Fabric<'_>) -> AlphaBeta {
        match self {
            Self::Consecutive(gpus) => fabric.ring(gpus, 1),
            Self::Ring(ab) => ab,
        }
    }

    /// The consecutive GPUs an exchange over it spans.
    pub(super) fn span(self, run: &Run) -> u64 {
        match self {
            Self::Consecutive(gpus) => gpus,
            Self::Ring(_) => run.gpus,
        }
    }
}

/// ZeRO stage 3's allgather of the weights in the backward pass.
///
/// # Formula
/// `AG(d, h·W)` for stage 3, else 0.
pub(super) fn weight_allgather(fabric: &Fabric<'_>, run: &Run, members: u64, bytes: f64, route: Route) -> f64 {
    if run.zero < 3 {
        return 0.0;
    }
    allgather(members, bytes, route.ring(fabric))
}
