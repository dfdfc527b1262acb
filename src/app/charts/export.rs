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

/// `line` in pieces of at most `chars` characters: broken at spaces where
/// it can, and inside a word (a link) where one is longer than a piece.
fn wrapped(line: &str, chars: usize) -> Vec<String> {
    let chars = chars.max(8);
    let mut pieces: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in line.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        let used = current.chars().count();
        if used > 0 && used + 1 + word.len() <= chars {
            current.push(' ');
            current.extend(word.iter());
            continue;
        }
        if used > 0 {
            pieces.push(std::mem::take(&mut current));
        }
        while word.len() > chars {
            pieces.push(word.drain(..chars).collect());
        }
        current = word.into_iter().collect();
    }
    if !current.is_empty() || pieces.is_empty() {
        pieces.push(current);
    }
    pieces
}

/// An exported plot: `svg` under a header of caption `lines` (what it
/// shows and the link that reproduces it), so that a figure pasted into
/// slides says what it is; each line wrapped to the plot's width (at about
/// 0.6 of the font size a character), a link broken where it must be.
/// Returns the new SVG and its height.
pub fn titled(drawn: &Drawn, lines: &[String]) -> (String, u32) {
    let svg = drawn.svg.as_str();
    if lines.is_empty() {
        return (svg.to_string(), drawn.height);
    }
    let width = drawn.width;
    let rows: Vec<(String, u32, &str)> = lines
        .iter()
        .enumerate()
        .flat_map(|(i, line)| {
            let (size, weight) = if i == 0 { (15, "bold") } else { (12, "normal") };
            let chars = (width.saturating_sub(24) as f64 / (0.6 * f64::from(size))) as usize;
            wrapped(line, chars).into_iter().map(move |piece| (piece, size, weight))
        })
        .collect();
    let header = CAPTION_LINE * rows.len() as u32 + 10;
    let height = drawn.height + header;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\"><rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
    );
    for (i, (piece, size, weight)) in rows.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"12\" y=\"{}\" font-family=\"{FONT}\" font-size=\"{size}\" font-weight=\"{weight}\">{}</text>",
            CAPTION_LINE * (i as u32 + 1),
            escape(piece)
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

    #[test]
    fn a_long_link_is_broken_to_the_plots_width() {
        let drawn = render(|_, _| Ok(true)).unwrap();
        let link = format!("ParaDL oracle · https://host/course/paradl/?s={}", "A".repeat(400));
        let (svg, height) = titled(
            &drawn,
            &["Scaling: ResNet50 on ABCI, 64 GPUs".to_string(), link.clone()],
        );
        // at 12 px a character is about 7.2 units: every piece fits the plot's width
        let most = ((drawn.width - 24) as f64 / 7.2) as usize;
        let pieces: Vec<&str> = svg
            .split("font-weight=\"normal\">")
            .skip(1)
            .map(|s| s.split("</text>").next().unwrap_or(""))
            .collect();
        assert!(pieces.len() >= 5, "{pieces:?}");
        assert!(pieces.iter().all(|p| p.chars().count() <= most), "{pieces:?}");
        assert_eq!(pieces.concat().replace(' ', ""), link.replace(' ', ""));
        assert_eq!(height, HEIGHT + (1 + pieces.len() as u32) * CAPTION_LINE + 10);
        assert_eq!(wrapped("a b c", 8), vec!["a b c"]);
        assert_eq!(wrapped("", 8), vec![""]);
    }
}
