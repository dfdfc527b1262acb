//! Strategy comparison at the GPU budget: one stacked bar per strategy,
//! compute then each kind of communication.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::{Area, ChartError, Drawn, FONT, LEGEND_WIDTH, Swatch, Target, describe, fail, legend, part_color, render};
use crate::app::results::Results;
use crate::oracle::{CommKind, Projection, units};

/// The parts of a bar, bottom to top: compute (`None`) then communication.
pub const PARTS: [Option<CommKind>; 6] = [
    None,
    Some(CommKind::GradientAllreduce),
    Some(CommKind::LayerCollectives),
    Some(CommKind::Halo),
    Some(CommKind::Gather),
    Some(CommKind::PipelineP2p),
];

/// The name of a part.
pub fn part_label(part: Option<CommKind>) -> &'static str {
    part.map_or("compute", CommKind::label)
}

/// The seconds of a part.
pub fn part_seconds(p: &Projection, part: Option<CommKind>) -> f64 {
    part.map_or(p.compute_s, |kind| p.communication.get(kind))
}

/// The bars: the budget's projections of the chosen strategies, in the
/// contract's order.
pub fn data(results: &Results, chosen: &[crate::oracle::Strategy]) -> Vec<Projection> {
    let mut bars: Vec<Projection> = results
        .ranking
        .iter()
        .filter(|p| chosen.contains(&p.strategy))
        .cloned()
        .collect();
    bars.sort_by_key(|p| p.strategy);
    bars
}

/// Bars taller than this many times the shortest one are cut at that
/// height and labelled with their total, so that fast strategies stay
/// readable next to ones that take hours.
pub const CLIP_RATIO: f64 = 6.0;

/// The top of the time axis: the tallest bar, or [`CLIP_RATIO`] times the
/// shortest when that is lower.
pub fn axis_top(bars: &[Projection]) -> f64 {
    let positive = || bars.iter().map(|p| p.total_s).filter(|t| *t > 0.0);
    let tallest = positive().fold(0.0, f64::max);
    let shortest = positive().fold(f64::INFINITY, f64::min);
    let top = if tallest > CLIP_RATIO * shortest {
        CLIP_RATIO * shortest
    } else {
        tallest
    };
    top.max(f64::MIN_POSITIVE) * 1.15
}

/// Draws the bars.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(bars: &[Projection]) -> Result<Drawn, ChartError> {
    render(|root, targets| {
        if bars.is_empty() {
            return Ok(false);
        }
        let top = axis_top(bars);
        let names: Vec<&str> = bars.iter().map(|p| p.strategy.name()).collect();
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .margin_right(LEGEND_WIDTH)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .build_cartesian_2d((0..bars.len() - 1).into_segmented(), 0f64..top)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(format!("strategy at {} GPUs", bars[0].gpus))
            .y_desc("epoch time (s)")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).map_or(String::new(), |n| n.to_string()),
                _ => String::new(),
            })
            .y_label_formatter(&|v| units::significant(*v, 3))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(fail)?;
        let mut entries = Vec::new();
        for part in PARTS {
            let color = part_color(part);
            let used = bars.iter().any(|p| part_seconds(p, part) > 0.0);
            let series = bars.iter().enumerate().filter_map(|(i, p)| {
                let base: f64 = PARTS
                    .iter()
                    .take_while(|q| **q != part)
                    .map(|q| part_seconds(p, *q))
                    .sum();
                let height = part_seconds(p, part).min((top - base).max(0.0));
                let style = if p.feasible {
                    color.filled()
                } else {
                    color.mix(0.35).filled()
                };
                (height > 0.0).then(|| {
                    let mut bar = Rectangle::new(
                        [
                            (SegmentValue::Exact(i), base),
                            (SegmentValue::Exact(i + 1), base + height),
                        ],
                        style,
                    );
                    bar.set_margin(0, 0, 14, 14);
                    bar
                })
            });
            chart.draw_series(series).map_err(fail)?;
            if used {
                entries.push((part_label(part).to_string(), Swatch::Box(color)));
            }
        }
        for (i, p) in bars.iter().enumerate() {
            let shown = p.total_s.min(top);
            let top_left = chart.backend_coord(&(SegmentValue::Exact(i), shown));
            let bottom_right = chart.backend_coord(&(SegmentValue::Exact(i + 1), 0.0));
            let mut note = if p.total_s > top {
                format!("↑ {}", units::seconds(p.total_s))
            } else {
                String::new()
            };
            if !p.feasible {
                note.push_str(" ✗");
            }
            if !note.is_empty() {
                let color = if p.feasible { BLACK } else { RED };
                let mark = Text::new(
                    note,
                    (SegmentValue::Exact(i), shown),
                    (FONT, 12).into_font().color(&color),
                );
                chart.draw_series(std::iter::once(mark)).map_err(fail)?;
            }
            let mut lines = describe(p);
            for part in PARTS {
                let seconds = part_seconds(p, part);
                if seconds > 0.0 {
                    lines.push(format!("{}: {}", part_label(part), units::seconds(seconds)));
                }
            }
            targets.push(Target {
                area: Area::bar(top_left, bottom_right),
                lines,
            });
        }
        entries.push((
            "pale: infeasible ✗".to_string(),
            Swatch::Box(RGBColor(0xdd, 0xdd, 0xdd)),
        ));
        legend(root, &entries)?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Strategy;

    #[test]
    fn one_stacked_bar_per_chosen_strategy() {
        let results = crate::app::results::default_results();
        let bars = data(&results, &[Strategy::Data, Strategy::Filter, Strategy::DataSpatial]);
        let order: Vec<Strategy> = bars.iter().map(|p| p.strategy).collect();
        assert_eq!(order, [Strategy::Data, Strategy::Filter, Strategy::DataSpatial]);
        let drawn = draw(&bars).unwrap();
        assert_eq!(drawn.targets.len(), 3);
        assert!(drawn.svg.contains("gradient allreduce"));
        assert!(drawn.svg.contains("layer-wise collectives"));
        assert!(
            drawn.targets[1]
                .lines
                .iter()
                .any(|l| l.starts_with("layer-wise collectives: "))
        );
        // the filter bar (hours) is taller than the data bar (seconds), cut
        // at six times the shortest and labelled with its total
        let height = |t: &Target| match t.area {
            Area::Bar { height, .. } => height,
            Area::Point { .. } => 0,
        };
        assert!(height(&drawn.targets[1]) > height(&drawn.targets[0]));
        assert!(bars[1].total_s > CLIP_RATIO * bars[0].total_s);
        assert!(drawn.svg.contains(&format!("↑ {}", units::seconds(bars[1].total_s))));
        assert!((axis_top(&bars) - 1.15 * CLIP_RATIO * bars[0].total_s).abs() < 1e-9);
    }
}
