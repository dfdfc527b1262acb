//! A calibration's factors and every measured run before and after it.

use yew::prelude::*;

use crate::oracle::{Calibration, units};

/// Props of [`CalibrationTable`].
#[derive(Properties, PartialEq, Clone)]
pub struct CalibrationTableProps {
    /// The calibration shown (the last valid one).
    pub calibration: Calibration,
    /// Lines of the typed runs that have an error now.
    #[prop_or_default]
    pub error_lines: Vec<usize>,
}

/// The factors, then the runs.
#[function_component(CalibrationTable)]
pub fn calibration_table(props: &CalibrationTableProps) -> Html {
    let c = &props.calibration;
    let factor = |v: f64| units::significant(v, 3);
    // what deserves a second look, next to the row it is about
    let flag = |said: Vec<&str>| {
        (!said.is_empty()).then(|| {
            let text = said.join("; ");
            html! { <span class="flag" role="note" title={text.clone()} aria-label={text}>{ " ⚠" }</span> }
        })
    };
    let strategies = c.strategies.iter().map(|s| {
        let said: Vec<&str> = c
            .warnings
            .iter()
            .filter(|w| w.strategy == Some(s.strategy))
            .map(|w| w.message.as_str())
            .collect();
        html! {
            <tr data-strategy={s.strategy.name()} data-flagged={(!said.is_empty()).to_string()}>
                <th scope="row">{ s.strategy.name() }{ for flag(said) }</th>
                <td class="num">{ s.runs }</td>
                <td class="num" data-kappa="compute">{ factor(s.compute) }</td>
                <td class="num" data-kappa="communication">{ factor(s.communication) }</td>
            </tr>
        }
    });
    let runs = c.runs.iter().map(|r| {
        let bad = props.error_lines.contains(&r.line);
        let said: Vec<&str> = c
            .warnings
            .iter()
            .filter(|w| w.lines.contains(&r.line))
            .map(|w| w.message.as_str())
            .collect();
        html! {
            <tr data-line={r.line.to_string()} data-flagged={(!said.is_empty()).to_string()}
                class={classes!(bad.then_some("invalid"))}>
                <td class="num">{ r.line }{ for flag(said) }</td>
                <td>{ r.measured.strategy.name() }</td>
                <td class="num">{ r.measured.gpus }</td>
                <td class="num">{ r.measured.mini_batch }</td>
                <td class="num">{ units::seconds(r.measured.iteration_s) }</td>
                <td class="num">{ units::seconds(r.before.total_s) }</td>
                <td class="num">{ units::percent(r.accuracy_before) }</td>
                <td class="num" data-after-s={r.after.total_s.to_string()}>{ units::seconds(r.after.total_s) }</td>
                <td class="num">{ units::percent(r.accuracy_after) }</td>
            </tr>
        }
    });
    html! {
        <div class="calibration-result">
            <table class="factors" tabindex="0">
                <caption>{ format!("Factors of the {} edition", c.edition) }</caption>
                <thead><tr>
                    <th scope="col">{ "strategy" }</th><th scope="col">{ "runs" }</th>
                    <th scope="col">{ "κ compute" }</th><th scope="col">{ "κ communication" }</th>
                </tr></thead>
                <tbody>
                    { for strategies }
                    <tr data-strategy="global">
                        <th scope="row">{ "others" }</th>
                        <td class="num">{ c.runs.len() }</td>
                        <td class="num">{ factor(c.global.compute) }</td>
                        <td class="num">{ factor(c.global.communication) }</td>
                    </tr>
                </tbody>
            </table>
            if !c.warnings.is_empty() {
                <ul class="calibration-warnings" id="calibration-warnings">
                    { for c.warnings.iter().map(|w| html! { <li class="warning">{ "⚠ " }{ &w.message }</li> }) }
                </ul>
            }
            <table class="calibrated-runs" tabindex="0">
                <caption>{ format!(
                    "Each run per iteration: accuracy {} before, {} after (min(pred/meas, meas/pred))",
                    units::percent(c.mean_accuracy_before), units::percent(c.mean_accuracy_after)
                ) }</caption>
                <thead><tr>
                    <th scope="col">{ "line" }</th><th scope="col">{ "strategy" }</th><th scope="col">{ "GPUs" }</th>
                    <th scope="col">{ "batch" }</th><th scope="col">{ "measured" }</th><th scope="col">{ "before" }</th>
                    <th scope="col">{ "acc." }</th><th scope="col">{ "after" }</th><th scope="col">{ "acc." }</th>
                </tr></thead>
                <tbody>{ for runs }</tbody>
            </table>
        </div>
    }
}
