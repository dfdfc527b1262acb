//! Scaling curves: epoch time, or time to train, against GPU count,
//! log-log, one curve per strategy, infeasible points crossed out, and
//! ideal scaling.

use plotters::prelude::*;

use crate::app::charts::{
    Area, Canvas, ChartError, Drawn, Swatch, Target, Ticks, count_label, dashed, describe, fail, legend, log_bounds,
    log_log, render_on, strategy_color, strategy_dash, strategy_swatch,
};
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::metric::Metric;
use crate::app::results::Results;
use crate::oracle::{Projection, Quantity, Strategy, units};

/// One strategy's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub strategy: Strategy,
    /// Its projections, GPU count ascending.
    pub points: Vec<Projection>,
}

/// What the plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingData {
    /// One curve per chosen strategy.
    pub curves: Vec<Curve>,
    /// Ideal scaling.
    pub ideal: Vec<(u64, f64)>,
    /// The GPU budget (a vertical line).
    pub budget: u64,
    /// The other edition's curves (thin, dashed), if asked for.
    pub other: Vec<Curve>,
    /// The other edition's name, for the legend.
    pub other_name: &'static str,
    /// The GPU counts spanned, from and to.
    pub range: (u64, u64),
    /// What is drawn.
    pub metric: Metric,
}

impl ScalingData {
    /// The value a point is drawn at: its epoch, its time, energy or money
    /// to train (not finite: unknown, not drawn).
    pub fn value(&self, p: &Projection) -> f64 {
        self.metric.of(p)
    }

    /// A curve's line: its points with a known value, at their GPUs.
    fn line(&self, curve: &Curve) -> Vec<(f64, f64)> {
        curve
            .points
            .iter()
            .map(|p| (p.gpus as f64, self.value(p)))
            .filter(|(_, v)| v.is_finite())
            .collect()
    }

    /// What the vertical axis says.
    fn axis(&self) -> &'static str {
        self.metric.axis()
    }

    /// The quantity a point explains.
    fn quantity(&self) -> Quantity {
        self.metric.quantity()
    }
}

/// Projections grouped into one curve per strategy, in order of appearance.
fn curves(points: &[Projection]) -> Vec<Curve> {
    let mut curves: Vec<Curve> = Vec::new();
    for p in points {
        match curves.iter_mut().find(|c| c.strategy == p.strategy) {
            Some(curve) => curve.points.push(p.clone()),
            None => curves.push(Curve {
                strategy: p.strategy,
                points: vec![p.clone()],
            }),
        }
    }
    curves
}

/// The curves of the results' sweep, and of `other`, the other edition's
/// (empty: not drawn), over the GPU counts of `range` (`None`: all), drawn
/// at `metric`; ideal scaling keeps the epochs of the fewest GPUs drawn
/// (what adding GPUs would give if the epochs did not grow with the batch)
/// and, for energy and money, their cost of a GPU-second (perfect scaling
/// spends the same GPU-seconds at any count: a flat line).
pub fn data(results: &Results, other: &[Projection], range: Option<(u64, u64)>, metric: Metric) -> ScalingData {
    let all = (1, results.max_gpus.max(results.gpus).max(2));
    let (from, to) = range.unwrap_or(all);
    let within = |points: &[Projection]| -> Vec<Projection> {
        points
            .iter()
            .filter(|p| (from..=to).contains(&p.gpus))
            .cloned()
            .collect()
    };
    let drawn = within(results.sweep());
    // the fewest GPUs drawn: ideal scaling keeps their epochs and their
    // energy or money of a GPU-second
    let fewest = drawn.iter().min_by_key(|p| p.gpus);
    let epochs = fewest.map_or(1.0, |p| p.training.epochs.epochs);
    let per_gpu_s = |p: &Projection| metric.of(p) / (p.training.time_s * p.gpus as f64);
    let scale = |g: u64| match metric {
        Metric::Epoch => 1.0,
        Metric::Train => epochs,
        Metric::Energy | Metric::Money => fewest.map_or(f64::NAN, |p| epochs * g as f64 * per_gpu_s(p)),
    };
    ScalingData {
        curves: curves(&drawn),
        ideal: results
            .ideal()
            .iter()
            .copied()
            .filter(|(g, _)| (from..=to).contains(g))
            .map(|(g, t)| (g, t * scale(g)))
            .filter(|(_, v)| v.is_finite())
            .collect(),
        budget: results.gpus,
        other: curves(&within(other)),
        other_name: results.edition.other().name(),
        range: (from, to),
        metric,
    }
}

