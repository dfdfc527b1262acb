//! Calibration from measured runs (contract, section 8): factors that make
//! the projections of measured configurations match their measurements.

use serde::Serialize;

use super::Scenario;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::errors::{InputError, ParseError, ParseProblem, Rule};
use crate::oracle::model::factors::{Factors, FactorsSpec, Kappa, StrategyKappa};
use crate::oracle::model::measured::{Located, MeasuredColumn, MeasuredRun};
use crate::oracle::model::run::{Batch, Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;

/// Seconds of one iteration: compute (with the weight update and a
/// profile's framework cost),
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
        Self::new(
            self.compute_s * kappa.compute,
            self.communication_s * kappa.communication,
        )
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
    #[serde(rename = "fidelity")]
    pub edition: Edition,
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
    /// What in the runs deserves a second look (the factors are computed
    /// all the same).
    pub warnings: Vec<CalibrationWarning>,
}

/// Something in measured runs that deserves a second look, naming their
/// lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CalibrationWarning {
    /// The lines of the runs concerned.
    pub lines: Vec<usize>,
    /// The strategy whose factors it is about, if it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// What, in words.
    pub message: String,
}

/// A ratio beyond which two numbers that should agree are flagged.
const DISAGREEMENT: f64 = 2.0;

/// Whether `a` and `b` differ by more than [`DISAGREEMENT`] times.
fn disagree(a: f64, b: f64) -> bool {
    a > DISAGREEMENT * b || b > DISAGREEMENT * a
}

/// The warnings of measured runs and the factors they give: compute and
/// communication that do not add up to the iteration; one configuration
/// measured at times more than 2 times apart; runs of one strategy whose
/// factors differ more than 2 times; a factor outside 0.5 to 2 (the model
/// that far off deserves a look before it is calibrated away).
fn warnings(measured: &[(&Located, IterationTimes, Kappa)], strategies: &[StrategyFactors]) -> Vec<CalibrationWarning> {
    let mut out = Vec::new();
    for (located, _, _) in measured {
        let m = &located.run;
        if let (Some(c), Some(k)) = (m.compute_s, m.communication_s)
            && disagree(c + k, m.iteration_s)
        {
            out.push(CalibrationWarning {
                lines: vec![located.line],
                strategy: None,
                message: format!(
                    "line {}: compute and communication add up to {} times the iteration",
                    located.line,
                    crate::oracle::units::significant((c + k) / m.iteration_s, 3)
                ),
            });
        }
    }
    // one configuration measured at times far apart: its fastest and slowest run, found in one
    // pass (linear in the runs)
    let mut configurations: std::collections::HashMap<_, (&Located, &Located)> = std::collections::HashMap::new();
    let mut order = Vec::new();
    for (located, _, _) in measured {
        let r = &located.run;
        let key = (r.strategy, r.gpus, r.mini_batch, r.group);
        let slot = configurations.entry(key).or_insert_with(|| {
            order.push(key);
            (*located, *located)
        });
        if r.iteration_s < slot.0.run.iteration_s {
            slot.0 = located;
        }
        if r.iteration_s > slot.1.run.iteration_s {
            slot.1 = located;
        }
    }
    for key in order {
        let Some((fast, slow)) = configurations.get(&key) else {
            continue;
        };
        if disagree(fast.run.iteration_s, slow.run.iteration_s) {
            let (a, b) = if fast.line < slow.line {
                (fast, slow)
            } else {
                (slow, fast)
            };
            out.push(CalibrationWarning {
                lines: vec![a.line, b.line],
                strategy: None,
                message: format!(
                    "lines {} and {}: the same run measured at {} and {} per iteration",
                    a.line,
                    b.line,
                    crate::oracle::units::seconds(a.run.iteration_s),
                    crate::oracle::units::seconds(b.run.iteration_s)
                ),
            });
        }
    }
    for s in strategies {
        let own: Vec<&(&Located, IterationTimes, Kappa)> =
            measured.iter().filter(|m| m.0.run.strategy == s.strategy).collect();
        let total = |k: &Kappa| k.compute.max(k.communication);
        let low = own.iter().min_by(|a, b| total(&a.2).total_cmp(&total(&b.2)));
        let high = own.iter().max_by(|a, b| total(&a.2).total_cmp(&total(&b.2)));
        if let (Some(low), Some(high)) = (low, high)
            && disagree(total(&low.2), total(&high.2))
        {
            out.push(CalibrationWarning {
                lines: vec![low.0.line, high.0.line],
                strategy: Some(s.strategy),
                message: format!(
                    "lines {} and {}: runs of {} that disagree by {} times",
                    low.0.line,
                    high.0.line,
                    s.strategy,
                    crate::oracle::units::significant(total(&high.2) / total(&low.2), 3)
                ),
            });
        }
        for (what, factor) in [("compute", s.compute), ("communication", s.communication)] {
            if !(1.0 / DISAGREEMENT..=DISAGREEMENT).contains(&factor) {
                out.push(CalibrationWarning {
                    lines: own.iter().map(|m| m.0.line).collect(),
                    strategy: Some(s.strategy),
                    message: format!(
                        "{}: a {what} factor of {}, outside 0.5 to 2: the model is that far off for these runs",
                        s.strategy,
                        crate::oracle::units::significant(factor, 3)
                    ),
                });
            }
        }
    }
    out
}

