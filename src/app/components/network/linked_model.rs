//! A course page links the app with `?model=ADDRESS`: the network file
//! there is fetched once, when the page opens, and then opened as if
//! uploaded; a fetch or a file that fails says why in the notice and
//! leaves the view as it was.

use yew::prelude::*;

use crate::app::components::AppContext;
use crate::app::page::browser;
use crate::app::state::action::{Action, ModelAction, PageAction};

/// Fetches and opens the page's `?model=ADDRESS`, if it has one.
#[hook]
pub fn use_linked_model(state: AppContext) {
    use_effect_with((), move |()| {
        if let Some(address) = browser::linked_model() {
            wasm_bindgen_futures::spawn_local(async move {
                match browser::fetch_bytes(&address).await {
                    Ok(bytes) => state.dispatch(Action::Model(ModelAction::Linked(address, bytes.into()))),
                    Err(why) => state.dispatch(Action::Page(PageAction::Notify(format!(
                        "The network at {address} could not be fetched: {why}. The view is unchanged."
                    )))),
                }
            });
        }
    });
}
