//! `#plan-table`: the ten best configurations of the front by the chosen
//! objective; a click (or Enter) on a row shows it in the main view.

use std::rc::Rc;

use yew::prelude::*;

use crate::oracle::{Config, Objective, Plan, units};

/// Props of [`PlanTable`].
#[derive(Properties, Clone)]
pub struct PlanTableProps {
    /// The search's result.
    pub plan: Rc<Plan>,
    /// Called with the configuration picked.
    pub onpick: Callback<Config>,
}

impl PartialEq for PlanTableProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.plan, &other.plan) && self.onpick == other.onpick
    }
}

/// Rows shown.
pub const SHOWN: usize = 10;

/// The best [`SHOWN`] of the front by `objective`, ties broken by time,
/// then GPU-hours, then memory.
pub fn best(plan: &Plan, objective: Objective) -> Vec<&Config> {
    let mut rows: Vec<&Config> = plan.front.iter().collect();
    rows.sort_by(|a, b| a.order_by(b, objective));
    rows.truncate(SHOWN);
    rows
}

/// A configuration's key in the page (`strategy/gpus/group/segments/zero/recompute`).
pub fn config_key(c: &Config) -> String {
    let cell = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
    format!(
        "{}/{}/{}/{}/{}/{}",
        c.strategy,
        c.gpus,
        cell(c.group_size),
        cell(c.segments),
        c.zero,
        c.recompute
    )
}

/// A figure in its unit, or a dash where it is unknown (infinite).
fn known(value: f64, unit: impl Fn(f64) -> String) -> String {
    if value.is_finite() { unit(value) } else { "–".into() }
}

/// The table.
#[function_component(PlanTable)]
pub fn plan_table(props: &PlanTableProps) -> Html {
    let objective = props.plan.objective;
    let rows = best(&props.plan, objective).into_iter().enumerate().map(|(i, c)| {
        let onclick = {
            let (pick, c) = (props.onpick.clone(), c.clone());
            Callback::from(move |_: MouseEvent| pick.emit(c.clone()))
        };
        let onkeydown = {
            let (pick, c) = (props.onpick.clone(), c.clone());
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    pick.emit(c.clone());
                }
            })
        };
        let cell = |v: Option<u64>| v.map_or_else(|| "–".to_string(), |v| v.to_string());
        html! {
            <tr data-config={config_key(c)} data-strategy={c.strategy.name()} data-gpus={c.gpus.to_string()}
                data-total-s={c.total_s.to_string()} data-memory-bytes={c.memory_bytes.to_string()} data-train-s={c.time_to_train_s.to_string()} data-energy-kwh={c.energy_kwh.to_string()} data-usd={c.usd.to_string()} tabindex="0" class="pickable" {onclick} {onkeydown}
                title="Show this configuration in the main view">
                <td>{ i + 1 }</td>
                <th scope="row">{ c.strategy.name() }</th>
                <td class="num">{ c.gpus }</td>
                <td class="num">{ cell(c.group_size) }</td>
                <td class="num">{ cell(c.segments) }</td>
                <td class="num">{ c.zero }</td>
                <td>{ if c.recompute { "yes" } else { "no" } }</td>
                <td class="num">{ c.mini_batch }</td>
                <td class="num">{ units::seconds(c.total_s) }</td>
                <td class="num">{ units::significant(c.gpu_hours, 4) }</td>
                <td class="num">{ units::bytes(c.memory_bytes) }</td>
                <td class="num" title={format!("{} epochs at a batch of {}", units::significant(c.epochs, 3), c.mini_batch)}>{ units::seconds(c.time_to_train_s) }</td>
                <td class="num" title={known(c.co2_kg, |kg| format!("{} CO2e", units::co2_kg(kg)))}>{ known(c.energy_kwh, units::energy_kwh) }</td>
                <td class="num">{ known(c.usd, units::dollars) }</td>
            </tr>
        }
    });
    html! {
        <table id="plan-table" class="ranking" tabindex="0">
            <caption>{ format!("Best {} of the front by {}", SHOWN.min(props.plan.front.len()), objective.label()) }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "#" }</th>
                    <th scope="col">{ "strategy" }</th>
                    <th scope="col">{ "GPUs" }</th>
                    <th scope="col">{ "group" }</th>
                    <th scope="col">{ "segments" }</th>
                    <th scope="col">{ "ZeRO" }</th>
                    <th scope="col">{ "recompute" }</th>
                    <th scope="col">{ "batch" }</th>
                    <th scope="col">{ "epoch" }</th>
                    <th scope="col">{ "GPU-hours" }</th>
                    <th scope="col">{ "memory/GPU" }</th>
                    <th scope="col">{ "to train" }</th>
                    <th scope="col">{ "energy" }</th>
                    <th scope="col">{ "cost" }</th>
                </tr>
            </thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}
