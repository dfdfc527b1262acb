//! The browser app's entry point (built by Trunk for wasm32).
// no unwrap, expect or panic outside tests: a panic in WebAssembly kills the page (src/ARCHITECTURE.md)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(target_arch = "wasm32")]
fn main() {
    paradl::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("paradl-web is the browser app: build and serve it with `trunk serve` (see README.md).");
}
