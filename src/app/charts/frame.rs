//! What every plot is drawn on: its size and text, the SVG it renders to
//! with the marks it records, its legend and its log-log axes.

use plotters::coord::Shift;
use plotters::coord::combinators::{BindKeyPoints, LogCoord, WithKeyPoints};
use plotters::prelude::*;

use crate::oracle::units;

/// Drawing size in SVG units (the page scales it).
pub const WIDTH: u32 = 760;
/// See [`WIDTH`].
pub const HEIGHT: u32 = 430;
/// Width of a phone's drawing: the content width of a 360 px phone, so
/// that its text stays 12 px and nothing scrolls sideways (760 units
/// scroll, or shrink to 6 px).
pub const NARROW_WIDTH: u32 = 330;
/// Rows of a legend drawn under a narrow plot (two entries a row).
const LEGEND_ROWS: u32 = 6;
/// Height of a legend row under a narrow plot.
const LEGEND_ROW: u32 = 19;
/// Height kept under a narrow plot for its legend.
pub const LEGEND_BELOW: u32 = LEGEND_ROWS * LEGEND_ROW + 8;

/// The size a plot is drawn at, in SVG units. A canvas narrower than
/// [`WIDTH`] puts the legend under the plot instead of on its right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Canvas {
    pub width: u32,
    /// Height (a narrow one's includes its legend).
    pub height: u32,
}

impl Canvas {
    /// A wide screen's plot.
    pub const WIDE: Self = Self {
        width: WIDTH,
        height: HEIGHT,
    };
    /// A phone's plot: [`NARROW_WIDTH`] wide, the legend under it.
    pub const PHONE: Self = Self {
        width: NARROW_WIDTH,
        height: 300 + LEGEND_BELOW,
    };

    /// Whether the legend goes under the plot.
    pub fn legend_below(self) -> bool {
        self.width < WIDTH
    }

    /// The canvas of a drawing area.
    pub fn of<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>) -> Self {
        let (width, height) = root.dim_in_pixel();
        Self { width, height }
    }

    /// The margins `(right, bottom)` a chart keeps for the legend.
    pub fn legend_margins(self) -> (u32, u32) {
        if self.legend_below() {
            (12, LEGEND_BELOW + 12)
        } else {
            (LEGEND_WIDTH, 12)
        }
    }
}
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
    /// Its width in SVG units.
    pub width: u32,
    /// Its height in SVG units.
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
        width: i32,
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
    pub explain: Option<crate::app::input::explain_target::ExplainTarget>,
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
    render_on(Canvas::WIDE, draw)
}

