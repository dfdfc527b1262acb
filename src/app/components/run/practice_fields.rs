//! How the run trains (contract, section 9): precision, optimizer, the
//! attention's form (section 15), ZeRO stage, activation recompute and
//! overlap of the gradient exchange.

use yew::prelude::*;

use crate::app::components::page::term::Term;
use crate::app::components::run::run_field::{RunFieldInput, run_choice, run_flag};
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::oracle::{AttentionForm, MAX_ZERO_STAGE, Optimizer, Precision};

/// The training-practice controls of the run panel.
#[function_component(PracticeFields)]
pub fn practice_fields() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let precisions = Precision::ALL
        .map(|p| (p.name().to_string(), p.label().to_string()))
        .to_vec();
    let optimizers = Optimizer::ALL
        .map(|o| (o.name().to_string(), o.label().to_string()))
        .to_vec();
    let forms = AttentionForm::ALL
        .map(|a| (a.name().to_string(), a.label().to_string()))
        .to_vec();
    let stages = (0..=MAX_ZERO_STAGE)
        .map(|z| {
            let text = match z {
                0 => "0 (none)".to_string(),
                1 => "1 (optimizer states)".into(),
                2 => "2 (+ gradients)".into(),
                _ => "3 (+ weights)".into(),
            };
            (z.to_string(), text)
        })
        .collect();
    html! {
        <details class="knobs" id="practice" open={true}>
            <summary>{ "Training practice" }</summary>
            <p class="quiet"><Term id="mixed-precision" />{ ", " }<Term id="zero" />{ ", " }<Term id="recompute" />{ " and " }<Term id="overlap" />{ " change the memory and the time of every strategy." }</p>
            { run_choice(&app, RunKey::Precision, precisions) }
            { run_choice(&app, RunKey::Optimizer, optimizers) }
            { run_choice(&app, RunKey::Attention, forms) }
            { run_choice(&app, RunKey::Zero, stages) }
            if let Some(e) = app.error(Key::Run(RunKey::Zero)) { <p class="error" role="alert">{ e }</p> }
            { run_flag(&app, RunKey::Recompute) }
            { run_flag(&app, RunKey::Overlap) }
            <RunFieldInput field={RunKey::BucketMib} />
        </details>
    }
}
