//! From per-iteration costs to a per-epoch projection.

use super::bottleneck::{Evidence, findings};
use super::error::InputError;
use super::projection::{Projection, Violation};
use super::run::{Run, RunSpec};
use super::scenario::Scenario;
use super::strategies::{ScalingBound, iteration_cost};

impl Scenario {
    /// Projects one run: per-epoch compute and communication, per-GPU
    /// memory, violated limits and bottlenecks.
    ///
    /// # Formula
    /// With `I = ceil(D/B)` iterations: compute `(D/B)·c + I·WU` where `c`
    /// is the strategy's per-iteration forward and backward time;
    /// communication `I ×` the per-iteration value; total their sum;
    /// GPU-hours `total·p/3600`. Feasible when memory `≤ M`, `p ≤ P_max`
    /// and the strategy's limits hold.
    ///
    /// # Errors
    /// An [`InputError`] from [`Run::new`] when the run is invalid.
    pub fn project(&self, spec: &RunSpec) -> Result<Projection, InputError> {
        let run = Run::new(spec, self.network(), self.cluster())?;
        Ok(self.project_run(&run))
    }

    /// Projects a run already checked against this scenario's network and
    /// cluster (see [`Scenario::project`] for the formula).
    pub fn project_run(&self, run: &Run) -> Projection {
        let cost = iteration_cost(self, run);
        let samples = self.network().dataset_samples();
        let iterations = samples.div_ceil(run.mini_batch);
        let epochs_of_batches = samples as f64 / run.mini_batch as f64;
        let compute_s = epochs_of_batches * cost.compute_s + iterations as f64 * run.update_s;
        let communication = cost.communication.scaled(iterations as f64);
        let communication_s = communication.total_s();
        let total_s = compute_s + communication_s;
        let capacity = self.cluster().gpu_memory_bytes();
        let max_gpus = self.cluster().max_gpus();

        let mut violations = cost.violations;
        if cost.memory_bytes > capacity {
            violations.push(Violation::Memory);
        }
        if run.gpus > max_gpus {
            violations.push(Violation::Gpus);
        }
        violations.sort();
        violations.dedup();

        let mut bounds = cost.bounds;
        bounds.push(ScalingBound {
            limit: Violation::Gpus,
            counted: "GPUs",
            value: run.gpus,
            bounded_by: "the cluster's largest allocation",
            bound: max_gpus,
        });
        let bottlenecks = findings(&Evidence {
            compute_s,
            communication: &communication,
            memory_bytes: cost.memory_bytes,
            capacity_bytes: capacity,
            bounds: &bounds,
            redundancy: cost.redundancy,
            stages: cost.stages,
        });
        Projection {
            strategy: run.strategy,
            gpus: run.gpus,
            mini_batch: run.mini_batch,
            samples_per_gpu: run.samples_per_gpu(),
            iterations,
            group_size: run.strategy.is_hybrid().then_some(run.group_size),
            segments: (run.strategy == super::strategy::Strategy::Pipeline).then_some(run.segments),
            compute_s,
            communication_s,
            total_s,
            gpu_hours: total_s * run.gpus as f64 / 3600.0,
            memory_bytes: cost.memory_bytes,
            memory_capacity_bytes: capacity,
            feasible: violations.is_empty(),
            violations,
            communication,
            bottlenecks,
        }
    }
}
