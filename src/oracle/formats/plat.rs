//! The original tool's platform files (`.plat`):
//!
//! ```text
//! MEM_PER_NODE|16e9|Bytes
//! NODE_SPEED|7.8E12|FLOPS
//! BANDWIDTH|12.5E9|Bps
//! LATENCY|500E-9|second
//! MAX_NODE|4096|GPUs
//! GPU_PER_NODE|4|GPUs
//! ```
//!
//! `MEM_PER_NODE` and `NODE_SPEED` are per GPU (a "node" of the original
//! tool is one GPU); `MAX_NODE` is the largest allocation in GPUs. The
//! third column is the value's unit, converted ([`crate::oracle::units`]:
//! `16|GB`, `100|Gbps`, `1.5|us`, `125|TFLOPS`); a unit of another kind, or
//! a fourth column, is an error at its column. A
//! platform file describes a flat network: see [`Cluster::flat`].

use std::fmt::Write;

use super::lines::{Field, Line, end_line, lines, parse_number};
use crate::oracle::model::cluster::{Cluster, LinkSpec};
use crate::oracle::model::errors::{InputError, ParseError, ParseProblem, Rule};
use crate::oracle::model::field::Segment;
use crate::oracle::units;

/// The keys of a platform file, in the order [`parse`] reads their values,
/// each with what it measures (for the unit its third column gives).
const KEYS: [(&str, Measure); 6] = [
    ("MEM_PER_NODE", Measure::Bytes),
    ("NODE_SPEED", Measure::FlopRate),
    ("BANDWIDTH", Measure::ByteRate),
    ("LATENCY", Measure::Time),
    ("MAX_NODE", Measure::Gpus),
    ("GPU_PER_NODE", Measure::Gpus),
];

/// What a key measures.
#[derive(Debug, Clone, Copy)]
enum Measure {
    Bytes,
    FlopRate,
    ByteRate,
    Time,
    Gpus,
}

impl Measure {
    /// The size of one `unit` in the base unit (bytes, FLOP/s, bytes per
    /// second, seconds, GPUs).
    fn scale(self, unit: &str) -> Option<f64> {
        match self {
            Self::Bytes => units::byte_unit(unit),
            Self::FlopRate => units::flop_rate_unit(unit),
            Self::ByteRate => units::byte_rate_unit(unit),
            Self::Time => units::time_unit(unit),
            Self::Gpus => matches!(unit, "GPUs" | "GPU" | "gpus" | "gpu").then_some(1.0),
        }
    }

    /// The units it takes, for an error.
    fn expected(self) -> &'static str {
        match self {
            Self::Bytes => "a unit of memory: B (Bytes), kB, MB, GB, TB, KiB, MiB, GiB or TiB",
            Self::FlopRate => "a unit of arithmetic rate: FLOPS (FLOP/s), GFLOPS, TFLOPS or PFLOPS",
            Self::ByteRate => "a unit of bandwidth: Bps (B/s), MB/s, GB/s, GiB/s, or bits: Gbps, Gb/s, Gbit/s",
            Self::Time => "a unit of time: s (second), ms, us (µs) or ns",
            Self::Gpus => "GPUs",
        }
    }
}

