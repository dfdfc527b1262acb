//! Epochs to converge as the global batch grows (contract, section 13).
//!
//! Data parallelism's global batch grows with the GPUs; past a point a
//! network needs more epochs to reach its target quality, so time per
//! epoch no longer says time to train. The epochs come from published
//! convergence data, never from a measured time to train: MLPerf's
//! reference convergence points ([`curves::CURVES`]), the mean epochs of
//! reference runs at each global batch, with the critical-batch model of
//! McCandlish et al. 2018 ("An Empirical Model of Large-Batch Training",
//! arXiv:1812.06162) past the largest batch that converged.

mod curves;

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::oracle::model::errors::{InputError, Rule};

pub use curves::CURVES;

/// One reference convergence point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// The global batch, samples.
    pub global_batch: u64,
    /// Epochs to the target quality: MLPerf's mean of the reference runs
    /// without the fastest and the slowest.
    pub epochs: f64,
    /// The fewest epochs of one reference run.
    pub min_epochs: f64,
    /// The most epochs of one reference run.
    pub max_epochs: f64,
    /// Reference runs behind it.
    pub runs: u32,
}

/// The published convergence of one network, dataset and optimizer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Curve {
    /// Its name in `--convergence`, documents and links.
    pub key: &'static str,
    /// Its name for people.
    pub name: &'static str,
    /// The optimizer of its runs.
    pub optimizer: &'static str,
    /// The quality its runs reached.
    pub target: &'static str,
    /// The dataset its runs trained on.
    pub dataset: &'static str,
    /// Samples in one epoch of that dataset.
    pub dataset_samples: u64,
    /// The points, by growing global batch.
    pub points: &'static [Point],
    /// Where they come from.
    pub source: &'static str,
}

/// Epochs every run is assumed to take when nothing says otherwise: the 90
/// of ResNet-50's standard ImageNet schedule (He et al. 2016; Goyal et al.
/// 2017 keep 90 up to a global batch of 8k).
pub const DEFAULT_EPOCHS: f64 = 90.0;

/// The most epochs a user may give.
pub const MAX_EPOCHS: f64 = 1e6;

/// How many epochs a run takes to train.
#[derive(Debug, Clone, PartialEq)]
pub enum Convergence {
    /// As a published curve says at the run's global batch (its key).
    Curve(String),
    /// This many epochs, whatever the global batch (the user's figure).
    Epochs(f64),
}

impl Default for Convergence {
    fn default() -> Self {
        Self::Epochs(DEFAULT_EPOCHS)
    }
}

impl Serialize for Convergence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Curve(key) => serializer.serialize_str(key),
            Self::Epochs(epochs) => serializer.serialize_f64(*epochs),
        }
    }
}