/// [`render`] on a `canvas` (a short screen's plot keeps its text size and
/// gives up height; a phone's is narrow, its legend below).
///
/// # Errors
/// As [`render`].
pub fn render_on<F>(canvas: Canvas, draw: F) -> Result<Drawn, ChartError>
where
    F: FnOnce(&Root<'_>, &mut Vec<Target>) -> Result<bool, ChartError>,
{
    let Canvas { width, height } = canvas;
    let mut svg = String::new();
    let mut targets = Vec::new();
    DASHES.with(|d| d.borrow_mut().clear());
    let painted = {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        let painted = draw(&root, &mut targets)?;
        root.present().map_err(fail)?;
        painted
    };
    let svg = DASHES.with(|d| {
        d.borrow().iter().enumerate().fold(svg, |svg, (i, (color, dash, gap))| {
            svg.replace(
                &format!("stroke=\"{}\"", hex(stand_in(i))),
                &format!("stroke=\"{}\" stroke-dasharray=\"{dash} {gap}\"", hex(*color)),
            )
        })
    });
    Ok(if painted {
        Drawn {
            svg,
            width,
            height,
            targets,
        }
    } else {
        Drawn::default()
    })
}

thread_local! {
    /// The dashed lines of the plot being drawn: colour, dash and gap.
    static DASHES: std::cell::RefCell<Vec<(RGBColor, u32, u32)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The colour standing in for the `index`th dashed line while drawing
/// (a colour no plot uses: red 1, green 2).
fn stand_in(index: usize) -> RGBColor {
    RGBColor(0x01, 0x02, index as u8)
}

/// A colour as plotters writes it in SVG (`#0072B2`).
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The style of a dashed line `width` units wide: drawn as one solid line
/// in a stand-in colour, which [`render_on`] turns into `color` with an SVG
/// dash pattern (plotters' own dashed series writes an element per dash:
/// hundreds a plot). Past 256 dashed lines in a plot, lines are solid.
pub fn dashed(color: RGBColor, dash: u32, gap: u32, width: u32) -> ShapeStyle {
    DASHES.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() > usize::from(u8::MAX) {
            return color.stroke_width(width);
        }
        d.push((color, dash, gap));
        stand_in(d.len() - 1).stroke_width(width)
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
    let canvas = Canvas::of(root);
    // entries 19 units apart, closer on a short plot (never under the 13-unit text); under a
    // narrow plot, two a row
    let room = canvas.height as i32 - 30;
    let spacing = (room / entries.len().max(1) as i32).clamp(16, 20);
    let rows = entries.len().div_ceil(2).max(1) as i32;
    for (i, (label, swatch)) in entries.iter().enumerate() {
        let (x, y) = if canvas.legend_below() {
            let (column, row) = (i as i32 / rows, i as i32 % rows);
            // the second column a little left of the middle: its labels are the longer ones
            (
                4 + column * (canvas.width as i32 / 2 - 10),
                (canvas.height - LEGEND_BELOW) as i32 + 14 + row * LEGEND_ROW as i32,
            )
        } else {
            ((WIDTH - LEGEND_WIDTH + 14) as i32, 24 + spacing * i as i32)
        };
        match *swatch {
            Swatch::Line(color) => root.draw(&PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))),
            Swatch::Dashed(color, dash, gap) => root.draw(&PathElement::new(
                vec![(x, y), (x + 24, y)],
                dashed(color, dash, gap, 2),
            )),
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

/// A log axis with the ticks of [`log_ticks`].
pub type LogAxis = WithKeyPoints<LogCoord<f64>>;

/// A log-log chart context on an SVG area.
pub type LogLog<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogAxis, LogAxis>>;

/// Where a log axis puts its labelled ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ticks {
    /// At powers of two (GPU counts: 1, 2, 4, ...).
    Doubling,
    /// At 1, 2 and 5 times powers of ten.
    Decades,
}

/// The most labelled ticks on a log axis (at 12 px text, more overlap).
const MAX_TICKS: usize = 7;

/// The labelled ticks of a log axis over `low..high`: every candidate of
/// `ticks` in the range, thinned (every other, then every fourth, ...)
/// to at most [`MAX_TICKS`], the first kept.
pub fn log_ticks(low: f64, high: f64, ticks: Ticks) -> Vec<f64> {
    if !(low > 0.0 && high > low && high.is_finite()) {
        return Vec::new();
    }
    let mut candidates: Vec<f64> = match ticks {
        Ticks::Doubling => {
            let first = low.log2().ceil().max(0.0) as i32;
            let last = high.log2().floor() as i32;
            (first..=last).map(|k| 2f64.powi(k)).collect()
        }
        Ticks::Decades => {
            let first = low.log10().floor() as i32;
            let last = high.log10().ceil() as i32;
            let all: Vec<f64> = (first..=last)
                .flat_map(|k| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(k)))
                .filter(|v| (low..=high).contains(v))
                .collect();
            if all.len() > MAX_TICKS {
                all.into_iter()
                    .filter(|v| (v.log10().round() - v.log10()).abs() < 1e-9)
                    .collect()
            } else {
                all
            }
        }
    };
    let mut step = 1;
    while candidates.len().div_ceil(step) > MAX_TICKS {
        step *= 2;
    }
    candidates = candidates.into_iter().step_by(step).collect();
    candidates
}

/// How a log-log chart's axes read: `(description, tick label)` of x, then y.
pub type Axes<'f> = [(&'f str, &'f dyn Fn(&f64) -> String); 2];

/// A log-log chart over `x` and `y` (low, high), left of the legend, with
/// its axes and labels drawn as every plot draws them.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn log_log<'a, 'b>(
    root: &'a Root<'b>,
    (x_low, x_high, x_ticks): (f64, f64, Ticks),
    (y_low, y_high): (f64, f64),
    [(x_desc, x_label), (y_desc, y_label)]: Axes<'_>,
) -> Result<LogLog<'a, 'b>, ChartError> {
    let axis = |low: f64, high: f64, ticks: Ticks| (low..high).log_scale().with_key_points(log_ticks(low, high, ticks));
    let (right, bottom) = Canvas::of(root).legend_margins();
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(right)
        .margin_bottom(bottom)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(axis(x_low, x_high, x_ticks), axis(y_low, y_high, Ticks::Decades))
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(x_label)
        .y_label_formatter(y_label)
        .label_style((FONT, TEXT_SIZE))
        .axis_desc_style((FONT, AXIS_SIZE))
        // minor gridlines unpainted (zero alpha: the SVG has none): between
        // the few labelled ones they read as hatching (0 light lines
        // overflows in plotters' key points)
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(fail)?;
    Ok(chart)
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
    use crate::app::charts::frame::*;

    #[test]
    fn log_axes_label_few_readable_ticks() {
        assert_eq!(log_ticks(1.0, 5.6, Ticks::Doubling), [1.0, 2.0, 4.0]);
        assert_eq!(
            log_ticks(40.0, 1500.0, Ticks::Doubling),
            [64.0, 128.0, 256.0, 512.0, 1024.0]
        );
        let wide = log_ticks(1.0, 5734.0, Ticks::Doubling);
        assert_eq!(wide, [1.0, 4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0]);
        assert_eq!(log_ticks(0.3, 40.0, Ticks::Decades), [0.5, 1.0, 2.0, 5.0, 10.0, 20.0]);
        assert_eq!(log_ticks(0.01, 1e5, Ticks::Decades), [0.01, 1.0, 100.0, 1e4]);
        assert!(log_ticks(0.0, 1.0, Ticks::Decades).is_empty());
    }

    #[test]
    fn a_dashed_line_is_one_element_with_a_dash_pattern_in_its_colour() {
        let wine = RGBColor(0x88, 0x22, 0x55);
        let drawn = render(|root, _| {
            let points: Vec<(i32, i32)> = (0..40).map(|i| (10 * i, 5 * i)).collect();
            root.draw(&PathElement::new(points, dashed(wine, 12, 4, 2)))
                .map_err(fail)?;
            legend(root, &[("filter".into(), Swatch::Dashed(wine, 12, 4))])?;
            Ok(true)
        })
        .unwrap();
        let lines: Vec<&str> = drawn.svg.split("<polyline").skip(1).collect();
        assert_eq!(lines.len(), 2, "the line and its legend swatch: {}", drawn.svg);
        for line in lines {
            assert!(line.contains("stroke=\"#882255\" stroke-dasharray=\"12 4\""), "{line}");
        }
        assert!(!drawn.svg.contains("#0102"), "no stand-in colour left");
        // the next plot starts with no dashes of its own
        let plain = render(|root, _| {
            root.draw(&PathElement::new(vec![(0, 0), (9, 9)], stand_in(0).stroke_width(1)))
                .map_err(fail)?;
            Ok(true)
        })
        .unwrap();
        assert!(!plain.svg.contains("stroke-dasharray"));
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
