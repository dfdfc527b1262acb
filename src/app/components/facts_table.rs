//! The realistic edition's facts of the cluster: each one optional (blank
//! leaves it out and turns its term off).

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::AppContext;
use super::number_field::NumberField;
use crate::app::state::Action;
use crate::app::state::cluster_editor::{FACTS, FactGroup};
use crate::app::state::fields::{ClusterKey, Key};
use crate::oracle::AllreduceAlgorithm;

/// The facts, in a collapsible group of the cluster panel.
#[function_component(FactsTable)]
pub fn facts_table() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let editor = &state.cluster;
    let fields = |group: FactGroup, placeholder: &'static str| {
        FACTS
            .iter()
            .enumerate()
            .filter(|(_, fact)| fact.group == group)
            .map(|(index, fact)| {
                let key = ClusterKey::Fact(index);
                let oninput = {
                    let state = state.clone();
                    Callback::from(move |text: String| state.dispatch(Action::EditCluster(key, text)))
                };
                html! {
                    <NumberField id={fact.id} label={fact.label} unit={fact.unit} value={editor.fact_text(index)}
                        {placeholder} error={state.error(Key::Cluster(key)).map(AttrValue::from)} {oninput} />
                }
            })
            .collect::<Html>()
    };
    let chosen = editor.allreduce();
    let onchange = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            state.dispatch(Action::SetAllreduce(AllreduceAlgorithm::from_name(&value)));
        })
    };
    let options = AllreduceAlgorithm::ALL.into_iter().map(|a| {
        html! { <option value={a.name()} selected={chosen == Some(a)}>{ a.label() }</option> }
    });
    html! {
        <>
        <details class="knobs" id="cluster-precision">
            <summary>{ "GPU speed per precision (blank: as FP32)" }</summary>
            <div class="params">{ fields(FactGroup::Precision, "as FP32") }</div>
        </details>
        <details class="knobs" id="cluster-facts">
            <summary>{ "Facts of the realistic edition (blank: not given, its term off)" }</summary>
            <div class="params">{ fields(FactGroup::Realistic, "not given") }</div>
            <label for="cluster-allreduce">{ "Allreduce algorithm" }</label>
            <select id="cluster-allreduce" {onchange}>
                <option value="" selected={chosen.is_none()}>{ "not given (ring)" }</option>
                { for options }
            </select>
        </details>
        <details class="knobs" id="cluster-today">
            <summary>{ "Kernels, framework memory and NCCL (section 11; blank: not given, its term off)" }</summary>
            <div class="params">{ fields(FactGroup::Today, "not given") }</div>
        </details>
        </>
    }
}
