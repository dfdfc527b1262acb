//! The Web Worker's entry point: the planner's searches and the importers
//! (built by Trunk for wasm32 as a worker; see `index.html`).
// no unwrap, expect or panic outside tests: a panic in WebAssembly kills the page (src/ARCHITECTURE.md)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(target_arch = "wasm32")]
fn main() {
    paradl::app::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "paradl-worker is the browser app's worker (the planner and the importers): Trunk builds it with the app (see README.md)."
    );
}
