//! One entry point to read a network from a file's bytes, whatever its
//! format, for the command line and the app alike: the format is told by
//! the file's extension, else by its content.

use std::collections::BTreeMap;

use super::{json, keras, net, onnx};
use crate::oracle::model::errors::listed;
use crate::oracle::model::errors::{OracleError, ParseError, ParseProblem};
use crate::oracle::model::network::Network;
use crate::oracle::model::shape::Shape;

/// Largest network file read: 2 GiB, protobuf's (so ONNX's) own limit.
pub const MAX_FILE_BYTES: u64 = 2 << 30;

/// A network file's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// An ONNX graph (binary protobuf).
    Onnx,
    /// A `.keras` archive (zip).
    KerasArchive,
    /// A Keras model's JSON (`model.to_json()`).
    KerasJson,
    /// This tool's JSON form.
    Json,
    /// A ParaDL `.net` file.
    Net,
}

impl Format {
    /// Its name for people.
    pub fn label(self) -> &'static str {
        match self {
            Self::Onnx => "ONNX graph",
            Self::KerasArchive => ".keras archive",
            Self::KerasJson => "Keras JSON",
            Self::Json => "network JSON",
            Self::Net => "ParaDL .net file",
        }
    }
}

/// What helps reading a file: the sample's shape when the file leaves its
/// sizes unknown, and the dataset's size for formats that have none.
#[derive(Debug, Clone, PartialEq)]
pub struct Hints {
    /// `[C, spatial...]`, for an input whose sizes are symbolic.
    pub input_shape: Option<Shape>,
    /// Samples of the dataset (ONNX and Keras files have none).
    pub samples: u64,
}

impl Default for Hints {
    fn default() -> Self {
        Self {
            input_shape: None,
            samples: onnx::DEFAULT_SAMPLES,
        }
    }
}

/// A network read, with its format and the operators that became no layer
/// (ONNX).
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub network: Network,
    /// Its file's format.
    pub format: Format,
    /// Operators that became no layer or were merged into one, with their
    /// counts (ONNX only).
    pub merged: BTreeMap<String, usize>,
}

impl Read {
    /// What was read, in one sentence for people.
    pub fn summary(&self, source: &str) -> String {
        let n = &self.network;
        let mut text = format!(
            "Imported {source} ({}): {} layers, {} parameters, {} GFLOPs forward per sample",
            self.format.label(),
            n.layers().len(),
            n.weight_items(),
            crate::oracle::units::significant(n.forward_flops() / 1e9, 4)
        );
        // what became no layer, and whether it matters: shape arithmetic, constants, views and
        // merges change no number; what an export adds for inference, or a second stage, is left
        // out of every number
        let left_out = |op: &str| op.contains("post-processing") || op.contains("second stage");
        let (matters, plain): (Vec<_>, Vec<_>) = self.merged.iter().partition(|(op, _)| left_out(op));
        if !plain.is_empty() {
            let list: Vec<String> = plain.iter().map(|(op, k)| format!("{} {k}", listed(op))).collect();
            text.push_str(&format!(
                "; no layer for: {} (shape arithmetic, constants, views and operators merged into a layer: no number changes)",
                list.join(", ")
            ));
        }
        if !matters.is_empty() {
            let list: Vec<String> = matters.iter().map(|(op, k)| format!("{} {k}", listed(op))).collect();
            text.push_str(&format!(
                "; left out of every number: {} (no part of a training step)",
                list.join(", ")
            ));
        }
        if matches!(self.format, Format::Onnx | Format::KerasArchive | Format::KerasJson) {
            text.push_str(
                ". The dataset is assumed to be ImageNet-1k's 1,281,167 images: the time per epoch scales with it (an iteration's does not), so change its size if yours differs.",
            );
        }
        text
    }
}

/// The format of a file called `name` holding `bytes`.
///
/// # Formula
/// By extension (`.onnx`, `.keras`, `.json`, `.net`, `.net_sc`); else an
/// ONNX protobuf, a zip archive, a JSON object (Keras's when it has a
/// top-level `class_name` and `config`), else `.net` text.
pub fn detect(bytes: &[u8], name: &str) -> Format {
    let lower = name.to_ascii_lowercase();
    let text = || String::from_utf8_lossy(bytes);
    let json = || {
        if keras::looks_like_keras(&text()) {
            Format::KerasJson
        } else {
            Format::Json
        }
    };
    if lower.ends_with(".onnx") {
        Format::Onnx
    } else if lower.ends_with(".keras") {
        Format::KerasArchive
    } else if lower.ends_with(".json") {
        json()
    } else if lower.ends_with(".net") || lower.ends_with(".net_sc") {
        Format::Net
    } else if keras::looks_like_archive(bytes) {
        Format::KerasArchive
    } else if onnx::looks_like_onnx(bytes) {
        Format::Onnx
    } else if text().trim_start_matches('\u{feff}').trim_start().starts_with('{') {
        json()
    } else {
        Format::Net
    }
}

