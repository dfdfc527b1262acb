//! The run as the user types it: the question's run, strategies and
//! measured runs underneath, and the cells typed over them, each read by
//! its row of [`RUN_FIELDS`](crate::app::input::run_fields::RUN_FIELDS).

use crate::app::input::keys::{self, Errors, Key, RunKey};
use crate::app::input::question::Question;
use crate::app::input::run_fields::{self, GLOBAL, PER_GPU};
use crate::app::state::editor::Editor;
use crate::oracle::formats::measured;
use crate::oracle::model::convergence::{Convergence, DEFAULT_EPOCHS, curve};
use crate::oracle::{Config, Precision, presets, units};

/// The run editor.
#[derive(Debug, Clone, PartialEq)]
pub struct RunEditor(pub Editor<Question, RunKey>);

impl RunEditor {
    /// An editor showing the run of `question`.
    pub fn of(question: &Question) -> Self {
        Self(Editor::new(question.clone()))
    }

    /// The text of a setting: as typed, else its value.
    pub fn text(&self, key: RunKey) -> String {
        self.0.text(key, run_fields::field(key).text)
    }

    /// Whether the batch is given per GPU (else as a global mini-batch).
    pub fn per_gpu(&self) -> bool {
        self.text(RunKey::BatchMode) != GLOBAL
    }

    /// Whether a flag setting (recompute, overlap) is on.
    pub fn on(&self, key: RunKey) -> bool {
        self.text(key) == "true"
    }

    /// Records what the user typed or chose.
    pub fn set(&mut self, key: RunKey, text: String) {
        self.0.edit(key, text);
    }

