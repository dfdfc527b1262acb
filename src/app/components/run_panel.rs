//! The run: GPU budget, batch, strategies and the strategies' knobs.

use yew::prelude::*;

use super::input_section::InputSection;

use super::AppContext;
use super::number_field::NumberField;
use super::practice_fields::PracticeFields;
use super::strategy_picker::StrategyPicker;
use crate::app::state::Action;
use crate::app::state::fields::{Key, RunKey};
use crate::app::state::run_editor::BatchMode;

/// The run settings.
#[function_component(RunPanel)]
pub fn run_panel() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let run = &state.run;
    let error = |key: RunKey| state.error(Key::Run(key)).map(AttrValue::from);
    let send = |make: fn(String) -> Action| {
        let state = state.clone();
        Callback::from(move |text: String| state.dispatch(make(text)))
    };
    let mode = |mode: BatchMode| {
        let state = state.clone();
        Callback::from(move |_: Event| state.dispatch(Action::SetBatchMode(mode)))
    };
    let ontoggle = {
        let state = state.clone();
        Callback::from(move |s| state.dispatch(Action::ToggleStrategy(s)))
    };
    // the cluster as edited, not as loaded
    let per_node = state.cluster.gpus_per_node_text();
    html! {
        <InputSection heading="run-heading" title="Run">
            <NumberField id="gpus" label="GPU budget" unit="GPUs" value={run.gpus.clone()}
                error={error(RunKey::Gpus)} oninput={send(Action::SetGpus)} />
            <fieldset class="batch-mode">
                <legend>{ "Batch" }</legend>
                <label><input type="radio" name="batch-mode" checked={run.batch_mode == BatchMode::PerGpu}
                    onchange={mode(BatchMode::PerGpu)} />{ "per GPU (weak scaling)" }</label>
                <label><input type="radio" name="batch-mode" checked={run.batch_mode == BatchMode::Global}
                    onchange={mode(BatchMode::Global)} />{ "global mini-batch (strong scaling)" }</label>
            </fieldset>
            if run.batch_mode == BatchMode::PerGpu {
                <NumberField id="samples-per-gpu" label="Samples per GPU" unit="samples" value={run.per_gpu.clone()}
                    error={error(RunKey::SamplesPerGpu)} oninput={send(Action::SetSamplesPerGpu)} />
            } else {
                <NumberField id="mini-batch" label="Mini-batch" unit="samples" value={run.mini_batch.clone()}
                    error={error(RunKey::MiniBatch)} oninput={send(Action::SetMiniBatch)} />
            }
            <StrategyPicker chosen={run.strategies.clone()} {ontoggle} error={error(RunKey::Strategies)} />
            <PracticeFields />
            <details class="knobs">
                <summary>{ "Precision, pipeline and hybrids" }</summary>
                <NumberField id="bytes-per-item" label="Bytes per item" unit="B" value={run.bytes_per_item.clone()}
                    error={error(RunKey::BytesPerItem)} oninput={send(Action::SetBytesPerItem)} />
                <NumberField id="segments" label="Pipeline segments" unit="micro-batches" value={run.segments.clone()}
                    placeholder="= GPUs" error={error(RunKey::Segments)} oninput={send(Action::SetSegments)} />
                <NumberField id="group-size" label="Hybrid group size" unit="GPUs" value={run.group_size.clone()}
                    placeholder={format!("= GPUs per node ({per_node})")} error={error(RunKey::GroupSize)}
                    oninput={send(Action::SetGroupSize)} />
            </details>
        </InputSection>
    }
}
