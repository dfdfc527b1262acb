//! Layers with weights: convolutions (grouped, depthwise, separable),
//! dense layers, normalizations and learned scales.

use serde_json::Value;

use super::super::padded;
use super::config::{MAX_SETTING, count, items_of, per_dim, same_padding, window};
use super::{Tensor, Walk};
use crate::oracle::model::errors::ParseError;
use crate::oracle::model::layer::LayerKind;

impl Walk<'_> {
    pub(super) fn conv(
        &mut self,
        name: &str,
        config: &Value,
        x: &Tensor,
        filters: u64,
        groups: u64,
        depthwise: bool,
    ) -> Result<Tensor, ParseError> {
        let n = x.dims.len().saturating_sub(1);
        let kernel = per_dim(config, "kernel_size", n, 1, 1).map_err(|p| self.error(name, p))?;
        let strides = per_dim(config, "strides", n, 1, 1).map_err(|p| self.error(name, p))?;
        let dilation = per_dim(config, "dilation_rate", n, 1, 1).map_err(|p| self.error(name, p))?;
        let same = same_padding(config).map_err(|p| self.error(name, p))?;
        let spatial = x.dims.get(1..).unwrap_or(&[]);
        let out = window(spatial, &kernel, &strides, &dilation, same).ok_or_else(|| {
            self.error(
                name,
                format!("its window {kernel:?} does not fit its input {spatial:?}"),
            )
        })?;
        let channels = x.dims.first().copied().unwrap_or(0);
        if groups == 0 || (!depthwise && channels % groups != 0) {
            return Err(self.error(name, format!("{groups} groups do not divide its {channels} channels")));
        }
        let mut w = vec![channels, filters];
        w.extend(&kernel);
        let mut y = vec![filters];
        y.extend(out);
        let t = self.push(name, LayerKind::Conv, &x.dims, w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.groups = if depthwise { channels } else { groups };
            layer.bias = config.get("use_bias").and_then(Value::as_bool).unwrap_or(true);
        }
        Ok(t)
    }

    /// `C·m`: a depthwise convolution's outputs, its depth multiplier `m`.
    pub(super) fn multiplied(&self, name: &str, config: &Value, channels: u64) -> Result<u64, ParseError> {
        let m = count(config, "depth_multiplier", 1)
            .map_err(|p| self.error(name, p))?
            .unwrap_or(1);
        channels.checked_mul(m).filter(|&n| n <= MAX_SETTING).ok_or_else(|| {
            self.error(
                name,
                format!("{channels} channels times a depth multiplier of {m} overflow"),
            )
        })
    }

    /// `Conv1D`/`2D`/`3D`: filters over (grouped) channels, then its activation.
    pub(super) fn conv_layer(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let filters = self.needed(name, config, "filters")?;
        let groups = count(config, "groups", 1)
            .map_err(|p| self.error(name, p))?
            .unwrap_or(1);
        let y = self.conv(name, config, &x, filters, groups, false)?;
        Ok(self.activation(name, config, y))
    }

    /// A depthwise convolution: each channel by its own `depth_multiplier` filters.
    pub(super) fn depthwise(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let multiplier = self.multiplied(name, config, channels)?;
        let y = self.conv(name, config, &x, multiplier, 1, true)?;
        Ok(self.activation(name, config, y))
    }

    /// A separable convolution: a depthwise one, then a pointwise one.
    pub(super) fn separable(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let multiplied = self.multiplied(name, config, channels)?;
        let filters = self.needed(name, config, "filters")?;
        let no_bias = serde_json::json!({"use_bias": false, "kernel_size": config.get("kernel_size"), "strides": config.get("strides"), "padding": config.get("padding"), "dilation_rate": config.get("dilation_rate")});
        let d = self.conv(&format!("{name}.depthwise"), &no_bias, &x, multiplied, 1, true)?;
        let pointwise = serde_json::json!({"use_bias": config.get("use_bias").and_then(Value::as_bool).unwrap_or(true), "kernel_size": 1});
        let y = self.conv(&format!("{name}.pointwise"), &pointwise, &d, filters, 1, false)?;
        Ok(self.activation(name, config, y))
    }

    /// A dense layer: over the last axis (after a flatten, every item).
    pub(super) fn dense(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let too_many = || self.error(name, format!("its input {:?} holds more than 2^53 items", x.dims));
        let units = self.needed(name, config, "units")?;
        let bias = config.get("use_bias").and_then(Value::as_bool).unwrap_or(true);
        let spatial_items = items_of(x.dims.get(1..).unwrap_or(&[])).ok_or_else(too_many)?;
        let y = if x.unflat.is_none() && spatial_items > 1 {
            // a Dense on a [H, W, C] tensor acts on each position: a 1×1 convolution
            let pointwise = serde_json::json!({"use_bias": bias, "kernel_size": 1});
            self.conv(name, &pointwise, &x, units, 1, false)?
        } else {
            let input = padded(&x.unflat.clone().unwrap_or(x.dims.clone()), self.rank);
            let mut w = vec![input.first().copied().unwrap_or(1), units];
            w.extend(input.get(1..).unwrap_or(&[]));
            let t = self.push(name, LayerKind::Fc, &input, w, vec![units]);
            if let Some(layer) = self.layers.last_mut() {
                layer.bias = bias;
            }
            t
        };
        Ok(self.activation(name, config, y))
    }

    /// A batch or layer norm: a scale and an offset per channel.
    pub(super) fn norm(&mut self, class: &str, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let channels = x.dims.first().copied().unwrap_or(0);
        let flag = |key: &str| config.get(key).and_then(Value::as_bool).unwrap_or(true);
        let kept = u64::from(flag("center")) + u64::from(flag("scale"));
        let w = if kept == 0 { Vec::new() } else { vec![kept, channels] };
        let kind = if class == "BatchNormalization" {
            LayerKind::Bn
        } else {
            LayerKind::Ln
        };
        Ok(self.push(name, kind, &x.dims, w, x.dims.clone()))
    }

    /// Keras' `CustomScaleLayer` (its Inception-ResNet blocks): a constant
    /// scale of the branch, then the residual sum.
    pub(super) fn custom_scale(&mut self, name: &str, x: Tensor) -> Result<Tensor, ParseError> {
        // InceptionResNetV2's residual: inputs[0] + scale·inputs[1], no weight
        let dims = x.dims.clone();
        Ok(self.push(name, LayerKind::Add, &x.dims, Vec::new(), dims))
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequential;
    use super::*;

    #[test]
    fn a_convolution_keeps_or_shrinks_positions_as_its_padding_says() {
        let layers = sequential(&[
            r#"{"class_name": "Conv2D", "config": {"name": "same", "filters": 16, "kernel_size": 3, "padding": "same"}}"#,
            r#"{"class_name": "Conv2D", "config": {"name": "valid", "filters": 4, "kernel_size": [3, 3], "strides": 2}}"#,
        ])
        .unwrap();
        assert_eq!(layers[0], (LayerKind::Conv, vec![3, 16, 3, 3], vec![16, 8, 8]));
        // ⌊(8 − 3)/2⌋ + 1 = 3
        assert_eq!(layers[1], (LayerKind::Conv, vec![16, 4, 3, 3], vec![4, 3, 3]));
    }

    #[test]
    fn a_separable_convolution_is_a_depthwise_then_a_pointwise_one() {
        let layers = sequential(&[
            r#"{"class_name": "SeparableConv2D", "config": {"name": "sep", "filters": 8, "kernel_size": 3, "padding": "same", "depth_multiplier": 2}}"#,
        ])
        .unwrap();
        assert_eq!(layers.len(), 2);
        assert_eq!(layers[0].2, vec![6, 8, 8]);
        assert_eq!(layers[1], (LayerKind::Conv, vec![6, 8, 1, 1], vec![8, 8, 8]));
    }

    #[test]
    fn a_dense_layer_after_a_flatten_and_a_norm_per_channel() {
        let layers = sequential(&[
            r#"{"class_name": "BatchNormalization", "config": {"name": "bn"}}"#,
            r#"{"class_name": "Flatten", "config": {"name": "f"}}"#,
            r#"{"class_name": "Dense", "config": {"name": "d", "units": 10}}"#,
        ])
        .unwrap();
        assert_eq!(layers[0], (LayerKind::Bn, vec![2, 3], vec![3, 8, 8]));
        assert_eq!(layers[1].0, LayerKind::Fc);
        assert_eq!(layers[1].2, vec![10, 1, 1]);
    }
}