impl Calibration {
    /// The factors to apply (see [`Factors`]).
    ///
    /// # Errors
    /// Never for a calibration made by [`Scenario::calibrate`], whose
    /// factors are checked; an [`InputError`] naming a factor otherwise.
    pub fn factors(&self) -> Result<Factors, InputError> {
        Factors::new(FactorsSpec::new(
            self.edition,
            self.global,
            self.strategies
                .iter()
                .map(|s| {
                    let kappa = Kappa {
                        compute: s.compute,
                        communication: s.communication,
                    };
                    StrategyKappa::new(s.strategy, kappa, u64::try_from(s.runs).ok())
                })
                .collect(),
        ))
    }
}

/// A positive normal number as `m·2^e` with `m` in `[1, 2)`.
fn split(value: f64) -> (f64, i64) {
    let bits = value.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mantissa = f64::from_bits((bits & ((1 << 52) - 1)) | (1023 << 52));
    (mantissa, exponent)
}

/// `2^e` for an exponent of a normal number.
fn power_of_two(exponent: i64) -> f64 {
    f64::from_bits(((exponent.clamp(-1022, 1023) + 1023) as u64) << 52)
}

/// The geometric mean of positive normal values (1 for none), with
/// additions, multiplications and comparisons only, so that it is the
/// same to the last bit natively and in WebAssembly (whose `ln` and `exp`
/// differ in the last place), and exact for one value.
///
/// # Formula
/// `(Π v_i)^(1/n) = exp(Σ ln v_i / n)`: the product kept as `m·2^e`; with
/// `e = q·n + r`, the root is `2^q · (m·2^r)^(1/n)`, the last root (in
/// `[1, 2)`) found by bisection to 53 bits, its powers kept as `m·2^e` too,
/// so that any count of values is exact (no power overflows).
pub fn geometric_mean(values: impl Iterator<Item = f64>) -> f64 {
    let (mut m, mut e, mut n) = (1.0, 0i64, 0i64);
    for value in values {
        let (vm, ve) = split(value);
        let (pm, pe) = split(m * vm);
        m = pm;
        e += ve + pe;
        n += 1;
    }
    if n == 0 {
        return 1.0;
    }
    let (q, r) = (e.div_euclid(n), e.rem_euclid(n));
    // t^n as m·2^e, so that no count overflows (compared with m·2^r below)
    let power = |t: f64| {
        let (mut pm, mut pe) = (1.0f64, 0i64);
        let (mut base, mut be) = split(t);
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                let (mm, me) = split(pm * base);
                pm = mm;
                pe += me + be;
            }
            let (bm, bx) = split(base * base);
            base = bm;
            be = 2 * be + bx;
            k >>= 1;
        }
        (pe, pm)
    };
    let (mut low, mut high) = (1.0f64, 2.0f64);
    for _ in 0..53 {
        let mid = low + (high - low) / 2.0;
        if power(mid) <= (r, m) {
            low = mid;
        } else {
            high = mid;
        }
    }
    low * power_of_two(q)
}

