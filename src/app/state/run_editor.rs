//! The run settings as the user types them.

use super::explain_target::ExplainTarget;
use super::fields::{Errors, Key, RunKey};
use super::inputs::Inputs;
use crate::oracle::formats::measured;
use crate::oracle::{Batch, Config, Fidelity, MAX_GPUS, Objective, Optimizer, Precision, Strategy};

/// How the batch is entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchMode {
    /// Samples per GPU (weak scaling).
    PerGpu,
    /// A global mini-batch (strong scaling).
    Global,
}

/// The run editor.
#[derive(Debug, Clone, PartialEq)]
pub struct RunEditor {
    /// GPU budget.
    pub gpus: String,
    /// Which batch input counts.
    pub batch_mode: BatchMode,
    /// Samples per GPU.
    pub per_gpu: String,
    /// Mini-batch.
    pub mini_batch: String,
    /// Strategies to draw.
    pub strategies: Vec<Strategy>,
    /// Bytes per item.
    pub bytes_per_item: String,
    /// Pipeline segments (blank: GPUs).
    pub segments: String,
    /// Hybrid group size (blank: GPUs per node).
    pub group_size: String,
    /// The edition of the model.
    pub fidelity: Fidelity,
    /// Measured runs as typed (CSV).
    pub measured: String,
    /// Draw the other edition's curves too.
    pub compare_editions: bool,
    /// Arithmetic.
    pub precision: Precision,
    /// Optimizer.
    pub optimizer: Optimizer,
    /// ZeRO stage.
    pub zero: u8,
    /// Activation recompute.
    pub recompute: bool,
    /// Overlap of the gradient exchange.
    pub overlap: bool,
    /// Gradient bucket, MiB, as typed.
    pub bucket_mib: String,
    /// The planner is open.
    pub plan_open: bool,
    /// The planner's GPU budget as typed (blank: the cluster's size).
    pub plan_gpus: String,
    /// What the planner calls best.
    pub plan_objective: Objective,
    /// The number the explanation panel explains, if open.
    pub explaining: Option<ExplainTarget>,
    /// The strategy the diagram draws (`None`: the best at the budget).
    pub drawing: Option<Strategy>,
}

impl RunEditor {
    /// An editor showing `inputs`.
    pub fn from_inputs(inputs: &Inputs) -> Self {
        let (batch_mode, per_gpu, mini_batch) = match inputs.batch {
            Batch::SamplesPerGpu(b) => (
                BatchMode::PerGpu,
                b.to_string(),
                ((b * inputs.gpus as f64).round()).to_string(),
            ),
            Batch::MiniBatch(b) => (
                BatchMode::Global,
                (b as f64 / inputs.gpus as f64).to_string(),
                b.to_string(),
            ),
        };
        Self {
            gpus: inputs.gpus.to_string(),
            batch_mode,
            per_gpu,
            mini_batch,
            strategies: inputs.strategies.clone(),
            bytes_per_item: inputs.bytes_per_item.to_string(),
            segments: inputs.segments.map(|s| s.to_string()).unwrap_or_default(),
            group_size: inputs.group_size.map(|s| s.to_string()).unwrap_or_default(),
            fidelity: inputs.fidelity,
            measured: inputs.measured.clone(),
            compare_editions: inputs.compare_editions,
            precision: inputs.precision,
            optimizer: inputs.optimizer,
            zero: inputs.zero,
            recompute: inputs.recompute,
            overlap: inputs.overlap,
            bucket_mib: inputs.bucket_mib.to_string(),
            plan_open: inputs.plan_open,
            plan_gpus: inputs.plan_gpus.map(|p| p.to_string()).unwrap_or_default(),
            plan_objective: inputs.plan_objective,
            explaining: inputs.explaining,
            drawing: inputs.drawing,
        }
    }

