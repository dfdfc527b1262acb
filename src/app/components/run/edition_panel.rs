//! `#fidelity` (the edition select): which edition of the model the page shows, and whether the
//! scaling plot draws the other edition's curves too.

use yew::prelude::*;

use crate::app::components::page::input_section::InputSection;
use crate::app::components::page::term::Term;
use crate::app::components::run::run_field::run_choice;
use crate::app::components::use_app;
use crate::app::input::keys::RunKey;
use crate::app::state::action::{Action, ViewAction};
use crate::oracle::Edition;

/// What each edition is, in one line.
fn explain(edition: Edition) -> &'static str {
    match edition {
        Edition::Ideal => {
            "ParaDL's published model (HPDC 2021), exactly: FLOP-shared compute, ring collectives, dedicated NICs, GPU-to-GPU halos."
        }
        Edition::Realistic => {
            "ParaDL's model plus what real clusters add, each from a fact of the cluster: memory-bound layers (roofline), profiles scaled to this GPU, tree or ring Allreduces, GPUs sharing a path to a NIC, halos staged through host memory."
        }
    }
}

/// The edition switch.
#[function_component(EditionPanel)]
pub fn edition_panel() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let chosen = Edition::from_name(&app.run.text(RunKey::Edition)).unwrap_or_default();
    let compare = app.view.compare_editions;
    let ontoggle = app.send(Action::View(ViewAction::CompareEditions(!compare)));
    let options = Edition::ALL
        .map(|f| (f.name().to_string(), f.label().to_string()))
        .to_vec();
    html! {
        <InputSection heading="edition-heading" title="Model">
            { run_choice(&app, RunKey::Edition, options) }
            <p class="source">{ explain(chosen) }</p>
            <p class="quiet">{ "See the " }<Term id="ideal-edition" />{ ", the " }<Term id="realistic-edition" />{ " and its " }<Term id="realistic-terms" />{ " (the " }<Term id="roofline" />{ " among them)." }</p>
            <label class="check">
                <input type="checkbox" id="compare-editions" checked={compare} onchange={ontoggle} />
                { format!("Also draw the {} edition's curves (thin, dashed)", chosen.other().name()) }
            </label>
        </InputSection>
    }
}
