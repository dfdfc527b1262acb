//! What a run costs besides time (contract, section 14): the grid, a
//! GPU-hour's price, an owned cluster's electricity and the PUE, each blank
//! at a default the engine names beside it.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::page::number_field::NumberField;
use crate::app::components::run::run_field::RunFieldInput;
use crate::app::components::{AppHandle, use_app};
use crate::app::input::keys::{Key, RunKey};
use crate::app::input::run_fields;
use crate::app::state::action::{Action, RunAction};
use crate::oracle::model::energy::{Costs, GRIDS, INSTANCES, OWNED};
use crate::oracle::report::energy::{CostBasis, PowerFacts};
use crate::oracle::units;

/// The select's value for a figure typed in.
const FIGURE: &str = "figure";

/// A setting that is a key among `options` or a figure: a select of the
/// default, the options and "a figure", with the figure's field when
/// chosen (`figure`: what choosing it fills in).
fn keyed(app: &AppHandle, key: RunKey, default: String, options: Vec<(String, String)>, figure: String) -> Html {
    let field = run_fields::field(key);
    let text = app.run.text(key);
    let chosen = match text.trim() {
        "" => String::new(),
        t if options.iter().any(|(k, _)| k == t) => t.to_string(),
        _ => FIGURE.to_string(),
    };
    let onchange = app.callback(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let text = if value == FIGURE { figure.clone() } else { value };
        Action::Run(RunAction::Set(key, text))
    });
    let option = |value: &str, label: String| {
        html! { <option value={value.to_string()} selected={chosen == value}>{ label }</option> }
    };
    let select_id = format!("{}-choice", field.id);
    html! {
        <div class="field">
            <label for={select_id.clone()}>{ field.label }</label>
            <select id={select_id} title={field.help} {onchange}>
                { option("", default) }
                { for options.iter().map(|(k, label)| option(k, label.clone())) }
                { option(FIGURE, format!("a figure, {}", field.unit)) }
            </select>
            if chosen == FIGURE {
                <NumberField id={field.id} label={field.label} unit={field.unit} value={text.clone()}
                    error={app.error(Key::Run(key)).map(AttrValue::from)}
                    oninput={app.callback(move |text| Action::Run(RunAction::Set(key, text)))} />
            } else if let Some(e) = app.error(Key::Run(key)) {
                <p class="error" role="alert">{ e }</p>
            }
        </div>
    }
}

/// The defaults: the facts of this cluster with nothing chosen.
fn facts(app: &AppHandle) -> Option<PowerFacts> {
    let answer = app.answer.as_ref()?;
    PowerFacts::of(answer.scenario.cluster(), &Costs::default())
}

/// The cost settings, folded.
#[function_component(CostsFields)]
pub fn costs_fields() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    let facts = facts(&app);
    let grid_default = facts.as_ref().map_or_else(
        || "the cluster's, else the world's".to_string(),
        |f| format!("default: {} ({} g/kWh)", f.grid, units::significant(f.g_co2_per_kwh, 4)),
    );
    let grids = GRIDS
        .iter()
        .map(|g| {
            (
                g.key.to_string(),
                format!(
                    "{} {}: {} g/kWh",
                    g.region,
                    g.year,
                    units::significant(g.g_co2_per_kwh, 4)
                ),
            )
        })
        .collect();
    let (price_default, price_figure) = match facts.as_ref().map(|f| &f.basis) {
        Some(CostBasis::Cloud {
            usd_per_gpu_hour,
            instance,
        }) => (
            format!(
                "default: {} (${}/GPU-h)",
                instance.unwrap_or("given"),
                units::significant(*usd_per_gpu_hour, 4)
            ),
            units::significant(*usd_per_gpu_hour, 4),
        ),
        Some(CostBasis::Owned { usd_per_kwh }) => (
            format!(
                "default: yours, electricity at ${}/kWh",
                units::significant(*usd_per_kwh, 3)
            ),
            "2".into(),
        ),
        None => ("the cheapest listed, else yours".into(), "2".into()),
    };
    let mut prices: Vec<(String, String)> = INSTANCES
        .iter()
        .map(|i| {
            (
                i.key.to_string(),
                format!(
                    "{} {} ({} x {}): ${}/GPU-h, {}",
                    i.provider,
                    i.instance,
                    i.gpus,
                    i.gpu,
                    units::significant(i.usd_per_gpu_hour(), 4),
                    i.date
                ),
            )
        })
        .collect();
    prices.push((OWNED.into(), "yours: its electricity".into()));
    let grid_figure = facts
        .as_ref()
        .map_or("400".into(), |f| units::significant(f.g_co2_per_kwh, 4));
    let pue = facts.as_ref().map_or_else(
        || "1.58".to_string(),
        |f| format!("{} (default)", units::significant(f.pue, 3)),
    );
    html! {
        <details class="knobs" id="costs">
            <summary>{ "Energy, carbon and money" }</summary>
            { keyed(&app, RunKey::Grid, grid_default, grids, grid_figure) }
            { keyed(&app, RunKey::Price, price_default, prices, price_figure) }
            <RunFieldInput field={RunKey::KwhPrice} placeholder="0.0806 (US industrial, 2023)" />
            <RunFieldInput field={RunKey::Pue} placeholder={pue} />
        </details>
    }
}
