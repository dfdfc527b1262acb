//! How long the run trains (contract, section 13): the network's own
//! convergence, a published curve, or a number of epochs.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::page::number_field::NumberField;
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::app::input::run_fields;
use crate::app::input::source::ModelSource;
use crate::app::state::action::{Action, RunAction};
use crate::oracle::model::convergence::{CURVES, Convergence, DEFAULT_EPOCHS, curve};
use crate::oracle::presets;

/// The select's value for epochs typed in.
const EPOCHS: &str = "epochs";

/// The convergence choice: a select of the network's own, every curve and
/// "a number of epochs", with the epochs' field when chosen.
#[function_component(ConvergenceField)]
pub fn convergence_field() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let text = app.run.text(RunKey::Convergence);
    let chosen = match text.trim() {
        "" => String::new(),
        t if CURVES.iter().any(|c| c.key == t) => t.to_string(),
        _ => EPOCHS.to_string(),
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
    let own_label = own.map_or_else(
        || format!("the network's own: {DEFAULT_EPOCHS} epochs, assumed"),
        |(name, _)| format!("the network's own: {name}"),
    );
    let onchange = app.callback(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let text = if value == EPOCHS {
            DEFAULT_EPOCHS.to_string()
        } else {
            value
        };
        Action::Run(RunAction::Set(RunKey::Convergence, text))
    });
    let field = run_fields::field(RunKey::Convergence);
    let option = |value: &str, label: String| {
        html! { <option value={value.to_string()} selected={chosen == value}>{ label }</option> }
    };
    html! {
        <div class="field" id="convergence-field">
            <label for="convergence-curve">{ field.label }</label>
            <select id="convergence-curve" title={field.help} {onchange}>
                { option("", own_label) }
                { for CURVES.iter().map(|c| option(c.key, format!("{} (batches {} to {})", c.name, c.batch_range().0, c.batch_range().1))) }
                { option(EPOCHS, "a number of epochs, at every batch".into()) }
            </select>
            if chosen == EPOCHS {
                <NumberField id={field.id} label="Epochs to train" unit="epochs" value={text.clone()}
                    placeholder={DEFAULT_EPOCHS.to_string()} error={app.error(Key::Run(RunKey::Convergence)).map(AttrValue::from)}
                    oninput={app.callback(|text| Action::Run(RunAction::Set(RunKey::Convergence, text)))} />
            } else if let Some(e) = app.error(Key::Run(RunKey::Convergence)) {
                <p class="error" role="alert">{ e }</p>
            }
            if let (Some((_, why)), "") = (own, chosen.as_str()) {
                <p class="quiet">{ why }</p>
            }
        </div>
    }
}
