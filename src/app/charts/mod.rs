//! The plots: each module computes its data from the results apart from
//! drawing it, and draws with plotters into an SVG string together with
//! the places a pointer can hover for numbers.

pub mod accuracy;
pub mod comparison;
pub mod memory;
pub mod plan;
pub mod scaling;
pub mod stacked;

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::prelude::*;
use plotters::style::RGBColor;

use crate::oracle::{CommKind, Projection, Strategy, units};

/// Drawing size in SVG units (the page scales it).
pub const WIDTH: u32 = 760;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 430;
/// Font of every label.
pub const FONT: &str = "sans-serif";

/// A plot drawn: its SVG and where its marks are.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// Marks that show numbers on hover.
    pub targets: Vec<Target>,
}

/// Where a mark sits, in SVG units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Area {
    /// A point marker.
    Point {
        /// Centre x.
        x: i32,
        /// Centre y.
        y: i32,
    },
    /// A bar.
    Bar {
        /// Left.
        x: i32,
        /// Top.
        y: i32,
        /// Width.
        width: i32,
        /// Height.
        height: i32,
    },
}

impl Area {
    /// The bar between two corners in SVG units (at least one unit wide and high).
    pub fn bar((left, top): (i32, i32), (right, bottom): (i32, i32)) -> Self {
        Self::Bar {
            x: left,
            y: top,
            width: (right - left).max(1),
            height: (bottom - top).max(1),
        }
    }
}

/// A mark and the numbers it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    /// Where it is.
    pub area: Area,
    /// Lines of text: a title then the numbers.
    pub lines: Vec<String>,
}

/// A plot that could not be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the plot could not be drawn: {0}")]
pub struct ChartError(pub String);

/// The drawing area a plot draws on.
pub type Root<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Draws a plot into an SVG string: `draw` paints on a white area of
/// [`WIDTH`] × [`HEIGHT`] and records its hover targets; it answers
/// whether there was anything to draw (if not, the drawing is empty).
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn render<F>(draw: F) -> Result<Drawn, ChartError>
where
    F: FnOnce(&Root<'_>, &mut Vec<Target>) -> Result<bool, ChartError>,
{
    let mut svg = String::new();
    let mut targets = Vec::new();
    let painted = {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let painted = draw(&root, &mut targets)?;
        root.present().map_err(fail)?;
        painted
    };
    Ok(if painted {
        Drawn { svg, targets }
    } else {
        Drawn::default()
    })
}

/// Turns a plotters error into a [`ChartError`].
pub fn fail(error: impl std::fmt::Display) -> ChartError {
    ChartError(error.to_string())
}

/// Width kept on the right of every plot for its legend.
pub const LEGEND_WIDTH: u32 = 175;

/// How a legend entry shows its series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line.
    Dashed(RGBColor),
    /// A filled box.
    Box(RGBColor),
}

/// Draws a legend in the right margin of `root`, outside the plotting area
/// so that it hides no data.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    entries: &[(String, Swatch)],
) -> Result<(), ChartError> {
    let x = (WIDTH - LEGEND_WIDTH + 14) as i32;
    for (i, (label, swatch)) in entries.iter().enumerate() {
        let y = 24 + 19 * i as i32;
        match *swatch {
            Swatch::Line(color) => root.draw(&PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))),
            Swatch::Dashed(color) => {
                root.draw(&PathElement::new(vec![(x, y), (x + 7, y)], color.stroke_width(2)))
                    .map_err(fail)?;
                root.draw(&PathElement::new(vec![(x + 12, y), (x + 20, y)], color.stroke_width(2)))
            }
            Swatch::Box(color) => root.draw(&Rectangle::new([(x + 4, y - 6), (x + 16, y + 6)], color.filled())),
        }
        .map_err(fail)?;
        root.draw(&Text::new(label.clone(), (x + 27, y - 7), (FONT, 13).into_font()))
            .map_err(fail)?;
    }
    Ok(())
}

