//! `use_media`: whether a CSS media query matches, following changes; and
//! `use_canvas`, the size plots are drawn at on this screen (a phone's
//! narrow, a projector's short).

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::app::charts::Canvas;
use crate::app::page::browser::media as matches;

/// A phone's screen: plots and the strategy diagram are drawn narrow, at
/// about its width, so that their text stays 12 px.
pub const PHONE: &str = "(max-width: 600px)";

/// Whether `query` matches now; re-renders when that changes.
#[hook]
pub fn use_media(query: &'static str) -> bool {
    let matched = use_state(|| matches(query).is_some_and(|m| m.matches()));
    {
        let matched = matched.clone();
        use_effect_with(query, move |query| {
            let list = matches(query);
            let listener = list.as_ref().map(|list| {
                let watched = list.clone();
                let listener = Closure::<dyn Fn()>::new(move || matched.set(watched.matches()));
                let _ = list.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
                listener
            });
            move || {
                if let (Some(list), Some(listener)) = (list, listener) {
                    let _ = list.remove_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
                }
            }
        });
    }
    *matched
}

/// Screens this short (a projector at 150%) draw plots [`SHORT_HEIGHT`]
/// tall, so that a plot fits under the ranking.
pub const SHORT_SCREEN: &str = "(max-height: 560px) and (min-width: 700px)";
/// A plot's height on a short screen, in SVG units.
pub const SHORT_HEIGHT: u32 = 185;

/// The canvas plots are drawn on for this screen: a phone's (narrow), a
/// short screen's (as wide, [`SHORT_HEIGHT`] tall, the text as large), or
/// the wide one; re-renders when that changes.
#[hook]
pub fn use_canvas() -> Canvas {
    let phone = use_media(PHONE);
    let short = use_media(SHORT_SCREEN);
    match (phone, short) {
        (true, _) => Canvas::PHONE,
        (false, true) => Canvas {
            height: SHORT_HEIGHT,
            ..Canvas::WIDE
        },
        (false, false) => Canvas::WIDE,
    }
}
