//! Downloads of the results: the ranking and the sweep as CSV and JSON.

use yew::prelude::*;

use crate::app::components::AnswerProps;
use crate::app::page::browser;
use crate::oracle::scenario;

/// CSV and JSON buttons.
#[function_component(Exports)]
pub fn exports(props: &AnswerProps) -> Html {
    let download = |name: &'static str, mime: &'static str, make: fn(&crate::app::results::Results) -> String| {
        let answer = props.answer.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = browser::download_text(name, mime, &make(&answer.results));
        })
    };
    let sweep_csv = download("paradl-sweep.csv", "text/csv", |r| {
        scenario::csv::projections(r.sweep())
    });
    let ranking_csv = download("paradl-ranking.csv", "text/csv", |r| {
        scenario::csv::projections(&r.ranking)
    });
    let json = download("paradl-results.json", "application/json", |r| {
        let document = serde_json::json!({ "ranking": r.ranking, "sweep": r.sweep() });
        serde_json::to_string_pretty(&document).unwrap_or_default()
    });
    html! {
        <div class="exports">
            <span>{ "Download results: " }</span>
            <button type="button" id="export-ranking-csv" onclick={ranking_csv}>{ "ranking CSV" }</button>
            <button type="button" id="export-sweep-csv" onclick={sweep_csv}>{ "sweep CSV" }</button>
            <button type="button" id="export-json" onclick={json}>{ "JSON" }</button>
        </div>
    }
}
