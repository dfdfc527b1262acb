//! From per-iteration costs to a per-epoch projection.

use super::Scenario;
use crate::oracle::cost::applied;
use crate::oracle::cost::strategies::{IterationCost, ScalingBound, iteration_cost};
use crate::oracle::cost::table::CostTable;
use crate::oracle::model::errors::InputError;
use crate::oracle::model::run::{Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;
use crate::oracle::report::bottleneck::{Evidence, Step, at_scale, findings, past_converged};
use crate::oracle::report::energy::{Energy, PowerFacts};
use crate::oracle::report::projection::{Calibrated, Projection, Training};
use crate::oracle::report::track_record;

impl Scenario {
    /// Projects one run: per-epoch compute and communication, per-GPU
    /// memory, violated limits and bottlenecks.
    ///
    /// # Formula
    /// With `I = ceil(D/B)` iterations: compute `κ_comp·((D/B)·c + I·(WU + F))`
    /// where `c` is the strategy's per-iteration forward and backward time
    /// and `F` a profile's measured framework cost (section 12);
    /// communication `κ_comm·I ×` the per-iteration value; total their
    /// sum; GPU-hours `total·p/3600`. `κ` are the run's calibration factors
    /// for its strategy (section 8; 1 without a calibration). Feasible when
    /// memory `≤ M` (and finite), `p ≤ P_max`, `B ≤ D` and the strategy's
    /// limits hold.
    ///
    /// # Errors
    /// An [`InputError`] from [`Run::new`] when the run is invalid.
    pub fn project(&self, spec: &RunSpec) -> Result<Projection, InputError> {
        let run = Run::new(spec, self.network(), self.cluster())?;
        Ok(self.advise(self.project_run(&run), &run))
    }

    /// Projects a run as [`Scenario::project`] does, without the advice on
    /// what would make it fit (sweeps and rankings ask for many).
    ///
    /// # Errors
    /// As [`Scenario::project`].
    pub fn project_point(&self, spec: &RunSpec) -> Result<Projection, InputError> {
        let run = Run::new(spec, self.network(), self.cluster())?;
        Ok(self.project_run(&run))
    }

    /// Projects a run already checked against this scenario's network and
    /// cluster (see [`Scenario::project`] for the formula), without the
    /// advice on what would make it fit (see [`Scenario::advise`]; sweeps
    /// leave it out).
    pub fn project_run(&self, run: &Run) -> Projection {
        let table = self.table_of(run);
        let cost = iteration_cost(&table, self.cluster(), run);
        self.project_cost(run, &table, cost)
    }

    /// The bounds a run's counts are held to: its strategy's (`strategy`),
    /// then the cluster's largest allocation and the dataset's size.
    pub(super) fn bounds(&self, run: &Run, strategy: Vec<ScalingBound>) -> Vec<ScalingBound> {
        let mut bounds = strategy;
        bounds.push(ScalingBound {
            limit: Violation::Gpus,
            counted: "GPUs",
            value: run.gpus,
            bounded_by: "the cluster's largest allocation",
            bound: self.cluster().max_gpus(),
            layer: None,
        });
        bounds.push(ScalingBound {
            limit: Violation::Dataset,
            counted: "samples per iteration",
            value: run.mini_batch,
            bounded_by: "the dataset's size",
            bound: self.network().dataset_samples(),
            layer: None,
        });
        bounds
    }

    /// The projection of `run` from its uncalibrated iteration `cost` on
    /// the layer costs `table` (see [`Scenario::project`] for the formula).
    pub(super) fn project_cost(&self, run: &Run, table: &CostTable, cost: IterationCost) -> Projection {
        let kappa = run.kappa();
        let samples = self.network().dataset_samples();
        let iterations = samples.div_ceil(run.mini_batch);
        let epochs_of_batches = samples as f64 / run.mini_batch as f64;
        let compute_s =
            kappa.compute * (epochs_of_batches * cost.compute_s + iterations as f64 * cost.outside_layers_s(run));
        let communication = cost.communication.scaled(kappa.communication * iterations as f64);
        let memory_bytes = cost.memory_bytes();
        let communication_s = communication.total_s();
        let total_s = compute_s + communication_s;
        let capacity = self.cluster().gpu_memory_bytes();
        let max_gpus = self.cluster().max_gpus();

        let mut violations = cost.violations;
        // a value that is not finite breaks every bound it is held to
        if memory_bytes.is_nan() || memory_bytes > capacity {
            violations.push(Violation::Memory);
        }
        if run.gpus > max_gpus {
            violations.push(Violation::Gpus);
        }
        if run.mini_batch > samples {
            violations.push(Violation::Dataset);
        }
        violations.sort();
        violations.dedup();

        let bounds = self.bounds(run, cost.bounds);
        let mut bottlenecks = findings(&Evidence {
            compute_s,
            communication: &communication,
            memory: &cost.memory,
            capacity_bytes: capacity,
            bounds: &bounds,
            redundancy: cost.redundancy,
            stages: cost.stages,
            overlapped: run.overlap,
            layers: self.network().layers(),
        });
        let terms = applied::applied(table, self.cluster(), run);
        let launch_s = terms
            .iter()
            .find_map(|t| match t.applied {
                crate::oracle::cost::terms::Applied::Kernels {
                    kernels,
                    kernel_overhead_s,
                    ..
                } => Some(kernels as f64 * kernel_overhead_s),
                _ => None,
            })
            .unwrap_or(0.0);
        let hidden_communication_s = kappa.communication * iterations as f64 * cost.hidden_s;
        let steps = iterations.max(1) as f64;
        bottlenecks.extend(at_scale(Step {
            gpus: run.gpus,
            compute_s: compute_s / steps,
            launch_s,
            exposed_s: communication_s / steps,
            hidden_s: hidden_communication_s / steps,
        }));
        let band = (run.edition == crate::oracle::model::edition::Edition::Realistic).then(|| {
            track_record::band(track_record::Like {
                architecture: self.cluster().device().map(|g| g.architecture),
                precision: run.precision,
                gpus: run.gpus,
                gpus_per_node: self.cluster().gpus_per_node(),
            })
        });
        let training = Training::of(
            run.convergence.as_ref(),
            run.mini_batch,
            total_s,
            run.gpus,
            band.as_ref().map(|b| (b.low, b.high)),
        );
        bottlenecks.extend(past_converged(&training));
        // a pipeline's GPU computes its stage's share of the schedule, the
        // rest of its compute time it waits in the bubbles
        let computing_s = match cost.stages {
            Some(stages) if run.strategy == Strategy::Pipeline => compute_s * stages.busy_share(run.gpus, run.segments),
            _ => compute_s,
        };
        let energy = PowerFacts::of(self.cluster(), &run.costs)
            .map(|facts| Energy::of(facts, run.gpus, total_s, computing_s, training.epochs.epochs));
        Projection {
            strategy: run.strategy,
            edition: run.edition,
            gpus: run.gpus,
            mini_batch: run.mini_batch,
            samples_per_gpu: run.samples_per_gpu(),
            iterations,
            group_size: run.strategy.is_hybrid().then_some(run.group_size),
            segments: (run.strategy == Strategy::Pipeline).then_some(run.segments),
            compute_s,
            communication_s,
            total_s,
            gpu_hours: total_s * run.gpus as f64 / 3600.0,
            memory_bytes,
            memory: cost.memory,
            memory_capacity_bytes: capacity,
            feasible: violations.is_empty(),
            violations,
            communication,
            hidden_communication_s,
            precision: run.precision,
            optimizer: run.optimizer,
            zero: run.zero,
            recompute: run.recompute,
            overlap: run.overlap,
            bottlenecks,
            terms,
            band,
            calibration: run.calibration.map(|factors| Calibrated {
                compute: kappa.compute,
                communication: kappa.communication,
                measured: factors.measured(run.strategy),
            }),
            training,
            energy,
        }
    }

    /// The uncalibrated cost of one iteration of a checked run (what
    /// calibration compares measurements with).
    pub fn iteration(&self, run: &Run) -> IterationCost {
        iteration_cost(&self.table_of(run), self.cluster(), run)
    }
}
