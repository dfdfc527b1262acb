//! ParaDL in the browser: an analytical oracle for distributed CNN
//! training. [`oracle`] is the engine; `cli` is the native command line.
// no unwrap, expect or panic outside tests: a panic in WebAssembly kills the page (src/ARCHITECTURE.md)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(feature = "web")]
pub mod app;
pub mod oracle;

#[cfg(all(feature = "cli", not(target_arch = "wasm32")))]
pub mod cli;
