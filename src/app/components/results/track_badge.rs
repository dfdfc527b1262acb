//! A strategy's track record beside its epoch (`×5.6`): how far this
//! edition has typically been from measured runs of that strategy. A link
//! that opens "How accurate is this?" (`#accuracy-view`), where those runs
//! and the accuracy of each are shown.

use wasm_bindgen::JsCast;
use web_sys::HtmlDetailsElement;
use yew::prelude::*;

/// Props of [`TrackBadge`].
#[derive(Properties, PartialEq, Clone)]
pub struct TrackBadgeProps {
    /// The factor as shown (`×5.6`).
    pub text: AttrValue,
    /// The record in words.
    pub sentence: AttrValue,
}

/// The badge.
#[function_component(TrackBadge)]
pub fn track_badge(props: &TrackBadgeProps) -> Html {
    let onclick = Callback::from(|e: MouseEvent| {
        let view = gloo::utils::document()
            .get_element_by_id("accuracy-view")
            .and_then(|v| v.dyn_into::<HtmlDetailsElement>().ok());
        if let Some(view) = view {
            e.prevent_default();
            view.set_open(true);
            view.scroll_into_view();
        }
    });
    html! {
        <a class="track" href="#accuracy-view" title={props.sentence.clone()}
            aria-label={format!("{}: open how accurate this is", props.sentence)} {onclick}>
            <small>{ props.text.clone() }</small>
        </a>
    }
}
