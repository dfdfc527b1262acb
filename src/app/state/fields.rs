//! Names of the editable fields, so that an error lands next to its input.
//!
//! Keys follow the engine's field paths under a prefix: `run.gpus`,
//! `cluster.intra_node.latency_s`, `model.layers[3].w`.

use std::collections::BTreeMap;

use crate::oracle::network::parse_layer_field;
use crate::oracle::{InputError, OracleError, ParseError};

/// Field errors by key.
pub type Errors = BTreeMap<String, String>;

/// GPU budget.
pub const GPUS: &str = "run.gpus";
/// Samples per GPU.
pub const SAMPLES_PER_GPU: &str = "run.samples_per_gpu";
/// Mini-batch.
pub const MINI_BATCH: &str = "run.mini_batch";
/// Bytes per item.
pub const BYTES_PER_ITEM: &str = "run.bytes_per_item";
/// Pipeline segments.
pub const SEGMENTS: &str = "run.segments";
/// Hybrid group size.
pub const GROUP_SIZE: &str = "run.group_size";
/// Strategy selection.
pub const STRATEGIES: &str = "run.strategies";
/// Model import (paste or upload).
pub const IMPORT: &str = "model.import";
/// Dataset size.
pub const SAMPLES: &str = "model.samples";

/// The key of a layer cell: `model.layers[3].x`.
pub fn layer(row: usize, column: &str) -> String {
    format!("model.layers[{row}].{column}")
}

/// The key of a cluster field: `cluster.nic.latency_s`.
pub fn cluster(path: &str) -> String {
    format!("cluster.{path}")
}

/// The key an engine error of a run belongs to.
pub fn of_run(error: &InputError) -> &'static str {
    match error.field.as_str() {
        "gpus" => GPUS,
        "batch.samples_per_gpu" => SAMPLES_PER_GPU,
        "batch.mini_batch" => MINI_BATCH,
        "bytes_per_item" => BYTES_PER_ITEM,
        "segments" => SEGMENTS,
        "group_size" => GROUP_SIZE,
        _ => STRATEGIES,
    }
}

/// The key an engine error of a network belongs to.
pub fn of_network(error: &InputError) -> String {
    match parse_layer_field(&error.field) {
        Some((row, sub)) => {
            let column = sub.split(['.', '[']).next().filter(|c| !c.is_empty()).unwrap_or("name");
            layer(row, column)
        }
        None if error.field.starts_with("dataset.samples") => SAMPLES.into(),
        None if error.field == "layers" => IMPORT.into(),
        None => format!("model.{}", error.field),
    }
}

/// The message of an engine error, without the field path when the input
/// it sits next to already names it.
pub fn message(error: &InputError) -> String {
    let rule = error.rule.to_string();
    let mut chars = rule.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => rule,
    }
}

/// The message of an import error, with its line and column.
pub fn import_message(error: &OracleError) -> String {
    match error {
        OracleError::Parse(ParseError { line, column, problem }) => {
            format!("Line {line}, column {column}: {problem}")
        }
        OracleError::Input(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Rule;

    #[test]
    fn engine_fields_map_to_inputs() {
        let e = InputError::new("layers[3] CONV2.w[0]", Rule::Empty);
        assert_eq!(of_network(&e), "model.layers[3].w");
        let e = InputError::new("layers[2] RELU", Rule::Empty);
        assert_eq!(of_network(&e), "model.layers[2].name");
        let e = InputError::new("dataset.samples", Rule::Empty);
        assert_eq!(of_network(&e), SAMPLES);
        let e = InputError::new("group_size", Rule::NotDivisor { gpus: 8, group: 3 });
        assert_eq!(of_run(&e), GROUP_SIZE);
        assert_eq!(message(&e), "Must divide the GPU count 8, found 3");
    }
}
