//! The bottlenecks and limits found, in plain sentences.

use yew::prelude::*;

use super::why_wins::WhyWins;
use crate::oracle::{Projection, Severity};

/// Props of [`Findings`].
#[derive(Properties, PartialEq, Clone)]
pub struct FindingsProps {
    /// The ranked projections (the best first).
    pub ranking: Vec<Projection>,
}

fn severity_class(severity: Severity) -> &'static str {
    match severity {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Critical => "critical",
    }
}

fn list(p: &Projection) -> Html {
    if p.bottlenecks.is_empty() {
        return html! { <p class="quiet">{ "No bottleneck stands out." }</p> };
    }
    html! {
        <ul>
            { for p.bottlenecks.iter().map(|f| html! {
                <li class={severity_class(f.severity)}>{ &f.message }</li>
            }) }
        </ul>
    }
}

/// What limits the best strategy, then every other strategy's findings.
#[function_component(Findings)]
pub fn findings(props: &FindingsProps) -> Html {
    let Some(best) = props.ranking.first() else {
        return html! {};
    };
    let verdict = if best.feasible {
        format!("Best at {} GPUs: {}.", best.gpus, best.strategy)
    } else {
        format!("No strategy is feasible at {} GPUs.", best.gpus)
    };
    html! {
        <section id="findings" class="findings" aria-label="Bottlenecks">
            <h3>{ verdict }</h3>
            <WhyWins ranking={props.ranking.clone()} />
            { list(best) }
            <details>
                <summary>{ "Every strategy's bottlenecks" }</summary>
                { for props.ranking.iter().skip(1).map(|p| html! {
                    <div data-strategy={p.strategy.name()}>
                        <h4>{ p.strategy.name() }</h4>
                        { list(p) }
                    </div>
                }) }
            </details>
        </section>
    }
}
