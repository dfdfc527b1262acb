//! A network placed on a cluster, and what can be asked of it: project one
//! run, sweep GPU counts, rank the strategies, find the largest batch that
//! fits, search a whole space for the Pareto front. Each question is one file of `impl Scenario`; all of them start
//! from the cost table built once here. Imports the layers below
//! ([`crate::oracle::report`], [`crate::oracle::cost`],
//! [`crate::oracle::model`]).

mod calibrate;
mod capacity;
pub mod csv;
mod explain;
mod explain_energy;
mod fit;
mod place;
mod profile;
mod project;
mod rank;
mod search;
mod sweep;

pub use calibrate::{CalibratedRun, Calibration, IterationTimes, StrategyFactors, accuracy, geometric_mean};
pub use capacity::Capacity;
pub use profile::ProfileCheck;
pub use rank::{RankBy, Ranking};
pub use search::{BestBy, Config, Objective, Plan, pareto_front, plan_gpu_counts};
pub use sweep::{Skipped, Sweep, gpu_counts};

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::oracle::cost::table::{CostTable, LayerCost};
use crate::oracle::cost::times::TimeBasis;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::network::Network;
use crate::oracle::model::practice::{AttentionForm, MemoryFormat, Precision};
use crate::oracle::model::run::Run;

/// What a cost table depends on besides the network and the cluster: the
/// edition, the precision, recompute, and in the realistic edition the
/// item size of the roofline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct TableKey {
    edition: Edition,
    item_bytes_bits: u64,
    precision: Precision,
    recompute: bool,
    memory_format: MemoryFormat,
    attention: AttentionForm,
}

impl TableKey {
    fn new(basis: &TimeBasis) -> Self {
        Self {
            edition: basis.edition,
            // the ideal edition's times do not depend on the item size
            item_bytes_bits: match basis.edition {
                Edition::Ideal => 0,
                Edition::Realistic => basis.item_bytes.to_bits(),
            },
            precision: basis.precision,
            recompute: basis.recompute,
            // the ideal edition's times do not depend on the layout
            memory_format: match basis.edition {
                Edition::Ideal => MemoryFormat::Nchw,
                Edition::Realistic => basis.memory_format,
            },
            attention: basis.attention,
        }
    }
}

/// Cost tables remembered at most (editions × item sizes a session uses).
const REMEMBERED_TABLES: usize = 16;

/// A network placed on a cluster, with per-layer costs computed once per
/// edition (and item size).
#[derive(Debug)]
pub struct Scenario {
    network: Network,
    cluster: Cluster,
    table: Arc<CostTable>,
    tables: Mutex<HashMap<TableKey, Arc<CostTable>>>,
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
    /// Places `network` on `cluster` (see [`CostTable::for_basis`] for
    /// the per-layer times). The realistic edition's table at the defaults
    /// is built now, the others when first asked for.
    pub fn new(network: Network, cluster: Cluster) -> Self {
        let basis = TimeBasis::edition(Edition::Realistic);
        let table = Arc::new(CostTable::for_basis(&network, &cluster, &basis));
        let mut tables = HashMap::new();
        tables.insert(TableKey::new(&basis), Arc::clone(&table));
        Self {
            network,
            cluster,
            table,
            tables: Mutex::new(tables),
        }
    }

    /// The cost table of a basis (edition, item size, precision,
    /// recompute), built once.
    pub fn table_for(&self, basis: &TimeBasis) -> Arc<CostTable> {
        let key = TableKey::new(basis);
        let mut memo = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = memo.get(&key) {
            return Arc::clone(found);
        }
        let made = Arc::new(CostTable::for_basis(&self.network, &self.cluster, basis));
        if memo.len() >= REMEMBERED_TABLES {
            memo.clear();
        }
        memo.insert(key, Arc::clone(&made));
        made
    }

    /// The cost table a checked run is costed with.
    pub fn table_of(&self, run: &Run) -> Arc<CostTable> {
        self.table_for(&TimeBasis::of(run))
    }

    pub fn network(&self) -> &Network {
        &self.network
    }

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    /// The cost table of the default run (realistic edition, 4 bytes per
    /// item).
    pub fn table(&self) -> &CostTable {
        &self.table
    }

    /// Per-layer costs of the default run, in layer order.
    pub fn costs(&self) -> &[LayerCost] {
        self.table.layers()
    }

    /// `Σt`: training seconds per sample of the whole network, in the
    /// default run's table.
    pub fn time_per_sample_s(&self) -> f64 {
        self.table.time_per_sample_s()
    }
}
