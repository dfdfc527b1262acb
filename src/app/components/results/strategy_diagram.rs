//! `#diagram`: how the chosen strategy places samples, layers, filters,
//! channels or slices on the GPUs of this run, node by node, and which
//! collectives run where with their message sizes (the engine's
//! placement; the layout in `charts::diagram`).

use yew::prelude::*;

use crate::app::charts::diagram::{DIAGRAM_WIDTH, Layout, NARROW_DIAGRAM_WIDTH, layout};
use crate::app::charts::strategy_color;
use crate::app::components::page::media::{PHONE, use_media};
use crate::app::components::page::select_field::select;
use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::{AnswerProps, use_app};
use crate::app::input::explain_target::ExplainTarget;
use crate::app::state::action::{Action, ViewAction};
use crate::oracle::{Collective, Placement, Quantity, Strategy, units};

/// Group fills, alternating so that neighbouring groups differ.
const GROUP_FILLS: [&str; 2] = ["#e8f0fa", "#fdf0e3"];

fn drawing(placement: &Placement, l: &Layout) -> Html {
    let stroke = {
        let c = strategy_color(placement.strategy);
        format!("rgb({},{},{})", c.0, c.1, c.2)
    };
    let gap = l
        .nodes
        .windows(2)
        .find(|w| w[1].node != w[0].node + 1)
        .map(|w| w[0].rect.1 + w[0].rect.3);
    html! {
        <svg class="diagram" viewBox={format!("0 0 {} {}", l.width, l.height)} role="img"
            aria-label={format!("{} GPUs in {} nodes of {}", placement.gpus, placement.nodes, placement.gpus_per_node)}>
            { for l.nodes.iter().map(|node| html! {
                <g class="node" data-node={node.node.to_string()}>
                    <rect x={node.rect.0.to_string()} y={node.rect.1.to_string()} width={node.rect.2.to_string()}
                        height={node.rect.3.to_string()} rx="6" fill="#f6f8fb" stroke="#5b6475" />
                    <text x={(node.rect.0 + 10).to_string()} y={(node.rect.1 + 15).to_string()} class="diagram-node">
                        { format!("node {}", node.node + 1) }</text>
                    { for node.gpus.iter().map(|gpu| html! {
                        <g class="gpu" data-gpu={gpu.gpu.to_string()} data-group={gpu.group.to_string()}>
                            <rect x={gpu.rect.0.to_string()} y={gpu.rect.1.to_string()} width={gpu.rect.2.to_string()}
                                height={gpu.rect.3.to_string()} rx="4" stroke={stroke.clone()} stroke-width="2"
                                fill={GROUP_FILLS[(gpu.group % 2) as usize]} />
                            <text x={(gpu.rect.0 + 6).to_string()} y={(gpu.rect.1 + 15).to_string()}>{ format!("GPU {}", gpu.gpu + 1) }</text>
                            { for gpu.lines.iter().enumerate().map(|(i, line)| html! {
                                <text x={(gpu.rect.0 + 6).to_string()} y={(gpu.rect.1 + 30 + 15 * i as u32).to_string()}>{ line }</text>
                            }) }
                        </g>
                    }) }
                </g>
            }) }
            if let Some(y) = gap {
                <text x={(l.width / 2).to_string()} y={(y + 16).to_string()} text-anchor="middle" class="diagram-node">
                    { format!("⋯ {} more nodes ⋯", l.elided) }</text>
            }
        </svg>
    }
}

