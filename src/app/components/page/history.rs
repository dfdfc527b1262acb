//! Back and forward (and the page's undo and redo, which move through the
//! same history) show the views the user made: each history entry's
//! address holds its view, restored when the browser returns to it.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use yew::prelude::*;

use crate::app::components::AppContext;
use crate::app::page::{browser, url};
use crate::app::state::action::{Action, PageAction};

/// Restores the view of the history entry the browser moves to.
#[hook]
pub fn use_history(state: AppContext) {
    use_effect_with((), move |()| {
        let onpop = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            // the entry's place among the page's, as `browser::keep` recorded it (none: the first)
            let position = event
                .dyn_ref::<web_sys::PopStateEvent>()
                .and_then(|e| e.state().as_f64())
                .map_or(0, |p| p as usize);
            match url::decode(&browser::linked_state().unwrap_or_default()) {
                Ok(document) => state.dispatch(Action::Page(PageAction::Restore(Box::new(document), position))),
                Err(e) => state.dispatch(Action::Page(PageAction::Notify(format!(
                    "This view could not be restored ({e})."
                )))),
            }
        });
        let window = web_sys::window();
        if let Some(w) = &window {
            let _ = w.add_event_listener_with_callback("popstate", onpop.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = &window {
                let _ = w.remove_event_listener_with_callback("popstate", onpop.as_ref().unchecked_ref());
            }
            drop(onpop);
        }
    });
}
