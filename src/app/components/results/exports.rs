//! Downloads of the results: the ranking and the sweep as CSV and JSON.

use yew::prelude::*;

use crate::app::components::AnswerProps;
use crate::app::page::browser;
use crate::app::state::Answer;
use crate::oracle::scenario;

/// CSV and JSON buttons.
#[function_component(Exports)]
pub fn exports(props: &AnswerProps) -> Html {
    let download = |name: &'static str, mime: &'static str, make: fn(&Answer) -> String| {
        let answer = props.answer.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = browser::download_text(name, mime, &make(&answer));
        })
    };
    fn csv(a: &Answer, points: &[crate::oracle::Projection]) -> String {
        scenario::csv::projections(points, a.scenario.network().name(), a.scenario.cluster().name())
    }
    let sweep_csv = download("paradl-sweep.csv", "text/csv", |a| csv(a, a.results.sweep()));
    let ranking_csv = download("paradl-ranking.csv", "text/csv", |a| csv(a, &a.results.ranking));
    let json = download("paradl-results.json", "application/json", |a| {
        let document = serde_json::json!({ "ranking": a.results.ranking, "sweep": a.results.sweep() });
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
