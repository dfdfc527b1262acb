//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::oracle::validation::Tier;
use crate::oracle::{AttentionForm, Edition, InputError, MemoryFormat, Objective, Optimizer, Precision, Strategy};

/// An analytical oracle for distributed CNN training (after ParaDL, HPDC 2021).
#[derive(Debug, Parser)]
#[command(name = "paradl", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Project one run: times per epoch, memory per GPU, limits, bottlenecks.
    Project(ProjectArgs),
    /// Where one number of a projection comes from: its formula, the values
    /// in it and the strategy's per-iteration terms.
    Explain(ExplainArgs),
    /// Project strategies over GPU counts 1, 2, 4, ... (scaling curves).
    Sweep(SweepArgs),
    /// Rank every strategy that applies at a GPU count.
    Rank(RankArgs),
    /// The largest batch that fits in a GPU's memory, per strategy.
    Capacity(CapacityArgs),
    /// Search every strategy, GPU count, group size, segment count, ZeRO
    /// stage and recompute setting up to a budget: the Pareto front of
    /// epoch time, GPU-hours and memory per GPU.
    Search(SearchArgs),
    /// Calibrate the model on measured runs (seconds per iteration).
    Calibrate(CalibrateArgs),
    /// How accurate is the model: the shipped runs measured on ABCI against
    /// both editions, uncalibrated and calibrated.
    Validate(ValidateArgs),
    /// List the built-in models and clusters (with --gpus: every GPU this
    /// tool knows, its datasheet and what its kernels rest on).
    Presets(PresetsArgs),
    /// Print a model or cluster in the JSON or ParaDL format.
    Export(ExportArgs),
    /// What a model holds: parameters, activations and FLOPs per sample,
    /// and every layer.
    Inspect(InspectArgs),
}

/// What `presets` lists.
#[derive(Debug, Args)]
pub struct PresetsArgs {
    /// List every GPU a cluster may name (`"gpu"`): its architecture, SMs,
    /// dense peaks, memory and bandwidth, and whether its kernel facts
    /// were measured on it, on its architecture, or borrowed
    #[arg(long)]
    pub gpus: bool,
}

/// The model, the cluster and the settings of every run but its strategy,
/// GPUs and batch.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// A model preset (see `paradl presets`) or a `.net`, `.json` or
    /// `.onnx` file.
    #[arg(long)]
    pub model: String,
    /// The sample's shape of an ONNX model whose input sizes are symbolic
    /// (channels then spatial sizes, e.g. 3x224x224).
    #[arg(long)]
    pub input_shape: Option<String>,
    /// A measured profile of the model (the `profile.json` that
    /// scripts/profile_torch.py writes beside its `model.onnx`): its
    /// per-layer times, measured step and device give the model's compute.
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// A cluster preset or a `.plat` or `.json` file.
    #[arg(long)]
    pub cluster: String,
    /// The edition of the model: ParaDL's published one (ideal) or with
    /// what real clusters add (realistic).
    #[arg(long, alias = "fidelity", value_parser = parse_named::<Edition>, default_value = "realistic")]
    pub edition: Edition,
    /// A ParaDL `.lc` split-set file for model-parallel strategies.
    #[arg(long)]
    pub split: Option<PathBuf>,
    /// Bytes per item `δ`.
    #[arg(long, default_value_t = 4.0)]
    pub bytes_per_item: f64,
    /// Weight-update (optimizer) seconds per iteration.
    #[arg(long, default_value_t = 0.0)]
    pub update_s: f64,
    /// Pipeline segments `S` (default: GPUs).
    #[arg(long)]
    pub segments: Option<u64>,
    /// Arithmetic: fp32, tf32, or fp16 / bf16 mixed precision.
    #[arg(long, value_parser = parse_named::<Precision>, default_value = "fp32")]
    pub precision: Precision,
    /// Optimizer, for its state: none, sgd, momentum, adam.
    #[arg(long, value_parser = parse_named::<Optimizer>, default_value = "none")]
    pub optimizer: Optimizer,
    /// ZeRO stage 0 to 3 over the data-parallel dimension.
    #[arg(long, default_value_t = 0)]
    pub zero: u8,
    /// Activation checkpointing every ⌈√layers⌉ layers (one more forward pass).
    #[arg(long)]
    pub recompute: bool,
    /// Overlap the gradient exchange with the backward pass, bucket by bucket.
    #[arg(long)]
    pub overlap: bool,
    /// Gradient bucket of the overlap, MiB.
    #[arg(long, default_value_t = crate::oracle::DEFAULT_BUCKET_MIB)]
    pub bucket_mib: f64,
    /// How activations are laid out: nchw (PyTorch's default: tensor-core convolutions transpose to NHWC and back) or nhwc (channels last).
    #[arg(long, value_parser = parse_named::<MemoryFormat>, default_value = "nchw")]
    pub memory_format: MemoryFormat,
    /// How attention runs (transformers): fused (PyTorch's scaled_dot_product_attention, one kernel, saves no N×N scores) or eager (two products and a softmax, each kept).
    #[arg(long, value_parser = parse_named::<AttentionForm>, default_value = "fused")]
    pub attention: AttentionForm,
    /// Epochs to train: a convergence curve (mlperf-resnet50, mlperf-unet3d, ...; `paradl presets` lists them) or a number of epochs. Default: a preset's own curve, else 90 epochs assumed.
    #[arg(long)]
    pub convergence: Option<String>,
    /// Samples in one epoch of the training set (default: the network's own dataset).
    #[arg(long)]
    pub dataset_samples: Option<u64>,
    /// The grid the electricity comes from: a region (world, eu27, us, jp, de, fr, us-ca, ...; `paradl presets` lists them) or grams of CO2 per kWh. Default: the cluster's, else the world's average.
    #[arg(long)]
    pub grid: Option<String>,
    /// What a GPU-hour costs: a cloud instance's list price (aws-p5.48xlarge, ...; `paradl presets` lists them), `owned` (the electricity), or dollars per GPU-hour. Default: the cheapest listed instance of the cluster's GPU, else owned.
    #[arg(long)]
    pub price: Option<String>,
    /// An owned cluster's electricity, US dollars per kWh. Default: the US industrial average (EIA, 2023).
    #[arg(long)]
    pub usd_per_kwh: Option<f64>,
    /// The facility's power usage effectiveness (1 to 5). Default: the cluster's, else 1.58 (Uptime Institute, 2023).
    #[arg(long)]
    pub pue: Option<f64>,
}

