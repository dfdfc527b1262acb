//! `#plot-metric`: what the scaling plot draws, the time of an epoch or the
//! time to train (where adding GPUs stops paying once the growing global
//! batch needs more epochs), kept in the view and so in the share link.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::state::action::{Action, ViewAction};

/// Props of [`PlotMetric`].
#[derive(Properties, PartialEq, Clone)]
pub struct PlotMetricProps {
    /// Whether the time to train is drawn.
    pub to_train: bool,
}

/// A select: epoch time or time to train.
#[function_component(PlotMetric)]
pub fn plot_metric(props: &PlotMetricProps) -> Html {
    let Some(app) = use_app() else { return html! {} };
    let onchange = app.callback(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::View(ViewAction::PlotToTrain(value == "train"))
    });
    html! {
        <span class="field plot-metric">
            <label for="plot-metric">{ "Draw" }</label>
            <select id="plot-metric" {onchange}>
                <option value="epoch" selected={!props.to_train}>{ "time per epoch" }</option>
                <option value="train" selected={props.to_train}>{ "time to train" }</option>
            </select>
        </span>
    }
}
