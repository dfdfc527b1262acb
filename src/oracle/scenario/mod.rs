//! A network placed on a cluster, and what can be asked of it: project one
//! run, sweep GPU counts, rank the strategies, find the largest batch that
//! fits. Each question is one file of `impl Scenario`; all of them start
//! from the cost table built once here. Imports the layers below
//! ([`crate::oracle::report`], [`crate::oracle::cost`],
//! [`crate::oracle::model`]).

mod capacity;
mod project;
mod rank;
mod sweep;

pub use capacity::Capacity;
pub use rank::{RankBy, Ranking};
pub use sweep::{Skipped, Sweep, gpu_counts};

use crate::oracle::cost::table::{CostTable, LayerCost};
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::network::Network;

/// A network placed on a cluster, with per-layer costs computed once.
#[derive(Debug)]
pub struct Scenario {
    network: Network,
    cluster: Cluster,
    table: CostTable,
}

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
    /// Places `network` on `cluster` (see [`CostTable::new`] for the
    /// per-layer times).
    pub fn new(network: Network, cluster: Cluster) -> Self {
        let table = CostTable::new(&network, &cluster);
        Self {
            network,
            cluster,
            table,
        }
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.network
    }

    /// The cluster.
    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The cost table.
    pub fn table(&self) -> &CostTable {
        &self.table
    }

    /// Per-layer costs, in layer order.
    pub fn costs(&self) -> &[LayerCost] {
        self.table.layers()
    }

    /// `Σt`: training seconds per sample of the whole network.
    pub fn time_per_sample_s(&self) -> f64 {
        self.table.time_per_sample_s()
    }
}
