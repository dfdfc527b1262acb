//! Memory per GPU of each strategy at the GPU budget, stacked by part
//! (weights, gradients, optimizer states, activations, the backward pass's
//! buffers, library workspace, allocator rounding, reserved) against
//! the GPU's capacity; bars far above it are cut and labelled.

use plotters::style::RGBColor;

use crate::app::charts::stacked::{self, Frame, Stack};
use crate::app::charts::{Canvas, ChartError, Drawn, describe, render_on};
use crate::app::results::Results;
use crate::oracle::{Capacity, FindingDetail, Part, Projection, units};

/// The colour of a part of memory.
pub fn part_color(part: Part) -> RGBColor {
    match part {
        Part::Weights => RGBColor(0x00, 0x72, 0xb2),
        Part::Gradients => RGBColor(0xc2, 0x5e, 0x00),
        Part::Optimizer => RGBColor(0x00, 0x9e, 0x73),
        Part::Activations => RGBColor(0x88, 0x22, 0x55),
        Part::Reserved => RGBColor(0x6b, 0x6b, 0x6b),
        // blue, not a second purple beside the activations' wine (issue 30)
        Part::Transient => RGBColor(0x2f, 0x6f, 0xde),
        Part::Workspace => RGBColor(0x33, 0x22, 0x88),
        Part::Allocator => RGBColor(0x80, 0x80, 0x20),
    }
}

/// What the plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryData {
    /// The budget's projections of the chosen strategies.
    pub bars: Vec<Projection>,
    /// Largest batches that fit.
    pub fits: Vec<Capacity>,
    /// `M`.
    pub capacity_bytes: f64,
}

/// The bars of the chosen strategies.
pub fn data(results: &Results, chosen: &[crate::oracle::Strategy]) -> MemoryData {
    MemoryData {
        bars: crate::app::charts::comparison::data(results, chosen),
        fits: results.fits().to_vec(),
        capacity_bytes: results.capacity_bytes,
    }
}

/// How far above the capacity the axis reaches for bars that do not fit:
/// far enough to see by how much they miss, not so far that the ones that
/// fit are flattened.
pub const OVER_CAPACITY: f64 = 3.0;

/// The top of the axis: the tallest bar that fits and the capacity, or,
/// when a bar does not fit, up to [`OVER_CAPACITY`] times the capacity so
/// that the wall and how far past it the bars go are both in view. Bars
/// above it are cut and labelled with their size, so that a terabyte that
/// cannot fit does not flatten the ones that do.
pub fn axis_top(data: &MemoryData) -> f64 {
    let capacity = data.capacity_bytes;
    let fits = |m: f64| !capacity.is_finite() || m <= capacity;
    let memory = || data.bars.iter().map(|p| p.memory_bytes);
    let fitting = memory().filter(|m| fits(*m)).fold(0.0, f64::max);
    let missing = memory().filter(|m| !fits(*m)).fold(0.0, f64::max);
    let top = if capacity.is_finite() {
        fitting.max(capacity).max(missing.min(OVER_CAPACITY * capacity))
    } else {
        fitting
    };
    top.max(f64::MIN_POSITIVE) * 1.15
}

/// The hover text of a bar: the projection, each part, the largest batch
/// that fits and what would make it fit.
fn lines(data: &MemoryData, p: &Projection) -> Vec<String> {
    let mut lines = describe(p);
    for part in Part::ALL {
        let bytes = p.memory.get(part);
        if bytes > 0.0 {
            lines.push(format!("{}: {}", part.label(), units::bytes(bytes)));
        }
    }
    if let Some(fit) = data.fits.iter().find(|f| f.strategy == p.strategy) {
        lines.push(match (fit.max_mini_batch, fit.max_samples_per_gpu) {
            (Some(b), Some(per_gpu)) => format!(
                "largest batch that fits: {b}, {} per GPU",
                units::significant(per_gpu, 4)
            ),
            _ => "not even one sample fits".into(),
        });
    }
    lines.extend(
        p.bottlenecks
            .iter()
            .filter(|f| matches!(f.detail, FindingDetail::MemoryFit { .. }))
            .map(|f| f.message.clone()),
    );
    lines
}

/// Draws the stacked bars and the capacity line.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(data: &MemoryData, canvas: Canvas) -> Result<Drawn, ChartError> {
    let parts: Vec<(&str, RGBColor)> = Part::ALL.iter().map(|&p| (p.label(), part_color(p))).collect();
    let stacks: Vec<Stack> = data
        .bars
        .iter()
        .map(|p| Stack {
            name: p.strategy.name().to_string(),
            values: Part::ALL.iter().map(|&part| p.memory.get(part)).collect(),
            faded: p.memory_bytes > data.capacity_bytes,
            total: units::bytes(p.memory_bytes),
            lines: lines(data, p),
            explain: Some(crate::app::input::explain_target::ExplainTarget::new(
                p.strategy,
                p.gpus,
                crate::oracle::Quantity::Memory,
            )),
        })
        .collect();
    let frame = Frame {
        parts: &parts,
        top: axis_top(data),
        x_desc: format!("strategy at {} GPUs", data.bars.first().map_or(0, |p| p.gpus)),
        y_desc: "memory per GPU",
        y_label: units::bytes,
        reference: Some((
            data.capacity_bytes,
            format!("GPU capacity {}", units::bytes(data.capacity_bytes)),
        )),
        faded_legend: "pale: over capacity",
    };
    render_on(canvas, |root, targets| stacked::draw(root, targets, &frame, &stacks))
}

#[cfg(test)]
mod tests {
    use crate::app::charts::memory::*;
    use crate::oracle::Strategy;

    #[test]
    fn bars_against_capacity() {
        let results = crate::app::results::default_results();
        let data = data(&results, &Strategy::ALL);
        assert_eq!(data.bars.len(), 7, "serial does not apply at 64 GPUs");
        let drawn = draw(&data, Canvas::WIDE).unwrap();
        assert!(drawn.svg.contains("GPU capacity 16 GB"));
        assert_eq!(drawn.targets.len(), 7);
        assert!(
            drawn.targets[0]
                .lines
                .iter()
                .any(|l| l.starts_with("largest batch that fits"))
        );
        // the parts are named in the legend and each bar's hover text
        for part in ["weights", "gradients", "activations", "reserved"] {
            assert!(drawn.svg.contains(part), "{part}");
            assert!(
                drawn.targets[0]
                    .lines
                    .iter()
                    .any(|l| l.starts_with(&format!("{part}: "))),
                "{part}"
            );
        }
        // a bar that does not fit says what would make it fit
        let spatial = data.bars.iter().position(|p| p.strategy == Strategy::Spatial).unwrap();
        assert!(data.bars[spatial].memory_bytes > 16e9);
        assert!(drawn.targets[spatial].lines.iter().any(|l| l.contains("largest part")));
        // bars that do not fit reach up to three capacities, then are cut
        let tallest = data.bars.iter().map(|p| p.memory_bytes).fold(0.0, f64::max);
        assert!(tallest > 3.0 * 16e9);
        assert!((axis_top(&data) - 3.0 * 16e9 * 1.15).abs() < 1.0);
        assert!(
            drawn
                .svg
                .contains(&format!("↑ {}", units::bytes(data.bars[spatial].memory_bytes)))
        );
    }
}
