//! `#lesson`: the lesson a link opened: its question, then (at once, or
//! after "Reveal" in predict-then-reveal mode) what the results show.

use yew::prelude::*;

use super::use_app;
use crate::app::state::action::{Action, PageAction};

/// The lesson above the results.
#[function_component(LessonBox)]
pub fn lesson_box() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let Some(lesson) = state.lesson else {
        return html! {};
    };
    let onreveal = state.send::<MouseEvent>(Action::Page(PageAction::Reveal));
    let onclose = state.send::<MouseEvent>(Action::Page(PageAction::CloseLesson));
    html! {
        <section id="lesson" class="lesson" aria-label="Lesson">
            <h3>{ lesson.lesson.title }</h3>
            <p class="question">{ lesson.lesson.question }</p>
            if lesson.hides_results() {
                <p class="quiet">{ "Make your guess first (write it down, or say it to your neighbour), then reveal the results." }</p>
                <button type="button" id="reveal" onclick={onreveal}>{ "Reveal the results" }</button>
            } else {
                <p class="answer">{ lesson.lesson.answer }</p>
            }
            <button type="button" class="close" onclick={onclose} aria-label="Close the lesson">{ "×" }</button>
        </section>
    }
}
