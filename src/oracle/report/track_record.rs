//! How far the realistic edition's times have been from measured ones, by
//! GPU architecture and precision: the band shown beside a projected time
//! (contract, section 11, "The error band").
//!
//! Each class's band is the 10th and 90th percentiles of measured over
//! projected time of every committed published run of that architecture
//! and precision, uncalibrated: Lambda's PyTorch and TensorFlow runs
//! (`tests/validation/lambda-*.csv`) and the runs of `published-runs.csv`
//! (DeepLearningExamples, MLPerf Training). `tests/measured/lambda.rs` projects them
//! all again and fails when this table is no longer what they give. A class
//! no committed run covers takes the widest band of the covered classes
//! (its lowest low and highest high), and says so.

use serde::Serialize;

use crate::oracle::model::devices::Architecture;
use crate::oracle::model::practice::Precision;

/// The precisions whose kernels differ: FP16 and BF16 run the same tensor
/// cores at the same rate and share a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PrecisionClass {
    /// FP32 on the FP32 units.
    Fp32,
    /// TF32 on tensor cores.
    Tf32,
    /// FP16 or BF16 mixed precision.
    Half,
}

impl PrecisionClass {
    /// The class of `precision`.
    pub fn of(precision: Precision) -> Self {
        match precision {
            Precision::Fp32 => Self::Fp32,
            Precision::Tf32 => Self::Tf32,
            Precision::Fp16 | Precision::Bf16 => Self::Half,
        }
    }

    /// Its name for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::Fp32 => "FP32",
            Self::Tf32 => "TF32",
            Self::Half => "FP16/BF16",
        }
    }
}

/// The measured runs of one class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Record {
    /// The GPUs' architecture.
    pub architecture: Architecture,
    /// Their precision.
    pub precision: PrecisionClass,
    /// How many runs.
    pub runs: u32,
    /// The 10th percentile of measured / projected time.
    pub low: f64,
    /// The 90th percentile of measured / projected time.
    pub high: f64,
}

use Architecture as A;
use PrecisionClass as P;

const fn record(architecture: Architecture, precision: PrecisionClass, runs: u32, low: f64, high: f64) -> Record {
    Record {
        architecture,
        precision,
        runs,
        low,
        high,
    }
}

/// Every committed run, whatever its class (`tests/measured/lambda.rs` recomputes
/// it): `[q10, q90]` of measured/projected time.
pub const POOLED: Spread = Spread {
    runs: 599,
    low: 0.73,
    high: 1.35,
};

/// Every class with committed runs (`tests/measured/lambda.rs` recomputes it).
pub const TRACK_RECORD: [Record; 16] = [
    record(A::Pascal, P::Fp32, 3, 1.23, 1.58),
    record(A::Pascal, P::Half, 3, 1.18, 1.52),
    record(A::Volta, P::Fp32, 24, 0.88, 1.03),
    record(A::Volta, P::Half, 25, 0.76, 1.24),
    record(A::Turing, P::Fp32, 51, 0.91, 1.36),
    record(A::Turing, P::Half, 52, 0.61, 0.87),
    record(A::AmpereGa100, P::Tf32, 27, 0.85, 1.20),
    record(A::AmpereGa100, P::Half, 42, 0.70, 1.27),
    record(A::AmpereGa10x, P::Tf32, 47, 0.71, 1.26),
    record(A::AmpereGa10x, P::Half, 47, 0.56, 1.47),
    record(A::Ada, P::Tf32, 6, 0.73, 0.91),
    record(A::Ada, P::Half, 6, 0.80, 1.01),
    record(A::Hopper, P::Tf32, 119, 0.98, 1.00),
    record(A::Hopper, P::Half, 139, 1.00, 1.39),
    record(A::Blackwell, P::Tf32, 4, 1.44, 1.46),
    record(A::Blackwell, P::Half, 4, 2.76, 2.81),
];

/// The runs of several classes together.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// How many runs.
    pub runs: u32,
    /// The 10th percentile of measured / projected time.
    pub low: f64,
    /// The 90th percentile of measured / projected time.
    pub high: f64,
}

