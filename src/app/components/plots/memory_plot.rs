//! `#memory-plot`: memory per GPU of each strategy against the capacity.

use yew::prelude::*;

use crate::app::charts::memory;
use crate::app::components::page::media::use_canvas;
use crate::app::components::plots::plot_frame::PlotFrame;
use crate::app::components::{AnswerProps, Same};
use crate::oracle::units;

/// The memory bars of a view.
#[function_component(MemoryPlot)]
pub fn memory_plot(props: &AnswerProps) -> Html {
    let canvas = use_canvas();
    let drawn = use_memo(
        (Same(props.answer.results.clone()), canvas),
        |(Same(results), canvas)| memory::draw(&memory::data(results, &results.strategies), *canvas),
    );
    let summary = format!(
        "Per GPU at {} GPUs, by part (weights, gradients, optimizer states, activations, the backward pass's buffers, workspace, allocator rounding, reserved) against the {} a GPU holds; pale bars marked ✗ do not fit; bars taller than the axis, which the ones that fit set, are cut and labelled ↑ with their size.",
        props.answer.results.gpus,
        units::bytes(props.answer.results.capacity_bytes)
    );
    let caption = crate::app::components::caption(&props.answer, "Memory");
    // the largest batch each strategy fits in a GPU (the engine's capacity search), in words
    let results = &props.answer.results;
    let fits = results.fits().iter().map(|c| {
        let said = match (c.max_mini_batch, c.max_samples_per_gpu) {
            (Some(b), Some(per_gpu)) => format!("{b} ({} per GPU)", units::significant(per_gpu, 3)),
            _ => "not one sample".into(),
        };
        html! { <li data-strategy={c.strategy.name()}><strong>{ c.strategy.name() }</strong>{ format!(": {said}") }</li> }
    });
    let controls = html! {
        <div id="capacity" class="capacity">
            { format!("Largest batch that fits in {} per GPU at {} GPUs:", units::bytes(results.capacity_bytes), results.gpus) }
            <ul>{ for fits }</ul>
        </div>
    };
    html! { <PlotFrame id="memory-plot" title="Memory" summary={summary} drawn={drawn} {caption} {controls} /> }
}
