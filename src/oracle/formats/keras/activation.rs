//! Activations: `ReLU`, `Activation`, the advanced activation layers and
//! the activation a layer applies after itself, with the function autograd
//! saves for.

use serde_json::Value;

use super::config::text_of;
use super::{Tensor, Walk};
use crate::oracle::model::errors::ParseError;
use crate::oracle::model::layer::{Function, LayerKind};

/// The function a Keras activation's name stands for (Keras runs nothing
/// in place: a leaky ReLU saves its input).
pub(super) fn function_of(name: &str) -> Function {
    match name {
        "sigmoid" => Function::Sigmoid,
        "tanh" => Function::Tanh,
        "softmax" | "log_softmax" => Function::Softmax,
        "elu" | "selu" => Function::Elu,
        "relu6" => Function::Relu6,
        "swish" | "silu" => Function::Silu,
        "gelu" => Function::Gelu,
        "hard_sigmoid" => Function::Hardsigmoid,
        "hard_swish" | "hard_silu" => Function::Hardswish,
        "mish" => Function::Mish,
        _ => Function::Other,
    }
}

impl Walk<'_> {
    /// The activation a layer's config names, as its own layer.
    pub(super) fn activation(&mut self, name: &str, config: &Value, y: Tensor) -> Tensor {
        match text_of(config, "activation") {
            None | Some("linear") => y,
            Some("relu") => self.push(
                &format!("{name}.relu"),
                LayerKind::Relu,
                &y.dims.clone(),
                Vec::new(),
                y.dims,
            ),
            Some(function) => {
                let t = self.push(
                    &format!("{name}.act"),
                    LayerKind::Act,
                    &y.dims.clone(),
                    Vec::new(),
                    y.dims,
                );
                self.function(Some(function));
                t
            }
        }
    }

    /// Sets the function of the activation layer just added.
    pub(super) fn function(&mut self, name: Option<&str>) {
        if let Some(layer) = self.layers.last_mut().filter(|l| l.kind == LayerKind::Act) {
            layer.function = Some(function_of(name.unwrap_or_default()));
        }
    }

    /// An `Activation` layer: the function it names.
    pub(super) fn activation_layer(&mut self, name: &str, config: &Value, x: Tensor) -> Result<Tensor, ParseError> {
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        let function = text_of(config, "activation");
        let kind = if function == Some("relu") {
            LayerKind::Relu
        } else {
            LayerKind::Act
        };
        let t = same_shape(self, kind);
        self.function(function);
        Ok(t)
    }

    /// `LeakyReLU`, `PReLU`, `ELU` and `Softmax` layers.
    pub(super) fn advanced_activation(&mut self, class: &str, name: &str, x: Tensor) -> Result<Tensor, ParseError> {
        let same_shape = |w: &mut Self, kind: LayerKind| w.push(name, kind, &x.dims, Vec::new(), x.dims.clone());
        let t = same_shape(self, LayerKind::Act);
        self.function(Some(&class.to_ascii_lowercase()));
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sequential;
    use super::*;

    #[test]
    fn an_activation_is_a_layer_of_its_own_after_the_layer_that_names_it() {
        let layers = sequential(&[
            r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 4, "kernel_size": 1, "activation": "swish"}}"#,
            r#"{"class_name": "Activation", "config": {"name": "a", "activation": "relu"}}"#,
            r#"{"class_name": "LeakyReLU", "config": {"name": "l"}}"#,
        ])
        .unwrap();
        let kinds: Vec<LayerKind> = layers.iter().map(|l| l.0).collect();
        assert_eq!(
            kinds,
            vec![LayerKind::Conv, LayerKind::Act, LayerKind::Relu, LayerKind::Act]
        );
        assert_eq!(function_of("swish"), Function::Silu);
        assert_eq!(function_of("gelu"), Function::Gelu);
    }
}
