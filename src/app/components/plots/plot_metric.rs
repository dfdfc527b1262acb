//! `#plot-metric`: what the scaling plot draws, the time of an epoch, the
//! time to train (where adding GPUs stops paying once the growing global
//! batch needs more epochs), or the energy or money to train, kept in the
//! view and so in the share link.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::input::metric::Metric;
use crate::app::state::action::{Action, ViewAction};

/// Props of [`PlotMetric`].
#[derive(Properties, PartialEq, Clone)]
pub struct PlotMetricProps {
    /// What is drawn.
    pub metric: Metric,
}

/// A select of the metrics.
#[function_component(PlotMetric)]
pub fn plot_metric(props: &PlotMetricProps) -> Html {
    let Some(app) = use_app() else { return html! {} };
    let onchange = app.callback(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::View(ViewAction::PlotMetric(Metric::from_name(&value).unwrap_or_default()))
    });
    html! {
        <span class="field plot-metric">
            <label for="plot-metric">{ "Draw" }</label>
            <select id="plot-metric" {onchange}>
                { for Metric::ALL.into_iter().map(|m| html! {
                    <option value={m.name()} selected={props.metric == m}>{ m.label() }</option>
                }) }
            </select>
        </span>
    }
}
