//! `#comparison-plot`: compute and each kind of communication per strategy
//! at the GPU budget.

use yew::prelude::*;

use super::ViewProps;
use super::plot_frame::PlotFrame;
use crate::app::charts::comparison;

/// The stacked bars of a view.
#[function_component(ComparisonPlot)]
pub fn comparison_plot(props: &ViewProps) -> Html {
    let drawn = use_memo(props.view.clone(), |view| {
        comparison::draw(&comparison::data(&view.results, &view.inputs.strategies))
    });
    let summary = format!(
        "Epoch time at {} GPUs split into compute and each kind of communication; pale bars are infeasible.",
        props.view.results.gpus
    );
    let caption = super::caption(&props.view, "Where the time goes");
    html! { <PlotFrame id="comparison-plot" title="Where the time goes" summary={summary} drawn={drawn} {caption} /> }
}