/// The colour of a strategy, the same in every plot.
pub fn strategy_color(strategy: Strategy) -> RGBColor {
    match strategy {
        Strategy::Serial => RGBColor(0x55, 0x55, 0x55),
        Strategy::Data => RGBColor(0x1f, 0x77, 0xb4),
        Strategy::Spatial => RGBColor(0xff, 0x7f, 0x0e),
        Strategy::Pipeline => RGBColor(0x2c, 0xa0, 0x2c),
        Strategy::Filter => RGBColor(0xd6, 0x27, 0x28),
        Strategy::Channel => RGBColor(0x94, 0x67, 0xbd),
        Strategy::DataFilter => RGBColor(0x8c, 0x56, 0x4b),
        Strategy::DataSpatial => RGBColor(0xe3, 0x77, 0xc2),
    }
}

/// The colour of compute (`None`) or a kind of communication.
pub fn part_color(kind: Option<CommKind>) -> RGBColor {
    match kind {
        None => RGBColor(0x4c, 0x78, 0xa8),
        Some(CommKind::GradientAllreduce) => RGBColor(0xf5, 0x85, 0x18),
        Some(CommKind::LayerCollectives) => RGBColor(0xe4, 0x57, 0x56),
        Some(CommKind::Halo) => RGBColor(0x72, 0xb7, 0xb2),
        Some(CommKind::Gather) => RGBColor(0x54, 0xa2, 0x4b),
        Some(CommKind::PipelineP2p) => RGBColor(0xee, 0xca, 0x3b),
        Some(CommKind::WeightAllgather) => RGBColor(0xb0, 0x7a, 0xa1),
    }
}

/// The hover text of a projection.
pub fn describe(p: &Projection) -> Vec<String> {
    let mut lines = vec![
        format!("{} on {} GPUs, batch {}", p.strategy, p.gpus, p.mini_batch),
        format!(
            "epoch {} = compute {} + communication {}",
            units::seconds(p.total_s),
            units::seconds(p.compute_s),
            units::seconds(p.communication_s)
        ),
        format!(
            "memory {} of {} per GPU; {} GPU-hours",
            units::bytes(p.memory_bytes),
            units::bytes(p.memory_capacity_bytes),
            units::significant(p.gpu_hours, 4)
        ),
    ];
    if p.feasible {
        lines.push("feasible".into());
    } else {
        let names: Vec<&str> = p.violations.iter().map(|v| v.label()).collect();
        lines.push(format!("infeasible: {}", names.join(", ")));
    }
    lines
}

/// A tick label of a GPU count (binary prefixes, as counts are powers of
/// two): `1`, `64`, `4k`, `1M`.
pub fn count_label(value: f64) -> String {
    const BINARY: [(f64, &str); 4] = [
        (1099511627776.0, "T"),
        (1073741824.0, "G"),
        (1048576.0, "M"),
        (1024.0, "k"),
    ];
    let (value, prefix) = units::with_prefix(value, &BINARY);
    format!("{}{prefix}", units::significant(value, 3))
}

/// A log-log chart context on an SVG area.
pub type LogLog<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// How a log-log chart's axes read: `(description, tick label)` of x, then y.
pub type Axes<'f> = [(&'f str, &'f dyn Fn(&f64) -> String); 2];

/// A log-log chart over `x` and `y` (low, high), left of the legend, with
/// its axes and labels drawn as every plot draws them.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn log_log<'a, 'b>(
    root: &'a Root<'b>,
    (x_low, x_high): (f64, f64),
    (y_low, y_high): (f64, f64),
    [(x_desc, x_label), (y_desc, y_label)]: Axes<'_>,
) -> Result<LogLog<'a, 'b>, ChartError> {
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(LEGEND_WIDTH)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d((x_low..x_high).log_scale(), (y_low..y_high).log_scale())
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(x_label)
        .y_label_formatter(y_label)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail)?;
    Ok(chart)
}

