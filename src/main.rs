//! `paradl`: the oracle's command line (see `paradl --help`).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    paradl::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
