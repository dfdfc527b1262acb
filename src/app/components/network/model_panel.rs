//! The network: a preset or an import, the dataset size, and the layers.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::page::input_section::InputSection;

use crate::app::components::network::layer_table::LayerTable;
use crate::app::components::network::model_import::ModelImport;
use crate::app::components::network::profile_drop::ProfileDrop;
use crate::app::components::network::profile_note::ProfileNote;
use crate::app::components::page::number_field::NumberField;
use crate::app::components::page::preset_options::network_options;
use crate::app::components::page::reading::ReadingLine;
use crate::app::components::use_app;
use crate::app::input::keys::Key;
use crate::app::state::action::{Action, ModelAction, RunAction};
use crate::oracle::presets;

/// The network settings.
#[function_component(ModelPanel)]
pub fn model_panel() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let current = state
        .answer
        .as_ref()
        .and_then(|a| a.question().model.preset().map(str::to_string));
    let onchange = state.callback(|e: Event| {
        Action::Model(ModelAction::Pick(
            e.target_unchecked_into::<HtmlSelectElement>().value(),
        ))
    });
    // errors of the network as a whole (cells and the size show their own)
    let other_errors: Vec<String> = [Key::Network, Key::SampleShape]
        .into_iter()
        .filter_map(|k| state.error(k).map(str::to_string))
        .collect();
    let onsamples = state.callback(|t: String| Action::Model(ModelAction::Samples(t)));
    let origin = match (&current, &state.model.preset) {
        (Some(key), _) => presets::network_preset(key)
            .map(|p| p.origin.to_string())
            .unwrap_or_default(),
        (None, Some(key)) => format!("Edited from the {key} preset."),
        (None, None) => "Imported or entered by you.".into(),
    };
    // a preset's usual run, offered again once the batch was changed away from it
    let usual = state
        .answer
        .as_ref()
        .and_then(|a| a.question().unusual_preset())
        .map(|p| (p.title, p.usual_samples_per_gpu))
        .map(|(title, (samples, why))| {
            let onclick = state.send::<MouseEvent>(Action::Run(RunAction::Usual(samples)));
            html! {
                <p class="usual">
                    { format!("{why}. ") }
                    <button type="button" id="usual-run" {onclick}>{ format!("Train {title} with {samples} samples per GPU") }</button>
                </p>
            }
        });
    html! {
        <InputSection heading="model-heading" title="Network">
            <label for="model">{ "Preset" }</label>
            <select id="model" {onchange}>
                { network_options(current.as_deref()) }
                if current.is_none() { <option value="" selected=true disabled=true>{ format!("custom: {}", state.model.base().name) }</option> }
            </select>
            <p class="source">{ origin }</p>
            { for usual }
            if let Some(answer) = state.answer.clone() { <ProfileNote {answer} /> }
            <ProfileDrop />
            <ReadingLine />
            <NumberField id="dataset-samples" label="Dataset size" unit="samples"
                value={state.model.text(Key::Samples)} error={state.error(Key::Samples).map(AttrValue::from)} oninput={onsamples} />
            <p class="source" id="dataset-name">{ format!("Dataset: {}", state.model.base().dataset.name) }</p>
            { for other_errors.iter().map(|e| html! { <p class="error" role="alert">{ e }</p> }) }
            <ModelImport />
            <LayerTable />
        </InputSection>
    }
}
