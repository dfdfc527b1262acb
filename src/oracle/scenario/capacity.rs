//! How many samples fit in a GPU's memory.

use serde::Serialize;

use super::Scenario;
use crate::oracle::model::checks::MAX_COUNT;
use crate::oracle::model::errors::InputError;
use crate::oracle::model::run::{Batch, Run, RunSpec};
use crate::oracle::model::strategy::Strategy;

/// The largest batch that fits in memory for one strategy at one GPU count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    pub strategy: Strategy,
    /// GPU count.
    pub gpus: u64,
    /// Largest `B` with memory `≤ M`; `None` when not even one sample fits.
    pub max_mini_batch: Option<u64>,
    /// `max_mini_batch / p`.
    pub max_samples_per_gpu: Option<f64>,
}

impl Scenario {
    /// The largest mini-batch that fits in a GPU's memory for `template`'s
    /// strategy and GPU count (other limits ignored).
    ///
    /// # Formula
    /// Memory (every part of section 9) grows with `B` for every strategy,
    /// so the answer is found by bisection on `B` in `1..=2^53`.
    ///
    /// # Errors
    /// An [`InputError`] when the template is invalid at `B = 1`.
    pub fn capacity(&self, template: &RunSpec) -> Result<Capacity, InputError> {
        let spec = RunSpec {
            batch: Batch::MiniBatch(1),
            ..template.clone()
        };
        let run = Run::new(&spec, self.network(), self.cluster())?;
        let max_mini_batch = self.largest_fitting_batch(&run, MAX_COUNT);
        Ok(Capacity {
            strategy: template.strategy,
            gpus: template.gpus,
            max_mini_batch,
            max_samples_per_gpu: max_mini_batch.map(|b| b as f64 / template.gpus as f64),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;
    use crate::oracle::{MAX_COUNT, Precision, Scenario};

    #[test]
    fn data_parallel_capacity_is_the_largest_fitting_batch() {
        let s = presets::scenario("resnet50", "abci").unwrap();
        let template =
            RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(1.0)).in_edition(crate::oracle::Edition::Ideal);
        let cap = s.capacity(&template).unwrap();
        let best = cap.max_mini_batch.unwrap();
        let at = |b| {
            s.project(&RunSpec {
                batch: Batch::MiniBatch(b),
                ..template.clone()
            })
            .unwrap()
            .memory_bytes
        };
        assert!(at(best) <= 16e9);
        assert!(at(best + 1) > 16e9);
        // 2δ((B/p)·A + W) ≤ M  ⇒  B ≤ p·(M/(2δ) − W)/A; 66 samples per GPU for ResNet-50
        assert_eq!(cap.max_samples_per_gpu.unwrap().floor(), 66.0);
        // the realistic edition (autograd's saved tensors, the backward buffers, workspace,
        // the allocator and ABCI's 781 MiB reserved): the largest batch that fits, and more
        // samples per GPU than ParaDL's accounting allows
        let realistic = RunSpec {
            edition: crate::oracle::Edition::Realistic,
            ..template
        };
        let real = s.capacity(&realistic).unwrap();
        let best = real.max_mini_batch.unwrap();
        let at = |b| {
            s.project(&RunSpec {
                batch: Batch::MiniBatch(b),
                ..realistic.clone()
            })
            .unwrap()
            .memory_bytes
        };
        assert!(at(best) <= 16e9 && at(best + 1) > 16e9);
        assert!(real.max_samples_per_gpu.unwrap() > 66.0);
    }

    #[test]
    fn nothing_fits_gives_none() {
        let s = presets::scenario("cosmoflow", "abci").unwrap();
        let cap = s
            .capacity(&RunSpec::new(Strategy::Data, 1, Batch::MiniBatch(1)))
            .unwrap();
        assert_eq!(cap.max_mini_batch, None);
    }

    /// The search against plain bisection, on networks and clusters whose
    /// memory is far from linear in the batch (allocator rounding, split
    /// layers, pipeline segments, ZeRO, recompute): the same largest batch.
    #[test]
    fn the_search_finds_what_bisection_finds() {
        let bisect = |s: &Scenario, spec: &RunSpec| {
            let fits = |b: u64| {
                s.project(&RunSpec {
                    batch: Batch::MiniBatch(b),
                    ..spec.clone()
                })
                .map(|p| p.memory_bytes <= s.cluster().gpu_memory_bytes())
                .unwrap_or(false)
            };
            if !fits(1) {
                return None;
            }
            let (mut low, mut high) = (1, MAX_COUNT);
            if fits(high) {
                return Some(high);
            }
            while high - low > 1 {
                let mid = low + (high - low) / 2;
                if fits(mid) { low = mid } else { high = mid }
            }
            Some(low)
        };
        let mut compared = 0;
        for (model, cluster) in [
            ("resnet50", "abci"),
            ("cosmoflow", "abci"),
            ("vgg16", "dgx-h100"),
            ("efficientnet-b0", "dgx1-v100-16gb"),
        ] {
            let s = presets::scenario(model, cluster).unwrap();
            for strategy in Strategy::ALL.into_iter().filter(|st| st.applies_at(8)) {
                for (zero, recompute, precision) in [(0, false, Precision::Fp32), (2, true, Precision::Bf16)] {
                    let mut spec = RunSpec::new(strategy, 8, Batch::MiniBatch(1));
                    spec.group_size = strategy.is_hybrid().then_some(4);
                    spec.segments = (strategy == Strategy::Pipeline).then_some(8);
                    if strategy.has_data_dimension() {
                        spec.zero = zero;
                    }
                    spec.recompute = recompute;
                    spec.precision = precision;
                    let Ok(cap) = s.capacity(&spec) else { continue };
                    assert_eq!(cap.max_mini_batch, bisect(&s, &spec), "{model} on {cluster}: {spec:?}");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 40, "{compared}");
    }
}
