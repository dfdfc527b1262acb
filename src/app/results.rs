//! What a view shows, computed by the engine from the inputs.

use super::state::fields::{self, Errors};
use super::state::inputs::Inputs;
use crate::oracle::{Capacity, Projection, RankBy, Scenario, Strategy, gpu_counts};

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

/// Everything drawn and listed for one set of inputs.
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
}

impl Results {
    /// Projects `inputs` on `scenario`.
    ///
    /// # Errors
    /// The first run setting the engine rejects, keyed to its input.
    pub fn compute(inputs: &Inputs, scenario: &Scenario) -> Result<Self, Errors> {
        inputs
            .check_runs(scenario.network(), scenario.cluster())
            .map_err(|e| Errors::from([(fields::of_run(&e), fields::message(&e))]))?;
        let template = inputs.run(Strategy::Data);
        let ranking = scenario.rank(&template, RankBy::Time).points;
        let max_gpus = scenario.cluster().max_gpus().max(inputs.gpus);
        let sweep = scenario.sweep(&template, &inputs.strategies, max_gpus).points;
        let ideal = gpu_counts(max_gpus)
            .into_iter()
            .map(|p| (p, scenario.ideal_epoch_s(p)))
            .collect();
        let fits = inputs
            .strategies
            .iter()
            .filter(|s| s.applies_at(inputs.gpus))
            .filter_map(|&s| scenario.capacity(&inputs.run(s)).ok())
            .collect();
        Ok(Self {
            gpus: inputs.gpus,
            capacity_bytes: scenario.cluster().gpu_memory_bytes(),
            ranking,
            sweep,
            ideal,
            fits,
        })
    }
}

/// The default view's results, for tests.
#[cfg(test)]
pub fn default_results() -> Results {
    let inputs = Inputs::default();
    let scenario = inputs.scenario().unwrap_or_else(|e| panic!("{e}"));
    Results::compute(&inputs, &scenario).unwrap_or_else(|e| panic!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::fields::{Key, RunKey};
    use crate::oracle::{Batch, RunSpec};

    #[test]
    fn the_ranking_is_the_cli_ranking() {
        let inputs = Inputs::default();
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        let cli = scenario.rank(
            &RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)),
            RankBy::Time,
        );
        assert_eq!(results.ranking, cli.points);
        assert_eq!(results.sweep.len(), 1 + 7 * 13);
        assert_eq!(results.ideal.len(), 13);
        assert_eq!(results.fits.len(), 7);
    }

    #[test]
    fn run_errors_are_keyed_to_their_input() {
        let inputs = Inputs {
            group_size: Some(3),
            ..Inputs::default()
        };
        let scenario = inputs.scenario().unwrap();
        let errors = Results::compute(&inputs, &scenario).unwrap_err();
        assert!(errors[&Key::Run(RunKey::GroupSize)].contains("divide"));
        let inputs = Inputs {
            batch: Batch::SamplesPerGpu(0.3),
            ..Inputs::default()
        };
        let errors = Results::compute(&inputs, &scenario).unwrap_err();
        assert!(errors.contains_key(&Key::Run(RunKey::SamplesPerGpu)));
    }
}
