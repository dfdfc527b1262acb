//! A layer's config: counts, per-dimension settings, pairs of pads, and
//! where a layer's name sits in the text (for errors).

use serde_json::Value;

use super::super::sizes::{self, Padding};
use super::Walk;
use crate::oracle::model::errors::ParseError;

/// The position of a layer's `"name": "..."` in the text (1, 1 if absent).
pub(super) fn position(text: &str, name: &str) -> (usize, usize) {
    let needle = format!("\"{name}\"");
    let at = text
        .match_indices(&needle)
        .map(|(i, _)| i)
        .find(|&i| {
            text[..i].trim_end().ends_with(':')
                && text[..i]
                    .trim_end()
                    .trim_end_matches(':')
                    .trim_end()
                    .ends_with("\"name\"")
        })
        .or_else(|| text.find(&needle));
    at.map_or((1, 1), |i| {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, column)
    })
}

/// Largest count a setting may hold (filters, units, kernels, pads):
/// 2^40, beyond which no network is meant.
pub(super) const MAX_SETTING: u64 = 1 << 40;

/// A count of the layer's config: absent, or a whole number from `min` to
/// [`MAX_SETTING`].
pub(super) fn count(config: &Value, key: &str, min: u64) -> Result<Option<u64>, String> {
    match config.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|&n| (min..=MAX_SETTING).contains(&n))
            .map(Some)
            .ok_or_else(|| format!("its {key} is {v}: a whole number from {min} to 2^40 is needed")),
    }
}

/// A per-dimension setting: a number or a list of `n`, each from `min` to
/// [`MAX_SETTING`].
pub(super) fn per_dim(config: &Value, key: &str, n: usize, default: u64, min: u64) -> Result<Vec<u64>, String> {
    let check = |v: &Value| {
        v.as_u64()
            .filter(|&x| (min..=MAX_SETTING).contains(&x))
            .ok_or_else(|| format!("its {key} holds {v}: each must be a whole number from {min} to 2^40"))
    };
    match config.get(key) {
        Some(Value::Array(list)) if list.len() == n => list.iter().map(check).collect(),
        Some(Value::Array(list)) => Err(format!("its {key} has {} values for {n} dimensions", list.len())),
        Some(Value::Null) | None => Ok(vec![default; n]),
        Some(v) => Ok(vec![check(v)?; n]),
    }
}

/// The product of `dims`, `None` where it would wrap.
pub(super) fn product(dims: &[u64]) -> Option<u64> {
    dims.iter().try_fold(1u64, |a, &b| a.checked_mul(b))
}

/// Items of a tensor of sizes `dims`, when at most 2^53 (exact in an f64),
/// without wrapping.
pub(super) fn items_of(dims: &[u64]) -> Option<u64> {
    product(dims).filter(|&n| n <= MAX_ITEMS)
}

/// The most items a tensor may hold (2^53, exact in an f64).
pub(super) const MAX_ITEMS: u64 = 1 << 53;

pub(super) fn text_of<'v>(config: &'v Value, key: &str) -> Option<&'v str> {
    config.get(key).and_then(Value::as_str)
}

/// Whether a layer pads to keep its positions (`"same"`, and `"causal"`, a
/// one-sided same) or not (`"valid"`, Keras's default).
///
/// # Errors
/// Another padding, in words.
pub(super) fn same_padding(config: &Value) -> Result<bool, String> {
    match config.get("padding") {
        None | Some(Value::Null) => Ok(false),
        Some(Value::String(p)) if p.eq_ignore_ascii_case("valid") => Ok(false),
        Some(Value::String(p)) if p.eq_ignore_ascii_case("same") || p.eq_ignore_ascii_case("causal") => Ok(true),
        Some(other) => Err(format!(
            "its padding {} (expected \"valid\", \"same\" or \"causal\")",
            super::super::super::model::errors::quoted(&other.to_string())
        )),
    }
}

/// The output sizes of a window (`same`: padded to keep `ceil(in/stride)`,
/// else unpadded), as [`sizes::spatial`] computes them for ONNX.
pub(super) fn window(input: &[u64], kernel: &[u64], strides: &[u64], dilation: &[u64], same: bool) -> Option<Vec<u64>> {
    let padding = if same { Padding::Same } else { Padding::Valid };
    sizes::spatial(input, kernel, strides, dilation, &padding, false)
}

impl Walk<'_> {
    /// A count the layer needs (filters, units).
    pub(super) fn needed(&self, name: &str, config: &Value, key: &str) -> Result<u64, ParseError> {
        count(config, key, 1)
            .map_err(|p| self.error(name, p))?
            .ok_or_else(|| self.error(name, format!("no {key}")))
    }

    /// A padding or cropping: a number, a pair per dimension, or one number
    /// per dimension (`default` when absent).
    pub(super) fn pairs(
        &self,
        name: &str,
        config: &Value,
        key: &str,
        n: usize,
        default: u64,
    ) -> Result<Vec<(u64, u64)>, ParseError> {
        let one = |v: &Value| {
            v.as_u64().filter(|&x| x <= MAX_SETTING).ok_or_else(|| {
                self.error(
                    name,
                    format!("its {key} holds {v}: a whole number from 0 to 2^40 is needed"),
                )
            })
        };
        match config.get(key) {
            Some(Value::Array(list)) if list.len() == n => list
                .iter()
                .map(|p| match p {
                    Value::Array(pair) if pair.len() == 2 => Ok((one(&pair[0])?, one(&pair[1])?)),
                    Value::Array(_) => Err(self.error(name, format!("its {key} holds {p}: pairs are needed"))),
                    v => Ok((one(v)?, one(v)?)),
                })
                .collect(),
            Some(Value::Array(list)) => {
                Err(self.error(name, format!("its {key} has {} values for {n} dimensions", list.len())))
            }
            Some(v) => Ok(vec![(one(v)?, one(v)?); n]),
            None => Ok(vec![(default, default); n]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_counts_or_one_per_dimension() {
        let config: Value =
            serde_json::from_str(r#"{"filters": 8, "kernel_size": [3, 5], "strides": 2, "bad": -1}"#).unwrap();
        assert_eq!(count(&config, "filters", 1), Ok(Some(8)));
        assert_eq!(count(&config, "groups", 1), Ok(None));
        assert!(count(&config, "bad", 1).is_err());
        assert_eq!(per_dim(&config, "kernel_size", 2, 1, 1), Ok(vec![3, 5]));
        assert_eq!(per_dim(&config, "strides", 2, 1, 1), Ok(vec![2, 2]));
        assert_eq!(per_dim(&config, "dilation_rate", 2, 1, 1), Ok(vec![1, 1]));
    }

    #[test]
    fn a_layers_name_is_found_at_its_line_and_column() {
        let text = "{\n  \"layers\": [\n    {\"name\": \"conv\"}]}";
        assert_eq!(position(text, "conv"), (3, 14));
        assert_eq!(position(text, "absent"), (1, 1));
    }
}
