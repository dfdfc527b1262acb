//! `#model-doc`: the model's contract, shipped with the app, section by
//! section (each explanation opens the sections its number comes from).

use yew::prelude::*;

use crate::app::model_doc;

/// The contract, folded.
#[function_component(ModelDocView)]
pub fn model_doc_view() -> Html {
    html! {
        <details id="model-doc" class="lessons">
            <summary><h3>{ "The model, section by section" }</h3></summary>
            <p class="quiet">{ "The contract every number of this page follows (ORACLE-MODEL.md): sections 1 to 6 are ParaDL's published model, 7 and 8 the realistic edition and its calibration, 9 to 12 this tool's extensions (11: today's machines; 12: a profile of your own)." }</p>
            { for model_doc::sections().iter().map(|s| html! {
                <details class="model-section" id={format!("model-{}", s.number)} data-section={s.number.to_string()}>
                    <summary>{ format!("{}. {}", s.number, s.title) }</summary>
                    <pre>{ s.body }</pre>
                </details>
            }) }
        </details>
    }
}
