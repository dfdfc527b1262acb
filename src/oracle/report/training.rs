//! Time to train a run (contract, section 13): the epochs to converge at
//! its global batch times its time per epoch, and where the epochs come
//! from, in words.

use serde::Serialize;

use crate::oracle::model::convergence::{Convergence, DEFAULT_EPOCHS, Epochs, How, curve, widest_spread};
use crate::oracle::units;

/// Time to train a run (contract, section 13).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Training {
    /// Epochs to converge at the run's global batch `B`, and how they were
    /// found.
    pub epochs: Epochs,
    /// No convergence was given: [`DEFAULT_EPOCHS`] assumed at every batch.
    pub assumed: bool,
    /// `epochs · total_s`, seconds.
    pub time_s: f64,
    /// `time_s · p / 3600`.
    pub gpu_hours: f64,
    /// Where the measured time to train is likely to fall, seconds, `(low,
    /// high)`: the epoch's error band times the fewest and the most epochs
    /// a reference run took (`None`: the epoch has no band, the ideal
    /// edition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub likely_s: Option<(f64, f64)>,
}

impl Training {
    /// Time to train `gpus` GPUs whose epoch takes `epoch_s`, at global
    /// batch `global_batch`, converging as `convergence` says (none: the
    /// [`DEFAULT_EPOCHS`] assumed).
    ///
    /// # Formula
    /// `E(B)` from [`Convergence::epochs_at`]; `T_train = E(B)·T_epoch`;
    /// GPU-hours `= T_train·p/3600`; likely between `q10·E_min·T_epoch`
    /// and `q90·E_max·T_epoch` with `band = (q10, q90)` the epoch's error
    /// band and `E_min`, `E_max` the fewest and most epochs of a reference
    /// run at `B`. Epochs given or assumed have no reference runs: `E_min =
    /// low·E`, `E_max = high·E` with `(low, high)` the widest spread of any
    /// reference point ([`widest_spread`]), the band widened for a network
    /// whose convergence nobody measured.
    pub fn of(
        convergence: Option<&Convergence>,
        global_batch: u64,
        epoch_s: f64,
        gpus: u64,
        band: Option<(f64, f64)>,
    ) -> Self {
        let fallback = Convergence::default();
        let epochs = convergence
            .unwrap_or(&fallback)
            .epochs_at(global_batch)
            .unwrap_or(Epochs::given(global_batch, DEFAULT_EPOCHS));
        let time_s = epochs.epochs * epoch_s;
        let (fewest, most) = match epochs.how {
            How::Given => {
                let (low, high, _) = widest_spread();
                (low * epochs.epochs, high * epochs.epochs)
            }
            _ => (epochs.low, epochs.high),
        };
        Self {
            likely_s: band.map(|(low, high)| (low * fewest * epoch_s, high * most * epoch_s)),
            epochs,
            assumed: convergence.is_none(),
            time_s,
            gpu_hours: time_s * gpus as f64 / 3600.0,
        }
    }

    /// In words, with where the epochs come from: `56 epochs at a global
    /// batch of 32768 (55 to 57 in the reference runs of ResNet-50 v1.5 on
    /// ImageNet-1k, LARS (MLPerf Training 4.0)): 31.2 min to train, 532
    /// GPU-hours`.
    pub fn sentence(&self) -> String {
        let e = &self.epochs;
        let epochs = units::significant(e.epochs, 3);
        let name = e.curve.and_then(|k| curve(k).ok()).map_or("", |c| c.name);
        let range = |low: f64, high: f64| {
            if (high - low).abs() < 1e-9 {
                String::new()
            } else {
                format!(
                    "{} to {} in its reference runs, ",
                    units::significant(low, 3),
                    units::significant(high, 3)
                )
            }
        };
        let why = match e.how {
            How::Measured => format!("{}from {name}", range(e.low, e.high)),
            How::BelowSmallest { smallest_batch } => format!(
                "those of the smallest batch measured, {smallest_batch}, in {name}: a smaller batch takes no more epochs"
            ),
            How::PastLargest {
                largest_batch,
                largest_epochs,
                critical_batch,
            } => match critical_batch {
                Some(c) => format!(
                    "past the largest batch that converged in {name}, {largest_batch} at {} epochs: the critical-batch model (McCandlish et al. 2018) with B_crit = {} fitted to its points gives {}x as many",
                    units::significant(largest_epochs, 3),
                    units::significant(c, 3),
                    units::significant(e.epochs / largest_epochs, 3)
                ),
                None => format!(
                    "past the largest batch that converged in {name}, {largest_batch}: its epochs, as the curve does not grow to extrapolate; a larger batch may need more"
                ),
            },
            How::Given if self.assumed => "assumed at every batch (ResNet-50's standard schedule): name a convergence curve or give this network's epochs".to_string(),
            How::Given => "as given, at every batch".to_string(),
        };
        let widened = match e.how {
            How::Given => {
                let (low, high, key) = widest_spread();
                let name = curve(key).map_or(key, |c| c.name);
                format!(
                    ", widened {}x to {}x: runs of a network nobody measured may stray as far as {name}'s",
                    units::significant(low, 2),
                    units::significant(high, 3)
                )
            }
            _ => String::new(),
        };
        let likely = self.likely_s.map_or_else(String::new, |(low, high)| {
            format!(" (likely {} to {}{widened})", units::seconds(low), units::seconds(high))
        });
        format!(
            "{epochs} epochs at a global batch of {} ({why}): {} to train{likely}, {} GPU-hours",
            e.global_batch,
            units::seconds(self.time_s),
            units::significant(self.gpu_hours, 4)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likely_time_to_train_is_the_epochs_band_times_the_reference_runs_spread() {
        let resnet = Convergence::Curve("mlperf-resnet50".into());
        // 32,768 samples: 56 epochs, 55 to 57 in the reference runs
        let t = Training::of(Some(&resnet), 32_768, 10.0, 64, Some((0.8, 1.2)));
        assert_eq!(t.time_s, 560.0);
        let (low, high) = t.likely_s.unwrap();
        assert!((low - 0.8 * 55.0 * 10.0).abs() < 1e-9 && (high - 1.2 * 57.0 * 10.0).abs() < 1e-9);
        assert!(t.sentence().contains("likely 440 s to 684 s"), "{}", t.sentence());
        // epochs given: the epoch's band times the widest spread of any
        // reference point (3D U-Net's); the ideal edition: none
        let given = Training::of(Some(&Convergence::Epochs(40.0)), 32_768, 10.0, 64, Some((0.8, 1.2)));
        let (low, high) = given.likely_s.unwrap();
        assert!((low - 0.8 * 40.0 * (1120.0 / 2127.4074) * 10.0).abs() < 1e-6, "{low}");
        assert!((high - 1.2 * 40.0 * (4420.0 / 2480.0) * 10.0).abs() < 1e-6, "{high}");
        assert!(
            given.sentence().contains("widened 0.53x to 1.78x"),
            "{}",
            given.sentence()
        );
        assert_eq!(Training::of(None, 32_768, 10.0, 64, None).likely_s, None);
        assert!(Training::of(None, 32_768, 10.0, 64, None).assumed);
    }
}
