//! `#lesson`: the lesson a link opened: its question, then (at once, or
//! after a guess is committed in predict-then-reveal mode) what the
//! results show, and how close the guess was.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::use_app;
use crate::app::browser;
use crate::app::input::quantity;
use crate::app::lessons::query;
use crate::app::state::action::{Action, PageAction};
use crate::app::state::{Guess, LessonState};
use crate::oracle::{Projection, Strategy, units};

/// How close a guess was to the model's answer, in words: the strategy
/// against the fastest that fits (or the fastest at all, said not to fit,
/// when none does), and the epoch against that strategy's.
fn closeness(guess: Guess, ranking: &[Projection]) -> String {
    let fits = ranking.iter().find(|p| p.feasible);
    let Some(answer) = fits.or(ranking.first()) else {
        return format!("You guessed {}.", guess.strategy.label());
    };
    let strategy = match fits {
        Some(best) if best.strategy == guess.strategy => format!("You guessed {}: right.", guess.strategy.label()),
        Some(best) => format!(
            "You guessed {}; the model says {}.",
            guess.strategy.label(),
            best.strategy.label()
        ),
        None => format!(
            "You guessed {}; no strategy fits in a GPU's memory here, so none can train as asked (the fastest on paper is {}).",
            guess.strategy.label(),
            answer.strategy.label()
        ),
    };
    match guess.seconds.filter(|s| *s > 0.0) {
        Some(s) => format!(
            "{strategy} Your epoch of {} is ×{} the model's {} for {}.",
            units::seconds(s),
            units::significant(s / answer.total_s, 2),
            units::seconds(answer.total_s),
            answer.strategy.label()
        ),
        None => strategy,
    }
}

/// The lesson above the results.
#[function_component(LessonBox)]
pub fn lesson_box() -> Html {
    let strategy = use_state(|| Strategy::Data);
    let time = use_state(String::new);
    let app = use_app();
    // a lesson opened from a link is brought into view, and again when its answer is revealed
    // (the answer and the guess's result sit where the question was asked)
    let node = use_node_ref();
    let hiding = app.as_ref().and_then(|a| a.lesson).map(|l| l.hides_results());
    {
        let node = node.clone();
        use_effect_with(hiding, move |_| {
            if let Some(e) = node.cast::<web_sys::Element>() {
                e.scroll_into_view();
            }
        });
    }
    let Some(state) = app else {
        return html! {};
    };
    let Some(LessonState { lesson, guess, .. }) = state.lesson else {
        return html! {};
    };
    let hides = state.lesson.is_some_and(|l| l.hides_results());
    let onclose = state.send::<MouseEvent>(Action::Page(PageAction::CloseLesson));
    let onstrategy = {
        let strategy = strategy.clone();
        Callback::from(move |e: Event| {
            if let Ok(s) = e.target_unchecked_into::<HtmlSelectElement>().value().parse() {
                strategy.set(s);
            }
        })
    };
    let ontime = {
        let time = time.clone();
        Callback::from(move |e: InputEvent| time.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let seconds = quantity::parse(&time, "s", 1.0)
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0);
    let onguess = state.send::<MouseEvent>(Action::Page(PageAction::Guess(Guess {
        strategy: *strategy,
        seconds,
    })));
    let onreveal = state.send::<MouseEvent>(Action::Page(PageAction::Reveal));
    let answer = state.answer.clone();
    let ranking = answer.as_ref().map_or(&[][..], |a| a.results.ranking.as_slice());
    // the answer shown is of another setup than the lesson's (edited since it opened): the
    // lesson's answer is about its own; undone, the note goes
    let stale = answer
        .as_ref()
        .is_some_and(|a| *a.question() != (lesson.inputs)().question);
    let lesson_link = format!("{}{}", browser::share_url(""), query(lesson, false));
    html! {
        <section id="lesson" class="lesson" aria-label="Lesson" ref={node}>
            <h3>{ lesson.title }</h3>
            <p class="question">{ lesson.question }</p>
            if hides {
                <div class="guess">
                    <label for="guess-strategy">{ "Your guess: the best strategy" }</label>
                    <select id="guess-strategy" onchange={onstrategy}>
                        { for Strategy::ALL.iter().map(|s| html! { <option value={s.name()} selected={*s == *strategy}>{ s.label() }</option> }) }
                    </select>
                    <label for="guess-time">{ "and its epoch (e.g. 5 min; optional)" }</label>
                    <input id="guess-time" type="text" value={(*time).clone()} oninput={ontime} />
                    <button type="button" id="guess" onclick={onguess}>{ "Commit my guess and reveal" }</button>
                    <button type="button" id="reveal" class="quiet" onclick={onreveal}>{ "Reveal without guessing" }</button>
                </div>
            } else {
                <p class="answer">{ lesson.answer }</p>
                if let Some(g) = guess { <p id="guess-result" class="guess-result">{ closeness(g, ranking) }</p> }
            }
            if stale && !hides {
                <p id="lesson-stale" class="stale-lesson" role="note">
                    { "You have changed the setup since the lesson opened; its answer is about the lesson's own. " }
                    <a href={lesson_link}>{ "Back to the lesson's setup" }</a>
                </p>
            }
            <button type="button" class="close" onclick={onclose} aria-label="Close the lesson">{ "×" }</button>
        </section>
    }
}
