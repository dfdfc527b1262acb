//! `paradl`: the oracle's command line (see `paradl --help`).
// no unwrap, expect or panic outside tests: a panic in WebAssembly kills the page (src/ARCHITECTURE.md)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    paradl::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
