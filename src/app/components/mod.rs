//! The Yew components, one per file, in a folder per panel of the page
//! (page, network, cluster, run, results, plots, planner, accuracy,
//! lessons). Panels read the app state from the
//! context ([`AppContext`]); leaf components take plain props.

pub mod accuracy;
pub mod cluster;
pub mod lessons;
pub mod network;
pub mod page;
pub mod planner;
pub mod plots;
pub mod results;
pub mod run;

use std::ops::Deref;
use std::rc::Rc;

use yew::{Callback, UseReducerHandle, hook, use_context};

use crate::app::state::action::Action;
use crate::app::state::{Answer, AppState};

/// The app state and its dispatcher, shared with every panel.
pub type AppContext = UseReducerHandle<AppState>;

/// The app as a component sees it: the state, and callbacks that turn
/// what happened into an action (as yew's todomvc `make_callback`).
#[derive(Clone, PartialEq)]
pub struct AppHandle(AppContext);

impl Deref for AppHandle {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.0
    }
}

impl AppHandle {
    /// Sends an action.
    pub fn dispatch(&self, action: Action) {
        self.0.dispatch(action);
    }

    /// A callback that sends the action `make` builds from its input.
    pub fn callback<IN: 'static>(&self, make: impl Fn(IN) -> Action + 'static) -> Callback<IN> {
        let state = self.0.clone();
        Callback::from(move |input| state.dispatch(make(input)))
    }

    /// A callback that sends `action`, whatever its input.
    pub fn send<IN: 'static>(&self, action: Action) -> Callback<IN> {
        self.callback(move |_| action.clone())
    }
}

/// The app, for a panel: `None` outside the app (a component mounted
/// alone renders nothing).
#[hook]
pub fn use_app() -> Option<AppHandle> {
    use_context::<AppContext>().map(AppHandle)
}

/// Props of the components that show an answer.
#[derive(yew::Properties, Clone, Debug)]
pub struct AnswerProps {
    pub answer: Rc<Answer>,
}

/// The caption of an answer's exported plot: what it shows (the plot, the
/// network on the cluster, the budget, the batch, the edition) and the
/// link that reproduces it.
pub fn caption(answer: &Answer, plot: &str) -> Rc<Vec<String>> {
    let run = &answer.question().run;
    let batch = match run.batch {
        crate::oracle::Batch::SamplesPerGpu(b) => format!("{} per GPU", crate::oracle::units::count_of(b, 6, "sample")),
        crate::oracle::Batch::MiniBatch(b) => format!("mini-batch {b}"),
    };
    let link = answer.link.as_deref().map_or_else(
        || "(too large for a link: download the network to share it)".to_string(),
        crate::app::page::browser::share_url,
    );
    Rc::new(vec![
        format!(
            "{plot}: {} on {}, {} GPUs, {batch}, {} edition",
            answer.scenario.network().name(),
            answer.scenario.cluster().name(),
            run.gpus,
            run.edition.name()
        ),
        format!("ParaDL oracle · {link}"),
    ])
}

/// An `Rc` compared by pointer: a memo keyed on it recomputes only when
/// the value is another one (results shared by every view of a question).
#[derive(Debug)]
pub struct Same<T>(pub Rc<T>);

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Self(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl PartialEq for AnswerProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.answer, &other.answer)
    }
}