/// How far from a mark, in SVG units, the pointer still shows its numbers.
pub const REACH: f64 = 24.0;

/// The mark nearest to `(x, y)` (SVG units) within `reach`: a point by its
/// centre, a bar by its nearest edge (0 inside it). Overlapping marks do
/// not hide each other: the nearest one wins.
pub fn nearest(targets: &[Target], x: f64, y: f64, reach: f64) -> Option<usize> {
    let distance = |area: &Area| match *area {
        Area::Point { x: px, y: py } => (f64::from(px) - x).hypot(f64::from(py) - y),
        Area::Bar {
            x: bx,
            y: by,
            width,
            height,
        } => {
            let dx = (f64::from(bx) - x).max(x - f64::from(bx + width)).max(0.0);
            let dy = (f64::from(by) - y).max(y - f64::from(by + height)).max(0.0);
            dx.hypot(dy)
        }
    };
    targets
        .iter()
        .enumerate()
        .map(|(i, t)| (i, distance(&t.area)))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// Height of one caption line of an exported plot, in SVG units.
const CAPTION_LINE: u32 = 18;

/// An exported plot: `svg` under a header of caption `lines` (what it
/// shows and the link that reproduces it), so that a figure pasted into
/// slides says what it is. Returns the new SVG and its height.
pub fn titled(svg: &str, lines: &[String]) -> (String, u32) {
    if lines.is_empty() {
        return (svg.to_string(), HEIGHT);
    }
    let header = CAPTION_LINE * lines.len() as u32 + 10;
    let height = HEIGHT + header;
    let escape = |t: &str| {
        t.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\"><rect width=\"{WIDTH}\" height=\"{height}\" fill=\"white\"/>"
    );
    for (i, line) in lines.iter().enumerate() {
        let (size, weight) = if i == 0 { (15, "bold") } else { (11, "normal") };
        out.push_str(&format!(
            "<text x=\"12\" y=\"{}\" font-family=\"{FONT}\" font-size=\"{size}\" font-weight=\"{weight}\">{}</text>",
            CAPTION_LINE * (i as u32 + 1),
            escape(line)
        ));
    }
    // the plot itself, below the header (a nested svg keeps its own viewBox)
    let body = svg.trim_start_matches(|c| c != '<');
    let body = body.replacen("<svg ", &format!("<svg y=\"{header}\" "), 1);
    out.push_str(&body);
    out.push_str("</svg>");
    (out, height)
}

/// Log-axis bounds around positive values, padded by a quarter decade.
pub fn log_bounds(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (high > 0.0).then(|| {
        let high = if high > low { high } else { low * 10.0 };
        (low / 1.8, high * 1.8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_mark_wins() {
        let point = |x, y| Target {
            area: Area::Point { x, y },
            lines: Vec::new(),
        };
        let bar = Target {
            area: Area::Bar {
                x: 300,
                y: 100,
                width: 40,
                height: 200,
            },
            lines: Vec::new(),
        };
        // two points 6 units apart, overlapping markers: the closer one wins
        let targets = vec![point(100, 100), point(106, 100), bar];
        assert_eq!(nearest(&targets, 101.0, 100.0, REACH), Some(0));
        assert_eq!(nearest(&targets, 105.0, 101.0, REACH), Some(1));
        assert_eq!(nearest(&targets, 320.0, 250.0, REACH), Some(2), "inside a bar");
        assert_eq!(
            nearest(&targets, 350.0, 250.0, REACH),
            Some(2),
            "beside it, within reach"
        );
        assert_eq!(nearest(&targets, 500.0, 400.0, REACH), None);
        assert_eq!(nearest(&[], 1.0, 1.0, REACH), None);
    }

    #[test]
    fn an_exported_plot_carries_its_caption_above_it() {
        let drawn = render(|_, _| Ok(true)).unwrap();
        let lines = vec![
            "Scaling: ResNet50 on ABCI <V100>, 64 GPUs".to_string(),
            "http://host/?s=abc&x".to_string(),
        ];
        let (svg, height) = titled(&drawn.svg, &lines);
        assert_eq!(height, HEIGHT + 2 * CAPTION_LINE + 10);
        assert!(svg.contains("ResNet50 on ABCI &lt;V100&gt;, 64 GPUs"));
        assert!(svg.contains("http://host/?s=abc&amp;x"));
        assert!(svg.contains(&format!("<svg y=\"{}\" ", 2 * CAPTION_LINE + 10)));
        assert_eq!(svg.matches("<svg").count(), 2, "the plot nested once");
        assert!(svg.ends_with("</svg></svg>") || svg.trim_end().ends_with("</svg>"));
        assert_eq!(titled(&drawn.svg, &[]), (drawn.svg.clone(), HEIGHT));
    }

    #[test]
    fn helpers() {
        assert_eq!(count_label(4096.0), "4k");
        assert_eq!(count_label(1536.0), "1.5k");
        assert_eq!(count_label(1048576.0), "1M");
        assert_eq!(count_label(64.0), "64");
        assert_eq!(
            log_bounds([2.0, 8.0, 0.0, f64::NAN].into_iter()),
            Some((2.0 / 1.8, 8.0 * 1.8))
        );
        assert_eq!(log_bounds([0.0].into_iter()), None);
        assert_eq!(log_bounds([5.0].into_iter()), Some((5.0 / 1.8, 90.0)));
    }
}

#[cfg(test)]
mod edge_tests {
    use super::*;
    use crate::app::results::Results;
    use crate::app::state::inputs::{ClusterSource, Inputs, ModelSource};
    use crate::oracle::presets;

    /// One GPU, one strategy: one point, one bar.
    #[test]
    fn a_single_gpu_and_strategy_still_draws() {
        let mut cluster = presets::cluster("abci").unwrap().spec().clone();
        cluster.max_gpus = 1;
        let inputs = Inputs {
            cluster: ClusterSource::Custom(Box::new(cluster)),
            gpus: 1,
            strategies: vec![Strategy::Serial],
            ..Inputs::default()
        };
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        let scaling = scaling::draw(&scaling::data(&results)).unwrap();
        assert_eq!(scaling.targets.len(), 1);
        let bars = comparison::data(&results, &inputs.strategies);
        assert_eq!(comparison::draw(&bars).unwrap().targets.len(), 1);
        let memory = memory::draw(&memory::data(&results, &inputs.strategies)).unwrap();
        assert_eq!(memory.targets.len(), 1);
    }

    /// A network without compute (only dropout) has nothing to put on a log axis.
    #[test]
    fn zero_times_draw_nothing_rather_than_fail() {
        let mut spec = presets::network("alexnet").unwrap().spec().clone();
        for layer in &mut spec.layers {
            layer.time_s = None;
            if layer.kind != crate::oracle::LayerKind::Dropout {
                layer.kind = crate::oracle::LayerKind::Other;
                layer.w = Default::default();
            }
        }
        // the ideal edition: in the realistic one memory traffic takes time even without FLOPs
        let inputs = Inputs {
            model: ModelSource::Custom(spec),
            fidelity: crate::oracle::Fidelity::Ideal,
            ..Inputs::default()
        };
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        assert!(results.sweep.iter().all(|p| p.compute_s == 0.0));
        let drawn = scaling::draw(&scaling::data(&results)).unwrap();
        // communication latency still takes time, so there are points to draw
        assert_eq!(drawn.targets.len(), results.sweep.len());
        assert!(!drawn.targets.is_empty());
        assert!(drawn.targets.iter().all(|t| matches!(t.area, Area::Point { .. })));
        assert!(comparison::draw(&comparison::data(&results, &inputs.strategies)).is_ok());
        assert!(memory::draw(&memory::data(&results, &inputs.strategies)).is_ok());
    }
}