    /// Writes the run fields into `inputs`.
    ///
    /// # Errors
    /// Every field that does not parse (the engine checks the rest).
    pub fn apply(&self, inputs: &mut Inputs) -> Result<(), Errors> {
        let mut errors = Errors::new();
        let gpus = whole_in(&mut errors, RunKey::Gpus, &self.gpus);
        let batch = match self.batch_mode {
            BatchMode::PerGpu => number(&mut errors, RunKey::SamplesPerGpu, &self.per_gpu).map(Batch::SamplesPerGpu),
            BatchMode::Global => whole_in(&mut errors, RunKey::MiniBatch, &self.mini_batch).map(Batch::MiniBatch),
        };
        let bytes = sized(&mut errors, RunKey::BytesPerItem, &self.bytes_per_item, "B", 1.0);
        let bucket = sized(&mut errors, RunKey::BucketMib, &self.bucket_mib, "MiB", 1024.0 * 1024.0);
        let segments = optional(&mut errors, RunKey::Segments, &self.segments);
        let group_size = optional(&mut errors, RunKey::GroupSize, &self.group_size);
        let plan_gpus = optional(&mut errors, RunKey::PlanGpus, &self.plan_gpus);
        if let Some(Some(budget)) = plan_gpus
            && !(1..=MAX_GPUS).contains(&budget)
        {
            errors.insert(Key::Run(RunKey::PlanGpus), format!("Must be 1 to {MAX_GPUS} GPUs"));
        }
        if self.strategies.is_empty() {
            errors.insert(Key::Run(RunKey::Strategies), "Pick at least one strategy".into());
        }
        if !self.measured.trim().is_empty()
            && let Err(e) = measured::parse(&self.measured)
        {
            let (key, message) = super::fields::of_measured(&e);
            errors.insert(key, message);
        }
        match (gpus, batch, bytes, segments, group_size, bucket, plan_gpus) {
            (Some(g), Some(b), Some(d), Some(s), Some(p2), Some(bucket), Some(plan_gpus)) if errors.is_empty() => {
                inputs.gpus = g;
                inputs.batch = b;
                inputs.bytes_per_item = d;
                inputs.segments = s;
                inputs.group_size = p2;
                inputs.strategies = self.strategies.clone();
                inputs.fidelity = self.fidelity;
                inputs.measured = self.measured.clone();
                inputs.compare_editions = self.compare_editions;
                inputs.precision = self.precision;
                inputs.optimizer = self.optimizer;
                inputs.zero = self.zero;
                inputs.recompute = self.recompute;
                inputs.overlap = self.overlap;
                inputs.bucket_mib = bucket;
                inputs.plan_open = self.plan_open;
                inputs.plan_gpus = plan_gpus;
                inputs.plan_objective = self.plan_objective;
                inputs.explaining = self.explaining;
                inputs.drawing = self.drawing;
                Ok(())
            }
            _ => Err(errors),
        }
    }

    /// Shows a configuration of the planner: its GPU count, group,
    /// segments, ZeRO stage and recompute become the run's, its batch the
    /// run's batch (as samples per GPU or a mini-batch, as entered), and
    /// its strategy is drawn.
    pub fn load(&mut self, config: &Config) {
        self.gpus = config.gpus.to_string();
        match self.batch_mode {
            BatchMode::PerGpu => self.per_gpu = config.samples_per_gpu.to_string(),
            BatchMode::Global => self.mini_batch = config.mini_batch.to_string(),
        }
        self.group_size = config.group_size.map(|g| g.to_string()).unwrap_or_default();
        self.segments = config.segments.map(|s| s.to_string()).unwrap_or_default();
        self.zero = config.zero;
        self.recompute = config.recompute;
        if !self.strategies.contains(&config.strategy) {
            self.toggle(config.strategy);
        }
    }

    /// Adds or removes a strategy from the plots, keeping the contract's order.
    pub fn toggle(&mut self, strategy: Strategy) {
        if self.strategies.contains(&strategy) {
            self.strategies.retain(|s| *s != strategy);
        } else {
            self.strategies.push(strategy);
            self.strategies.sort();
        }
    }
}

fn number(errors: &mut Errors, key: RunKey, text: &str) -> Option<f64> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            errors.insert(Key::Run(key), "Must be a number".into());
            None
        }
    }
}

