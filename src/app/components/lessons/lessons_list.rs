//! `#lessons`: ready views for a class, each a link, with or without
//! "predict, then reveal".

use yew::prelude::*;

use crate::app::lessons::{LESSONS, page_address};

/// The list of lessons.
#[function_component(LessonsList)]
pub fn lessons_list() -> Html {
    html! {
        <details id="lessons" class="lessons">
            <summary><h3>{ "Lessons" }</h3></summary>
            <ul>
                { for LESSONS.iter().map(|l| html! {
                    <li data-lesson={l.id}>
                        <strong>{ l.title }</strong>{ " — " }<span class="quiet">{ l.question }</span>{ " " }
                        // each lesson's own page, pre-rendered beside this one (relative: any sub-path works)
                        <a href={page_address(l, false)}>{ "Open" }</a>{ " · " }
                        <a class="predict" href={page_address(l, true)}>{ "Predict, then reveal" }</a>
                    </li>
                }) }
            </ul>
        </details>
    }
}
