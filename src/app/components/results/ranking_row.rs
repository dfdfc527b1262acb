//! One row of `#ranking`: a strategy's numbers at the budget, each opening
//! its explanation, with where its time is likely to fall and its limits.

use yew::prelude::*;

use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::results::explained_sentence::{self, Said};
use crate::app::components::results::track_badge::TrackBadge;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::reference::track_record;
use crate::oracle::model::convergence::How;
use crate::oracle::{Calibration, Part, Projection, Quantity, units};

/// A cell whose number opens its explanation.
fn cell(p: &Projection, quantity: Quantity, value: f64, text: String) -> Html {
    let target = ExplainTarget::new(p.strategy, p.gpus, quantity);
    html! { <td class="num"><ExplainButton {target} text={text} {value} /></td> }
}

/// The energy, CO2 and money to train, each opening its explanation (a
/// dash where the GPU's board power is unknown).
fn costs(p: &Projection) -> Html {
    let Some(e) = &p.energy else {
        return html! { <><td class="num cost">{ "–" }</td><td class="num cost co2">{ "–" }</td><td class="num cost">{ "–" }</td></> };
    };
    let cost = |quantity: Quantity, value: f64, text: String| {
        let target = ExplainTarget::new(p.strategy, p.gpus, quantity);
        let class = classes!("num", "cost", (quantity == Quantity::Carbon).then_some("co2"));
        html! { <td {class} title={e.sentence()}><ExplainButton {target} {text} {value} /></td> }
    };
    html! {
        <>
            { cost(Quantity::Energy, e.train_kwh, units::energy_kwh(e.train_kwh)) }
            { cost(Quantity::Carbon, e.train_co2_kg, units::co2_kg(e.train_co2_kg)) }
            { cost(Quantity::Cost, e.train_usd, units::dollars(e.train_usd)) }
        </>
    }
}

/// The row of `p`, ranked `i`-th.
pub fn row(i: usize, p: &Projection, calibration: Option<&Calibration>, like_the_runs: bool) -> Html {
    // plain words on the page; the machine names in an attribute
    let limits: Vec<&str> = p.violations.iter().map(|v| v.name()).collect();
    // the limits' numbers open their explanations; on a phone and a
    // projector a limit is a mark, its words on a tap
    let said = explained_sentence::limits(p);
    let status = if p.feasible {
        // a phone shows the mark, a screen reader and a wider screen the word
        html! { <><span class="word">{ "feasible" }</span><span class="mark-ok" aria-hidden="true">{ "✓" }</span></> }
    } else {
        html! {
            <>
                <details class="limit">
                    <summary aria-label={format!("why {} is ruled out", p.strategy.name())}>{ "✗" }</summary>
                    <span class="limit-tap"><Said spans={said.clone()} /></span>
                </details>
                <span class="limit-words">{ " " }<Said spans={said} /></span>
            </>
        }
    };
    // how far such a time has been from measured ones: the ABCI runs' record where they
    // resemble the question, else the band of published runs of its GPU class and precision
    let record = track_record::typical(p.strategy, p.edition, calibration)
        .filter(|_| like_the_runs || calibration.is_some())
        .map(|r| (format!("×{}", units::significant(r.factor, 2)), r.sentence(p.strategy)));
    let band = || {
        p.band.as_ref().map(|b| {
            let (low, high) = (units::seconds(b.low * p.total_s), units::seconds(b.high * p.total_s));
            (format!("{low}–{high}"), format!("likely {low} to {high}: {}", b.basis))
        })
    };
    let epoch = record.or_else(band).map_or_else(
        || html! {},
        |(text, sentence)| html! { <TrackBadge text={text} sentence={sentence} /> },
    );
    let training = &p.training;
    let guessed = match training.epochs.how {
        How::PastLargest { .. } => Some("extrapolated"),
        How::Given if training.assumed => Some("assumed"),
        _ => None,
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
            data-train-s={training.time_s.to_string()}
            data-epochs={training.epochs.epochs.to_string()}
            data-energy-kwh={p.energy.as_ref().map(|e| e.train_kwh.to_string())}
            data-co2-kg={p.energy.as_ref().map(|e| e.train_co2_kg.to_string())}
            data-usd={p.energy.as_ref().map(|e| e.train_usd.to_string())}
            data-memory-parts={Part::ALL.map(|part| p.memory.get(part).to_string()).join(",")}
            data-feasible={p.feasible.to_string()}
            data-limits={limits.join(",")}
            class={classes!((!p.feasible).then_some("infeasible"))}
        >
            <td>{ if p.feasible { (i + 1).to_string() } else { "–".into() } }</td>
            // the app benchmark times when the first row is painted (Element Timing)
            <th scope="row" elementtiming={(i == 0).then_some("ranking-first-row")}>{ p.strategy.name() }</th>
            <td class="num">
                <ExplainButton target={ExplainTarget::new(p.strategy, p.gpus, Quantity::Total)}
                    text={units::seconds(p.total_s)} value={p.total_s} />
                { epoch }
            </td>
            <td class={classes!("num", "train", guessed)} title={training.sentence()}>
                <ExplainButton target={ExplainTarget::new(p.strategy, p.gpus, Quantity::TimeToTrain)}
                    text={units::seconds(training.time_s)} value={training.time_s} />
                if let Some(word) = guessed { <small class="guessed">{ format!(" {word}") }</small> }
            </td>
            { cell(p, Quantity::Compute, p.compute_s, units::seconds(p.compute_s)) }
            { cell(p, Quantity::Communication, p.communication_s, units::seconds(p.communication_s)) }
            { cell(p, Quantity::GpuHours, p.gpu_hours, units::significant(p.gpu_hours, 3)) }
            { costs(p) }
            <td class="num" title={parts.join("; ")}>
                <ExplainButton target={ExplainTarget::new(p.strategy, p.gpus, Quantity::Memory)}
                    text={units::bytes(p.memory_bytes)} value={p.memory_bytes} />
            </td>
            <td class={if p.feasible { "ok" } else { "bad" }}>{ status }</td>
        </tr>
    }
}
