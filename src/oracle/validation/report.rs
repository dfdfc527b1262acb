//! How accurate each edition is on the measured runs, uncalibrated and
//! calibrated on the fewest-GPU run of each series.

use std::collections::BTreeMap;

use serde::Serialize;

use super::CLUSTER;
use super::runs::{Selected, Tier, ValidationRun, parse, runs};
use crate::oracle::model::edition::Edition;
use crate::oracle::model::errors::OracleError;
use crate::oracle::model::measured::{Located, MeasuredRun};
use crate::oracle::model::run::{Batch, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::presets;
use crate::oracle::scenario::{Scenario, accuracy};

/// What each edition predicts for a run, per iteration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Predictions {
    /// Ideal edition, uncalibrated.
    pub ideal_s: f64,
    /// Realistic edition, uncalibrated.
    pub realistic_s: f64,
    /// Ideal edition calibrated on its series' fewest-GPU run (none for
    /// that run itself).
    pub ideal_calibrated_s: Option<f64>,
    /// Realistic edition, calibrated likewise.
    pub realistic_calibrated_s: Option<f64>,
}

/// A run with its predictions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidatedRun {
    #[serde(flatten)]
    pub run: ValidationRun,
    /// The predictions.
    #[serde(flatten)]
    pub predicted: Predictions,
}

/// One of the four ways of predicting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Ideal edition, uncalibrated.
    Ideal,
    /// Realistic edition, uncalibrated.
    Realistic,
    /// Ideal edition, calibrated per series.
    IdealCalibrated,
    /// Realistic edition, calibrated per series.
    RealisticCalibrated,
}

impl Method {
    /// Every method.
    pub const ALL: [Self; 4] = [
        Self::Ideal,
        Self::Realistic,
        Self::IdealCalibrated,
        Self::RealisticCalibrated,
    ];

    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Ideal => "ideal",
            Self::Realistic => "realistic",
            Self::IdealCalibrated => "ideal, calibrated",
            Self::RealisticCalibrated => "realistic, calibrated",
        }
    }

    /// A machine name (CSV columns, links).
    pub fn name(self) -> &'static str {
        match self {
            Self::Ideal => "ideal",
            Self::Realistic => "realistic",
            Self::IdealCalibrated => "ideal_calibrated",
            Self::RealisticCalibrated => "realistic_calibrated",
        }
    }

    /// The prediction of a run by this method.
    pub fn of(self, p: &Predictions) -> Option<f64> {
        match self {
            Self::Ideal => Some(p.ideal_s),
            Self::Realistic => Some(p.realistic_s),
            Self::IdealCalibrated => p.ideal_calibrated_s,
            Self::RealisticCalibrated => p.realistic_calibrated_s,
        }
    }
}

/// Mean accuracy of some runs by each method.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Accuracy {
    /// The strategy, or `None` for every run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// Runs counted (uncalibrated).
    pub runs: usize,
    /// Runs a calibration predicted.
    pub calibrated_runs: usize,
    /// Mean `min(pred/meas, meas/pred)` by method (`None`: no run).
    pub ideal: Option<f64>,
    /// See [`Accuracy::ideal`].
    pub realistic: Option<f64>,
    /// See [`Accuracy::ideal`].
    pub ideal_calibrated: Option<f64>,
    /// See [`Accuracy::ideal`].
    pub realistic_calibrated: Option<f64>,
}

impl Accuracy {
    fn of<'a>(strategy: Option<Strategy>, runs: impl Iterator<Item = &'a ValidatedRun> + Clone) -> Self {
        let mean = |method: Method| {
            let values: Vec<f64> = runs
                .clone()
                .filter_map(|r| method.of(&r.predicted).map(|p| accuracy(p, r.run.measured_s)))
                .collect();
            (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
        };
        Self {
            strategy,
            runs: runs.clone().count(),
            calibrated_runs: runs
                .clone()
                .filter(|r| r.predicted.ideal_calibrated_s.is_some())
                .count(),
            ideal: mean(Method::Ideal),
            realistic: mean(Method::Realistic),
            ideal_calibrated: mean(Method::IdealCalibrated),
            realistic_calibrated: mean(Method::RealisticCalibrated),
        }
    }

    /// The mean accuracy of a method.
    pub fn get(&self, method: Method) -> Option<f64> {
        match method {
            Method::Ideal => self.ideal,
            Method::Realistic => self.realistic,
            Method::IdealCalibrated => self.ideal_calibrated,
            Method::RealisticCalibrated => self.realistic_calibrated,
        }
    }
}

