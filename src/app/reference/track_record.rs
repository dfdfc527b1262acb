//! How far the model has been from measured runs: the track record shown
//! beside a projection, so that its digits are read for what they are
//! worth. Without a calibration it is the shipped runs measured on ABCI
//! (the accuracy view's report, every tier, uncalibrated); with one, the
//! user's own runs after calibration.

use crate::oracle::{Calibration, Edition, Strategy};

/// The mean accuracy `min(pred/meas, meas/pred)` of one edition on the
/// measured runs of one strategy (`None`: every run).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record {
    /// The strategy, or every run.
    pub strategy: Option<Strategy>,
    pub runs: usize,
    /// Mean accuracy of the ideal edition, uncalibrated.
    pub ideal: f64,
    /// Mean accuracy of the realistic edition, uncalibrated.
    pub realistic: f64,
}

/// `paradl validate --tier all`'s accuracy by strategy and overall, as the
/// engine computes it from `src/oracle/validation/measured-runs.csv` (a
/// test holds these to the engine's report: they change when the model
/// does, and are regenerated from its output).
pub const ABCI: [Record; 7] = [
    record(Some(Strategy::Data), 32, 0.16947528795463848, 0.17869824847825289),
    record(Some(Strategy::Spatial), 2, 0.1487469766628285, 0.3911923442058369),
    record(Some(Strategy::Filter), 11, 0.1640447185760842, 0.2849758989713939),
    record(Some(Strategy::Channel), 2, 0.038532949741137024, 0.05414196649293168),
    record(Some(Strategy::DataFilter), 7, 0.060856753086927784, 0.08549691674753908),
    record(Some(Strategy::DataSpatial), 53, 0.13215981470261148, 0.3926767854268798),
    record(None, 107, 0.14049278899570267, 0.2911597710863959),
];

const fn record(strategy: Option<Strategy>, runs: usize, ideal: f64, realistic: f64) -> Record {
    Record {
        strategy,
        runs,
        ideal,
        realistic,
    }
}

/// How far a projection of one strategy has typically been off.
#[derive(Debug, Clone, PartialEq)]
pub struct Typical {
    /// `1/accuracy`: the factor it was off by, on average.
    pub factor: f64,
    /// Runs it comes from.
    pub runs: usize,
    /// Where from, in words.
    pub source: &'static str,
}

impl Typical {
    /// In words: `typically off by ×3.6 on 32 measured runs of data
    /// parallelism (ABCI)`.
    pub fn sentence(&self, strategy: Strategy) -> String {
        format!(
            "typically off by ×{} on {} measured runs of {} ({})",
            crate::oracle::units::significant(self.factor, 2),
            self.runs,
            strategy.label(),
            self.source
        )
    }
}

/// The track record of `strategy` in `edition`: the calibration's runs
/// after it when one is loaded (those of the strategy, else all of them),
/// else ABCI's (the strategy's, else every run).
pub fn typical(strategy: Strategy, edition: Edition, calibration: Option<&Calibration>) -> Option<Typical> {
    if let Some(c) = calibration {
        let own: Vec<f64> = c
            .runs
            .iter()
            .filter(|r| r.measured.strategy == strategy)
            .map(|r| r.accuracy_after)
            .collect();
        let (mean, runs) = if own.is_empty() {
            (c.mean_accuracy_after, c.runs.len())
        } else {
            (own.iter().sum::<f64>() / own.len() as f64, own.len())
        };
        return (mean > 0.0 && runs > 0).then(|| Typical {
            factor: 1.0 / mean,
            runs,
            source: "your runs, after calibration",
        });
    }
    let record = ABCI
        .iter()
        .find(|r| r.strategy == Some(strategy))
        .or_else(|| ABCI.iter().find(|r| r.strategy.is_none()))?;
    let mean = match edition {
        Edition::Ideal => record.ideal,
        Edition::Realistic => record.realistic,
    };
    (mean > 0.0).then(|| Typical {
        factor: 1.0 / mean,
        runs: record.runs,
        source: if record.strategy.is_some() {
            "ABCI, both code versions, uncalibrated; see How accurate is this?"
        } else {
            "every strategy on ABCI, both code versions, uncalibrated: none of this one was measured"
        },
    })
}

#[cfg(test)]
mod tests {
    use crate::app::reference::track_record::*;
    use crate::oracle::validation::{Tier, report};

    #[test]
    fn the_record_is_the_engines_report() {
        let report = report(Tier::All).unwrap();
        let rows: Vec<Record> = report
            .by_strategy
            .iter()
            .chain(std::iter::once(&report.overall))
            .map(|a| record(a.strategy, a.runs, a.ideal.unwrap(), a.realistic.unwrap()))
            .collect();
        assert_eq!(
            rows,
            ABCI.to_vec(),
            "regenerate ABCI from `paradl validate --tier all --format json`"
        );
    }

    #[test]
    fn a_strategy_never_measured_takes_every_run() {
        let pipeline = typical(Strategy::Pipeline, Edition::Realistic, None).unwrap();
        assert_eq!(pipeline.runs, 107);
        let data = typical(Strategy::Data, Edition::Ideal, None).unwrap();
        assert!((data.factor - 1.0 / 0.16947528795463848).abs() < 1e-12);
        assert!(
            data.sentence(Strategy::Data)
                .starts_with("typically off by ×5.9 on 32 measured runs")
        );
    }
}
