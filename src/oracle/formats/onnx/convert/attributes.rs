//! A node's attributes, read with their defaults, and initializers as
//! constants.

use super::super::proto::{AttributeProto, NodeProto, TensorProto};
use super::super::values::{self, Const, Values, items};
use super::fail;
use crate::oracle::model::errors::{GraphError, NodeRef, quoted};

/// The attribute `name` of a node.
pub(super) fn attribute<'n>(node: &'n NodeProto, name: &str) -> Option<&'n AttributeProto> {
    node.attribute.iter().find(|a| a.name.as_deref() == Some(name))
}

/// An integer attribute, `default` when absent.
pub(super) fn int(node: &NodeProto, name: &str, default: i64) -> i64 {
    attribute(node, name).and_then(|a| a.i).unwrap_or(default)
}

/// The type an attribute the importer reads must have (ONNX's
/// `AttributeType`: FLOAT 1, INT 2, STRING 3, TENSOR 4, FLOATS 6, INTS 7),
/// by its name; `None` for one it does not read.
fn expected_type(name: &str) -> Option<i32> {
    Some(match name {
        "alpha" | "beta" | "epsilon" | "momentum" | "min" | "max" | "value_float" | "bias" | "gamma" | "lambd" => 1,
        "group"
        | "axis"
        | "keepdims"
        | "allowzero"
        | "transA"
        | "transB"
        | "start"
        | "end"
        | "to"
        | "ceil_mode"
        | "count_include_pad"
        | "noop_with_empty_axes"
        | "value_int"
        | "p" => 2,
        "auto_pad" | "mode" | "approximate" | "coordinate_transformation_mode" | "nearest_mode" => 3,
        "value" => 4,
        "scales" => 6,
        "pads" | "strides" | "dilations" | "kernel_shape" | "perm" | "axes" | "split" | "starts" | "ends" | "steps"
        | "output_padding" | "output_shape" | "value_ints" => 7,
        _ => return None,
    })
}

/// The type of an attribute: its `type` field, else the field that holds
/// its value (`None` when it holds none).
fn type_of(attribute: &AttributeProto) -> Option<i32> {
    attribute.r#type.filter(|&t| t != 0).or(if attribute.f.is_some() {
        Some(1)
    } else if attribute.i.is_some() {
        Some(2)
    } else if attribute.s.is_some() {
        Some(3)
    } else if attribute.t.is_some() {
        Some(4)
    } else if !attribute.floats.is_empty() {
        Some(6)
    } else if !attribute.ints.is_empty() {
        Some(7)
    } else {
        None
    })
}

/// ONNX's name of an attribute type.
fn type_name(kind: i32) -> &'static str {
    match kind {
        1 => "a float (FLOAT)",
        2 => "an integer (INT)",
        3 => "a string (STRING)",
        4 => "a tensor (TENSOR)",
        5 => "a graph (GRAPH)",
        6 => "floats (FLOATS)",
        7 => "integers (INTS)",
        8 => "strings (STRINGS)",
        _ => "an unknown type",
    }
}

/// Checks a node's attributes before it is read: each named once, and
/// each the importer reads of the type ONNX defines for it (a `pads` of
/// floats is not read as no pads).
///
/// # Errors
/// A [`GraphError`] naming the attribute.
pub(super) fn check(node: &NodeProto, at: &NodeRef) -> Result<(), GraphError> {
    for (i, a) in node.attribute.iter().enumerate() {
        let name = a.name.as_deref().unwrap_or_default();
        if node.attribute[..i].iter().any(|b| b.name.as_deref() == Some(name)) {
            return Err(fail(
                Some(at.clone()),
                format!("its attribute '{}' is given twice", quoted(name)),
            ));
        }
        if let (Some(want), Some(found)) = (expected_type(name), type_of(a))
            && want != found
        {
            return Err(fail(
                Some(at.clone()),
                format!(
                    "its attribute '{name}' must be {}, found {}",
                    type_name(want),
                    type_name(found)
                ),
            ));
        }
    }
    Ok(())
}

/// A per-dimension attribute (`strides`, `dilations`, `kernel_shape`:
/// `per` = 1; `pads`: `per` = 2, the begins then the ends) of a window over
/// `n` dimensions: empty (the default) or `per·n` values, each at least
/// `min` (1, or 0 for pads).
///
/// # Errors
/// Another count of values, or a value below `min`, naming the attribute.
pub(super) fn per_dimension(
    node: &NodeProto,
    name: &str,
    n: usize,
    per: usize,
    at: &NodeRef,
) -> Result<Vec<u64>, GraphError> {
    let values = ints(node, name).unwrap_or(&[]);
    if !values.is_empty() && values.len() != per * n {
        return Err(fail(
            Some(at.clone()),
            format!(
                "its {name} has {} values, not {} ({} per dimension of its {n})",
                values.len(),
                per * n,
                per
            ),
        ));
    }
    if per == 2 || name == "output_padding" {
        non_negative(values, name, at)
    } else {
        positive(values, name, at)
    }
}

