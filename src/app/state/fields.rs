//! Typed keys of the editable fields, so that an error lands next to its
//! input: the engine's [`Field`] path is matched segment by segment (never
//! formatted and parsed back), and each input looks its error up by key.

use std::collections::BTreeMap;

use super::model_editor::LayerColumn;
use crate::oracle::{Field, InputError, OracleError, ParseError, Segment};

/// A run setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunKey {
    /// GPU budget.
    Gpus,
    /// Samples per GPU.
    SamplesPerGpu,
    /// Mini-batch.
    MiniBatch,
    /// Bytes per item.
    BytesPerItem,
    /// Pipeline segments.
    Segments,
    /// Hybrid group size.
    GroupSize,
    /// ZeRO stage.
    Zero,
    /// Gradient bucket of the overlap.
    BucketMib,
    /// The planner's GPU budget.
    PlanGpus,
    /// Strategy selection (and run errors of no other field).
    Strategies,
}

/// A cell of the cluster editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClusterKey {
    /// One of [`super::cluster_editor::PARAMS`], by position.
    Param(usize),
    /// One of the realistic edition's facts, [`super::cluster_editor::FACTS`], by position.
    Fact(usize),
    /// A cell of switch level `index`.
    Level(usize, LevelColumn),
    /// The cluster as a whole (an error of no single cell).
    Whole,
}

/// A column of the switch-level table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LevelColumn {
    /// Nodes under one switch.
    Span,
    /// Switch latency (ns).
    Latency,
}

/// Where an error is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A run setting.
    Run(RunKey),
    /// The dataset size.
    Samples,
    /// The sample shape.
    SampleShape,
    /// A layer cell: row and column.
    Layer(usize, LayerColumn),
    /// The network as a whole (its name, the layer list).
    Network,
    /// A cluster cell.
    Cluster(ClusterKey),
    /// A line of the measured runs (calibration); line 0 for the text as
    /// a whole.
    Measured(usize),
}

/// Field errors by key.
pub type Errors = BTreeMap<Key, String>;

/// The key an engine error of a run belongs to.
pub fn of_run(error: &InputError) -> Key {
    let f = &error.field;
    let run = if f.is(&["gpus"]) {
        RunKey::Gpus
    } else if f.is(&["batch", "samples_per_gpu"]) {
        RunKey::SamplesPerGpu
    } else if f.is(&["batch", "mini_batch"]) {
        RunKey::MiniBatch
    } else if f.is(&["bytes_per_item"]) {
        RunKey::BytesPerItem
    } else if f.is(&["segments"]) {
        RunKey::Segments
    } else if f.is(&["group_size"]) {
        RunKey::GroupSize
    } else if f.is(&["zero"]) {
        RunKey::Zero
    } else if f.is(&["bucket_mib"]) {
        RunKey::BucketMib
    } else if f.is(&["max_gpus"]) {
        RunKey::PlanGpus
    } else {
        RunKey::Strategies
    };
    Key::Run(run)
}

/// The key an engine error of a network belongs to.
pub fn of_network(error: &InputError) -> Key {
    let f = &error.field;
    if let Some((row, rest)) = f.in_layer() {
        let column = match Field::first_key(rest) {
            Some("x") => LayerColumn::X,
            Some("w") => LayerColumn::W,
            Some("y") => LayerColumn::Y,
            Some("time_s") => LayerColumn::Time,
            Some("groups") => LayerColumn::Groups,
            _ => LayerColumn::Name,
        };
        return Key::Layer(row, column);
    }
    if f.starts_with(&["dataset", "samples"]) {
        Key::Samples
    } else if f.starts_with(&["dataset", "sample_shape"]) {
        Key::SampleShape
    } else {
        Key::Network
    }
}

/// The key an engine error of a cluster belongs to.
pub fn of_cluster(error: &InputError) -> Key {
    let f = &error.field;
    if let Some(i) = super::cluster_editor::PARAMS.iter().position(|p| f.is(p.path)) {
        return Key::Cluster(ClusterKey::Param(i));
    }
    if let Some(i) = super::cluster_editor::FACTS.iter().position(|p| f.is(p.path)) {
        return Key::Cluster(ClusterKey::Fact(i));
    }
    let key = match f.segments() {
        [
            Segment::Key("switch_levels"),
            Segment::Index(i),
            Segment::Key(column),
            ..,
        ] => match *column {
            "span_nodes" => ClusterKey::Level(*i, LevelColumn::Span),
            "latency_s" => ClusterKey::Level(*i, LevelColumn::Latency),
            _ => ClusterKey::Whole,
        },
        _ => ClusterKey::Whole,
    };
    Key::Cluster(key)
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

/// The key and message of an error in the measured runs: its line, and
/// the message with its column.
pub fn of_measured(error: &ParseError) -> (Key, String) {
    (
        Key::Measured(error.line),
        format!("Line {}, column {}: {}", error.line, error.column, error.problem),
    )
}

/// The message of an import error, with its line and column.
pub fn import_message(error: &OracleError) -> String {
    match error {
        OracleError::Parse(ParseError { line, column, problem }) => {
            format!("Line {line}, column {column}: {problem}")
        }
        OracleError::Input(e) => e.to_string(),
        OracleError::Graph(e) => format!("ONNX graph, {e}"),
        OracleError::Profile(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Rule;

    #[test]
    fn engine_fields_map_to_inputs() {
        let e = InputError::new(Field::from("w").index(0).within(&Field::layer(3, "CONV2")), Rule::Empty);
        assert_eq!(of_network(&e), Key::Layer(3, LayerColumn::W));
        let e = InputError::new(Field::layer(2, "RELU"), Rule::Empty);
        assert_eq!(of_network(&e), Key::Layer(2, LayerColumn::Name));
        let e = InputError::new("dataset.samples", Rule::Empty);
        assert_eq!(of_network(&e), Key::Samples);
        let e = InputError::new("group_size", Rule::NotDivisor { gpus: 8, group: 3 });
        assert_eq!(of_run(&e), Key::Run(RunKey::GroupSize));
        assert_eq!(message(&e), "Must divide the GPU count 8, found 3");
    }

    #[test]
    fn a_layer_named_with_dots_gets_its_error_on_its_own_cell() {
        // torchvision and ONNX names hold dots: `layer1.0.conv1`
        let e = InputError::new(
            Field::from("w").index(0).within(&Field::layer(4, "layer1.0.conv1")),
            Rule::Empty,
        );
        assert_eq!(of_network(&e), Key::Layer(4, LayerColumn::W));
    }

    #[test]
    fn cluster_fields_map_to_their_cells() {
        let e = InputError::new("nic.latency_s", Rule::Empty);
        let nic = super::super::cluster_editor::PARAMS
            .iter()
            .position(|p| p.path == ["nic", "latency_s"])
            .unwrap();
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Param(nic)));
        let e = InputError::new(Field::from("switch_levels").index(1).key("span_nodes"), Rule::Empty);
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Level(1, LevelColumn::Span)));
        let e = InputError::new("name", Rule::Empty);
        assert_eq!(of_cluster(&e), Key::Cluster(ClusterKey::Whole));
    }
}
