//! `#fallbacks`: the realistic edition's terms that fell back to an older
//! section because the cluster neither gives their facts nor names a GPU
//! this tool knows (a cluster file written by hand), and how to give them.

use yew::prelude::*;

use crate::app::components::AnswerProps;
use crate::oracle::{Edition, Fallback};

/// The note, in the realistic edition, when a term fell back.
#[function_component(FallbackNote)]
pub fn fallback_note(props: &AnswerProps) -> Html {
    if props.answer.results.edition != Edition::Realistic {
        return html! {};
    }
    let fallbacks = props.answer.scenario.cluster().fallbacks();
    if fallbacks.is_empty() {
        return html! {};
    }
    let items = fallbacks.iter().map(|f| html! { <li>{ f.to_string() }</li> });
    html! {
        <div id="fallbacks" class="fallbacks" role="note">
            <p><strong>{ "This cluster leaves terms of the realistic edition out:" }</strong></p>
            <ul>{ for items }</ul>
            <p class="remedy">{ format!("To bring them in, {}.", Fallback::remedy()) }</p>
        </div>
    }
}
