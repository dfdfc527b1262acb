//! One run setting's input, from its row of the run's field table: its id,
//! label, unit and help, the text the run editor shows, its error, and the
//! action it sends.

use yew::prelude::*;

use crate::app::components::page::number_field::NumberField;
use crate::app::components::use_app;
use crate::app::input::keys::{Key, RunKey};
use crate::app::input::run_fields;
use crate::app::state::action::{Action, RunAction};

/// Props of [`RunFieldInput`].
#[derive(Properties, PartialEq, Clone)]
pub struct RunFieldProps {
    /// The setting.
    pub field: RunKey,
    /// Placeholder when blank (the default it stands for).
    #[prop_or_default]
    pub placeholder: AttrValue,
}

/// A typed run setting.
#[function_component(RunFieldInput)]
pub fn run_field_input(props: &RunFieldProps) -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let key = props.field;
    let field = run_fields::field(key);
    html! {
        <NumberField id={field.id} label={field.label} unit={field.unit} value={app.run.text(key)}
            placeholder={props.placeholder.clone()} error={app.error(Key::Run(key)).map(AttrValue::from)}
            oninput={app.callback(move |text| Action::Run(RunAction::Set(key, text)))} />
    }
}

/// A choice among named values for a run setting: a labelled select whose
/// options are `(name, label)`.
pub fn run_choice(app: &crate::app::components::AppHandle, key: RunKey, options: Vec<(String, String)>) -> Html {
    let field = run_fields::field(key);
    let chosen = app.run.text(key);
    let onchange = app.callback(move |e: Event| {
        Action::Run(RunAction::Set(
            key,
            e.target_unchecked_into::<web_sys::HtmlSelectElement>().value(),
        ))
    });
    html! {
        <div class="field">
            <label for={field.id}>{ field.label }</label>
            <select id={field.id} title={field.help} {onchange}>
                { for options.into_iter().map(|(name, text)| html! { <option value={name.clone()} selected={name == chosen}>{ text }</option> }) }
            </select>
        </div>
    }
}

/// The orders a ranking is offered in, as [`RunKey::RankBy`] writes them.
pub fn rank_orders() -> Vec<(String, String)> {
    vec![
        ("epoch".into(), "time per epoch".into()),
        (
            "train".into(),
            "time to train (epochs grow with the global batch)".into(),
        ),
        ("energy".into(), "energy to train".into()),
        ("co2".into(), "CO2 to train".into()),
        ("money".into(), "money to train".into()),
    ]
}

/// A run setting that is on or off, as a checkbox.
pub fn run_flag(app: &crate::app::components::AppHandle, key: RunKey) -> Html {
    let field = run_fields::field(key);
    let on = app.run.on(key);
    let onchange = app.send(Action::Run(RunAction::Set(key, (!on).to_string())));
    html! {
        <label class="check" title={field.help}><input type="checkbox" id={field.id} checked={on} {onchange} />{ field.label }</label>
    }
}