/// The scenario and batch every projection needs.
#[derive(Debug, Args)]
pub struct Common {
    /// Model, cluster, edition and run settings.
    #[command(flatten)]
    pub model: ModelArgs,
    /// A calibration (the JSON that `paradl calibrate` prints) to apply.
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Samples per GPU `b` (the mini-batch is `b × GPUs`); may be fractional.
    #[arg(
        long,
        conflicts_with = "batch",
        required_unless_present = "batch",
        allow_negative_numbers = true
    )]
    pub samples_per_gpu: Option<f64>,
    /// Global mini-batch `B`.
    #[arg(long, allow_negative_numbers = true)]
    pub batch: Option<u64>,
    /// Hybrid group size `p2` (default: GPUs per node).
    #[arg(long, allow_negative_numbers = true)]
    pub group: Option<u64>,
}

/// `paradl calibrate`.
#[derive(Debug, Args)]
pub struct CalibrateArgs {
    /// Model, cluster, edition and run settings.
    #[command(flatten)]
    pub model: ModelArgs,
    /// A CSV of measured runs with the header
    /// `strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s`.
    #[arg(long)]
    pub measured: PathBuf,
    /// Output format (the JSON is what `--calibration` reads).
    #[arg(long, value_enum, default_value_t = OneFormat::Table)]
    pub format: OneFormat,
}

/// `paradl validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Which runs: all, head (January 2020 code) or historical (2019 code).
    #[arg(long, value_parser = parse_named::<Tier>, default_value = "all")]
    pub tier: Tier,
    /// Today's machines instead: the training runs NVIDIA published for
    /// V100, A100, H100 and H200 systems (DeepLearningExamples, MLPerf
    /// Training), projected uncalibrated by the realistic edition.
    #[arg(long, conflicts_with = "tier")]
    pub published: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

/// Output of `project`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OneFormat {
    /// Human-readable.
    Table,
    /// One JSON object.
    Json,
}

/// Output of `sweep`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// Human-readable.
    Table,
    /// A JSON list.
    Json,
    /// Comma-separated values with a header.
    Csv,
}

impl From<OneFormat> for ListFormat {
    fn from(format: OneFormat) -> Self {
        match format {
            OneFormat::Table => Self::Table,
            OneFormat::Json => Self::Json,
        }
    }
}

/// `paradl project`.
#[derive(Debug, Args)]
pub struct ProjectArgs {
    /// Scenario and batch.
    #[command(flatten)]
    pub common: Common,
    /// serial, data, spatial, pipeline, filter, channel, data+filter,
    /// data+spatial (or d s p f c df ds).
    #[arg(long, value_parser = parse_named::<Strategy>)]
    pub strategy: Strategy,
    /// GPU count `p`.
    #[arg(long, allow_negative_numbers = true)]
    pub gpus: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OneFormat::Table)]
    pub format: OneFormat,
}

/// `paradl explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The run, as `paradl project` takes it.
    #[command(flatten)]
    pub run: ProjectArgs,
    /// The number: total, compute, communication, gpu-hours, memory,
    /// comm-KIND (comm-gradient_allreduce, comm-halo, ...), memory-PART
    /// (memory-weights, memory-activations, ...), bound-LIMIT (a scaling
    /// limit's count: bound-split, bound-batch, ...), fit-N (the memory with
    /// the N-th change the findings offer to make it fit, from 0) or
    /// total-EDITION (the epoch in the ideal or realistic edition).
    #[arg(long, default_value = "total", value_parser = parse_quantity)]
    pub quantity: crate::oracle::Quantity,
}