/// The band of a projected time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Band {
    /// The measured time is likely at least this factor of the projected
    /// one.
    pub low: f64,
    /// ... and at most this factor.
    pub high: f64,
    /// Runs of the projection's own class behind the band (0: none, the
    /// band is the widest of the covered classes).
    pub runs: u32,
    /// What the band rests on, for people.
    pub basis: String,
}

/// Fewer runs than this in a class (often one configuration measured a few
/// times) do not make a band of their own: it is widened to hold the band
/// of every committed run.
pub const MIN_RUNS: u32 = 10;

/// The band of a time projected for `architecture` (none: a GPU given by
/// its kernel facts alone) in `precision`.
///
/// # Formula
/// A class of at least [`MIN_RUNS`] runs: its `[q10, q90]` of
/// measured/projected time, widened to hold 1 (the projection); a class of
/// fewer: the hull of that and [`POOLED`], the `[q10, q90]` of every
/// committed run; a class without runs: the hull of every class's band.
pub fn band(architecture: Option<Architecture>, precision: Precision) -> Band {
    let class = PrecisionClass::of(precision);
    let own = architecture.and_then(|a| {
        TRACK_RECORD
            .iter()
            .find(|r| r.architecture == a && r.precision == class)
    });
    let hull = |low: f64, high: f64| (low.min(1.0), high.max(1.0));
    match own {
        Some(r) if r.runs >= MIN_RUNS => {
            let (low, high) = hull(r.low, r.high);
            Band {
                low,
                high,
                runs: r.runs,
                basis: format!(
                    "measured/projected time of {} published {} {} runs (10th to 90th percentile)",
                    r.runs,
                    r.architecture.label(),
                    class.label()
                ),
            }
        }
        Some(r) => {
            let (low, high) = hull(r.low.min(POOLED.low), r.high.max(POOLED.high));
            Band {
                low,
                high,
                runs: r.runs,
                basis: format!(
                    "only {} published {} {} runs (measured/projected {:.2} to {:.2}), widened to the band of all {} committed runs",
                    r.runs,
                    r.architecture.label(),
                    class.label(),
                    r.low,
                    r.high,
                    POOLED.runs
                ),
            }
        }
        None => {
            let low = TRACK_RECORD.iter().map(|r| r.low).fold(1.0, f64::min);
            let high = TRACK_RECORD.iter().map(|r| r.high).fold(1.0, f64::max);
            let what = architecture.map_or_else(
                || "a GPU given by its kernel facts".to_string(),
                |a| format!("{} in {}", a.label(), class.label()),
            );
            Band {
                low,
                high,
                runs: 0,
                basis: format!(
                    "no published run of {what} is committed: the hull of the {} classes' bands that have runs",
                    TRACK_RECORD.len()
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_covered_class_has_its_own_band_and_another_the_widest() {
        for r in &TRACK_RECORD {
            assert!(r.low <= r.high && r.low > 0.0 && r.runs > 0, "{r:?}");
        }
        let widest = band(None, Precision::Fp16);
        assert_eq!(widest.runs, 0);
        for r in &TRACK_RECORD {
            let own = band(
                Some(r.architecture),
                match r.precision {
                    P::Fp32 => Precision::Fp32,
                    P::Tf32 => Precision::Tf32,
                    P::Half => Precision::Bf16,
                },
            );
            assert_eq!(own.runs, r.runs);
            // the band holds the class's own range and the projection itself
            assert!(
                own.low <= r.low.min(1.0) && own.high >= r.high.max(1.0),
                "{r:?} {own:?}"
            );
            if r.runs < MIN_RUNS {
                assert!(own.low <= POOLED.low && own.high >= POOLED.high && own.basis.starts_with("only"));
            } else {
                assert_eq!((own.low, own.high), (r.low.min(1.0), r.high.max(1.0)));
            }
            assert!(widest.low <= own.low && widest.high >= own.high);
        }
        assert!(
            band(Some(A::Rdna4), Precision::Fp16)
                .basis
                .contains("no published run of AMD RDNA 4")
        );
    }
}
