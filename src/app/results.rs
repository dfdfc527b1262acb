//! What a view shows, computed by the engine from the inputs.

use std::cell::OnceCell;

use super::input::keys::{self, Errors};
use super::input::question::Question;
use super::input::run_fields;
use crate::oracle::formats::measured;
use crate::oracle::{Calibration, Capacity, Fidelity, Projection, RankBy, RunSpec, Scenario, Strategy, gpu_counts};

/// Per-layer totals of the layer table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerTotals {
    /// Weights `|w|`.
    pub parameters: f64,
    /// Activation items kept per sample.
    pub activations: f64,
    /// Forward FLOPs per sample.
    pub flops: f64,
}

/// Everything drawn and listed for one question.
#[derive(Debug, Clone, PartialEq)]
pub struct Results {
    /// The GPU budget.
    pub gpus: u64,
    /// `M`.
    pub capacity_bytes: f64,
    /// Every strategy that applies at the budget, ranked as `paradl rank`.
    pub ranking: Vec<Projection>,
    /// The chosen strategies over GPU counts 1, 2, 4, ... up to the
    /// cluster's largest allocation (and the budget).
    pub sweep: Vec<Projection>,
    /// Ideal scaling at the same counts.
    pub ideal: Vec<(u64, f64)>,
    /// Largest batch that fits, per chosen strategy, at the budget.
    pub fits: Vec<Capacity>,
    /// The edition shown.
    pub fidelity: Fidelity,
    /// The calibration from the measured runs, if any (applied to the
    /// ranking, the sweep and the ideal line).
    pub calibration: Option<Calibration>,
    /// The run every projection of the view starts from (calibrated, if
    /// measured runs are given).
    pub template: RunSpec,
    /// Every strategy at the budget in the other edition, uncalibrated.
    pub other_ranking: Vec<Projection>,
    /// The strategies drawn.
    pub strategies: Vec<Strategy>,
    /// The largest GPU count of the sweep.
    pub max_gpus: u64,
    /// The chosen strategies' sweep in the other edition, uncalibrated,
    /// computed when a view first draws it.
    other_sweep: OnceCell<Vec<Projection>>,
}

impl Results {
    /// Projects `question` on `scenario`.
    ///
    /// # Errors
    /// The first run setting the engine rejects, keyed to its input.
    pub fn compute(question: &Question, scenario: &Scenario) -> Result<Self, Errors> {
        question
            .check_runs(scenario.network(), scenario.cluster())
            .map_err(|e| Errors::from([(run_fields::of_run(&e), keys::message(&e))]))?;
        let gpus = question.gpus();
        let uncalibrated = question.run_of(Strategy::Data);
        let calibration = calibrate(question, scenario, &uncalibrated)?;
        let template = RunSpec {
            calibration: calibration.as_ref().and_then(|c| c.factors().ok()),
            ..uncalibrated.clone()
        };
        let ranking = scenario.rank(&template, RankBy::Time).points;
        let max_gpus = scenario.cluster().max_gpus().max(gpus);
        let sweep = scenario.sweep(&template, &question.strategies, max_gpus).points;
        let ideal = gpu_counts(max_gpus)
            .into_iter()
            .map(|p| (p, scenario.ideal_epoch_s(&template, p)))
            .collect();
        let fits = question
            .strategies
            .iter()
            .filter(|s| s.applies_at(gpus))
            .filter_map(|&s| scenario.capacity(&template.for_strategy(s, gpus)).ok())
            .collect();
        let other = uncalibrated.in_edition(question.run.fidelity.other());
        let other_ranking = scenario.rank(&other, RankBy::Time).points;
        Ok(Self {
            gpus,
            capacity_bytes: scenario.cluster().gpu_memory_bytes(),
            ranking,
            sweep,
            ideal,
            fits,
            fidelity: question.run.fidelity,
            calibration,
            template,
            other_ranking,
            strategies: question.strategies.clone(),
            max_gpus,
            other_sweep: OnceCell::new(),
        })
    }

