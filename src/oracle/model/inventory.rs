//! What a network holds, as `paradl inspect` prints it: the totals the
//! model uses (`W`, `A`, forward FLOPs) and every layer.

use serde::Serialize;

use super::layer::LayerKind;
use super::network::Network;
use super::shape::Shape;

/// One layer's facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerFacts {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: LayerKind,
    /// Input shape.
    pub x: Shape,
    /// Weight shape.
    pub w: Shape,
    /// Output shape.
    pub y: Shape,
    /// Groups (1 but for a grouped convolution).
    pub groups: u64,
    /// Trainable parameters: `|w_l|` (with its bias).
    pub parameters: f64,
    /// Forward FLOPs per sample.
    pub forward_flops: f64,
    /// Profiled training seconds per sample, when the network has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
}

/// A network's totals and layers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inventory {
    /// The network's name.
    pub name: String,
    /// `W = Σ|w_l|`: the trainable parameters, the very number memory and
    /// communication use.
    pub parameters: f64,
    /// `A = Σ act_l`: activation items kept per sample.
    pub activations_per_sample: f64,
    /// Forward FLOPs per sample.
    pub forward_flops_per_sample: f64,
    /// Every layer, in order.
    pub layers: Vec<LayerFacts>,
}

impl Inventory {
    /// The inventory of `network`.
    ///
    /// # Formula
    /// `parameters = W = Σ|w_l|`, `activations_per_sample = A = Σ act_l`,
    /// `forward_flops_per_sample = Σ fwd_flops_l` (sections 2, 3 and 10).
    pub fn of(network: &Network) -> Self {
        Self {
            name: network.name().to_string(),
            parameters: network.weight_items(),
            activations_per_sample: network.activation_items(),
            forward_flops_per_sample: network.forward_flops(),
            layers: network
                .layers()
                .iter()
                .map(|l| LayerFacts {
                    name: l.name().to_string(),
                    kind: l.kind(),
                    x: l.x().clone(),
                    w: l.w().clone(),
                    y: l.y().clone(),
                    groups: l.groups(),
                    parameters: l.weight_items(),
                    forward_flops: l.forward_flops(),
                    time_s: l.time_s(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn totals_are_the_sums_the_model_uses() {
        let network = presets::network("resnet50").unwrap();
        let inventory = Inventory::of(&network);
        assert_eq!(inventory.layers.len(), network.layers().len());
        assert_eq!(inventory.parameters, network.weight_items());
        let sum: f64 = inventory.layers.iter().map(|l| l.parameters).sum();
        assert_eq!(sum, inventory.parameters);
        let flops: f64 = inventory.layers.iter().map(|l| l.forward_flops).sum();
        assert!((flops - inventory.forward_flops_per_sample).abs() <= 1e-6 * flops);
        let json = serde_json::to_value(&inventory).unwrap();
        for key in [
            "parameters",
            "activations_per_sample",
            "forward_flops_per_sample",
            "layers",
        ] {
            assert!(json.get(key).is_some(), "{key}");
        }
        for key in ["name", "kind", "x", "w", "y", "groups", "parameters", "forward_flops"] {
            assert!(json["layers"][0].get(key).is_some(), "{key}");
        }
    }
}
