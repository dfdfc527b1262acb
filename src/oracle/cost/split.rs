//! Split sets: which layers a model-parallel strategy divides, and how far
//! that division can go.

use super::layer_cost::LayerCost;
use super::tensor::TensorRole;
use crate::oracle::model::layer::LayerKind;

/// Along what a split set divides its layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitAxis {
    /// The width (first spatial dimension): spatial parallelism.
    Width,
    /// Output channels `F`: filter parallelism.
    Filters,
    /// Input channels `C`: channel parallelism.
    Channels,
    /// The heads of attentions and the hidden units of MLPs: filter and
    /// channel parallelism of a transformer's blocks (section 15).
    Heads,
}

impl SplitAxis {
    /// What bounds the number of parts, in words.
    pub fn bound_name(self) -> &'static str {
        match self {
            Self::Width => "the narrowest split layer's width",
            Self::Filters => "the fewest filters of a split layer",
            Self::Channels => "the fewest input channels (per group) of a split layer",
            Self::Heads => "the fewest heads of an attention or hidden units of a split linear layer",
        }
    }

    fn extent(self, cost: &LayerCost) -> u64 {
        match self {
            Self::Width => cost.width,
            Self::Filters => cost.out_channels,
            Self::Channels => cost.in_channels,
            Self::Heads => match cost.tensor_role {
                _ if cost.heads > 0 => cost.heads,
                TensorRole::Column => cost.out_channels,
                TensorRole::Row => cost.in_channels,
                _ => u64::MAX,
            },
        }
    }
}

/// A split set resolved for a number of parts.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitPlan {
    /// One flag per layer: divided or run whole.
    pub mask: Vec<bool>,
    /// `q`: parts each split layer is divided into.
    pub parts: u64,
    /// Largest `q` the split set allows (0 when it is empty).
    pub bound: u64,
    /// The layer whose extent sets [`SplitPlan::bound`] (the first such).
    pub bound_layer: Option<usize>,
    pub axis: SplitAxis,
}

impl SplitPlan {
    /// Resolves an explicit split set, or the contract's default for `axis`.
    ///
    /// # Formula
    /// Defaults: filters, every conv layer (and linear layer at each
    /// position, section 15); channels, the same but the network's first
    /// layer; width with `q` parts, the conv and pool
    /// layers (and a transformer's linear layers at each position and
    /// products, section 15) of the longest prefix that has no other fc
    /// layer and whose split layers are all at least `q` wide. The bound is the smallest
    /// extent (width, `F` or `C`) over the set; for the default width split,
    /// the width of the first conv or pool layer (the largest `q` whose
    /// default set is not empty). With `elementwise` (the realistic
    /// edition's roofline), a width split also divides the bn, relu, add
    /// and dropout layers that lie before its last split layer (they run
    /// on the local slice); they do not bound it.
    pub fn new(costs: &[LayerCost], axis: SplitAxis, parts: u64, explicit: Option<&[bool]>, elementwise: bool) -> Self {
        let (mut mask, (bound, bound_layer)) = match (explicit, axis) {
            (Some(mask), _) => {
                let mask = mask.to_vec();
                let bound = smallest_extent(costs, &mask, axis);
                (mask, bound)
            }
            (None, SplitAxis::Width) => default_width_split(costs, parts),
            (None, _) => {
                let mask: Vec<bool> = costs
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (c.kind.is_conv() || c.per_position) && !(axis == SplitAxis::Channels && i == 0))
                    .collect();
                let bound = smallest_extent(costs, &mask, axis);
                (mask, bound)
            }
        };
        if elementwise && axis == SplitAxis::Width {
            let last = mask.iter().rposition(|&m| m).unwrap_or(0);
            for (flag, cost) in mask.iter_mut().zip(costs).take(last) {
                if cost.kind.is_elementwise() {
                    *flag = true;
                }
            }
        }
        Self {
            mask,
            parts,
            bound,
            bound_layer,
            axis,
        }
    }

    /// The split of a transformer's blocks into `parts` (section 15):
    /// every layer of a tensor-parallel block ([`TensorRole`]), bounded by
    /// the fewest heads of a product and the fewest outputs of a column or
    /// inputs of a row.
    pub fn tensor(costs: &[LayerCost], parts: u64) -> Self {
        let mask: Vec<bool> = costs.iter().map(|c| c.tensor_role != TensorRole::Whole).collect();
        let (bound, bound_layer) = smallest_extent(costs, &mask, SplitAxis::Heads);
        Self {
            mask,
            parts,
            bound,
            bound_layer,
            axis: SplitAxis::Heads,
        }
    }

    /// Whether no layer is divided.
    pub fn is_empty(&self) -> bool {
        !self.mask.iter().any(|&m| m)
    }

    /// Whether `q` exceeds what the split set allows (or it is empty).
    pub fn violated(&self) -> bool {
        self.is_empty() || self.parts > self.bound
    }

    /// One part's share of a per-layer quantity: split layers divided
    /// among the parts, the others whole.
    ///
    /// # Formula
    /// `Σ_{l∈Sp} v_l/q + Σ_{l∉Sp} v_l`.
    pub fn divided(&self, costs: &[LayerCost], value: fn(&LayerCost) -> f64) -> f64 {
        let q = self.parts as f64;
        self.zip(costs)
            .map(|(c, split)| if split { value(c) / q } else { value(c) })
            .sum()
    }

    /// Per-sample time of one part.
    ///
    /// # Formula
    /// `t_split(q) = Σ_{l∈Sp} t_l/q + Σ_{l∉Sp} t_l`.
    pub fn time_s(&self, costs: &[LayerCost]) -> f64 {
        self.divided(costs, |c| c.time_s)
    }

    /// Per-sample time of the layers left whole (computed by every part).
    pub fn whole_time_s(&self, costs: &[LayerCost]) -> f64 {
        self.zip(costs).filter(|(_, split)| !split).map(|(c, _)| c.time_s).sum()
    }

    /// Index of the last split layer.
    pub fn last(&self) -> Option<usize> {
        self.mask.iter().rposition(|&m| m)
    }

    /// The layers with their flags.
    pub fn zip<'a>(&'a self, costs: &'a [LayerCost]) -> impl Iterator<Item = (&'a LayerCost, bool)> + 'a {
        costs.iter().zip(self.mask.iter().copied())
    }
}

