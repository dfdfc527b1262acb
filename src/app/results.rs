//! What a view shows, computed by the engine from the inputs.

use std::cell::OnceCell;
use std::rc::Rc;

use crate::app::input::keys::{self, Errors};
use crate::app::input::question::Question;
use crate::app::input::run_fields;
use crate::oracle::formats::measured;
use crate::oracle::{Calibration, Capacity, Edition, Projection, RankBy, RunSpec, Scenario, Strategy, gpu_counts};

/// Per-layer totals of the layer table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayerTotals {
    /// Weights `|w|` the layer holds (0 where it shares another's).
    pub parameters: f64,
    /// Activation items kept per sample.
    pub activations: f64,
    /// Forward FLOPs per sample.
    pub flops: f64,
}

/// Everything drawn and listed for one question: the ranking at once, what
/// the plots, the findings and the edition note show when first asked for
/// (the page shows the ranking first).
#[derive(Debug, Clone)]
pub struct Results {
    /// The GPU budget.
    pub gpus: u64,
    /// `M`.
    pub capacity_bytes: f64,
    /// Every strategy that applies at the budget, ranked as `paradl rank`.
    pub ranking: Vec<Projection>,
    /// The edition shown.
    pub edition: Edition,
    /// What "best" means (and what a lesson's "keeps halving" times).
    pub rank_by: RankBy,
    /// The calibration from the measured runs, if any (applied to the
    /// ranking, the sweep and the ideal line).
    pub calibration: Option<Calibration>,
    /// The run every projection of the view starts from (calibrated, if
    /// measured runs are given).
    pub template: RunSpec,
    /// The strategies drawn.
    pub strategies: Vec<Strategy>,
    /// The largest GPU count of the sweep.
    pub max_gpus: u64,
    /// The scenario the parts below are computed on when first asked for
    /// (none: they were computed at once).
    scenario: Option<Rc<Scenario>>,
    /// The chosen strategies over GPU counts 1, 2, 4, ... up to the
    /// cluster's largest allocation (and the budget).
    sweep: OnceCell<Vec<Projection>>,
    /// Ideal scaling at the same counts.
    ideal: OnceCell<Vec<(u64, f64)>>,
    /// Largest batch that fits, per chosen strategy, at the budget.
    fits: OnceCell<Vec<Capacity>>,
    /// Every strategy at the budget in the other edition, uncalibrated.
    other_ranking: OnceCell<Vec<Projection>>,
    /// The chosen strategies' sweep in the other edition, uncalibrated.
    other_sweep: OnceCell<Vec<Projection>>,
}

impl Results {
    /// Projects `question` on `scenario`, every part at once (but the other
    /// edition's sweep, computed when first drawn).
    ///
    /// # Errors
    /// The first run setting the engine rejects, keyed to its input.
    pub fn compute(question: &Question, scenario: &Scenario) -> Result<Self, Errors> {
        let results = Self::rank(question, scenario, None)?;
        // the cells are empty: each set succeeds (the other edition's sweep stays lazy, see
        // `other_sweep`)
        let _ = results.sweep.set(results.sweep_of(scenario));
        let _ = results.ideal.set(results.ideal_of(scenario));
        let _ = results.fits.set(results.fits_of(scenario));
        let _ = results.other_ranking.set(results.other_ranking_of(scenario));
        Ok(results)
    }

    /// Projects `question` on `scenario`: the ranking at once, the other
    /// parts (the sweep, the ideal line, the fits, the other edition) when
    /// first asked for.
    ///
    /// # Errors
    /// The first run setting the engine rejects, keyed to its input.
    pub fn compute_ranking(question: &Question, scenario: &Rc<Scenario>) -> Result<Self, Errors> {
        Self::rank(question, scenario, Some(Rc::clone(scenario)))
    }

    fn rank(question: &Question, scenario: &Scenario, kept: Option<Rc<Scenario>>) -> Result<Self, Errors> {
        question
            .check_runs(scenario.network(), scenario.cluster())
            .map_err(|e| Errors::from([(run_fields::of_run(&e), keys::message(&e))]))?;
        let gpus = question.gpus();
        let uncalibrated = question.run_of(Strategy::Data);
        let calibration = calibrate(question, scenario, &uncalibrated)?;
        let template = RunSpec {
            calibration: calibration.as_ref().and_then(|c| c.factors().ok()),
            ..uncalibrated
        };
        // the strategies the user unticked are left out of the ranking as of the plots
        let ranking = scenario
            .rank(&template, question.rank_by)
            .points
            .into_iter()
            .filter(|p| question.strategies.contains(&p.strategy))
            .collect();
        Ok(Self {
            gpus,
            capacity_bytes: scenario.cluster().gpu_memory_bytes(),
            ranking,
            edition: question.run.edition,
            rank_by: question.rank_by,
            calibration,
            template,
            strategies: question.strategies.clone(),
            max_gpus: scenario.cluster().max_gpus().max(gpus),
            scenario: kept,
            sweep: OnceCell::new(),
            ideal: OnceCell::new(),
            fits: OnceCell::new(),
            other_ranking: OnceCell::new(),
            other_sweep: OnceCell::new(),
        })
    }

