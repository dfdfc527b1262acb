//! `use_media`: whether a CSS media query matches, following changes (a
//! projector's short screen draws the scaling plot shorter).

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use crate::app::browser::media as matches;

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
