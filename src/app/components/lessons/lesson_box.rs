//! `#lesson`: the lesson a link opened: its question, then (at once, or
//! after a guess is committed in predict-then-reveal mode) what the
//! results show, and how close the guess was.

use yew::prelude::*;

use crate::app::components::lessons::guess_form::GuessForm;
use crate::app::components::use_app;
use crate::app::lessons::guess::verdict;
use crate::app::lessons::page_address;
use crate::app::state::LessonState;
use crate::app::state::action::{Action, PageAction};

/// The lesson above the results.
#[function_component(LessonBox)]
pub fn lesson_box() -> Html {
    let app = use_app();
    // a lesson opened from a link is brought into view, and again when its answer is revealed
    // (the answer and the guess's result sit where the question was asked)
    let node = use_node_ref();
    let hiding = app.as_ref().and_then(|a| a.lesson).map(|l| l.hides_results());
    {
        let node = node.clone();
        use_effect_with(hiding, move |_| {
            if let Some(e) = node.cast::<web_sys::Element>() {
                crate::app::page::browser::bring_to_top(&e);
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
    let answer = state.answer.clone();
    // the answer shown is of another setup than the lesson's (edited since it opened): the
    // lesson's answer is about its own; undone, the note goes
    let stale = answer
        .as_ref()
        .is_some_and(|a| *a.question() != (lesson.inputs)().question);
    let lesson_link = page_address(lesson, false);
    html! {
        <section id="lesson" class="lesson" aria-label="Lesson" ref={node}>
            <h3>{ lesson.title }</h3>
            <p class="question">{ lesson.question }</p>
            if hides {
                <GuessForm asks={lesson.asks} />
            } else {
                <p class="answer">{ lesson.answer }</p>
                if let (Some(g), Some(a)) = (guess, &answer) {
                    <p id="guess-result" class="guess-result">{ verdict(g, &a.results) }</p>
                }
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