/// A value named by its machine name (a strategy, a precision...), or the
/// rule the text breaks.
fn parse_named<T: std::str::FromStr<Err = InputError>>(text: &str) -> Result<T, String> {
    text.parse().map_err(|e: InputError| e.rule.to_string())
}

fn parse_quantity(text: &str) -> Result<crate::oracle::Quantity, String> {
    crate::oracle::Quantity::parse(text).ok_or_else(|| {
        format!("unknown quantity {text:?}: total, compute, communication, gpu-hours, memory, comm-KIND, memory-PART, bound-LIMIT, fit-N or total-EDITION")
    })
}

/// `paradl sweep`.
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Scenario and batch.
    #[command(flatten)]
    pub common: Common,
    /// Comma-separated strategies (default: all).
    #[arg(long)]
    pub strategies: Option<String>,
    /// Largest GPU count (default: the cluster's largest allocation).
    #[arg(long, allow_negative_numbers = true)]
    pub max_gpus: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

/// `paradl rank`.
#[derive(Debug, Args)]
pub struct RankArgs {
    /// Scenario and batch.
    #[command(flatten)]
    pub common: Common,
    /// GPU count (the budget).
    #[arg(long, allow_negative_numbers = true)]
    pub gpus: u64,
    /// Rank by GPU-hours, each strategy at its cheapest feasible GPU count
    /// up to the budget, instead of by time at exactly the budget.
    #[arg(long, group = "by")]
    pub by_cost: bool,
    /// Rank by time to train (epochs to converge at each strategy's global
    /// batch × its epoch time) instead of by time per epoch.
    #[arg(long, group = "by")]
    pub by_time_to_train: bool,
    /// Rank by energy to train (facility included), at the budget.
    #[arg(long, group = "by")]
    pub by_energy: bool,
    /// Rank by CO2 to train, at the budget.
    #[arg(long, group = "by")]
    pub by_co2: bool,
    /// Rank by money to train (rented GPU-hours or owned electricity), at the budget.
    #[arg(long, group = "by")]
    pub by_money: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OneFormat::Table)]
    pub format: OneFormat,
}

/// `paradl capacity`.
#[derive(Debug, Args)]
pub struct CapacityArgs {
    /// Model, cluster, edition and run settings (no batch: it is what is found).
    #[command(flatten)]
    pub model: ModelArgs,
    /// A calibration (the JSON that `paradl calibrate` prints) to apply.
    #[arg(long)]
    pub calibration: Option<PathBuf>,
    /// Hybrid group size `p2` (default: GPUs per node).
    #[arg(long, allow_negative_numbers = true)]
    pub group: Option<u64>,
    /// GPU count.
    #[arg(long, allow_negative_numbers = true)]
    pub gpus: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OneFormat::Table)]
    pub format: OneFormat,
}

/// `paradl search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Scenario and batch (`--batch` fixes the global mini-batch: strong
    /// scaling; `--samples-per-gpu` the samples per GPU: weak scaling). The
    /// search varies the group, segments, ZeRO stage and recompute itself.
    #[command(flatten)]
    pub common: Common,
    /// The GPU budget: counts up to it are searched.
    #[arg(long, allow_negative_numbers = true)]
    pub max_gpus: u64,
    /// What "best" means: time, cost (GPU-hours), memory (per GPU), train (time to train), energy or money (to train).
    #[arg(long, value_parser = parse_named::<Objective>, default_value = "time")]
    pub objective: Objective,
    /// Only configurations that take at most this energy to train, kWh.
    #[arg(long)]
    pub max_kwh: Option<f64>,
    /// Only configurations that cost at most this to train, US dollars.
    #[arg(long)]
    pub max_usd: Option<f64>,
    /// Output format (the front; JSON adds the counts and the best).
    #[arg(long, value_enum, default_value_t = ListFormat::Table)]
    pub format: ListFormat,
}

/// What `paradl export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// The JSON form.
    Json,
    /// A ParaDL `.net` file (models).
    Net,
    /// A ParaDL `.plat` file (flat clusters).
    Plat,
}

/// `paradl inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A model preset or a `.net`, `.json` or `.onnx` file.
    #[arg(long)]
    pub model: String,
    /// The sample's shape of an ONNX model whose input sizes are symbolic.
    #[arg(long)]
    pub input_shape: Option<String>,
    /// A measured profile of the model (`profile.json`, section 12).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OneFormat::Table)]
    pub format: OneFormat,
}

/// `paradl export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A model preset or file.
    #[arg(long, conflicts_with = "cluster", required_unless_present = "cluster")]
    pub model: Option<String>,
    /// The sample's shape of an ONNX model whose input sizes are symbolic.
    #[arg(long)]
    pub input_shape: Option<String>,
    /// A measured profile of the model (`profile.json`, section 12).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// A cluster preset or file.
    #[arg(long)]
    pub cluster: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Json)]
    pub format: ExportFormat,
}
