//! `#ranking`: every strategy at the GPU budget, feasible ones first and
//! fastest first, as `paradl rank` prints them.

use yew::prelude::*;

use crate::app::components::page::term::Term;
use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::results::explained_sentence::{self, Said};
use crate::app::components::results::track_badge::TrackBadge;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::reference::track_record;
use crate::oracle::model::convergence::How;
use crate::oracle::{Calibration, Part, Projection, Quantity, RankBy, units};

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
    /// The calibration applied, if any (its runs are the track record).
    #[prop_or_default]
    pub calibration: Option<Calibration>,
    /// Whether the ABCI runs of the track record resemble this question
    /// (V100s in FP32, as they ran); else each time shows its band, from
    /// published runs of its own GPU class and precision.
    #[prop_or_default]
    pub like_the_runs: bool,
    /// What the ranking calls best.
    #[prop_or_default]
    pub by: RankBy,
}

/// The ranking as a table whose rows carry their numbers as data attributes.
#[function_component(RankingTable)]
pub fn ranking_table(props: &RankingTableProps) -> Html {
    let rows = props.ranking.iter().enumerate().map(|(i, p)| {
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
        let record = track_record::typical(p.strategy, p.edition, props.calibration.as_ref())
            .filter(|_| props.like_the_runs || props.calibration.is_some())
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
            <caption>
                if props.by == RankBy::TimeToTrain {
                    { format!("Strategies at {gpus} GPUs, best first (") }<Term id="time-to-train" />{ "). " }
                } else {
                    { format!("Strategies at {gpus} GPUs, best first (time per ") }<Term id="epoch" />{ "). " }
                }
                if props.like_the_runs || props.calibration.is_some() {
                    <small><Term id="track-record" />{ ": how far this edition has typically been from measured runs of that strategy." }</small>
                } else {
                    <small>{ "Beside each time: where the measured time is likely to fall, from published runs of this GPU class and precision." }</small>
                }
            </caption>
            <thead>
                <tr>
                    <th scope="col">{ "#" }</th>
                    <th scope="col">{ "strategy" }</th>
                    <th scope="col">{ "epoch" }</th>
                    <th scope="col"><Term id="time-to-train" /></th>
                    <th scope="col">{ "compute" }</th>
                    <th scope="col">{ "communication" }</th>
                    <th scope="col"><Term id="gpu-hours" /></th>
                    <th scope="col">{ "memory/" }<wbr />{ "GPU" }</th>
                    <th scope="col"><Term id="feasible" />{ " or " }<Term id="limit" /></th>
                </tr>
            </thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}
