//! The cluster: a preset, every parameter of the model with its unit, and
//! where the numbers come from.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::page::input_section::InputSection;

use crate::app::components::cluster::facts_table::FactsTable;
use crate::app::components::cluster::level_table::LevelTable;
use crate::app::components::cluster::node_builder::NodeBuilder;
use crate::app::components::page::number_field::NumberField;
use crate::app::components::page::preset_options::cluster_options;
use crate::app::components::use_app;
use crate::app::input::cluster_fields::PARAMS;
use crate::app::input::keys::{ClusterKey, Key};
use crate::app::state::action::{Action, ClusterAction};
use crate::oracle::presets;

/// The cluster settings.
#[function_component(ClusterPanel)]
pub fn cluster_panel() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let editor = &state.cluster;
    let current = state
        .answer
        .as_ref()
        .and_then(|a| a.question().cluster.preset().map(str::to_string));
    let onchange = state.callback(|e: Event| {
        Action::Cluster(ClusterAction::Pick(
            e.target_unchecked_into::<HtmlSelectElement>().value(),
        ))
    });
    let params = PARAMS.iter().map(|param| {
        let key = param.key();
        let oninput = state.callback(move |text| Action::Cluster(ClusterAction::Edit(key, text)));
        html! {
            <NumberField id={param.id} label={param.label}
                unit={param.unit} value={editor.field_text(param)}
                error={state.error(Key::Cluster(key)).map(AttrValue::from)} {oninput} />
        }
    });
    let whole = state.error(Key::Cluster(ClusterKey::Whole)).map(str::to_string);
    // an edited preset: its sources no longer vouch for every number
    let title = editor.preset.as_deref().and_then(|k| {
        presets::cluster_preset(k)
            .map(|p| p.title.to_string())
            .ok()
            .or_else(|| presets::node::Node::parse(k).ok().map(|n| n.title()))
    });
    let source = match (&current, title) {
        (None, Some(title)) => html! {
            <p class="source" id="cluster-source">
                <strong>{ format!("Edited from {title}. ") }</strong>
                { "The values you changed are yours; the preset's sources cover only the ones left as they were." }
            </p>
        },
        _ => html! { <p class="source" id="cluster-source">{ &editor.base().source }</p> },
    };
    html! {
        <InputSection heading="cluster-heading" title="Cluster">
            <label for="cluster">{ "Preset" }</label>
            <select id="cluster" {onchange}>
                { cluster_options(current.as_deref()) }
                if current.is_none() { <option value="" selected=true disabled=true>{ "custom (edited)" }</option> }
            </select>
            <NodeBuilder />
            { source }
            <div class="params">{ for params }</div>
            if let Some(e) = whole { <p class="error" role="alert">{ e }</p> }
            <LevelTable />
            <FactsTable />
        </InputSection>
    }
}
