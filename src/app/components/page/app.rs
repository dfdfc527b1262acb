//! The page: inputs on the left, results on the right; the state lives in
//! the address and in local storage.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::AppContext;
use crate::app::components::accuracy::accuracy_view::AccuracyView;
use crate::app::components::accuracy::calibration_panel::CalibrationPanel;
use crate::app::components::cluster::cluster_panel::ClusterPanel;
use crate::app::components::lessons::lesson_box::LessonBox;
use crate::app::components::lessons::lessons_list::LessonsList;
use crate::app::components::network::linked_model::use_linked_model;
use crate::app::components::network::model_panel::ModelPanel;
use crate::app::components::page::after_first_frame::Later;
use crate::app::components::page::glossary::Glossary;
use crate::app::components::page::history::use_history;
use crate::app::components::page::model_doc_view::ModelDocView;
use crate::app::components::page::notice::Notice;
use crate::app::components::page::reading::use_reading;
use crate::app::components::page::share_bar::ShareBar;
use crate::app::components::results::results_view::ResultsView;
use crate::app::components::results::summary_bar::SummaryBar;
use crate::app::components::run::edition_panel::EditionPanel;
use crate::app::components::run::run_panel::RunPanel;
use crate::app::lessons;
use crate::app::page::boot::{boot, keep_notice};
use crate::app::page::browser;
use crate::app::state::AppState;
use crate::app::state::action::{Action, PageAction};

/// The performance mark set once results are on screen (read by the app
/// benchmark: its first entry is the time from navigation to a full render).
pub const FIRST_RENDER: &str = "paradl-rendered";

/// The id of the page's part under the results (the accuracy view, the
/// lessons, the glossary and the model's sections), drawn after the first
/// frame ([`Later`]).
pub const PAGE_LATER: &str = "page-later";

/// The ids of the network's and cluster's panels, and of the edition's and
/// calibration's, drawn after the first frame ([`Later`]: the run's panel,
/// where a visitor types the GPU count, comes first).
pub const INPUTS_NETWORK: &str = "inputs-network";
/// See [`INPUTS_NETWORK`].
pub const INPUTS_EDITION: &str = "inputs-edition";

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
    use_reading(state.clone());
    // history entries already in the address bar: several actions may reach
    // one render, so a new entry is pushed when the count grew
    let kept_entries = use_mut_ref(|| state.pushes);
    // a lesson stays in the address (and the shared link)
    let suffix = state
        .lesson
        .map(|l| lessons::suffix(l.lesson, l.predict))
        .unwrap_or_default();
    {
        let (state, suffix) = (state.clone(), suffix.clone());
        let lesson = state.lesson.map(|l| (l.lesson.id, l.predict));
        use_effect_with(
            (answer.as_ref().map(|a| Rc::clone(&a.stored)), lesson),
            move |(stored, _)| {
                if let (Some(stored), Some(answer)) = (stored, state.answer.as_ref()) {
                    let push = state.pushes > *kept_entries.borrow();
                    *kept_entries.borrow_mut() = state.pushes;
                    let kept = browser::keep(answer.link.as_deref(), &suffix, stored, push, state.position).is_ok();
                    if let Some(text) = keep_notice(answer.link.is_none(), kept)
                        && state.notice.as_deref() != Some(text.as_str())
                    {
                        state.dispatch(Action::Page(PageAction::Notify(text)));
                    }
                    browser::mark_once(FIRST_RENDER);
                }
            },
        );
    }
    let href = browser::address(
        answer.as_ref().and_then(|a| a.link.as_deref()).unwrap_or_default(),
        &suffix,
    );
    let ondismiss = {
        let state = state.clone();
        Callback::from(move |()| state.dispatch(Action::Page(PageAction::DismissNotice)))
    };
    // a value committed (a field left, Enter, a choice made): the next keystrokes are another entry
    let oncommit = {
        let state = state.clone();
        Callback::from(move |_: Event| state.dispatch(Action::Page(PageAction::EndEdit)))
    };
    let hidden = state.lesson.is_some_and(|l| l.hides_results());
    let plot = state.lesson.map(|l| l.lesson.plot);
    let results = state
        .answer
        .clone()
        .filter(|_| !hidden)
        .map(|answer| html! { <ResultsView {answer} first={plot} /> });
    html! {
        <ContextProvider<AppContext> context={state.clone()}>
            <header class="top">
                <div>
                    <h1>{ "ParaDL oracle" }</h1>
                    <p class="tagline">{ "How should this CNN be parallelised on that cluster, and what will it cost in time and memory?" }</p>
                </div>
                <ShareBar href={AttrValue::from(href)} undo={state.can_undo()} redo={state.can_redo()} />
            </header>
            <SummaryBar />
            <Notice message={state.notice.clone().map(AttrValue::from)} ondismiss={Some(ondismiss)} />
            <main class="layout">
                <aside class="inputs" onchange={oncommit}>
                    <Later id={INPUTS_NETWORK}>
                        <ModelPanel />
                        <ClusterPanel />
                    </Later>
                    <RunPanel />
                    <Later id={INPUTS_EDITION}>
                        <EditionPanel />
                        <CalibrationPanel />
                    </Later>
                </aside>
                <section class="outputs" aria-label="Results">
                    <LessonBox />
                    { results.unwrap_or_else(|| if hidden {
                        html! { <p class="quiet" id="hidden-results">{ "The results are hidden until you reveal them." }</p> }
                    } else {
                        html! { <p class="quiet">{ "Fix the highlighted inputs to see results." }</p> }
                    }) }
                    <Later id={PAGE_LATER}>
                        <AccuracyView />
                        <LessonsList />
                        <Glossary />
                        <ModelDocView />
                    </Later>
                </section>
            </main>
            <footer>
                { "An analytical model after ParaDL (Kahira et al., HPDC 2021); everything runs in your browser." }
            </footer>
        </ContextProvider<AppContext>>
    }
}
