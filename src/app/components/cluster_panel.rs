//! The cluster: a preset, every parameter of the model with its unit, and
//! where the numbers come from.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::input_section::InputSection;

use super::AppContext;
use super::facts_table::FactsTable;
use super::level_table::LevelTable;
use super::number_field::NumberField;
use crate::app::state::Action;
use crate::app::state::cluster_editor::PARAMS;
use crate::app::state::fields::{ClusterKey, Key};
use crate::oracle::presets;

/// The cluster settings.
#[function_component(ClusterPanel)]
pub fn cluster_panel() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let editor = &state.cluster;
    let current = state
        .view
        .as_ref()
        .and_then(|v| v.inputs.cluster_preset().map(str::to_string));
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            state.dispatch(Action::PickCluster(
                e.target_unchecked_into::<HtmlSelectElement>().value(),
            ))
        })
    };
    let options = presets::CLUSTERS.iter().map(|p| {
        html! { <option value={p.key} selected={current.as_deref() == Some(p.key)}>{ p.title }</option> }
    });
    let params = PARAMS.iter().enumerate().map(|(index, param)| {
        let key = ClusterKey::Param(index);
        let oninput = {
            let state = state.clone();
            Callback::from(move |text: String| state.dispatch(Action::EditCluster(key, text)))
        };
        html! {
            <NumberField id={param.id} label={param.label}
                unit={param.unit} value={editor.param_text(index)}
                error={state.error(Key::Cluster(key)).map(AttrValue::from)} {oninput} />
        }
    });
    let whole = state.error(Key::Cluster(ClusterKey::Whole)).map(str::to_string);
    // an edited preset: its sources no longer vouch for every number
    let source = match (
        &current,
        editor.preset.as_deref().and_then(|k| presets::cluster_preset(k).ok()),
    ) {
        (None, Some(preset)) => html! {
            <p class="source" id="cluster-source">
                <strong>{ format!("Edited from {}. ", preset.title) }</strong>
                { "The values you changed are yours; the preset's sources cover only the ones left as they were." }
            </p>
        },
        _ => html! { <p class="source" id="cluster-source">{ &editor.base.source }</p> },
    };
    html! {
        <InputSection heading="cluster-heading" title="Cluster">
            <label for="cluster">{ "Preset" }</label>
            <select id="cluster" {onchange}>
                { for options }
                if current.is_none() { <option value="" selected=true disabled=true>{ "custom (edited)" }</option> }
            </select>
            { source }
            <div class="params">{ for params }</div>
            if let Some(e) = whole { <p class="error" role="alert">{ e }</p> }
            <LevelTable />
            <FactsTable />
        </InputSection>
    }
}
