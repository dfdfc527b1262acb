//! Stacked bars, one per strategy, cut at the top of the axis and labelled
//! with their total when taller: the drawing shared by the time and the
//! memory comparisons.

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::app::charts::{AXIS_SIZE, Area, Canvas, ChartError, FONT, Root, Swatch, TEXT_SIZE, Target, fail, legend};

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Stack {
    /// The label under it.
    pub name: String,
    /// Its parts, bottom to top, in the order of the chart's parts.
    pub values: Vec<f64>,
    /// Drawn pale and marked ✗ (infeasible).
    pub faded: bool,
    /// What its value is, for the label of a cut bar (`↑ 3.2 h`).
    pub total: String,
    /// Its hover text.
    pub lines: Vec<String>,
    /// The number a click on it explains.
    pub explain: Option<crate::app::input::explain_target::ExplainTarget>,
}

/// The chart around the bars.
#[derive(Debug, Clone)]
pub struct Frame<'a> {
    /// The parts: label and colour.
    pub parts: &'a [(&'a str, RGBColor)],
    /// The top of the value axis (taller bars are cut).
    pub top: f64,
    /// What the bars are (x axis).
    pub x_desc: String,
    /// What the values are (y axis).
    pub y_desc: &'a str,
    /// Writes a value on the y axis.
    pub y_label: fn(f64) -> String,
    /// A horizontal line across the bars (a capacity), with its legend.
    pub reference: Option<(f64, String)>,
    /// The legend entry of faded bars.
    pub faded_legend: &'a str,
}

/// The top of a value axis, set by the feasible bars (`(total, feasible)`;
/// all of them when none is): the tallest, or `clip` times the shortest
/// positive one when that is lower, with room above. Taller bars are cut.
pub fn axis_top(bars: impl Iterator<Item = (f64, bool)> + Clone, clip: f64) -> f64 {
    let any_feasible = bars.clone().any(|(_, feasible)| feasible);
    let totals = bars
        .filter(move |(_, feasible)| *feasible || !any_feasible)
        .map(|(t, _)| t);
    let positive = || totals.clone().filter(|t| *t > 0.0);
    let tallest = positive().fold(0.0, f64::max);
    let shortest = positive().fold(f64::INFINITY, f64::min);
    let top = if tallest > clip * shortest {
        clip * shortest
    } else {
        tallest
    };
    top.max(f64::MIN_POSITIVE) * 1.15
}

