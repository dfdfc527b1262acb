//! The oracle: ParaDL's analytical model of distributed CNN training, in
//! pure Rust (no web dependency; it runs natively and in WebAssembly).
//!
//! Given a [`Network`] (layer shapes), a [`Cluster`] and a [`RunSpec`]
//! (strategy, GPUs, batch), it projects per-epoch compute and
//! communication time and per-GPU memory for serial, data, spatial,
//! pipeline, filter, channel, data+filter and data+spatial parallelism,
//! reports every violated limit and explains the bottlenecks. The contract
//! it follows is the project's `ORACLE-MODEL.md`.
//!
//! # Walk-through: from a preset to a ranked table
//!
//! Pick a network and a cluster (or read them with [`formats`]) and place
//! one on the other:
//!
//! ```
//! use paradl::oracle::presets;
//!
//! let scenario = presets::scenario("resnet50", "abci")?;
//! assert_eq!(scenario.network().layers().len(), 166);
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! Project one run: data parallelism on 8 GPUs with 64 samples per GPU,
//! in the ideal edition (ParaDL's published model). The numbers are the
//! contract's section 6 table.
//!
//! ```
//! # use paradl::oracle::{presets, Batch, Edition, RunSpec, Strategy};
//! # let scenario = presets::scenario("resnet50", "abci")?;
//! let run = RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(64.0)).in_edition(Edition::Ideal);
//! let p = scenario.project(&run)?;
//! assert_eq!(p.iterations, 2500);
//! assert!((p.compute_s - 499.12032).abs() < 1e-6);
//! assert!((p.communication_s - 33.2384724).abs() < 1e-6);
//! assert_eq!(p.memory_bytes, 15_434_845_696.0);
//! assert!(p.feasible);
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! The realistic edition, the default, adds what real clusters cost, each
//! term driven by a fact of the cluster (section 7), and says which terms
//! applied: on ABCI two GPUs share each path to a NIC, which halves the
//! bandwidth between nodes, so the flat NCCL ring its measured runs used
//! (ChainerMN) is slower than the ideal edition's; each layer's kernels
//! run at the 64 samples a GPU holds (section 11).
//!
//! ```
//! # use paradl::oracle::{presets, Batch, Edition, RunSpec, Strategy, Term};
//! # let scenario = presets::scenario("resnet50", "abci")?;
//! let run = RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(64.0));
//! let p = scenario.project(&run)?;
//! assert_eq!(p.edition, Edition::Realistic);
//! assert!(p.terms.iter().any(|t| t.term == Term::NicSharing));
//! assert!(p.terms.iter().any(|t| t.term == Term::Kernels));
//! assert!(p.communication_s > 33.2384724);
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! Invalid input is a typed error naming the field and the rule:
//!
//! ```
//! # use paradl::oracle::{presets, Batch, RunSpec, Strategy};
//! # let scenario = presets::scenario("resnet50", "abci")?;
//! let bad = RunSpec { group_size: Some(3), ..RunSpec::new(Strategy::DataFilter, 16, Batch::MiniBatch(64)) };
//! let err = scenario.project(&bad).unwrap_err();
//! assert_eq!(err.to_string(), "group_size: must divide the GPU count 16, found 3");
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! Rank every strategy at a GPU budget: feasible ones first, fastest first,
//! then the infeasible ones with the limits they break, and print a table:
//!
//! ```
//! # use paradl::oracle::{presets, units, Batch, RankBy, RunSpec, Strategy, Violations};
//! # let scenario = presets::scenario("resnet50", "abci")?;
//! let ranking = scenario.rank(&RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)), RankBy::Time);
//! for p in &ranking.points {
//!     let limits: Vec<&str> = p.violations.iter().map(|v| v.name()).collect();
//!     println!("{:<14} {:>10} {:>10} {}", p.strategy, units::seconds(p.total_s), units::bytes(p.memory_bytes), limits.join(","));
//! }
//! assert_eq!(ranking.points[0].strategy, Strategy::Data);
//! assert!(ranking.points[0].feasible);
//! if let Some(last) = ranking.points.last() {
//!     assert!(!last.feasible && !last.violations.is_empty());
//! }
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! Each projection explains itself with findings (bottlenecks and limits):
//!
//! ```
//! # use paradl::oracle::{presets, Batch, RunSpec, Strategy};
//! # let scenario = presets::scenario("vgg16", "abci")?;
//! let p = scenario.project(&RunSpec::new(Strategy::Filter, 16, Batch::SamplesPerGpu(8.0)))?;
//! for finding in &p.bottlenecks {
//!     println!("{:?}: {}", finding.severity, finding.message);
//! }
//! assert!(!p.bottlenecks.is_empty());
//! # Ok::<(), paradl::oracle::OracleError>(())
//! ```
//!
//! Sweeps give scaling curves, and [`Scenario::capacity`] the largest batch
//! that fits in memory.

pub mod cost;
pub mod formats;
pub mod model;
pub mod presets;
pub mod report;
pub mod scenario;
pub mod units;
pub mod validation;

pub use cost::communication::{CommKind, Communication};
pub use cost::derivation::{Derivation, Derivations, Symbol, Unit};
pub use cost::memory::{MemoryParts, Part};
pub use cost::table::{CostTable, LayerCost};
pub use cost::terms::{Applied, AppliedTerm, Term, Terms};
pub use cost::times::{ProfileScaling, TimeBasis};
pub use model::checks::{MAX_COUNT, MAX_GPUS};
pub use model::cluster::{Cluster, ClusterSpec, Fallback, LinkSpec, SwitchLevelSpec};
pub use model::edit;
pub use model::edition::Edition;
pub use model::errors::{GraphError, InputError, NodeRef, OracleError, ParseError, ParseProblem, ProfileError, Rule};
pub use model::factors::{Factors, FactorsSpec, Kappa, StrategyKappa};
pub use model::facts::{
    AllreduceAlgorithm, FrameworkMemory, GemmRates, HaloTransport, KernelFacts, PrecisionRates, RealisticFacts,
};
pub use model::field::{Field, Segment};
pub use model::inventory::{Inventory, LayerFacts, weight_sharing};
pub use model::layer::{Function, Layer, LayerKind, LayerSpec, Source};
pub use model::measured::{Located, MeasuredColumn, MeasuredRun};
pub use model::network::{DatasetSpec, Network, NetworkSpec, Profile, ProfiledGpu, ProfiledStep};
pub use model::practice::{AttentionForm, MemoryFormat, Optimizer, Precision};
pub use model::run::{Batch, DEFAULT_BUCKET_MIB, MAX_ZERO_STAGE, Run, RunSpec};
pub use model::shape::Shape;
pub use model::strategy::Strategy;
pub use model::violation::{Violation, Violations};
pub use report::bottleneck::{Finding, FindingDetail, FitOption, Severity};
pub use report::explanation::{Explanation, Step};
pub use report::placement::{Collective, Placement, Share, Stage};
pub use report::projection::{Calibrated, Projection};
pub use report::quantity::Quantity;
pub use report::sentence::{Figure, Piece, Sentence};
pub use scenario::{
    BestBy, CalibratedRun, Calibration, Capacity, Config, IterationTimes, Objective, Plan, ProfileCheck, RankBy,
    Ranking, Scenario, Skipped, StrategyFactors, Sweep, accuracy, gpu_counts, pareto_front, plan_gpu_counts,
};
