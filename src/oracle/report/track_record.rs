//! How far the realistic edition's times have been from measured ones, by
//! GPU architecture, precision and scale (one node, or across nodes): the
//! band shown beside a projected time (contract, section 11, "The error
//! band").
//!
//! Each class's band is the 10th and 90th percentiles of measured over
//! projected time of every committed published run of that architecture,
//! precision and scale, uncalibrated: Lambda's PyTorch and TensorFlow runs
//! (`tests/validation/lambda-*.csv`, one node each) and the runs of
//! `published-runs.csv` (DeepLearningExamples, MLPerf Training, up to
//! thousands of GPUs). `tests/measured/lambda.rs` projects them all again and
//! fails when this table is no longer what they give. A class with too few
//! runs is widened to what the runs like it give (across nodes: every run
//! across nodes); a class no committed run covers takes the widest band of
//! the covered classes; each says so, and a projection past the largest
//! measured run of its band says that too.

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

/// Where a run's GPUs sit: communication between nodes is the part of a
/// step the one-node runs do not measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// One GPU, or GPUs of one node.
    OneNode,
    /// GPUs of more than one node.
    Nodes,
}

impl Scale {
    /// The scale of `gpus` GPUs on nodes of `gpus_per_node`.
    pub fn of(gpus: u64, gpus_per_node: u64) -> Self {
        if gpus <= gpus_per_node {
            Self::OneNode
        } else {
            Self::Nodes
        }
    }

    /// Its words for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::OneNode => "on one node",
            Self::Nodes => "across nodes",
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
    /// One node or several.
    pub scale: Scale,
    /// How many runs.
    pub runs: u32,
    /// The most GPUs of one of them.
    pub max_gpus: u64,
    /// The 10th percentile of measured / projected time.
    pub low: f64,
    /// The 90th percentile of measured / projected time.
    pub high: f64,
}

use Architecture as A;
use PrecisionClass as P;

use Scale::{Nodes, OneNode};

const fn record(
    (architecture, precision, scale): (Architecture, PrecisionClass, Scale),
    (runs, max_gpus): (u32, u64),
    low: f64,
    high: f64,
) -> Record {
    Record {
        architecture,
        precision,
        scale,
        runs,
        max_gpus,
        low,
        high,
    }
}

/// Every committed run, whatever its class (`tests/measured/lambda.rs` recomputes
/// it): `[q10, q90]` of measured/projected time.
pub const POOLED: Spread = Spread {
    runs: 599,
    max_gpus: 4320,
    low: 0.73,
    high: 1.35,
};

/// Every committed run across nodes, whatever its architecture and
/// precision (`tests/measured/lambda.rs` recomputes it).
pub const ACROSS_NODES: Spread = Spread {
    runs: 19,
    max_gpus: 4320,
    low: 0.78,
    high: 1.07,
};

/// Every class with committed runs (`tests/measured/lambda.rs` recomputes it).
pub const TRACK_RECORD: [Record; 18] = [
    record((A::Pascal, P::Fp32, OneNode), (3, 1), 1.23, 1.58),
    record((A::Pascal, P::Half, OneNode), (3, 1), 1.18, 1.52),
    record((A::Volta, P::Fp32, OneNode), (24, 8), 0.88, 1.03),
    record((A::Volta, P::Half, OneNode), (25, 8), 0.76, 1.24),
    record((A::Turing, P::Fp32, OneNode), (51, 8), 0.91, 1.36),
    record((A::Turing, P::Half, OneNode), (52, 8), 0.61, 0.87),
    record((A::AmpereGa100, P::Tf32, OneNode), (27, 8), 0.85, 1.20),
    record((A::AmpereGa100, P::Half, OneNode), (33, 8), 0.74, 1.27),
    record((A::AmpereGa100, P::Half, Nodes), (9, 4320), 0.67, 1.17),
    record((A::AmpereGa10x, P::Tf32, OneNode), (47, 8), 0.71, 1.26),
    record((A::AmpereGa10x, P::Half, OneNode), (47, 8), 0.56, 1.47),
    record((A::Ada, P::Tf32, OneNode), (6, 8), 0.73, 0.91),
    record((A::Ada, P::Half, OneNode), (6, 8), 0.80, 1.01),
    record((A::Hopper, P::Tf32, OneNode), (119, 8), 0.98, 1.00),
    record((A::Hopper, P::Half, OneNode), (129, 8), 1.21, 1.42),
    record((A::Hopper, P::Half, Nodes), (10, 3584), 0.85, 1.05),
    record((A::Blackwell, P::Tf32, OneNode), (4, 8), 1.44, 1.46),
    record((A::Blackwell, P::Half, OneNode), (4, 8), 2.76, 2.81),
];

