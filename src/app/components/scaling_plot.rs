//! `#scaling-plot`: epoch time against GPUs for each chosen strategy.

use yew::prelude::*;

use super::ViewProps;
use super::plot_frame::PlotFrame;
use crate::app::charts::scaling;

/// The scaling curves of a view.
#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &ViewProps) -> Html {
    let drawn = use_memo(props.view.clone(), |view| scaling::draw(&scaling::data(&view.results)));
    let summary = match &props.view.inputs.batch {
        crate::oracle::Batch::SamplesPerGpu(b) => {
            format!("Weak scaling at {b} samples per GPU, log-log; crosses are infeasible; dashed: ideal.")
        }
        crate::oracle::Batch::MiniBatch(b) => {
            format!("Strong scaling at a mini-batch of {b}, log-log; crosses are infeasible; dashed: ideal.")
        }
    };
    let caption = super::caption(&props.view, "Scaling");
    html! { <PlotFrame id="scaling-plot" title="Scaling" summary={summary} drawn={drawn} {caption} /> }
}