/// Draws the bars with their hover targets and the legend of the parts
/// used; answers whether there was anything to draw.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(
    root: &Root<'_>,
    targets: &mut Vec<Target>,
    frame: &Frame<'_>,
    stacks: &[Stack],
) -> Result<bool, ChartError> {
    if stacks.is_empty() {
        return Ok(false);
    }
    let top = frame.top;
    let names: Vec<&str> = stacks.iter().map(|s| s.name.as_str()).collect();
    let canvas = Canvas::of(root);
    let (right, bottom) = canvas.legend_margins();
    // a narrow plot's bar names stand upright (side by side they would overlap)
    let narrow = canvas.legend_below();
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(right)
        .margin_bottom(bottom)
        .x_label_area_size(if narrow { 100 } else { 44 })
        .y_label_area_size(72)
        // one bar still needs a range of two slots, or plotters divides by
        // a zero width and draws rectangles of negative width
        .build_cartesian_2d((0..stacks.len().max(2) - 1).into_segmented(), 0f64..top)
        .map_err(fail)?;
    let y_label = frame.y_label;
    chart
        .configure_mesh()
        .disable_x_mesh()
        // minor gridlines unpainted (zero alpha: the SVG has none): between
        // the few labelled ones they read as hatching (0 light lines
        // overflows in plotters' key points)
        .light_line_style(WHITE.mix(0.0))
        .x_desc(frame.x_desc.clone())
        .y_desc(frame.y_desc)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if !narrow => names.get(*i).map_or(String::new(), |n| n.to_string()),
            _ => String::new(),
        })
        .y_label_formatter(&|v| y_label(*v))
        .label_style((FONT, TEXT_SIZE))
        .axis_desc_style((FONT, AXIS_SIZE))
        .draw()
        .map_err(fail)?;
    let mut entries = Vec::new();
    // a pale bar is pale above the reference line (its capacity) only:
    // what fits keeps its colour, what misses is plain to see
    let pale_from = frame.reference.as_ref().map_or(0.0, |(value, _)| *value);
    for (k, &(label, color)) in frame.parts.iter().enumerate() {
        let used = stacks.iter().any(|s| s.values.get(k).is_some_and(|v| *v > 0.0));
        let series = stacks.iter().enumerate().flat_map(|(i, s)| {
            let base: f64 = s.values.iter().take(k).sum();
            let end = base + s.values.get(k).copied().unwrap_or(0.0).min((top - base).max(0.0));
            let split = if s.faded { pale_from.clamp(base, end) } else { end };
            [(base, split, color.filled()), (split, end, color.mix(0.35).filled())]
                .into_iter()
                .filter(|(low, high, _)| high > low)
                .map(move |(low, high, style)| {
                    let mut bar = Rectangle::new(
                        [(SegmentValue::Exact(i), low), (SegmentValue::Exact(i + 1), high)],
                        style,
                    );
                    bar.set_margin(0, 0, 14, 14);
                    bar
                })
        });
        chart.draw_series(series).map_err(fail)?;
        if used {
            entries.push((label.to_string(), Swatch::Box(color)));
        }
    }
    if narrow {
        // upright, reading down from under each bar
        let style = TextStyle::from((FONT, TEXT_SIZE).into_font().transform(FontTransform::Rotate90))
            .pos(Pos::new(HPos::Left, VPos::Center));
        for (i, name) in names.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(SegmentValue::CenterOf(i), 0.0));
            root.draw(&Text::new(name.to_string(), (x, y + 8), style.clone()))
                .map_err(fail)?;
        }
    }
    // cut bars' labels take turns on this many lines, so that neighbours never touch
    // (a narrow plot's bars are half a label wide)
    let lines = if narrow { 3 } else { 2 };
    let mut cut = 0;
    for (i, s) in stacks.iter().enumerate() {
        let total: f64 = s.values.iter().sum();
        let shown = total.min(top);
        let top_left = chart.backend_coord(&(SegmentValue::Exact(i), shown));
        let bottom_right = chart.backend_coord(&(SegmentValue::Exact(i + 1), 0.0));
        let mut note = if total > top {
            format!("↑ {}", s.total)
        } else {
            String::new()
        };
        if s.faded {
            note.push_str(" ✗");
        }
        if !note.is_empty() {
            let color = if s.faded { RED } else { BLACK };
            let line = if total > top {
                cut += 1;
                (cut - 1) % lines
            } else {
                0
            };
            let offset = line * (TEXT_SIZE as i32 + 4);
            let mark = EmptyElement::at((SegmentValue::Exact(i), shown))
                + Text::new(note, (0, offset), (FONT, TEXT_SIZE).into_font().color(&color));
            chart.draw_series(std::iter::once(mark)).map_err(fail)?;
        }
        targets.push(Target {
            area: Area::bar(top_left, bottom_right),
            lines: s.lines.clone(),
            explain: s.explain,
        });
    }
    if let Some((value, label)) = &frame.reference {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![
                    (SegmentValue::Exact(0), *value),
                    (SegmentValue::Exact(stacks.len()), *value),
                ],
                BLACK.stroke_width(2),
            )))
            .map_err(fail)?;
        entries.push((label.clone(), Swatch::Line(BLACK)));
    }
    entries.push((frame.faded_legend.to_string(), Swatch::Box(RGBColor(0xdd, 0xdd, 0xdd))));
    legend(root, &entries)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use crate::app::charts::render;
    use crate::app::charts::stacked::*;

    const PARTS: [(&str, RGBColor); 2] = [
        ("low", RGBColor(0x00, 0x72, 0xb2)),
        ("high", RGBColor(0x88, 0x22, 0x55)),
    ];

    fn stack(name: &str, values: [f64; 2], faded: bool) -> Stack {
        Stack {
            name: name.into(),
            values: values.to_vec(),
            faded,
            total: format!("{} GB", values.iter().sum::<f64>()),
            lines: vec![name.into()],
            explain: None,
        }
    }

    fn drawn(stacks: &[Stack], top: f64) -> String {
        let frame = Frame {
            parts: &PARTS,
            top,
            x_desc: "strategy".into(),
            y_desc: "memory",
            y_label: |v| format!("{v}"),
            reference: Some((10.0, "capacity".into())),
            faded_legend: "pale: over capacity ✗",
        };
        render(|root, targets| draw(root, targets, &frame, stacks)).unwrap().svg
    }

    /// The opacity of each rectangle drawn in `hex` (as plotters writes
    /// it: `#0072B2`).
    fn rects(svg: &str, hex: &str) -> Vec<String> {
        svg.split("<rect")
            .skip(1)
            .filter(|r| r.contains(&format!("fill=\"{hex}\"")))
            .map(|r| {
                r.split("opacity=\"")
                    .nth(1)
                    .and_then(|o| o.split('"').next())
                    .unwrap_or("1")
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn a_bar_that_misses_is_pale_above_the_capacity_only() {
        // 6 + 8: the second part crosses the capacity at 10
        let svg = drawn(&[stack("a", [6.0, 8.0], true)], 20.0);
        let high = rects(&svg, "#882255");
        // below the capacity, above it, and the legend's swatch
        assert_eq!(high.iter().filter(|o| *o == "0.35").count(), 1, "{high:?}");
        assert_eq!(high.iter().filter(|o| *o == "1").count(), 2, "{high:?}");
        // the part wholly under the capacity keeps its colour
        let low = rects(&svg, "#0072B2");
        assert!(!low.is_empty() && low.iter().all(|o| o == "1"), "{low:?}");
    }

    #[test]
    fn the_labels_of_neighbouring_cut_bars_never_share_a_line() {
        let svg = drawn(
            &[
                stack("a", [100.0, 110.0], true),
                stack("b", [100.0, 110.0], true),
                stack("c", [100.0, 110.0], true),
            ],
            30.0,
        );
        let tops: Vec<f64> = svg
            .split("<text")
            .filter(|t| t.contains("↑ 210 GB"))
            .filter_map(|t| t.split("y=\"").nth(1)?.split('"').next()?.parse().ok())
            .collect();
        assert_eq!(tops.len(), 3, "{svg}");
        assert!(tops[0] != tops[1] && tops[1] != tops[2], "{tops:?}");
    }

    #[test]
    fn no_minor_gridlines() {
        let svg = drawn(&[stack("a", [3.0, 4.0], false)], 20.0);
        // plotters' light lines are drawn at alpha 0.1 unless styled away
        assert!(!svg.contains("opacity=\"0.1\""), "{svg}");
    }
}
