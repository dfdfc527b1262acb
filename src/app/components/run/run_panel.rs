//! The run: GPU budget, batch, strategies and the strategies' knobs.

use yew::prelude::*;

use crate::app::components::page::input_section::InputSection;
use crate::app::components::page::term::Term;
use crate::app::components::run::convergence_field::ConvergenceField;
use crate::app::components::run::costs_fields::CostsFields;
use crate::app::components::run::practice_fields::PracticeFields;
use crate::app::components::run::run_field::{RunFieldInput, rank_orders, run_choice};
use crate::app::components::run::strategy_picker::StrategyPicker;
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::app::input::run_fields::{GLOBAL, PER_GPU};
use crate::app::state::action::{Action, RunAction};

/// The run settings.
#[function_component(RunPanel)]
pub fn run_panel() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let per_gpu = app.run.per_gpu();
    let mode = |mode: &'static str| app.send::<Event>(Action::Run(RunAction::Set(RunKey::BatchMode, mode.into())));
    let ontoggle = {
        let run = app.run.clone();
        app.callback(move |s| Action::Run(RunAction::Set(RunKey::Strategies, run.toggled(s))))
    };
    let chosen: Vec<_> = app
        .run
        .text(RunKey::Strategies)
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    // the cluster as edited, not as loaded
    let per_node = app.cluster.gpus_per_node_text();
    html! {
        <InputSection heading="run-heading" title="Run">
            <RunFieldInput field={RunKey::Gpus} />
            <fieldset class="batch-mode">
                <legend>{ "Batch" }</legend>
                <label><input type="radio" name="batch-mode" checked={per_gpu}
                    onchange={mode(PER_GPU)} />{ "per GPU (" }<Term id="weak-scaling" />{ ")" }</label>
                <label><input type="radio" name="batch-mode" checked={!per_gpu}
                    onchange={mode(GLOBAL)} />{ "global " }<Term id="mini-batch" />{ " (" }<Term id="strong-scaling" />{ ")" }</label>
            </fieldset>
            if per_gpu {
                <RunFieldInput field={RunKey::SamplesPerGpu} />
            } else {
                <RunFieldInput field={RunKey::MiniBatch} />
            }
            <ConvergenceField />
            { run_choice(&app, RunKey::RankBy, rank_orders()) }
            <StrategyPicker {chosen} {ontoggle} error={app.error(Key::Run(RunKey::Strategies)).map(AttrValue::from)} />
            <PracticeFields />
            <details class="knobs">
                <summary>{ "Precision, pipeline and hybrids" }</summary>
                <p class="quiet">{ "A pipeline's " }<Term id="segments" />{ "; a hybrid's " }<Term id="group" />{ "." }</p>
                <RunFieldInput field={RunKey::BytesPerItem} />
                <RunFieldInput field={RunKey::Segments} placeholder="= GPUs" />
                <RunFieldInput field={RunKey::GroupSize} placeholder={format!("= GPUs per node ({per_node})")} />
            </details>
            <CostsFields />
        </InputSection>
    }
}
