//! Small ONNX graphs written in code, with the messages of [`super::proto`]:
//! the importer's unit tests, the integration tests and the fuzz harness
//! build their graphs with these, and so can anyone who wants a graph of a
//! few nodes without an exporter.

use prost::Message;

use super::proto::{
    AttributeProto, Dimension, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorProto, TensorShapeProto,
    TensorType, TypeProto, ValueInfoProto,
};

/// ONNX's `TensorProto.DataType` FLOAT.
const FLOAT: i32 = 1;
/// ONNX's `TensorProto.DataType` INT64.
const INT64: i32 = 7;

/// A graph input of FP32 items with sizes `dims` (`None`: a symbolic size, `N`).
pub fn input(name: &str, dims: &[Option<i64>]) -> ValueInfoProto {
    ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorType {
                elem_type: Some(FLOAT),
                shape: Some(TensorShapeProto {
                    dim: dims
                        .iter()
                        .map(|d| Dimension {
                            dim_value: *d,
                            dim_param: d.is_none().then(|| "N".into()),
                        })
                        .collect(),
                }),
            }),
        }),
    }
}

/// An FP32 initializer of sizes `dims` without values (as the onnx
/// project's test models strip their weights).
pub fn weight(name: &str, dims: &[i64]) -> TensorProto {
    TensorProto {
        dims: dims.to_vec(),
        data_type: Some(FLOAT),
        name: Some(name.into()),
        ..TensorProto::default()
    }
}

/// A one-dimensional INT64 initializer holding `values` (a shape, axes).
pub fn int64s(name: &str, values: &[i64]) -> TensorProto {
    TensorProto {
        dims: vec![values.len() as i64],
        data_type: Some(INT64),
        raw_data: Some(values.iter().flat_map(|v| v.to_le_bytes()).collect()),
        name: Some(name.into()),
        ..TensorProto::default()
    }
}

/// A one-dimensional FP32 initializer holding `values` (a resize's scales).
pub fn floats(name: &str, values: &[f32]) -> TensorProto {
    TensorProto {
        dims: vec![values.len() as i64],
        data_type: Some(FLOAT),
        float_data: values.to_vec(),
        name: Some(name.into()),
        ..TensorProto::default()
    }
}

/// A node of the default domain.
pub fn node(op: &str, name: &str, inputs: &[&str], outputs: &[&str], attributes: Vec<AttributeProto>) -> NodeProto {
    NodeProto {
        input: inputs.iter().map(|s| (*s).to_string()).collect(),
        output: outputs.iter().map(|s| (*s).to_string()).collect(),
        name: Some(name.into()),
        op_type: Some(op.into()),
        attribute: attributes,
        domain: None,
    }
}

/// A `Constant` node writing the FP32 scalar `value` as `name`, as
/// torch.onnx writes a Python number.
pub fn scalar(name: &str, value: f32) -> NodeProto {
    let value = AttributeProto {
        name: Some("value".into()),
        t: Some(TensorProto {
            data_type: Some(FLOAT),
            raw_data: Some(value.to_le_bytes().to_vec()),
            ..TensorProto::default()
        }),
        ..AttributeProto::default()
    };
    node("Constant", name, &[], &[name], vec![value])
}

/// A list-of-integers attribute.
pub fn ints(name: &str, values: &[i64]) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        ints: values.to_vec(),
        ..AttributeProto::default()
    }
}

/// An integer attribute.
pub fn int(name: &str, value: i64) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        i: Some(value),
        ..AttributeProto::default()
    }
}

/// A string attribute.
pub fn text(name: &str, value: &str) -> AttributeProto {
    AttributeProto {
        name: Some(name.into()),
        s: Some(value.as_bytes().to_vec()),
        ..AttributeProto::default()
    }
}

/// A graph named `small` reading `data` of sizes `input`.
pub fn graph(input_dims: &[Option<i64>], nodes: Vec<NodeProto>, weights: Vec<TensorProto>) -> GraphProto {
    GraphProto {
        node: nodes,
        name: Some("small".into()),
        initializer: weights,
        input: vec![input("data", input_dims)],
        output: vec![],
        sparse_initializer: vec![],
    }
}

/// The default operator set's version [`model`] declares.
pub const OPSET: i64 = 17;

/// [`graph`] as the bytes of an `.onnx` file (IR version 8, [`OPSET`]).
pub fn model(input_dims: &[Option<i64>], nodes: Vec<NodeProto>, weights: Vec<TensorProto>) -> Vec<u8> {
    model_at(Some(OPSET), graph(input_dims, nodes, weights))
}

/// `graph` as the bytes of an `.onnx` file declaring `opset` of ONNX's
/// default operators (`None`: declaring none).
pub fn model_at(opset: Option<i64>, graph: GraphProto) -> Vec<u8> {
    ModelProto {
        ir_version: Some(8),
        producer_name: Some("paradl".into()),
        graph: Some(graph),
        opset_import: opset
            .map(|version| OperatorSetIdProto {
                domain: Some(String::new()),
                version: Some(version),
            })
            .into_iter()
            .collect(),
    }
    .encode_to_vec()
}