/// A collective in words, its bytes and seconds opening the explanation of
/// its kind of communication for the strategy drawn (`target`).
fn collective(c: &Collective, target: ExplainTarget) -> Html {
    let count = |n: u64| html! { <ExplainButton {target} text={n.to_string()} value={n as f64} /> };
    let group = if c.members == 2 {
        html! { "between neighbouring GPUs" }
    } else {
        html! { <>{ "among " }{ count(c.members) }{ " GPUs" }</> }
    };
    let times = if c.instances > 1 {
        html! { <>{ count(c.instances) }{ " at once, " }</> }
    } else {
        html! {}
    };
    let path = if c.crosses_nodes {
        "across nodes"
    } else {
        "inside a node"
    };
    let bytes = AttrValue::from(units::bytes(c.bytes));
    let seconds = AttrValue::from(units::seconds(c.seconds));
    html! {
        <li data-kind={c.kind.name()} data-bytes={c.bytes.to_string()}>
            <strong>{ c.kind.label() }</strong>
            { " " }{ group }{ " (" }{ times }{ format!("{path}): ") }
            <ExplainButton {target} text={bytes} value={c.bytes} />
            { " a GPU sends per iteration, " }
            <ExplainButton {target} text={seconds} value={c.seconds} />
            { " an iteration. " }
            <code>{ c.formula }</code>
        </li>
    }
}

/// The diagram of the chosen strategy (the best at the budget unless one
/// is picked).
#[function_component(StrategyDiagram)]
pub fn strategy_diagram(props: &AnswerProps) -> Html {
    let phone = use_media(PHONE);
    let Some(state) = use_app() else {
        return html! {};
    };
    let ranking = &props.answer.results.ranking;
    let Some(best) = ranking.first() else {
        return html! {};
    };
    let strategy = state
        .view
        .drawing
        .filter(|s| ranking.iter().any(|p| p.strategy == *s))
        .unwrap_or(best.strategy);
    let spec = props.answer.results.template.for_strategy(strategy, best.gpus);
    let choices: Vec<(Strategy, String, String)> = ranking
        .iter()
        .map(|p| {
            (
                p.strategy,
                p.strategy.name().to_string(),
                p.strategy.label().to_string(),
            )
        })
        .collect();
    let onpick = state.callback(|s: Strategy| Action::View(ViewAction::Draw(s)));
    let body = match props.answer.scenario.placement(&spec) {
        Ok(placement) => {
            let l = layout(&placement, if phone { NARROW_DIAGRAM_WIDTH } else { DIAGRAM_WIDTH });
            // a link's bandwidth opens the explanation of a collective that uses it (its β)
            let link = |crosses: bool, bytes_per_s: f64| {
                let kind = placement
                    .collectives
                    .iter()
                    .find(|c| c.crosses_nodes == crosses)
                    .map(|c| c.kind);
                let quantity = kind.map_or(Quantity::Communication, Quantity::Kind);
                let target = ExplainTarget::new(placement.strategy, placement.gpus, quantity);
                let text = format!("{}/s", units::bytes(bytes_per_s));
                html! { <ExplainButton {target} {text} value={bytes_per_s} /> }
            };
            let links = html! { <>
                { "Inside a node GPUs talk at " }{ link(false, placement.intra_node_bytes_per_s) }
                { "; between nodes through NICs at " }{ link(true, placement.nic_bytes_per_s) }{ " each." }
            </> };
            html! {
                <>
                    { drawing(&placement, &l) }
                    <p class="quiet">{ links }</p>
                    if placement.collectives.is_empty() {
                        <p id="diagram-collectives">{ "No communication: one GPU does everything." }</p>
                    } else {
                        <ul id="diagram-collectives">{ for placement.collectives.iter().map(|c| {
                            collective(c, ExplainTarget::new(placement.strategy, placement.gpus, Quantity::Kind(c.kind)))
                        }) }</ul>
                    }
                </>
            }
        }
        Err(e) => html! { <p class="error" role="alert">{ e.to_string() }</p> },
    };
    html! {
        <section id="diagram" class="diagram-panel" data-strategy={strategy.name()} aria-labelledby="diagram-title">
            <h3 id="diagram-title">{ format!("How {} places the work on ", strategy.label()) }
                <ExplainButton target={ExplainTarget::new(strategy, best.gpus, Quantity::GpuHours)}
                    text={best.gpus.to_string()} value={best.gpus as f64} />{ " GPUs" }</h3>
            { select("diagram-strategy", "Strategy drawn", choices, strategy, onpick) }
            { body }
        </section>
    }
}
