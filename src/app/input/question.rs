//! What the user asks: this network on that cluster, run so, which
//! strategies to draw, and the runs they measured. The results of a view
//! are computed from the question alone.

use serde::{Deserialize, Serialize};

use crate::app::input::source::{ClusterSource, ModelSource};
use crate::oracle::RankBy;
use crate::oracle::model::convergence::Convergence;
use crate::oracle::presets::{self, NetworkPreset};
use crate::oracle::{
    Batch, Cluster, Edition, Factors, InputError, MemoryFormat, Network, Optimizer, OracleError, Precision, Run,
    RunSpec, Scenario, Strategy,
};

/// The GPU budget of a first visit.
pub const DEFAULT_GPUS: u64 = 64;
/// The samples per GPU of a first visit.
pub const DEFAULT_SAMPLES_PER_GPU: f64 = 32.0;

/// The question a view answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// The network.
    #[serde(flatten)]
    pub model: ModelSource,
    #[serde(flatten)]
    pub cluster: ClusterSource,
    /// The run every strategy is projected with: its GPU budget, batch and
    /// settings (its strategy is each projection's own; no calibration:
    /// the view computes it from the measured runs).
    #[serde(flatten, with = "run_link")]
    pub run: RunSpec,
    /// Strategies drawn in the plots, in the contract's order.
    #[serde(
        rename = "s",
        default = "all_strategies",
        skip_serializing_if = "is_all",
        with = "strategy_list"
    )]
    pub strategies: Vec<Strategy>,
    /// Measured runs to calibrate with, as CSV (blank: no calibration).
    #[serde(rename = "cal", default, skip_serializing_if = "is_blank")]
    pub measured: String,
    /// What "best" means: the shortest epoch or the shortest time to train.
    #[serde(rename = "rb", default, skip_serializing_if = "is_default")]
    pub rank_by: RankBy,
}

impl Default for Question {
    /// ResNet-50 on ABCI at 64 GPUs, 32 samples per GPU, every strategy.
    fn default() -> Self {
        Self {
            model: ModelSource::default(),
            cluster: ClusterSource::default(),
            run: default_run(),
            strategies: all_strategies(),
            measured: String::new(),
            rank_by: RankBy::Time,
        }
    }
}

impl Question {
    /// The network.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom network.
    pub fn network(&self) -> Result<Network, OracleError> {
        self.model.network()
    }

    /// The cluster.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom cluster.
    pub fn cluster(&self) -> Result<Cluster, OracleError> {
        self.cluster.cluster()
    }

    /// The network preset asked about, when the run does not train it as
    /// it usually is (its usual samples per GPU are not the run's batch):
    /// what the page offers to put back.
    pub fn unusual_preset(&self) -> Option<&'static NetworkPreset> {
        let preset = presets::network_preset(self.model.preset()?).ok()?;
        (self.run.batch != Batch::SamplesPerGpu(preset.usual_samples_per_gpu.0)).then_some(preset)
    }

    /// The network on the cluster.
    ///
    /// # Errors
    /// As [`Question::network`] and [`Question::cluster`].
    pub fn scenario(&self) -> Result<Scenario, OracleError> {
        Ok(Scenario::new(self.network()?, self.cluster()?))
    }

    /// The GPU budget.
    pub fn gpus(&self) -> u64 {
        self.run.gpus
    }

    /// The run of `strategy` at the GPU budget, uncalibrated (the view adds
    /// the calibration it computes); the ZeRO stage applies where the
    /// strategy has a data-parallel dimension.
    pub fn run_of(&self, strategy: Strategy) -> RunSpec {
        RunSpec {
            convergence: self.convergence(),
            ..self.run.for_strategy(strategy, self.run.gpus)
        }
    }

    /// How the run converges: as given, else the network preset's own
    /// curve; `None` (the engine's 90 epochs, assumed) for a network of
    /// the user's without one given.
    pub fn convergence(&self) -> Option<Convergence> {
        self.run.convergence.clone().or_else(|| match &self.model {
            ModelSource::Preset(key) => presets::usual_convergence(key).map(|(c, _)| c),
            _ => None,
        })
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
        for strategy in Strategy::ALL.into_iter().filter(|s| s.applies_at(self.run.gpus)) {
            Run::new(&self.run_of(strategy), network, cluster)?;
        }
        Ok(())
    }

    /// The same question with the presets' keys as the presets spell them.
    ///
    /// # Errors
    /// An unknown preset.
    pub fn canonical(self) -> Result<Self, OracleError> {
        Ok(Self {
            model: self.model.canonical()?,
            cluster: self.cluster.canonical()?,
            ..self
        })
    }
}