    /// Reads the typed settings into `question`'s run, strategies and
    /// measured runs.
    ///
    /// # Errors
    /// Every setting that does not read, and the measured runs' first line
    /// that does not parse (the engine checks the rest).
    pub fn apply(&self, question: &mut Question) -> Result<(), Errors> {
        // in key order, the table's: the budget and the batch mode before the batch
        let (value, mut errors) = self
            .0
            .read(|q, key, text| (run_fields::field(key).set)(q, text), Key::Run);
        if !value.measured.trim().is_empty()
            && let Err(e) = measured::parse(&value.measured)
        {
            let (key, message) = keys::of_measured(&e);
            errors.insert(key, message);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        question.run = value.run;
        question.strategies = value.strategies;
        question.measured = value.measured;
        question.rank_by = value.rank_by;
        Ok(())
    }

    /// Shows a configuration of the planner: its GPU count, group,
    /// segments, ZeRO stage and recompute become the run's, its batch the
    /// run's batch (as samples per GPU or a mini-batch, as entered), and
    /// its strategy is drawn.
    pub fn load(&mut self, config: &Config) {
        self.set(RunKey::Gpus, config.gpus.to_string());
        if self.per_gpu() {
            self.set(RunKey::SamplesPerGpu, config.samples_per_gpu.to_string());
        } else {
            self.set(RunKey::MiniBatch, config.mini_batch.to_string());
        }
        let shown = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
        self.set(RunKey::GroupSize, shown(config.group_size));
        self.set(RunKey::Segments, shown(config.segments));
        self.set(RunKey::Zero, config.zero.to_string());
        self.set(RunKey::Recompute, config.recompute.to_string());
        let strategies = self.text(RunKey::Strategies);
        if !strategies.split(',').any(|s| s == config.strategy.name()) {
            self.set(RunKey::Strategies, format!("{strategies},{}", config.strategy.name()));
        }
    }

    /// Trains with `samples` per GPU.
    pub fn use_samples_per_gpu(&mut self, samples: f64) {
        self.set(RunKey::BatchMode, PER_GPU.into());
        self.set(RunKey::SamplesPerGpu, samples.to_string());
    }

    /// Trains network preset `key` as it is usually trained (its samples
    /// per GPU); what changed, in one line, or `None` when nothing did.
    pub fn use_usual_samples(&mut self, key: &str) -> Option<String> {
        let preset = presets::network_preset(key).ok()?;
        let (samples, why) = preset.usual_samples_per_gpu;
        let before = (self.per_gpu(), self.text(RunKey::SamplesPerGpu));
        if before.0 && before.1.parse::<f64>() == Ok(samples) {
            return None;
        }
        let was = if before.0 {
            format!("{} samples per GPU", before.1)
        } else {
            format!("a mini-batch of {}", self.text(RunKey::MiniBatch))
        };
        self.use_samples_per_gpu(samples);
        Some(format!(
            "{} trains with {} samples per GPU, its usual run: {why}. Undo puts back {was}.",
            preset.title,
            units::significant(samples, 3)
        ))
    }

    /// Trains until the network's own convergence (blank: a preset's curve,
    /// else the epochs assumed), the network now being preset `key` (`None`:
    /// an imported one); what changed, in one line, or `None` when the
    /// network's own was already in use.
    pub fn use_own_convergence(&mut self, key: Option<&str>) -> Option<String> {
        if self.text(RunKey::Convergence).trim().is_empty() {
            return None;
        }
        let was = self.convergence_words();
        self.set(RunKey::Convergence, String::new());
        let now = match key.and_then(presets::usual_convergence) {
            Some((Convergence::Curve(k), why)) => {
                format!(
                    "the epochs of {}: {why}",
                    curve(&k).map_or(k.clone(), |c| c.name.to_string())
                )
            }
            _ => format!(
                "{DEFAULT_EPOCHS} epochs, assumed: nothing says how this network converges (name a curve or its epochs under Run)"
            ),
        };
        Some(format!("Trained until {now}. Before: {was}."))
    }

    /// Trains an edited preset `key` until the preset's own curve, written
    /// out; what changed, in one line, or `None` when a convergence is
    /// already chosen (or the preset names none).
    pub fn keep_convergence_of(&mut self, key: &str) -> Option<String> {
        if !self.text(RunKey::Convergence).trim().is_empty() {
            return None;
        }
        let Some((Convergence::Curve(k), why)) = presets::usual_convergence(key) else {
            return None;
        };
        let name = curve(&k).map_or(k.clone(), |c| c.name.to_string());
        self.set(RunKey::Convergence, k);
        Some(format!(
            "The edited network still trains until the epochs of {name} ({why}); choose another under Run if the edit changes how it converges."
        ))
    }

    /// The convergence in words: a curve's name, `N epochs`, or the
    /// assumption.
    fn convergence_words(&self) -> String {
        let text = self.text(RunKey::Convergence);
        match text.trim() {
            "" => format!("{DEFAULT_EPOCHS} epochs, assumed"),
            t => match Convergence::parse(t) {
                Ok(Convergence::Curve(key)) => curve(&key).map_or(key, |c| c.name.to_string()),
                Ok(Convergence::Epochs(e)) => format!("{} epochs", units::significant(e, 4)),
                Err(_) => t.to_string(),
            },
        }
    }

    /// Runs on at most `largest` GPUs (a cluster's size); what changed, in
    /// one line, or `None` when the budget already fits.
    pub fn fit_gpus(&mut self, largest: u64) -> Option<String> {
        let before = self.text(RunKey::Gpus);
        let gpus = before.trim().parse::<u64>().ok().filter(|g| *g > largest)?;
        self.set(RunKey::Gpus, largest.to_string());
        Some(format!(
            "GPUs set to {largest}, all this cluster has. Undo puts back {gpus}."
        ))
    }

    /// Trains in the precision people use on the cluster of `key` (a
    /// preset or a node); what changed, in one line, or `None` when
    /// nothing did.
    pub fn use_usual_precision(&mut self, key: &str) -> Option<String> {
        let (precision, why) = presets::usual_precision(key).ok()?;
        let before = self.text(RunKey::Precision);
        if before == precision.name() {
            return None;
        }
        let was = Precision::from_name(&before).map_or(before.clone(), |p| p.label().to_string());
        self.set(RunKey::Precision, precision.name().into());
        Some(format!(
            "Precision set to {}: {why}. Undo puts back {was}.",
            precision.label()
        ))
    }

    /// The strategies as they would be with `strategy` shown or hidden,
    /// written for [`RunKey::Strategies`] (in the contract's order).
    pub fn toggled(&self, strategy: crate::oracle::Strategy) -> String {
        let text = self.text(RunKey::Strategies);
        let mut names: Vec<&str> = text.split(',').filter(|s| !s.is_empty()).collect();
        if names.contains(&strategy.name()) {
            names.retain(|s| *s != strategy.name());
        } else {
            names.push(strategy.name());
        }
        let mut chosen: Vec<crate::oracle::Strategy> = names.iter().filter_map(|n| n.parse().ok()).collect();
        chosen.sort();
        let names: Vec<&str> = chosen.iter().map(|s| s.name()).collect();
        names.join(",")
    }
}

#[cfg(test)]
mod tests {
    use crate::app::state::run_editor::*;
    use crate::oracle::{Batch, Edition, Strategy};

