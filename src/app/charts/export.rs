//! A plot exported as a figure: its SVG under the caption that says what it
//! shows and the link that reproduces it.

use crate::app::charts::frame::{Drawn, FONT};

/// Height of one caption line of an exported plot, in SVG units.
const CAPTION_LINE: u32 = 18;

/// Text made safe inside an SVG or HTML attribute or element.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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
    let width = drawn.width;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\"><rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
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

#[cfg(test)]
mod tests {
    use crate::app::charts::export::*;
    use crate::app::charts::frame::{HEIGHT, render};

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
}
