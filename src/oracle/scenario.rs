//! A network on a cluster: the per-layer costs every strategy starts from.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::cluster::Cluster;
use super::layer::{Layer, LayerKind};
use super::network::{Network, Profile};
use super::pipeline::{Stages, partition};

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

/// A network placed on a cluster, with per-layer costs computed once and
/// pipeline partitions remembered per stage count.
#[derive(Debug)]
pub struct Scenario {
    network: Network,
    cluster: Cluster,
    costs: Vec<LayerCost>,
    time_s: f64,
    stages: Mutex<HashMap<u64, Arc<Stages>>>,
}

/// Partitions remembered at most (stage counts a session asks for).
const REMEMBERED_PARTITIONS: usize = 64;

impl Clone for Scenario {
    fn clone(&self) -> Self {
        Self::new(self.network.clone(), self.cluster.clone())
    }
}

impl PartialEq for Scenario {
    fn eq(&self, other: &Self) -> bool {
        self.network == other.network && self.cluster == other.cluster
    }
}

impl Scenario {
    /// Places `network` on `cluster`.
    ///
    /// # Formula
    /// Per-sample time of layer `l`: with a whole-model profiled time `T`,
    /// `t_l = T·flops_l/Σflops`; with per-layer profiled times, those; else
    /// `t_l = 3·fwd_flops_l/R`.
    pub fn new(network: Network, cluster: Cluster) -> Self {
        let total_flops = network.forward_flops();
        let rate = cluster.gpu_flops_per_s();
        let profile = network.profile();
        let costs: Vec<LayerCost> = network
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
        let time_s = costs.iter().map(|c| c.time_s).sum();
        Self {
            network,
            cluster,
            costs,
            time_s,
            stages: Mutex::new(HashMap::new()),
        }
    }

    /// The optimal pipeline partition of the layer times into `stages`
    /// (see [`partition`]), computed once per stage count.
    pub fn stages(&self, stages: u64) -> Arc<Stages> {
        let key = stages.min(self.costs.len() as u64);
        let mut memo = self.stages.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = memo.get(&key) {
            return Arc::clone(found);
        }
        let times: Vec<f64> = self.costs.iter().map(|c| c.time_s).collect();
        let made = Arc::new(partition(&times, key));
        if memo.len() >= REMEMBERED_PARTITIONS {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&made));
        made
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The cluster.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// Per-layer costs, in layer order.
    pub fn costs(&self) -> &[LayerCost] {
        &self.costs
    }

    /// `Σt`: training seconds per sample of the whole network.
    pub fn time_per_sample_s(&self) -> f64 {
        self.time_s
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
        let s = presets::scenario("resnet50", "abci").unwrap();
        assert!((s.time_per_sample_s() - 0.003119502).abs() < 1e-15);
        let net = s.network();
        let share = net.layers()[0].forward_flops() / net.forward_flops();
        assert!((s.costs()[0].time_s - 0.003119502 * share).abs() < 1e-18);
    }

    #[test]
    fn flops_time_uses_the_gpu_rate() {
        let network =
            crate::oracle::formats::net::parse(include_str!("presets/reference/ALEXNET_ImageNet.net")).unwrap();
        assert_eq!(network.profile(), crate::oracle::Profile::Flops);
        let s = Scenario::new(network, presets::cluster("abci").unwrap());
        let flops = s.network().forward_flops();
        assert!((s.time_per_sample_s() - 3.0 * flops / 7.8e12).abs() < 1e-15);
    }

    #[test]
    fn halo_items_by_hand() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        // CONV1: 3x226x226 -> 96x54x54, K = 11: h_x = 3·5·226, h_y = 96·5·54
        let conv1 = &s.costs()[0];
        assert_eq!(conv1.halo_x_items, 3.0 * 5.0 * 226.0);
        assert_eq!(conv1.halo_y_items, 96.0 * 5.0 * 54.0);
        assert_eq!(conv1.width, 54);
        // RELU has no kernel: no halo
        assert_eq!(s.costs()[1].halo_x_items, 0.0);
    }
}
