//! The Web Worker's entry point: the planner's searches and the importers
//! (built by Trunk for wasm32 as a worker; see `index.html`).

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
