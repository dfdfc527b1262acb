//! `#memory-plot`: memory per GPU of each strategy against the capacity.

use yew::prelude::*;

use super::ViewProps;
use super::plot_frame::PlotFrame;
use crate::app::charts::memory;
use crate::oracle::units;

/// The memory bars of a view.
#[function_component(MemoryPlot)]
pub fn memory_plot(props: &ViewProps) -> Html {
    let drawn = use_memo(props.view.clone(), |view| {
        memory::draw(&memory::data(&view.results, &view.inputs.strategies))
    });
    let summary = format!(
        "Memory per GPU at {} GPUs by part (weights, gradients, optimizer states, activations, reserved) against the {} a GPU holds; pale bars marked ✗ do not fit, bars above three capacities are cut.",
        props.view.results.gpus,
        units::bytes(props.view.results.capacity_bytes)
    );
    let caption = super::caption(&props.view, "Memory");
    html! { <PlotFrame id="memory-plot" title="Memory" summary={summary} drawn={drawn} {caption} /> }
}