    /// A part computed on the kept scenario when first asked for (every
    /// part of results computed at once is already there).
    fn kept<'a, T: Default>(&'a self, cell: &'a OnceCell<T>, compute: impl FnOnce(&Scenario) -> T) -> &'a T {
        cell.get_or_init(|| self.scenario.as_deref().map(compute).unwrap_or_default())
    }

    /// The chosen strategies over GPU counts 1, 2, 4, ... up to the
    /// cluster's largest allocation (and the budget).
    pub fn sweep(&self) -> &[Projection] {
        self.kept(&self.sweep, |s| self.sweep_of(s)).as_slice()
    }

    fn sweep_of(&self, scenario: &Scenario) -> Vec<Projection> {
        scenario.sweep(&self.template, &self.strategies, self.max_gpus).points
    }

    /// Ideal scaling at the sweep's GPU counts.
    pub fn ideal(&self) -> &[(u64, f64)] {
        self.kept(&self.ideal, |s| self.ideal_of(s)).as_slice()
    }

    fn ideal_of(&self, scenario: &Scenario) -> Vec<(u64, f64)> {
        gpu_counts(self.max_gpus)
            .into_iter()
            .map(|p| (p, scenario.ideal_epoch_s(&self.template, p)))
            .collect()
    }

    /// The largest batch that fits, per chosen strategy, at the budget.
    pub fn fits(&self) -> &[Capacity] {
        self.kept(&self.fits, |s| self.fits_of(s)).as_slice()
    }

    fn fits_of(&self, scenario: &Scenario) -> Vec<Capacity> {
        self.strategies
            .iter()
            .filter(|s| s.applies_at(self.gpus))
            .filter_map(|&s| scenario.capacity(&self.template.for_strategy(s, self.gpus)).ok())
            .collect()
    }

    /// The run of the other edition, uncalibrated.
    fn other_run(&self) -> RunSpec {
        RunSpec {
            calibration: None,
            ..self.template.clone()
        }
        .in_edition(self.edition.other())
    }

    fn other_ranking_of(&self, scenario: &Scenario) -> Vec<Projection> {
        scenario.rank(&self.other_run(), RankBy::Time).points
    }

    /// The chosen strategies' sweep in the other edition, uncalibrated:
    /// computed on `scenario` the first time a view draws it, then kept.
    pub fn other_sweep(&self, scenario: &Scenario) -> &[Projection] {
        self.other_sweep.get_or_init(|| {
            scenario
                .sweep(&self.other_run(), &self.strategies, self.max_gpus)
                .points
        })
    }

    /// The projection of `strategy` at the budget in the other edition,
    /// uncalibrated.
    pub fn other_edition(&self, strategy: Strategy) -> Option<&Projection> {
        self.kept(&self.other_ranking, |s| self.other_ranking_of(s))
            .iter()
            .find(|p| p.strategy == strategy)
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
    use crate::app::input::keys::{Key, RunKey};
    use crate::app::results::*;
    use crate::oracle::Batch;

    /// The results the page computes (the ranking at once, the rest when a
    /// plot, the findings or the edition note first asks) equal those
    /// computed at once, in both editions.
    #[test]
    fn parts_computed_when_asked_for_equal_those_computed_at_once() {
        for edition in [crate::oracle::Edition::Realistic, crate::oracle::Edition::Ideal] {
            let mut question = Question::default();
            question.run.edition = edition;
            let scenario = Rc::new(question.scenario().unwrap());
            let now = Results::compute(&question, &scenario).unwrap();
            let later = Results::compute_ranking(&question, &scenario).unwrap();
            assert!(later.sweep.get().is_none() && later.other_ranking.get().is_none());
            assert_eq!(later.ranking, now.ranking);
            assert_eq!(later.sweep(), now.sweep());
            assert!(!later.sweep().is_empty());
            assert_eq!(later.ideal(), now.ideal());
            assert_eq!(later.fits(), now.fits());
            assert!(!later.fits().is_empty());
            for p in &now.ranking {
                let other = later.other_edition(p.strategy);
                assert!(other.is_some());
                assert_eq!(other, now.other_edition(p.strategy));
            }
            assert_eq!(later.other_sweep(&scenario), now.other_sweep(&scenario));
        }
    }

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
            .project(&run.in_edition(crate::oracle::Edition::Ideal))
            .unwrap();
        assert!((ideal.compute_s - 62.39004).abs() < 1e-9, "{}", ideal.compute_s);
        // the sweep: the 8 chosen strategies at 1, 2, 4 ... 4096 GPUs (serial at 1 only)
        assert_eq!(results.sweep().len(), 1 + 7 * 13);
        assert!(results.sweep().iter().all(|p| p.samples_per_gpu == 32.0));
        assert_eq!(results.ideal().len(), 13);
        assert_eq!(results.ideal()[6].0, 64);
        // the ideal scaling line: one GPU's epoch at 32 samples, over 64
        let one = scenario
            .project(&crate::oracle::RunSpec::new(
                Strategy::Serial,
                1,
                Batch::SamplesPerGpu(32.0),
            ))
            .unwrap();
        assert!((results.ideal()[6].1 - one.total_s / 64.0).abs() < 1e-9 * one.total_s);
        assert_eq!(results.fits().len(), 7);
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
