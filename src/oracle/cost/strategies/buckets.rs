//! Overlap: the gradient buckets of an exchange as PyTorch's DDP fills
//! them, each ready partway through the backward pass (contract, section 7).

use super::super::split::{SplitAxis, SplitPlan};
use super::super::table::CostTable;
use crate::oracle::model::run::Run;

/// PyTorch DDP's first gradient bucket, bytes (its C++ reducer's
/// `kDefaultFirstBucketBytes`, `torch.distributed._DEFAULT_FIRST_BUCKET_BYTES`:
/// 1 MiB in PyTorch 2.15), so that the last layers' gradients leave early.
pub const FIRST_BUCKET_BYTES: f64 = 1_048_576.0;

/// One bucket of a gradient exchange.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bucket {
    /// `r_k`: seconds into the backward pass when its last gradient is ready.
    pub ready_s: f64,
    /// `T_k`: seconds its exchange takes.
    pub exchange_s: f64,
}

/// The share of a layer's training time spent in its backward pass: 2/3,
/// 3/4 with recompute (whose extra forward pass runs in the backward).
pub(super) fn backward_share(run: &Run) -> f64 {
    if run.recompute { 3.0 / 4.0 } else { 2.0 / 3.0 }
}

/// The buckets of a gradient exchange as PyTorch's DDP fills them (after
/// its first iteration, in the order the gradients are produced).
///
/// # Formula
/// The layers in backward order (the last first); layer `l`'s gradient
/// bytes `m_l` are ready when the backward pass has run `β·Σ_{k≥l} T_k`
/// (`β = share` of each layer's compute `T_k` at this batch); they
/// join the open bucket, which closes once it holds at least its cap
/// ([`FIRST_BUCKET_BYTES`] for the first, or `bucket_bytes` if smaller;
/// `bucket_bytes` after), ready with its last gradient. A bucket of `m_k`
/// bytes takes `T_k = T_ex·E(m_k)/E(m)`: the strategy's exchange `E` of its
/// bytes, in the proportion that carries the exchange of all `m` bytes to
/// the whole exchange `T_ex` (so each bucket pays its own latency).
pub(super) fn gradient_buckets(
    share: f64,
    bucket_bytes: f64,
    layer_times_s: &[f64],
    layer_bytes: &[f64],
    total_s: f64,
    exchange: impl Fn(f64) -> f64,
) -> Vec<Bucket> {
    let whole = exchange(layer_bytes.iter().sum());
    let scale = if whole > 0.0 { total_s / whole } else { 0.0 };
    let mut buckets = Vec::new();
    let (mut elapsed, mut open, mut ready) = (0.0, 0.0, 0.0);
    for (t, m) in layer_times_s.iter().zip(layer_bytes).rev() {
        elapsed += share * t;
        if *m <= 0.0 {
            continue;
        }
        open += m;
        ready = elapsed;
        let cap = if buckets.is_empty() {
            FIRST_BUCKET_BYTES.min(bucket_bytes)
        } else {
            bucket_bytes
        };
        if open >= cap {
            buckets.push(Bucket {
                ready_s: ready,
                exchange_s: scale * exchange(open),
            });
            open = 0.0;
        }
    }
    if open > 0.0 {
        buckets.push(Bucket {
            ready_s: ready,
            exchange_s: scale * exchange(open),
        });
    }
    buckets
}

/// The gradient buckets of a strategy whose GPUs each run `samples`
/// samples of the layers (those of `plan` split; a filter or channel split
/// divides their weights), when the run overlaps; none otherwise.
///
/// # Formula
/// [`gradient_buckets`] with `T_l` of [`CostTable::layer_times_s`] and
/// `m_l = h·|w_l|` (`/q` for a layer whose weights the split divides).
pub(super) fn overlap_buckets(
    table: &CostTable,
    run: &Run,
    samples: f64,
    plan: Option<&SplitPlan>,
    total_s: f64,
    exchange: impl Fn(f64) -> f64,
) -> Vec<Bucket> {
    if !run.overlap {
        return Vec::new();
    }
    let times = table.layer_times_s(samples, plan);
    let h = run.item_bytes();
    // a shared tensor's gradient is whole once the backward pass reaches its
    // first use (the last of its uses backward): it joins the bucket there,
    // and its other uses add no bytes (section 10)
    let bytes: Vec<f64> = table
        .layers()
        .iter()
        .enumerate()
        .map(|(i, c)| match plan {
            Some(p) if p.axis != SplitAxis::Width && p.mask.get(i).copied().unwrap_or(false) => {
                h * c.weight_items / p.parts as f64
            }
            _ => h * c.weight_items,
        })
        .collect();
    gradient_buckets(backward_share(run), run.bucket_bytes, &times, &bytes, total_s, exchange)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: f64 = 1_048_576.0;

    #[test]
    fn buckets_fill_as_ddps_by_hand() {
        // five layers of 3 ms each (2 ms backward), gradients 8, 0, 10, 0.5 and 0.75 MiB; 10 MiB
        // buckets and an exchange of 1 ms + 1 ms a MiB. Backward order: 0.75 MiB (ready at 2 ms)
        // and 0.5 MiB (4 ms) reach the first bucket's 1 MiB together; 10 MiB fills the
        // second at 6 ms; 8 MiB (10 ms) is the last, with the first layer's gradient.
        let exchange = |bytes: f64| 1e-3 + 1e-3 * bytes / MIB;
        let bytes = [8.0 * MIB, 0.0, 10.0 * MIB, 0.5 * MIB, 0.75 * MIB];
        let all: f64 = bytes.iter().sum();
        let buckets = gradient_buckets(2.0 / 3.0, 10.0 * MIB, &[3e-3; 5], &bytes, exchange(all), exchange);
        let want = [(4e-3, 2.25e-3), (6e-3, 11e-3), (10e-3, 9e-3)];
        assert_eq!(buckets.len(), want.len());
        for (b, (ready, took)) in buckets.iter().zip(want) {
            assert!((b.ready_s - ready).abs() < 1e-15, "{b:?}");
            assert!((b.exchange_s - took).abs() < 1e-15, "{b:?}");
        }
        // a whole exchange twice as slow (say, two rings) doubles each bucket's share
        let doubled = gradient_buckets(2.0 / 3.0, 10.0 * MIB, &[3e-3; 5], &bytes, 2.0 * exchange(all), exchange);
        assert!((doubled[1].exchange_s - 22e-3).abs() < 1e-15);
        // a bucket smaller than DDP's first closes the first bucket at its own size
        let small = gradient_buckets(2.0 / 3.0, 0.25 * MIB, &[3e-3; 5], &bytes, exchange(all), exchange);
        assert_eq!(small.len(), 4);
        assert!((small[0].ready_s - 2e-3).abs() < 1e-15);
    }

    #[test]
    fn weightless_first_layers_leave_the_last_bucket_earlier() {
        // the last bucket is ready with the first layer that has weights, not at the backward's end
        let exchange = |bytes: f64| bytes / MIB;
        let buckets = gradient_buckets(0.5, 25.0 * MIB, &[1.0, 1.0, 1.0], &[0.0, 2.0 * MIB, 0.0], 2.0, exchange);
        assert_eq!(
            buckets,
            vec![Bucket {
                ready_s: 1.0,
                exchange_s: 2.0
            }]
        );
    }
}
