//! `#lesson`: the lesson a link opened: its question, then (at once, or
//! after "Reveal" in predict-then-reveal mode) what the results show.

use yew::prelude::*;

use super::AppContext;
use crate::app::state::Action;

/// The lesson above the results.
#[function_component(LessonBox)]
pub fn lesson_box() -> Html {
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let Some(lesson) = state.lesson else {
        return html! {};
    };
    let onreveal = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Reveal))
    };
    let onclose = Callback::from(move |_: MouseEvent| state.dispatch(Action::CloseLesson));
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
