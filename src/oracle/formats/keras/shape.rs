//! Views and pads: zero padding, cropping, reshape.

use serde_json::Value;

use super::config::{MAX_SETTING, product};
use super::{Tensor, Walk};
use crate::oracle::model::errors::ParseError;

impl Walk<'_> {
    /// Zero padding of the positions: a view of a larger tensor.
    pub(super) fn zero_padding(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let n = x.dims.len().saturating_sub(1);
        let pads = self.pairs(name, config, "padding", n, 1)?;
        let mut dims = vec![channels];
        for (&s, (a, b)) in x.dims.iter().skip(1).zip(&pads) {
            let grown = s
                .checked_add(*a)
                .and_then(|v| v.checked_add(*b))
                .filter(|&v| v <= MAX_SETTING)
                .ok_or_else(|| self.error(name, format!("its padding {a}+{b} of {s} overflows")))?;
            dims.push(grown);
        }
        Ok(Tensor {
            dims,
            unflat: None,
            producer: x.producer,
        })
    }

    /// Cropping of the positions.
    pub(super) fn cropping(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let n = x.dims.len().saturating_sub(1);
        let crops = self.pairs(name, config, "cropping", n, 0)?;
        let mut dims = vec![channels];
        for (&s, (a, b)) in x.dims.iter().skip(1).zip(&crops) {
            let left = s
                .checked_sub(*a)
                .and_then(|v| v.checked_sub(*b))
                .filter(|&v| v >= 1)
                .ok_or_else(|| self.error(name, format!("its cropping {a}+{b} leaves nothing of {s}")))?;
            dims.push(left);
        }
        Ok(Tensor {
            dims,
            unflat: None,
            producer: x.producer,
        })
    }

    /// A reshape of the sample's items (a flatten when one-dimensional).
    pub(super) fn reshape(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let target = config
            .get("target_shape")
            .and_then(Value::as_array)
            .ok_or_else(|| self.error(name, "a Reshape without a target_shape".into()))?;
        // sizes, one of them -1 at most (the one that holds the rest)
        let shown = serde_json::to_string(target).unwrap_or_default();
        let bad = || {
            self.error(
                name,
                format!("its target_shape {shown} is not sizes (one of them -1 at most)"),
            )
        };
        let mut sizes: Vec<Option<u64>> = Vec::with_capacity(target.len());
        for v in target {
            match v.as_i64() {
                Some(-1) if !sizes.contains(&None) => sizes.push(None),
                _ => sizes.push(Some(
                    v.as_u64().filter(|&d| (1..=MAX_SETTING).contains(&d)).ok_or_else(bad)?,
                )),
            }
        }
        let items = product(&x.dims).ok_or_else(bad)?;
        let known = product(&sizes.iter().flatten().copied().collect::<Vec<u64>>()).ok_or_else(bad)?;
        let target: Vec<u64> = sizes
            .iter()
            .map(|s| s.unwrap_or(items.checked_div(known).unwrap_or(0)))
            .collect();
        if product(&target) != Some(items) || target.contains(&0) {
            return Err(self.error(
                name,
                format!("its target_shape {shown} does not hold its input of {items} items"),
            ));
        }
        // channels last: the last size is the channels (first in a channels_first model)
        let dims = match target.split_last() {
            Some((&c, spatial)) if target.len() > 1 && !self.channels_first => {
                std::iter::once(c).chain(spatial.iter().copied()).collect()
            }
            _ => target,
        };
        let unflat = (dims.len() == 1).then(|| x.unflat.clone().unwrap_or(x.dims.clone()));
        Ok(Tensor {
            dims,
            unflat,
            producer: x.producer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequential;

    #[test]
    fn pads_grow_crops_shrink_and_a_reshape_keeps_the_items() {
        let relu = |n: u8| format!(r#"{{"class_name": "ReLU", "config": {{"name": "relu{n}"}}}}"#);
        let layers = sequential(&[
            r#"{"class_name": "ZeroPadding2D", "config": {"name": "pad", "padding": [[1, 2], [0, 1]]}}"#,
            &relu(1),
            r#"{"class_name": "Cropping2D", "config": {"name": "crop", "cropping": [[1, 0], [0, 0]]}}"#,
            &relu(2),
            r#"{"class_name": "Reshape", "config": {"name": "r", "target_shape": [10, 27]}}"#,
            &relu(3),
        ])
        .unwrap();
        let outputs: Vec<Vec<u64>> = layers.iter().map(|l| l.2.clone()).collect();
        assert_eq!(outputs[..2], [vec![3, 11, 9], vec![3, 10, 9]]);
        assert_eq!(outputs.last().map(|y| y.iter().product::<u64>()), Some(270));
        let wrong = r#"{"class_name": "Reshape", "config": {"name": "r", "target_shape": [7, 7]}}"#;
        assert!(sequential(&[wrong, &relu(1)]).is_err());
    }
}
