//! The colours and line styles every plot gives strategies and kinds of
//! communication.

use plotters::style::RGBColor;

use crate::app::charts::frame::Swatch;
use crate::oracle::{CommKind, Strategy};

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
/// share a line style: model-parallel splits are dashed (filter long,
/// channel short: their wine and purple are close on a projector), the
/// hybrids dotted.
pub fn strategy_dash(strategy: Strategy) -> Option<(u32, u32)> {
    match strategy {
        Strategy::Serial | Strategy::Data | Strategy::Spatial | Strategy::Pipeline => None,
        Strategy::Filter => Some((12, 4)),
        Strategy::Channel => Some((5, 5)),
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
        Some(CommKind::KeyValue) => RGBColor(0x33, 0x22, 0x88),
    }
}

#[cfg(test)]
mod tests {
    //! The palette against WCAG's contrast ratio and simulated colour
    //! vision deficiencies (Machado, Oliveira and Fernandes 2009, severity
    //! 1.0), in CIELAB distances.
    use crate::app::charts::palette::*;

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
            assert!(
                contrast_on_white(crate::app::charts::memory::part_color(p)) >= 3.0,
                "{p:?}"
            );
        }
    }

    #[test]
    fn filter_and_channel_are_told_apart_by_their_dashes() {
        // wine and purple, both split layers: never the same line
        assert_ne!(strategy_dash(Strategy::Filter), strategy_dash(Strategy::Channel));
        let hybrids = strategy_dash(Strategy::DataFilter);
        assert_ne!(strategy_dash(Strategy::Channel), hybrids);
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