/// A run that could not be predicted, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedRun {
    /// The run's id.
    pub id: String,
    /// Why.
    pub reason: String,
}

/// The accuracy of the model on the measured runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The runs counted.
    pub tier: Tier,
    /// Every selected run with its predictions.
    pub runs: Vec<ValidatedRun>,
    /// The series, by index: `model strategy variant (tier, batch arg)`.
    pub series: Vec<String>,
    /// Mean accuracy per strategy.
    pub by_strategy: Vec<Accuracy>,
    /// Mean accuracy over every run.
    pub overall: Accuracy,
    /// Runs the engine could not project.
    pub skipped: Vec<SkippedRun>,
}

/// A run as calibration reads it.
fn located(run: &ValidationRun) -> Located {
    Located {
        run: MeasuredRun {
            strategy: run.strategy,
            gpus: run.gpus,
            mini_batch: run.mini_batch,
            group: None,
            iteration_s: run.measured_s,
            compute_s: None,
            communication_s: None,
        },
        line: 0,
        columns: [0; 7],
    }
}

/// Predicts every selected run of the shipped file with both editions,
/// uncalibrated and calibrated per series (see the module's docs), on the
/// model presets and ABCI.
///
/// # Formula
/// Per run, the projection of its configuration per iteration (compute,
/// weight update and communication); accuracy `min(pred/meas,
/// meas/pred)`; a series' calibration is [`Scenario::calibrate`] on its
/// fewest-GPU run alone (`κ_comp = κ_comm = meas/(c+m)`), applied to the
/// others.
///
/// # Errors
/// An [`OracleError`] when the file or a preset cannot be read (never for
/// the shipped ones).
pub fn report(tier: Tier) -> Result<Report, OracleError> {
    report_of(runs()?, tier)
}

/// [`report`] of the runs of `text`, a file in the shipped format (the
/// browser app fetches the shipped file when its accuracy view is first
/// opened, rather than carrying it in the page).
///
/// # Formula
/// As [`report`].
///
/// # Errors
/// An [`OracleError`] at the line and column of a malformed row, or when a
/// preset cannot be read.
pub fn report_in(text: &str, tier: Tier) -> Result<Report, OracleError> {
    report_of(parse(text)?, tier)
}

