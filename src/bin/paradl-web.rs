//! The browser app's entry point (built by Trunk for wasm32).

#[cfg(target_arch = "wasm32")]
fn main() {
    paradl::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("paradl-web is the browser app: build and serve it with `trunk serve` (see README.md).");
}
