//! The messages of the ONNX file format (`onnx.proto`, IR version 3 and
//! later) that the importer reads, with the published field numbers.
//! Fields it does not need are skipped by the decoder.

use prost::Message;

/// `ModelProto`: the file.
#[derive(Clone, PartialEq, Message)]
pub struct ModelProto {
    /// `ir_version = 1`.
    #[prost(int64, optional, tag = "1")]
    pub ir_version: Option<i64>,
    /// `producer_name = 2`.
    #[prost(string, optional, tag = "2")]
    pub producer_name: Option<String>,
    /// `graph = 7`.
    #[prost(message, optional, tag = "7")]
    pub graph: Option<GraphProto>,
    /// `opset_import = 8`: the version of each operator set the graph's
    /// operators follow.
    #[prost(message, repeated, tag = "8")]
    pub opset_import: Vec<OperatorSetIdProto>,
}

/// `OperatorSetIdProto`: an operator set and its version.
#[derive(Clone, PartialEq, Message)]
pub struct OperatorSetIdProto {
    /// `domain = 1` (empty or `ai.onnx`: the default operators).
    #[prost(string, optional, tag = "1")]
    pub domain: Option<String>,
    /// `version = 2`.
    #[prost(int64, optional, tag = "2")]
    pub version: Option<i64>,
}

/// `SparseTensorProto`: a constant stored as its non-zero values.
#[derive(Clone, PartialEq, Message)]
pub struct SparseTensorProto {
    /// `values = 1`: the non-zero values, named as the whole tensor.
    #[prost(message, optional, tag = "1")]
    pub values: Option<TensorProto>,
    /// `dims = 3`: the whole tensor's sizes.
    #[prost(int64, repeated, tag = "3")]
    pub dims: Vec<i64>,
}

/// `GraphProto`: nodes in topological order, weights, inputs and outputs.
#[derive(Clone, PartialEq, Message)]
pub struct GraphProto {
    /// `node = 1`.
    #[prost(message, repeated, tag = "1")]
    pub node: Vec<NodeProto>,
    /// `name = 2`.
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    /// `initializer = 5`.
    #[prost(message, repeated, tag = "5")]
    pub initializer: Vec<TensorProto>,
    /// `input = 11`.
    #[prost(message, repeated, tag = "11")]
    pub input: Vec<ValueInfoProto>,
    /// `output = 12`.
    #[prost(message, repeated, tag = "12")]
    pub output: Vec<ValueInfoProto>,
    /// `sparse_initializer = 15`.
    #[prost(message, repeated, tag = "15")]
    pub sparse_initializer: Vec<SparseTensorProto>,
}

/// `NodeProto`: one operator.
#[derive(Clone, PartialEq, Message)]
pub struct NodeProto {
    /// `input = 1`.
    #[prost(string, repeated, tag = "1")]
    pub input: Vec<String>,
    /// `output = 2`.
    #[prost(string, repeated, tag = "2")]
    pub output: Vec<String>,
    /// `name = 3`.
    #[prost(string, optional, tag = "3")]
    pub name: Option<String>,
    /// `op_type = 4`.
    #[prost(string, optional, tag = "4")]
    pub op_type: Option<String>,
    /// `attribute = 5`.
    #[prost(message, repeated, tag = "5")]
    pub attribute: Vec<AttributeProto>,
    /// `domain = 7`.
    #[prost(string, optional, tag = "7")]
    pub domain: Option<String>,
}

/// `AttributeProto`: a named value of a node.
#[derive(Clone, PartialEq, Message)]
pub struct AttributeProto {
    /// `name = 1`.
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    /// `f = 2`.
    #[prost(float, optional, tag = "2")]
    pub f: Option<f32>,
    /// `i = 3`.
    #[prost(int64, optional, tag = "3")]
    pub i: Option<i64>,
    /// `s = 4`.
    #[prost(bytes = "vec", optional, tag = "4")]
    pub s: Option<Vec<u8>>,
    /// `t = 5`.
    #[prost(message, optional, tag = "5")]
    pub t: Option<TensorProto>,
    /// `floats = 7`.
    #[prost(float, repeated, tag = "7")]
    pub floats: Vec<f32>,
    /// `ints = 8`.
    #[prost(int64, repeated, tag = "8")]
    pub ints: Vec<i64>,
    /// `strings = 9`.
    #[prost(bytes = "vec", repeated, tag = "9")]
    pub strings: Vec<Vec<u8>>,
    /// `type = 20`: which of the fields holds the value (`AttributeType`:
    /// FLOAT 1, INT 2, STRING 3, TENSOR 4, GRAPH 5, FLOATS 6, INTS 7,
    /// STRINGS 8).
    #[prost(int32, optional, tag = "20")]
    pub r#type: Option<i32>,
}

/// `TensorProto`: a constant tensor (its shape, and its integers when the
/// importer needs them).
#[derive(Clone, PartialEq, Message)]
pub struct TensorProto {
    /// `dims = 1`.
    #[prost(int64, repeated, tag = "1")]
    pub dims: Vec<i64>,
    /// `data_type = 2`.
    #[prost(int32, optional, tag = "2")]
    pub data_type: Option<i32>,
    /// `float_data = 4`.
    #[prost(float, repeated, tag = "4")]
    pub float_data: Vec<f32>,
    /// `int32_data = 5`.
    #[prost(int32, repeated, tag = "5")]
    pub int32_data: Vec<i32>,
    /// `int64_data = 7`.
    #[prost(int64, repeated, tag = "7")]
    pub int64_data: Vec<i64>,
    /// `name = 8`.
    #[prost(string, optional, tag = "8")]
    pub name: Option<String>,
    /// `raw_data = 9`.
    #[prost(bytes = "vec", optional, tag = "9")]
    pub raw_data: Option<Vec<u8>>,
    /// `double_data = 10`.
    #[prost(double, repeated, tag = "10")]
    pub double_data: Vec<f64>,
}

