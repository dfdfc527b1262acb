//! Strategy comparison at the GPU budget: one stacked bar per strategy,
//! compute then each kind of communication.

use plotters::style::RGBColor;

use crate::app::charts::stacked::{self, Frame, Stack};
use crate::app::charts::{Canvas, ChartError, Drawn, describe, part_color, render_on};
use crate::app::results::Results;
use crate::oracle::{CommKind, Projection, units};

/// The parts of a bar, bottom to top: compute (`None`) then communication.
pub const PARTS: [Option<CommKind>; 8] = [
    None,
    Some(CommKind::GradientAllreduce),
    Some(CommKind::WeightAllgather),
    Some(CommKind::LayerCollectives),
    Some(CommKind::Halo),
    Some(CommKind::Gather),
    Some(CommKind::KeyValue),
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

/// The top of the time axis, set by the feasible bars: the tallest, or
/// [`CLIP_RATIO`] times the shortest when that is lower.
pub fn axis_top(bars: &[Projection]) -> f64 {
    stacked::axis_top(bars.iter().map(|p| (p.total_s, p.feasible)), CLIP_RATIO)
}

/// Draws the bars.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(bars: &[Projection], canvas: Canvas) -> Result<Drawn, ChartError> {
    let parts: Vec<(&str, RGBColor)> = PARTS.iter().map(|&p| (part_label(p), part_color(p))).collect();
    let stacks: Vec<Stack> = bars
        .iter()
        .map(|p| {
            let mut lines = describe(p);
            for part in PARTS {
                let seconds = part_seconds(p, part);
                if seconds > 0.0 {
                    lines.push(format!("{}: {}", part_label(part), units::seconds(seconds)));
                }
            }
            Stack {
                name: p.strategy.name().to_string(),
                values: PARTS.iter().map(|&part| part_seconds(p, part)).collect(),
                faded: !p.feasible,
                total: units::seconds(p.total_s),
                lines,
                explain: Some(crate::app::input::explain_target::ExplainTarget::new(
                    p.strategy,
                    p.gpus,
                    crate::oracle::Quantity::Total,
                )),
            }
        })
        .collect();
    let frame = Frame {
        parts: &parts,
        top: axis_top(bars),
        x_desc: format!("strategy at {} GPUs", bars.first().map_or(0, |p| p.gpus)),
        y_desc: "epoch time (s)",
        y_label: |v| units::significant(v, 3),
        reference: None,
        faded_legend: "pale: infeasible ✗",
    };
    render_on(canvas, |root, targets| stacked::draw(root, targets, &frame, &stacks))
}

#[cfg(test)]
mod tests {
    use crate::app::charts::comparison::*;
    use crate::app::charts::{Area, Target};
    use crate::oracle::Strategy;

    #[test]
    fn one_stacked_bar_per_chosen_strategy() {
        let results = crate::app::results::default_results();
        let bars = data(&results, &[Strategy::Data, Strategy::Filter, Strategy::DataSpatial]);
        let order: Vec<Strategy> = bars.iter().map(|p| p.strategy).collect();
        assert_eq!(order, [Strategy::Data, Strategy::Filter, Strategy::DataSpatial]);
        let drawn = draw(&bars, Canvas::WIDE).unwrap();
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
        // the scale is set by the feasible bars only
        let feasible: Vec<f64> = bars.iter().filter(|p| p.feasible).map(|p| p.total_s).collect();
        assert!(!feasible.is_empty() && feasible.len() < bars.len(), "{bars:?}");
        let tallest = feasible.iter().copied().fold(0.0, f64::max);
        let shortest = feasible.iter().copied().fold(f64::INFINITY, f64::min);
        assert!((axis_top(&bars) - 1.15 * tallest.min(CLIP_RATIO * shortest)).abs() < 1e-9);
    }

    #[test]
    fn one_strategy_draws_one_bar_of_positive_width() {
        let results = crate::app::results::default_results();
        let bars = data(&results, &[Strategy::Data]);
        let drawn = draw(&bars, Canvas::WIDE).unwrap();
        assert!(!drawn.svg.contains("width=\"-"), "no rectangle of negative width");
        assert_eq!(drawn.targets.len(), 1);
        match drawn.targets[0].area {
            Area::Bar { width, height, .. } => assert!(width > 10 && height > 10, "{width}x{height}"),
            Area::Point { .. } => panic!("a bar"),
        }
    }
}
