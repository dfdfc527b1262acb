//! `#why`: why the best strategy wins, in plain words: against the
//! runner-up (by how much, and whether compute or communication makes the
//! difference), and why each infeasible strategy is out (its limits and
//! what the engine says would change them).

use yew::prelude::*;

use crate::app::components::results::explained_sentence::{Said, Span, spans};
use crate::oracle::{FindingDetail, Projection, Quantity, Severity, units};

/// Props of [`WhyWins`].
#[derive(Properties, PartialEq, Clone)]
pub struct WhyWinsProps {
    /// The ranked projections (feasible ones first, best first).
    pub ranking: Vec<Projection>,
}

/// A time of `p`, explained by `quantity`.
fn seconds(p: &Projection, quantity: Quantity) -> Span {
    let value = quantity.of(p);
    Span::number(units::seconds(value), value, p.strategy, p.gpus, quantity)
}

/// The sentence comparing the best with the runner-up, each time opening
/// its strategy's explanation (the ratio, the runner-up's epoch).
pub fn against_runner_up(best: &Projection, next: &Projection) -> Vec<Span> {
    let compute_gap = next.compute_s - best.compute_s;
    let communication_gap = next.communication_s - best.communication_s;
    let (part, quantity) = if communication_gap.abs() >= compute_gap.abs() {
        ("communication", Quantity::Communication)
    } else {
        ("compute", Quantity::Compute)
    };
    let ratio = next.total_s / best.total_s.max(f64::MIN_POSITIVE);
    vec![
        Span::Text(format!("{} takes ", best.strategy)),
        seconds(best, Quantity::Total),
        Span::Text(format!(" per epoch; the runner-up, {}, ", next.strategy)),
        seconds(next, Quantity::Total),
        Span::text(" ("),
        Span::number(
            format!("{}×", units::significant(ratio, 3)),
            ratio,
            next.strategy,
            next.gpus,
            Quantity::Total,
        ),
        Span::Text(format!(" as long). Most of the difference is {part}: ")),
        seconds(best, quantity),
        Span::text(" against "),
        seconds(next, quantity),
        Span::text("."),
    ]
}

/// Why an infeasible strategy is out: its limits in words, then what the
/// engine found about them, each number opening its explanation.
pub fn why_out(p: &Projection) -> Vec<Span> {
    let limits: Vec<&str> = p.violations.iter().map(|v| v.label()).collect();
    let mut said = vec![Span::Text(format!("{} is out: {}.", p.strategy, limits.join("; ")))];
    // the limits broken, then what would make it fit
    let relevant = |f: &&crate::oracle::Finding| {
        f.severity == Severity::Critical || matches!(f.detail, FindingDetail::MemoryFit { .. })
    };
    for finding in p.bottlenecks.iter().filter(relevant) {
        said.push(Span::text(" "));
        said.extend(spans(&finding.sentence, p.strategy, p.gpus));
    }
    said
}

/// The explanation under the ranking.
#[function_component(WhyWins)]
pub fn why_wins(props: &WhyWinsProps) -> Html {
    let feasible: Vec<&Projection> = props.ranking.iter().filter(|p| p.feasible).collect();
    let out: Vec<&Projection> = props.ranking.iter().filter(|p| !p.feasible).collect();
    let headline = match feasible.as_slice() {
        [] => vec![Span::text("No strategy fits: each one is out for the reasons below.")],
        [only] => vec![Span::Text(format!("{} is the only strategy that fits.", only.strategy))],
        [best, next, ..] => against_runner_up(best, next),
    };
    html! {
        <div id="why" class="why">
            <p><Said spans={headline} /></p>
            if !out.is_empty() {
                <ul>{ for out.iter().map(|p| html! { <li data-strategy={p.strategy.name()}><Said spans={why_out(p)} /></li> }) }</ul>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use crate::app::components::results::explained_sentence::plain;
    use crate::app::components::results::why_wins::*;
    use crate::app::results::default_results;

    #[test]
    fn the_best_against_the_runner_up_and_the_ones_out() {
        let results = default_results();
        let feasible: Vec<&Projection> = results.ranking.iter().filter(|p| p.feasible).collect();
        let text = plain(&against_runner_up(feasible[0], feasible[1]));
        assert!(text.starts_with(&format!("{} takes", feasible[0].strategy)), "{text}");
        assert!(
            text.contains(&format!("the runner-up, {}", feasible[1].strategy)),
            "{text}"
        );
        assert!(
            text.contains("Most of the difference is communication")
                || text.contains("Most of the difference is compute")
        );
        let out = results.ranking.iter().find(|p| !p.feasible).unwrap();
        let why = plain(&why_out(out));
        assert!(why.contains(out.violations[0].label()), "{why}");
        assert!(!why.contains('_'), "plain words: {why}");
        assert!(why.contains("It would fit with"), "what would change it: {why}");
    }
}
