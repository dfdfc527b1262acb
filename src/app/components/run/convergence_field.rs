//! How long the run trains (contract, section 13): the network's own
//! convergence, a published curve, or a number of epochs.

use yew::prelude::*;

use crate::app::components::run::run_field::{KeyedChoice, keyed_choice};
use crate::app::components::use_app;
use crate::app::input::keys::RunKey;
use crate::app::input::source::ModelSource;
use crate::oracle::model::convergence::{CURVES, Convergence, DEFAULT_EPOCHS, curve};
use crate::oracle::presets;

/// The convergence choice: a select of the network's own, every curve and
/// "a number of epochs", with the epochs' field when chosen.
#[function_component(ConvergenceField)]
pub fn convergence_field() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let own = app
        .answer
        .as_ref()
        .and_then(|a| match &a.document.question.model {
            ModelSource::Preset(key) => presets::usual_convergence(key),
            _ => None,
        })
        .and_then(|(c, why)| match c {
            Convergence::Curve(key) => curve(&key).ok().map(|c| (c.name, why)),
            Convergence::Epochs(_) => None,
        });
    let choice = KeyedChoice {
        select_id: "convergence-curve".into(),
        default: own.map_or_else(
            || format!("the network's own: {DEFAULT_EPOCHS} epochs, assumed"),
            |(name, _)| format!("the network's own: {name}"),
        ),
        options: CURVES
            .iter()
            .map(|c| {
                let (from, to) = c.batch_range();
                (c.key.to_string(), format!("{} (batches {from} to {to})", c.name))
            })
            .collect(),
        figure_option: ("epochs", "a number of epochs, at every batch".into()),
        figure: DEFAULT_EPOCHS.to_string(),
        figure_label: "Epochs to train",
        figure_unit: "epochs",
        placeholder: DEFAULT_EPOCHS.to_string(),
    };
    let blank = app.run.text(RunKey::Convergence).trim().is_empty();
    html! {
        <div id="convergence-field">
            { keyed_choice(&app, RunKey::Convergence, choice) }
            if let (Some((_, why)), true) = (own, blank) {
                <p class="quiet">{ why }</p>
            }
        </div>
    }
}
