//! `#bar-inputs`: the network and cluster shown in the summary bar, whose
//! names open the inputs that decide the answer (network, cluster,
//! samples per GPU, precision), one tap away from the
//! results wherever they are scrolled; the panels below keep every other
//! input. Each sends the action its panel's input sends.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::components::page::preset_options::{cluster_options, network_options};
use crate::app::components::run::run_field::rank_orders;
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::app::state::action::{Action, ClusterAction, ModelAction, RunAction};
use crate::oracle::Precision;

/// A select's chosen value.
fn chosen(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// The bar's inputs, folded under one summary.
#[function_component(BarInputs)]
pub fn bar_inputs() -> Html {
    let Some(app) = use_app() else { return html! {} };
    let Some(answer) = app.answer.clone() else {
        return html! {};
    };
    let question = answer.question();
    let model = question.model.preset().map(str::to_string);
    let cluster = question.cluster.preset().map(str::to_string);
    let onmodel = app.callback(|e: Event| Action::Model(ModelAction::Pick(chosen(&e))));
    let oncluster = app.callback(|e: Event| Action::Cluster(ClusterAction::Pick(chosen(&e))));
    let onprecision = app.callback(|e: Event| Action::Run(RunAction::Set(RunKey::Precision, chosen(&e))));
    let per_gpu = app.run.per_gpu();
    let batch_key = if per_gpu {
        RunKey::SamplesPerGpu
    } else {
        RunKey::MiniBatch
    };
    let onbatch = app.callback(move |e: InputEvent| {
        Action::Run(RunAction::Set(
            batch_key,
            e.target_unchecked_into::<HtmlInputElement>().value(),
        ))
    });
    let precision = app.run.text(RunKey::Precision);
    let rank_by = app.run.text(RunKey::RankBy);
    let onrank = app.callback(|e: Event| Action::Run(RunAction::Set(RunKey::RankBy, chosen(&e))));
    let batch_error = app.error(Key::Run(batch_key)).is_some();
    html! {
        <details id="bar-inputs" class="bar-inputs">
            // the names are the toggle: no line of the bar is spent on it (a projector's bar shows "Inputs")
            <summary title="Change the network, the cluster, the batch, the precision or what is best">
                <span class="about">
                    <strong>{ answer.scenario.network().name() }</strong>{ " on " }
                    <strong>{ answer.scenario.cluster().name() }</strong>
                </span>
                <span class="short">{ "Inputs" }</span>
            </summary>
            <div class="bar-panel">
                <label>{ "Network" }
                    <select id="bar-model" onchange={onmodel}>
                        { network_options(model.as_deref()) }
                        if model.is_none() { <option value="" selected=true disabled=true>{ answer.scenario.network().name() }</option> }
                    </select>
                </label>
                <label>{ "Cluster" }
                    <select id="bar-cluster" onchange={oncluster}>
                        { cluster_options(cluster.as_deref()) }
                        if cluster.is_none() { <option value="" selected=true disabled=true>{ answer.scenario.cluster().name() }</option> }
                    </select>
                </label>
                <label>{ if per_gpu { "Samples per GPU" } else { "Mini-batch" } }
                    <input id="bar-batch" type="text" inputmode="decimal" size="5" value={app.run.text(batch_key)}
                        aria-invalid={batch_error.to_string()} oninput={onbatch} />
                </label>
                <label>{ "Precision" }
                    <select id="bar-precision" onchange={onprecision}>
                        { for Precision::ALL.iter().map(|p| html! {
                            <option value={p.name()} selected={precision == p.name()}>{ p.label() }</option>
                        }) }
                    </select>
                </label>
                <label>{ "Best by" }
                    <select id="bar-rank-by" onchange={onrank}>
                        { for rank_orders().into_iter().map(|(name, label)| html! {
                            <option value={name.clone()} selected={rank_by == name}>{ label }</option>
                        }) }
                    </select>
                </label>
                <a href="#node-builder" class="bar-more">{ "Another GPU, every other input" }</a>
            </div>
        </details>
    }
}
