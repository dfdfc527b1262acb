//! `#accuracy-view`: how accurate is this? The runs measured on ABCI,
//! predicted against measured, and the mean accuracy of both editions,
//! uncalibrated and calibrated (the runs fetched and computed when first
//! opened).

use std::rc::Rc;

use web_sys::{HtmlDetailsElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::charts::{ChartError, accuracy};
use crate::app::components::accuracy::accuracy_table::AccuracyTable;
use crate::app::components::page::shipped_text::{FetchLine, use_shipped};
use crate::app::components::plots::plot_frame::PlotFrame;
use crate::app::reference::shipped_files::Shipped;
use crate::oracle::validation::{self, Method, Tier};

/// The accuracy view, closed at first.
#[function_component(AccuracyView)]
pub fn accuracy_view() -> Html {
    let open = use_state(|| false);
    // the runs the ranking's track record comes from (both code versions, uncalibrated): the
    // table opens on the numbers the badges show
    let tier = use_state(|| Tier::All);
    let method = use_state(|| Method::Realistic);
    let fetched = use_shipped(Shipped::MeasuredRuns, *open);
    let runs = fetched.shared_text();
    let report = use_memo((runs, *tier), |(runs, tier)| {
        runs.as_deref().map(|text| {
            validation::report_in(text, *tier)
                .map(Rc::new)
                .map_err(|e| e.to_string())
        })
    });
    let drawn = use_memo((report.clone(), *method), |(report, method)| {
        let drawn = match report.as_ref() {
            Some(Ok(report)) => accuracy::draw(&accuracy::data(report, *method)),
            Some(Err(e)) => Err(ChartError(e.clone())),
            None => Ok(Default::default()),
        };
        Rc::new(drawn)
    });
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| open.set(e.target_unchecked_into::<HtmlDetailsElement>().open()))
    };
    let ontier = {
        let tier = tier.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(t) = value.parse() {
                tier.set(t);
            }
        })
    };
    let onmethod = {
        let method = method.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(m) = Method::ALL.into_iter().find(|m| m.name() == value) {
                method.set(m);
            }
        })
    };
    let tiers = [
        (Tier::Head, "January 2020 code (HEAD)"),
        (Tier::Historical, "2019 code (historical)"),
        (Tier::All, "both"),
    ]
    .map(|(t, label)| html! { <option value={t.name()} selected={t == *tier}>{ label }</option> });
    let methods =
        Method::ALL.map(|m| html! { <option value={m.name()} selected={m == *method}>{ m.label() }</option> });
    let body = match report.as_ref() {
        Some(Ok(report)) => html! {
            <>
                <div class="row">
                    <label for="accuracy-tier">{ "Runs" }</label>
                    <select id="accuracy-tier" onchange={ontier}>{ for tiers }</select>
                    <label for="accuracy-method">{ "Prediction" }</label>
                    <select id="accuracy-method" onchange={onmethod}>{ for methods }</select>
                </div>
                <PlotFrame id="accuracy-plot" title="Predicted against measured"
                    summary={format!("{} runs measured on ABCI, seconds per iteration, log-log; on the line is exact, between the dashed lines within 2x.", report.runs.len())}
                    drawn={(*drawn).clone()}
                    caption={Rc::new(vec![
                        format!("Predicted against measured: {} runs of ParaDL's authors on ABCI, {}", report.runs.len(), method.label()),
                        "ParaDL oracle · How accurate is this?".to_string(),
                    ])} />
                <AccuracyTable report={Rc::clone(report)} />
            </>
        },
        Some(Err(e)) => html! { <p class="error" role="alert">{ e }</p> },
        None => html! {},
    };
    html! {
        <details id="accuracy-view" class="accuracy" {ontoggle}>
            <summary><h3>{ "How accurate is this?" }</h3></summary>
            <p class="source">{ "Training runs of ParaDL's authors on ABCI (4 V100 per node, 2 EDR NICs), recovered from their logs: wall clock, including data loading and framework overhead. Calibrated: each series (same model, strategy, code and batch setting) calibrated on its fewest-GPU run, predicting the others." }</p>
            <FetchLine file={Shipped::MeasuredRuns} fetched={fetched.clone()} />
            { body }
        </details>
    }
}
