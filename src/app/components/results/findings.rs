//! The bottlenecks and limits found, in plain sentences.

use yew::prelude::*;

use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::results::explained_sentence::{Said, Span, spans};
use crate::app::components::results::why_wins::WhyWins;
use crate::app::input::explain_target::ExplainTarget;
use crate::oracle::{FindingDetail, Part, Projection, Quantity, Severity};

/// The number a finding rests on, which the panel can explain: the
/// dominant communication, the memory, a part of it or the compute.
fn explained(p: &Projection, detail: &FindingDetail) -> Option<(Quantity, f64, String)> {
    let quantity = match detail {
        FindingDetail::CommunicationBound { dominant, .. } => Quantity::Kind(*dominant),
        FindingDetail::MemoryPressure { .. } | FindingDetail::MemoryOverflow { .. } => Quantity::Memory,
        FindingDetail::MemoryFit { dominant, .. } => Part::ALL
            .into_iter()
            .find(|part| part.label() == *dominant)
            .map_or(Quantity::Memory, Quantity::Part),
        FindingDetail::PipelineImbalance { .. }
        | FindingDetail::RedundantCompute { .. }
        | FindingDetail::StepAtScale { .. } => Quantity::Compute,
        FindingDetail::PastConvergedBatch { .. } => Quantity::TimeToTrain,
        FindingDetail::ScalingLimit { .. } => return None,
    };
    let value = quantity.of(p);
    Some((quantity, value, quantity.unit().format(value)))
}

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
                <li class={severity_class(f.severity)}><Said spans={spans(&f.sentence, p.strategy, p.gpus)} />
                    { for explained(p, &f.detail).map(|(quantity, value, text)| html! {
                        <>{ " (" }{ quantity.label() }{ ": " }
                        <ExplainButton target={ExplainTarget::new(p.strategy, p.gpus, quantity)} {text} {value} />{ ")" }</>
                    }) }
                </li>
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
    // the GPU count opens the GPU-hours' explanation, which counts them
    let gpus = Span::number(
        best.gpus.to_string(),
        best.gpus as f64,
        best.strategy,
        best.gpus,
        Quantity::GpuHours,
    );
    let verdict = if best.feasible {
        vec![
            Span::text("Best at "),
            gpus,
            Span::Text(format!(" GPUs: {}.", best.strategy)),
        ]
    } else {
        vec![Span::text("No strategy is feasible at "), gpus, Span::text(" GPUs.")]
    };
    html! {
        <section id="findings" class="findings" aria-label="Bottlenecks">
            <h3><Said spans={verdict} /></h3>
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
