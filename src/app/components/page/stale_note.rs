//! `#stale`: while an input is invalid, the results shown are the last
//! valid ones; this says so, and for which budget.

use yew::prelude::*;

use crate::app::components::use_app;

/// The note above the results, shown only while some input is invalid.
#[function_component(StaleNote)]
pub fn stale_note() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let (Some(answer), false) = (state.answer.as_ref(), state.errors.is_empty()) else {
        return html! {};
    };
    let fields = state.errors.len();
    let what = if fields == 1 {
        "the highlighted input".to_string()
    } else {
        format!("the {fields} highlighted inputs")
    };
    html! {
        <p id="stale" class="stale" role="status">
            { format!("Results for {} GPUs, from the last valid inputs: fix {what} to update them.", answer.question().gpus()) }
        </p>
    }
}
