//! The kinds of communication and seconds spent in each: a leaf that both
//! the costs and the reports use.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::oracle::model::names::named_enum;

named_enum! {
    /// A kind of communication.
    pub enum CommKind {
        /// Allreduce of weight gradients (data parallelism, between groups).
        GradientAllreduce => ("gradient_allreduce", "gradient allreduce"),
        /// Per-layer collectives of filter and channel parallelism.
        LayerCollectives => ("layer_collectives", "layer-wise collectives"),
        /// Halo exchange between spatial neighbours.
        Halo => ("halo", "halo exchange"),
        /// Gather (and scatter) of a spatial split's last activations.
        Gather => ("gather", "gather/scatter"),
        /// Point-to-point transfers between pipeline stages.
        PipelineP2p => ("pipeline_p2p", "pipeline point-to-point"),
        /// ZeRO stage 3's allgather of the weights in the backward pass.
        WeightAllgather => ("weight_allgather", "ZeRO-3 weight allgather"),
        /// A token split's allgather of global attention's keys and values,
        /// or the Allreduce of a product summing over the tokens (section 15).
        KeyValue => ("key_value_allgather", "keys and values allgather"),
    }
}

/// How many kinds there are.
pub const KINDS: usize = CommKind::ALL.len();

impl CommKind {
    /// What it is, in a sentence (the page's glossary).
    pub fn description(self) -> &'static str {
        match self {
            Self::GradientAllreduce => {
                "Every replica sums its weight gradients with the others' after the backward pass (an Allreduce): data parallelism, and the hybrids between their groups."
            }
            Self::LayerCollectives => {
                "Filter and channel parallelism exchange each split layer's outputs (forward) and gradients (backward) among the GPUs that share the layer."
            }
            Self::Halo => {
                "Spatial parallelism swaps the border rows a convolution needs from its neighbours' slices, forward and backward."
            }
            Self::Gather => {
                "After the spatially split layers, the slices of the activations are gathered into whole samples (and scattered back in the backward pass)."
            }
            Self::PipelineP2p => {
                "Each pipeline stage passes its micro-batch's activations to the next stage, and the gradients back."
            }
            Self::WeightAllgather => {
                "ZeRO stage 3 keeps only a shard of the weights on each GPU and gathers the whole layer when it is needed."
            }
            Self::KeyValue => {
                "Spatial parallelism of a transformer splits its tokens; global attention needs every token's keys and values, so each GPU gathers the others' (an Allgather) forward and sends their gradients back (a reduce-scatter) backward. A product that sums over the tokens (a linear attention's keys by values, attention across channels) adds up each GPU's partial sums instead (an Allreduce, the same volume)."
            }
        }
    }

    /// The JSON key (the machine name).
    pub fn key(self) -> &'static str {
        self.name()
    }

    /// The class of the paper's table of limitations.
    pub fn class(self) -> &'static str {
        match self {
            Self::GradientAllreduce | Self::WeightAllgather => "gradient exchange",
            Self::LayerCollectives | Self::Gather | Self::KeyValue => "layer-wise collectives",
            Self::Halo | Self::PipelineP2p => "point-to-point/halo",
        }
    }

    fn slot(self) -> usize {
        self as usize
    }
}

/// Communication seconds by kind (indexed by [`CommKind`], so that a new
/// kind is added in one place). Serialises as an object keyed by the kinds'
/// names.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Communication([f64; KINDS]);

impl Communication {
    /// Only `kind`, with `seconds`.
    pub fn of(kind: CommKind, seconds: f64) -> Self {
        Self::default().with(kind, seconds)
    }

    /// The same with `kind` set to `seconds`.
    #[must_use]
    pub fn with(mut self, kind: CommKind, seconds: f64) -> Self {
        self.0[kind.slot()] = seconds;
        self
    }

    /// Seconds of one kind.
    pub fn get(&self, kind: CommKind) -> f64 {
        self.0[kind.slot()]
    }

    /// Sum over kinds.
    pub fn total_s(&self) -> f64 {
        self.0.iter().sum()
    }

    /// Every kind multiplied by `factor`.
    #[must_use]
    pub fn scaled(&self, factor: f64) -> Self {
        Self(self.0.map(|s| s * factor))
    }

    /// The kind with the most seconds (`None` when there is none).
    pub fn dominant(&self) -> Option<CommKind> {
        CommKind::ALL
            .into_iter()
            .filter(|&k| self.get(k) > 0.0)
            .max_by(|a, b| self.get(*a).total_cmp(&self.get(*b)))
    }

    /// The kinds with their seconds, in order.
    pub fn iter(&self) -> impl Iterator<Item = (CommKind, f64)> + '_ {
        CommKind::ALL.into_iter().map(|k| (k, self.get(k)))
    }
}

impl Serialize for Communication {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(KINDS))?;
        for (kind, seconds) in self.iter() {
            map.serialize_entry(kind.name(), &seconds)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_index_the_seconds() {
        let c = Communication::of(CommKind::Halo, 2.0).with(CommKind::Gather, 1.0);
        assert_eq!(c.get(CommKind::Halo), 2.0);
        assert_eq!(c.total_s(), 3.0);
        assert_eq!(c.dominant(), Some(CommKind::Halo));
        assert_eq!(c.scaled(2.0).get(CommKind::Gather), 2.0);
        let json = serde_json::to_value(c).unwrap();
        assert_eq!(json["halo"], 2.0);
        assert_eq!(json["pipeline_p2p"], 0.0);
        assert_eq!(json.as_object().unwrap().len(), KINDS);
        assert_eq!(Communication::default().dominant(), None);
    }
}
