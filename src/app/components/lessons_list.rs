//! `#lessons`: ready views for a class, each a link, with or without
//! "predict, then reveal".

use yew::prelude::*;

use crate::app::browser;
use crate::app::lessons::{LESSONS, query};

/// The list of lessons.
#[function_component(LessonsList)]
pub fn lessons_list() -> Html {
    let page = browser::share_url("");
    html! {
        <details id="lessons" class="lessons">
            <summary><h3>{ "Lessons" }</h3></summary>
            <ul>
                { for LESSONS.iter().map(|l| html! {
                    <li data-lesson={l.id}>
                        <strong>{ l.title }</strong>{ " — " }<span class="quiet">{ l.question }</span>{ " " }
                        <a href={format!("{page}{}", query(l, false))}>{ "Open" }</a>{ " · " }
                        <a class="predict" href={format!("{page}{}", query(l, true))}>{ "Predict, then reveal" }</a>
                    </li>
                }) }
            </ul>
        </details>
    }
}
