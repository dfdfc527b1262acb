//! Calibration from measured runs (contract, section 8): factors that make
//! the projections of measured configurations match their measurements.

use serde::Serialize;

use super::Scenario;
use crate::oracle::model::errors::{InputError, ParseError, ParseProblem, Rule};
use crate::oracle::model::factors::{Factors, FactorsSpec, Kappa, StrategyKappa};
use crate::oracle::model::fidelity::Fidelity;
use crate::oracle::model::measured::{Located, MeasuredColumn, MeasuredRun};
use crate::oracle::model::run::{Batch, Run, RunSpec};
use crate::oracle::model::strategy::Strategy;

/// Seconds of one iteration: compute (with the weight update),
/// communication and their sum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct IterationTimes {
    /// Compute seconds.
    pub compute_s: f64,
    /// Communication seconds.
    pub communication_s: f64,
    /// Their sum.
    pub total_s: f64,
}

impl IterationTimes {
    fn new(compute_s: f64, communication_s: f64) -> Self {
        Self {
            compute_s,
            communication_s,
            total_s: compute_s + communication_s,
        }
    }

    fn scaled(&self, kappa: Kappa) -> Self {
        Self::new(self.compute_s * kappa.compute, self.communication_s * kappa.communication)
    }
}

/// `min(pred/meas, meas/pred)`: 1 is exact, 0.5 is off by 2 times.
pub fn accuracy(predicted_s: f64, measured_s: f64) -> f64 {
    if predicted_s > 0.0 && measured_s > 0.0 {
        (predicted_s / measured_s).min(measured_s / predicted_s)
    } else {
        0.0
    }
}

/// One measured run: its projection before and after calibration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibratedRun {
    /// 1-based line of the run in its CSV.
    pub line: usize,
    /// The run.
    #[serde(flatten)]
    pub measured: MeasuredRun,
    /// Its projection per iteration before calibration.
    pub before: IterationTimes,
    /// After calibration.
    pub after: IterationTimes,
    /// `min(pred/meas, meas/pred)` of the total before calibration.
    pub accuracy_before: f64,
    /// After calibration.
    pub accuracy_after: f64,
}

/// The factors of one strategy and how many runs gave them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StrategyFactors {
    /// The strategy.
    pub strategy: Strategy,
    /// `κ_comp`.
    pub compute: f64,
    /// `κ_comm`.
    pub communication: f64,
    /// Runs of this strategy.
    pub runs: usize,
}

/// A calibration: its factors and every run before and after. Its JSON
/// is what `paradl calibrate` prints and `--calibration` reads back.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// The edition whose projections were calibrated.
    pub fidelity: Fidelity,
    /// The factors of strategies no run measured.
    pub global: Kappa,
    /// The factors of the measured strategies.
    pub strategies: Vec<StrategyFactors>,
    /// Every run, before and after.
    pub runs: Vec<CalibratedRun>,
    /// Mean accuracy of the runs before calibration.
    pub mean_accuracy_before: f64,
    /// After calibration.
    pub mean_accuracy_after: f64,
}

impl Calibration {
    /// The factors to apply (see [`Factors`]).
    ///
    /// # Errors
    /// Never for a calibration made by [`Scenario::calibrate`], whose
    /// factors are checked; an [`InputError`] naming a factor otherwise.
    pub fn factors(&self) -> Result<Factors, InputError> {
        Factors::new(FactorsSpec {
            fidelity: self.fidelity,
            global: self.global,
            strategies: self
                .strategies
                .iter()
                .map(|s| StrategyKappa {
                    strategy: s.strategy,
                    kappa: Kappa {
                        compute: s.compute,
                        communication: s.communication,
                    },
                })
                .collect(),
        })
    }
}

/// The geometric mean of positive values (1 for none).
fn geometric_mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if n == 0 { 1.0 } else { (sum / n as f64).exp() }
}

