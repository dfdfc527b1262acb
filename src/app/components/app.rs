//! The page: inputs on the left, results on the right; the state lives in
//! the address and in local storage.

use std::rc::Rc;

use yew::prelude::*;

use super::AppContext;
use super::accuracy_view::AccuracyView;
use super::calibration_panel::CalibrationPanel;
use super::cluster_panel::ClusterPanel;
use super::comparison_plot::ComparisonPlot;
use super::edition_note::EditionNote;
use super::edition_panel::EditionPanel;
use super::explain_panel::ExplainPanel;
use super::exports::Exports;
use super::findings::Findings;
use super::glossary::Glossary;
use super::history::use_history;
use super::lesson_box::LessonBox;
use super::lessons_list::LessonsList;
use super::linked_model::use_linked_model;
use super::memory_plot::MemoryPlot;
use super::model_doc_view::ModelDocView;
use super::model_panel::ModelPanel;
use super::notice::Notice;
use super::plan_panel::PlanPanel;
use super::ranking_table::RankingTable;
use super::run_panel::RunPanel;
use super::scaling_plot::ScalingPlot;
use super::share_bar::ShareBar;
use super::stale_note::StaleNote;
use super::strategy_diagram::StrategyDiagram;
use crate::app::boot::{boot, keep_notice};
use crate::app::browser;
use crate::app::state::AppState;
use crate::app::state::action::{Action, PageAction};

/// The performance mark set once results are on screen (read by the app
/// benchmark: its first entry is the time from navigation to a full render).
pub const FIRST_RENDER: &str = "paradl-rendered";

/// Props of [`App`]: where the state starts (tests give their own).
#[derive(Properties, PartialEq, Clone, Default)]
pub struct AppProps {
    /// Starting state; `None` reads the page's address and storage.
    #[prop_or_default]
    pub initial: Option<Rc<AppState>>,
}

/// The whole app.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let initial = props.initial.clone();
    let state = use_reducer(move || initial.map_or_else(boot, |s| (*s).clone()));
    let answer = state.answer.clone();
    use_linked_model(state.clone());
    use_history(state.clone());
    // history entries already in the address bar: several actions may reach
    // one render, so a new entry is pushed when the count grew
    let kept_entries = use_mut_ref(|| state.entries);
    {
        let state = state.clone();
        use_effect_with(answer.as_ref().map(|a| Rc::clone(&a.stored)), move |stored| {
            if let (Some(stored), Some(answer)) = (stored, state.answer.as_ref()) {
                let push = state.entries > *kept_entries.borrow();
                *kept_entries.borrow_mut() = state.entries;
                let kept = browser::keep(answer.link.as_deref(), stored, push).is_ok();
                if let Some(text) = keep_notice(answer.link.is_none(), kept)
                    && state.notice.as_deref() != Some(text.as_str())
                {
                    state.dispatch(Action::Page(PageAction::Notify(text)));
                }
                browser::mark_once(FIRST_RENDER);
            }
        });
    }
    let href = browser::share_url(answer.as_ref().and_then(|a| a.link.as_deref()).unwrap_or_default());
    let ondismiss = {
        let state = state.clone();
        Callback::from(move |()| state.dispatch(Action::Page(PageAction::DismissNotice)))
    };
    let hidden = state.lesson.is_some_and(|l| l.hides_results());
    let results = state.answer.clone().filter(|_| !hidden).map(|answer| {
        html! {
            <>
                <StaleNote />
                <RankingTable ranking={answer.results.ranking.clone()} />
                <ExplainPanel answer={answer.clone()} />
                <ScalingPlot answer={answer.clone()} />
                <Findings ranking={answer.results.ranking.clone()} />
                <EditionNote answer={answer.clone()} />
                <ComparisonPlot answer={answer.clone()} />
                <MemoryPlot answer={answer.clone()} />
                <StrategyDiagram answer={answer.clone()} />
                <Exports answer={answer.clone()} />
                <PlanPanel {answer} />
            </>
        }
    });
    html! {
        <ContextProvider<AppContext> context={state.clone()}>
            <header class="top">
                <div>
                    <h1>{ "ParaDL oracle" }</h1>
                    <p class="tagline">{ "How should this CNN be parallelised on that cluster, and what will it cost in time and memory?" }</p>
                </div>
                <ShareBar href={AttrValue::from(href)} entries={state.entries} />
            </header>
            <Notice message={state.notice.clone().map(AttrValue::from)} {ondismiss} />
            <main class="layout">
                <aside class="inputs">
                    <ModelPanel />
                    <ClusterPanel />
                    <RunPanel />
                    <EditionPanel />
                    <CalibrationPanel />
                </aside>
                <section class="outputs" aria-live="polite">
                    <LessonBox />
                    { results.unwrap_or_else(|| if hidden {
                        html! { <p class="quiet" id="hidden-results">{ "The results are hidden until you reveal them." }</p> }
                    } else {
                        html! { <p class="quiet">{ "Fix the highlighted inputs to see results." }</p> }
                    }) }
                    <AccuracyView />
                    <LessonsList />
                    <Glossary />
                    <ModelDocView />
                </section>
            </main>
            <footer>
                { "An analytical model after ParaDL (Kahira et al., HPDC 2021); everything runs in your browser." }
            </footer>
        </ContextProvider<AppContext>>
    }
}
