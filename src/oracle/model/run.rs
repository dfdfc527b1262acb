//! A training run: strategy, GPU count, batch and the knobs of each strategy.

use serde::{Deserialize, Serialize};

use super::checks::{self, MAX_COUNT, MAX_GPUS};
use super::cluster::Cluster;
use super::convergence::Convergence;
use super::edition::Edition;
use super::energy::Costs;
use super::errors::{InputError, Rule};
use super::factors::{Factors, Kappa};
use super::network::Network;
use super::practice::{AttentionForm, MemoryFormat, Optimizer, Precision};
use super::strategy::Strategy;

/// How the batch is given.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Batch {
    /// `B`: global samples per iteration.
    MiniBatch(u64),
    /// `b`: samples per GPU, `B = b·p` (may be fractional if `B` is whole).
    SamplesPerGpu(f64),
}

/// Default bytes per item `δ` (32-bit floats).
pub const DEFAULT_BYTES_PER_ITEM: f64 = 4.0;

fn default_bytes_per_item() -> f64 {
    DEFAULT_BYTES_PER_ITEM
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// PyTorch DDP's default gradient bucket (`bucket_cap_mb=25`), in MiB.
pub const DEFAULT_BUCKET_MIB: f64 = 25.0;

fn default_bucket_mib() -> f64 {
    DEFAULT_BUCKET_MIB
}

fn is_default_bucket(value: &f64) -> bool {
    *value == DEFAULT_BUCKET_MIB
}

/// Highest ZeRO stage.
pub const MAX_ZERO_STAGE: u8 = 3;

/// A run as entered: plain data, not yet checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    pub strategy: Strategy,
    /// `p`: GPUs.
    pub gpus: u64,
    /// Mini-batch or samples per GPU.
    pub batch: Batch,
    /// `δ`: bytes per item.
    #[serde(default = "default_bytes_per_item")]
    pub bytes_per_item: f64,
    /// `S`: pipeline segments (micro-batches); default `p`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segments: Option<u64>,
    /// `p2`: GPUs per model-parallel group of a hybrid; default `n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_size: Option<u64>,
    /// Which layers a model-parallel strategy divides (one flag per layer);
    /// default: the contract's split set for the strategy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub split: Option<Vec<bool>>,
    /// `WU`: weight-update seconds per iteration (optimizer cost); default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub update_s: f64,
    /// The edition of the model (default: realistic).
    #[serde(default, rename = "fidelity")]
    pub edition: Edition,
    /// Calibration factors (section 8) to apply, made for the same edition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Factors>,
    /// Arithmetic (section 9; default fp32).
    #[serde(default, skip_serializing_if = "is_default")]
    pub precision: Precision,
    /// Optimizer, for its state (section 9; default none).
    #[serde(default, skip_serializing_if = "is_default")]
    pub optimizer: Optimizer,
    /// ZeRO stage over the data-parallel dimension, 0 to 3.
    #[serde(default, skip_serializing_if = "is_default")]
    pub zero: u8,
    /// Activation checkpointing every `⌈√G⌉` layers.
    #[serde(default, skip_serializing_if = "is_default")]
    pub recompute: bool,
    /// The gradient exchange overlaps the backward pass.
    #[serde(default, skip_serializing_if = "is_default")]
    pub overlap: bool,
    /// Gradient bucket of the overlap, MiB (default 25).
    #[serde(default = "default_bucket_mib", skip_serializing_if = "is_default_bucket")]
    pub bucket_mib: f64,
    /// How activations are laid out in memory (section 11; default NCHW).
    #[serde(default, skip_serializing_if = "is_default")]
    pub memory_format: MemoryFormat,
    /// How attention runs (section 15; default fused).
    #[serde(default, skip_serializing_if = "is_default")]
    pub attention: AttentionForm,
    /// How many epochs it takes to train (section 13): a convergence
    /// curve's name or a number of epochs; none: the 90 epochs assumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convergence: Option<Convergence>,
    /// The grid, a GPU-hour's or a kWh's price and the PUE (section 14);
    /// each left out takes its default.
    #[serde(default, skip_serializing_if = "Costs::is_default")]
    pub costs: Costs,
}