/// The smallest extent along `axis` of the layers `mask` splits, and the
/// first layer that has it (`(0, None)` for an empty set).
fn smallest_extent(costs: &[LayerCost], mask: &[bool], axis: SplitAxis) -> (u64, Option<usize>) {
    costs
        .iter()
        .zip(mask)
        .enumerate()
        .filter(|(_, (_, split))| **split)
        .map(|(i, (c, _))| (axis.extent(c), i))
        .min()
        .map_or((0, None), |(extent, i)| (extent, Some(i)))
}

fn default_width_split(costs: &[LayerCost], parts: u64) -> (Vec<bool>, (u64, Option<usize>)) {
    let mut mask = vec![false; costs.len()];
    let mut bound = (0, None);
    for (i, cost) in costs.iter().enumerate() {
        // a transformer's linear layers at each position and its products split by
        // their positions (tokens) as a 1×1 convolution does (section 15)
        if cost.kind == LayerKind::Fc && !cost.per_position {
            break;
        }
        if cost.kind.is_conv() || cost.kind.is_pool() || cost.per_position || cost.heads > 0 {
            if bound.1.is_none() {
                bound = (cost.width, Some(i));
            }
            if cost.width < parts {
                break;
            }
            mask[i] = true;
        }
    }
    (mask, bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    fn names(plan: &SplitPlan, scenario: &crate::oracle::Scenario) -> Vec<String> {
        scenario
            .network()
            .layers()
            .iter()
            .zip(&plan.mask)
            .filter(|(_, m)| **m)
            .map(|(l, _)| l.name().to_string())
            .collect()
    }

    #[test]
    fn alexnet_default_spatial_split_follows_the_width() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        // widths: CONV1 54, MPOOL 27, CONV2 27, MPOOL 13, CONV3-5 13, MPOOL 6
        let plan = SplitPlan::new(s.costs(), SplitAxis::Width, 4, None, false);
        assert_eq!(
            names(&plan, &s),
            ["CONV1", "MPOOL", "CONV2", "MPOOL", "CONV3", "CONV4", "CONV5", "MPOOL"]
        );
        assert_eq!(plan.bound, 54);
        let plan = SplitPlan::new(s.costs(), SplitAxis::Width, 16, None, false);
        assert_eq!(names(&plan, &s), ["CONV1", "MPOOL", "CONV2"]);
        let plan = SplitPlan::new(s.costs(), SplitAxis::Width, 64, None, false);
        assert!(plan.is_empty());
        assert!(plan.violated());
    }

    #[test]
    fn filter_and_channel_defaults() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let filter = SplitPlan::new(s.costs(), SplitAxis::Filters, 4, None, false);
        assert_eq!(names(&filter, &s), ["CONV1", "CONV2", "CONV3", "CONV4", "CONV5"]);
        assert_eq!(filter.bound, 96);
        let channel = SplitPlan::new(s.costs(), SplitAxis::Channels, 4, None, false);
        assert_eq!(names(&channel, &s), ["CONV2", "CONV3", "CONV4", "CONV5"]);
        assert_eq!(channel.bound, 96);
        assert!(!channel.violated());
        let channel = SplitPlan::new(s.costs(), SplitAxis::Channels, 128, None, false);
        assert!(channel.violated());
    }

    #[test]
    fn split_time_divides_only_split_layers() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let plan = SplitPlan::new(s.costs(), SplitAxis::Filters, 4, None, false);
        let split: f64 = s
            .costs()
            .iter()
            .zip(&plan.mask)
            .filter(|(_, m)| **m)
            .map(|(c, _)| c.time_s)
            .sum();
        let whole = s.time_per_sample_s() - split;
        assert!((plan.time_s(s.costs()) - (split / 4.0 + whole)).abs() < 1e-15);
        assert!((plan.whole_time_s(s.costs()) - whole).abs() < 1e-15);
    }

    #[test]
    fn the_realistic_width_split_also_divides_elementwise_layers_inside_it() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        // widths: CONV1 54, MPOOL 27, CONV2 27, MPOOL 13 ...: at 16 parts CONV1, MPOOL, CONV2 split
        let plan = SplitPlan::new(s.costs(), SplitAxis::Width, 16, None, true);
        assert_eq!(names(&plan, &s), ["CONV1", "RELU", "MPOOL", "CONV2"]);
        assert_eq!(plan.bound, 54);
        assert_eq!(plan.last(), Some(3));
        // filter splits are not widened
        let filter = SplitPlan::new(s.costs(), SplitAxis::Filters, 4, None, true);
        assert_eq!(filter, SplitPlan::new(s.costs(), SplitAxis::Filters, 4, None, false));
    }

    #[test]
    fn explicit_split_bound_is_the_smallest_extent() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let mut mask = vec![false; s.costs().len()];
        mask[0] = true;
        mask[3] = true;
        let plan = SplitPlan::new(s.costs(), SplitAxis::Width, 8, Some(&mask), false);
        assert_eq!(plan.bound, 27);
        assert_eq!(plan.last(), Some(3));
    }
}
