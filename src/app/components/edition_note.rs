//! `#edition`: which edition the numbers follow, the realistic terms that
//! applied to the best strategy with their values, the other edition's
//! numbers beside, and the calibration applied.

use yew::prelude::*;

use super::AnswerProps;
use crate::oracle::{Fidelity, units};

/// The note under the findings.
#[function_component(EditionNote)]
pub fn edition_note(props: &AnswerProps) -> Html {
    let results = &props.answer.results;
    let Some(shown) = results.ranking.first() else {
        return html! {};
    };
    let other = results.other_edition(shown.strategy);
    let comparison = other.map(|o| {
        let ratio = if o.total_s > 0.0 {
            shown.total_s / o.total_s
        } else {
            1.0
        };
        format!(
            "{} at {} GPUs: {} an epoch here; {} in the {} edition{} ({}x).",
            shown.strategy,
            shown.gpus,
            units::seconds(shown.total_s),
            units::seconds(o.total_s),
            o.fidelity,
            if shown.calibration.is_some() {
                ", uncalibrated"
            } else {
                ""
            },
            units::significant(ratio, 3)
        )
    });
    let terms = shown.terms.iter().map(|t| {
        html! { <li data-term={t.term.name()}><strong>{ t.term.label() }</strong>{ ": " }{ t.detail() }</li> }
    });
    let calibrated = shown.calibration.map(|k| {
        let sentence = k.sentence();
        let mut chars = sentence.chars();
        let first = chars
            .next()
            .map(|c| c.to_uppercase().collect::<String>())
            .unwrap_or_default();
        format!("{first}{}.", chars.as_str())
    });
    html! {
        <section id="edition" class="edition-note" data-fidelity={results.fidelity.name()} aria-label="Edition of the model">
            <p><strong>{ format!("{} edition. ", capitalised(results.fidelity)) }</strong>{ comparison.unwrap_or_default() }</p>
            if results.fidelity == Fidelity::Realistic {
                if shown.terms.is_empty() {
                    <p class="quiet">{ "No realistic term applied: this cluster gives none of their facts, so both editions agree." }</p>
                } else {
                    <ul class="terms">{ for terms }</ul>
                }
            }
            if let Some(c) = calibrated { <p class="calibrated">{ c }</p> }
        </section>
    }
}

fn capitalised(fidelity: Fidelity) -> &'static str {
    match fidelity {
        Fidelity::Ideal => "Ideal",
        Fidelity::Realistic => "Realistic",
    }
}
