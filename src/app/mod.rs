//! The browser app: a Yew single-page app that runs the engine client-side.
//!
//! [`input`] is the ground: the question and the view as typed documents,
//! with the keys and tables of every field. On it: [`results`] what the
//! engine computes for a question, [`charts`] the plots (data apart from
//! drawing), [`lessons`] and a student's guess, [`planner`] the search and
//! [`reader`] the importers, both in the Web Worker of [`worker`] (started
//! from the page by its `thread`), [`page`] the glue to the page (where a
//! visit starts, the share-link codec, location, history, storage,
//! clipboard, downloads, the pre-rendered pages) and [`reference`](mod@reference) the texts
//! shown beside the numbers. Above them [`state`], the one reducer and its
//! editors, and above it [`components`], the Yew components, a folder per
//! panel. No file imports one above it (`tests/engine/layering.rs`).

pub mod charts;
pub mod components;
pub mod input;
pub mod lessons;
pub mod page;
pub mod planner;
pub mod reader;
pub mod reference;
pub mod results;
pub mod state;
pub mod worker;

/// Mounts the app on the page's body, in place of `index.html`'s
/// placeholder or pre-rendered view (mounting empties the body, and the
/// first render follows in the same task, before anything is painted:
/// nothing blank, and the page keeps where it was scrolled). The parts of a
/// pre-rendered view the app draws after its first frame are kept first
/// and stay on screen until then ([`components::page::after_first_frame`],
/// [`components::results::after_ranking`]).
pub fn start() {
    // the app benchmark's mark: the WebAssembly is compiled and running
    page::browser::mark_once("paradl-started");
    // what was typed into the pre-rendered page is the app's first question
    // (page::boot::with_typed): then no pre-rendered part answers the old one
    let typed = !page::browser::typed_early(&page::boot::EARLY_FIELDS).is_empty();
    let focused = page::browser::focused_early();
    if !typed {
        // mounting empties the page's body: the pre-rendered parts the app adopts are kept first
        page::browser::keep_prerendered(&[
            components::results::results_view::FIRST_PART,
            components::results::results_view::LATER_PART,
            components::page::app::PAGE_LATER,
            components::page::app::INPUTS_NETWORK,
            components::page::app::INPUTS_EDITION,
        ]);
    }
    yew::Renderer::<components::page::app::App>::new().render();
    // the visitor typing as the app takes over goes on typing in the app's input
    if let Some(id) = focused {
        page::browser::refocus_after_paint(id);
    }
}
