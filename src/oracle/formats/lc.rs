//! The original tool's split-set files (`.lc`): one line per layer, in
//! layer order, `NAME|1` for a layer the strategy divides and `NAME|0` for
//! one it leaves whole. Lines may start with the layer's index
//! (`0 CONV_1 |1`).

use std::fmt::Write;

use super::lines::{end_line, lines};
use crate::oracle::model::errors::{ParseError, ParseProblem};
use crate::oracle::model::network::Network;

/// Reads a `.lc` file for `network`: one flag per layer.
///
/// # Errors
/// A [`ParseError`] with line and column: a flag other than 0 or 1, a name
/// or index that does not match the layer at that position, too many or too
/// few lines.
pub fn parse(text: &str, network: &Network) -> Result<Vec<bool>, ParseError> {
    let layers = network.layers();
    let mut flags = Vec::with_capacity(layers.len());
    for line in lines(text) {
        let index = flags.len();
        let label = line.field(0, "layer name")?;
        let flag = line.field(1, "0 or 1")?;
        if let Some(extra) = line.fields.get(2) {
            return Err(line.error(
                *extra,
                ParseProblem::Unexpected {
                    found: extra.text.into(),
                    expected: "the end of the line (LAYER|0 or 1)".into(),
                },
            ));
        }
        let Some(layer) = layers.get(index) else {
            return Err(line.error(
                label,
                ParseProblem::Unexpected {
                    found: label.text.into(),
                    expected: format!("the end of the file: the network has {} layers", layers.len()),
                },
            ));
        };
        let name = match label.text.split_once(char::is_whitespace) {
            Some((number, name)) if number.parse::<usize>().is_ok() => {
                if number.parse::<usize>().ok() != Some(index) {
                    return Err(line.error(
                        label,
                        ParseProblem::Unexpected {
                            found: number.into(),
                            expected: format!("layer index {index}"),
                        },
                    ));
                }
                name.trim()
            }
            _ => label.text,
        };
        if name != layer.name().trim() {
            return Err(line.error(
                label,
                ParseProblem::Unexpected {
                    found: name.into(),
                    expected: format!("layer {index}, {}", layer.name()),
                },
            ));
        }
        flags.push(match flag.text {
            "1" => true,
            "0" => false,
            other => {
                return Err(line.error(
                    flag,
                    ParseProblem::Unexpected {
                        found: other.into(),
                        expected: "0 or 1".into(),
                    },
                ));
            }
        });
    }
    if flags.len() < layers.len() {
        return Err(ParseError::at(
            end_line(text),
            1,
            ParseProblem::Missing(format!(
                "lines for {} more layers (from {})",
                layers.len() - flags.len(),
                layers[flags.len()].name()
            )),
        ));
    }
    Ok(flags)
}

/// Writes a split set for `network` in the `NAME|0/1` form.
pub fn write(network: &Network, flags: &[bool]) -> String {
    let mut text = String::new();
    for (layer, flag) in network.layers().iter().zip(flags) {
        let _ = writeln!(text, "{}|{}", layer.name(), u8::from(*flag));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn reads_both_line_forms() {
        let resnet = presets::network("resnet50").unwrap();
        let flags = parse(include_str!("../presets/reference/filter_resnet.lc"), &resnet).unwrap();
        assert_eq!(flags.len(), resnet.layers().len());
        assert_eq!(flags.iter().filter(|f| **f).count(), 49);
        let alexnet = presets::network("alexnet").unwrap();
        let flags = parse(include_str!("../presets/reference/spatial_alexnet.lc"), &alexnet).unwrap();
        assert_eq!(flags.iter().filter(|f| **f).count(), 7);
    }

    #[test]
    fn round_trip() {
        let alexnet = presets::network("alexnet").unwrap();
        let flags = parse(include_str!("../presets/reference/filter_alexnet.lc"), &alexnet).unwrap();
        assert_eq!(parse(&write(&alexnet, &flags), &alexnet).unwrap(), flags);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let alexnet = presets::network("alexnet").unwrap();
        let text = include_str!("../presets/reference/filter_alexnet.lc");
        let err = parse(&text.replace("CONV2|1", "CONV2|2"), &alexnet).unwrap_err();
        assert_eq!((err.line, err.column), (4, 7));
        let err = parse(&text.replace("CONV2|1", "CONV9|1"), &alexnet).unwrap_err();
        assert_eq!((err.line, err.column), (4, 1));
        let err = parse(&text.replace("FC8|0", ""), &alexnet).unwrap_err();
        assert!(matches!(err.problem, ParseProblem::Missing(_)));
        let err = parse(&format!("{text}\r\nEXTRA|0"), &alexnet).unwrap_err();
        assert_eq!(err.line, 21);
        let resnet = presets::network("resnet50").unwrap();
        let text = include_str!("../presets/reference/channel_resnet.lc").replacen("1 BNORM", "7 BNORM", 1);
        let err = parse(&text, &resnet).unwrap_err();
        assert_eq!((err.line, err.column), (2, 1));
    }
}
