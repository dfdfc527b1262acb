//! `#scaling-plot`: epoch time, or time, energy or money to train, against
//! GPUs for each chosen strategy.

use yew::prelude::*;

use crate::app::charts::scaling;
use crate::app::components::page::media::use_canvas;
use crate::app::components::plots::gpu_range::GpuRange;
use crate::app::components::plots::plot_frame::PlotFrame;
use crate::app::components::plots::plot_metric::PlotMetric;
use crate::app::components::{AnswerProps, Same};
use crate::app::input::metric::Metric;

/// The scaling curves of a view.
#[function_component(ScalingPlot)]
pub fn scaling_plot(props: &AnswerProps) -> Html {
    // a short screen (a projector at 150%) keeps the text size and draws the plot shorter
    let canvas = use_canvas();
    let answer = &props.answer;
    let compare = answer.view().compare_editions;
    let range = answer.view().gpu_range;
    let metric = answer.view().plot;
    let deps = (
        Same(answer.results.clone()),
        Same(answer.scenario.clone()),
        compare,
        canvas,
        (range, metric),
    );
    let drawn = use_memo(
        deps,
        |(Same(results), Same(scenario), compare, canvas, (range, metric))| {
            let other = if *compare { results.other_sweep(scenario) } else { &[] };
            scaling::draw(&scaling::data(results, other, *range, *metric), *canvas)
        },
    );
    let summary = match &answer.question().run.batch {
        crate::oracle::Batch::SamplesPerGpu(b) => {
            format!(
                "Weak scaling at {} per GPU, log-log; crosses are infeasible; dashed: ideal.",
                crate::oracle::units::count_of(*b, 6, "sample")
            )
        }
        crate::oracle::Batch::MiniBatch(b) => {
            format!("Strong scaling at a mini-batch of {b}, log-log; crosses are infeasible; dashed: ideal.")
        }
    };
    let summary = match metric {
        Metric::Epoch => summary,
        Metric::Train => format!("Time to train (the epochs grow with the global batch). {summary}"),
        Metric::Energy | Metric::Money => format!(
            "{} (the epochs grow with the global batch; nodes and facility included). {summary}",
            crate::oracle::units::capitalised(metric.label())
        ),
    };
    let caption = crate::app::components::caption(answer, "Scaling");
    let controls = html! {
        <>
            <GpuRange answer={answer.clone()} />
            <PlotMetric {metric} />
        </>
    };
    html! { <PlotFrame id="scaling-plot" title="Scaling" summary={summary} drawn={drawn} {caption} {controls} /> }
}