impl RunSpec {
    /// The same run with another strategy and GPU count.
    #[must_use]
    pub fn at(&self, strategy: Strategy, gpus: u64) -> Self {
        Self {
            strategy,
            gpus,
            ..self.clone()
        }
    }

    /// A run with every knob at its default.
    pub fn new(strategy: Strategy, gpus: u64, batch: Batch) -> Self {
        Self {
            strategy,
            gpus,
            batch,
            bytes_per_item: DEFAULT_BYTES_PER_ITEM,
            segments: None,
            group_size: None,
            split: None,
            update_s: 0.0,
            edition: Edition::default(),
            calibration: None,
            precision: Precision::default(),
            optimizer: Optimizer::default(),
            zero: 0,
            recompute: false,
            overlap: false,
            bucket_mib: DEFAULT_BUCKET_MIB,
            memory_format: MemoryFormat::default(),
            attention: AttentionForm::default(),
            convergence: None,
            costs: Costs::default(),
        }
    }

    /// The run a sweep or ranking projects for `strategy` at `gpus`: a
    /// ZeRO stage applies only to strategies with a data-parallel
    /// dimension, so the others are projected without it.
    #[must_use]
    pub fn for_strategy(&self, strategy: Strategy, gpus: u64) -> Self {
        let mut run = self.at(strategy, gpus);
        if !strategy.has_data_dimension() {
            run.zero = 0;
        }
        run
    }

    /// The same run in another edition of the model.
    #[must_use]
    pub fn in_edition(self, edition: Edition) -> Self {
        Self { edition, ..self }
    }
}

/// A checked run with every default resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub strategy: Strategy,
    /// `p`.
    pub gpus: u64,
    /// `B`.
    pub mini_batch: u64,
    /// `δ`.
    pub bytes_per_item: f64,
    /// `S` (pipeline only; `p` by default).
    pub segments: u64,
    /// `p2` (hybrids only).
    pub group_size: u64,
    /// Explicit split set, if any.
    pub split: Option<Vec<bool>>,
    /// `WU`.
    pub update_s: f64,
    /// `F`: the framework's measured cost of one iteration beyond the
    /// layers, from the network's profile (section 12; 0 without one).
    pub framework_s: f64,
    /// Whether the network's profile measured a whole training step (whose
    /// `F` holds the optimizer's step).
    pub measured_step: bool,
    /// The edition of the model.
    pub edition: Edition,
    /// Calibration factors, if any.
    pub calibration: Option<Factors>,
    /// Arithmetic.
    pub precision: Precision,
    pub optimizer: Optimizer,
    /// ZeRO stage (0 for strategies without a data-parallel dimension).
    pub zero: u8,
    /// Activation checkpointing.
    pub recompute: bool,
    /// Overlap of the gradient exchange with the backward pass.
    pub overlap: bool,
    /// Gradient bucket of the overlap, bytes.
    pub bucket_bytes: f64,
    /// How activations are laid out in memory.
    pub memory_format: MemoryFormat,
    /// How attention runs (section 15).
    pub attention: AttentionForm,
    /// Epochs to train (none: the 90 assumed).
    pub convergence: Option<Convergence>,
    /// The costs chosen (section 14).
    pub costs: Costs,
}