fn report_of(selected: Selected, tier: Tier) -> Result<Report, OracleError> {
    let Selected { runs, series } = selected;
    let runs: Vec<ValidationRun> = runs.into_iter().filter(|r| tier.admits(&r.tier)).collect();
    let mut scenarios: BTreeMap<String, Scenario> = BTreeMap::new();
    for run in &runs {
        if !scenarios.contains_key(&run.model) {
            scenarios.insert(run.model.clone(), presets::scenario(&run.model, CLUSTER)?);
        }
    }
    let mut predicted: Vec<Option<Predictions>> = vec![None; runs.len()];
    let mut skipped = Vec::new();
    let template = |edition: Edition| RunSpec::new(Strategy::Data, 1, Batch::MiniBatch(1)).in_edition(edition);
    // uncalibrated, run by run
    let mut before: Vec<[Option<(f64, f64)>; 2]> = vec![[None; 2]; runs.len()];
    for (i, run) in runs.iter().enumerate() {
        let Some(scenario) = scenarios.get(&run.model) else {
            continue;
        };
        for (slot, edition) in [Edition::Ideal, Edition::Realistic].into_iter().enumerate() {
            match scenario.calibrate(std::slice::from_ref(&located(run)), &template(edition)) {
                Ok(c) => {
                    let b = c.runs[0].before;
                    before[i][slot] = Some((b.compute_s, b.communication_s));
                }
                Err(e) => {
                    if slot == 0 {
                        skipped.push(SkippedRun {
                            id: run.id.clone(),
                            reason: e.problem.to_string(),
                        });
                    }
                }
            }
        }
    }
    // calibrated on each series' fewest-GPU run
    let mut calibrated: Vec<[Option<f64>; 2]> = vec![[None; 2]; runs.len()];
    for index in 0..series.len() {
        let members: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].series == index).collect();
        let Some(&first) = members.iter().min_by_key(|&&i| (runs[i].gpus, i)) else {
            continue;
        };
        for slot in 0..2 {
            let Some((c, m)) = before[first][slot] else { continue };
            let kappa = runs[first].measured_s / (c + m);
            if !kappa.is_finite() {
                continue;
            }
            for &i in members.iter().filter(|&&i| i != first) {
                if let Some((c, m)) = before[i][slot] {
                    calibrated[i][slot] = Some(kappa * (c + m));
                }
            }
        }
    }
    for i in 0..runs.len() {
        if let [Some(ideal), Some(realistic)] = before[i] {
            predicted[i] = Some(Predictions {
                ideal_s: ideal.0 + ideal.1,
                realistic_s: realistic.0 + realistic.1,
                ideal_calibrated_s: calibrated[i][0],
                realistic_calibrated_s: calibrated[i][1],
            });
        }
    }
    let validated: Vec<ValidatedRun> = runs
        .into_iter()
        .zip(predicted)
        .filter_map(|(run, p)| p.map(|predicted| ValidatedRun { run, predicted }))
        .collect();
    let by_strategy = Strategy::ALL
        .into_iter()
        .filter(|s| validated.iter().any(|r| r.run.strategy == *s))
        .map(|s| Accuracy::of(Some(s), validated.iter().filter(move |r| r.run.strategy == s)))
        .collect();
    let overall = Accuracy::of(None, validated.iter());
    Ok(Report {
        tier,
        runs: validated,
        series,
        by_strategy,
        overall,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::validation::runs::Tier;

    #[test]
    fn a_report_of_the_fetched_file_is_the_shipped_report_and_a_damaged_one_names_its_line() {
        let text = crate::oracle::validation::MEASURED_RUNS_CSV;
        let fetched = report_in(text, Tier::Head).unwrap();
        let shipped = report(Tier::Head).unwrap();
        assert_eq!(fetched.runs.len(), shipped.runs.len());
        assert_eq!(format!("{:?}", fetched.overall), format!("{:?}", shipped.overall));
        let damaged = text.replacen("HEAD,8,2,", "HEAD,eight,2,", 1);
        let e = report_in(&damaged, Tier::Head).unwrap_err().to_string();
        assert!(e.contains("line "), "{e}");
    }

    #[test]
    fn calibration_reproduces_each_series_first_run_and_predicts_the_rest() {
        let report = report(Tier::All).unwrap();
        assert!(report.skipped.is_empty(), "{:?}", report.skipped);
        assert_eq!(report.runs.len(), 107);
        for r in &report.runs {
            for method in Method::ALL {
                if let Some(p) = method.of(&r.predicted) {
                    assert!(p.is_finite() && p > 0.0, "{} {method:?}", r.run.id);
                }
            }
        }
        // the fewest-GPU run of a series has no calibrated prediction; the others do
        let first = report.runs.iter().find(|r| r.run.id == "R001").unwrap();
        assert_eq!(first.predicted.ideal_calibrated_s, None);
        let second = report.runs.iter().find(|r| r.run.id == "R003").unwrap();
        let calibrated = second.predicted.ideal_calibrated_s.unwrap();
        // κ from R001 alone, applied to R003's ideal prediction
        let kappa = first.run.measured_s / first.predicted.ideal_s;
        assert!((calibrated - kappa * second.predicted.ideal_s).abs() < 1e-12);
        let overall = &report.overall;
        assert_eq!(overall.runs, 107);
        for method in Method::ALL {
            let a = overall.get(method).unwrap();
            assert!(a > 0.0 && a <= 1.0, "{method:?} {a}");
        }
        assert_eq!(
            report.by_strategy.iter().map(|a| a.runs).sum::<usize>(),
            report.runs.len()
        );
        let head = super::report(Tier::Head).unwrap();
        let historical = super::report(Tier::Historical).unwrap();
        assert_eq!(head.runs.len() + historical.runs.len(), 107);
        assert!(head.runs.iter().all(|r| r.run.tier == "HEAD"));
    }
}
