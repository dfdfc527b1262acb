//! The browser app: a Yew single-page app that runs the engine client-side.
//!
//! [`state`] holds the one reducer and its editors, [`url`] the share-link
//! codec, [`results`] what the engine computes for a view, [`charts`] the
//! plots (data apart from drawing), [`components`] the Yew components,
//! [`planner`] the search in a Web Worker and [`browser`] the little glue to the page (location, history, storage,
//! clipboard, downloads).

pub mod boot;
pub mod browser;
pub mod charts;
pub mod components;
pub mod lessons;
pub mod model_doc;
pub mod planner;
pub mod results;
pub mod state;
pub mod url;

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<components::app::App>::new().render();
}
