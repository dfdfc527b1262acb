//! Layers of several inputs: `Add`, `Multiply`, `Concatenate`.

use serde_json::Value;

use super::config::MAX_SETTING;
use super::{Tensor, Walk};
use crate::oracle::model::errors::ParseError;
use crate::oracle::model::layer::LayerKind;

impl Walk<'_> {
    /// `Add`, `Multiply` (of equal shapes) and `Concatenate` (along the
    /// channels).
    pub(super) fn merge(
        &mut self,
        class: &str,
        name: &str,
        config: &Value,
        inputs: &[Tensor],
        x: Tensor,
    ) -> Result<Tensor, ParseError> {
        // Add and Multiply broadcast sizes of 1; Concatenate joins equal sizes
        let mut dims = x.dims.clone();
        for t in inputs {
            if t.dims.len() != dims.len() {
                return Err(self.error(name, "its inputs differ in rank".into()));
            }
            for (d, &e) in dims.iter_mut().zip(&t.dims).skip(usize::from(class == "Concatenate")) {
                if *d == 1 && class != "Concatenate" {
                    *d = e;
                } else if e != *d && !(e == 1 && class != "Concatenate") {
                    return Err(self.error(name, "its inputs differ in size".into()));
                }
            }
        }
        let x = Tensor {
            dims,
            unflat: None,
            producer: x.producer,
        };
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        Ok(match class {
            "Concatenate" => {
                // the channels' axis of a Keras tensor (batch first): last, or 1 when first
                let rank = x.dims.len() as i64 + 1;
                let axis = config.get("axis").and_then(Value::as_i64).unwrap_or(-1);
                let channels = if self.channels_first {
                    [1, 1 - rank]
                } else {
                    [-1, rank - 1]
                };
                if !channels.contains(&axis) {
                    return Err(self.error(name, "only a concatenation along the channels is supported".into()));
                }
                let mut y = x.dims.clone();
                let joined = inputs
                    .iter()
                    .try_fold(0u64, |a, t| a.checked_add(t.dims.first().copied().unwrap_or(0)))
                    .filter(|&c| c <= MAX_SETTING)
                    .ok_or_else(|| self.error(name, "its inputs' channels add up to more than 2^40".into()))?;
                if let Some(c) = y.first_mut() {
                    *c = joined;
                }
                self.push(name, LayerKind::Concat, &y.clone(), Vec::new(), y)
            }
            "Add" => same_shape(self, LayerKind::Add),
            _ => same_shape(self, LayerKind::Mul),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::read;

    #[test]
    fn a_concatenation_adds_channels_and_a_sum_keeps_them() {
        let text = r#"{"class_name": "Functional", "config": {"name": "f", "layers": [
  {"class_name": "InputLayer", "config": {"name": "in", "batch_shape": [null, 8, 8, 3]}},
  {"class_name": "Conv2D", "config": {"name": "a", "filters": 4, "kernel_size": 1}, "inbound_nodes": [[["in", 0, 0, {}]]]},
  {"class_name": "Conv2D", "config": {"name": "b", "filters": 4, "kernel_size": 1}, "inbound_nodes": [[["in", 0, 0, {}]]]},
  {"class_name": "Add", "config": {"name": "sum"}, "inbound_nodes": [[["a", 0, 0, {}], ["b", 0, 0, {}]]]},
  {"class_name": "Concatenate", "config": {"name": "cat"}, "inbound_nodes": [[["sum", 0, 0, {}], ["in", 0, 0, {}]]]}
], "input_layers": [["in", 0, 0]], "output_layers": [["cat", 0, 0]]}}"#;
        let network = read(text, 100, None).unwrap();
        let last: Vec<(String, Vec<u64>)> = network
            .layers()
            .iter()
            .map(|l| (l.spec().name.clone(), l.spec().y.dims().to_vec()))
            .collect();
        assert_eq!(last[2], ("sum".to_string(), vec![4, 8, 8]));
        assert_eq!(last[3], ("cat".to_string(), vec![7, 8, 8]));
    }
}
