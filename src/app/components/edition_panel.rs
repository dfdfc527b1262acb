//! `#fidelity`: which edition of the model the page shows, and whether the
//! scaling plot draws the other edition's curves too.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::input_section::InputSection;

use super::AppContext;
use crate::app::state::Action;
use crate::oracle::Fidelity;

/// What each edition is, in one line.
fn explain(fidelity: Fidelity) -> &'static str {
    match fidelity {
        Fidelity::Ideal => {
            "ParaDL's published model (HPDC 2021), exactly: FLOP-shared compute, ring collectives, dedicated NICs, GPU-to-GPU halos."
        }
        Fidelity::Realistic => {
            "ParaDL's model plus what real clusters add, each from a fact of the cluster: memory-bound layers (roofline), profiles scaled to this GPU, tree or ring Allreduces, GPUs sharing a path to a NIC, halos staged through host memory."
        }
    }
}

/// The edition switch.
#[function_component(EditionPanel)]
pub fn edition_panel() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let chosen = state.run.fidelity;
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(fidelity) = Fidelity::from_name(&value) {
                state.dispatch(Action::SetFidelity(fidelity));
            }
        })
    };
    let ontoggle = {
        let state = state.clone();
        Callback::from(move |_: Event| state.dispatch(Action::ToggleCompareEditions))
    };
    let options = Fidelity::ALL.into_iter().map(|f| {
        html! { <option value={f.name()} selected={f == chosen}>{ f.label() }</option> }
    });
    html! {
        <InputSection heading="edition-heading" title="Model">
            <label for="fidelity">{ "Edition" }</label>
            <select id="fidelity" {onchange}>{ for options }</select>
            <p class="source">{ explain(chosen) }</p>
            <label class="check">
                <input type="checkbox" id="compare-editions" checked={state.run.compare_editions} onchange={ontoggle} />
                { format!("Also draw the {} edition's curves (thin, dashed)", chosen.other().name()) }
            </label>
        </InputSection>
    }
}