impl Run {
    /// Checks a run against its network and cluster and resolves defaults.
    ///
    /// # Formula
    /// `B = b·p` for samples per GPU; `S = p` by default; `p2 = n` by
    /// default when `n` divides `p`, otherwise the largest divisor of `p`
    /// not above `n` (so that every GPU count has a default group).
    ///
    /// # Errors
    /// `gpus` outside 1..=2^40 or not 1 for serial; a batch that is not a
    /// whole number of samples of at least 1; `bytes_per_item` outside
    /// (0, 1024]; `segments` below 1; for hybrids a `group_size` that does
    /// not divide `gpus`; a split set whose length is not the layer count;
    /// a negative or non-finite `update_s`; a calibration made for the
    /// other edition (`calibration.edition`); a ZeRO stage above 3, or
    /// above 0 for a strategy without a data-parallel dimension; a bucket
    /// outside 1 KiB to 1e6 MiB; a convergence curve this tool does not
    /// have, or epochs outside (0, 1e6]; the costs' errors
    /// ([`Costs::check`]).
    pub fn new(spec: &RunSpec, network: &Network, cluster: &Cluster) -> Result<Self, InputError> {
        let gpus = checks::count("gpus", spec.gpus, 1, MAX_GPUS)?;
        if spec.strategy == Strategy::Serial && gpus != 1 {
            return Err(InputError::new("gpus", Rule::SerialNeedsOneGpu { gpus }));
        }
        let mini_batch = resolve_batch(spec.batch, gpus)?;
        let bytes_per_item = checks::positive("bytes_per_item", spec.bytes_per_item)?;
        checks::within("bytes_per_item", bytes_per_item, 0.0, 1024.0)?;
        let segments = match spec.segments {
            Some(s) if spec.strategy == Strategy::Pipeline => checks::count("segments", s, 1, MAX_COUNT)?,
            _ => gpus,
        };
        let group_size = if spec.strategy.is_hybrid() {
            resolve_group(spec.group_size, gpus, cluster.gpus_per_node())?
        } else {
            1
        };
        let layers = network.layers().len();
        let split = match &spec.split {
            Some(flags) if spec.strategy.uses_split() => {
                if flags.len() != layers {
                    return Err(InputError::new(
                        "split",
                        Rule::SplitLength {
                            expected: layers,
                            found: flags.len(),
                        },
                    ));
                }
                Some(flags.clone())
            }
            _ => None,
        };
        let update_s = checks::within("update_s", spec.update_s, 0.0, 1e6)?;
        if let Some(factors) = &spec.calibration
            && factors.edition() != spec.edition
        {
            return Err(InputError::new(
                "calibration.fidelity",
                Rule::EditionMismatch {
                    made_for: factors.edition().name().into(),
                    found: spec.edition.name().into(),
                },
            ));
        }
        let zero = checks::count("zero", u64::from(spec.zero), 0, u64::from(MAX_ZERO_STAGE))? as u8;
        if zero > 0 && !spec.strategy.has_data_dimension() {
            return Err(InputError::new(
                "zero",
                Rule::NoDataDimension {
                    strategy: spec.strategy.name().into(),
                },
            ));
        }
        let bucket_mib = checks::within("bucket_mib", spec.bucket_mib, 1.0 / 1024.0, 1e6)?;
        if let Some(convergence) = &spec.convergence {
            convergence.check()?;
        }
        spec.costs.check()?;
        Ok(Self {
            strategy: spec.strategy,
            gpus,
            mini_batch,
            bytes_per_item,
            segments,
            group_size,
            split,
            update_s,
            framework_s: network.framework_s(),
            measured_step: network.step().is_some(),
            edition: spec.edition,
            calibration: spec.calibration,
            precision: spec.precision,
            optimizer: spec.optimizer,
            zero,
            recompute: spec.recompute,
            overlap: spec.overlap,
            bucket_bytes: bucket_mib * 1024.0 * 1024.0,
            memory_format: spec.memory_format,
            attention: spec.attention,
            convergence: spec.convergence.clone(),
            costs: spec.costs.clone(),
        })
    }

    /// The plain form of this run (its defaults resolved: the mini-batch
    /// given whole, the segments and group where the strategy has them).
    pub fn spec(&self) -> RunSpec {
        RunSpec {
            strategy: self.strategy,
            gpus: self.gpus,
            batch: Batch::MiniBatch(self.mini_batch),
            bytes_per_item: self.bytes_per_item,
            segments: (self.strategy == Strategy::Pipeline).then_some(self.segments),
            group_size: self.strategy.is_hybrid().then_some(self.group_size),
            split: self.split.clone(),
            update_s: self.update_s,
            edition: self.edition,
            calibration: self.calibration,
            precision: self.precision,
            optimizer: self.optimizer,
            zero: self.zero,
            recompute: self.recompute,
            overlap: self.overlap,
            bucket_mib: self.bucket_bytes / (1024.0 * 1024.0),
            memory_format: self.memory_format,
            attention: self.attention,
            convergence: self.convergence.clone(),
            costs: self.costs.clone(),
        }
    }

