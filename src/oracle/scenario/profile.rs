//! A measured profile against the model (section 12): the step and the
//! memory the profile measured, beside what the model projects for the
//! same batch and precision on one GPU of the cluster.

use serde::Serialize;

use super::Scenario;
use crate::oracle::cost::memory::Part;
use crate::oracle::cost::strategies::iteration_cost;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::practice::{Optimizer, Precision};
use crate::oracle::model::run::{Batch, Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::units;

/// A profile's measurements beside the model's projection of the same
/// step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileCheck {
    /// The network's name.
    pub name: String,
    /// The device it was measured on.
    pub device: String,
    /// Samples per measured step.
    pub batch: u64,
    /// Its arithmetic.
    pub precision: Precision,
    /// The measured step, seconds.
    pub measured_step_s: f64,
    /// The model's step on one GPU of the cluster at that batch and
    /// precision, seconds (forward, backward and `F`).
    pub projected_step_s: f64,
    /// `F`: the measured step beyond the layers, seconds.
    pub framework_s: f64,
    /// Whether the projection is on the GPU the profile was measured on
    /// (or on one taken as it): then it reproduces the measured step.
    pub same_gpu: bool,
    /// Peak memory allocated in the measured step, bytes (GPUs).
    pub measured_peak_bytes: Option<f64>,
    /// The model's memory of that step, without the reserved part (the
    /// CUDA context, which PyTorch's count leaves out), bytes.
    pub projected_memory_bytes: f64,
    /// Bytes autograd saved in the measured step.
    pub measured_saved_bytes: Option<f64>,
    /// Bytes the model says autograd saves at that batch (0 without the
    /// framework's memory facts).
    pub projected_saved_bytes: f64,
}

impl Scenario {
    /// The network's measured step beside the model's projection of it, in
    /// `edition`; `None` for a network without a measured step.
    ///
    /// # Formula
    /// The run is serial, one GPU, the profile's batch `B` and precision,
    /// with SGD and momentum (as the profiler steps): projected step
    /// `c + F` (`c` its forward and backward compute, uncalibrated);
    /// memory `Σ parts − reserved`; saved bytes `B·Σ saved_l`.
    pub fn profile_check(&self, edition: Edition) -> Option<ProfileCheck> {
        let step = self.network().step()?;
        let spec = RunSpec {
            precision: step.precision,
            optimizer: Optimizer::Momentum,
            ..RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(step.batch)).in_edition(edition)
        };
        let run = Run::new(&spec, self.network(), self.cluster()).ok()?;
        let table = self.table_of(&run);
        let cost = iteration_cost(&table, self.cluster(), &run);
        let saved_per_sample: f64 = table.layers().iter().map(|l| l.saved.bytes()).sum();
        Some(ProfileCheck {
            name: self.network().name().to_string(),
            device: step.device.clone(),
            batch: step.batch,
            precision: step.precision,
            measured_step_s: step.iteration_s,
            projected_step_s: cost.compute_s + cost.outside_layers_s(&run),
            framework_s: step.framework_s,
            same_gpu: table.profile_scaling().is_none(),
            measured_peak_bytes: step.peak_memory_bytes,
            projected_memory_bytes: cost.memory.total() - cost.memory.get(Part::Reserved),
            measured_saved_bytes: step.saved_bytes,
            projected_saved_bytes: saved_per_sample * step.batch as f64,
        })
    }
}

impl ProfileCheck {
    /// Where the compute comes from, in words: `compute from your profile
    /// of NAME on DEVICE at batch B (PRECISION)`.
    pub fn source(&self) -> String {
        format!(
            "compute from your profile of {} on {} at batch {} ({})",
            self.name,
            self.device,
            self.batch,
            self.precision.label()
        )
    }

    /// The measured step beside the projected one, in words.
    pub fn step_sentence(&self) -> String {
        let there = if self.same_gpu {
            "on one GPU of this cluster (the profile's own device)"
        } else {
            "on one GPU of this cluster (scaled from the profile's device)"
        };
        format!(
            "step at batch {}: measured {}, projected {} {there}, of which {} is the framework's cost beyond the layers",
            self.batch,
            units::seconds(self.measured_step_s),
            units::seconds(self.projected_step_s),
            units::seconds(self.framework_s)
        )
    }

    /// The measured memory beside the model's, in words.
    pub fn memory_sentence(&self) -> String {
        let model = units::bytes(self.projected_memory_bytes);
        let peak = match self.measured_peak_bytes {
            Some(peak) => format!("a measured peak of {} against the model's {model}", units::bytes(peak)),
            None => format!("the model's {model} (a peak is measured on GPUs only)"),
        };
        let saved = match self.measured_saved_bytes {
            Some(saved) => format!(
                "autograd saved {} against the model's {}",
                units::bytes(saved),
                units::bytes(self.projected_saved_bytes)
            ),
            None => format!("the model's saved tensors {}", units::bytes(self.projected_saved_bytes)),
        };
        format!("memory of that step (the reserved part left out): {peak}; {saved}")
    }
}
