//! Typed keys of the editable fields, so that an edit and its error land
//! on their input: the engine's [`Field`] path is matched segment by
//! segment (never formatted and parsed back), and each input looks its
//! text and error up by key.

use std::collections::BTreeMap;

use crate::oracle::{Field, InputError, OracleError, ParseError};

/// A run setting (see [`crate::app::input::run_fields::RUN_FIELDS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunKey {
    /// GPU budget.
    Gpus,
    /// Samples per GPU or a global mini-batch.
    BatchMode,
    /// Samples per GPU.
    SamplesPerGpu,
    /// Mini-batch.
    MiniBatch,
    /// Strategies drawn (and run errors of no other field).
    Strategies,
    /// Bytes per item.
    BytesPerItem,
    /// Pipeline segments.
    Segments,
    /// Hybrid group size.
    GroupSize,
    /// The edition of the model.
    Edition,
    /// Arithmetic.
    Precision,
    Optimizer,
    /// How attention runs (transformers, section 15).
    Attention,
    /// ZeRO stage.
    Zero,
    /// Activation recompute.
    Recompute,
    /// Overlap of the gradient exchange.
    Overlap,
    /// Gradient bucket of the overlap.
    BucketMib,
    /// Epochs to train: a convergence curve or a number of epochs.
    Convergence,
    /// The grid: a region's key or grams of CO2 per kWh.
    Grid,
    /// A GPU-hour's price: an instance's key, `owned`, or dollars.
    Price,
    /// An owned cluster's electricity, dollars per kWh.
    KwhPrice,
    /// The facility's PUE.
    Pue,
    /// What the ranking calls best.
    RankBy,
    /// Measured runs (their errors are keyed by line, [`Key::Measured`]).
    Measured,
}

/// A cell of the cluster editor: a field by its engine path (one of
/// [`crate::app::input::cluster_fields::PARAMS`] or [`crate::app::input::cluster_fields::FACTS`]),
/// a switch level's cell, or the whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClusterKey {
    /// A scalar or an optional fact, by its engine path.
    Field(&'static [&'static str]),
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

/// A column of the layer table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerColumn {
    Name,
    Kind,
    /// Input shape.
    X,
    /// Weight shape.
    W,
    /// Output shape.
    Y,
    /// Profiled time.
    Time,
    /// Groups of a convolution.
    Groups,
}

impl LayerColumn {
    /// A short name (for input ids and labels).
    pub fn key(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Kind => "kind",
            Self::X => "x",
            Self::W => "w",
            Self::Y => "y",
            Self::Time => "time_s",
            Self::Groups => "groups",
        }
    }
}

/// Where an edit or an error is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A run setting.
    Run(RunKey),
    /// The planner's GPU budget.
    PlanGpus,
    /// The planner's memory budget per GPU.
    PlanMemory,
    /// The planner's money budget to train.
    PlanUsd,
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
            Some("kind") => LayerColumn::Kind,
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

/// The message of an engine error, without the field path when the input
/// it sits next to already names it.
pub fn message(error: &InputError) -> String {
    crate::oracle::units::capitalised(&error.rule.to_string())
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
    use crate::app::input::keys::*;
    use crate::oracle::Rule;

    #[test]
    fn engine_fields_map_to_inputs() {
        let e = InputError::new(Field::from("w").index(0).within(&Field::layer(3, "CONV2")), Rule::Empty);
        assert_eq!(of_network(&e), Key::Layer(3, LayerColumn::W));
        let e = InputError::new(Field::layer(2, "RELU"), Rule::Empty);
        assert_eq!(of_network(&e), Key::Layer(2, LayerColumn::Name));
        let e = InputError::new("dataset.samples", Rule::Empty);
        assert_eq!(of_network(&e), Key::Samples);
    }
}
