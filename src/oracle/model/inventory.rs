//! What a network holds, as `paradl inspect` prints it: the totals the
//! model uses (`W`, `A`, forward FLOPs) and every layer.

use serde::Serialize;

use super::layer::LayerKind;
use super::network::Network;
use super::shape::Shape;

/// One layer's facts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerFacts {
    pub name: String,
    pub kind: LayerKind,
    /// Input shape.
    pub x: Shape,
    /// Weight shape.
    pub w: Shape,
    /// Output shape.
    pub y: Shape,
    /// Groups (1 but for a grouped convolution).
    pub groups: u64,
    /// Trainable parameters the layer holds: `|w_l|` (with its bias), 0
    /// for a layer that shares an earlier layer's weights (section 10).
    pub parameters: f64,
    /// The earlier layer whose weights this one reuses (its index).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares: Option<usize>,
    /// How many later layers reuse this layer's weights.
    #[serde(skip_serializing_if = "is_zero")]
    pub shared_with: usize,
    /// The sharing in words ("shared with 4 other layers", "shares the
    /// weights of cls_conv (layer 12)"); empty when the weights are the
    /// layer's alone.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub sharing: String,
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
    /// communication use (a tensor shared by several layers counted once).
    pub parameters: f64,
    /// `A = Σ act_l`: activation items kept per sample.
    pub activations_per_sample: f64,
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
                .enumerate()
                .map(|(i, l)| LayerFacts {
                    name: l.name().to_string(),
                    kind: l.kind(),
                    x: l.x().clone(),
                    w: l.w().clone(),
                    y: l.y().clone(),
                    groups: l.groups(),
                    parameters: l.own_weight_items(),
                    shares: l.shares(),
                    shared_with: network.sharers(i).len(),
                    sharing: weight_sharing(network, i),
                    forward_flops: l.forward_flops(),
                    time_s: l.time_s(),
                })
                .collect(),
        }
    }
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// How layer `index` shares its weights, in words: "shared with 4 other
/// layers" for the layer that holds a shared tensor, "shares the weights of
/// NAME (layer K)" for a layer that reuses them; empty when its weights are
/// its own alone (section 10).
pub fn weight_sharing(network: &Network, index: usize) -> String {
    let layers = network.layers();
    if let Some(owner) = layers.get(index).and_then(|l| l.shares()) {
        let name = layers.get(owner).map_or("", |l| l.name());
        return format!("shares the weights of {name} (layer {owner})");
    }
    match network.sharers(index).len() {
        0 => String::new(),
        1 => "shared with 1 other layer".into(),
        n => format!("shared with {n} other layers"),
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

    #[test]
    fn a_shared_tensor_is_held_once_and_said() {
        use crate::oracle::model::layer::{LayerKind, LayerSpec};
        use crate::oracle::model::network::{DatasetSpec, NetworkSpec};
        let conv = |name: &str, shares: Option<usize>| {
            let mut l = LayerSpec::plain(
                name,
                LayerKind::Conv,
                [4, 8, 8].into(),
                [4, 4, 3, 3].into(),
                [4, 8, 8].into(),
            );
            l.shares = shares;
            l
        };
        let network = Network::new(NetworkSpec {
            name: "n".into(),
            dataset: DatasetSpec {
                name: "d".into(),
                samples: 10,
                sample_shape: [4, 8, 8].into(),
            },
            layers: vec![conv("head", None), conv("head#1", Some(0)), conv("head#2", Some(0))],
            profiled_on: None,
            step: None,
        })
        .unwrap();
        let inventory = Inventory::of(&network);
        assert_eq!(inventory.parameters, 144.0);
        let parameters: Vec<f64> = inventory.layers.iter().map(|l| l.parameters).collect();
        assert_eq!(parameters, [144.0, 0.0, 0.0]);
        assert_eq!(inventory.layers[0].sharing, "shared with 2 other layers");
        assert_eq!(inventory.layers[2].sharing, "shares the weights of head (layer 0)");
        let json = serde_json::to_value(&inventory).unwrap();
        assert_eq!(json["layers"][0]["shared_with"], 2);
        assert_eq!(json["layers"][1]["shares"], 0);
        assert!(json["layers"][0].get("shares").is_none());
    }
}