/// The runs of several classes together.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// How many runs.
    pub runs: u32,
    /// The most GPUs of one of them.
    pub max_gpus: u64,
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
/// of the runs like it.
pub const MIN_RUNS: u32 = 10;

/// What a projection is: its GPU's architecture (none: a GPU given by its
/// kernel facts alone), its precision, and how many GPUs on nodes of how
/// many.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Like {
    pub architecture: Option<Architecture>,
    pub precision: Precision,
    pub gpus: u64,
    pub gpus_per_node: u64,
}

/// The band of a time projected for `like`.
///
/// # Formula
/// The class is (architecture, precision class, [`Scale`]). A class of at
/// least [`MIN_RUNS`] runs: its `[q10, q90]` of measured/projected time,
/// widened to hold 1 (the projection). Otherwise, on one node: the hull of
/// the class's runs (if any) and [`POOLED`], every committed run, or, for
/// a GPU and precision without runs, the hull of every class's band.
/// Across nodes: the hull of the class's runs (if any), the band the same
/// GPU and precision get on one node, and [`ACROSS_NODES`], every committed
/// run across nodes.
pub fn band(like: Like) -> Band {
    let class = PrecisionClass::of(like.precision);
    let scale = Scale::of(like.gpus, like.gpus_per_node);
    let own = like.architecture.and_then(|a| {
        TRACK_RECORD
            .iter()
            .find(|r| r.architecture == a && r.precision == class && r.scale == scale)
    });
    let what = like.architecture.map_or_else(
        || "a GPU given by its kernel facts".to_string(),
        |a| format!("{} {}", a.label(), class.label()),
    );
    let past = |max_gpus: u64| {
        if like.gpus > max_gpus {
            format!("; none of them ran on more than {max_gpus} GPUs")
        } else {
            String::new()
        }
    };
    let (low, high, runs, basis) = match (own, scale) {
        (Some(r), _) if r.runs >= MIN_RUNS => (
            r.low,
            r.high,
            r.runs,
            format!(
                "measured/projected time of {} published {what} runs {} (10th to 90th percentile){}",
                r.runs,
                scale.label(),
                past(r.max_gpus)
            ),
        ),
        (_, Nodes) => {
            let single = band(Like {
                gpus: like.gpus_per_node,
                ..like
            });
            let (own_low, own_high, own_runs, own_words) = own.map_or((f64::MAX, 0.0, 0, String::new()), |r| {
                (
                    r.low,
                    r.high,
                    r.runs,
                    format!(
                        "only {} published {what} runs across nodes (measured/projected {:.2} to {:.2}), widened to ",
                        r.runs, r.low, r.high
                    ),
                )
            });
            (
                own_low.min(single.low).min(ACROSS_NODES.low),
                own_high.max(single.high).max(ACROSS_NODES.high),
                own_runs,
                format!(
                    "{}{}the hull of its band on one node ({:.2} to {:.2}, {} runs) and of all {} committed runs across nodes ({:.2} to {:.2}){}",
                    own_words,
                    if own.is_none() {
                        format!("no published {what} run across nodes is committed: ")
                    } else {
                        String::new()
                    },
                    single.low,
                    single.high,
                    single.runs,
                    ACROSS_NODES.runs,
                    ACROSS_NODES.low,
                    ACROSS_NODES.high,
                    past(ACROSS_NODES.max_gpus)
                ),
            )
        }
        (Some(r), OneNode) => (
            r.low.min(POOLED.low),
            r.high.max(POOLED.high),
            r.runs,
            format!(
                "only {} published {what} runs (measured/projected {:.2} to {:.2}), widened to the band of all {} committed runs",
                r.runs, r.low, r.high, POOLED.runs
            ),
        ),
        (None, OneNode) => (
            TRACK_RECORD.iter().map(|r| r.low).fold(1.0, f64::min),
            TRACK_RECORD.iter().map(|r| r.high).fold(1.0, f64::max),
            0,
            format!(
                "no published run of {} is committed: the hull of the {} classes' bands that have runs",
                like.architecture.map_or_else(
                    || "a GPU given by its kernel facts".to_string(),
                    |a| format!("{} in {}", a.label(), class.label())
                ),
                TRACK_RECORD.len()
            ),
        ),
    };
    Band {
        low: low.min(1.0),
        high: high.max(1.0),
        runs,
        basis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn like(architecture: Option<Architecture>, precision: Precision, gpus: u64) -> Like {
        Like {
            architecture,
            precision,
            gpus,
            gpus_per_node: 8,
        }
    }

    fn precision_of(class: PrecisionClass) -> Precision {
        match class {
            P::Fp32 => Precision::Fp32,
            P::Tf32 => Precision::Tf32,
            P::Half => Precision::Bf16,
        }
    }

    #[test]
    fn a_covered_class_has_its_own_band_and_another_the_widest() {
        for r in &TRACK_RECORD {
            assert!(r.low <= r.high && r.low > 0.0 && r.runs > 0 && r.max_gpus > 0, "{r:?}");
        }
        let widest = band(like(None, Precision::Fp16, 1));
        assert_eq!(widest.runs, 0);
        for r in &TRACK_RECORD {
            let gpus = if r.scale == OneNode { 8 } else { 64 };
            let own = band(like(Some(r.architecture), precision_of(r.precision), gpus));
            assert_eq!(own.runs, r.runs);
            // the band holds the class's own range and the projection itself
            assert!(
                own.low <= r.low.min(1.0) && own.high >= r.high.max(1.0),
                "{r:?} {own:?}"
            );
            if r.runs >= MIN_RUNS {
                assert_eq!((own.low, own.high), (r.low.min(1.0), r.high.max(1.0)));
            } else if r.scale == OneNode {
                assert!(own.low <= POOLED.low && own.high >= POOLED.high && own.basis.starts_with("only"));
            } else {
                assert!(own.low <= ACROSS_NODES.low && own.high >= ACROSS_NODES.high && own.basis.starts_with("only"));
            }
            if r.scale == OneNode {
                assert!(widest.low <= own.low && widest.high >= own.high);
            }
        }
        assert!(
            band(like(Some(A::Rdna4), Precision::Fp16, 1))
                .basis
                .contains("no published run of AMD RDNA 4")
        );
    }

    #[test]
    fn the_band_follows_the_scale_of_the_projection() {
        // H100 FP16: 129 runs on one node, 10 across nodes, each its own band
        let one = band(like(Some(A::Hopper), Precision::Fp16, 8));
        let many = band(like(Some(A::Hopper), Precision::Fp16, 64));
        assert_eq!((one.runs, many.runs), (129, 10));
        assert_eq!((one.low, one.high), (1.0, 1.42));
        assert_eq!((many.low, many.high), (0.85, 1.05));
        assert!(many.basis.contains("across nodes"), "{}", many.basis);
        // past the largest run across nodes, it says so
        let huge = band(like(Some(A::Hopper), Precision::Fp16, 8192));
        assert!(
            huge.basis.ends_with("none of them ran on more than 3584 GPUs"),
            "{}",
            huge.basis
        );
        // a class with runs on one node only: across nodes it holds its
        // one-node band and every run across nodes
        let turing = band(like(Some(A::Turing), Precision::Fp16, 64));
        assert_eq!(turing.runs, 0);
        assert_eq!((turing.low, turing.high), (0.61, 1.07));
        assert!(
            turing
                .basis
                .starts_with("no published NVIDIA Turing FP16/BF16 run across nodes"),
            "{}",
            turing.basis
        );
        // the same GPUs on bigger nodes are one node again
        let node = band(Like {
            gpus_per_node: 72,
            ..like(Some(A::Hopper), Precision::Fp16, 64)
        });
        assert_eq!(node.runs, 129);
    }
}
