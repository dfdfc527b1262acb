//! `#calibration`: measured runs typed or pasted as CSV, the factors they
//! give and each run before and after; the calibration applies to the
//! ranking and to every plot.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::app::components::page::input_section::InputSection;

use crate::app::components::accuracy::calibration_table::CalibrationTable;
use crate::app::components::page::shipped_text::{FetchLine, Fetched};
use crate::app::components::page::term::Term;
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::app::reference::shipped_files::{self, Shipped};
use crate::app::state::action::{Action, RunAction};
use crate::oracle::formats::measured;
use crate::oracle::validation::{self, Tier};

#[function_component(CalibrationPanel)]
pub fn calibration_panel() -> Html {
    let fetched = use_state(|| Fetched::Idle);
    let Some(state) = use_app() else {
        return html! {};
    };
    let measure = |text: String| Action::Run(RunAction::Set(RunKey::Measured, text));
    let oninput =
        state.callback(move |e: InputEvent| measure(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    let errors: Vec<(usize, String)> = state
        .errors
        .iter()
        .filter_map(|(key, message)| match key {
            Key::Measured(line) => Some((*line, message.clone())),
            _ => None,
        })
        .collect();
    let answer = state.answer.clone();
    let model = answer
        .as_ref()
        .and_then(|a| a.question().model.preset().map(str::to_string));
    let on_abci = answer.as_ref().and_then(|a| a.question().cluster.preset()) == Some(validation::CLUSTER);
    // the runs are fetched when asked for, not carried by the page
    let measured_model = model.filter(|m| on_abci && validation::MODELS.contains(&m.as_str()));
    let onload = {
        let (state, fetched, model) = (state.clone(), fetched.clone(), measured_model.clone());
        Callback::from(move |_: MouseEvent| {
            let (state, fetched, model) = (state.clone(), fetched.clone(), model.clone().unwrap_or_default());
            fetched.set(Fetched::Loading);
            wasm_bindgen_futures::spawn_local(async move {
                match shipped_files::fetch(Shipped::MeasuredRuns).await {
                    Ok(text) => {
                        fetched.set(Fetched::Idle);
                        state.dispatch(measure(validation::measured_csv_in(&text, &model, Tier::Head)));
                    }
                    Err(e) => fetched.set(Fetched::Failed(e)),
                }
            });
        })
    };
    let onclear = state.send::<MouseEvent>(measure(String::new()));
    let typed = state.run.text(RunKey::Measured);
    let example = format!(
        "{}\ndata,8,512,,0.45,,\ndata+spatial,64,1024,4,0.25,0.2,0.05",
        measured::HEADER
    );
    let invalid = !errors.is_empty();
    html! {
        <InputSection id="calibration" heading="calibration-heading" title="Calibrate">
            <p class="source">{ "Measured runs of your cluster (seconds per " }<Term id="iteration" />{ ") make every projection match them (" }<Term id="calibration" />{ "): compute and communication are multiplied by factors " }<Term id="kappa" />{ " per strategy (the contract's section 8). Give the total, or compute and communication apart." }</p>
            <label for="calibration-input">{ "Measured runs (CSV)" }</label>
            <textarea id="calibration-input" rows="5" spellcheck="false" placeholder={example}
                aria-invalid={invalid.to_string()} value={typed.clone()} {oninput} />
            <div class="row">
                if measured_model.is_some() {
                    <button type="button" id="calibration-load" onclick={onload}>{ "Use the runs measured on ABCI for this model" }</button>
                }
                if !typed.is_empty() {
                    <button type="button" id="calibration-clear" onclick={onclear}>{ "Clear" }</button>
                }
            </div>
            <FetchLine file={Shipped::MeasuredRuns} fetched={(*fetched).clone()} />
            // fixed containers: yew matches unkeyed children from the end, so a child that
            // comes and goes at the end would make the text area a new element while typing
            <div class="calibration-errors">
                { for errors.iter().map(|(line, e)| html! {
                    <p class="error" role="alert" data-line={line.to_string()}>{ e }</p>
                }) }
                if invalid {
                    <p class="quiet">{ "The last valid calibration stays applied until this is fixed." }</p>
                }
            </div>
            <div class="calibration-output">
                if let Some(calibration) = answer.as_ref().and_then(|a| a.results.calibration.clone()) {
                    <CalibrationTable {calibration} error_lines={errors.iter().map(|e| e.0).collect::<Vec<_>>()} />
                }
            </div>
        </InputSection>
    }
}
