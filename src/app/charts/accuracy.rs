//! The accuracy scatter: each measured run's prediction against its
//! measurement, log-log, with the line y = x and the band within 2 times,
//! coloured by strategy.

use plotters::prelude::*;

use crate::app::charts::{
    Area, ChartError, Drawn, Swatch, Target, Ticks, dashed, fail, legend, log_bounds, log_log, render, strategy_color,
};
use crate::oracle::validation::{Method, Report};
use crate::oracle::{Strategy, accuracy, units};

/// One run on the scatter.
#[derive(Debug, Clone, PartialEq)]
pub struct RunPoint {
    /// Strategy (the colour).
    pub strategy: Strategy,
    /// Measured seconds per iteration (x).
    pub measured_s: f64,
    /// Predicted seconds per iteration (y).
    pub predicted_s: f64,
    /// The hover text.
    pub lines: Vec<String>,
}

/// The points of one way of predicting (runs it does not predict are left
/// out: a series' calibration run, when calibrated).
pub fn data(report: &Report, method: Method) -> Vec<RunPoint> {
    report
        .runs
        .iter()
        .filter_map(|r| {
            let predicted_s = method.of(&r.predicted)?;
            Some(RunPoint {
                strategy: r.run.strategy,
                measured_s: r.run.measured_s,
                predicted_s,
                lines: vec![
                    format!(
                        "{} {}: {} {} GPUs, batch {}",
                        r.run.id, r.run.model, r.run.strategy, r.run.gpus, r.run.mini_batch
                    ),
                    format!(
                        "measured {}, predicted {} ({})",
                        units::seconds(r.run.measured_s),
                        units::seconds(predicted_s),
                        method.label()
                    ),
                    format!("accuracy {}", units::percent(accuracy(predicted_s, r.run.measured_s))),
                    report.series.get(r.run.series).cloned().unwrap_or_default(),
                ],
            })
        })
        .collect()
}

/// Draws the scatter.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(points: &[RunPoint]) -> Result<Drawn, ChartError> {
    render(|root, targets| {
        let values = points.iter().flat_map(|p| [p.measured_s, p.predicted_s]);
        let Some((low, high)) = log_bounds(values) else {
            return Ok(false);
        };
        let significant = |v: &f64| units::significant(*v, 2);
        let mut chart = log_log(
            root,
            (low, high, Ticks::Decades),
            (low, high),
            [
                ("measured s per iteration", &significant),
                ("predicted s per iteration", &significant),
            ],
        )?;
        let grey = RGBColor(0x70, 0x70, 0x70);
        let line = |factor: f64| vec![(low, low * factor), (high, high * factor)];
        chart
            .draw_series(LineSeries::new(line(1.0), grey.stroke_width(2)))
            .map_err(fail)?;
        for factor in [2.0, 0.5] {
            chart
                .draw_series(LineSeries::new(line(factor), dashed(grey, 5, 4, 1)))
                .map_err(fail)?;
        }
        let mut entries = vec![
            ("exact: y = x".to_string(), Swatch::Line(grey)),
            ("within 2x".to_string(), Swatch::Dashed(grey, 5, 4)),
        ];
        for p in points {
            let at = (p.measured_s, p.predicted_s);
            chart
                .draw_series(std::iter::once(Circle::new(at, 4, strategy_color(p.strategy).filled())))
                .map_err(fail)?;
            let (x, y) = chart.backend_coord(&at);
            targets.push(Target {
                area: Area::Point { x, y },
                lines: p.lines.clone(),
                explain: None,
            });
        }
        for strategy in Strategy::ALL
            .into_iter()
            .filter(|s| points.iter().any(|p| p.strategy == *s))
        {
            entries.push((strategy.name().to_string(), Swatch::Box(strategy_color(strategy))));
        }
        legend(root, &entries)?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use crate::app::charts::accuracy::*;
    use crate::oracle::validation::{Tier, report};

    #[test]
    fn every_predicted_run_is_a_hoverable_point() {
        let report = report(Tier::All).unwrap();
        let points = data(&report, Method::Realistic);
        assert_eq!(points.len(), report.runs.len());
        let calibrated = data(&report, Method::RealisticCalibrated);
        assert_eq!(calibrated.len(), report.overall.calibrated_runs);
        let drawn = draw(&points).unwrap();
        assert_eq!(drawn.targets.len(), points.len());
        assert!(drawn.svg.contains("measured s per iteration"));
        assert!(drawn.svg.contains("within 2x"));
        // log-log: a larger prediction sits higher, a larger measurement further right
        let values: Vec<(f64, f64)> = points.iter().map(|p| (p.measured_s, p.predicted_s)).collect();
        crate::app::charts::assert_placed_by(&drawn, &values);
    }
}