    /// The chosen strategies' sweep in the other edition, uncalibrated:
    /// computed on `scenario` the first time a view draws it, then kept.
    pub fn other_sweep(&self, scenario: &Scenario) -> &[Projection] {
        self.other_sweep.get_or_init(|| {
            let other = RunSpec {
                calibration: None,
                ..self.template.clone()
            }
            .in_edition(self.fidelity.other());
            scenario.sweep(&other, &self.strategies, self.max_gpus).points
        })
    }

    /// The projection of `strategy` at the budget in the other edition.
    pub fn other_edition(&self, strategy: Strategy) -> Option<&Projection> {
        self.other_ranking.iter().find(|p| p.strategy == strategy)
    }
}

/// The calibration of the question's measured runs, if any.
///
/// # Errors
/// The line of a run that does not parse or that the engine rejects.
fn calibrate(question: &Question, scenario: &Scenario, template: &RunSpec) -> Result<Option<Calibration>, Errors> {
    if !question.calibrated() {
        return Ok(None);
    }
    let keyed = |e: &crate::oracle::ParseError| Errors::from([keys::of_measured(e)]);
    let runs = measured::parse(&question.measured).map_err(|e| keyed(&e))?;
    scenario.calibrate(&runs, template).map(Some).map_err(|e| keyed(&e))
}

/// The default view's results, for tests.
#[cfg(test)]
pub fn default_results() -> Results {
    let question = Question::default();
    let scenario = question.scenario().unwrap_or_else(|e| panic!("{e}"));
    Results::compute(&question, &scenario).unwrap_or_else(|e| panic!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::input::keys::{Key, RunKey};
    use crate::oracle::Batch;

    #[test]
    fn the_default_view_projects_the_inputs_it_shows() {
        // ResNet-50 on ABCI, 64 GPUs at 32 samples each, computed by hand:
        // B = 2048, I = ceil(1,280,000 / 2048) = 625, data-parallel compute
        // D·T/p = 1,280,000 · 0.003119502 s / 64 = 62.39004 s per epoch
        let question = Question::default();
        let scenario = question.scenario().unwrap();
        let results = Results::compute(&question, &scenario).unwrap();
        assert_eq!(results.gpus, 64);
        assert_eq!(results.ranking.len(), 7, "every strategy but serial applies at 64 GPUs");
        let data = results.ranking.iter().find(|p| p.strategy == Strategy::Data).unwrap();
        assert_eq!((data.gpus, data.mini_batch, data.iterations), (64, 2048, 625));
        // the default realistic edition: the engine's own projection of the run shown
        let run = crate::oracle::RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
        assert_eq!(data.compute_s, scenario.project(&run).unwrap().compute_s);
        // the ideal edition: the hand-computed value above
        let ideal = scenario
            .project(&run.in_edition(crate::oracle::Fidelity::Ideal))
            .unwrap();
        assert!((ideal.compute_s - 62.39004).abs() < 1e-9, "{}", ideal.compute_s);
        // the sweep: the 8 chosen strategies at 1, 2, 4 ... 4096 GPUs (serial at 1 only)
        assert_eq!(results.sweep.len(), 1 + 7 * 13);
        assert!(results.sweep.iter().all(|p| p.samples_per_gpu == 32.0));
        assert_eq!(results.ideal.len(), 13);
        assert_eq!(results.ideal[6].0, 64);
        // the ideal scaling line: one GPU's epoch at 32 samples, over 64
        let one = scenario
            .project(&crate::oracle::RunSpec::new(
                Strategy::Serial,
                1,
                Batch::SamplesPerGpu(32.0),
            ))
            .unwrap();
        assert!((results.ideal[6].1 - one.total_s / 64.0).abs() < 1e-9 * one.total_s);
        assert_eq!(results.fits.len(), 7);
        assert_eq!(results.capacity_bytes, 16e9);
    }

    #[test]
    fn run_errors_are_keyed_to_their_input() {
        let mut question = Question::default();
        question.run.group_size = Some(3);
        let scenario = question.scenario().unwrap();
        let errors = Results::compute(&question, &scenario).unwrap_err();
        assert!(errors[&Key::Run(RunKey::GroupSize)].contains("divide"));
        let mut question = Question::default();
        question.run.batch = Batch::SamplesPerGpu(0.3);
        let errors = Results::compute(&question, &scenario).unwrap_err();
        assert!(errors.contains_key(&Key::Run(RunKey::SamplesPerGpu)));
    }
}
