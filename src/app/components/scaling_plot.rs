//! `#scaling-plot`: epoch time against GPUs for each chosen strategy.

use yew::prelude::*;

use super::ViewProps;
use super::media::use_media;
use super::plot_frame::PlotFrame;
use crate::app::charts::{HEIGHT, scaling};

/// Screens this short draw the scaling plot [`SHORT_HEIGHT`] tall, so that
/// it fits under the ranking.
pub const SHORT_SCREEN: &str = "(max-height: 560px) and (min-width: 700px)";
/// The scaling plot's height on a short screen, in SVG units.
pub const SHORT_HEIGHT: u32 = 200;

/// The scaling curves of a view.
#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &ViewProps) -> Html {
    // a short screen (a projector at 150%) keeps the text size and draws the plot shorter
    let short = use_media(SHORT_SCREEN);
    let height = if short { SHORT_HEIGHT } else { HEIGHT };
    let drawn = use_memo((props.clone(), height), |(props, height)| {
        scaling::draw(&scaling::data(&props.view.results), *height)
    });
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
