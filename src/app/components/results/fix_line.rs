//! `#fix`: when nothing fits, what would, at the top where the verdict
//! says so: the network preset's usual run where the view's batch is
//! another (one tap), else the first change the engine found that makes
//! the fastest strategy ruled out only by memory fit.

use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::state::action::{Action, RunAction};
use crate::oracle::{FindingDetail, Projection, Violation};

/// The engine's first change that makes a projection ruled out by memory
/// alone fit, in words (`data with activation recompute`).
pub fn memory_fix(ranking: &[Projection]) -> Option<String> {
    ranking
        .iter()
        .filter(|p| p.violations == [Violation::Memory])
        .find_map(|p| {
            p.bottlenecks.iter().find_map(|f| match &f.detail {
                FindingDetail::MemoryFit { options, .. } => options
                    .iter()
                    .find(|o| o.fits)
                    .map(|o| format!("{} with {}", p.strategy.label(), o.option)),
                _ => None,
            })
        })
}

/// The line, when no strategy fits.
#[function_component(FixLine)]
pub fn fix_line() -> Html {
    let Some(app) = use_app() else { return html! {} };
    let Some(answer) = app.answer.clone() else {
        return html! {};
    };
    let ranking = &answer.results.ranking;
    if ranking.iter().any(|p| p.feasible) || app.lesson.is_some_and(|l| l.hides_results()) {
        return html! {};
    }
    if let Some(preset) = answer.question().unusual_preset() {
        let (title, samples) = (preset.title, preset.usual_samples_per_gpu.0);
        let onclick = app.send::<MouseEvent>(Action::Run(RunAction::Usual(samples)));
        return html! {
            <p id="fix" class="fix">
                { "Fix: " }
                <button type="button" id="fix-usual" {onclick}>{ format!("train {title} as it usually is, {samples} samples per GPU") }</button>
            </p>
        };
    }
    memory_fix(ranking).map_or_else(
        || html! {},
        |fix| html! { <p id="fix" class="fix">{ format!("Fix: it would fit as {fix}.") }</p> },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Batch, RankBy, RunSpec, Strategy, presets};

    #[test]
    fn the_fix_is_the_engines_first_fitting_change_of_the_fastest_ruled_out_by_memory_alone() {
        let scenario = presets::scenario("resnet50", "abci").unwrap();
        let ranking = scenario
            .rank(
                &RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(256.0)),
                RankBy::Time,
            )
            .points;
        assert!(ranking.iter().all(|p| !p.feasible));
        let fix = memory_fix(&ranking).unwrap();
        assert!(fix.starts_with("data with "), "{fix}");
        // the change it names makes that run fit, as the engine projects it
        let option = ranking[0]
            .bottlenecks
            .iter()
            .find_map(|f| match &f.detail {
                FindingDetail::MemoryFit { options, .. } => options.iter().find(|o| o.fits).cloned(),
                _ => None,
            })
            .unwrap();
        assert!(scenario.project(&option.spec).unwrap().feasible);
        // a split limit no memory change lifts offers none
        let blocked = presets::scenario("alexnet", "abci")
            .unwrap()
            .rank(
                &RunSpec::new(Strategy::Data, 1024, Batch::SamplesPerGpu(512.0)),
                RankBy::Time,
            )
            .points;
        let fix = memory_fix(&blocked);
        assert!(fix.as_deref().is_none_or(|f| !f.starts_with("spatial")), "{fix:?}");
    }
}