    /// `h`: bytes of an item in the run's precision (`δ`, halved for FP16
    /// and BF16).
    pub fn item_bytes(&self) -> f64 {
        self.bytes_per_item * self.precision.item_share()
    }

    /// `d`: the data-parallel degree (`p` for data parallelism and serial,
    /// `p1` for the hybrids, 1 otherwise).
    pub fn data_parallel_degree(&self) -> u64 {
        match self.strategy {
            Strategy::Serial | Strategy::Data => self.gpus,
            Strategy::DataFilter | Strategy::DataSpatial => self.groups(),
            _ => 1,
        }
    }

    /// The calibration factors of its strategy (1 without a calibration).
    pub fn kappa(&self) -> Kappa {
        self.calibration.map_or(Kappa::ONE, |f| f.of(self.strategy))
    }

    /// `p1 = p / p2`: data-parallel groups of a hybrid (1 otherwise).
    pub fn groups(&self) -> u64 {
        self.gpus / self.group_size
    }

    /// `b = B / p`.
    pub fn samples_per_gpu(&self) -> f64 {
        self.mini_batch as f64 / self.gpus as f64
    }
}

fn resolve_batch(batch: Batch, gpus: u64) -> Result<u64, InputError> {
    match batch {
        Batch::MiniBatch(b) => checks::count("batch.mini_batch", b, 1, MAX_COUNT),
        Batch::SamplesPerGpu(b) => {
            let field = "batch.samples_per_gpu";
            let b = checks::positive(field, b)?;
            let total = b * gpus as f64;
            let whole = total.round();
            if (total - whole).abs() > 1e-9 * whole.max(1.0) {
                return Err(InputError::new(field, Rule::NotWhole { found: total }));
            }
            if whole < 1.0 {
                return Err(InputError::new(field, Rule::TooSmall { min: 1.0, found: total }));
            }
            if whole > MAX_COUNT as f64 {
                // the value read, not a count saturated on the way
                return Err(InputError::new(
                    field,
                    Rule::TooLarge {
                        max: (MAX_COUNT / gpus.max(1)) as f64,
                        found: b,
                    },
                ));
            }
            Ok(whole as u64)
        }
    }
}

fn resolve_group(group: Option<u64>, gpus: u64, per_node: u64) -> Result<u64, InputError> {
    match group {
        Some(g) => {
            let g = checks::count("group_size", g, 1, gpus)?;
            if !gpus.is_multiple_of(g) {
                return Err(InputError::new("group_size", Rule::NotDivisor { gpus, group: g }));
            }
            Ok(g)
        }
        None => Ok(largest_divisor_at_most(gpus, per_node)),
    }
}

