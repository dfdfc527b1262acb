//! `#summary`: the compact bar at the top of the page that stays in view:
//! which network on which cluster, the GPU budget (editable there), the
//! other inputs that decide the answer ([`BarInputs`]), and
//! the verdict (the best strategy and its epoch), which is all a screen
//! reader announces when the results change.

use yew::prelude::*;

use crate::app::components::page::media::{SHORT_SCREEN, use_media};
use crate::app::components::results::bar_inputs::BarInputs;
use crate::app::components::results::explain_button::ExplainButton;
use crate::app::components::results::explained_sentence::{Said, Span, limits, plain};
use crate::app::components::use_app;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::keys::{Key, RunKey};
use crate::app::state::action::{Action, PageAction, RunAction};
use crate::oracle::{Projection, Quantity, units};

/// The verdict when a strategy fits, around its epoch: the words before
/// the epoch, the best projection, and the words after it.
fn best_verdict(ranking: &[Projection]) -> Option<(String, &Projection, String)> {
    let best = ranking.iter().find(|p| p.feasible)?;
    let fitting = ranking.iter().filter(|p| p.feasible).count();
    Some((
        format!("Best: {} at {} GPUs, ", best.strategy.label(), best.gpus),
        best,
        format!(
            " per epoch{}; {fitting} of {} strategies fit.",
            band_words(best),
            ranking.len()
        ),
    ))
}

/// The band of a projected epoch, in words: where measured epochs of runs
/// like it fell (the engine's track record), or nothing in the ideal
/// edition.
fn band_words(p: &Projection) -> String {
    p.band.as_ref().map_or_else(String::new, |band| {
        let whose = if band.runs > 0 {
            format!("{} published runs of its GPU class", band.runs)
        } else {
            "no published run of its GPU class: the widest band".into()
        };
        format!(
            " (likely {} to {}: {whose})",
            units::seconds(band.low * p.total_s),
            units::seconds(band.high * p.total_s)
        )
    })
}

/// The verdict when nothing fits: the fastest strategy and its limits,
/// each number opening its explanation.
fn none_fits(ranking: &[Projection]) -> Option<Vec<Span>> {
    let p = ranking.first()?;
    let mut said = vec![Span::Text(format!(
        "No strategy fits at {} GPUs. The fastest, {}: ",
        p.gpus,
        p.strategy.name()
    ))];
    said.extend(limits(p));
    said.push(Span::text("."));
    Some(said)
}

/// The verdict of a ranking, in one sentence.
pub fn verdict(ranking: &[Projection]) -> String {
    match best_verdict(ranking) {
        Some((before, best, after)) => format!("{before}{}{after}", units::seconds(best.total_s)),
        None => none_fits(ranking).map_or_else(|| "No strategy applies at this GPU count.".into(), |s| plain(&s)),
    }
}

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
    // the best epoch opens its explanation, where the bar is seen (a projector's bar keeps
    // the verdict for screen readers only: nothing focusable hides there)
    let said = match best_verdict(ranking).filter(|_| !hidden && !short) {
        Some((before, best, after)) => html! { <>
            { before }
            <ExplainButton target={ExplainTarget::new(best.strategy, best.gpus, Quantity::Total)}
                text={units::seconds(best.total_s)} value={best.total_s} />
            { after }
        </> },
        None if hidden => html! { "Results hidden until you reveal them." },
        None => match none_fits(ranking).filter(|_| !short) {
            Some(said) => html! { <Said spans={said} /> },
            None => html! { verdict(ranking) },
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
            <span class="about">
                <strong>{ answer.scenario.network().name() }</strong>{ " on " }
                <strong>{ answer.scenario.cluster().name() }</strong>
            </span>
            <label class="bar-gpus">
                <input id="bar-gpus" type="text" inputmode="numeric" size="5" aria-label="GPU budget"
                    aria-invalid={error.to_string()} value={app.run.text(RunKey::Gpus)} {oninput} {onchange} />
                { " GPUs" }
            </label>
            <BarInputs />
            <span id="verdict" class="verdict" role="status" aria-live="polite">{ said }</span>
        </div>
    }
}