impl<'de> Deserialize<'de> for Convergence {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl Visitor<'_> for Either {
            type Value = Convergence;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(
                    f,
                    "a convergence curve's name ({}) or a number of epochs",
                    CURVES.map(|c| c.key).join(", ")
                )
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Convergence, E> {
                Ok(Convergence::Curve(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Convergence, E> {
                Ok(Convergence::Epochs(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Convergence, E> {
                Ok(Convergence::Epochs(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Convergence, E> {
                Ok(Convergence::Epochs(v as f64))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

impl Convergence {
    /// Reads what a user typed: a curve's key, or a number of epochs.
    ///
    /// # Errors
    /// Those of [`Convergence::check`].
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let text = text.trim();
        let convergence = match text.parse::<f64>() {
            Ok(epochs) => Self::Epochs(epochs),
            Err(_) => Self::Curve(text.to_string()),
        };
        convergence.check()?;
        Ok(convergence)
    }

    /// Checks it.
    ///
    /// # Errors
    /// [`Rule::Unknown`] on `convergence` for a curve this tool does not
    /// have; [`Rule::NotFinite`], [`Rule::NotPositive`] or
    /// [`Rule::TooLarge`] for epochs not in `(0, 1e6]`.
    pub fn check(&self) -> Result<(), InputError> {
        let rule = match self {
            Self::Curve(key) => return curve(key).map(|_| ()),
            Self::Epochs(e) if !e.is_finite() => Rule::NotFinite { found: *e },
            Self::Epochs(e) if *e <= 0.0 => Rule::NotPositive { found: *e },
            Self::Epochs(e) if *e > MAX_EPOCHS => Rule::TooLarge {
                max: MAX_EPOCHS,
                found: *e,
            },
            Self::Epochs(_) => return Ok(()),
        };
        Err(InputError::new("convergence", rule))
    }

    /// Epochs to converge at `global_batch`.
    ///
    /// # Formula
    /// A curve: [`Curve::epochs_at`]; epochs given: those, at every batch.
    ///
    /// # Errors
    /// Those of [`Convergence::check`].
    pub fn epochs_at(&self, global_batch: u64) -> Result<Epochs, InputError> {
        self.check()?;
        Ok(match self {
            Self::Curve(key) => curve(key)?.epochs_at(global_batch),
            Self::Epochs(epochs) => Epochs::given(global_batch, *epochs),
        })
    }
}

/// How far one run's epochs strayed from the mean at its batch, the widest
/// of every reference point of every curve: `(low, high, curve)` with
/// `low = min_epochs/epochs` the smallest and `high = max_epochs/epochs`
/// the largest ratio, and the key of the curve that set the high. The
/// band of epochs given or assumed for a network without convergence data
/// is this wide (its runs could stray as far as the noisiest benchmark's).
///
/// # Formula
/// `low = min over points of e_min/e`, `high = max over points of e_max/e`.
pub fn widest_spread() -> (f64, f64, &'static str) {
    CURVES
        .iter()
        .flat_map(|c| c.points.iter().map(move |p| (c.key, p)))
        .fold((1.0, 1.0, ""), |(low, high, key), (k, p)| {
            let (l, h) = (p.min_epochs / p.epochs, p.max_epochs / p.epochs);
            let (high, key) = if h > high { (h, k) } else { (high, key) };
            (low.min(l), high, key)
        })
}

/// The curve called `key`.
///
/// # Errors
/// [`Rule::Unknown`] on `convergence`, listing the curves.
pub fn curve(key: &str) -> Result<&'static Curve, InputError> {
    CURVES.iter().find(|c| c.key == key.trim()).ok_or_else(|| {
        InputError::new(
            "convergence",
            Rule::Unknown {
                what: "convergence curve".into(),
                found: key.into(),
                expected: format!("{}, or a number of epochs", CURVES.map(|c| c.key).join(", ")),
            },
        )
    })
}

/// Where an estimate of epochs stands against the data.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum How {
    /// Between two reference points (or on one).
    Measured,
    /// Below the smallest batch measured: that batch's epochs (smaller
    /// batches take no more epochs).
    BelowSmallest {
        /// The smallest batch of the curve.
        smallest_batch: u64,
    },
    /// Past the largest batch that converged in the reference runs: the
    /// critical-batch model from it.
    PastLargest {
        /// The largest batch of the curve.
        largest_batch: u64,
        /// Epochs there.
        largest_epochs: f64,
        /// The critical batch `B_crit` fitted to the curve (`None`: its
        /// epochs do not grow with the batch; they are kept).
        #[serde(skip_serializing_if = "Option::is_none")]
        critical_batch: Option<f64>,
    },
    /// The user's epochs, the same at every batch.
    Given,
}

/// Epochs to converge at one global batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Epochs {
    /// The global batch, samples.
    pub global_batch: u64,
    /// Epochs to the target quality.
    pub epochs: f64,
    /// The fewest a reference run took there (as many for epochs given).
    pub low: f64,
    /// The most.
    pub high: f64,
    /// Where it stands against the data.
    pub how: How,
    /// The curve's key (`None`: epochs given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve: Option<&'static str>,
}

impl Epochs {
    /// `epochs` given at `global_batch`, the same at every batch.
    pub fn given(global_batch: u64, epochs: f64) -> Self {
        Self {
            global_batch,
            epochs,
            low: epochs,
            high: epochs,
            how: How::Given,
            curve: None,
        }
    }
}

impl Curve {
    /// The smallest and the largest batch measured.
    pub fn batch_range(&self) -> (u64, u64) {
        let first = self.points.first().map_or(1, |p| p.global_batch);
        let last = self.points.last().map_or(first, |p| p.global_batch);
        (first, last)
    }

    /// McCandlish et al.'s critical batch fitted to the curve: with
    /// `E(B) = E_min·(1 + B/B_crit)` (their equation 2.11 in epochs), the
    /// least-squares line `epochs = a + s·B` through the points gives
    /// `E_min = a`, `B_crit = a/s`. `None` when the epochs do not grow
    /// with the batch (`s ≤ 0`) or the line's `a ≤ 0`.
    ///
    /// # Formula
    /// `s = Σ(B−B̄)(e−ē)/Σ(B−B̄)²`, `a = ē − s·B̄`, `B_crit = a/s`.
    pub fn critical_batch(&self) -> Option<f64> {
        let n = self.points.len() as f64;
        if n < 2.0 {
            return None;
        }
        let mean_b = self.points.iter().map(|p| p.global_batch as f64).sum::<f64>() / n;
        let mean_e = self.points.iter().map(|p| p.epochs).sum::<f64>() / n;
        let (num, den) = self.points.iter().fold((0.0, 0.0), |(num, den), p| {
            let db = p.global_batch as f64 - mean_b;
            (num + db * (p.epochs - mean_e), den + db * db)
        });
        let slope = num / den;
        let intercept = mean_e - slope * mean_b;
        (slope > 0.0 && intercept > 0.0).then_some(intercept / slope)
    }

    /// Epochs to converge at `global_batch`.
    ///
    /// # Formula
    /// Between two points: linear in the batch from one to the next
    /// (`E(B)` is linear in `B` in the critical-batch model); on a point:
    /// its epochs; below the smallest: its epochs; past the largest `B_n`:
    /// `e_n·(1 + B/B_crit)/(1 + B_n/B_crit)` ([`Curve::critical_batch`]),
    /// or `e_n` when the curve does not grow. The low and high follow the
    /// fewest and most epochs of the reference runs the same way.
    pub fn epochs_at(&self, global_batch: u64) -> Epochs {
        let b = global_batch as f64;
        let estimate = |epochs: f64, low: f64, high: f64, how: How| Epochs {
            global_batch,
            epochs,
            low,
            high,
            how,
            curve: Some(self.key),
        };
        let (Some(first), Some(last)) = (self.points.first(), self.points.last()) else {
            return Epochs::given(global_batch, DEFAULT_EPOCHS);
        };
        if global_batch <= first.global_batch {
            let how = if global_batch == first.global_batch {
                How::Measured
            } else {
                How::BelowSmallest {
                    smallest_batch: first.global_batch,
                }
            };
            return estimate(first.epochs, first.min_epochs, first.max_epochs, how);
        }
        if global_batch > last.global_batch {
            let critical = self.critical_batch();
            let factor = critical.map_or(1.0, |c| (1.0 + b / c) / (1.0 + last.global_batch as f64 / c));
            return estimate(
                last.epochs * factor,
                last.min_epochs * factor,
                last.max_epochs * factor,
                How::PastLargest {
                    largest_batch: last.global_batch,
                    largest_epochs: last.epochs,
                    critical_batch: critical,
                },
            );
        }
        let (lo, hi) = self
            .points
            .windows(2)
            .map(|w| (w[0], w[1]))
            .find(|(_, hi)| global_batch <= hi.global_batch)
            .unwrap_or((*last, *last));
        let t = if hi.global_batch == lo.global_batch {
            0.0
        } else {
            (b - lo.global_batch as f64) / (hi.global_batch - lo.global_batch) as f64
        };
        let mix = |x: f64, y: f64| x + (y - x) * t;
        estimate(
            mix(lo.epochs, hi.epochs),
            mix(lo.min_epochs, hi.min_epochs),
            mix(lo.max_epochs, hi.max_epochs),
            How::Measured,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resnet() -> &'static Curve {
        curve("mlperf-resnet50").unwrap()
    }

    #[test]
    fn every_curve_grows_by_batch_and_its_points_hold_their_runs() {
        for c in &CURVES {
            // MLPerf's reference points are several runs each; a paper's, one (DeiT's
            // recipe is one batch)
            let mlperf = c.key.starts_with("mlperf-");
            assert!(c.points.len() >= if mlperf { 4 } else { 1 }, "{}", c.key);
            for w in c.points.windows(2) {
                assert!(w[0].global_batch < w[1].global_batch, "{}", c.key);
            }
            for p in c.points {
                assert!(
                    p.min_epochs <= p.epochs && p.epochs <= p.max_epochs && p.runs >= if mlperf { 5 } else { 1 },
                    "{} {p:?}",
                    c.key
                );
            }
            assert!(c.dataset_samples > 0 && (!mlperf || c.source.contains("rcps_")));
        }
    }

    #[test]
    fn on_a_point_the_curve_gives_its_runs_and_between_two_a_line() {
        let r = resnet();
        let at = r.epochs_at(32768);
        assert_eq!((at.epochs, at.low, at.high, at.how), (56.0, 55.0, 57.0, How::Measured));
        // halfway from 13,056 (45.5) to 32,768 (56)
        let mid = r.epochs_at((13056 + 32768) / 2);
        assert!((mid.epochs - 50.75).abs() < 1e-9, "{mid:?}");
        // below the smallest: its epochs, said
        let small = r.epochs_at(256);
        assert_eq!(small.epochs, 35.0);
        assert_eq!(small.how, How::BelowSmallest { smallest_batch: 1632 });
    }

    #[test]
    fn past_the_largest_batch_the_critical_batch_model_takes_over() {
        let r = resnet();
        let critical = r.critical_batch().unwrap();
        // the least-squares line through ResNet-50's ten points
        assert!((40_000.0..50_000.0).contains(&critical), "{critical}");
        let past = r.epochs_at(262_144);
        let expected = 85.8462 * (1.0 + 262_144.0 / critical) / (1.0 + 67_840.0 / critical);
        assert!((past.epochs - expected).abs() < 1e-9);
        assert!(past.epochs > 200.0, "{past:?}");
        assert!(matches!(
            past.how,
            How::PastLargest {
                largest_batch: 67840,
                ..
            }
        ));
        // continuous at the largest point
        let edge = r.epochs_at(67_841);
        assert!((edge.epochs - 85.8462).abs() < 0.01);
    }

    #[test]
    fn epochs_are_given_or_a_curve_named_and_bad_ones_are_refused() {
        assert_eq!(Convergence::parse("90").unwrap(), Convergence::Epochs(90.0));
        assert_eq!(
            Convergence::parse(" mlperf-unet3d ").unwrap(),
            Convergence::Curve("mlperf-unet3d".into())
        );
        let given = Convergence::Epochs(42.0).epochs_at(1_000_000).unwrap();
        assert_eq!((given.epochs, given.how), (42.0, How::Given));
        for bad in ["0", "-3", "1e9", "nan", "mlperf-bert"] {
            let e = Convergence::parse(bad).unwrap_err();
            assert_eq!(e.field.to_string(), "convergence", "{bad}");
        }
        assert!(
            Convergence::parse("resnet")
                .unwrap_err()
                .to_string()
                .contains("mlperf-resnet50")
        );
    }

    #[test]
    fn the_widest_spread_is_3d_unets_run_to_run_epochs() {
        let (low, high, key) = widest_spread();
        // 3D U-Net at 56: 1120 to 3780 epochs about a mean of 2127.4
        assert!((low - 1120.0 / 2127.4074).abs() < 1e-9, "{low}");
        assert!((high - 4420.0 / 2480.0).abs() < 1e-9, "{high}");
        assert_eq!(key, "mlperf-unet3d");
    }

    #[test]
    fn a_document_writes_a_curve_as_its_name_and_epochs_as_a_number() {
        for c in [Convergence::Curve("mlperf-resnet50".into()), Convergence::Epochs(90.0)] {
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Convergence>(&json).unwrap(), c);
        }
        assert_eq!(
            serde_json::from_str::<Convergence>("35").unwrap(),
            Convergence::Epochs(35.0)
        );
        assert!(serde_json::from_str::<Convergence>("[1]").is_err());
    }
}
