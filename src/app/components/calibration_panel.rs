//! `#calibration`: measured runs typed or pasted as CSV, the factors they
//! give and each run before and after; the calibration applies to the
//! ranking and to every plot.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::input_section::InputSection;

use super::AppContext;
use super::calibration_table::CalibrationTable;
use crate::app::state::Action;
use crate::app::state::fields::Key;
use crate::oracle::MeasuredRun;
use crate::oracle::formats::measured;
use crate::oracle::validation::{self, Tier};

/// The shipped runs measured on ABCI for a model preset, as measured-run
/// CSV (empty when there are none).
pub fn shipped_runs(model: &str) -> String {
    let Ok(selected) = validation::runs() else {
        return String::new();
    };
    let runs: Vec<MeasuredRun> = selected
        .runs
        .iter()
        .filter(|r| r.model == model && Tier::Head.admits(&r.tier))
        .map(|r| MeasuredRun {
            strategy: r.strategy,
            gpus: r.gpus,
            mini_batch: r.mini_batch,
            group: None,
            iteration_s: r.measured_s,
            compute_s: None,
            communication_s: None,
        })
        .collect();
    if runs.is_empty() {
        String::new()
    } else {
        measured::write(&runs)
    }
}

/// The calibration panel.
#[function_component(CalibrationPanel)]
pub fn calibration_panel() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let oninput = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            state.dispatch(Action::SetMeasured(
                e.target_unchecked_into::<HtmlTextAreaElement>().value(),
            ))
        })
    };
    let errors: Vec<(usize, String)> = state
        .errors
        .iter()
        .filter_map(|(key, message)| match key {
            Key::Measured(line) => Some((*line, message.clone())),
            _ => None,
        })
        .collect();
    let view = state.view.clone();
    let model = view.as_ref().and_then(|v| v.inputs.model_preset().map(str::to_string));
    let on_abci = view.as_ref().and_then(|v| v.inputs.cluster_preset()) == Some(validation::CLUSTER);
    let shipped = model
        .as_deref()
        .filter(|_| on_abci)
        .map(shipped_runs)
        .unwrap_or_default();
    let onload = {
        let state = state.clone();
        let shipped = shipped.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::SetMeasured(shipped.clone())))
    };
    let onclear = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::SetMeasured(String::new())))
    };
    let example = format!(
        "{}\ndata,8,512,,0.45,,\ndata+spatial,64,1024,4,0.25,0.2,0.05",
        measured::HEADER
    );
    let invalid = !errors.is_empty();
    html! {
        <InputSection id="calibration" heading="calibration-heading" title="Calibrate">
            <p class="source">{ "Measured runs of your cluster (seconds per iteration) make every projection match them: compute and communication are multiplied by factors per strategy (the contract's section 8). Give the total, or compute and communication apart." }</p>
            <label for="calibration-input">{ "Measured runs (CSV)" }</label>
            <textarea id="calibration-input" rows="5" spellcheck="false" placeholder={example}
                aria-invalid={invalid.to_string()} value={state.run.measured.clone()} {oninput} />
            <div class="row">
                if !shipped.is_empty() {
                    <button type="button" id="calibration-load" onclick={onload}>{ "Use the runs measured on ABCI for this model" }</button>
                }
                if !state.run.measured.is_empty() {
                    <button type="button" id="calibration-clear" onclick={onclear}>{ "Clear" }</button>
                }
            </div>
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
                if let Some(calibration) = view.as_ref().and_then(|v| v.results.calibration.clone()) {
                    <CalibrationTable {calibration} error_lines={errors.iter().map(|e| e.0).collect::<Vec<_>>()} />
                }
            </div>
        </InputSection>
    }
}