/// A window's `auto_pad`: `None` for explicit pads (`NOTSET`, or none),
/// `Some(true)` for `SAME_UPPER`/`SAME_LOWER`, `Some(false)` for `VALID`.
///
/// # Errors
/// Another value, naming it.
pub(super) fn auto_pad(node: &NodeProto, at: &NodeRef) -> Result<Option<bool>, GraphError> {
    match text(node, "auto_pad").as_deref() {
        None | Some("NOTSET") => Ok(None),
        Some("SAME_UPPER" | "SAME_LOWER") => Ok(Some(true)),
        Some("VALID") => Ok(Some(false)),
        Some(other) => Err(fail(
            Some(at.clone()),
            format!(
                "its auto_pad '{}' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID",
                quoted(other)
            ),
        )),
    }
}

/// A convolution's `group` attribute (1 when absent), which must be at
/// least 1.
pub(super) fn groups(node: &NodeProto, at: &NodeRef) -> Result<u64, GraphError> {
    let group = int(node, "group", 1);
    u64::try_from(group)
        .ok()
        .filter(|&g| g >= 1)
        .ok_or_else(|| fail(Some(at.clone()), format!("group {group} must be at least 1")))
}

/// A list-of-integers attribute.
pub(super) fn ints<'n>(node: &'n NodeProto, name: &str) -> Option<&'n [i64]> {
    attribute(node, name).map(|a| a.ints.as_slice())
}

/// A string attribute.
pub(super) fn text(node: &NodeProto, name: &str) -> Option<String> {
    attribute(node, name)
        .and_then(|a| a.s.as_deref())
        .map(|s| String::from_utf8_lossy(s).into_owned())
}

/// A constant of a tensor proto: its dimensions and its values when small.
pub(super) fn constant(tensor: &TensorProto) -> Result<Const, String> {
    let dims = tensor
        .dims
        .iter()
        .map(|&d| u64::try_from(d).map_err(|_| format!("a dimension of {d}")))
        .collect::<Result<Vec<u64>, String>>()?;
    let n = items(&dims)?;
    let values = if n as usize <= values::MAX_FOLDED_ITEMS {
        tensor
            .integers()
            .map(Values::Int)
            .or_else(|| tensor.floats().map(Values::Float))
    } else {
        None
    };
    Const::new(dims, values)
}

/// Positive integers of an attribute (strides, dilations, kernels), or an
/// error naming it.
pub(super) fn positive(values: &[i64], what: &str, at: &NodeRef) -> Result<Vec<u64>, GraphError> {
    values
        .iter()
        .map(|&v| {
            u64::try_from(v)
                .ok()
                .filter(|&v| v >= 1)
                .ok_or_else(|| fail(Some(at.clone()), format!("{what} holds {v}: each must be at least 1")))
        })
        .collect()
}

/// Non-negative integers of an attribute (pads), or an error naming it.
pub(super) fn non_negative(values: &[i64], what: &str, at: &NodeRef) -> Result<Vec<u64>, GraphError> {
    values
        .iter()
        .map(|&v| u64::try_from(v).map_err(|_| fail(Some(at.clone()), format!("{what} holds {v}, below 0"))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::build::{int as int_attr, ints as ints_attr, node, text as text_attr, weight};
    use super::*;

    fn at() -> NodeRef {
        NodeRef {
            index: 3,
            name: "c".into(),
            op: "Conv".into(),
        }
    }

    #[test]
    fn attributes_are_read_by_name_with_their_defaults() {
        let n = node(
            "Conv",
            "c",
            &["x"],
            &["y"],
            vec![
                int_attr("group", 4),
                ints_attr("strides", &[2, 2]),
                text_attr("auto_pad", "SAME_UPPER"),
            ],
        );
        assert_eq!(int(&n, "group", 1), 4);
        assert_eq!(int(&n, "axis", 1), 1);
        assert_eq!(ints(&n, "strides"), Some(&[2, 2][..]));
        assert_eq!(ints(&n, "pads"), None);
        assert_eq!(text(&n, "auto_pad").as_deref(), Some("SAME_UPPER"));
        assert_eq!(groups(&n, &at()).unwrap(), 4);
        let zero = node("Conv", "c", &[], &[], vec![int_attr("group", 0)]);
        assert!(groups(&zero, &at()).unwrap_err().problem.contains("group"));
    }

    #[test]
    fn sizes_below_their_floor_name_the_attribute() {
        assert_eq!(positive(&[1, 3], "strides", &at()).unwrap(), vec![1, 3]);
        let e = positive(&[2, 0], "strides", &at()).unwrap_err();
        assert!(e.problem.contains("strides holds 0"), "{}", e.problem);
        assert_eq!(non_negative(&[0, 2], "pads", &at()).unwrap(), vec![0, 2]);
        assert!(
            non_negative(&[-1], "pads", &at())
                .unwrap_err()
                .problem
                .contains("below 0")
        );
    }

    #[test]
    fn an_initializer_is_a_constant_of_its_sizes() {
        let c = constant(&weight("w", &[16, 8, 3, 3])).unwrap();
        assert_eq!(c.dims, vec![16, 8, 3, 3]);
        assert_eq!(c.count(), 16 * 8 * 9);
        assert!(constant(&weight("w", &[4, -1])).is_err());
    }
}
