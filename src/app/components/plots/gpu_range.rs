//! `#plot-range`: the GPU counts the scaling plot spans (a teacher shows 64
//! to 1,024), kept in the view and so in the share link.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::state::Answer;
use crate::app::state::action::{Action, ViewAction};
use crate::oracle::gpu_counts;

/// Props of [`GpuRange`].
#[derive(Properties, Clone)]
pub struct GpuRangeProps {
    pub answer: Rc<Answer>,
}

impl PartialEq for GpuRangeProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.answer, &other.answer)
    }
}

/// Two selects of the sweep's GPU counts: from and to.
#[function_component(GpuRange)]
pub fn gpu_range(props: &GpuRangeProps) -> Html {
    let Some(app) = use_app() else { return html! {} };
    let results = &props.answer.results;
    let counts = gpu_counts(results.max_gpus.max(results.gpus).max(2));
    let all = (1, counts.last().copied().unwrap_or(2));
    let (from, to) = props.answer.view().gpu_range.unwrap_or(all);
    let pick = |end: bool| {
        let app = app.clone();
        Callback::from(move |e: Event| {
            let Ok(value) = e.target_unchecked_into::<HtmlSelectElement>().value().parse::<u64>() else {
                return;
            };
            let (low, high) = if end {
                (from.min(value), value)
            } else {
                (value, to.max(value))
            };
            // a range of one count is widened to the next, whole span is no range
            let range = match (low, high) {
                (l, h) if (l, h) == all => None,
                (l, h) if l >= h => Some(if end { (h / 2, h).max((1, 2)) } else { (l, l * 2) }),
                other => Some(other),
            };
            app.dispatch(Action::View(ViewAction::PlotRange(range)));
        })
    };
    let options = |chosen: u64| {
        counts
            .iter()
            .map(|&g| html! { <option value={g.to_string()} selected={g == chosen}>{ g }</option> })
            .collect::<Html>()
    };
    html! {
        <div id="plot-range" class="plot-range">
            <label>{ "GPUs from " }<select id="plot-from" onchange={pick(false)}>{ options(from) }</select></label>
            <label>{ " to " }<select id="plot-to" onchange={pick(true)}>{ options(to) }</select></label>
        </div>
    }
}
