//! How accurate is the realistic edition on today's machines? Training
//! runs NVIDIA published (`published-runs.csv`: DeepLearningExamples'
//! throughput tables and MLPerf Training's result logs, each row with its
//! reference; see `README.md` beside it), projected uncalibrated on the
//! cluster presets of their GPUs with the precision, layout, optimizer and
//! overlap they ran with.

use serde::Serialize;

use crate::oracle::formats::records::{Record, with_header};
use crate::oracle::model::errors::{OracleError, ParseError};
use crate::oracle::model::practice::{MemoryFormat, Optimizer, Precision};
use crate::oracle::model::run::{Batch, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::presets;
use crate::oracle::scenario::Scenario;

/// The published runs.
pub const PUBLISHED_RUNS_CSV: &str = include_str!("published-runs.csv");

/// The columns of [`PUBLISHED_RUNS_CSV`].
pub const PUBLISHED_COLUMNS: [&str; 12] = [
    "source",
    "system",
    "model",
    "cluster",
    "gpus",
    "samples_per_gpu",
    "precision",
    "memory_format",
    "optimizer",
    "overlap",
    "samples_per_s",
    "reference",
];

/// One published run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PublishedRun {
    /// Who published it (`MLPerf Training v3.0 (MXNet)`).
    pub source: String,
    /// The system as its source names it.
    pub system: String,
    /// Model preset key.
    pub model: String,
    /// Cluster preset key (the preset of its GPU).
    pub cluster: String,
    /// GPUs that trained.
    pub gpus: u64,
    pub samples_per_gpu: f64,
    /// Arithmetic.
    pub precision: Precision,
    /// Activation layout.
    pub memory_format: MemoryFormat,
    /// Optimizer, for its state and step.
    pub optimizer: Optimizer,
    /// Whether the gradient exchange overlapped the backward pass.
    pub overlap: bool,
    /// Measured samples per second.
    pub measured_samples_per_s: f64,
    /// Where the number was published.
    pub reference: String,
}

/// A published run and its projection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PublishedProjection {
    pub run: PublishedRun,
    /// Projected samples per second.
    pub projected_samples_per_s: f64,
    /// `projected / measured`.
    pub ratio: f64,
    /// Whether the projection finds the run possible (it ran).
    pub feasible: bool,
}

/// The runs of a file in the shipped format (the columns of
/// [`PUBLISHED_COLUMNS`], in any order).
///
/// # Errors
/// A [`ParseError`] at the line and column of a missing column or a value
/// that is not a number, a precision, a layout, an optimizer or a boolean.
pub fn parse_published(text: &str) -> Result<Vec<PublishedRun>, ParseError> {
    let (header, rows) = with_header(text)?;
    let mut c = [0; 12];
    for (slot, name) in c.iter_mut().zip(PUBLISHED_COLUMNS) {
        *slot = header.named(name)?;
    }
    rows.iter()
        .map(|row| {
            Ok(PublishedRun {
                source: row.text(c[0]).into(),
                system: row.text(c[1]).into(),
                model: row.text(c[2]).into(),
                cluster: row.text(c[3]).into(),
                gpus: value(row, c[4])?,
                samples_per_gpu: value(row, c[5])?,
                precision: row.parsed(c[6])?,
                memory_format: row.parsed(c[7])?,
                optimizer: row.parsed(c[8])?,
                overlap: value(row, c[9])?,
                measured_samples_per_s: value(row, c[10])?,
                reference: row.text(c[11]).into(),
            })
        })
        .collect()
}

fn value<T: std::str::FromStr>(row: &Record<'_>, index: usize) -> Result<T, ParseError> {
    row.value(index, "number (or true/false)")
}

/// Every shipped published run, projected.
///
/// # Formula
/// Each run on its cluster preset (its GPU count raised to the run's where
/// the run was larger), realistic edition, data parallelism (serial on one
/// GPU) at its samples per GPU with its precision, layout, optimizer and
/// overlap: `projected = B·I/T` samples a second over the epoch's `T`,
/// `ratio = projected / measured`.
///
/// # Errors
/// An [`OracleError`] if the shipped file or a preset cannot be read, or a
/// run is not a valid projection (never for the shipped file: its test
/// proves it).
pub fn published_report() -> Result<Vec<PublishedProjection>, OracleError> {
    parse_published(PUBLISHED_RUNS_CSV)?
        .into_iter()
        .map(project_published)
        .collect()
}

/// One published run, projected.
///
/// # Formula
/// As [`published_report`].
///
/// # Errors
/// An [`OracleError`] if a preset it names is unknown or the run is not a
/// valid projection.
pub fn project_published(run: PublishedRun) -> Result<PublishedProjection, OracleError> {
    let mut spec = presets::cluster(&run.cluster)?.spec().clone();
    spec.max_gpus = spec.max_gpus.max(run.gpus);
    let cluster = crate::oracle::model::cluster::Cluster::new(spec)?;
    let scenario = Scenario::new(presets::network(&run.model)?, cluster);
    let (projected, feasible) = throughput(
        &scenario,
        run.gpus,
        run.samples_per_gpu,
        RunSpec {
            precision: run.precision,
            memory_format: run.memory_format,
            optimizer: run.optimizer,
            overlap: run.overlap,
            ..RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(run.samples_per_gpu))
        },
    )?;
    Ok(PublishedProjection {
        ratio: projected / run.measured_samples_per_s,
        projected_samples_per_s: projected,
        feasible,
        run,
    })
}

/// The samples a second a training run of `samples_per_gpu` on `gpus` GPUs
/// is projected to reach (data parallelism, serial on one GPU, with the
/// practice of `settings`), and whether it fits.
///
/// # Formula
/// `B·I/T` over the epoch's `T`, `B = gpus·samples_per_gpu`.
///
/// # Errors
/// An [`OracleError`] if the run is not a valid projection.
pub fn throughput(
    scenario: &Scenario,
    gpus: u64,
    samples_per_gpu: f64,
    settings: RunSpec,
) -> Result<(f64, bool), OracleError> {
    let strategy = if gpus == 1 { Strategy::Serial } else { Strategy::Data };
    let p = scenario.project(&RunSpec {
        strategy,
        gpus,
        batch: Batch::SamplesPerGpu(samples_per_gpu),
        ..settings
    })?;
    Ok((p.mini_batch as f64 * p.iterations as f64 / p.total_s, p.feasible))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_runs_project_and_fit() {
        let report = published_report().unwrap();
        assert_eq!(report.len(), 80);
        for p in &report {
            assert!(p.ratio.is_finite() && p.ratio > 0.0, "{p:?}");
            assert!(p.feasible, "every run ran: {p:?}");
        }
    }

    #[test]
    fn a_bad_row_names_its_line_and_column() {
        let header = PUBLISHED_RUNS_CSV.lines().next().unwrap();
        let text = format!("{header}\nx,y,resnet50,abci,8,32,fp64,nchw,none,true,100,ref\n");
        let err = parse_published(&text).unwrap_err();
        assert_eq!((err.line, err.column), (2, 24), "{err}");
        let missing = parse_published("source,system\n").unwrap_err();
        assert!(missing.to_string().contains("model"), "{missing}");
    }
}