    #[test]
    fn round_trip_and_errors() {
        let question = Question::default();
        let editor = RunEditor::of(&question);
        let mut copy = Question::default();
        copy.run.gpus = 1;
        editor.apply(&mut copy).unwrap();
        assert_eq!(copy, question);

        let mut bad = editor.clone();
        bad.set(RunKey::Gpus, "sixty".into());
        bad.set(RunKey::SamplesPerGpu, "".into());
        bad.set(RunKey::Segments, "1.5".into());
        let errors = bad.apply(&mut copy).unwrap_err();
        assert_eq!(
            errors.keys().copied().collect::<Vec<_>>(),
            [
                Key::Run(RunKey::Gpus),
                Key::Run(RunKey::SamplesPerGpu),
                Key::Run(RunKey::Segments)
            ]
        );
        assert_eq!(copy, question, "nothing is applied on error");
    }

    #[test]
    fn measured_runs_that_do_not_parse_are_errors_on_their_line() {
        let mut editor = RunEditor::of(&Question::default());
        editor.set(
            RunKey::Measured,
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,x,,1,,\n".into(),
        );
        let mut q = Question::default();
        let errors = editor.apply(&mut q).unwrap_err();
        assert!(errors[&Key::Measured(2)].starts_with("Line 2, column 8"), "{errors:?}");
        assert_eq!(q, Question::default(), "nothing applied");
        editor.set(
            RunKey::Measured,
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,256,,1,,\n".into(),
        );
        editor.set(RunKey::Edition, "ideal".into());
        editor.apply(&mut q).unwrap();
        assert!(q.calibrated());
        assert_eq!(q.run.edition, Edition::Ideal);
    }

    #[test]
    fn global_batch_and_toggles() {
        let mut editor = RunEditor::of(&Question::default());
        editor.set(RunKey::BatchMode, GLOBAL.into());
        assert_eq!(editor.text(RunKey::MiniBatch), "2048");
        editor.set(RunKey::MiniBatch, "4096".into());
        let serial = editor.toggled(Strategy::Serial);
        editor.set(RunKey::Strategies, serial);
        let serial = editor.toggled(Strategy::Serial);
        editor.set(RunKey::Strategies, serial);
        let data = editor.toggled(Strategy::Data);
        editor.set(RunKey::Strategies, data);
        let mut q = Question::default();
        editor.apply(&mut q).unwrap();
        assert_eq!(q.run.batch, Batch::MiniBatch(4096));
        assert!(!q.strategies.contains(&Strategy::Data));
        assert!(q.strategies.windows(2).all(|w| w[0] < w[1]));
        editor.set(RunKey::Strategies, String::new());
        assert!(
            editor
                .apply(&mut q)
                .unwrap_err()
                .contains_key(&Key::Run(RunKey::Strategies))
        );
    }

    #[test]
    fn byte_sizes_take_their_units() {
        let mut editor = RunEditor::of(&Question::default());
        editor.set(RunKey::BucketMib, "64 MB".into());
        editor.set(RunKey::BytesPerItem, "2 B".into());
        let mut q = Question::default();
        editor.apply(&mut q).unwrap();
        assert!((q.run.bucket_mib - 64e6 / 1048576.0).abs() < 1e-12);
        assert_eq!(q.run.bytes_per_item, 2.0);
        editor.set(RunKey::BucketMib, "3 s".into());
        assert!(
            editor
                .apply(&mut q)
                .unwrap_err()
                .contains_key(&Key::Run(RunKey::BucketMib))
        );
    }
}
