//! How accurate is the model? The measured training runs of ParaDL's
//! authors on ABCI (`measured-runs.csv`, see `README.md` beside it),
//! predicted by both editions, uncalibrated and calibrated on the
//! fewest-GPU run of each series.
//!
//! A series is the runs of one model, strategy, code variant, tier and
//! batch-size argument (the same script setting at growing GPU counts).
//! Calibrated accuracy counts only the runs a series predicts (not the one
//! it was calibrated on), so a series of one run gives none.
//!
//! Today's machines: the training runs NVIDIA published for V100, A100,
//! H100 and H200 systems ([`published_report`]).

mod published;
mod report;
mod runs;

pub use published::{
    PUBLISHED_COLUMNS, PUBLISHED_RUNS_CSV, PublishedProjection, PublishedRun, parse_published, project_published,
    published_report, throughput,
};
pub use report::{Accuracy, Method, Predictions, Report, SkippedRun, ValidatedRun, report, report_in};
pub use runs::{Selected, Tier, ValidationRun, measured_csv, measured_csv_in, parse, runs};

/// The measured runs, as the ParaDL authors' logs gave them.
pub const MEASURED_RUNS_CSV: &str = include_str!("measured-runs.csv");

/// The models of the shipped runs (presets of the same names).
pub const MODELS: [&str; 3] = ["alexnet", "cosmoflow", "resnet50"];

/// The cluster every run was measured on.
pub const CLUSTER: &str = "abci";