impl Scenario {
    /// Calibrates the edition of `template` on measured runs: each run is
    /// projected with `template`'s settings (its edition, item size,
    /// segments, update time), its own strategy, GPUs, mini-batch and
    /// group, and no calibration.
    ///
    /// # Formula
    /// Per run, with projected compute `c` and communication `m` per
    /// iteration (the means as [`geometric_mean`]): `κ_comp = meas_comp/c`, `κ_comm = meas_comm/m` when both
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
        let warnings = warnings(&measured, &strategies);
        let calibration = Calibration {
            warnings,
            edition: template.edition,
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
        // a run the model rules out (fewer samples than replicas or stages, more parts than the
        // split makes) has no projection to hold its measurement to; memory is the model's own
        // estimate, which a run that ran proves wrong, not impossible
        if let Some(&broken) = cost.violations.iter().find(|v| **v != Violation::Memory) {
            let column = match broken {
                Violation::Batch | Violation::Dataset => MeasuredColumn::MiniBatch,
                Violation::Gpus => MeasuredColumn::Gpus,
                Violation::Split if m.group.is_some() => MeasuredColumn::Group,
                _ => MeasuredColumn::Strategy,
            };
            return Err(ParseError::at(
                located.line,
                located.column(column),
                ParseProblem::Broken(format!(
                    "a run the model rules out ({}: {}), which no projection can be held to",
                    broken.name(),
                    broken.label()
                )),
            ));
        }
        Ok(IterationTimes::new(
            cost.compute_s + cost.outside_layers_s(&run),
            cost.communication.total_s(),
        ))
    }
}

/// The ratios of one run (see [`Scenario::calibrate`]).
fn ratios(located: &Located, projected: IterationTimes) -> Result<Kappa, ParseError> {
    let m = &located.run;
    let ratio = |measured: f64, projected: f64, column: MeasuredColumn| {
        let r = measured / projected;
        if r.is_finite()
            && (crate::oracle::model::factors::MIN_FACTOR..=crate::oracle::model::factors::MAX_FACTOR).contains(&r)
        {
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

#[cfg(test)]
mod tests {
    use super::geometric_mean;

    #[test]
    fn geometric_means_are_exact_where_they_can_be() {
        for v in [0.3, 1e-6, 7.123456789, 1e6, 0.999999] {
            assert_eq!(geometric_mean([v].into_iter()), v);
        }
        assert_eq!(geometric_mean([3.0, 12.0].into_iter()), 6.0);
        assert_eq!(geometric_mean([2.0, 8.0].into_iter()), 4.0);
        assert_eq!(geometric_mean([0.5, 2.0, 8.0, 0.125].into_iter()), 1.0);
        assert_eq!(geometric_mean(std::iter::empty()), 1.0);
        // any count: 5,000 identical runs give their own value
        let same = geometric_mean(std::iter::repeat_n(2.554, 5000));
        assert!((same - 2.554).abs() <= 4.0 * f64::EPSILON * 2.554, "{same}");
        let many = geometric_mean((0..20_000).map(|i| if i % 2 == 0 { 1e-6 } else { 1e6 }));
        assert!((many - 1.0).abs() < 1e-12, "{many}");
        // against ln/exp, to 2 ulp, over the factors' whole range
        for (a, b, c) in [(1e-6f64, 1e6f64, 3.0f64), (0.37, 0.41, 55.0), (123.0, 1e-3, 9.9)] {
            let want = (a.ln() + b.ln() + c.ln()) / 3.0;
            let got = geometric_mean([a, b, c].into_iter());
            assert!(
                (got - want.exp()).abs() <= 4.0 * f64::EPSILON * got,
                "{got} {}",
                want.exp()
            );
        }
    }
}
