//! The browser app: a Yew single-page app that runs the engine client-side.
//!
//! [`input`] is the ground: the question and the view as typed documents,
//! with the keys and tables of every field. On it: [`url`] the share-link
//! codec, [`results`] what the engine computes for a question, [`charts`] the
//! plots (data apart from drawing), [`lessons`] and a student's [`guess`], [`planner`] the search and
//! [`reader`] the importers, both in the Web Worker of [`worker`] (started
//! from the page by [`thread`]), and [`browser`] the little glue to the page (location,
//! history, storage, clipboard, downloads). Above them [`state`], the one
//! reducer and its editors, and above it [`components`], the Yew
//! components. No file imports one above it (`tests/layering.rs`).

pub mod boot;
pub mod browser;
pub mod charts;
pub mod components;
pub mod guess;
pub mod input;
pub mod lessons;
pub mod model_doc;
pub mod planner;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
pub mod reader;
pub mod results;
pub mod shipped;
pub mod state;
pub mod thread;
pub mod track;
pub mod url;
pub mod words;
pub mod worker;

/// Mounts the app on the page's body, in place of `index.html`'s
/// placeholder or pre-rendered view (mounting empties the body, and the
/// first render follows in the same task, before anything is painted:
/// nothing blank, and the page keeps where it was scrolled). The parts of a
/// pre-rendered view the app draws after its first frame are kept first
/// and stay on screen until then ([`components::later`],
/// [`components::settled`]).
pub fn start() {
    // the app benchmark's mark: the WebAssembly is compiled and running
    browser::mark_once("paradl-started");
    // mounting empties the page's body: the pre-rendered parts the app adopts are kept first
    browser::keep_prerendered(&[
        components::results_view::FIRST_PART,
        components::results_view::LATER_PART,
        components::app::PAGE_LATER,
        components::app::INPUTS_NETWORK,
        components::app::INPUTS_EDITION,
    ]);
    yew::Renderer::<components::app::App>::new().render();
}