/// Reads a network from a file called `name` holding `bytes`.
///
/// # Errors
/// A file larger than [`MAX_FILE_BYTES`]; text that is not UTF-8 where a
/// text format is expected; JSON that does not parse (its line and column,
/// whatever the JSON was meant to be); then the importer's error, with its
/// node or its line and column.
pub fn read_network(bytes: &[u8], name: &str, hints: &Hints) -> Result<Read, OracleError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ParseError::at(
            1,
            1,
            ParseProblem::Unexpected {
                found: format!("a file of {} bytes", bytes.len()),
                expected: format!("a network file of at most {MAX_FILE_BYTES} bytes"),
            },
        )
        .into());
    }
    let format = detect(bytes, name);
    let text = || -> Result<&str, OracleError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            ParseError::at(
                1,
                1,
                ParseProblem::Unexpected {
                    found: format!("bytes that are not UTF-8 text ({e})"),
                    expected: format!("a {}", format.label()),
                },
            )
        })?;
        // a byte-order mark, as spreadsheets and some editors write
        Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
    };
    let shape = hints.input_shape.as_ref();
    let (network, merged) = match format {
        Format::Onnx => {
            let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
            let stem = stem.rsplit(['/', '\\']).next().unwrap_or(stem);
            let imported = onnx::read(bytes, stem, shape, hints.samples)?;
            (imported.network, imported.merged)
        }
        Format::KerasArchive => (keras::read_archive(bytes, hints.samples, shape)?, BTreeMap::new()),
        Format::KerasJson => (keras::read(text()?, hints.samples, shape)?, BTreeMap::new()),
        Format::Json => {
            let text = text()?;
            // a JSON syntax error is reported as such, whatever the JSON was meant to be
            serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| ParseError::at(e.line().max(1), e.column().max(1), ParseProblem::Json(e.to_string())))?;
            (json::network(text)?, BTreeMap::new())
        }
        Format::Net => (net::read(text()?)?, BTreeMap::new()),
    };
    Ok(Read {
        network,
        format,
        merged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_name_then_content() {
        assert_eq!(detect(b"{}", "a.onnx"), Format::Onnx);
        assert_eq!(detect(b"PK\x03\x04", "model"), Format::KerasArchive);
        assert_eq!(
            detect(br#"{"class_name": "Functional", "config": {}}"#, "m"),
            Format::KerasJson
        );
        assert_eq!(detect(br#"{"name": "x"}"#, "m"), Format::Json);
        assert_eq!(detect("\u{feff}{\"name\": 1}".as_bytes(), "m"), Format::Json);
        assert_eq!(detect(b"Dataset|ImageNet", "m"), Format::Net);
    }

    #[test]
    fn a_json_syntax_error_says_so_where_it_is() {
        let err = read_network(
            b"{\"class_name\": \"Functional\",\n \"config\": 1e400}",
            "m.json",
            &Hints::default(),
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("line 2") && text.contains("number out of range"),
            "{text}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_accepted() {
        let text = include_str!("../presets/reference/ALEXNET_ImageNet.net");
        let with_bom = format!("\u{feff}{text}");
        let read = read_network(with_bom.as_bytes(), "alexnet.net", &Hints::default()).unwrap();
        assert_eq!(read.format, Format::Net);
        assert_eq!(read.network.layers().len(), net::read(text).unwrap().layers().len());
    }

    #[test]
    fn the_summary_says_whether_what_became_no_layer_matters() {
        let network = crate::oracle::presets::network("resnet18").unwrap();
        let merged = [
            ("Reshape".to_string(), 2),
            (
                "TopK (inference-only post-processing, no layer of a training step)".to_string(),
                3,
            ),
        ];
        let read = Read {
            network,
            format: Format::Onnx,
            merged: merged.into_iter().collect(),
        };
        let text = read.summary("det.onnx");
        assert!(text.contains("no layer for: Reshape 2 (shape arithmetic"), "{text}");
        assert!(text.contains("left out of every number: TopK"), "{text}");
        assert!(
            text.contains("1,281,167 images: the time per epoch scales with it"),
            "{text}"
        );
    }
}
