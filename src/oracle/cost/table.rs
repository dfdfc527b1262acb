//! The per-layer cost table of a network on a cluster: what every strategy
//! starts from, computed once, with pipeline partitions remembered per
//! stage count.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::attention;
use super::kernels::Cut;
pub use super::layer_cost::LayerCost;
use super::layer_cost::layer_cost;
use super::partition::{Stages, partition, prefix_sums};
use super::saved::{self, SavedTensors, saved_with};
use super::split::SplitPlan;
use super::tensor;
use super::terms::Terms;
use super::times::{Kernels, ProfileScaling, TimeBasis};
use super::times::{cut_of, ideal_times, line_s, profile_lines, realistic_times};
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::network::Network;

/// The cost table: per-layer costs and their sums, for one edition of
/// the model and one item size.
#[derive(Debug)]
pub struct CostTable {
    layers: Vec<LayerCost>,
    time_per_sample_s: f64,
    weight_items: f64,
    activation_items: f64,
    times_s: Vec<f64>,
    prefix_s: Vec<f64>,
    partitions: Mutex<HashMap<u64, Arc<Stages>>>,
    terms: Terms,
    memory_bound_layers: usize,
    profile_scaling: Option<ProfileScaling>,
    kernels: Option<Kernels>,
    /// Without kernel facts, a two-batch profile's lines (section 12):
    /// `(a_l, c_l)` per layer, in seconds a step on the profile's device.
    lines: Option<Vec<(f64, f64)>>,
}

/// Partitions remembered at most (stage counts a session asks for).
const REMEMBERED_PARTITIONS: usize = 64;

impl CostTable {
    /// The costs of `network`'s layers on `cluster` in the ideal edition
    /// (see [`CostTable::for_basis`]).
    pub fn new(network: &Network, cluster: &Cluster) -> Self {
        Self::for_basis(network, cluster, &TimeBasis::edition(Edition::Ideal))
    }