/// The run of a first visit.
fn default_run() -> RunSpec {
    RunSpec::new(
        Strategy::Data,
        DEFAULT_GPUS,
        Batch::SamplesPerGpu(DEFAULT_SAMPLES_PER_GPU),
    )
}

fn all_strategies() -> Vec<Strategy> {
    Strategy::ALL.to_vec()
}

fn is_all(strategies: &[Strategy]) -> bool {
    strategies == Strategy::ALL
}

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The strategies as a link writes them: their names, comma-separated.
mod strategy_list {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::oracle::Strategy;

    pub fn serialize<S: Serializer>(strategies: &[Strategy], s: S) -> Result<S::Ok, S::Error> {
        let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
        s.serialize_str(&names.join(","))
    }

    /// Any text: an unknown name is an invalid value, found when the link
    /// is checked (it is kept as no strategy at all here).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Strategy>, D::Error> {
        let text = String::deserialize(d)?;
        Strategy::parse_list(&text).map_err(serde::de::Error::custom)
    }
}

/// The run as a link writes it: the short keys every link has used, the
/// first visit's values left out. Listing every field of
/// [`RunSpec`] (serde's remote derive), a setting added to the engine's
/// run fails to build until it has its key here.
mod run_link {
    use serde::{Deserialize, Serialize};

    use crate::app::input::question::{
        Batch, DEFAULT_GPUS, DEFAULT_SAMPLES_PER_GPU, Edition, Factors, MemoryFormat, Optimizer, Precision, RunSpec,
        Strategy, is_default,
    };
    use crate::oracle::AttentionForm;
    use crate::oracle::DEFAULT_BUCKET_MIB;
    use crate::oracle::model::convergence::Convergence;
    use crate::oracle::model::energy::Costs;
    use crate::oracle::model::run::DEFAULT_BYTES_PER_ITEM;

    #[derive(Serialize, Deserialize)]
    #[serde(remote = "RunSpec")]
    struct RunKeys {
        #[serde(skip, default = "data")]
        strategy: Strategy,
        #[serde(rename = "g", default = "gpus", skip_serializing_if = "is_default_gpus")]
        gpus: u64,
        #[serde(flatten, with = "batch")]
        batch: Batch,
        #[serde(rename = "d", default = "bytes", skip_serializing_if = "is_default_bytes")]
        bytes_per_item: f64,
        #[serde(rename = "sg", default, skip_serializing_if = "Option::is_none")]
        segments: Option<u64>,
        #[serde(rename = "p2", default, skip_serializing_if = "Option::is_none")]
        group_size: Option<u64>,
        #[serde(skip)]
        split: Option<Vec<bool>>,
        #[serde(skip)]
        update_s: f64,
        #[serde(rename = "f", default, skip_serializing_if = "is_default")]
        edition: Edition,
        #[serde(skip)]
        calibration: Option<Factors>,
        #[serde(rename = "pr", default, skip_serializing_if = "is_default")]
        precision: Precision,
        #[serde(rename = "op", default, skip_serializing_if = "is_default")]
        optimizer: Optimizer,
        #[serde(rename = "z", default, skip_serializing_if = "is_default")]
        zero: u8,
        #[serde(rename = "rc", default, skip_serializing_if = "is_default")]
        recompute: bool,
        #[serde(rename = "ov", default, skip_serializing_if = "is_default")]
        overlap: bool,
        #[serde(rename = "bk", default = "bucket", skip_serializing_if = "is_default_bucket")]
        bucket_mib: f64,
        #[serde(rename = "mf", default, skip_serializing_if = "is_default")]
        memory_format: MemoryFormat,
        #[serde(rename = "at", default, skip_serializing_if = "is_default")]
        attention: AttentionForm,
        #[serde(rename = "cv", default, skip_serializing_if = "Option::is_none")]
        convergence: Option<Convergence>,
        #[serde(flatten, with = "costs")]
        costs: Costs,
    }

