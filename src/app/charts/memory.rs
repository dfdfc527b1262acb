//! Memory per GPU of each strategy at the GPU budget, against the GPU's
//! capacity (log scale: strategies differ by orders of magnitude).

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::{
    Area, ChartError, Drawn, FONT, LEGEND_WIDTH, Swatch, Target, describe, fail, legend, log_bounds, render,
    strategy_color,
};
use crate::app::results::Results;
use crate::oracle::{Capacity, Projection, units};

/// The colour of a bar that does not fit.
const OVERFLOW: RGBColor = RGBColor(0xef, 0x6f, 0x6f);

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
        bars: super::comparison::data(results, chosen),
        fits: results.fits.clone(),
        capacity_bytes: results.capacity_bytes,
    }
}

/// Draws the bars and the capacity line.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(data: &MemoryData) -> Result<Drawn, ChartError> {
    render(|root, targets| {
        let values = data
            .bars
            .iter()
            .map(|p| p.memory_bytes)
            .chain(std::iter::once(data.capacity_bytes));
        let (Some((low, high)), false) = (log_bounds(values), data.bars.is_empty()) else {
            return Ok(false);
        };
        let names: Vec<&str> = data.bars.iter().map(|p| p.strategy.name()).collect();
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .margin_right(LEGEND_WIDTH)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .build_cartesian_2d((0..data.bars.len() - 1).into_segmented(), (low..high).log_scale())
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(format!("strategy at {} GPUs", data.bars[0].gpus))
            .y_desc("memory per GPU (log scale)")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).map_or(String::new(), |n| n.to_string()),
                _ => String::new(),
            })
            .y_label_formatter(&|v| units::bytes(*v))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .draw()
            .map_err(fail)?;
        for (i, p) in data.bars.iter().enumerate() {
            let over = p.memory_bytes > data.capacity_bytes;
            let color = if over { OVERFLOW } else { strategy_color(p.strategy) };
            let mut bar = Rectangle::new(
                [
                    (SegmentValue::Exact(i), low),
                    (SegmentValue::Exact(i + 1), p.memory_bytes),
                ],
                color.filled(),
            );
            bar.set_margin(0, 0, 14, 14);
            chart.draw_series(std::iter::once(bar)).map_err(fail)?;
            let top_left = chart.backend_coord(&(SegmentValue::Exact(i), p.memory_bytes));
            let bottom_right = chart.backend_coord(&(SegmentValue::Exact(i + 1), low));
            let mut lines = describe(p);
            if let Some(fit) = data.fits.iter().find(|f| f.strategy == p.strategy) {
                lines.push(match (fit.max_mini_batch, fit.max_samples_per_gpu) {
                    (Some(b), Some(per_gpu)) => {
                        format!(
                            "largest batch that fits: {b} ({} per GPU)",
                            units::significant(per_gpu, 4)
                        )
                    }
                    _ => "not even one sample fits".into(),
                });
            }
            targets.push(Target {
                area: Area::bar(top_left, bottom_right),
                lines,
            });
        }
        let end = data.bars.len();
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![
                    (SegmentValue::Exact(0), data.capacity_bytes),
                    (SegmentValue::Exact(end), data.capacity_bytes),
                ],
                BLACK.stroke_width(2),
            )))
            .map_err(fail)?;
        let mut entries = vec![(
            format!("GPU capacity {}", units::bytes(data.capacity_bytes)),
            Swatch::Line(BLACK),
        )];
        entries.push(("does not fit".to_string(), Swatch::Box(OVERFLOW)));
        legend(root, &entries)?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Strategy;

    #[test]
    fn bars_against_capacity() {
        let results = crate::app::results::default_results();
        let data = data(&results, &Strategy::ALL);
        assert_eq!(data.bars.len(), 7, "serial does not apply at 64 GPUs");
        let drawn = draw(&data).unwrap();
        assert!(drawn.svg.contains("GPU capacity 16 GB"));
        assert_eq!(drawn.targets.len(), 7);
        assert!(
            drawn.targets[0]
                .lines
                .iter()
                .any(|l| l.starts_with("largest batch that fits"))
        );
    }
}
