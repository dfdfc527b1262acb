//! Scaling sweeps over GPU counts.

use super::Scenario;
use crate::oracle::model::errors::InputError;
use crate::oracle::model::run::Batch;
use crate::oracle::model::run::RunSpec;
use crate::oracle::model::strategy::Strategy;
use crate::oracle::report::projection::Projection;

/// A point of a sweep or ranking that could not be projected.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub strategy: Strategy,
    /// GPU count.
    pub gpus: u64,
    /// Why: the run was invalid at this point.
    pub error: InputError,
}

/// The projections of a sweep, strategy by strategy, GPU count ascending.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sweep {
    /// Projected points.
    pub points: Vec<Projection>,
    /// Points whose run was invalid (e.g. a batch of less than one sample).
    pub skipped: Vec<Skipped>,
}

/// GPU counts of a sweep: `1, 2, 4, ...` up to `max_gpus`, and `max_gpus`
/// itself when it is not a power of two.
pub fn gpu_counts(max_gpus: u64) -> Vec<u64> {
    let mut counts: Vec<u64> = (0..64)
        .map(|e| 1u64 << e)
        .take_while(|&p| p <= max_gpus.max(1))
        .collect();
    if counts.last() != Some(&max_gpus.max(1)) {
        counts.push(max_gpus);
    }
    counts
}

impl Scenario {
    /// The ideal-scaling reference of the scaling curves: one GPU's compute
    /// for an epoch, divided among `gpus` with no overhead, in the
    /// edition (and with the calibration) of `template`.
    ///
    /// # Formula
    /// `T_ideal(p) = κ_comp(serial)·D·Σt / p`; with section 11's kernels,
    /// `κ_comp(serial)·(D/b₁)·c(b₁) / p`, the one-GPU compute `c` at the
    /// template's batch on one GPU `b₁`.
    pub fn ideal_epoch_s(&self, template: &RunSpec, gpus: u64) -> f64 {
        let table = self.table_for(&crate::oracle::cost::times::TimeBasis {
            edition: template.edition,
            item_bytes: template.bytes_per_item * template.precision.item_share(),
            precision: template.precision,
            recompute: template.recompute,
            memory_format: template.memory_format,
            attention: template.attention,
        });
        let kappa = template.calibration.map_or(1.0, |f| f.of(Strategy::Serial).compute);
        let samples = self.network().dataset_samples() as f64;
        let one_gpu = match (table.kernels(), template.batch) {
            (None, _) => samples * table.time_per_sample_s(),
            (Some(_), Batch::SamplesPerGpu(b)) => samples / b * table.compute_s(b, None),
            (Some(_), Batch::MiniBatch(b)) => samples / b as f64 * table.compute_s(b as f64, None),
        };
        kappa * one_gpu / gpus.max(1) as f64
    }

    /// Projects `template` (its strategy and GPU count replaced) for every
    /// strategy in `strategies` at every count of [`gpu_counts`]`(max_gpus)`
    /// (serial only at 1 GPU; a ZeRO stage only where the strategy has a
    /// data-parallel dimension). With samples per GPU this is weak scaling,
    /// with a mini-batch strong scaling.
    pub fn sweep(&self, template: &RunSpec, strategies: &[Strategy], max_gpus: u64) -> Sweep {
        let counts = gpu_counts(max_gpus);
        let mut sweep = Sweep::default();
        for &strategy in strategies {
            for &gpus in counts.iter().filter(|&&p| strategy.applies_at(p)) {
                match self.project_point(&template.for_strategy(strategy, gpus)) {
                    Ok(point) => sweep.points.push(point),
                    Err(error) => sweep.skipped.push(Skipped { strategy, gpus, error }),
                }
            }
        }
        sweep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::run::Batch;
    use crate::oracle::presets;

    #[test]
    fn ideal_is_single_gpu_compute_over_p() {
        let s = presets::scenario("resnet50", "abci").unwrap();
        for template in [
            RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(64.0)),
            RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(64.0)).in_edition(crate::oracle::Edition::Ideal),
        ] {
            let serial = s.project(&template).unwrap();
            assert_eq!(s.ideal_epoch_s(&template, 1), serial.total_s);
            assert!((s.ideal_epoch_s(&template, 64) - serial.total_s / 64.0).abs() < 1e-9);
        }
    }

    #[test]
    fn counts() {
        assert_eq!(gpu_counts(1), vec![1]);
        assert_eq!(gpu_counts(8), vec![1, 2, 4, 8]);
        assert_eq!(gpu_counts(12), vec![1, 2, 4, 8, 12]);
        assert_eq!(gpu_counts(4096).len(), 13);
    }

    #[test]
    fn sweep_covers_strategies_and_counts() {
        let s = presets::scenario("resnet50", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(32.0));
        let sweep = s.sweep(&template, &Strategy::ALL, 64);
        // serial once, seven strategies at 7 counts
        assert_eq!(sweep.points.len() + sweep.skipped.len(), 1 + 7 * 7);
        assert!(sweep.skipped.is_empty());
        let data: Vec<u64> = sweep
            .points
            .iter()
            .filter(|p| p.strategy == Strategy::Data)
            .map(|p| p.gpus)
            .collect();
        assert_eq!(data, vec![1, 2, 4, 8, 16, 32, 64]);
    }

    #[test]
    fn invalid_points_are_skipped_with_their_reason() {
        let s = presets::scenario("cosmoflow", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(0.25));
        let sweep = s.sweep(&template, &[Strategy::Data], 16);
        let skipped: Vec<u64> = sweep.skipped.iter().map(|s| s.gpus).collect();
        assert_eq!(skipped, vec![1, 2]);
        assert_eq!(sweep.skipped[0].error.field, "batch.samples_per_gpu");
    }
}
