//! The results of an answer, in reading order: the ranking, then the plot
//! a lesson is about (when one is open), the explanation, the other plots,
//! the findings, the diagram, the exports and the planner. What is under the
//! ranking follows an answer once its ranking is painted (see
//! [`crate::app::components::results::after_ranking`]).

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::cluster::fallback_note::FallbackNote;
use crate::app::components::page::stale_note::StaleNote;
use crate::app::components::planner::plan_panel::PlanPanel;
use crate::app::components::plots::comparison_plot::ComparisonPlot;
use crate::app::components::plots::memory_plot::MemoryPlot;
use crate::app::components::plots::scaling_plot::ScalingPlot;
use crate::app::components::results::after_ranking::{part, use_adopted, use_reopened, use_settled};
use crate::app::components::results::edition_note::EditionNote;
use crate::app::components::results::explain_panel::ExplainPanel;
use crate::app::components::results::exports::Exports;
use crate::app::components::results::findings::Findings;
use crate::app::components::results::ranking_table::RankingTable;
use crate::app::components::results::strategy_diagram::StrategyDiagram;
use crate::app::lessons::LessonPlot;
use crate::app::state::Answer;

/// Props of [`ResultsView`].
#[derive(Properties, Clone)]
pub struct ResultsViewProps {
    pub answer: Rc<Answer>,
    /// The plot shown first, under the ranking (a lesson's).
    #[prop_or_default]
    pub first: Option<LessonPlot>,
}

impl PartialEq for ResultsViewProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.answer, &other.answer) && self.first == other.first
    }
}

fn plot(which: LessonPlot, answer: &Rc<Answer>) -> Html {
    let answer = Rc::clone(answer);
    match which {
        LessonPlot::Scaling => html! { <ScalingPlot {answer} /> },
        LessonPlot::Memory => html! { <MemoryPlot {answer} /> },
        LessonPlot::Diagram => html! { <StrategyDiagram {answer} /> },
    }
}

/// Whether the measured ABCI runs behind the ranking's track record
/// resemble the answer's question: V100s training in FP32, as they did.
fn like_the_runs(answer: &Answer) -> bool {
    let volta = answer
        .scenario
        .cluster()
        .device()
        .is_some_and(|g| g.architecture == crate::oracle::presets::devices::Architecture::Volta);
    volta && answer.question().run.precision == crate::oracle::Precision::Fp32
}

/// The id of the part under the ranking that a lesson's plot is in.
pub const FIRST_PART: &str = "results-first";
/// The id of the part with the other plots, the findings, the diagram, the
/// exports and the planner.
pub const LATER_PART: &str = "results-later";

/// The results: the ranking at once, the rest once it is painted.
#[function_component(ResultsView)]
pub fn results_view(props: &ResultsViewProps) -> Html {
    let answer = &props.answer;
    let adopted = use_adopted([FIRST_PART, LATER_PART]);
    let settled = use_settled(answer, adopted[1].is_some());
    use_reopened(Rc::clone(&adopted), settled.is_some());
    let first = props.first;
    let later = move |which: LessonPlot, answer: &Rc<Answer>| (first != Some(which)).then(|| plot(which, answer));
    html! {
        <>
            <StaleNote />
            <RankingTable ranking={answer.results.ranking.clone()} calibration={answer.results.calibration.clone()}
                like_the_runs={like_the_runs(answer)} by={answer.question().rank_by} />
            if let Some(which) = first {
                { part(FIRST_PART, settled.as_ref(), adopted[0].as_ref(), |answer| plot(which, answer)) }
            }
            <ExplainPanel answer={answer.clone()} />
            { part(LATER_PART, settled.as_ref(), adopted[1].as_ref(), |answer| html! {
                <>
                    { for later(LessonPlot::Scaling, answer) }
                    <Findings ranking={answer.results.ranking.clone()} />
                    <EditionNote answer={answer.clone()} />
                    <FallbackNote answer={answer.clone()} />
                    <ComparisonPlot answer={answer.clone()} />
                    { for later(LessonPlot::Memory, answer) }
                    { for later(LessonPlot::Diagram, answer) }
                    <Exports answer={answer.clone()} />
                    <PlanPanel answer={answer.clone()} />
                </>
            }) }
        </>
    }
}
