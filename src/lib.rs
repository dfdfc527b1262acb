//! ParaDL in the browser: an analytical oracle for distributed CNN
//! training. [`oracle`] is the engine; `cli` is the native command line.

#[cfg(feature = "web")]
pub mod app;
pub mod oracle;

#[cfg(all(feature = "cli", not(target_arch = "wasm32")))]
pub mod cli;
