//! `#model-doc`: the model's contract, section by section (each
//! explanation opens the sections its number comes from), fetched when
//! first opened.

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use crate::app::components::page::shipped_text::{FetchLine, use_shipped};
use crate::app::reference::contract;
use crate::app::reference::shipped_files::Shipped;

/// The contract, folded.
#[function_component(ModelDocView)]
pub fn model_doc_view() -> Html {
    let open = use_state(|| false);
    let fetched = use_shipped(Shipped::ModelDoc, *open);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| open.set(e.target_unchecked_into::<HtmlDetailsElement>().open()))
    };
    let sections = fetched.text().map(contract::sections).unwrap_or_default();
    html! {
        <details id="model-doc" class="lessons" {ontoggle}>
            <summary><h3>{ "The model, section by section" }</h3></summary>
            <p class="quiet">{ "The contract every number of this page follows (ORACLE-MODEL.md): sections 1 to 6 are ParaDL's published model, 7 and 8 the realistic edition and its calibration, 9 to 13 this tool's extensions (11: today's machines; 12: a profile of your own; 13: time to train)." }</p>
            <FetchLine file={Shipped::ModelDoc} fetched={fetched.clone()} />
            { for sections.iter().map(|s| html! {
                <details class="model-section" id={format!("model-{}", s.number)} data-section={s.number.to_string()}>
                    <summary>{ format!("{}. {}", s.number, s.title) }</summary>
                    // a scrolling block is reached by the keyboard too (it may be wider than the page)
                    <pre tabindex="0" role="region" aria-label={format!("Section {}", s.number)}>{ s.body.to_string() }</pre>
                </details>
            }) }
        </details>
    }
}
