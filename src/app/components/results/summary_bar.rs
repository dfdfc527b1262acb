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
use crate::app::components::results::explained_sentence::{Said, Span, limits, plain};
use crate::app::components::results::fix_line::FixLine;
use crate::app::components::use_app;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::keys::{Key, RunKey};
use crate::app::state::action::{Action, PageAction, RunAction};
use crate::oracle::{Projection, Quantity, units};

/// The verdict when a strategy fits, around its epoch: the words before
/// the epoch, the best projection, and the words after it (a tie said as
/// one).
fn best_verdict(ranking: &[Projection]) -> Option<(String, &Projection, String)> {
    let mut fitting = ranking.iter().filter(|p| p.feasible);
    let best = fitting.next()?;
    let count = ranking.iter().filter(|p| p.feasible).count();
    let tie = fitting
        .next()
        .filter(|next| ties(best, next))
        .map_or_else(String::new, |next| {
            format!(
                ", tied with {} at {}{}: their likely times overlap, so only measured runs can order them",
                next.strategy.label(),
                units::seconds(next.total_s),
                band_words(next)
            )
        });
    Some((
        format!("Best: {} at {} GPUs, ", best.strategy.label(), best.gpus),
        best,
        format!(
            " per epoch{}{tie}; {count} of {} strategies fit.",
            band_words(best),
            ranking.len()
        ),
    ))
}

/// Whether two projections' likely epochs overlap (their bands, the
/// engine's track record), so that which is faster is not known.
///
/// # Formula
/// `high_a · T_a ≥ low_b · T_b` for the faster `a` (no band: never).
pub fn ties(a: &Projection, b: &Projection) -> bool {
    match (&a.band, &b.band) {
        (Some(x), Some(y)) => x.high * a.total_s >= y.low * b.total_s,
        _ => false,
    }
}

/// The band of a projected epoch, in words: where measured epochs of runs
/// like it fell (the engine's track record; its basis is in the number's
/// explanation), or nothing in the ideal edition.
fn band_words(p: &Projection) -> String {
    p.band.as_ref().map_or_else(String::new, |band| {
        format!(
            " (likely {} to {})",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Batch, Precision, RankBy, RunSpec, Strategy, presets};

    #[test]
    fn a_gap_inside_the_likely_times_is_a_tie_said_as_one() {
        let scenario = presets::scenario("resnet50", "dgx-h100").unwrap();
        let mut run = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
        run.precision = Precision::Fp16;
        let ranking = scenario.rank(&run, RankBy::Time).points;
        let said = verdict(&ranking);
        let fitting: Vec<&Projection> = ranking.iter().filter(|p| p.feasible).collect();
        assert_eq!(said.contains("tied with"), ties(fitting[0], fitting[1]), "{said}");
        // two runs 1.5x apart whose bands overlap are a tie; far apart, not
        let mut a = fitting[0].clone();
        let mut b = a.clone();
        b.strategy = Strategy::DataFilter;
        b.total_s = a.total_s * 1.5;
        if let (Some(x), Some(y)) = (&mut a.band, &mut b.band) {
            (x.low, x.high, y.low, y.high) = (0.8, 1.6, 0.8, 1.6);
        }
        let said = verdict(&[a.clone(), b.clone()]);
        assert!(
            said.contains(&format!("tied with {}", Strategy::DataFilter.label())),
            "{said}"
        );
        b.total_s = a.total_s * 3.0;
        assert!(!verdict(&[a, b]).contains("tied"));
    }
}