/// Reads a `.plat` file into a flat cluster named `name`.
///
/// # Errors
/// A [`ParseError`] with line and column: an unknown or repeated key, a
/// value that is not a number, a missing key, or a value that breaks a rule
/// of [`Cluster::new`].
pub fn parse(text: &str, name: &str) -> Result<Cluster, ParseError> {
    let mut values: [Option<(Line<'_>, Field<'_>, f64)>; 6] = Default::default();
    for line in lines(text) {
        let key = line.field(0, "key")?;
        let Some(slot) = KEYS.iter().position(|(k, _)| k.eq_ignore_ascii_case(key.text)) else {
            return Err(line.error(
                key,
                ParseProblem::Unexpected {
                    found: key.text.into(),
                    expected: format!("one of {}", KEYS.map(|(k, _)| k).join(", ")),
                },
            ));
        };
        if values[slot].is_some() {
            return Err(line.error(key, ParseProblem::Duplicate(key.text.into())));
        }
        let field = line.field(1, "value")?;
        let value = parse_number::<f64>(&line, field, "number")?;
        // the unit (ParaDL's files always give one; without it, the base unit)
        let measure = KEYS[slot].1;
        let scale = match line.fields.get(2).filter(|u| !u.text.is_empty()) {
            Some(unit) => measure.scale(unit.text).ok_or_else(|| {
                line.error(
                    *unit,
                    ParseProblem::Unexpected {
                        found: unit.text.into(),
                        expected: measure.expected().into(),
                    },
                )
            })?,
            None => 1.0,
        };
        if let Some(extra) = line.fields.get(3) {
            return Err(line.error(
                *extra,
                ParseProblem::Unexpected {
                    found: extra.text.into(),
                    expected: "the end of the line (KEY|value|unit)".into(),
                },
            ));
        }
        values[slot] = Some((line, field, value * scale));
    }
    let mut found = Vec::with_capacity(KEYS.len());
    for ((key, _), value) in KEYS.iter().zip(&values) {
        match value {
            Some(v) => found.push(v),
            None => return Err(ParseError::at(end_line(text), 1, ParseProblem::Missing((*key).into()))),
        }
    }
    let [memory, speed, bandwidth, latency, max_gpus, per_node] = [0, 1, 2, 3, 4, 5].map(|i| found[i]);
    let whole = |(line, field, value): &(Line<'_>, Field<'_>, f64)| -> Result<u64, ParseError> {
        if value.fract() == 0.0 && *value >= 0.0 && *value <= u64::MAX as f64 {
            Ok(*value as u64)
        } else {
            Err(line.error(
                *field,
                ParseProblem::BadNumber {
                    text: field.text.into(),
                    expected: "whole number".into(),
                },
            ))
        }
    };
    let cluster = Cluster::flat(
        name,
        speed.2,
        memory.2,
        whole(per_node)?,
        whole(max_gpus)?,
        LinkSpec {
            bandwidth_bytes_per_s: bandwidth.2,
            latency_s: latency.2,
        },
    );
    cluster.map_err(|err| {
        let f = &err.field;
        let at = if f.is(&["gpu_flops_per_s"]) {
            speed
        } else if f.is(&["gpu_memory_bytes"]) {
            memory
        } else if f.is(&["gpus_per_node"]) || f.is(&["nics_per_node"]) {
            per_node
        } else if f.is(&["max_gpus"]) {
            max_gpus
        } else if f.segments().last() == Some(&Segment::Key("bandwidth_bytes_per_s")) {
            bandwidth
        } else {
            latency
        };
        at.0.error(at.1, ParseProblem::Invalid(err))
    })
}