/// A byte size typed bare (in `unit`) or with its own unit ("64 MB",
/// "2 B"), in `unit` (of `scale` bytes).
fn sized(errors: &mut Errors, key: RunKey, text: &str, unit: &str, scale: f64) -> Option<f64> {
    match super::quantity::parse(text, unit, scale) {
        Ok(v) if v.is_finite() => Some(v),
        Ok(_) => {
            errors.insert(Key::Run(key), "Must be a number".into());
            None
        }
        Err(e) => {
            errors.insert(Key::Run(key), e);
            None
        }
    }
}

fn whole_in(errors: &mut Errors, key: RunKey, text: &str) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| errors.insert(Key::Run(key), "Must be a whole number".into()))
        .ok()
}

/// Blank means the default (`Some(None)`).
fn optional(errors: &mut Errors, key: RunKey, text: &str) -> Option<Option<u64>> {
    if text.trim().is_empty() {
        return Some(None);
    }
    whole_in(errors, key, text).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_take_their_units() {
        let mut editor = RunEditor::from_inputs(&Inputs::default());
        editor.bucket_mib = "64 MB".into();
        editor.bytes_per_item = "2 B".into();
        let mut inputs = Inputs::default();
        editor.apply(&mut inputs).unwrap();
        assert!((inputs.bucket_mib - 64e6 / 1048576.0).abs() < 1e-12);
        assert_eq!(inputs.bytes_per_item, 2.0);
        editor.bucket_mib = "25 MiB".into();
        editor.apply(&mut inputs).unwrap();
        assert_eq!(inputs.bucket_mib, 25.0);
        editor.bucket_mib = "3 s".into();
        let errors = editor.apply(&mut inputs).unwrap_err();
        assert!(errors.contains_key(&Key::Run(RunKey::BucketMib)), "{errors:?}");
    }

    #[test]
    fn round_trip_and_errors() {
        let inputs = Inputs::default();
        let editor = RunEditor::from_inputs(&inputs);
        let mut copy = Inputs {
            gpus: 1,
            ..Inputs::default()
        };
        editor.apply(&mut copy).unwrap();
        assert_eq!(copy, inputs);

        let mut bad = editor.clone();
        bad.gpus = "sixty".into();
        bad.per_gpu = "".into();
        bad.segments = "1.5".into();
        let errors = bad.apply(&mut copy).unwrap_err();
        assert_eq!(
            errors.keys().copied().collect::<Vec<_>>(),
            [
                Key::Run(RunKey::Gpus),
                Key::Run(RunKey::SamplesPerGpu),
                Key::Run(RunKey::Segments)
            ]
        );
        assert_eq!(copy, inputs, "nothing is applied on error");
    }

    #[test]
    fn measured_runs_that_do_not_parse_are_errors_on_their_line() {
        let mut editor = RunEditor::from_inputs(&Inputs::default());
        editor.measured =
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,x,,1,,\n".into();
        let mut inputs = Inputs::default();
        let errors = editor.apply(&mut inputs).unwrap_err();
        assert!(errors[&Key::Measured(2)].starts_with("Line 2, column 8"), "{errors:?}");
        assert_eq!(inputs, Inputs::default(), "nothing applied");
        editor.measured =
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,256,,1,,\n".into();
        editor.fidelity = Fidelity::Ideal;
        editor.apply(&mut inputs).unwrap();
        assert!(inputs.calibrated());
        assert_eq!(inputs.fidelity, Fidelity::Ideal);
    }

    #[test]
    fn global_batch_and_toggles() {
        let mut editor = RunEditor::from_inputs(&Inputs::default());
        editor.batch_mode = BatchMode::Global;
        editor.mini_batch = "4096".into();
        editor.toggle(Strategy::Serial);
        editor.toggle(Strategy::Serial);
        editor.toggle(Strategy::Data);
        let mut inputs = Inputs::default();
        editor.apply(&mut inputs).unwrap();
        assert_eq!(inputs.batch, Batch::MiniBatch(4096));
        assert!(!inputs.strategies.contains(&Strategy::Data));
        assert!(inputs.strategies.windows(2).all(|w| w[0] < w[1]));
        editor.strategies.clear();
        assert!(
            editor
                .apply(&mut inputs)
                .unwrap_err()
                .contains_key(&Key::Run(RunKey::Strategies))
        );
    }
}
