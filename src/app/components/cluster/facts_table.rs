//! The realistic edition's facts of the cluster: each one optional (blank
//! leaves it out and turns its term off).

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::page::lazy_details::LazyDetails;
use crate::app::components::page::number_field::NumberField;
use crate::app::components::use_app;
use crate::app::input::cluster_fields::{FACTS, FactGroup};
use crate::app::input::keys::Key;
use crate::app::state::action::{Action, ClusterAction};
use crate::oracle::AllreduceAlgorithm;

/// The facts, in a collapsible group of the cluster panel.
#[function_component(FactsTable)]
pub fn facts_table() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let editor = &state.cluster;
    let fields = |group: FactGroup, placeholder: &'static str| {
        FACTS
            .iter()
            .filter(|fact| fact.group == Some(group))
            .map(|fact| {
                let key = fact.key();
                let oninput = state.callback(move |text| Action::Cluster(ClusterAction::Edit(key, text)));
                html! {
                    <NumberField id={fact.id} label={fact.label} unit={fact.unit} value={editor.field_text(fact)}
                        {placeholder} error={state.error(Key::Cluster(key)).map(AttrValue::from)} {oninput} />
                }
            })
            .collect::<Html>()
    };
    // a group with an error in it opens, so that the error is seen next to its field
    let wrong = |group: FactGroup| {
        FACTS
            .iter()
            .any(|fact| fact.group == Some(group) && state.error(Key::Cluster(fact.key())).is_some())
    };
    let chosen = editor.allreduce();
    let onchange = state.callback(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::Cluster(ClusterAction::Allreduce(AllreduceAlgorithm::from_name(&value)))
    });
    let options = AllreduceAlgorithm::ALL.into_iter().map(|a| {
        html! { <option value={a.name()} selected={chosen == Some(a)}>{ a.label() }</option> }
    });
    html! {
        <>
        <LazyDetails class="knobs" id="cluster-precision" open={wrong(FactGroup::Precision)}
            summary="GPU speed per precision (blank: as FP32)">
            <div class="params">{ fields(FactGroup::Precision, "as FP32") }</div>
        </LazyDetails>
        <LazyDetails class="knobs" id="cluster-facts" open={wrong(FactGroup::Realistic)}
            summary="Facts of the realistic edition (blank: not given, its term off)">
            <div class="params">{ fields(FactGroup::Realistic, "not given") }</div>
            <label for="cluster-allreduce">{ "Allreduce algorithm" }</label>
            <select id="cluster-allreduce" {onchange}>
                <option value="" selected={chosen.is_none()}>{ "not given (ring)" }</option>
                { for options }
            </select>
        </LazyDetails>
        <LazyDetails class="knobs" id="cluster-today" open={wrong(FactGroup::Today)}
            summary="Kernels, framework memory and NCCL (section 11; blank: not given, its term off)">
            <div class="params">{ fields(FactGroup::Today, "not given") }</div>
        </LazyDetails>
        <LazyDetails class="knobs" id="cluster-power" open={wrong(FactGroup::Power)}
            summary="Power (section 14; blank: not counted, or the datasheet's)">
            <div class="params">{ fields(FactGroup::Power, "not counted") }</div>
        </LazyDetails>
        </>
    }
}