/// Writes a flat cluster as a `.plat` file that [`parse`] reads back.
///
/// # Errors
/// [`Rule::NotRepresentable`] when the cluster is not flat.
pub fn write(cluster: &Cluster) -> Result<String, InputError> {
    let link = cluster.flat_link().ok_or_else(|| {
        InputError::new(
            "cluster",
            Rule::NotRepresentable(
                "a .plat file has one bandwidth and one latency; this cluster has a hierarchy".into(),
            ),
        )
    })?;
    let mut text = String::new();
    let _ = writeln!(text, "MEM_PER_NODE|{:e}|Bytes", cluster.gpu_memory_bytes());
    let _ = writeln!(text, "NODE_SPEED|{:e}|FLOPS", cluster.gpu_flops_per_s());
    let _ = writeln!(text, "BANDWIDTH|{:e}|Bps", link.bandwidth_bytes_per_s);
    let _ = writeln!(text, "LATENCY|{:e}|second", link.latency_s);
    let _ = writeln!(text, "MAX_NODE|{}|GPUs", cluster.max_gpus());
    let _ = writeln!(text, "GPU_PER_NODE|{}|GPUs", cluster.gpus_per_node());
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABCI: &str = include_str!("../presets/reference/ABCI.plat");

    #[test]
    fn reads_the_reference_platform() {
        let c = parse(ABCI, "ABCI.plat").unwrap();
        assert_eq!(c.gpu_memory_bytes(), 16e9);
        assert_eq!(c.gpu_flops_per_s(), 7.8e12);
        assert_eq!(c.max_gpus(), 4096);
        assert_eq!(c.gpus_per_node(), 4);
        // every ring sees the file's latency and bandwidth
        for p in [2, 4, 5, 64, 4096] {
            let r = crate::oracle::cost::collectives::ring(&c, p, 1);
            assert_eq!(r.alpha_s, 500e-9);
            assert_eq!(r.beta_s_per_byte, 1.0 / 12.5e9);
        }
    }

    #[test]
    fn round_trip() {
        let c = parse(ABCI, "ABCI.plat").unwrap();
        assert_eq!(parse(&write(&c).unwrap(), "ABCI.plat").unwrap(), c);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let err = parse(&ABCI.replace("12.5E9", "fast"), "x").unwrap_err();
        assert_eq!((err.line, err.column), (3, 11));
        let err = parse(&ABCI.replace("GPU_PER_NODE|4", "GPU_PER_NODE|0"), "x").unwrap_err();
        assert_eq!((err.line, err.column), (6, 14));
        assert!(matches!(err.problem, ParseProblem::Invalid(_)));
        let err = parse(&ABCI.replace("MAX_NODE|4096", "MAX_NODE|4096.5"), "x").unwrap_err();
        assert_eq!(err.line, 5);
        let err = parse(&ABCI.replace("LATENCY", "DELAY"), "x").unwrap_err();
        assert_eq!((err.line, err.column), (4, 1));
        let err = parse(&ABCI.replace("MEM_PER_NODE|16e9|Bytes\r\n", ""), "x").unwrap_err();
        assert_eq!(err.problem, ParseProblem::Missing("MEM_PER_NODE".into()));
        let err = parse(&format!("{ABCI}\nLATENCY|1e-6"), "x").unwrap_err();
        assert_eq!(err.problem, ParseProblem::Duplicate("LATENCY".into()));
    }

    #[test]
    fn hierarchical_clusters_cannot_be_written() {
        let abci = crate::oracle::presets::cluster("abci").unwrap();
        assert!(write(&abci).is_err());
    }

    #[test]
    fn each_value_is_read_in_its_unit() {
        let text = "MEM_PER_NODE|16|GB\nNODE_SPEED|7.8|TFLOPS\nBANDWIDTH|100|Gbps\nLATENCY|1.5|us\nMAX_NODE|64|GPUs\nGPU_PER_NODE|4\n";
        let c = parse(text, "units").unwrap();
        assert_eq!(c.gpu_memory_bytes(), 16e9);
        assert_eq!(c.gpu_flops_per_s(), 7.8e12);
        let link = c.flat_link().unwrap();
        assert_eq!(link.bandwidth_bytes_per_s, 12.5e9);
        assert!((link.latency_s - 1.5e-6).abs() < 1e-18);
        assert_eq!(c.gpus_per_node(), 4);
        // the same numbers in ParaDL's own units
        let same = "MEM_PER_NODE|16e9|Bytes\nNODE_SPEED|7.8e12|FLOPS\nBANDWIDTH|12.5e9|Bps\nLATENCY|1.5e-6|second\nMAX_NODE|64|GPUs\nGPU_PER_NODE|4|GPUs\n";
        assert_eq!(parse(same, "units").unwrap(), c);
    }

    #[test]
    fn a_unit_of_another_kind_or_a_fourth_column_is_an_error_at_its_column() {
        let wrong = ABCI.replace("BANDWIDTH|12.5E9|Bps", "BANDWIDTH|12.5E9|GB");
        let e = parse(&wrong, "x").unwrap_err();
        assert_eq!((e.line, e.column), (3, 18));
        assert!(e.to_string().contains("unit of bandwidth"), "{e}");
        let extra = ABCI.replace("MEM_PER_NODE|16e9|Bytes", "MEM_PER_NODE|16e9|Bytes|HBM2");
        let e = parse(&extra, "x").unwrap_err();
        assert_eq!((e.line, e.column), (1, 25));
        for unit in ["parsecs", "GHz", "Gbps"] {
            let e = parse(&ABCI.replace("|second", &format!("|{unit}")), "x").unwrap_err();
            assert!(e.to_string().contains("unit of time"), "{unit}: {e}");
        }
    }
}