/// `ValueInfoProto`: a named, typed value (graph inputs and outputs).
#[derive(Clone, PartialEq, Message)]
pub struct ValueInfoProto {
    /// `name = 1`.
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    /// `type = 2`.
    #[prost(message, optional, tag = "2")]
    pub r#type: Option<TypeProto>,
}

/// `TypeProto`: only its tensor type is read.
#[derive(Clone, PartialEq, Message)]
pub struct TypeProto {
    /// `tensor_type = 1`.
    #[prost(message, optional, tag = "1")]
    pub tensor_type: Option<TensorType>,
}

/// `TypeProto.Tensor`.
#[derive(Clone, PartialEq, Message)]
pub struct TensorType {
    /// `elem_type = 1`.
    #[prost(int32, optional, tag = "1")]
    pub elem_type: Option<i32>,
    /// `shape = 2`.
    #[prost(message, optional, tag = "2")]
    pub shape: Option<TensorShapeProto>,
}

/// `TensorShapeProto`.
#[derive(Clone, PartialEq, Message)]
pub struct TensorShapeProto {
    /// `dim = 1`.
    #[prost(message, repeated, tag = "1")]
    pub dim: Vec<Dimension>,
}

/// `TensorShapeProto.Dimension`: a number or a symbol.
#[derive(Clone, PartialEq, Message)]
pub struct Dimension {
    /// `dim_value = 1`.
    #[prost(int64, optional, tag = "1")]
    pub dim_value: Option<i64>,
    /// `dim_param = 2`.
    #[prost(string, optional, tag = "2")]
    pub dim_param: Option<String>,
}

/// `TensorProto.DataType.INT64`.
pub const INT64: i32 = 7;
/// `TensorProto.DataType.INT32`.
pub const INT32: i32 = 6;
/// `TensorProto.DataType.FLOAT`.
pub const FLOAT: i32 = 1;
/// `TensorProto.DataType.DOUBLE`.
pub const DOUBLE: i32 = 11;
/// `TensorProto.DataType.FLOAT16`.
pub const FLOAT16: i32 = 10;
/// `TensorProto.DataType.BOOL`.
pub const BOOL: i32 = 9;
/// `TensorProto.DataType.INT8`.
pub const INT8: i32 = 3;
/// `TensorProto.DataType.UINT8`.
pub const UINT8: i32 = 2;

impl TensorProto {
    /// The tensor's integers, when it is an INT64 or INT32 tensor (from the
    /// typed field or the little-endian raw bytes).
    pub fn integers(&self) -> Option<Vec<i64>> {
        match self.data_type {
            Some(INT64) => {
                if !self.int64_data.is_empty() {
                    return Some(self.int64_data.clone());
                }
                let raw = self.raw_data.as_deref()?;
                raw.len().is_multiple_of(8).then(|| {
                    raw.chunks_exact(8)
                        .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                        .collect()
                })
            }
            Some(INT8 | UINT8 | BOOL) if self.int32_data.is_empty() => {
                let raw = self.raw_data.as_deref()?;
                let signed = self.data_type == Some(INT8);
                Some(
                    raw.iter()
                        .map(|&b| if signed { i64::from(b as i8) } else { i64::from(b) })
                        .collect(),
                )
            }
            Some(INT32 | INT8 | UINT8 | BOOL) => {
                if !self.int32_data.is_empty() {
                    return Some(self.int32_data.iter().map(|&v| i64::from(v)).collect());
                }
                let raw = self.raw_data.as_deref()?;
                raw.len().is_multiple_of(4).then(|| {
                    raw.chunks_exact(4)
                        .map(|c| i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                        .collect()
                })
            }
            _ => None,
        }
    }

    /// The tensor's floating-point numbers, when it is a FLOAT, DOUBLE or
    /// FLOAT16 tensor (from the typed field or the little-endian raw bytes).
    pub fn floats(&self) -> Option<Vec<f64>> {
        let raw = self.raw_data.as_deref().unwrap_or_default();
        match self.data_type {
            Some(FLOAT) if !self.float_data.is_empty() => Some(self.float_data.iter().map(|&v| f64::from(v)).collect()),
            Some(FLOAT) => raw.len().is_multiple_of(4).then(|| {
                raw.chunks_exact(4)
                    .map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                    .collect()
            }),
            Some(DOUBLE) if !self.double_data.is_empty() => Some(self.double_data.clone()),
            Some(DOUBLE) => raw.len().is_multiple_of(8).then(|| {
                raw.chunks_exact(8)
                    .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                    .collect()
            }),
            Some(FLOAT16) if !self.int32_data.is_empty() => {
                Some(self.int32_data.iter().map(|&v| half(v as u16)).collect())
            }
            Some(FLOAT16) => raw.len().is_multiple_of(2).then(|| {
                raw.chunks_exact(2)
                    .map(|c| half(u16::from_le_bytes([c[0], c[1]])))
                    .collect()
            }),
            _ => None,
        }
    }
}

/// An IEEE 754 half-precision number.
fn half(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let fraction = f64::from(bits & 0x3ff);
    sign * match exponent {
        0 => fraction * 2f64.powi(-24),
        31 if fraction == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + fraction / 1024.0) * 2f64.powi(e - 15),
    }
}
