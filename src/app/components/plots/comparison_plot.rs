//! `#comparison-plot`: compute and each kind of communication per strategy
//! at the GPU budget.

use yew::prelude::*;

use crate::app::charts::comparison;
use crate::app::components::page::media::use_canvas;
use crate::app::components::plots::plot_frame::PlotFrame;
use crate::app::components::{AnswerProps, Same};

/// The stacked bars of a view.
#[function_component(ComparisonPlot)]
pub fn comparison_plot(props: &AnswerProps) -> Html {
    let canvas = use_canvas();
    let drawn = use_memo(
        (Same(props.answer.results.clone()), canvas),
        |(Same(results), canvas)| comparison::draw(&comparison::data(results, &results.strategies), *canvas),
    );
    let summary = format!(
        "Epoch time at {} GPUs split into compute and each kind of communication; pale bars are infeasible.",
        props.answer.results.gpus
    );
    let caption = crate::app::components::caption(&props.answer, "Where the time goes");
    html! { <PlotFrame id="comparison-plot" title="Where the time goes" summary={summary} drawn={drawn} {caption} /> }
}
