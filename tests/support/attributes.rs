//! ONNX node attributes for the graphs the tests build (`tests/onnx.rs`
//! and the fuzz harness's generator).

use paradl::oracle::formats::onnx::proto::AttributeProto;

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