    /// The costs: the grid `ci`, a GPU-hour's price `gh`, a kWh's `kw`,
    /// the PUE `pu`, each left out at its default.
    mod costs {
        use serde::{Deserialize, Serialize};

        use crate::oracle::model::energy::{Costs, Grid, Price};

        #[derive(Serialize, Deserialize)]
        #[serde(remote = "Costs")]
        struct CostKeys {
            #[serde(rename = "ci", default, skip_serializing_if = "Option::is_none")]
            grid: Option<Grid>,
            #[serde(rename = "gh", default, skip_serializing_if = "Option::is_none")]
            price: Option<Price>,
            #[serde(rename = "kw", default, skip_serializing_if = "Option::is_none")]
            usd_per_kwh: Option<f64>,
            #[serde(rename = "pu", default, skip_serializing_if = "Option::is_none")]
            pue: Option<f64>,
        }

        pub fn serialize<S: serde::Serializer>(costs: &Costs, s: S) -> Result<S::Ok, S::Error> {
            CostKeys::serialize(costs, s)
        }

        pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Costs, D::Error> {
            CostKeys::deserialize(d)
        }
    }

    fn data() -> Strategy {
        Strategy::Data
    }
    fn gpus() -> u64 {
        DEFAULT_GPUS
    }
    fn is_default_gpus(g: &u64) -> bool {
        *g == DEFAULT_GPUS
    }
    fn bytes() -> f64 {
        DEFAULT_BYTES_PER_ITEM
    }
    fn is_default_bytes(d: &f64) -> bool {
        *d == DEFAULT_BYTES_PER_ITEM
    }
    fn bucket() -> f64 {
        DEFAULT_BUCKET_MIB
    }
    fn is_default_bucket(b: &f64) -> bool {
        *b == DEFAULT_BUCKET_MIB
    }

    pub fn serialize<S: serde::Serializer>(run: &RunSpec, s: S) -> Result<S::Ok, S::Error> {
        RunKeys::serialize(run, s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RunSpec, D::Error> {
        RunKeys::deserialize(d)
    }

    /// The batch: `b` samples per GPU (the first visit's 32 left out) or a
    /// mini-batch `mb`.
    mod batch {
        use serde::{Deserialize, Serialize};

        use crate::app::input::question::run_link::{Batch, DEFAULT_SAMPLES_PER_GPU};

        #[derive(Default, Serialize, Deserialize)]
        struct BatchKeys {
            #[serde(default, skip_serializing_if = "Option::is_none")]
            b: Option<f64>,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            mb: Option<u64>,
        }

        pub fn serialize<S: serde::Serializer>(batch: &Batch, s: S) -> Result<S::Ok, S::Error> {
            let keys = match *batch {
                Batch::SamplesPerGpu(b) => BatchKeys {
                    b: (b != DEFAULT_SAMPLES_PER_GPU).then_some(b),
                    mb: None,
                },
                Batch::MiniBatch(b) => BatchKeys { b: None, mb: Some(b) },
            };
            keys.serialize(s)
        }

        pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Batch, D::Error> {
            let keys = BatchKeys::deserialize(d)?;
            Ok(match (keys.mb, keys.b) {
                (Some(b), _) => Batch::MiniBatch(b),
                (None, Some(b)) => Batch::SamplesPerGpu(b),
                (None, None) => Batch::SamplesPerGpu(DEFAULT_SAMPLES_PER_GPU),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::input::question::*;

    #[test]
    fn a_preset_run_otherwise_than_usual_is_offered_back() {
        assert!(
            Question::default().unusual_preset().is_none(),
            "ResNet-50 at 32 per GPU"
        );
        let mut cosmoflow = Question {
            model: ModelSource::Preset("cosmoflow".into()),
            ..Question::default()
        };
        assert_eq!(cosmoflow.unusual_preset().map(|p| p.key), Some("cosmoflow"));
        cosmoflow.run.batch = Batch::SamplesPerGpu(0.25);
        assert!(cosmoflow.unusual_preset().is_none());
        let custom = Question {
            model: ModelSource::Custom(Box::new(presets::network("alexnet").unwrap().spec())),
            ..Question::default()
        };
        assert!(custom.unusual_preset().is_none(), "no preset, no usual run");
    }
}
