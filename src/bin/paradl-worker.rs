//! The planner's Web Worker entry point (built by Trunk for wasm32 as a
//! worker; see `index.html`).

#[cfg(target_arch = "wasm32")]
fn main() {
    paradl::app::planner::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("paradl-worker is the browser app's planner worker: Trunk builds it with the app (see README.md).");
}
