//! `#edition`: which edition the numbers follow, the realistic terms that
//! applied to the best strategy with their values, the other edition's
//! numbers beside, and the calibration applied.

use yew::prelude::*;

use crate::app::components::AnswerProps;
use crate::app::components::results::explained_sentence::{Said, Span, spans};
use crate::oracle::{CommKind, Edition, Quantity, units};

/// The note under the findings.
#[function_component(EditionNote)]
pub fn edition_note(props: &AnswerProps) -> Html {
    let results = &props.answer.results;
    let Some(shown) = results.ranking.first() else {
        return html! {};
    };
    let (strategy, gpus) = (shown.strategy, shown.gpus);
    let at = |quantity: Quantity, text: String, value: f64| Span::number(text, value, strategy, gpus, quantity);
    let comparison = results.other_edition(strategy).map(|o| {
        let ratio = if o.total_s > 0.0 {
            shown.total_s / o.total_s
        } else {
            1.0
        };
        // the GPU count opens the GPU-hours (which count them); the other
        // edition's numbers open its own explanation
        let there = Quantity::Edition(o.edition);
        vec![
            Span::Text(format!("{strategy} at ")),
            at(Quantity::GpuHours, gpus.to_string(), gpus as f64),
            Span::text(" GPUs: "),
            at(Quantity::Total, units::seconds(shown.total_s), shown.total_s),
            Span::text(" an epoch here; "),
            at(there, units::seconds(o.total_s), o.total_s),
            Span::Text(format!(
                " in the {} edition{} (",
                o.edition,
                if shown.calibration.is_some() {
                    ", uncalibrated"
                } else {
                    ""
                }
            )),
            at(there, format!("{}x", units::significant(ratio, 3)), ratio),
            Span::text(")."),
        ]
    });
    let terms = shown.terms.iter().map(|t| {
        html! { <li data-term={t.term.name()}><strong>{ t.term.label() }</strong>{ ": " }<Said spans={spans(&t.sentence(), strategy, gpus)} /></li> }
    });
    let calibrated = shown.calibration.map(|k| {
        let kind = shown.communication.dominant().unwrap_or(CommKind::GradientAllreduce);
        let mut said = spans(&k.words(kind), strategy, gpus);
        if let Some(Span::Text(first)) = said.first_mut() {
            *first = units::capitalised(first);
        }
        said.push(Span::text("."));
        said
    });
    html! {
        <section id="edition" class="edition-note" data-fidelity={results.edition.name()} aria-label="Edition of the model">
            <p><strong>{ format!("{} edition. ", capitalised(results.edition)) }</strong><Said spans={comparison.unwrap_or_default()} /></p>
            if results.edition == Edition::Realistic {
                if shown.terms.is_empty() {
                    <p class="quiet">{ "No realistic term applied: this cluster gives none of their facts, so both editions agree." }</p>
                } else {
                    <ul class="terms">{ for terms }</ul>
                }
            }
            if let Some(c) = calibrated { <p class="calibrated"><Said spans={c} /></p> }
        </section>
    }
}

fn capitalised(edition: Edition) -> &'static str {
    match edition {
        Edition::Ideal => "Ideal",
        Edition::Realistic => "Realistic",
    }
}
