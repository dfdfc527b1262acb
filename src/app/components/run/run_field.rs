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

/// A setting that is one of named options or a figure typed in.
pub struct KeyedChoice {
    /// The select's id.
    pub select_id: String,
    /// The blank option's words (the default, named).
    pub default: String,
    /// `(name, words)` of each named option.
    pub options: Vec<(String, String)>,
    /// The value and the words of the option that asks for a figure.
    pub figure_option: (&'static str, String),
    /// What choosing it fills in.
    pub figure: String,
    /// The figure's field: its label and unit, and what it shows blank.
    pub figure_label: &'static str,
    pub figure_unit: &'static str,
    pub placeholder: String,
}

/// A run setting that is a named option or a figure: a select of the
/// default, the options and "a figure", with the figure's field when
/// chosen, the setting's error beside it.
pub fn keyed_choice(app: &crate::app::components::AppHandle, key: RunKey, choice: KeyedChoice) -> Html {
    let field = run_fields::field(key);
    let text = app.run.text(key);
    let (figure_value, figure_words) = choice.figure_option;
    let chosen = match text.trim() {
        "" => String::new(),
        t if choice.options.iter().any(|(name, _)| name == t) => t.to_string(),
        _ => figure_value.to_string(),
    };
    let figure = choice.figure.clone();
    let onchange = app.callback(move |e: Event| {
        let value = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
        let text = if value == figure_value { figure.clone() } else { value };
        Action::Run(RunAction::Set(key, text))
    });
    let option = |value: &str, label: &str| {
        html! { <option value={value.to_string()} selected={chosen == value}>{ label.to_string() }</option> }
    };
    html! {
        <div class="field">
            <label for={choice.select_id.clone()}>{ field.label }</label>
            <select id={choice.select_id.clone()} title={field.help} {onchange}>
                { option("", &choice.default) }
                { for choice.options.iter().map(|(name, label)| option(name, label)) }
                { option(figure_value, &figure_words) }
            </select>
            if chosen == figure_value {
                <NumberField id={field.id} label={choice.figure_label} unit={choice.figure_unit} value={text.clone()}
                    placeholder={choice.placeholder.clone()} error={app.error(Key::Run(key)).map(AttrValue::from)}
                    oninput={app.callback(move |text| Action::Run(RunAction::Set(key, text)))} />
            } else if let Some(e) = app.error(Key::Run(key)) {
                <p class="error" role="alert">{ e }</p>
            }
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
