//! The per-layer cost table of a network on a cluster: what every strategy
//! starts from, computed once, with pipeline partitions remembered per
//! stage count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::partition::{Stages, partition, prefix_sums};
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::layer::{Layer, LayerKind};
use crate::oracle::model::network::{Network, Profile};

/// What one layer costs, per sample, on one cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerCost {
    /// Kind.
    pub kind: LayerKind,
    /// `t_l`: training (forward + backward) seconds per sample.
    pub time_s: f64,
    /// `act_l`: activation items kept per sample.
    pub activation_items: f64,
    /// `|w_l|`.
    pub weight_items: f64,
    /// `|y_l|`.
    pub output_items: f64,
    /// `C_l = x[0]`.
    pub in_channels: u64,
    /// `F_l = y[0]`.
    pub out_channels: u64,
    /// `min(width of x, width of y)`.
    pub width: u64,
    /// `h_x = C_l·⌊K_l/2⌋·Π(x spatial after the first)`, 0 when `K_l ≤ 1`.
    pub halo_x_items: f64,
    /// `h_y = F_l·⌊K_l/2⌋·Π(y spatial after the first)`, 0 when `K_l ≤ 1`.
    pub halo_y_items: f64,
}

/// The cost table: per-layer costs and their sums.
#[derive(Debug)]
pub struct CostTable {
    layers: Vec<LayerCost>,
    time_per_sample_s: f64,
    weight_items: f64,
    activation_items: f64,
    times_s: Vec<f64>,
    prefix_s: Vec<f64>,
    partitions: Mutex<HashMap<u64, Arc<Stages>>>,
}

/// Partitions remembered at most (stage counts a session asks for).
const REMEMBERED_PARTITIONS: usize = 64;

impl CostTable {
    /// The costs of `network`'s layers on `cluster`.
    ///
    /// # Formula
    /// Per-sample time of layer `l`: with a whole-model profiled time `T`,
    /// `t_l = T·flops_l/Σflops`; with per-layer profiled times, those; else
    /// `t_l = 3·fwd_flops_l/R`.
    pub fn new(network: &Network, cluster: &Cluster) -> Self {
        let total_flops = network.forward_flops();
        let rate = cluster.gpu_flops_per_s();
        let profile = network.profile();
        let layers: Vec<LayerCost> = network
            .layers()
            .iter()
            .map(|layer| {
                let time_s = match profile {
                    Profile::WholeModel { per_sample_s } => per_sample_s * layer.forward_flops() / total_flops,
                    Profile::PerLayer => layer.time_s().unwrap_or(0.0),
                    Profile::Flops => 3.0 * layer.forward_flops() / rate,
                };
                layer_cost(layer, time_s)
            })
            .collect();
        let times_s: Vec<f64> = layers.iter().map(|c| c.time_s).collect();
        Self {
            prefix_s: prefix_sums(&times_s),
            times_s,
            time_per_sample_s: layers.iter().map(|c| c.time_s).sum(),
            weight_items: network.weight_items(),
            activation_items: network.activation_items(),
            layers,
            partitions: Mutex::new(HashMap::new()),
        }
    }

    /// Per-layer costs, in layer order.
    pub fn layers(&self) -> &[LayerCost] {
        &self.layers
    }

    /// `Σt`: training seconds per sample of the whole network.
    pub fn time_per_sample_s(&self) -> f64 {
        self.time_per_sample_s
    }

    /// `W = Σ|w_l|`.
    pub fn weight_items(&self) -> f64 {
        self.weight_items
    }

    /// `A = Σ act_l`.
    pub fn activation_items(&self) -> f64 {
        self.activation_items
    }

    /// The optimal pipeline partition of the layer times into `stages`
    /// (see [`partition`]), computed once per stage count.
    pub fn stages(&self, stages: u64) -> Arc<Stages> {
        let key = stages.min(self.layers.len() as u64);
        let mut memo = self.partitions.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = memo.get(&key) {
            return Arc::clone(found);
        }
        let made = Arc::new(partition(&self.times_s, &self.prefix_s, key));
        if memo.len() >= REMEMBERED_PARTITIONS {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&made));
        made
    }
}

fn layer_cost(layer: &Layer, time_s: f64) -> LayerCost {
    let half_kernel = (layer.kernel_size() / 2) as f64;
    let (halo_x_items, halo_y_items) = if layer.kernel_size() > 1 {
        (
            layer.x().channels() as f64 * half_kernel * layer.x().cross_section(),
            layer.y().channels() as f64 * half_kernel * layer.y().cross_section(),
        )
    } else {
        (0.0, 0.0)
    };
    LayerCost {
        kind: layer.kind(),
        time_s,
        activation_items: layer.activation_items(),
        weight_items: layer.weight_items(),
        output_items: layer.y().items(),
        in_channels: layer.x().channels(),
        out_channels: layer.y().channels(),
        width: layer.x().width().min(layer.y().width()),
        halo_x_items,
        halo_y_items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn whole_model_time_is_shared_by_flops() {
        let net = presets::network("resnet50").unwrap();
        let table = CostTable::new(&net, &presets::cluster("abci").unwrap());
        assert!((table.time_per_sample_s() - 0.003119502).abs() < 1e-15);
        let share = net.layers()[0].forward_flops() / net.forward_flops();
        assert!((table.layers()[0].time_s - 0.003119502 * share).abs() < 1e-18);
    }

    #[test]
    fn flops_time_uses_the_gpu_rate() {
        let network =
            crate::oracle::formats::net::parse(include_str!("../presets/reference/ALEXNET_ImageNet.net")).unwrap();
        assert_eq!(network.profile(), Profile::Flops);
        let table = CostTable::new(&network, &presets::cluster("abci").unwrap());
        let flops = network.forward_flops();
        assert!((table.time_per_sample_s() - 3.0 * flops / 7.8e12).abs() < 1e-15);
    }

    #[test]
    fn halo_items_by_hand() {
        let table = CostTable::new(
            &presets::network("alexnet").unwrap(),
            &presets::cluster("abci").unwrap(),
        );
        // CONV1: 3x226x226 -> 96x54x54, K = 11: h_x = 3·5·226, h_y = 96·5·54
        let conv1 = &table.layers()[0];
        assert_eq!(conv1.halo_x_items, 3.0 * 5.0 * 226.0);
        assert_eq!(conv1.halo_y_items, 96.0 * 5.0 * 54.0);
        assert_eq!(conv1.width, 54);
        // RELU has no kernel: no halo
        assert_eq!(table.layers()[1].halo_x_items, 0.0);
    }

    #[test]
    fn partitions_are_remembered_per_stage_count() {
        let table = CostTable::new(
            &presets::network("resnet50").unwrap(),
            &presets::cluster("abci").unwrap(),
        );
        let a = table.stages(8);
        assert!(Arc::ptr_eq(&a, &table.stages(8)));
        assert_eq!(a.ranges.len(), 8);
        assert!(Arc::ptr_eq(&table.stages(10_000), &table.stages(166)));
    }
}
