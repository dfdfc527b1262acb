//! The file the reducer waits on goes to the worker, its reply back to the
//! reducer; and the line that says a file is being read.

use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::reader::client;
use crate::app::state::AppState;
use crate::app::state::action::{Action, ModelAction};

/// Hands each new pending read to a worker; a newer read, or none,
/// terminates the worker of the last one.
#[hook]
pub fn use_reading(state: UseReducerHandle<AppState>) {
    let pending = state.reading.clone();
    let dispatcher = state.dispatcher();
    use_effect_with(pending.as_ref().map(|p| p.request.id), move |_| {
        let thread = pending.and_then(|p| {
            client::spawn(&p.request, &p.bytes, move |reply| {
                dispatcher.dispatch(Action::Model(ModelAction::Read(reply)));
            })
        });
        move || drop(thread)
    });
}

/// "Reading NAME…" while a file is in the worker.
#[function_component(ReadingLine)]
pub fn reading_line() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    match &state.reading {
        Some(pending) => html! {
            <p class="quiet" role="status" id="reading">
                { format!("Reading {}… (the importers load in the background the first time)", pending.request.name) }
            </p>
        },
        None => html! {},
    }
}
