//! ONNX graphs (`.onnx`, binary protobuf) as networks: the messages of
//! `onnx.proto` the importer needs ([`proto`], decoded by prost), and the
//! conversion of the graph to the engine's layer list with its own shape
//! propagation ([`convert`]). Contract, section 10.
//!
//! Weights come as initializers, as `Constant` nodes or as the outputs of
//! `ConstantOfShape` (the onnx project's test models strip their weights
//! so); the data input is the first graph input that is not a weight. An
//! operator the model does not know is an error naming the node, its
//! operator and its index, never a silent drop.

mod act;
pub mod build;
mod convert;
mod fuse;
mod inference;
pub mod proto;
mod unmerge;

mod values;

use std::collections::BTreeMap;

use prost::Message;

use crate::oracle::model::errors::{GraphError, OracleError};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

/// Samples of the dataset an imported network trains on, unless given:
/// ImageNet-1k's training set (ILSVRC 2012), 1,281,167 images.
pub const DEFAULT_SAMPLES: u64 = 1_281_167;

/// What an import gives: the network and what became no layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub network: Network,
    /// Operators that became no layer (shape-only or constants) or were
    /// merged into one (a bias add), with their counts.
    pub merged: BTreeMap<String, usize>,
}

/// Graph names exporters write whatever the network (torch.onnx's
/// `main_graph` and `torch_jit`, tf2onnx's): the file's name says more.
const GENERIC_GRAPH_NAMES: [&str; 5] = ["main_graph", "torch_jit", "torch-jit-export", "tf2onnx", "graph"];

/// Reads an ONNX file (named by its graph, or by `name`, the file's, when
/// the graph's name is an exporter's default). `input_shape` (`[C, spatial...]`) replaces the data
/// input's sizes (needed when they are symbolic); `samples` is the
/// dataset's size.
///
/// # Errors
/// [`OracleError::Graph`] for bytes that are not an ONNX model or a graph
/// that cannot be converted (naming the node); [`OracleError::Input`] for
/// layers that break a rule of the model.
pub fn read(bytes: &[u8], name: &str, input_shape: Option<&Shape>, samples: u64) -> Result<Imported, OracleError> {
    let model = proto::ModelProto::decode(bytes).map_err(|e| GraphError {
        node: None,
        problem: format!("not an ONNX model (protobuf: {e})"),
    })?;
    let graph = model.graph.as_ref().ok_or_else(|| GraphError {
        node: None,
        problem: "an ONNX model without a graph".into(),
    })?;
    let opset = default_opset(&model)?;
    let (converted, sample) = convert::graph(graph, input_shape.map(Shape::dims), opset)?;
    // a file's name may hold what no network name may (a tab, a newline): those become spaces
    let file_name: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let title = graph
        .name
        .clone()
        .filter(|n| !n.trim().is_empty() && (!GENERIC_GRAPH_NAMES.contains(&n.trim()) || file_name.trim().is_empty()))
        .unwrap_or_else(|| file_name.trim().to_string());
    let network = Network::new(NetworkSpec {
        name: title,
        dataset: DatasetSpec {
            name: "ImageNet-1k (assumed; change the dataset size)".into(),
            samples,
            sample_shape: Shape::new(sample),
        },
        layers: converted.layers,
        profiled_on: None,
        step: None,
    })?;
    Ok(Imported {
        network,
        merged: converted.merged,
    })
}

/// The newest version of ONNX's default operator set a graph may declare:
/// ONNX 1.19 (2025) defines opset 24, and later ones change operators this
/// importer does not read; a declared version past this is no ONNX file's.
pub const NEWEST_OPSET: i64 = 30;

/// The version of ONNX's default operator set (domain `""` or `ai.onnx`)
/// the graph's operators follow: each is read by its definition there
/// (Resize before opset 11 takes its scales as input 1, Upsample before
/// opset 9 as an attribute).
///
/// # Errors
/// A [`GraphError`] for a model that declares none, declares it twice, or
/// declares a version outside 1 to [`NEWEST_OPSET`].
fn default_opset(model: &proto::ModelProto) -> Result<i64, GraphError> {
    let default: Vec<Option<i64>> = model
        .opset_import
        .iter()
        .filter(|o| matches!(o.domain.as_deref(), None | Some("" | "ai.onnx")))
        .map(|o| o.version)
        .collect();
    let problem = match default.as_slice() {
        [Some(v)] if (1..=NEWEST_OPSET).contains(v) => return Ok(*v),
        [Some(v)] => format!("it declares opset {v} of ONNX's operators, which no ONNX defines (1 to {NEWEST_OPSET})"),
        [None] => "its opset_import names ONNX's operators without a version".to_string(),
        [] => "it declares no version of ONNX's operators (opset_import): export it again with an opset (e.g. opset_version=17)".to_string(),
        _ => "it declares ONNX's operators more than once (opset_import)".to_string(),
    };
    Err(GraphError { node: None, problem })
}

/// Whether bytes look like an ONNX model rather than text: a protobuf
/// starting with field 1 (`ir_version`, a varint), as every ONNX writer
/// does.
pub fn looks_like_onnx(bytes: &[u8]) -> bool {
    bytes.first() == Some(&0x08)
}
