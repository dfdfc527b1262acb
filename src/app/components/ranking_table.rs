//! `#ranking`: every strategy at the GPU budget, feasible ones first and
//! fastest first, as `paradl rank` prints them.

use yew::prelude::*;

use super::explain_button::ExplainButton;
use crate::app::input::explain_target::ExplainTarget;
use crate::oracle::{Part, Projection, Quantity, units};

/// A cell whose number opens its explanation.
fn cell(p: &Projection, quantity: Quantity, value: f64, text: String) -> Html {
    let target = ExplainTarget::new(p.strategy, p.gpus, quantity);
    html! { <td class="num"><ExplainButton {target} text={text} {value} /></td> }
}

/// Props of [`RankingTable`].
#[derive(Properties, PartialEq, Clone)]
pub struct RankingTableProps {
    /// The ranked projections.
    pub ranking: Vec<Projection>,
}

/// The ranking as a table whose rows carry their numbers as data attributes.
#[function_component(RankingTable)]
pub fn ranking_table(props: &RankingTableProps) -> Html {
    let rows = props.ranking.iter().enumerate().map(|(i, p)| {
        // plain words on the page; the machine names in an attribute
        let limits: Vec<&str> = p.violations.iter().map(|v| v.name()).collect();
        let status = if p.feasible {
            "feasible".to_string()
        } else {
            let words: Vec<&str> = p.violations.iter().map(|v| v.label()).collect();
            words.join("; ")
        };
        let parts: Vec<String> = Part::ALL
            .iter()
            .map(|&part| format!("{} {}", part.label(), units::bytes(p.memory.get(part))))
            .collect();
        html! {
            <tr
                data-strategy={p.strategy.name()}
                data-total-s={p.total_s.to_string()}
                data-memory-bytes={p.memory_bytes.to_string()}
                data-memory-parts={Part::ALL.map(|part| p.memory.get(part).to_string()).join(",")}
                data-feasible={p.feasible.to_string()}
                data-limits={limits.join(",")}
                class={classes!((!p.feasible).then_some("infeasible"))}
            >
                <td>{ if p.feasible { (i + 1).to_string() } else { "–".into() } }</td>
                <th scope="row">{ p.strategy.name() }</th>
                { cell(p, Quantity::Total, p.total_s, units::seconds(p.total_s)) }
                { cell(p, Quantity::Compute, p.compute_s, units::seconds(p.compute_s)) }
                { cell(p, Quantity::Communication, p.communication_s, units::seconds(p.communication_s)) }
                { cell(p, Quantity::GpuHours, p.gpu_hours, units::significant(p.gpu_hours, 4)) }
                <td class="num" title={parts.join("; ")}>
                    <ExplainButton target={ExplainTarget::new(p.strategy, p.gpus, Quantity::Memory)}
                        text={units::bytes(p.memory_bytes)} value={p.memory_bytes} />
                </td>
                <td class={if p.feasible { "ok" } else { "bad" }}>{ status }</td>
            </tr>
        }
    });
    let gpus = props.ranking.first().map_or(0, |p| p.gpus);
    html! {
        <table id="ranking" class="ranking">
            <caption>{ format!("Strategies at {gpus} GPUs, best first (time per epoch)") }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "#" }</th>
                    <th scope="col">{ "strategy" }</th>
                    <th scope="col">{ "epoch" }</th>
                    <th scope="col">{ "compute" }</th>
                    <th scope="col">{ "communication" }</th>
                    <th scope="col">{ "GPU-hours" }</th>
                    <th scope="col">{ "memory/GPU" }</th>
                    <th scope="col">{ "feasible or limit" }</th>
                </tr>
            </thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}
