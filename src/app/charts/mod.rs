//! The plots: each module computes its data from the results apart from
//! drawing it, and draws with plotters into an SVG string together with
//! the places a pointer can hover for numbers.

pub mod accuracy;
pub mod comparison;
pub mod diagram;
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
/// Size of a plot's text as plotters takes it: plotters writes a size `s`
/// as CSS `font-size: s/1.24`, so 15 is 12.1 px at full size (the least
/// the page allows).
pub const TEXT_SIZE: u32 = 15;
/// Size of an axis's description (13 px).
pub const AXIS_SIZE: u32 = 16;

/// A plot drawn: its SVG and where its marks are.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// Its height in SVG units (its width is [`WIDTH`]).
    pub height: u32,
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
    /// The number a click on it explains, if any.
    pub explain: Option<crate::app::state::explain_target::ExplainTarget>,
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
    render_at(HEIGHT, draw)
}

/// [`render`] on an area `height` units tall (a short screen's plot keeps
/// its text size and gives up height).
///
/// # Errors
/// As [`render`].
pub fn render_at<F>(height: u32, draw: F) -> Result<Drawn, ChartError>
where
    F: FnOnce(&Root<'_>, &mut Vec<Target>) -> Result<bool, ChartError>,
{
    let mut svg = String::new();
    let mut targets = Vec::new();
    let painted = {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let painted = draw(&root, &mut targets)?;
        root.present().map_err(fail)?;
        painted
    };
    Ok(if painted {
        Drawn { svg, height, targets }
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
    /// A dashed line: colour, dash and gap in pixels.
    Dashed(RGBColor, u32, u32),
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
    // entries 19 units apart, closer on a short plot (never under the 13-unit text)
    let room = root.dim_in_pixel().1 as i32 - 30;
    let spacing = (room / entries.len().max(1) as i32).clamp(16, 20);
    for (i, (label, swatch)) in entries.iter().enumerate() {
        let y = 24 + spacing * i as i32;
        match *swatch {
            Swatch::Line(color) => root.draw(&PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))),
            Swatch::Dashed(color, dash, gap) => {
                let step = (dash + gap).max(1) as i32;
                let mut start = x;
                while start + (dash as i32) <= x + 24 {
                    root.draw(&PathElement::new(
                        vec![(start, y), (start + dash as i32, y)],
                        color.stroke_width(2),
                    ))
                    .map_err(fail)?;
                    start += step;
                }
                Ok(())
            }
            Swatch::Box(color) => root.draw(&Rectangle::new([(x + 4, y - 6), (x + 16, y + 6)], color.filled())),
        }
        .map_err(fail)?;
        root.draw(&Text::new(
            label.clone(),
            (x + 27, y - 7),
            (FONT, TEXT_SIZE).into_font(),
        ))
        .map_err(fail)?;
    }
    Ok(())
}

/// The colour of a strategy, the same in every plot: Okabe and Ito's
/// colour-blind-safe hues, darkened where needed so that each has at least
/// 3:1 contrast against the white background (WCAG 1.4.11).
pub fn strategy_color(strategy: Strategy) -> RGBColor {
    match strategy {
        Strategy::Serial => RGBColor(0x55, 0x55, 0x55),
        Strategy::Data => RGBColor(0x00, 0x72, 0xb2),
        Strategy::Spatial => RGBColor(0xd5, 0x5e, 0x00),
        Strategy::Pipeline => RGBColor(0x00, 0x9e, 0x73),
        Strategy::Filter => RGBColor(0x88, 0x22, 0x55),
        Strategy::Channel => RGBColor(0x7b, 0x5b, 0xa8),
        Strategy::DataFilter => RGBColor(0x9a, 0x74, 0x00),
        Strategy::DataSpatial => RGBColor(0xcc, 0x3d, 0x8a),
    }
}

/// The dash of a strategy's line `(dash, gap)` in pixels, `None` solid.
/// Colours that colour-blind readers may confuse (serial and filter, data
/// and channel, spatial and data+filter, pipeline and data+spatial) never
/// share a line style: model-parallel splits are dashed, the hybrids
/// dotted.
pub fn strategy_dash(strategy: Strategy) -> Option<(u32, u32)> {
    match strategy {
        Strategy::Serial | Strategy::Data | Strategy::Spatial | Strategy::Pipeline => None,
        Strategy::Filter | Strategy::Channel => Some((10, 4)),
        Strategy::DataFilter | Strategy::DataSpatial => Some((2, 4)),
    }
}

/// The legend swatch of a strategy's line.
pub fn strategy_swatch(strategy: Strategy) -> Swatch {
    let color = strategy_color(strategy);
    strategy_dash(strategy).map_or(Swatch::Line(color), |(dash, gap)| Swatch::Dashed(color, dash, gap))
}

/// The colour of compute (`None`) or a kind of communication.
pub fn part_color(kind: Option<CommKind>) -> RGBColor {
    match kind {
        None => RGBColor(0x00, 0x72, 0xb2),
        Some(CommKind::GradientAllreduce) => RGBColor(0xc2, 0x5e, 0x00),
        Some(CommKind::LayerCollectives) => RGBColor(0x88, 0x22, 0x55),
        Some(CommKind::Halo) => RGBColor(0x00, 0x9e, 0x73),
        Some(CommKind::Gather) => RGBColor(0x5e, 0x5e, 0x5e),
        Some(CommKind::PipelineP2p) => RGBColor(0x9a, 0x74, 0x00),
        Some(CommKind::WeightAllgather) => RGBColor(0xcc, 0x3d, 0x8a),
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
        .label_style((FONT, TEXT_SIZE))
        .axis_desc_style((FONT, AXIS_SIZE))
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
pub fn titled(drawn: &Drawn, lines: &[String]) -> (String, u32) {
    let svg = drawn.svg.as_str();
    if lines.is_empty() {
        return (svg.to_string(), drawn.height);
    }
    let header = CAPTION_LINE * lines.len() as u32 + 10;
    let height = drawn.height + header;
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
        let (size, weight) = if i == 0 { (15, "bold") } else { (12, "normal") };
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
            explain: None,
        };
        let bar = Target {
            area: Area::Bar {
                x: 300,
                y: 100,
                width: 40,
                height: 200,
            },
            lines: Vec::new(),
            explain: None,
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
        let (svg, height) = titled(&drawn, &lines);
        assert_eq!(height, HEIGHT + 2 * CAPTION_LINE + 10);
        assert!(svg.contains("ResNet50 on ABCI &lt;V100&gt;, 64 GPUs"));
        assert!(svg.contains("http://host/?s=abc&amp;x"));
        assert!(svg.contains(&format!("<svg y=\"{}\" ", 2 * CAPTION_LINE + 10)));
        assert_eq!(svg.matches("<svg").count(), 2, "the plot nested once");
        assert!(svg.ends_with("</svg></svg>") || svg.trim_end().ends_with("</svg>"));
        assert_eq!(titled(&drawn, &[]), (drawn.svg.clone(), HEIGHT));
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
        cluster.gpus_per_node = 1;
        let inputs = Inputs {
            cluster: ClusterSource::Custom(Box::new(cluster)),
            gpus: 1,
            strategies: vec![Strategy::Serial],
            ..Inputs::default()
        };
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        let scaling = scaling::draw(&scaling::data(&results), super::HEIGHT).unwrap();
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
            model: ModelSource::Custom(Box::new(spec)),
            fidelity: crate::oracle::Fidelity::Ideal,
            ..Inputs::default()
        };
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        assert!(results.sweep.iter().all(|p| p.compute_s == 0.0));
        let drawn = scaling::draw(&scaling::data(&results), super::HEIGHT).unwrap();
        // communication latency still takes time, so there are points to draw
        assert_eq!(drawn.targets.len(), results.sweep.len());
        assert!(!drawn.targets.is_empty());
        assert!(drawn.targets.iter().all(|t| matches!(t.area, Area::Point { .. })));
        assert!(comparison::draw(&comparison::data(&results, &inputs.strategies)).is_ok());
        assert!(memory::draw(&memory::data(&results, &inputs.strategies)).is_ok());
    }
}

/// Checks that mark `i` of `drawn` sits by `values[i] = (x, y)`: a value
/// larger by more than 5% sits further right (x) or higher (y).
#[cfg(test)]
pub fn assert_placed_by(drawn: &Drawn, values: &[(f64, f64)]) {
    assert_eq!(drawn.targets.len(), values.len());
    let at = |i: usize| match drawn.targets[i].area {
        Area::Point { x, y } | Area::Bar { x, y, .. } => (x, y),
    };
    for (i, a) in values.iter().enumerate() {
        for (j, b) in values.iter().enumerate() {
            if a.1 > b.1 * 1.05 {
                assert!(at(i).1 < at(j).1, "{i} above {j}");
            }
            if a.0 > b.0 * 1.05 {
                assert!(at(i).0 > at(j).0, "{i} right of {j}");
            }
        }
    }
}

#[cfg(test)]
mod palette_tests {
    //! The palette against WCAG's contrast ratio and simulated colour
    //! vision deficiencies (Machado, Oliveira and Fernandes 2009, severity
    //! 1.0), in CIELAB distances.
    use super::*;

    fn linear(c: u8) -> f64 {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }

    fn rgb(c: RGBColor) -> [f64; 3] {
        [linear(c.0), linear(c.1), linear(c.2)]
    }

    fn contrast_on_white(c: RGBColor) -> f64 {
        let [r, g, b] = rgb(c);
        1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)
    }

    const DEUTAN: [[f64; 3]; 3] = [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ];
    const PROTAN: [[f64; 3]; 3] = [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ];

    fn seen(c: [f64; 3], m: &[[f64; 3]; 3]) -> [f64; 3] {
        m.map(|row| (row[0] * c[0] + row[1] * c[1] + row[2] * c[2]).clamp(0.0, 1.0))
    }

    fn lab([r, g, b]: [f64; 3]) -> [f64; 3] {
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
        a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
    }

    #[test]
    fn every_colour_stands_out_from_the_background() {
        for s in Strategy::ALL {
            assert!(contrast_on_white(strategy_color(s)) >= 3.0, "{s}");
        }
        for k in CommKind::ALL {
            assert!(contrast_on_white(part_color(Some(k))) >= 3.0, "{k}");
        }
        assert!(contrast_on_white(part_color(None)) >= 3.0);
        for p in crate::oracle::Part::ALL {
            assert!(contrast_on_white(memory::part_color(p)) >= 3.0, "{p:?}");
        }
    }

    #[test]
    fn strategies_that_share_a_line_style_differ_for_colour_blind_readers() {
        for (i, a) in Strategy::ALL.iter().enumerate() {
            for b in &Strategy::ALL[i + 1..] {
                if strategy_dash(*a) != strategy_dash(*b) {
                    continue;
                }
                let (ca, cb) = (rgb(strategy_color(*a)), rgb(strategy_color(*b)));
                for (vision, m) in [("deutan", &DEUTAN), ("protan", &PROTAN)] {
                    let d = distance(lab(seen(ca, m)), lab(seen(cb, m)));
                    assert!(d >= 15.0, "{a} and {b} under {vision}: ΔE {d:.1}");
                }
                assert!(distance(lab(ca), lab(cb)) >= 15.0, "{a} and {b}");
            }
        }
    }
}
