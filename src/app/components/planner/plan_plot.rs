//! `#plan-plot`: the planner's Pareto front; a click on a point shows that
//! configuration in the main view.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::charts::plan;
use crate::app::components::plots::plot_frame::PlotFrame;
use crate::oracle::{Config, Plan};

/// Props of [`PlanPlot`].
#[derive(Properties, Clone)]
pub struct PlanPlotProps {
    /// The search's result.
    pub plan: Rc<Plan>,
    /// `M`: a GPU's memory (the fill's scale).
    pub capacity_bytes: f64,
    /// Called with the configuration clicked.
    pub onpick: Callback<Config>,
    /// The exported plot's caption.
    pub caption: Rc<Vec<String>>,
}

impl PartialEq for PlanPlotProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.plan, &other.plan)
            && self.capacity_bytes == other.capacity_bytes
            && self.onpick == other.onpick
            && self.caption == other.caption
    }
}

/// The front as a scatter.
#[function_component(PlanPlot)]
pub fn plan_plot(props: &PlanPlotProps) -> Html {
    let drawn = use_memo((Rc::clone(&props.plan), props.capacity_bytes.to_bits()), |(p, bits)| {
        plan::draw(&plan::data(p, f64::from_bits(*bits)))
    });
    let onpick = {
        let (plan, pick) = (Rc::clone(&props.plan), props.onpick.clone());
        Callback::from(move |i: usize| {
            if let Some(config) = plan.front.get(i) {
                pick.emit(config.clone());
            }
        })
    };
    let summary = format!(
        "The {} configurations no other beats in time, GPU-hours and memory at once, log-log; fill: memory per GPU.",
        props.plan.front.len()
    );
    html! { <PlotFrame id="plan-plot" title="Pareto front" {summary} {drawn} onpick={Some(onpick)} caption={Rc::clone(&props.caption)} /> }
}