impl Scenario {
    /// Calibrates the edition of `template` on measured runs: each run is
    /// projected with `template`'s settings (its edition, item size,
    /// segments, update time), its own strategy, GPUs, mini-batch and
    /// group, and no calibration.
    ///
    /// # Formula
    /// Per run, with projected compute `c` and communication `m` per
    /// iteration: `κ_comp = meas_comp/c`, `κ_comm = meas_comm/m` when both
    /// were measured, else `κ_comp = κ_comm = meas_total/(c+m)`. A
    /// strategy's factors are the geometric means of its runs' ratios; the
    /// global factors the geometric means over all runs.
    ///
    /// # Errors
    /// A [`ParseError`] at the run's line: no run at all; a run the engine
    /// rejects (at the column of its field, with the engine's field and
    /// rule); a ratio that is not finite and positive, or outside the
    /// factors accepted ([`Rule::BadRatio`] on the measured field).
    pub fn calibrate(&self, runs: &[Located], template: &RunSpec) -> Result<Calibration, ParseError> {
        if runs.is_empty() {
            return Err(ParseError::at(1, 1, ParseProblem::Missing("a measured run".into())));
        }
        let mut measured = Vec::with_capacity(runs.len());
        for located in runs {
            let before = self.measured_projection(located, template)?;
            let kappa = ratios(located, before)?;
            measured.push((located, before, kappa));
        }
        let global = Kappa {
            compute: geometric_mean(measured.iter().map(|m| m.2.compute)),
            communication: geometric_mean(measured.iter().map(|m| m.2.communication)),
        };
        let strategies: Vec<StrategyFactors> = Strategy::ALL
            .into_iter()
            .filter_map(|strategy| {
                let own: Vec<Kappa> = measured
                    .iter()
                    .filter(|m| m.0.run.strategy == strategy)
                    .map(|m| m.2)
                    .collect();
                (!own.is_empty()).then(|| StrategyFactors {
                    strategy,
                    compute: geometric_mean(own.iter().map(|k| k.compute)),
                    communication: geometric_mean(own.iter().map(|k| k.communication)),
                    runs: own.len(),
                })
            })
            .collect();
        let of = |strategy: Strategy| {
            strategies
                .iter()
                .find(|s| s.strategy == strategy)
                .map_or(global, |s| Kappa {
                    compute: s.compute,
                    communication: s.communication,
                })
        };
        let runs: Vec<CalibratedRun> = measured
            .iter()
            .map(|(located, before, _)| {
                let after = before.scaled(of(located.run.strategy));
                CalibratedRun {
                    line: located.line,
                    measured: located.run.clone(),
                    before: *before,
                    after,
                    accuracy_before: accuracy(before.total_s, located.run.iteration_s),
                    accuracy_after: accuracy(after.total_s, located.run.iteration_s),
                }
            })
            .collect();
        let mean = |f: fn(&CalibratedRun) -> f64| runs.iter().map(f).sum::<f64>() / runs.len() as f64;
        let calibration = Calibration {
            fidelity: template.fidelity,
            global,
            strategies,
            mean_accuracy_before: mean(|r| r.accuracy_before),
            mean_accuracy_after: mean(|r| r.accuracy_after),
            runs,
        };
        Ok(calibration)
    }

    /// The uncalibrated projection of a measured run, per iteration.
    fn measured_projection(&self, located: &Located, template: &RunSpec) -> Result<IterationTimes, ParseError> {
        let m = &located.run;
        let spec = RunSpec {
            batch: Batch::MiniBatch(m.mini_batch),
            group_size: m.group,
            calibration: None,
            ..template.at(m.strategy, m.gpus)
        };
        let run = Run::new(&spec, self.network(), self.cluster()).map_err(|e| {
            let column = if e.field.is(&["gpus"]) {
                MeasuredColumn::Gpus
            } else if e.field.starts_with(&["batch"]) {
                MeasuredColumn::MiniBatch
            } else if e.field.is(&["group_size"]) {
                MeasuredColumn::Group
            } else {
                MeasuredColumn::Strategy
            };
            ParseError::at(located.line, located.column(column), ParseProblem::Invalid(e))
        })?;
        let cost = self.iteration(&run);
        Ok(IterationTimes::new(
            cost.compute_s + run.update_s,
            cost.communication.total_s(),
        ))
    }
}

/// The ratios of one run (see [`Scenario::calibrate`]).
fn ratios(located: &Located, projected: IterationTimes) -> Result<Kappa, ParseError> {
    let m = &located.run;
    let ratio = |measured: f64, projected: f64, column: MeasuredColumn| {
        let r = measured / projected;
        if r.is_finite() && (crate::oracle::model::factors::MIN_FACTOR..=crate::oracle::model::factors::MAX_FACTOR).contains(&r) {
            Ok(r)
        } else {
            Err(ParseError::at(
                located.line,
                located.column(column),
                ParseProblem::Invalid(InputError::new(column.name(), Rule::BadRatio { measured, projected })),
            ))
        }
    };
    match (m.compute_s, m.communication_s) {
        (Some(comp), Some(comm)) => Ok(Kappa {
            compute: ratio(comp, projected.compute_s, MeasuredColumn::ComputeS)?,
            communication: ratio(comm, projected.communication_s, MeasuredColumn::CommunicationS)?,
        }),
        _ => {
            let k = ratio(m.iteration_s, projected.total_s, MeasuredColumn::IterationS)?;
            Ok(Kappa {
                compute: k,
                communication: k,
            })
        }
    }
}