/// Draws the curves on `canvas`.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(data: &ScalingData, canvas: Canvas) -> Result<Drawn, ChartError> {
    render_on(canvas, |root, targets| {
        let times = data
            .curves
            .iter()
            .chain(&data.other)
            .flat_map(|c| c.points.iter().map(|p| data.value(p)))
            .filter(|v| v.is_finite());
        let Some((low, high)) = log_bounds(times.chain(data.ideal.iter().map(|i| i.1))) else {
            return Ok(false);
        };
        let (from, to) = (data.range.0 as f64, data.range.1 as f64);
        let gpus = |v: &f64| count_label(*v);
        let seconds = |v: &f64| units::significant(*v, 2);
        let mut chart = log_log(
            root,
            (from / 1.4, to * 1.4, Ticks::Doubling),
            (low, high),
            [("GPUs", &gpus), (data.axis(), &seconds)],
        )?;
        let budget = data.budget as f64;
        // the budget's line where the range shows it
        if (from..=to).contains(&budget) {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(budget, low), (budget, high)],
                    // dark enough to read on a projector (5.7:1 on white)
                    RGBColor(0x66, 0x66, 0x66).stroke_width(2),
                )))
                .map_err(fail)?;
        }
        let ideal: Vec<(f64, f64)> = data.ideal.iter().map(|&(p, t)| (p as f64, t)).collect();
        let grey = RGBColor(0x70, 0x70, 0x70);
        chart
            .draw_series(LineSeries::new(ideal, dashed(grey, 6, 4, 2)))
            .map_err(fail)?;
        let ideal_words = match data.metric {
            Metric::Epoch => "ideal scaling",
            Metric::Train => "ideal scaling, epochs kept",
            Metric::Energy | Metric::Money => "ideal scaling, epochs and GPU-seconds kept",
        };
        let mut entries = vec![(ideal_words.to_string(), Swatch::Dashed(grey, 6, 4))];
        for curve in &data.curves {
            let color = strategy_color(curve.strategy);
            let line = data.line(curve);
            match strategy_dash(curve.strategy) {
                Some((dash, gap)) => chart
                    .draw_series(LineSeries::new(line, dashed(color, dash, gap, 2)))
                    .map_err(fail)?,
                None => chart
                    .draw_series(LineSeries::new(line, color.stroke_width(2)))
                    .map_err(fail)?,
            };
            entries.push((curve.strategy.name().to_string(), strategy_swatch(curve.strategy)));
            for p in curve.points.iter().filter(|p| data.value(p).is_finite()) {
                let at = (p.gpus as f64, data.value(p));
                if p.feasible {
                    chart
                        .draw_series(std::iter::once(Circle::new(at, 4, color.filled())))
                        .map_err(fail)?;
                } else {
                    chart
                        .draw_series(std::iter::once(Cross::new(at, 5, color.stroke_width(2))))
                        .map_err(fail)?;
                }
                let (x, y) = chart.backend_coord(&at);
                targets.push(Target {
                    area: Area::Point { x, y },
                    lines: describe(p),
                    explain: Some(ExplainTarget::new(p.strategy, p.gpus, data.quantity())),
                });
            }
        }
        for curve in &data.other {
            let line = data.line(curve);
            let color = strategy_color(curve.strategy);
            chart
                .draw_series(LineSeries::new(line, dashed(color, 3, 3, 1)))
                .map_err(fail)?;
        }
        if !data.other.is_empty() {
            entries.push((format!("thin dashed: {}", data.other_name), Swatch::Dashed(grey, 3, 3)));
        }
        entries.push((
            format!("budget: {} GPUs", data.budget),
            Swatch::Line(RGBColor(0x66, 0x66, 0x66)),
        ));
        entries.push(("✕ infeasible point".to_string(), Swatch::Box(WHITE)));
        legend(root, &entries)?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use crate::app::charts::scaling::*;

    #[test]
    fn a_range_spans_only_its_gpu_counts_and_labels_them() {
        let results = crate::app::results::default_results();
        let data = data(&results, &[], Some((64, 1024)), Metric::Epoch);
        assert!(
            data.curves
                .iter()
                .all(|c| c.points.iter().all(|p| (64..=1024).contains(&p.gpus)))
        );
        assert_eq!(data.ideal.first().map(|i| i.0), Some(64));
        let drawn = draw(&data, crate::app::charts::Canvas::WIDE).unwrap();
        let texts: Vec<&str> = drawn
            .svg
            .split("</text>")
            .filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim()))
            .collect();
        for label in ["64", "128", "256", "512", "1k"] {
            assert!(texts.contains(&label), "{label} in {texts:?}");
        }
        assert!(!texts.contains(&"4k") && !texts.contains(&"32"), "{texts:?}");
    }

    #[test]
    fn the_time_to_train_view_draws_each_points_time_to_train_against_ideal_scaling_at_fixed_epochs() {
        let results = crate::app::results::default_results();
        let data = data(&results, &[], None, Metric::Train);
        let data_curve = data.curves.iter().find(|c| c.strategy == Strategy::Data).unwrap();
        for p in &data_curve.points {
            assert_eq!(data.value(p), p.training.time_s);
        }
        // ResNet-50 follows its curve: epochs grow with the global batch past 3,264
        let first = &data_curve.points[0];
        let last = data_curve.points.last().unwrap();
        assert!(last.training.epochs.epochs > first.training.epochs.epochs);
        // ideal scaling keeps the epochs of the fewest GPUs drawn
        let fewest = results.sweep().iter().map(|p| p.gpus).min().unwrap();
        let epochs = results
            .sweep()
            .iter()
            .find(|p| p.gpus == fewest)
            .unwrap()
            .training
            .epochs
            .epochs;
        for ((g, t), (g0, t0)) in data.ideal.iter().zip(results.ideal()) {
            assert_eq!(g, g0);
            assert!((t - t0 * epochs).abs() <= 1e-12 * t.abs());
        }
        let drawn = draw(&data, crate::app::charts::Canvas::WIDE).unwrap();
        assert!(drawn.svg.contains("time to train (s)") && drawn.svg.contains("epochs kept"));
        assert!(
            drawn
                .targets
                .iter()
                .all(|t| t.explain.as_ref().is_some_and(|e| e.quantity == Quantity::TimeToTrain))
        );
    }

    #[test]
    fn the_energy_view_draws_each_points_energy_to_train_against_a_flat_ideal() {
        let results = crate::app::results::default_results();
        let data = data(&results, &[], None, Metric::Energy);
        let data_curve = data.curves.iter().find(|c| c.strategy == Strategy::Data).unwrap();
        for p in &data_curve.points {
            assert_eq!(data.value(p), p.energy.as_ref().unwrap().train_kwh);
        }
        // perfect scaling spends the same GPU-seconds at any count: the same energy
        let first = data.ideal.first().unwrap().1;
        assert!(
            data.ideal.iter().all(|(_, e)| (e - first).abs() <= 1e-9 * first),
            "{:?}",
            data.ideal
        );
        let drawn = draw(&data, crate::app::charts::Canvas::WIDE).unwrap();
        assert!(drawn.svg.contains("energy to train (kWh)"));
        assert!(
            drawn
                .targets
                .iter()
                .all(|t| t.explain.as_ref().is_some_and(|e| e.quantity == Quantity::Energy))
        );
    }

    #[test]
    fn curves_per_strategy_with_every_point_hoverable() {
        let results = crate::app::results::default_results();
        let data = data(&results, &[], None, Metric::Epoch);
        assert_eq!(data.curves.len(), 8);
        assert_eq!(data.curves[1].strategy, Strategy::Data);
        assert_eq!(data.curves[1].points.len(), 13);
        let drawn = draw(&data, crate::app::charts::Canvas::WIDE).unwrap();
        assert!(drawn.svg.starts_with("<svg"));
        assert!(drawn.svg.contains("epoch time (s)"));
        assert!(drawn.svg.contains("data+spatial"));
        assert_eq!(drawn.targets.len(), results.sweep().len());
        for t in &drawn.targets {
            let Area::Point { x, y } = t.area else {
                panic!("points only")
            };
            assert!(
                (0..crate::app::charts::WIDTH as i32).contains(&x)
                    && (0..crate::app::charts::HEIGHT as i32).contains(&y)
            );
        }
        // more GPUs further right
        let xs: Vec<i32> = drawn.targets[1..14]
            .iter()
            .map(|t| match t.area {
                Area::Point { x, .. } => x,
                Area::Bar { x, .. } => x,
            })
            .collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]));
        assert!(data.other.is_empty(), "the other edition is drawn only when asked for");
    }

    #[test]
    fn a_phone_s_plot_is_narrow_with_its_legend_under_the_curves() {
        use crate::app::charts::{Canvas, LEGEND_BELOW, NARROW_WIDTH};
        let results = crate::app::results::default_results();
        let drawn = draw(&data(&results, &[], None, Metric::Epoch), Canvas::PHONE).unwrap();
        assert_eq!((drawn.width, drawn.height), (Canvas::PHONE.width, Canvas::PHONE.height));
        assert!(drawn.svg.contains(&format!("width=\"{NARROW_WIDTH}\"")));
        let legend_top = (drawn.height - LEGEND_BELOW) as i32;
        // every point inside the narrow plot, above the legend
        for t in &drawn.targets {
            let Area::Point { x, y } = t.area else {
                panic!("points only")
            };
            assert!(
                (0..NARROW_WIDTH as i32).contains(&x) && (0..legend_top).contains(&y),
                "{x} {y}"
            );
        }
        // the legend's entries (each strategy's name) are below the plot, inside its width
        let texts: Vec<(i32, i32, String)> = drawn
            .svg
            .split("<text")
            .skip(1)
            .filter_map(|t| {
                let number = |key: &str| t.split(key).nth(1)?.split('"').next()?.parse::<i32>().ok();
                let word = t.split('>').nth(1)?.split('<').next()?.trim().to_string();
                Some((number(" x=\"")?, number(" y=\"")?, word))
            })
            .collect();
        for name in ["data", "filter", "data+spatial", "ideal scaling"] {
            let (x, y, _) = texts
                .iter()
                .find(|(_, _, w)| w == name)
                .unwrap_or_else(|| panic!("{name}"));
            assert!(*y > legend_top && *y < drawn.height as i32, "{name} at y {y}");
            assert!(*x > 0 && *x < NARROW_WIDTH as i32 - 60, "{name} at x {x}");
        }
    }

    #[test]
    fn the_other_edition_is_drawn_when_asked_for() {
        let question = crate::app::input::question::Question::default();
        let scenario = question.scenario().unwrap();
        let results = Results::compute(&question, &scenario).unwrap();
        let data = data(&results, results.other_sweep(&scenario), None, Metric::Epoch);
        assert_eq!(data.other.len(), data.curves.len());
        assert!(
            data.other
                .iter()
                .flat_map(|c| &c.points)
                .all(|p| p.edition == crate::oracle::Edition::Ideal)
        );
        let drawn = draw(&data, crate::app::charts::Canvas::WIDE).unwrap();
        assert!(drawn.svg.contains("thin dashed: ideal"));
        // the hover targets are the shown edition's points only
        assert_eq!(drawn.targets.len(), results.sweep().len());
    }
}
