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

/// The range `low..=high` as the view keeps it: a single count widened to
/// its neighbour among `counts` (the sweep's, ascending) on the side not
/// just moved, and the whole span as no range at all.
fn widened(low: u64, high: u64, moved_end: bool, counts: &[u64]) -> Option<(u64, u64)> {
    let at = |g: u64| counts.iter().position(|&c| c == g);
    let (low, high) = match (low < high, at(low)) {
        (true, _) | (false, None) => (low, high),
        (false, Some(i)) => {
            let below = i.checked_sub(1).map(|j| counts[j]);
            let above = counts.get(i + 1).copied();
            match (moved_end, below, above) {
                (true, Some(b), _) | (false, Some(b), None) => (b, low),
                (_, _, Some(a)) => (low, a),
                (_, None, None) => return None,
            }
        }
    };
    let all = (
        counts.first().copied().unwrap_or(1),
        counts.last().copied().unwrap_or(1),
    );
    (low < high && (low, high) != all).then_some((low, high))
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
        let (app, counts) = (app.clone(), counts.clone());
        Callback::from(move |e: Event| {
            let Ok(value) = e.target_unchecked_into::<HtmlSelectElement>().value().parse::<u64>() else {
                return;
            };
            let (low, high) = if end {
                (from.min(value), value)
            } else {
                (value, to.max(value))
            };
            app.dispatch(Action::View(ViewAction::PlotRange(widened(low, high, end, &counts))));
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

#[cfg(test)]
mod tests {
    use super::widened;
    use crate::oracle::gpu_counts;

    #[test]
    fn a_range_is_never_one_count_and_the_whole_span_is_none() {
        let counts = gpu_counts(4096);
        assert_eq!(widened(64, 1024, true, &counts), Some((64, 1024)));
        assert_eq!(widened(1, 4096, false, &counts), None);
        // "to" moved down onto "from": "from" gives way
        assert_eq!(widened(64, 64, true, &counts), Some((32, 64)));
        assert_eq!(widened(1, 1, true, &counts), Some((1, 2)));
        // "from" moved up onto "to": "to" gives way, within the span
        assert_eq!(widened(512, 512, false, &counts), Some((512, 1024)));
        assert_eq!(widened(4096, 4096, false, &counts), Some((2048, 4096)));
        // a cluster of 6 GPUs: counts 1, 2, 4, 6
        let six = gpu_counts(6);
        assert_eq!(widened(6, 6, false, &six), Some((4, 6)));
        assert_eq!(widened(4, 4, false, &six), Some((4, 6)));
        assert_eq!(widened(1, 1, true, &[1]), None);
    }
}