    /// The costs of `network`'s layers on `cluster` in one edition, with
    /// `bytes_per_item` (`δ`) for the memory traffic of the roofline.
    ///
    /// # Formula
    /// Ideal edition (section 2): with a whole-model profiled time `T`,
    /// `t_l = T·flops_l/Σflops`; with per-layer profiled times, those; else
    /// `t_l = 3·fwd_flops_l/R`.
    ///
    /// Realistic edition (section 7), with the roofline weights `w_l` of
    /// [`super::times::roofline_s`] on the cluster's GPU (`w_l`) and on the GPU the
    /// profile was measured on (`w'_l`, with `δ = 4` of its fp32 run and,
    /// for a fact it does not record, the cluster GPU's): without a
    /// profile `t_l = w_l`; with a whole-model time `t_l = T·w_l/Σw'`;
    /// with per-layer times `t_l = t'_l·w_l/w'_l`. A profile whose GPU is
    /// not recorded is taken as measured on the cluster's GPU (so at
    /// `δ = 4` it is used as it is). Without a roofline (no memory
    /// bandwidth) the weights are `3·flops/R`: the section 2 times, a
    /// profile's multiplied by `R'/R` (bit for bit the ideal edition's when
    /// the GPUs agree).
    ///
    /// Section 9: `R` is the precision's `R_p` (a fp32 profile is scaled
    /// by `R/R_p` in the ideal edition), `δ` the run's item size `h`, and
    /// recompute multiplies every time by 4/3.
    pub fn for_basis(network: &Network, cluster: &Cluster, basis: &TimeBasis) -> Self {
        let terms = Terms::new(cluster, basis.edition);
        // which layers are one fused attention, and each tensor's width under mixed precision:
        // what the kernels and the saved bytes both follow, found once
        let roles = attention::roles_in(network, basis.attention);
        let widths = basis.precision.is_mixed().then(|| saved::widths(network));
        let traced = (roles.as_slice(), widths.as_deref());
        let (mut times, memory_bound_layers, profile_scaling, mut kernels) = match basis.edition {
            Edition::Ideal => (ideal_times(network, cluster, basis.precision), 0, None, None),
            Edition::Realistic => realistic_times(network, cluster, &terms, basis, traced),
        };
        if basis.recompute {
            for t in &mut times {
                *t *= 4.0 / 3.0;
            }
            if let Some(k) = &mut kernels {
                k.scale(4.0 / 3.0);
            }
        }
        let saved = match terms.framework_memory {
            Some(_) => saved_with(network, basis.item_bytes, widths.as_deref(), &roles),
            None => vec![SavedTensors::default(); network.layers().len()],
        };
        // without kernels, a two-batch profile's lines still give the time at another batch
        let lines = match (&kernels, basis.edition) {
            (None, Edition::Realistic) => profile_lines(network, false),
            _ => None,
        };
        let lines = lines.map(|lines| {
            // each line carried to this table's time per sample at the profile's batch
            let b1 = network.step().map_or(1.0, |s| s.batch as f64);
            lines
                .iter()
                .zip(&times)
                .map(|((a, c), t)| {
                    let measured = a + c * b1;
                    let carry = if measured > 0.0 { t * b1 / measured } else { 0.0 };
                    (a * carry, c * carry)
                })
                .collect()
        });
        let layers: Vec<LayerCost> = network
            .layers()
            .iter()
            .zip(times)
            .zip(saved)
            .zip(tensor::roles(network))
            .map(|(((layer, time_s), saved), role)| layer_cost(layer, time_s, saved, role))
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
            terms,
            memory_bound_layers,
            profile_scaling,
            kernels,
            lines,
        }
    }

    /// The realistic edition's kernels, when the cluster gives its GPU's
    /// kernel facts (section 11).
    pub fn kernels(&self) -> Option<&Kernels> {
        self.kernels.as_ref()
    }

    /// Seconds of one GPU's forward and backward compute for `samples`
    /// samples, the layers of `plan` split (each cut in `plan.parts`).
    ///
    /// # Formula
    /// Without kernels (the ideal edition, or no kernel facts): `B·Σt`, or
    /// `B·t_split(q)` with a plan. With kernels: `Σ_l T_l(B, cut_l)`
    /// ([`Kernels::layer_s`]), `cut_l` the plan's axis for a split layer.
    /// Without kernels but with a two-batch profile (realistic edition,
    /// section 12): `Σ_l (a_l + c_l·B)·t_l·B_1/y_l`, `/q` for a split layer,
    /// each layer's measured line carried to its time per sample here
    /// (`y_l = a_l + c_l·B_1` its measured seconds at the profile's batch).
    pub fn compute_s(&self, samples: f64, plan: Option<&SplitPlan>) -> f64 {
        match (&self.kernels, &self.lines, plan) {
            (None, None, None) => samples * self.time_per_sample_s,
            (None, None, Some(plan)) => samples * plan.time_s(&self.layers),
            _ => self.layer_terms(samples, plan).sum(),
        }
    }

    /// Seconds of each layer's forward and backward compute on one GPU for
    /// `samples` samples, the layers of `plan` split: the terms of
    /// [`CostTable::compute_s`], layer by layer.
    ///
    /// # Formula
    /// `T_l(B, cut_l)` with kernels; else `B·t_l` (a two-batch profile's
    /// carried line `a_l + c_l·B`), `/q` for a split layer.
    pub fn layer_times_s(&self, samples: f64, plan: Option<&SplitPlan>) -> Vec<f64> {
        self.layer_terms(samples, plan).collect()
    }

    /// The terms of [`CostTable::layer_times_s`], one layer after another.
    fn layer_terms<'a>(&'a self, samples: f64, plan: Option<&'a SplitPlan>) -> impl Iterator<Item = f64> + 'a {
        let divisor = move |i: usize| match plan {
            Some(p) if p.mask.get(i).copied().unwrap_or(false) => p.parts as f64,
            _ => 1.0,
        };
        (0..self.layers.len()).map(move |i| match (&self.kernels, &self.lines) {
            (Some(k), _) => k.layer_s(i, samples, cut_of(plan, i)),
            (None, Some(lines)) => lines.get(i).map_or(0.0, |line| line_s(*line, samples)) / divisor(i),
            (None, None) => samples * self.times_s.get(i).copied().unwrap_or(0.0) / divisor(i),
        })
    }

    /// Seconds of one GPU's compute of the layers `range` (a pipeline
    /// stage) for `samples` samples.
    ///
    /// # Formula
    /// Without kernels `B·Σ_{l∈range} t_l` (a two-batch profile's carried
    /// lines `Σ (a_l + c_l·B)·t_l·B_1/y_l`); with kernels `Σ_{l∈range} T_l(B)`.
    pub fn range_s(&self, range: std::ops::Range<usize>, samples: f64) -> f64 {
        match &self.kernels {
            None => match &self.lines {
                Some(lines) => lines
                    .get(range)
                    .map_or(0.0, |l| l.iter().map(|line| line_s(*line, samples)).sum()),
                None => samples * self.times_s.get(range).map_or(0.0, |t| t.iter().sum()),
            },
            Some(k) => range.map(|i| k.layer_s(i, samples, Cut::Whole)).sum(),
        }
    }

    /// The section 7 terms in force for this table's edition.
    pub fn terms(&self) -> &Terms {
        &self.terms
    }

    /// Layers whose roofline time is set by memory traffic (0 without a
    /// roofline).
    pub fn memory_bound_layers(&self) -> usize {
        self.memory_bound_layers
    }

    /// How a profile was scaled to the cluster's GPU, when it was (a
    /// profile recorded on another GPU, in the realistic edition).
    pub fn profile_scaling(&self) -> Option<&ProfileScaling> {
        self.profile_scaling.as_ref()
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
        assert_eq!(network.profile(), crate::oracle::model::network::Profile::Flops);
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
