//! A file shipped beside the page, fetched the first time a component
//! wants it; and the line that says it is loading or why it could not be.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::reference::shipped_files::{self, Shipped};

/// Where a shipped file stands for a component.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    /// Not wanted yet.
    Idle,
    /// Being fetched.
    Loading,
    /// Its text.
    Ready(Rc<str>),
    /// Why it could not be fetched (wanting it again tries again).
    Failed(String),
}

impl Fetched {
    /// The text, once fetched.
    pub fn text(&self) -> Option<&str> {
        match self {
            Self::Ready(text) => Some(text),
            _ => None,
        }
    }

    /// The text, once fetched, shared rather than copied.
    pub fn shared_text(&self) -> Option<Rc<str>> {
        match self {
            Self::Ready(text) => Some(Rc::clone(text)),
            _ => None,
        }
    }
}

/// The file's text once `wanted`: fetched the first time (or kept from an
/// earlier fetch of the page), [`Fetched::Loading`] meanwhile.
#[hook]
pub fn use_shipped(file: Shipped, wanted: bool) -> Fetched {
    let fetched = use_state(|| shipped_files::kept(file).map_or(Fetched::Idle, Fetched::Ready));
    {
        let fetched = fetched.clone();
        use_effect_with(wanted, move |&wanted| {
            if wanted && matches!(*fetched, Fetched::Idle | Fetched::Failed(_)) {
                match shipped_files::kept(file) {
                    Some(text) => fetched.set(Fetched::Ready(text)),
                    None => {
                        fetched.set(Fetched::Loading);
                        wasm_bindgen_futures::spawn_local(async move {
                            fetched.set(match shipped_files::fetch(file).await {
                                Ok(text) => Fetched::Ready(text),
                                Err(e) => Fetched::Failed(e),
                            });
                        });
                    }
                }
            }
        });
    }
    (*fetched).clone()
}

/// Props of [`FetchLine`].
#[derive(Properties, PartialEq, Clone)]
pub struct FetchLineProps {
    pub file: Shipped,
    /// Where it stands.
    pub fetched: Fetched,
}

/// "Loading the model's contract…" with a progress bar, or why it failed;
/// nothing once loaded or while not wanted.
#[function_component(FetchLine)]
pub fn fetch_line(props: &FetchLineProps) -> Html {
    match &props.fetched {
        Fetched::Loading => html! {
            <p class="quiet fetching" role="status">
                { format!("Loading {}… ", props.file.what()) }<progress />
            </p>
        },
        Fetched::Failed(e) => html! { <p class="error" role="alert">{ format!("{e}; open this again to retry.") }</p> },
        Fetched::Idle | Fetched::Ready(_) => html! {},
    }
}