/// The largest divisor of `value` not above `limit`, in at most
/// `min(limit, √value)` steps: counting down from `limit` when it is small
/// (GPUs per node), else trial division up to `√value`.
fn largest_divisor_at_most(value: u64, limit: u64) -> u64 {
    if value <= limit {
        return value;
    }
    if limit.saturating_mul(limit) <= value {
        return (1..=limit).rev().find(|d| value.is_multiple_of(*d)).unwrap_or(1);
    }
    let mut best = 1;
    let mut d = 1;
    while d * d <= value {
        if value.is_multiple_of(d) {
            for candidate in [d, value / d] {
                if candidate <= limit && candidate > best {
                    best = candidate;
                }
            }
        }
        d += 1;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    fn setup() -> (Network, Cluster) {
        (presets::network("alexnet").unwrap(), presets::cluster("abci").unwrap())
    }

    #[test]
    fn samples_per_gpu_resolve_to_whole_batches() {
        let (n, c) = setup();
        let run = Run::new(
            &RunSpec::new(Strategy::DataSpatial, 16, Batch::SamplesPerGpu(0.25)),
            &n,
            &c,
        )
        .unwrap();
        assert_eq!(run.mini_batch, 4);
        assert_eq!(run.group_size, 4);
        assert_eq!(run.groups(), 4);
        let err = Run::new(&RunSpec::new(Strategy::Data, 3, Batch::SamplesPerGpu(0.25)), &n, &c).unwrap_err();
        assert_eq!(err.field, "batch.samples_per_gpu");
        assert!(matches!(err.rule, Rule::NotWhole { .. }));
        let err = Run::new(&RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(1e-12)), &n, &c).unwrap_err();
        assert!(matches!(err.rule, Rule::TooSmall { .. }));
        let err = Run::new(&RunSpec::new(Strategy::Data, 2, Batch::MiniBatch(0)), &n, &c).unwrap_err();
        assert_eq!(err.field, "batch.mini_batch");
    }

    #[test]
    fn group_defaults_and_divisibility() {
        let (n, c) = setup();
        let mut spec = RunSpec::new(Strategy::DataFilter, 12, Batch::SamplesPerGpu(1.0));
        assert_eq!(Run::new(&spec, &n, &c).unwrap().group_size, 4);
        spec.gpus = 2;
        assert_eq!(Run::new(&spec, &n, &c).unwrap().group_size, 2);
        spec.gpus = 6;
        assert_eq!(Run::new(&spec, &n, &c).unwrap().group_size, 3);
        spec.gpus = 12;
        spec.group_size = Some(8);
        let err = Run::new(&spec, &n, &c).unwrap_err();
        assert_eq!(err.field, "group_size");
        assert_eq!(err.rule, Rule::NotDivisor { gpus: 12, group: 8 });
    }

    #[test]
    fn largest_divisors() {
        assert_eq!(largest_divisor_at_most(12, 8), 6);
        assert_eq!(largest_divisor_at_most(12, 4), 4);
        assert_eq!(largest_divisor_at_most(13, 8), 1);
        assert_eq!(largest_divisor_at_most(3, 8), 3);
        assert_eq!(largest_divisor_at_most(1_000_000_000_000, 6), 5);
        for value in 1..300u64 {
            for limit in 1..40u64 {
                let naive = (1..=limit.min(value)).rev().find(|d| value % d == 0).unwrap();
                assert_eq!(largest_divisor_at_most(value, limit), naive, "{value} {limit}");
            }
        }
        // 2^40 − 1 = 3·5²·11·17·31·41·61681; checked by brute force
        assert_eq!(largest_divisor_at_most((1 << 40) - 1, 1 << 30), 1_072_694_271);
    }

    #[test]
    fn other_rules_name_their_field() {
        let (n, c) = setup();
        let err = Run::new(&RunSpec::new(Strategy::Serial, 2, Batch::MiniBatch(8)), &n, &c).unwrap_err();
        assert_eq!(err.rule, Rule::SerialNeedsOneGpu { gpus: 2 });
        let mut spec = RunSpec::new(Strategy::Data, 0, Batch::MiniBatch(8));
        assert_eq!(Run::new(&spec, &n, &c).unwrap_err().field, "gpus");
        spec.gpus = 2;
        spec.bytes_per_item = 0.0;
        assert_eq!(Run::new(&spec, &n, &c).unwrap_err().field, "bytes_per_item");
        spec.bytes_per_item = 4.0;
        spec.strategy = Strategy::Pipeline;
        spec.segments = Some(0);
        assert_eq!(Run::new(&spec, &n, &c).unwrap_err().field, "segments");
        spec.segments = None;
        spec.strategy = Strategy::Filter;
        spec.split = Some(vec![true; 3]);
        assert!(matches!(
            Run::new(&spec, &n, &c).unwrap_err().rule,
            Rule::SplitLength { expected: 20, found: 3 }
        ));
        spec.split = None;
        spec.update_s = f64::NAN;
        assert_eq!(Run::new(&spec, &n, &c).unwrap_err().field, "update_s");
    }

    #[test]
    fn json_round_trip_and_defaults() {
        let spec = RunSpec {
            segments: Some(8),
            group_size: Some(4),
            split: Some(vec![true, false]),
            update_s: 0.5,
            ..RunSpec::new(Strategy::DataFilter, 64, Batch::SamplesPerGpu(0.25))
        };
        let json = serde_json::to_string(&spec).unwrap();
        assert_eq!(serde_json::from_str::<RunSpec>(&json).unwrap(), spec);
        let minimal: RunSpec =
            serde_json::from_str(r#"{"strategy":"data","gpus":2,"batch":{"mini_batch":8}}"#).unwrap();
        assert_eq!(minimal, RunSpec::new(Strategy::Data, 2, Batch::MiniBatch(8)));
    }
}
