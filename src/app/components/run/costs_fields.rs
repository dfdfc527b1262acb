//! What a run costs besides time (contract, section 14): the grid, a
//! GPU-hour's price, an owned cluster's electricity and the PUE, each blank
//! at a default the engine names beside it.

use yew::prelude::*;

use crate::app::components::run::run_field::{KeyedChoice, RunFieldInput, keyed_choice};
use crate::app::components::{AppHandle, use_app};
use crate::app::input::keys::RunKey;
use crate::app::input::run_fields;
use crate::oracle::model::energy::{Costs, GRIDS, INSTANCES, OWNED};
use crate::oracle::report::energy::{CostBasis, PowerFacts};
use crate::oracle::units;

/// A cost setting that is a named option or a figure in its field's unit.
fn keyed(app: &AppHandle, key: RunKey, default: String, options: Vec<(String, String)>, figure: String) -> Html {
    let field = run_fields::field(key);
    let choice = KeyedChoice {
        select_id: format!("{}-choice", field.id),
        default,
        options,
        figure_option: ("figure", format!("a figure, {}", field.unit)),
        figure,
        figure_label: field.label,
        figure_unit: field.unit,
        placeholder: String::new(),
    };
    keyed_choice(app, key, choice)
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
