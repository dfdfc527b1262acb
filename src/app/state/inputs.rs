//! The committed inputs of a view: what a share link carries.

use serde::{Deserialize, Serialize};

use super::explain_target::ExplainTarget;

use crate::oracle::{
    Batch, Cluster, ClusterSpec, DEFAULT_BUCKET_MIB, Fidelity, InputError, Network, NetworkSpec, Objective, Optimizer,
    OracleError, Precision, Run, RunSpec, Scenario, Strategy, presets,
};

/// Where the network comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ModelSource {
    /// A built-in network, by key.
    Preset(String),
    /// A network entered, imported or edited by the user.
    Custom(Box<NetworkSpec>),
}

/// Where the cluster comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ClusterSource {
    /// A built-in cluster, by key.
    Preset(String),
    /// A cluster edited by the user (boxed: a preset key is small).
    Custom(Box<ClusterSpec>),
}

/// Everything a view depends on.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// The network.
    pub model: ModelSource,
    /// The cluster.
    pub cluster: ClusterSource,
    /// GPU budget.
    pub gpus: u64,
    /// Samples per GPU or mini-batch.
    pub batch: Batch,
    /// Strategies drawn in the plots.
    pub strategies: Vec<Strategy>,
    /// Bytes per item.
    pub bytes_per_item: f64,
    /// Pipeline segments (default: GPUs).
    pub segments: Option<u64>,
    /// Hybrid group size (default: GPUs per node).
    pub group_size: Option<u64>,
    /// The edition of the model.
    pub fidelity: Fidelity,
    /// Measured runs to calibrate with, as CSV (blank: no calibration).
    pub measured: String,
    /// Draw the other edition's scaling curves too.
    pub compare_editions: bool,
    /// Arithmetic.
    pub precision: Precision,
    /// Optimizer.
    pub optimizer: Optimizer,
    /// ZeRO stage (applied to the strategies with a data-parallel dimension).
    pub zero: u8,
    /// Activation recompute.
    pub recompute: bool,
    /// Overlap of the gradient exchange with the backward pass.
    pub overlap: bool,
    /// Gradient bucket of the overlap, MiB.
    pub bucket_mib: f64,
    /// The planner is open (its search runs).
    pub plan_open: bool,
    /// The planner's GPU budget (default: the cluster's largest allocation).
    pub plan_gpus: Option<u64>,
    /// What the planner calls best.
    pub plan_objective: Objective,
    /// The number the explanation panel explains, if open.
    pub explaining: Option<ExplainTarget>,
    /// The strategy the diagram draws (`None`: the best at the budget).
    pub drawing: Option<Strategy>,
}

/// The view a first visit shows: ResNet-50 on ABCI at 64 GPUs, 32 samples
/// per GPU, every strategy.
pub const DEFAULT_MODEL: &str = "resnet50";
/// See [`DEFAULT_MODEL`].
pub const DEFAULT_CLUSTER: &str = "abci";
/// See [`DEFAULT_MODEL`].
pub const DEFAULT_GPUS: u64 = 64;
/// See [`DEFAULT_MODEL`].
pub const DEFAULT_SAMPLES_PER_GPU: f64 = 32.0;

impl Default for Inputs {
    fn default() -> Self {
        Self {
            model: ModelSource::Preset(DEFAULT_MODEL.into()),
            cluster: ClusterSource::Preset(DEFAULT_CLUSTER.into()),
            gpus: DEFAULT_GPUS,
            batch: Batch::SamplesPerGpu(DEFAULT_SAMPLES_PER_GPU),
            strategies: Strategy::ALL.to_vec(),
            bytes_per_item: crate::oracle::model::run::DEFAULT_BYTES_PER_ITEM,
            segments: None,
            group_size: None,
            fidelity: Fidelity::default(),
            measured: String::new(),
            compare_editions: false,
            precision: Precision::default(),
            optimizer: Optimizer::default(),
            zero: 0,
            recompute: false,
            overlap: false,
            bucket_mib: DEFAULT_BUCKET_MIB,
            plan_open: false,
            plan_gpus: None,
            plan_objective: Objective::default(),
            explaining: None,
            drawing: None,
        }
    }
}

impl Inputs {
    /// The network.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom network.
    pub fn network(&self) -> Result<Network, OracleError> {
        match &self.model {
            ModelSource::Preset(key) => presets::network(key),
            ModelSource::Custom(spec) => Ok(Network::new(spec.as_ref().clone())?),
        }
    }

    /// The cluster.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom cluster.
    pub fn cluster(&self) -> Result<Cluster, OracleError> {
        match &self.cluster {
            ClusterSource::Preset(key) => presets::cluster(key),
            ClusterSource::Custom(spec) => Ok(Cluster::new(spec.as_ref().clone())?),
        }
    }

    /// The network on the cluster.
    ///
    /// # Errors
    /// As [`Inputs::network`] and [`Inputs::cluster`].
    pub fn scenario(&self) -> Result<Scenario, OracleError> {
        Ok(Scenario::new(self.network()?, self.cluster()?))
    }

    /// The run of `strategy` at the GPU budget, in the chosen edition,
    /// uncalibrated (the view adds the calibration it computes); the ZeRO
    /// stage applies where the strategy has a data-parallel dimension.
    pub fn run(&self, strategy: Strategy) -> RunSpec {
        RunSpec {
            bytes_per_item: self.bytes_per_item,
            segments: self.segments,
            group_size: self.group_size,
            fidelity: self.fidelity,
            precision: self.precision,
            optimizer: self.optimizer,
            zero: self.zero,
            recompute: self.recompute,
            overlap: self.overlap,
            bucket_mib: self.bucket_mib,
            ..RunSpec::new(Strategy::Data, self.gpus, self.batch)
        }
        .for_strategy(strategy, self.gpus)
    }

    /// Whether measured runs are given (a calibration applies).
    pub fn calibrated(&self) -> bool {
        !self.measured.trim().is_empty()
    }

    /// Checks the run of every strategy that applies at the GPU budget (the
    /// ranking shows them all).
    ///
    /// # Errors
    /// The first setting the engine rejects.
    pub fn check_runs(&self, network: &Network, cluster: &Cluster) -> Result<(), InputError> {
        for strategy in Strategy::ALL.into_iter().filter(|s| s.applies_at(self.gpus)) {
            Run::new(&self.run(strategy), network, cluster)?;
        }
        Ok(())
    }

    /// The preset key of the model, if it is one.
    pub fn model_preset(&self) -> Option<&str> {
        match &self.model {
            ModelSource::Preset(key) => Some(key),
            ModelSource::Custom(_) => None,
        }
    }

    /// The preset key of the cluster, if it is one.
    pub fn cluster_preset(&self) -> Option<&str> {
        match &self.cluster {
            ClusterSource::Preset(key) => Some(key),
            ClusterSource::Custom(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_build_a_scenario() {
        let inputs = Inputs::default();
        let scenario = inputs.scenario().unwrap();
        assert_eq!(scenario.network().name(), "ResNet50");
        assert_eq!(inputs.run(Strategy::Data).gpus, 64);
        assert_eq!(inputs.model_preset(), Some("resnet50"));
    }
}
