//! Where a run puts its work: what each GPU holds, how GPUs group, and
//! which collectives run among which GPUs with how many bytes (for the
//! page's strategy diagram).

use serde::Serialize;

use crate::oracle::cost::communication::CommKind;
use crate::oracle::model::strategy::Strategy;

/// What one GPU holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Share {
    /// Every layer whole, for `samples` samples an iteration (serial and
    /// data parallelism).
    Samples {
        /// Samples per GPU per iteration.
        samples: f64,
    },
    /// One of `parts` slices of each layer of the split set (filters,
    /// input channels or width), the other layers whole, for the group's
    /// `samples`.
    Slices {
        /// What is sliced: `filters`, `input channels` or `width`.
        axis: &'static str,
        /// Slices of each split layer.
        parts: u64,
        /// Layers in the split set.
        split_layers: usize,
        layers: usize,
        /// Samples per group per iteration.
        samples: f64,
    },
    /// A stage of consecutive layers per GPU, for micro-batches.
    Stages {
        /// Each stage's first and last layer (1-based) and names.
        stages: Vec<Stage>,
        /// Samples per segment.
        micro_batch: f64,
        /// Segments an iteration.
        segments: u64,
    },
}

/// One pipeline stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stage {
    /// First layer, 1-based.
    pub first: usize,
    /// Last layer, 1-based.
    pub last: usize,
    /// The first layer's name.
    pub first_name: String,
    /// The last layer's name.
    pub last_name: String,
}

/// One collective of an iteration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Collective {
    /// Its kind.
    pub kind: CommKind,
    /// Its formula.
    pub formula: &'static str,
    /// GPUs in one instance (2: neighbours or stage pairs).
    pub members: u64,
    /// Consecutive GPUs one instance spans.
    pub span_gpus: u64,
    /// Instances at once (groups that each run it).
    pub instances: u64,
    /// Whether an instance crosses nodes.
    pub crosses_nodes: bool,
    /// Bytes of one GPU's messages an iteration.
    pub bytes: f64,
    /// Seconds an iteration.
    pub seconds: f64,
}

/// The placement of a run on a cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placement {
    pub strategy: Strategy,
    /// `p`.
    pub gpus: u64,
    /// `n`.
    pub gpus_per_node: u64,
    /// `⌈p/n⌉`.
    pub nodes: u64,
    /// Data-parallel groups `p1` (replicas).
    pub groups: u64,
    /// GPUs per group `p2` (1 for data parallelism).
    pub group_size: u64,
    /// What each GPU holds.
    pub share: Share,
    /// The collectives of an iteration.
    pub collectives: Vec<Collective>,
    /// Bandwidth inside a node, bytes/s.
    pub intra_node_bytes_per_s: f64,
    /// Bandwidth of a NIC, bytes/s.
    pub nic_bytes_per_s: f64,
}

impl Placement {
    /// The node GPU `gpu` (0-based) sits in.
    pub fn node_of(&self, gpu: u64) -> u64 {
        gpu / self.gpus_per_node.max(1)
    }

    /// The group GPU `gpu` belongs to (consecutive GPUs form a group).
    pub fn group_of(&self, gpu: u64) -> u64 {
        gpu / self.group_size.max(1)
    }
}
