//! How the run trains (contract, section 9): precision, optimizer, ZeRO
//! stage, activation recompute and overlap of the gradient exchange.

use yew::prelude::*;

use super::AppContext;
use super::number_field::NumberField;
use super::select_field::select;
use crate::app::state::Action;
use crate::app::state::fields::{Key, RunKey};
use crate::oracle::{MAX_ZERO_STAGE, Optimizer, Precision};

/// The training-practice controls of the run panel.
#[function_component(PracticeFields)]
pub fn practice_fields() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let run = &state.run;
    let dispatch = |make: fn(bool) -> Action| {
        let state = state.clone();
        Callback::from(move |_: Event| state.dispatch(make(true)))
    };
    let onprecision = {
        let state = state.clone();
        Callback::from(move |p| state.dispatch(Action::SetPrecision(p)))
    };
    let onoptimizer = {
        let state = state.clone();
        Callback::from(move |o| state.dispatch(Action::SetOptimizer(o)))
    };
    let onzero = {
        let state = state.clone();
        Callback::from(move |z| state.dispatch(Action::SetZero(z)))
    };
    let onbucket = {
        let state = state.clone();
        Callback::from(move |t: String| state.dispatch(Action::SetBucketMib(t)))
    };
    let precisions = Precision::ALL
        .map(|p| (p, p.name().to_string(), p.label().to_string()))
        .to_vec();
    let optimizers = Optimizer::ALL
        .map(|o| (o, o.name().to_string(), o.label().to_string()))
        .to_vec();
    let stages = (0..=MAX_ZERO_STAGE)
        .map(|z| {
            let text = match z {
                0 => "0 (none)".to_string(),
                1 => "1 (optimizer states)".into(),
                2 => "2 (+ gradients)".into(),
                _ => "3 (+ weights)".into(),
            };
            (z, z.to_string(), text)
        })
        .collect();
    html! {
        <details class="knobs" id="practice" open={true}>
            <summary>{ "Training practice" }</summary>
            { select("precision", "Precision", precisions, run.precision, onprecision) }
            { select("optimizer", "Optimizer (its state in memory)", optimizers, run.optimizer, onoptimizer) }
            { select("zero", "ZeRO stage (data-parallel strategies)", stages, run.zero, onzero) }
            if let Some(e) = state.error(Key::Run(RunKey::Zero)) { <p class="error" role="alert">{ e }</p> }
            <label class="check"><input type="checkbox" id="recompute" checked={run.recompute}
                onchange={dispatch(|_| Action::ToggleRecompute)} />{ "Recompute activations (checkpoint every √layers)" }</label>
            <label class="check"><input type="checkbox" id="overlap" checked={run.overlap}
                onchange={dispatch(|_| Action::ToggleOverlap)} />{ "Overlap the gradient exchange with the backward pass" }</label>
            <NumberField id="bucket-mib" label="Gradient bucket" unit="MiB" value={run.bucket_mib.clone()}
                error={state.error(Key::Run(RunKey::BucketMib)).map(AttrValue::from)} oninput={onbucket} />
        </details>
    }
}
