//! `#summary`: the compact bar at the top of the page that stays in view:
//! which network on which cluster, the GPU budget (editable there), the
//! other inputs that decide the answer ([`BarInputs`]), and
//! the verdict (the best strategy and its epoch), which is all a screen
//! reader announces when the results change.

use yew::prelude::*;

use crate::app::components::page::media::{SHORT_SCREEN, use_media};
use crate::app::components::page::notice::Notice;
use crate::app::components::results::bar_inputs::BarInputs;
use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::results::explained_sentence::Said;
use crate::app::components::results::fix_line::FixLine;
use crate::app::components::results::verdict::{best_verdict, none_fits, verdict};
use crate::app::components::use_app;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::keys::{Key, RunKey};
use crate::app::state::action::{Action, PageAction, RunAction};
use crate::oracle::{Quantity, units};

/// The bar.
#[function_component(SummaryBar)]
pub fn summary_bar() -> Html {
    let short = use_media(SHORT_SCREEN);
    let Some(app) = use_app() else {
        return html! {};
    };
    let Some(answer) = app.answer.clone() else {
        return html! {};
    };
    let hidden = app.lesson.is_some_and(|l| l.hides_results());
    let ranking = &answer.results.ranking;
    let by = answer.results.rank_by;
    // the best epoch opens its explanation, where the bar is seen (a projector's bar keeps
    // the verdict for screen readers only: nothing focusable hides there)
    let said = match best_verdict(ranking, by).filter(|_| !hidden && !short) {
        Some((before, best, after)) => html! { <>
            { before }
            <ExplainButton target={ExplainTarget::new(best.strategy, best.gpus, Quantity::Total)}
                text={units::seconds(best.total_s)} value={best.total_s} />
            { after }
        </> },
        None if hidden => html! { "Results hidden until you reveal them." },
        None => match none_fits(ranking).filter(|_| !short) {
            Some(said) => html! { <Said spans={said} /> },
            None => html! { verdict(ranking, by) },
        },
    };
    let oninput = app.callback(|e: InputEvent| {
        Action::Run(RunAction::Set(
            RunKey::Gpus,
            e.target_unchecked_into::<web_sys::HtmlInputElement>().value(),
        ))
    });
    // a GPU count committed in the bar: its ranking is what was asked for, brought into view
    // (on a phone the lesson and the plot sit between the bar and the ranking)
    let onchange = {
        let end = app.send::<Event>(Action::Page(PageAction::EndEdit));
        Callback::from(move |e: Event| {
            end.emit(e);
            let Some(window) = web_sys::window() else {
                return;
            };
            let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
            if let Some(ranking) = window.document().and_then(|d| d.get_element_by_id("ranking")) {
                // already in view (a projector's ranking under the lesson): left where it is
                let top = ranking.get_bounding_client_rect().top();
                if top < 0.0 || top > height * 0.6 {
                    ranking.scroll_into_view();
                }
            }
        })
    };
    let error = app.error(Key::Run(RunKey::Gpus)).is_some();
    html! {
        <div id="summary" class="summary-bar">
            <BarInputs />
            <label class="bar-gpus">
                <input id="bar-gpus" type="text" inputmode="numeric" size="5" aria-label="GPU budget"
                    aria-invalid={error.to_string()} value={app.run.text(RunKey::Gpus)} {oninput} {onchange} />
                { " GPUs" }
            </label>
            <FixLine />
            // what a pick applied, beside the inputs it changed (in view wherever the page is scrolled)
            <Notice id="applied" message={app.applied.clone().map(AttrValue::from)} undo={app.can_undo()} />
            // a sentence: its number is a link in running text (exempt from the target size)
            <span id="verdict" class="verdict said" role="status" aria-live="polite">{ said }</span>
        </div>
    }
}
